"""Onslaught's arrivals: paratroops (9.1-9.3), reinforcements (10.1-10.3) and replacements (11.1-11.4).

Checks return findings and leave the state alone; `system.py` applies the entries. Rulings
(also in docs/rules-coverage.md):

- 10.1, "cannot be overstacked anywhere": a reinforcement (and an Allied replacement, placed
  "exactly like reinforcements", 11.3) may not be placed where its side already has three
  divisions; German replacements are held to 6.3 at the end of the step only (11.4 is silent).
- 10.1, Allied supply sources: the landing hexes and ports that are sources now (8.1, 8.4, 8.5);
  southern France is not a place on the map, so only reinforcements keyed to area B enter there.
- 10.3, the Delayed Reinforcements box: a reinforcement (or an Allied replacement) goes there only
  when no hex it may enter is open to it; from there it is placed, on a later turn, as it would
  have been on its own turn.
- 10.2, German reinforcements that cannot be supplied: written `German: eliminate UNIT` in the
  Reinforcement Step; legal only when no hex of its entry area (Germany for the others) traces
  a line to the east edge. Such a division leaves play for good, as do eliminated paratroops
  (9.3): neither goes to the Eliminated Units box, so neither counts for 11.1's extra points.
- 10.2, the free move: any time in the German part of the step, once, by a division that
  entered from area A or B this step; normal or strategic, with every movement rule.
- 11.1, the extra points: counted from the Eliminated Units box as the Reinforcement Step begins.
- 11.4, the German line: the division's hex and every hex of its line are at least three
  movement points from every Allied division (counted as 6.4 counts); the placement hex is also
  three from every Allied supply source. 7.5's "always in supply" is not a line and does not count.
- 9.1, the return: a paratroop division on the turn track moves to the Paratroop box by itself
  as its turn begins; the log need not say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, Income, Loss, Move, Place
from adjudicator.systems.onslaught import supply
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Arrival

if TYPE_CHECKING:
    from adjudicator.systems.onslaught.system import Onslaught, OnslaughtState

OUT_OF_PLAY = "out_of_play"
"""Where divisions removed from play for good are (9.3, 10.2): not the Eliminated Units box."""
TURN_TRACK = "turn"
"""Picked-up paratroops wait on the turn track, at `turn@N` (9.1)."""
PARATROOP_BOX = "paratroop"
ORDER = ("German reinforcements", "Allied reinforcements", "German replacements", "Allied replacements",
         "supply income")
"""The Reinforcement Step's order (4.0)."""


def arrival(state: OnslaughtState, unit_id: str) -> Arrival | None:
    """The unit's row of the reinforcement schedule in this scenario, if it has one (10.0)."""
    return next((a for _, a in state.game.reinforcements if a.unit == unit_id and a.scenario == state.scenario), None)


def box_of(game: Game, kind: str, side: str) -> str:
    """The id of a side's box of a kind (eliminated, delayed)."""
    return next((b.id for b in game.manifest.box if b.kind == kind and b.side == side), f"{kind}_{side.lower()}")


def order_of(entry: Entry, side: str) -> int | None:
    """Where an entry falls in the Reinforcement Step's order (4.0), or None if anywhere."""
    german = side == "German"
    if isinstance(entry, Place) and entry.how in ("reinforce", "delay"):
        return 0 if german else 1
    if isinstance(entry, Place) and entry.how == "replace":
        return 2 if german else 3
    if isinstance(entry, (Move, Loss)) and german:
        return 0
    if isinstance(entry, Income):
        return 4
    return None


def replacement_points(state: OnslaughtState, side: str) -> int:
    """A side's replacement points this Reinforcement Step (11.1): its base, plus one per three
    divisions in its Eliminated Units box."""
    game = state.game
    base = sum(r.amount for _, r in game.replacements
               if r.scenario == state.scenario and r.turn == state.turn and r.side == side and r.kind == "points")
    box = box_of(game, "eliminated", side)
    lost = sum(1 for where in state.location.values() if where == box)
    return base + lost // int(game.parameter["eliminated_per_extra_replacement_point"])


def replacement_cost(game: Game, unit_type: str, start: str, end: str, in_germany: bool) -> int | None:
    """The Replacement Table's cost (11.1) to rebuild a division from `start` (eliminated or
    depleted) to `end` (depleted or full), or None when the table has no line for it."""
    chart = next(c for c in game.charts.chart if c.id == "replacement_table")
    columns = list(chart.columns)
    costs = []
    for row in chart.rows:
        cell = dict(zip(columns, row))
        # The table's infantry lines cover volksgrenadiers, which also have a cheaper line of their own.
        kinds = {unit_type, "infantry"} if unit_type == "volksgrenadier" else {unit_type}
        if cell["unit_type"] not in kinds or cell["from"] != start or cell["to"] != end:
            continue
        if cell["condition"] == "in_germany" and not in_germany:
            continue
        costs.append(int(cell["cost"]))
    return min(costs) if costs else None


class Arrivals:
    """The arrival checks of one rule-system object."""

    def __init__(self, system: Onslaught) -> None:
        self.system = system

    # -- where a division may be placed --------------------------------------------------------
    def allied_source_hexes(self, state: OnslaughtState) -> frozenset[Hex]:
        """The landing hexes and ports that are Allied supply sources now (8.1, 8.4, 8.5)."""
        sources = supply.allied_sources(state, state.controlled)
        return frozenset(h for name, hexes in sources.items() if name != supply.SOUTHERN_FRANCE for h in hexes)

    def entry_hexes(self, state: OnslaughtState, unit_id: str, entry_area: str | None, replacing: bool) -> frozenset[Hex]:
        """Where a reinforcement (or an Allied replacement, 11.3) may be placed (10.1-10.3)."""
        game = state.game
        side = self.system._unit(state, unit_id).side
        if entry_area in ("entry_a", "entry_b") and not replacing:
            return game.area_hexes(entry_area)
        if side == "German":
            return game.area_hexes("germany")
        return self.allied_source_hexes(state)

    def supplied_from(self, state: OnslaughtState, side: str, entry_area: str | None) -> frozenset[Hex]:
        """Hexes a newly placed division traces supply from: German to the east edge only (10.2);
        Allied to their sources, area B's reinforcements off the southern edge through B (10.3)."""
        supply_map = supply.SupplyMap.of(state.game)
        if side == "German":
            return supply.hexes_tracing_to(state, side, supply_map.east_edge)
        sources = set(self.allied_source_hexes(state))
        if entry_area == "entry_b" or state.turn >= int(state.game.parameter["southern_france_first_turn"]):
            sources |= supply_map.entry_b
        return supply.hexes_tracing_to(state, side, sources)

    def open_hexes(self, state: OnslaughtState, unit_id: str, entry_area: str | None,
                   replacing: bool = False) -> list[Hex]:
        """The hexes a reinforcement may be placed in now: its entry hexes, in supply, not
        enemy-held, not already holding three of its side's divisions (10.1)."""
        side = self.system._unit(state, unit_id).side
        supplied = self.supplied_from(state, side, entry_area)
        full = self._full_hexes(state, side)
        return sorted((h for h in self.entry_hexes(state, unit_id, entry_area, replacing)
                       if h in supplied and h not in full), key=state.game.grid.label_of)

    def _full_hexes(self, state: OnslaughtState, side: str) -> set[Hex]:
        """Hexes where `side` already has as many divisions as a stack may hold (6.3)."""
        grid = state.game.grid
        limit = int(state.game.parameter.get("stacking_limit", 3))
        count: dict[Hex, int] = {}
        for unit_id, where in state.location.items():
            if grid.is_label(where) and self.system._unit(state, unit_id).side == side:
                count[grid.hex_of(where)] = count.get(grid.hex_of(where), 0) + 1
        return {h for h, n in count.items() if n >= limit}

    def placement_problem(self, state: OnslaughtState, unit_id: str, label: str, entry_area: str | None,
                          replacing: bool = False) -> str | None:
        """Why a division may not be placed at `label` now (10.1-10.3, 11.3), or None."""
        game = state.game
        side = self.system._unit(state, unit_id).side
        if not game.grid.is_label(label):
            return f"{label} is not a hex of the map"
        h = game.grid.hex_of(label)
        if h not in self.entry_hexes(state, unit_id, entry_area, replacing):
            if side == "German" and entry_area in ("entry_a", "entry_b") and not replacing:
                return f"{label} is not in {game.areas_by_id[entry_area].name}, where {unit_id} enters"
            if side == "German":
                return f"{label} is not in Germany, where German reinforcements are placed"
            if entry_area == "entry_b" and not replacing:
                return f"{label} is not in {game.areas_by_id['entry_b'].name}, where {unit_id} enters"
            return f"{label} is not an Allied supply source (a landing hex or a port the Allies hold)"
        if self.system._units_at(state, label, self.system._enemy(state, side)):
            return f"enemy divisions hold {label}"
        if h in self._full_hexes(state, side):
            return f"{label} already holds three {side} divisions; placements may not overstack"
        if h not in self.supplied_from(state, side, entry_area):
            where = "to the eastern map edge" if side == "German" else "to an Allied supply source"
            return f"{unit_id} at {label} could not trace a supply line {where}"
        return None

    # -- 4.0 the step's order --------------------------------------------------------------------
    def check_order(self, state: OnslaughtState, entry: Entry) -> list[Finding]:
        """4.0: German, then Allied reinforcements, German, then Allied replacements, then income."""
        if state.step != "reinforcement":
            return []
        index = order_of(entry, entry.side or "")
        if index is None or index >= state.arrival_phase:
            return []
        return [self.system._f("error", "4.0", entry, f"{self.system._where(state)}: {ORDER[index]} come before "
                                                      f"{ORDER[state.arrival_phase]}, which have begun")]

    # -- 9.1, 9.2 paratroops ---------------------------------------------------------------------
    def _paratroop(self, state: OnslaughtState, entry: Place, section: str) -> list[Finding]:
        """An Allied paratroop division in an Allied Movement action, or why not (9.1, 9.2)."""
        system = self.system
        out = []
        unit = system._unit(state, entry.unit)
        if unit.side != "Allied" or unit.type != "paratroop":
            out.append(system._f("error", section, entry, f"{entry.unit} is not an Allied paratroop division"))
        action = state.action
        if action is None or action.side != "Allied" or action.type != "movement":
            what = "paradrop" if entry.how == "paradrop" else "pick up a paratroop division"
            out.append(system._f("error", section, entry, f"{system._where(state)}: the Allies {what} only in an "
                                                          "Allied Movement action"))
        return out

    def check_pickup(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """9.1: an activated full-strength paratroop division not in enemy ZOC leaves the map for
        the turn track, three turns ahead, instead of moving."""
        system = self.system
        out = self._paratroop(state, entry, "9.1")
        if out:
            return out
        action = state.action
        assert action is not None
        here = system._on_map(state, entry.unit)
        if here is None:
            return [system._f("error", "9.1", entry, f"{entry.unit} is not on the map "
                                                     f"({state.location.get(entry.unit) or 'not in play'})")]
        if entry.unit not in action.activated:
            out.append(system._f("error", "9.1", entry, f"{entry.unit} is picked up without being activated in this "
                                                        "action"))
        elif entry.unit not in action.latest:
            out.append(system._f("error", "5.3", entry, f"{entry.unit} is picked up after another stack was "
                                                        "activated; only one stack is activated at a time"))
        if entry.unit in state.moved:
            out.append(system._f("error", "9.1", entry, f"{entry.unit} has moved in this action; it is picked up "
                                                        "instead of moving"))
        if entry.unit in state.depleted:
            out.append(system._f("error", "9.1", entry, f"{entry.unit} is depleted; only full-strength paratroop "
                                                        "divisions are picked up"))
        if here in system.zoc(state, "German"):
            out.append(system._f("error", "9.1", entry, f"{entry.unit} is in a German zone of control at "
                                                        f"{state.location[entry.unit]}"))
        if entry.hex is not None and entry.hex != self.pickup_place(state):
            out.append(system._f("error", "9.1", entry, f"a paratroop division picked up on turn {state.turn} waits "
                                                        f"on turn {self._return_turn(state)} of the turn track, not "
                                                        f"{entry.hex}"))
        return out

    def _return_turn(self, state: OnslaughtState) -> int:
        return state.turn + int(state.game.parameter["paratroop_return_turns"])

    def pickup_place(self, state: OnslaughtState) -> str:
        """Where a paratroop division picked up now waits (9.1): the turn track, three turns on."""
        return f"{TURN_TRACK}@{self._return_turn(state)}"

    def check_paradrop(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """9.2: from the Paratroop box, in an Allied Movement action, one supply point each, into
        any hex a division may enter that no German division holds."""
        system = self.system
        out = self._paratroop(state, entry, "9.2")
        where = state.location.get(entry.unit)
        if where != PARATROOP_BOX:
            out.append(system._f("error", "9.2", entry, f"{entry.unit} is not in the Paratroop box "
                                                        f"({where or 'not in play'})"))
        game = state.game
        if entry.hex is None or not game.grid.is_label(entry.hex):
            out.append(system._f("error", "9.2", entry, f"a paradrop lands in a hex of the map, not "
                                                        f"{entry.hex or 'nowhere'}"))
        elif game.grid.hex_of(entry.hex) not in system.tables(state).passable:
            out.append(system._f("error", "9.2", entry, f"no division may enter {entry.hex}"))
        elif system._units_at(state, entry.hex, "German"):
            out.append(system._f("error", "9.2", entry, f"German divisions hold {entry.hex}"))
        cost = int(game.parameter["paradrop_cost"])
        if state.supply.get("Allied", 0) < cost:
            out.append(system._f("error", "9.2", entry, f"the Allies have {state.supply.get('Allied', 0)} supply "
                                                        f"point(s) and a paradrop costs {cost}"))
        if entry.supply is not None and entry.supply != cost:
            out.append(system._f("error", "9.2", entry, f"a paradrop costs {cost} supply point(s), not {entry.supply}"))
        return out

    # -- 10.1-10.3 reinforcements -------------------------------------------------------------
    def _scheduled(self, state: OnslaughtState, entry: Place | Loss, section: str) -> tuple[Arrival | None,
                                                                                             list[Finding]]:
        """The unit's schedule row if it may arrive now (10.0, 10.1), else the findings why not."""
        system = self.system
        out = []
        if state.step != "reinforcement":
            out.append(system._f("error", "10.1", entry, f"{system._where(state)}: reinforcements arrive in the "
                                                         "Reinforcement Step"))
        unit = system._unit(state, entry.unit)
        if entry.side and unit.side != entry.side:
            out.append(system._f("error", section, entry, f"{entry.unit} is a {unit.side} division"))
        row = arrival(state, entry.unit)
        if row is None:
            return None, out + [system._f("error", section, entry, f"{entry.unit} is not on the reinforcement "
                                                                   "schedule")]
        where = state.location.get(entry.unit)
        if where is not None and where != box_of(state.game, "delayed", unit.side):
            out.append(system._f("error", section, entry, f"{entry.unit} is already in play ({where})"))
        elif row.turn > state.turn:
            out.append(system._f("error", section, entry, f"{entry.unit} arrives on turn {row.turn}, not "
                                                          f"{state.turn}"))
        return row, out

    def check_reinforce(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """10.1-10.3 (9.1 for paratroops): a scheduled division, on its turn or from the Delayed
        Reinforcements box, in a hex it may enter, in supply, not overstacked."""
        system = self.system
        unit = system._unit(state, entry.unit)
        section = "10.2" if unit.side == "German" else "10.3"
        row, out = self._scheduled(state, entry, section)
        if row is None or out:
            return out
        if row.entry == PARATROOP_BOX:
            if entry.hex not in (None, PARATROOP_BOX):
                out.append(system._f("error", "9.1", entry, f"{entry.unit} arrives in the Paratroop box, not "
                                                            f"{entry.hex}"))
            return out
        if entry.hex is None:
            return [system._f("error", section, entry, f"name the hex where {entry.unit} is placed")]
        problem = self.placement_problem(state, entry.unit, entry.hex, row.entry)
        if problem is not None and "free_french" in row.tags and "free_french_recruitment" in state.optional:
            # 14.2: a division recruited in France may also appear in a French city.
            recruited = self.recruitment_problem(state, entry.unit, entry.hex)
            if recruited is None:
                return out
            return out + [system._f("error", "14.2", entry, f"{problem}; nor can it be recruited there: {recruited}")]
        if problem is not None:
            out.append(system._f("error", section, entry, problem))
        return out

    def recruitment_problem(self, state: OnslaughtState, unit_id: str, label: str) -> str | None:
        """Why a Free French division may not appear at `label` now (14.2), or None."""
        system = self.system
        game = state.game
        if not game.grid.is_label(label):
            return f"{label} is not a hex of the map"
        h = game.grid.hex_of(label)
        if h not in game.area_hexes("france") or "city" not in game.hex_terrain.get(h, ()):
            return f"{label} is not a city in France"
        occupied = system._units_at(state, label, "Allied")
        if not occupied and state.controlled.get(label) != "Allied":
            return f"no Allied division occupies {label} or was the last to occupy it"
        if system._units_at(state, label, "German"):
            return f"German divisions hold {label}"
        if h in system.near_enemy(state, "Allied"):
            distance = int(game.parameter["free_french_min_distance_mp"])
            return f"{label} is within {distance} movement points of a German division"
        if h not in self.supplied_from(state, "Allied", None):
            return f"{label} is out of supply"
        if h in self._full_hexes(state, "Allied"):
            return f"{label} already holds three Allied divisions"
        limit = int(game.parameter["free_french_per_city"])
        recruited = [u for u in state.placed_now if state.location.get(u) == label
                     and (row := arrival(state, u)) is not None and "free_french" in row.tags]
        if len(recruited) >= limit:
            return f"{limit} divisions have already been recruited in {label} this turn"
        return None

    def check_delay(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """10.3: an Allied reinforcement goes to the Delayed Reinforcements box only when stacking
        keeps it off every hex it may enter."""
        system = self.system
        if system._unit(state, entry.unit).side != "Allied":
            return [system._f("error", "10.3", entry, "only Allied reinforcements are delayed")]
        row, out = self._scheduled(state, entry, "10.3")
        box = box_of(state.game, "delayed", "Allied")
        if row is None or out:
            return out
        if state.location.get(entry.unit) == box:
            return [system._f("error", "10.3", entry, f"{entry.unit} is already in the Delayed Reinforcements box")]
        if entry.hex not in (None, box):
            return [system._f("error", "10.3", entry, f"a delayed reinforcement goes to {box}, not {entry.hex}")]
        if row.entry == PARATROOP_BOX:
            return [system._f("error", "9.1", entry, f"{entry.unit} arrives in the Paratroop box; nothing delays it")]
        open_hexes = self.open_hexes(state, entry.unit, row.entry)
        if open_hexes:
            labels = ", ".join(state.game.grid.label_of(h) for h in open_hexes[:5])
            return [system._f("error", "10.3", entry, f"{entry.unit} can be placed (at {labels}); only reinforcements "
                                                      "that stacking keeps off the map are delayed")]
        return []

    def check_loss(self, state: OnslaughtState, entry: Loss) -> list[Finding] | None:
        """10.2: a German reinforcement eliminated because no hex of its entry area is in supply;
        None when the loss is not a reinforcement's (other rules judge it)."""
        system = self.system
        row = arrival(state, entry.unit)
        if state.step != "reinforcement" or entry.loss != "eliminate" or row is None:
            return None
        where = state.location.get(entry.unit)
        if where is not None:
            return None
        if system._unit(state, entry.unit).side != "German":
            return [system._f("error", "10.3", entry, "Allied reinforcements that cannot be placed are delayed "
                                                      "(10.3), not eliminated")]
        _, out = self._scheduled(state, entry, "10.2")
        if out:
            return out
        supplied = self.supplied_from(state, "German", row.entry)
        usable = sorted((h for h in self.entry_hexes(state, entry.unit, row.entry, False)
                         if h in supplied), key=state.game.grid.label_of)
        if usable:
            labels = ", ".join(state.game.grid.label_of(h) for h in usable[:5])
            return [system._f("error", "10.2", entry, f"{entry.unit} can be placed in supply (at {labels}); only "
                                                      "reinforcements that no entry hex can supply are eliminated")]
        return []

    def unplaced(self, state: OnslaughtState) -> list[tuple[str, str]]:
        """The reinforcements of this turn still off the map as the step ends: (section, message)."""
        out = []
        for _, row in sorted(state.game.reinforcements, key=lambda r: r[1].unit):
            if row.scenario != state.scenario or row.turn != state.turn or row.unit in state.location:
                continue
            side = self.system._unit(state, row.unit).side
            section = "9.1" if row.entry == PARATROOP_BOX else ("10.2" if side == "German" else "10.3")
            fate = "placed" if side == "German" else "placed or delayed"
            out.append((section, f"turn {state.turn}: the {side} reinforcement {row.unit} was not {fate}"))
        return out

    # -- 11.1-11.4 replacements ---------------------------------------------------------------
    def check_replace(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """11.1-11.4 (9.3): an eliminated or depleted division rebuilt, its cost and where it goes."""
        system = self.system
        game = state.game
        out: list[Finding] = []
        if state.step != "reinforcement":
            out.append(system._f("error", "11.1", entry, f"{system._where(state)}: replacements are bought in the "
                                                         "Reinforcement Step"))
        unit = system._unit(state, entry.unit)
        side = unit.side
        if entry.side and entry.side != side:
            return out + [system._f("error", "11.2", entry, f"{entry.unit} is a {side} division")]
        where = state.location.get(entry.unit)
        eliminated = box_of(game, "eliminated", side)
        if unit.type == "paratroop" and where in (eliminated, OUT_OF_PLAY):
            return out + [system._f("error", "9.3", entry, f"{entry.unit} was eliminated; paratroop divisions are "
                                                           "never rebuilt")]
        if where == eliminated:
            start = "eliminated"
        elif system._on_map(state, entry.unit) is not None and entry.unit in state.depleted:
            start = "depleted"
        else:
            state_of = "at full strength on the map" if system._on_map(state, entry.unit) is not None else \
                f"in {where}" if where else "not in play"
            return out + [system._f("error", "11.2", entry, f"{entry.unit} is {state_of}; only eliminated divisions "
                                                            "and depleted ones on the map are rebuilt")]
        end = "depleted" if entry.strength == "reduced" else "full"
        if start == "depleted":
            if end == "depleted":
                return out + [system._f("error", "11.2", entry, f"{entry.unit} is already depleted; it is rebuilt to "
                                                                "full strength")]
            if entry.hex is not None and entry.hex != where:
                out.append(system._f("error", "11.2", entry, f"{entry.unit} is rebuilt where it stands, {where}"))
            if not system.is_supplied(state, entry.unit):
                out.append(system._f("error", "11.2", entry, f"{entry.unit} at {where} is out of supply; depleted "
                                                             "divisions are rebuilt only in supply"))
            label = where
        else:
            label = entry.hex or ""
            out += self._replacement_place(state, entry, side)
        in_germany = game.grid.is_label(label or "") and game.grid.hex_of(label or "") in game.area_hexes("germany")
        cost = replacement_cost(game, unit.type, start, end, in_germany)
        if cost is None:
            return out + [system._f("error", "11.2", entry, f"the Replacement Table has no line for a {unit.type} "
                                                            f"division from {start} to {end}")]
        if entry.points is not None and entry.points != cost:
            out.append(system._f("error", "11.1", entry, f"rebuilding {entry.unit} ({unit.type}, {start} to {end}"
                                                         f"{', in Germany' if in_germany else ''}) costs {cost} "
                                                         f"replacement point(s), not {entry.points}"))
        left = state.replacement_points.get(side, 0)
        if cost > left:
            out.append(system._f("error", "11.1", entry, f"{side} has {left} replacement point(s) left this turn and "
                                                         f"rebuilding {entry.unit} costs {cost}"))
        return out

    def _replacement_place(self, state: OnslaughtState, entry: Place, side: str) -> list[Finding]:
        """Where an eliminated division comes back: Allied as reinforcements, never in area B, or
        delayed when stacking leaves no room (11.3); German anywhere far from the Allies (11.4)."""
        system = self.system
        game = state.game
        if side == "Allied":
            box = box_of(game, "delayed", "Allied")
            if entry.hex == box:
                open_hexes = self.open_hexes(state, entry.unit, None, replacing=True)
                if open_hexes:
                    labels = ", ".join(game.grid.label_of(h) for h in open_hexes[:5])
                    return [system._f("error", "11.3", entry, f"{entry.unit} can be placed (at {labels}); only "
                                                              "replacements that stacking keeps off the map are "
                                                              "delayed")]
                return []
            if entry.hex is None:
                return [system._f("error", "11.3", entry, f"name the hex where {entry.unit} is placed")]
            problem = self.placement_problem(state, entry.unit, entry.hex, None, replacing=True)
            return [] if problem is None else [system._f("error", "11.3", entry, problem)]
        if entry.hex is None or not game.grid.is_label(entry.hex):
            return [system._f("error", "11.4", entry, f"German replacements are placed on the map, not "
                                                      f"{entry.hex or 'nowhere'}")]
        h = game.grid.hex_of(entry.hex)
        if h not in system.tables(state).passable:
            return [system._f("error", "11.4", entry, f"no division may enter {entry.hex}")]
        if system._units_at(state, entry.hex, "Allied"):
            return [system._f("error", "11.4", entry, f"Allied divisions hold {entry.hex}")]
        allied = [h2 for h2 in (system._on_map(state, u) for u in state.location
                                if system._unit(state, u).side == "Allied") if h2 is not None]
        near_divisions = system.within_two(state, allied)
        if h in near_divisions:
            return [system._f("error", "11.4", entry, f"{entry.hex} is within three movement points of an Allied "
                                                      "division")]
        sources = supply.allied_sources(state, state.controlled)
        if h in system.within_two(state, (s for hexes in sources.values() for s in hexes)):
            return [system._f("error", "11.4", entry, f"{entry.hex} is within three movement points of an Allied "
                                                      "supply source")]
        german = supply.german_sources(state, state.controlled, state.captured_ports)
        if h not in supply.hexes_tracing_to(state, "German", german, avoid=frozenset(near_divisions)):
            return [system._f("error", "11.4", entry, f"no supply line from {entry.hex} keeps three movement "
                                                      "points from every Allied division")]
        return []

