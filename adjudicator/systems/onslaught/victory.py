"""Onslaught's victory points (13.3): each side's score of a position, the winner and the level.

Automatic victory (13.1, 13.2) is judged here too. Rulings: docs/rules-coverage.md, the rulings register (13.3)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from adjudicator.findings import Finding
from adjudicator.notation.entries import Declare, Entry, TurnMarker
from adjudicator.systems.base import PerGame
from adjudicator.systems.onslaught import supply
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import OnslaughtState, replace, turn_and_step, unit_of
from adjudicator.systems.onslaught.supply import is_supplied
from adjudicator.systems.onslaught.supply_map import SupplyMap
from adjudicator.systems.onslaught.tables import area_of
from adjudicator.systems.onslaught.zoc import near_enemy, zone_of_control
from wargame.errors import DataError, did_you_mean
from wargame.game import Game
from wargame.hexes import DIRECTIONS, Hex
from wargame.records import frozen


SCORING_AREAS: dict[str, str] = {"German": "west_of_rhine", "Allied": "east_of_victory_line"}
"""13.3: the area whose divisions in supply score for each side."""

EAST_EDGE = "east_edge"
FRANCE = "france"
SEA = "sea"
SEA_SIDE = "sea_side"
LEVELS_CHART = "victory_levels"


@frozen


class GapMap:
    """The map facts the gap bonus asks about (13.3), computed once per game."""

    links: dict[Hex, tuple[Hex, ...]]
    """Each hex a division may enter, with the neighbours it may step to (not across the sea)."""
    east_edge: tuple[Hex, ...]
    """The east edge hexes a division may enter, in label order: where a path starts."""
    french_coast: frozenset[Hex]
    """The coast of France: where a path ends."""

    @staticmethod
    def of(game: Game) -> GapMap:
        """The gap facts of a game, built once per game by the rule system (not set on `Game`)."""
        return _gap_maps(game)

    @staticmethod
    def _build(game: Game) -> GapMap:
        sides = game.hexside_features
        # 13.3: the path is made of hexes a division may enter, stepping across sides it may cross:
        # the same steps a supply line takes (8.3).
        links = SupplyMap.of(game).links
        passable = frozenset(links)
        grid = game.grid
        edge = tuple(sorted((h for h in area_of(game, EAST_EDGE) if h in passable), key=grid.label_of))
        # 13.3 "coast of France": next to an all-sea hex, or across a sea hexside (an estuary). The hexes
        # beside either are found from the sea's few hexes and hexsides, as coordinates (a Hex equals and
        # hashes as its tuple), rather than by asking each hex of France about its six neighbours.
        beside: set[tuple[int, int]] = {(q + dq, r + dr) for (q, r), ts in game.hex_terrain.items() if SEA in ts
                                        for dq, dr in DIRECTIONS}
        beside.update(h for hexside, features in sides.items() if SEA_SIDE in features for h in hexside)
        coast = frozenset(h for h in area_of(game, FRANCE) if h in passable and h in beside)
        return GapMap(links, edge, coast)


_gap_maps = PerGame(GapMap._build)
"""Each game's gap facts (13.3), owned by the rule system."""


@frozen


class Gap:
    """A side's gap bonus (13.3): its points, whether the gap is wide, and a path that earns it."""

    points: int
    wide: bool
    path: tuple[str, ...]
    """Hex labels from the east edge to the coast of France."""
    distance_mp: int
    """The distance a wide gap keeps from every enemy division (`wide_gap_min_distance_mp`)."""


@frozen


class SideScore:
    """One side's victory points (13.3): the divisions counted and the gap bonus, if any."""

    side: str
    area: str
    """Name of the scoring area, e.g. "West of the Rhine"."""
    divisions: tuple[str, ...]
    """Divisions in the scoring area and in supply: one point each."""
    out_of_supply: tuple[str, ...]
    """Divisions in the scoring area that score nothing because they are out of supply."""
    gap: Gap | None

    @property
    def division_points(self) -> int:
        """One point per division counted."""
        return len(self.divisions)

    @property
    def bonus_points(self) -> int:
        """The gap bonus (0 without one)."""
        return self.gap.points if self.gap is not None else 0

    @property
    def total(self) -> int:
        """Division points plus the gap bonus."""
        return self.division_points + self.bonus_points


@frozen


class Score:
    """The 13.3 score of a position: each side's points, the winner and the level of victory."""

    sides: tuple[SideScore, ...]
    winner: str | None
    level: str | None
    difference: int

    def of(self, side: str) -> SideScore:
        """One side's score."""
        for one in self.sides:
            if one.side == side:
                return one
        raise KeyError(f"no side {side!r} (sides: {', '.join(s.side for s in self.sides)})")

    def lines(self) -> list[str]:
        """The score explained, one line per side, then the verdict."""
        out = []
        for one in self.sides:
            enemy = next(s.side for s in self.sides if s.side != one.side)
            area = one.area[:1].lower() + one.area[1:]
            text = (f"{one.side}: {one.total} victory points: {one.division_points} division(s) in supply {area}"
                    f"{' (' + ', '.join(one.divisions) + ')' if one.divisions else ''}")
            if one.out_of_supply:
                text += f"; out of supply, not counted: {', '.join(one.out_of_supply)}"
            bonus = one.gap
            if bonus is None:
                text += (f"; no gap bonus: every path from the east edge to the coast of France enters "
                         f"{enemy} ZOC")
            else:
                how = (f"every hex of it {bonus.distance_mp} movement points or more from every {enemy} division"
                       if bonus.wide else f"clear of {enemy} ZOC, but no such path keeps {bonus.distance_mp} "
                                          f"movement points from every {enemy} division")
                text += (f"; {'wide ' if bonus.wide else ''}gap bonus {bonus.points}: path {' '.join(bonus.path)} "
                         f"from the east edge to the coast of France, {how}")
            out.append(text + " (13.3)")
        totals = " to ".join(str(one.total) for one in sorted(self.sides, key=lambda s: -s.total))
        if self.winner is None:
            out.append(f"Equal scores ({totals}): no winner (13.3)")
        else:
            out.append(f"{self.winner} {self.level} victory by {self.difference} point(s), {totals} (13.3)")
        return out

    def describe(self) -> dict[str, object]:
        """The score as JSON data."""
        return {
            "sides": {one.side: {
                "area": one.area, "divisions": list(one.divisions), "out_of_supply": list(one.out_of_supply),
                "division_points": one.division_points,
                "gap": None if one.gap is None else {"points": one.gap.points, "wide": one.gap.wide,
                                                     "path": list(one.gap.path),
                                                     "distance_mp": one.gap.distance_mp},
                "total": one.total,
            } for one in self.sides},
            "winner": self.winner, "level": self.level, "difference": self.difference,
            "lines": self.lines(),
        }


def victory_level(game: Game, difference: int) -> str | None:
    """The level of victory of a difference in victory points (13.3 chart); None for no difference."""
    if difference <= 0:
        return None     # 13.3: equal scores, nobody has the most points
    chart = next((c for c in game.charts.chart if c.id == LEVELS_CHART), None)
    if chart is None:
        raise DataError(f"{game.id}: no chart {LEVELS_CHART!r} (13.3 levels of victory)")
    low, high, level = (chart.columns.index(name) for name in ("vp_difference_min", "vp_difference_max", "level"))
    for row in chart.rows:
        # The chart's note: an empty maximum means no upper limit.
        if int(row[low]) <= difference and (not row[high] or difference <= int(row[high])):
            return row[level]
    raise DataError(f"{game.id}: chart {LEVELS_CHART!r} has no row for a difference of {difference}")


def verdict(game: Game, totals: Mapping[str, int]) -> tuple[str | None, str | None, int]:
    """Winner, level of victory and difference of two sides' totals (13.3)."""
    (first, a), (second, b) = sorted(totals.items())
    difference = abs(a - b)
    winner = None if a == b else first if a > b else second
    return winner, victory_level(game, difference), difference


def gap_path(links: Mapping[Hex, Iterable[Hex]], starts: Iterable[Hex], ends: frozenset[Hex],
             closed: frozenset[Hex] | set[Hex]) -> tuple[Hex, ...] | None:
    """A shortest path of open hexes from one of `starts` to one of `ends`, or None (13.3)."""
    # 13.3 with 6.2: the first hex counts too, so a start in a closed hex is no start.
    parent: dict[Hex, Hex | None] = {h: None for h in starts if h not in closed}
    frontier = deque(parent)
    while frontier:
        h = frontier.popleft()
        if h in ends:
            path = [h]
            while (before := parent[path[-1]]) is not None:
                path.append(before)
            return tuple(reversed(path))
        for n in links.get(h, ()):
            if n not in parent and n not in closed:
                parent[n] = h
                frontier.append(n)
    return None


def gap_bonus(state: OnslaughtState, side: str) -> Gap | None:
    """The gap bonus `side` earns in a position (13.3), with a path that earns it; None if none."""
    game = state.game
    gap_map = GapMap.of(game)
    enemy = next(s for s in game.manifest.sides if s != side)
    # 13.3: "without entering an enemy ZOC" (6.2).
    zoc = zone_of_control(state, enemy)
    # 13.3 with 6.4: every hex three movement points or more from all enemy divisions.
    near = near_enemy(state, side)
    label = game.grid.label_of
    distance_mp = int(game.parameter["wide_gap_min_distance_mp"])
    wide = gap_path(gap_map.links, gap_map.east_edge, gap_map.french_coast, zoc | near)
    if wide is not None:
        # 13.3: one bonus per side, the larger when both apply.
        return Gap(int(game.parameter["wide_gap_bonus_vp"]), True, tuple(label(h) for h in wide), distance_mp)
    narrow = gap_path(gap_map.links, gap_map.east_edge, gap_map.french_coast, zoc)
    if narrow is not None:
        return Gap(int(game.parameter["gap_bonus_vp"]), False, tuple(label(h) for h in narrow), distance_mp)
    return None


def side_score(state: OnslaughtState, side: str) -> SideScore:
    """One side's victory points in a position (13.3)."""
    game = state.game
    area = game.areas_by_id[SCORING_AREAS[side]]
    inside = area_of(game, area.id)
    grid = game.grid
    units = game.units_by_id
    # 13.3: no exclusion for fortified ports (13.2 has one); units in boxes are not in the area.
    present = sorted(u for u, where in state.location.items()
                     if units[u].side == side and grid.is_label(where) and grid.hex_of(where) in inside)
    # A search from each division in the area (stopping at its side's first source or a hex an earlier one joined
    # to one), not a flood of the whole map from every source: the area holds a few dozen divisions at most, and
    # often none of a side (the Allies' at the start), whose flood found nothing to count.
    counted = tuple(u for u in present if is_supplied(state, u))
    unsupplied = tuple(u for u in present if u not in counted)
    return SideScore(side, area.name, counted, unsupplied, gap_bonus(state, side))


def score(state: OnslaughtState) -> Score:
    """The 13.3 score of a position: both sides' points, the winner and the level of victory."""
    sides = tuple(side_score(state, side) for side in state.game.manifest.sides)
    winner, level, difference = verdict(state.game, {one.side: one.total for one in sides})
    return Score(sides, winner, level, difference)


def after_the_end(state: OnslaughtState, entry: Entry) -> Finding | None:
    """13.0, 13.2: the game ended with the turn this marker closes (the engine refuses any entry
    after a victory already recorded)."""
    if isinstance(entry, TurnMarker) and state.at.turn:
        won = automatic_victory(state, turn_over=True)
        if won is not None:
            return finding("error", won[1], entry, f"the game ended with turn {state.at.turn}: the {won[0]} player "
                                                   f"won an automatic victory ({won[2]})")
    return None


_victory_areas: PerGame[tuple[frozenset[str], frozenset[str]]] = PerGame(
    lambda game: (frozenset(game.areas_by_id["west_of_rhine"].hexes),
                  frozenset(game.areas_by_id["east_of_victory_line"].hexes)))
"""13.2's areas by hex label: west of the Rhine, east of the Victory Line (asked at every turn's end)."""


_allied_units: PerGame[tuple[str, ...]] = PerGame(
    lambda game: tuple(u.id for _, u in game.units if u.side == "Allied"))
"""Each game's Allied divisions (13.1)."""


_on_map_hint: PerGame[list[str]] = PerGame(lambda game: [])
"""The Allied division 13.1's test last found on the map in a game (where the next test looks first)."""


def automatic_victory(state: OnslaughtState, turn_over: bool) -> tuple[str, str, str] | None:
    """The winner, section and reason of an automatic victory in this position, if any (13.1, 13.2)."""
    game = state.game
    grid = game.grid
    # 13.1: at any time, no Allied units on the map, or no supply points and no sources. Asked after
    # every move: only the Allied divisions' places are looked at, not every unit's.
    location = state.location
    # The division found on the map last time is looked at first: it is almost always still there.
    hint = _on_map_hint(game)
    if not (hint and (where := location.get(hint[0])) is not None and grid.is_label(where)):
        found = next((u for u in _allied_units(game) if (where := location.get(u)) is not None and grid.is_label(where)),
                     None)
        if found is None:
            return "German", "13.1", "the Allied player has no units on the map"
        hint[:] = [found]
    if state.supply.get("Allied", 0) <= 0 and not supply.allied_sources(state, state.controlled):
        return "German", "13.1", "the Allied player has no supply points and no supply sources"
    if not turn_over:
        return None
    last = next(sc.last_turn for sc in game.manifest.scenario if sc.id == state.scenario)
    if state.at.turn >= last:
        return None
    # 13.2: at the end of a turn before the last, no German division in supply west of the Rhine
    # (fortified ports aside) and 15 Allied divisions in supply east of the Victory Line.
    west, east = _victory_areas(game)
    needed = int(game.parameter["allied_automatic_victory_divisions"])
    # The positions first, the supply lines (a search over the whole map) only when they could decide.
    east_of_line = [u for u, where in state.location.items() if where in east and unit_of(state, u).side == "Allied"]
    if len(east_of_line) < needed:
        return None
    # Each division's own search (8.3), stopping at the first source and sharing what earlier searches
    # found joined, rather than the whole map's supplied hexes: the same answer (supply.traces_to).
    allied_east = [u for u in east_of_line if supply.is_supplied(state, u)]
    if len(allied_east) < needed:
        return None
    fortified = {label for label, _ in SupplyMap.of(game).fortified_ports}
    german_west = any(unit_of(state, u).side == "German" and where in west and where not in fortified
                      and supply.is_supplied(state, u) for u, where in state.location.items())
    if not german_west:
        return "Allied", "13.2", (f"at the end of turn {state.at.turn} no German division west of the Rhine is "
                                  f"in supply and {len(allied_east)} Allied divisions east of the Victory "
                                  "Line are")
    return None


AUTOMATIC = "automatic"
"""The level a claim names for an automatic victory (13.1, 13.2), which the 13.3 chart does not grade."""


def step_end_claim(state: OnslaughtState, entry: Declare) -> bool:
    """Ruling 13.2 / 13.3: a claim made in a Reinforcement Step with no automatic victory recorded is of what the turn's
    end decides (13.2's automatic victory, 13.3's victory points), so it is judged as the step ends, not where made."""
    return entry.what == "victory" and state.victory is None and state.at.step == "reinforcement"


def check_claim(state: OnslaughtState, entry: Declare) -> list[Finding]:
    """A claim of victory judged where it is made, unless the Reinforcement Step's end decides it (`judged_claims`)."""
    return [] if step_end_claim(state, entry) else judge_claim(state, entry)


def apply_claim(state: OnslaughtState, entry: Declare) -> OnslaughtState:
    """A claim the step's end decides is kept until then (ruling 13.2 / 13.3)."""
    if not step_end_claim(state, entry):
        return state
    return replace(state, log=replace(state.log, claims=(*state.log.claims, entry)))


def judged_claims(state: OnslaughtState) -> list[Finding]:
    """The claims of the Reinforcement Step judged on the position it ends in (the next turn marker, or the log's
    end), each finding on its claim's line."""
    return [f for claim in state.log.claims for f in judge_claim(state, claim)]


def judge_claim(state: OnslaughtState, entry: Declare) -> list[Finding]:
    """`Side: declare victory [LEVEL] [points SIDE N SIDE N]` against the referee's count: an automatic victory
    (13.1 at any time, 13.2 as a turn ends: claimed in its Reinforcement Step or after it), else the victory
    points once the last turn's Reinforcement Step is reached (13.3), the winner, the level and the points."""
    if entry.what != "victory":
        return []
    sides = list(state.game.manifest.sides)
    for named in entry.points:
        if named not in sides:
            return [finding("error", "log", entry, f"{named!r} is not a side{did_you_mean(named, sides)} (sides: "
                                                   f"{', '.join(sides)})")]
    side = entry.side or "?"
    last = next(sc.last_turn for sc in state.game.manifest.scenario if sc.id == state.scenario)
    won = (state.victory.winner, state.victory.section, state.victory.reason) if state.victory is not None \
        else automatic_victory(state, turn_over=state.at.step == "reinforcement")
    over = won is None and state.at.turn == last and state.at.step == "reinforcement"
    counted = score(state) if entry.points or over else None
    level: str | None
    winner: str | None
    if won is not None:
        winner, section, level, why = won[0], won[1], AUTOMATIC, f"an automatic victory: {won[2]}"
    elif counted is not None and state.at.turn == last and state.at.step == "reinforcement":
        winner, section, level, why = counted.winner, "13.3", counted.level, counted.lines()[-1]
    else:
        # Ruling: a claim with no victory to stand on misreads the condition it names: 13.3's count when it names
        # a level or points, else the side's automatic victory (13.1 German, 13.2 Allied).
        section = "13.3" if entry.level or entry.points else "13.1" if side == "German" else "13.2"
        return [finding("error", section, entry, f"{turn_and_step(state)}: {side} claims victory, but no automatic "
                                                 f"victory holds (13.1, 13.2) and victory points count only once turn "
                                                 f"{last}'s Reinforcement Step is reached (13.3)")]
    wrong: list[str] = []
    if winner != side:
        wrong.append(f"the {winner} player wins" if winner else "nobody wins")
    if entry.level is not None and entry.level != level:
        wrong.append(f"the level is {level or 'none'}, not {entry.level}")
    if counted is not None and any(counted.of(s).total != n for s, n in entry.points.items()):
        wrong.append("the victory points are " + " ".join(f"{s} {counted.of(s).total}" for s in sides) + ", not "
                     + " ".join(f"{s} {n}" for s, n in entry.points.items()))
        if len(wrong) == 1:
            section, why = "13.3", "; ".join(counted.lines())
    if not wrong:
        return []
    return [finding("error", section, entry, f"{side} claims victory, but {'; '.join(wrong)}: {why}")]
