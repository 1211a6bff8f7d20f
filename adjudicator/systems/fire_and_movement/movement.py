"""Movement (5.1, 5.2, 5.4, 5.5) with zones of control's effect on it (6.1): one model of a unit's
move, `move_rule`, asked for by the checker, the VASSAL reader and the benchmark generators alike.

Rulings: docs/rules-coverage.md's register, rows F&M 5.2, F&M 6.1 and F&M 6.1 / 11.2.3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container

from adjudicator.contract import MOVE_KINDS, Reach
from adjudicator.findings import Finding
from adjudicator.notation.entries import Move
from adjudicator.systems.base import PerGame
from adjudicator.systems.fire_and_movement.base import SeriesArea
from adjudicator.systems.fire_and_movement.state import S
from adjudicator.systems.fire_and_movement.zoc import IGNORE_EZOC, ZonesOfControl
from wargame.errors import WargameError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.paths import reachable
from wargame.records import frozen


@frozen
class MoveRule:
    """One unit's move in a state (5.1-5.4, 6.1): what a step costs, where the unit must stop, and
    its budget; `wargame.paths.reachable(start, rule.cost, rule.budget, stops=rule.stops)` walks it."""

    budget: float
    """MP the unit may still spend (its allowance less what its arrival cost, 5.2)."""
    terrain_cost: Callable[[Hex, Hex], float | None]
    """5.4: the terrain's cost of a step, None when prohibited (5.2 e)."""
    enemy: frozenset[Hex]
    """Hexes enemy units hold (5.2: never entered)."""
    ezoc: frozenset[Hex]
    """Enemy zones of control that affect this unit (none for rangers and commandos, 6.1)."""
    ezoc_cost: int
    """6.1: what a mobile unit pays on top to enter an EZOC (half its printed MA); 0 for a leg unit."""
    mobile: bool
    barrier: Callable[[Hex, Hex], bool]
    """6.1 exception: whether a step from one EZOC into another is never allowed (a minefield
    hexside, a fortification)."""
    on_map: Container[Hex]
    """The map's hexes (5.2: a unit never leaves the map)."""
    off_limits: frozenset[Hex] = frozenset()
    """Hexes a folio's scenario puts out of play (Omaha 10.1)."""

    def cost(self, a: Hex, b: Hex) -> float | None:
        """MP to step from `a` into the adjacent `b`, None when the unit may not (5.2, 5.4, 6.1)."""
        if b in self.enemy or b in self.off_limits or b not in self.on_map:
            return None
        step = self.terrain_cost(a, b)
        if step is None:
            return None
        if b in self.ezoc:
            if a in self.ezoc and self.barrier(a, b):
                return None
            if self.mobile:
                return step + self.ezoc_cost
        return step

    def stops(self, h: Hex) -> bool:
        """6.1: a leg unit stops on entering an enemy zone of control."""
        return not self.mobile and h in self.ezoc


STEP_COSTS: PerGame[dict[tuple[Hex, Hex], float | None]] = PerGame(lambda game: {})
"""Each game's step costs (5.4) as they are asked for (the map never changes)."""
TERRAIN_COSTS: PerGame[dict[tuple[tuple[str, ...], frozenset[str]], float | None]] = PerGame(lambda game: {})
"""Each game's cost of entering a hex, by its terrain ids and the hexside's features (5.4)."""


def barred_hexes(game: Game) -> frozenset[Hex]:
    """The map hexes of prohibited terrain (5.2 e), which no unit enters and no path crosses."""
    terrain = game.terrain
    prohibited = {t for t, kind in terrain.items() if kind.prohibited}
    return frozenset(h for h, kinds in game.hex_terrain.items() if not prohibited.isdisjoint(kinds))


BARRED: PerGame[frozenset[Hex]] = PerGame(barred_hexes)
"""Each game's hexes of prohibited terrain (5.2 e; Omaha 10.1's playable area leaves them out too)."""


def open_steps(game: Game) -> dict[Hex, tuple[Hex, ...]]:
    """Each map hex's neighbours a unit may step into at all: not into prohibited terrain nor across a
    prohibited hexside (5.2 e), the only steps `Movement.step_cost` prices None. Built in one pass over
    the map's terrain, for the searches that ask only whether a step is open (a supply path)."""
    terrain = game.terrain
    prohibited = {t for t, kind in terrain.items() if kind.prohibited}
    barred = BARRED(game)
    # The few prohibited hexsides as each of their hexes' closed neighbours.
    walled: dict[Hex, set[Hex]] = {}
    for (a, b), features in game.hexside_features.items():
        if not prohibited.isdisjoint(features):
            walled.setdefault(a, set()).add(b)
            walled.setdefault(b, set()).add(a)
    steps: dict[Hex, tuple[Hex, ...]] = {}
    for h, around in game.grid.neighbour_map.items():
        walls = walled.get(h)
        steps[h] = tuple([n for n in around if n not in barred and (walls is None or n not in walls)])
    return steps


OPEN_STEPS: PerGame[dict[Hex, tuple[Hex, ...]]] = PerGame(open_steps)
"""Each game's open steps (5.2 e), built on the first request (the map never changes)."""


class Movement(SeriesArea[S]):
    """5.1-5.5 and 6.1's effects on movement."""

    def step_cost(self, game: Game, a: Hex, b: Hex) -> float | None:
        """MP to move from `a` into the adjacent `b` (5.4, 5.4.1, 5.4.2), None when prohibited (5.2 e)."""
        costs = STEP_COSTS(game)
        key = (a, b)
        if key not in costs:
            costs[key] = self._terrain_cost(game, a, b)
        return costs[key]

    def _pricer(self, game: Game) -> Callable[[Hex, Hex], float | None]:
        """`step_cost` for one game, its tables looked up once (a move rule prices every step it walks)."""
        costs = STEP_COSTS(game)
        combinations = TERRAIN_COSTS(game)
        features_of = game.hexside_features
        kinds_of = game.hex_terrain
        none: frozenset[str] = frozenset()

        def price(a: Hex, b: Hex) -> float | None:
            key = (a, b)
            if key in costs:
                return costs[key]
            # Adjacent by the caller's word (no `Hexside.between` check per step priced).
            terrain = (kinds_of.get(b, ()), features_of.get(Hexside(a, b) if a < b else Hexside(b, a), none))
            if terrain not in combinations:
                combinations[terrain] = self._combination_cost(game, *terrain)
            cost = costs[key] = combinations[terrain]
            return cost

        return price

    @staticmethod
    def _terrain_cost(game: Game, a: Hex, b: Hex) -> float | None:
        # Adjacent by the caller's word (no `Hexside.between` check per step priced).
        features = game.hexside_features.get(Hexside(a, b) if a < b else Hexside(b, a), frozenset())
        kinds = game.hex_terrain.get(b, ())
        # A map has few distinct terrain and hexside combinations: each is costed once.
        combinations = TERRAIN_COSTS(game)
        key = (kinds, features)
        if key not in combinations:
            combinations[key] = Movement._combination_cost(game, kinds, features)
        return combinations[key]

    @staticmethod
    def _combination_cost(game: Game, kinds: tuple[str, ...], features: frozenset[str]) -> float | None:
        """MP to enter a hex of these terrain ids across a hexside with these features (5.4, 5.4.1, 5.4.2)."""
        terrain = game.terrain
        if any(terrain[t].prohibited for t in kinds) or any(terrain[f].prohibited for f in features):
            return None
        # 5.4.1, 5.4.2: along a road (trail) hexside the road (trail) rate replaces every other cost.
        for route in ("road", "trail"):
            rate = terrain[route].mp_cost if route in features and route in terrain else None
            if rate is not None:
                return float(rate)
        base = max((float(c) for t in kinds if (c := terrain[t].mp_cost) is not None), default=1.0)
        added = sum(float(terrain[t].mp_add or 0) for t in kinds)
        added += sum(float(terrain[f].mp_add or 0) for f in features if f not in ("road", "trail"))
        return base + added

    def move_rule(self, state: S, unit_id: str, kind: str = "move") -> MoveRule:
        """How a unit may move now (5.1-5.4, 6.1): the one model the checker, the VASSAL reader and the
        generators ask for; WargameError for strategic movement (an Onslaught rule) or a unit off the map."""
        self._movement_kind(kind)
        if unit_id not in state.game.units_by_id:
            raise WargameError(state.game.unknown_unit(unit_id))
        if self.rules._on_map(state, unit_id) is None:
            raise WargameError(f"{unit_id} is not on the map ({state.location.get(unit_id) or 'not in play'})")
        return self._rule(state, unit_id, self.rules.allowance(state, unit_id), self.rules.first_hex_cost(state, unit_id))

    def _rule(self, state: S, unit_id: str, allowance: int, spent: float) -> MoveRule:
        """`move_rule` for a unit on the map, with its movement allowance and the MP it has spent already."""
        game = state.game
        unit = game.units_by_id[unit_id]
        mobile = unit.mobility == "mobile"
        # 6.1: half the MA, rounded down, to enter an EZOC: the MA a folio's weather has halved, as 5.2 a's "printed
        # MA" is (else no mobile unit could enter an EZOC at all in such weather; register row F&M 6.1 / Omaha 14.1).
        return MoveRule(budget=allowance - spent, terrain_cost=self._pricer(game), enemy=self.rules.enemy_hexes(state, unit.side),
                        ezoc=frozenset() if unit.type in IGNORE_EZOC else self.rules.ezoc(state, unit.side),
                        ezoc_cost=self.rules.allowance(state, unit_id) // 2 if mobile else 0, mobile=mobile,
                        barrier=lambda a, b: ZonesOfControl.is_ezoc_barrier(game, a, b), on_map=game.grid,
                        off_limits=self.rules.off_limits(state))

    def move_bars(self, state: S, unit_id: str) -> tuple[list[tuple[str, str]], bool]:
        """What bars a unit from moving now at all, whatever its path (5.2, 5.5, 8.5): (section, message)
        in the order judged, and whether the first ends the judging of the move; the checker and the
        generators (`may_move`) ask. That a player moves his own units in his own Movement and Mobile
        Movement Phases only (5.2) is the phase's `entries` in game.toml, which the engine checks first."""
        unit = self.rules._unit(state, unit_id)
        phase = self.rules.phase_id(state)
        if phase == "mobile_movement":
            if unit.mobility != "mobile":
                return [("5.5", f"{unit_id} is a leg unit; leg units never move in the Mobile Movement Phase")], True
            if unit_id in state.log.moved_in_movement:
                return [("5.5", f"{unit_id} moved in this player turn's Movement Phase and does not move again in "
                                "the Mobile Movement Phase")], True
        out = []
        if unit_id in state.log.moved:
            out.append(("5.2", f"{unit_id} has already moved in this player turn"))
        if unit_id in state.log.advanced:
            out.append(("8.5", f"{unit_id} advanced after combat this player turn and does nothing more in it"))
        return out, False

    @staticmethod
    def _movement_kind(kind: str) -> None:
        """WargameError unless `kind` is normal movement: the series has no strategic movement."""
        if kind not in MOVE_KINDS:
            raise WargameError(f"unknown kind of movement {kind!r}{did_you_mean(kind, MOVE_KINDS)} (kinds: "
                               f"{', '.join(MOVE_KINDS)})")
        if kind != "move":
            raise WargameError("Fire & Movement has no strategic movement (an Onslaught rule): ask for 'move'")

    def reach(self, state: S, unit_id: str, kind: str = "move") -> Reach:
        """Every hex a unit may still move to now with the MP it has left, and what reaching it costs (5.1-5.5,
        6.1, a folio's own rules), or why it may not move now."""
        if unit_id not in state.game.units_by_id:
            raise WargameError(state.game.unknown_unit(unit_id))
        if kind == "strategic":
            return Reach({}, ("log: Fire & Movement has no strategic movement (an Onslaught rule)",))
        self._movement_kind(kind)
        start = self.rules._on_map(state, unit_id)
        if start is None:
            where = state.location.get(unit_id)
            return Reach({}, (f"5.2: {unit_id} is not on the map ({where or 'not in play'})",))
        bars, _ = self.move_bars(state, unit_id)
        bars += self.rules.folio_bars(state, unit_id)
        if bars:
            return Reach({}, tuple(f"{section}: {message}" for section, message in bars))
        rule = self.move_rule(state, unit_id)
        walked = reachable(start, rule.cost, rule.budget, stops=rule.stops)
        label = state.game.grid.label_of
        # 5.3: a unit moves through friends but never ends its movement stacked beyond what the hex takes.
        side = state.game.units_by_id[unit_id].side
        held = Counter(w for u, w in state.location.items() if u != unit_id and state.game.units_by_id[u].side == side)
        return Reach({label(h): cost for h, cost in sorted(walked.cost.items())
                      if h != start and held[label(h)] < self.rules.stack_limit(state, label(h))})

    def may_move(self, state: S, unit_id: str) -> bool:
        """Whether a unit may move now at all, as the generators ask: the phase allows its side's moves
        (5.2, the sequence's `entries`, as the engine checks them), then the series' bars and its folio's."""
        slot = self.rules.slot(state)
        unit = self.rules._unit(state, unit_id)
        return slot is not None and slot.allows("move", unit.side, (unit.type,)) and \
            not self.move_bars(state, unit_id)[0] and self.rules.folio_may_move(state, unit_id)

    def _check_move(self, state: S, entry: Move) -> list[Finding]:
        return self._check_path(state, entry) + self._ends_stacked(state, entry)

    def _ends_stacked(self, state: S, entry: Move) -> list[Finding]:
        """5.3: a unit never ends its movement stacked (beyond what the hex takes, a folio's beach stack): its own
        error, whether or not the other unit leaves before the phase ends (then the phase's end does not judge
        the stack again, `stacked_by_move`)."""
        here = self.stacked_by_move(state, entry)
        if not here:
            return []
        limit = self.rules.stack_limit(state, entry.path[-1])
        others = sorted(here - {entry.unit})
        takes = "a unit never ends its movement stacked with another" if limit == 1 else \
            f"{entry.path[-1]} takes {limit} and a unit never ends its movement stacked beyond that"
        return [self._f("error", "5.3", entry, f"{entry.unit} ends its movement in {entry.path[-1]} with "
                                               f"{', '.join(others)}; {takes} (5.3)")]

    def stacked_by_move(self, state: S, entry: Move) -> frozenset[str]:
        """The units of the mover's side (the mover too) in the hex a move carried out ends in, when it holds more
        than it takes; empty when it does not (or the move is not carried out: written from another hex)."""
        game = state.game
        end = entry.path[-1]
        if entry.unit not in game.units_by_id or state.location.get(entry.unit) != entry.path[0] or \
                len(entry.path) < 2 or not game.grid.is_label(end) or not game.grid.is_label(entry.path[0]):
            return frozenset()
        side = game.units_by_id[entry.unit].side
        there = [u for u, w in state.location.items() if w == end and u != entry.unit]
        if any(game.units_by_id[u].side != side for u in there):
            return frozenset()  # into an enemy-held hex: 5.2 d's breach; the phase's end judges the own units there
        here = frozenset(there)
        return here | {entry.unit} if len(here) + 1 > self.rules.stack_limit(state, end) else frozenset()

    def _check_path(self, state: S, entry: Move) -> list[Finding]:
        game = state.game
        where = state.location.get(entry.unit)
        out: list[Finding] = []
        early = self.rules.folio_move(state, entry)
        if early is not None:
            return early
        bars, final = self.move_bars(state, entry.unit)
        out += [self._f("error", section, entry, message) for section, message in bars]
        if final:
            return out
        if entry.strategic:
            out.append(self._f("error", "log", entry, "Fire & Movement has no strategic movement (an Onslaught "
                                                      "rule); write the move without 'strategic'"))
        if where is None or not game.grid.is_label(where):
            return out + [self._f("error", "5.2", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
        if entry.path[0] != where:
            return out + [self._f("error", "5.1", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
        off = [label for label in entry.path if not game.grid.is_label(label)]
        if off:
            return out + [self._f("error", "5.2f", entry, f"{entry.unit} leaves the map at {off[0]}; a unit exits the map "
                                                          "only where the exclusive rules allow it")]
        folio = self.rules.folio_path(state, entry)
        if folio:
            return out + folio
        return out + self._walk(state, entry)

    def _walk(self, state: S, entry: Move) -> list[Finding]:
        """5.1, 5.2, 5.4, 6.1: the move's steps, hex by hex, against the unit's move rule."""
        game = state.game
        hex_of = game.grid.hex_of
        hexes = [hex_of(label) for label in entry.path]
        around = game.grid.neighbour_map
        allowance = self.rules.allowance(state, entry.unit)
        spent = self.rules.first_hex_cost(state, entry.unit)  # paid on arriving (a folio's arrivals)
        rule = self._rule(state, entry.unit, allowance, spent)  # the unit is on the map (`_check_move`)
        zoc_paid = 0
        out: list[Finding] = []
        for i, (a, b) in enumerate(zip(hexes, hexes[1:]), start=1):
            la, lb = entry.path[i - 1], entry.path[i]
            if b not in around[a]:  # both on the map (`_check_move`), so adjacent is a neighbour on it
                hint = game.grid.step_hint(la, lb, entry.path[i + 1] if i + 1 < len(entry.path) else None)
                return out + [self._f("error", "5.1", entry, f"{entry.unit} skips from {la} to {lb}{hint}; a unit "
                                                             "moves through contiguous hexes")]
            if b in rule.enemy:
                return out + [self._f("error", "5.2d", entry, f"{entry.unit} enters {lb}, which an enemy unit holds")]
            cost = rule.terrain_cost(a, b)
            if cost is None:
                return out + [self._f("error", "5.2e", entry, f"{entry.unit} enters prohibited terrain at {lb} (or "
                                                             f"crosses a prohibited hexside {la}-{lb})")]
            from_ezoc, into_ezoc = a in rule.ezoc, b in rule.ezoc
            if into_ezoc and not rule.mobile:
                if i > 1 and from_ezoc:
                    return out + [self._f("error", "6.1", entry, f"{entry.unit} entered an enemy zone of control at "
                                                                 f"{la} and moves on to {lb}")]
                if from_ezoc:
                    # 6.1: EZOC to EZOC takes the whole printed allowance, so it is the whole move.
                    if cost > allowance:
                        return out + [self._f("error", "6.1", entry, f"{entry.unit} cannot pay {cost:g} MP for {lb} "
                                                                     f"with an allowance of {allowance}")]
                    out += self.rules._fortified_ezoc(state, entry, a, b)
                    if len(hexes) > 2:
                        return out + [self._f("error", "6.1", entry, f"{entry.unit} moves from one enemy zone of "
                                                                     f"control into another at {lb}, which takes its "
                                                                     "whole allowance; it moves no further")]
                    return out
                if i < len(hexes) - 1:
                    return out + [self._f("error", "6.1", entry, f"{entry.unit} entered an enemy zone of control at "
                                                                 f"{lb} and moves on; a leg unit stops there")]
            if into_ezoc and rule.mobile:
                # 6.1: a mobile unit pays half its printed allowance, rounded down, to enter an EZOC.
                cost += rule.ezoc_cost
                zoc_paid += rule.ezoc_cost
                if from_ezoc:
                    out += self.rules._fortified_ezoc(state, entry, a, b)
            spent += cost
            if spent > allowance:
                # 5.2 c: no hex entered without the MP to pay for it; when only 6.1's cost of entering
                # enemy zones of control takes the unit over, 6.1 is the clause broken.
                if spent - zoc_paid <= allowance:
                    return out + [self._f("error", "6.1", entry, f"{entry.unit} has spent {spent:g} MP by {lb}, "
                                                                 f"{zoc_paid:g} of them for entering enemy zones of "
                                                                 f"control (6.1), more than its allowance of "
                                                                 f"{allowance} (5.2 c)")]
                halving = self.rules.allowance_rule(state, entry.unit)
                if halving is not None and spent <= self.rules.allowance(state, entry.unit, weather=False):
                    # The move fits the printed allowance: the clause misread is the one that halves it.
                    return out + [self._f("error", halving, entry, f"{entry.unit} has spent {spent:g} MP by {lb}, "
                                                                   f"within its printed allowance but more than the "
                                                                   f"{allowance} MP it is cut to ({halving})")]
                return out + [self._f("error", "5.2c", entry, f"{entry.unit} has spent {spent:g} MP by {lb}, more "
                                                              f"than its allowance of {allowance}")]
        return out
