"""Onslaught's arrivals: paratroops (9.1-9.3), reinforcements (10.1-10.3) and replacements (11.1-11.4).

Rulings: docs/rules-coverage.md, the rulings register (9.0-11.4)."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator import contract
from adjudicator.findings import Finding, Severity, one_error
from adjudicator.notation.entries import Entry, Income, Loss, Move, Place
from adjudicator.systems.base import PerGame
from adjudicator.systems.onslaught import supply
from adjudicator.systems.onslaught.activation import pay, short_of_supply
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.placement import (
    entry_hexes, open_hexes, placement_problem, placement_sources, room_in, supplied_from,
)
from adjudicator.systems.onslaught.setup import check_setup
from adjudicator.systems.onslaught.stacking import check_arrival, overstacks_on_arrival
from adjudicator.systems.onslaught.state import (
    OnslaughtState, on_map, relocate, replace, turn_and_step, unit_of, units_at,
)
from adjudicator.systems.onslaught.supply import is_supplied, mark_control
from adjudicator.systems.onslaught.tables import area_of, map_tables
from adjudicator.systems.onslaught.zoc import near_enemy, within_two, zone_of_control
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Arrival


# Divisions removed from play for good (9.3, 10.2) are not in the Eliminated Units box: they are
# out of play, where every reader of a position (the export, the chain) knows to look for no counter.
OUT_OF_PLAY = contract.OUT_OF_PLAY
TURN_TRACK = "turn"
"""Picked-up paratroops wait on the turn track, at `turn@N` (9.1)."""
PARATROOP_BOX = "paratroop"
ORDER = ("German reinforcements", "Allied reinforcements", "German replacements", "Allied replacements",
         "supply income")
"""The Reinforcement Step's order (4.0)."""


def arrival(state: OnslaughtState, unit_id: str) -> Arrival | None:
    """The unit's row of the reinforcement schedule in this scenario, if it has one (10.0)."""
    return _schedule(state.game)[0].get((state.scenario, unit_id))


def _schedule_of(game: Game) -> tuple[dict[tuple[str, str], Arrival], dict[tuple[str, int], list[Arrival]]]:
    """The reinforcement schedule (10.0) by scenario and unit (a unit's first row), and by scenario and turn
    in unit order: looked up for each placement and at each Reinforcement Step's end, not scanned."""
    by_unit: dict[tuple[str, str], Arrival] = {}
    by_turn: dict[tuple[str, int], list[Arrival]] = {}
    for _, row in sorted(game.reinforcements, key=lambda r: r[1].unit):
        by_turn.setdefault((row.scenario, row.turn), []).append(row)
    for _, row in game.reinforcements:
        by_unit.setdefault((row.scenario, row.unit), row)
    return by_unit, by_turn


_schedule = PerGame(_schedule_of)


def box_of(game: Game, kind: str, side: str) -> str:
    """The id of a side's box of a kind (eliminated, delayed) for units: chosen by kind, side and what
    it holds, never by kind alone (a game may also have a box of the kind for markers, as Omaha's)."""
    box = game.manifest.box_of(kind, side, "units")
    return f"{kind}_{side.lower()}" if box is None else box.id


def order_of(state: OnslaughtState, entry: Entry) -> int | None:
    """Where an entry falls in the Reinforcement Step's order (4.0), or None if anywhere."""
    # The side the engine judges the entry by: a short-form move's is its unit's, as the long form's.
    german = contract.deciding_side(state.game, entry) == "German"
    if isinstance(entry, Place) and entry.how in ("reinforce", "delay"):
        return 0 if german else 1
    if isinstance(entry, Place) and entry.how == "replace":
        return 2 if german else 3
    if isinstance(entry, Move) and german or isinstance(entry, Loss) and german and entry.loss != "remove":
        # 10.2: the free move and the elimination of unsuppliable reinforcements; a 6.3 removal
        # resolves an overstack whenever it arises in the step, so it has no place in the order.
        return 0
    if isinstance(entry, Income):
        return 4
    return None


def replacement_points(state: OnslaughtState, side: str) -> int:
    """A side's replacement points this Reinforcement Step (11.1): its base, plus one per three
    divisions in its Eliminated Units box."""
    game = state.game
    base = sum(r.amount for _, r in game.replacements
               if r.scenario == state.scenario and r.turn == state.at.turn and r.side == side and r.kind == "points")
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


def check_order(state: OnslaughtState, entry: Entry) -> list[Finding]:
    """4.0: German, then Allied reinforcements, German, then Allied replacements, then income."""
    if state.at.step != "reinforcement":
        return []
    index = order_of(state, entry)
    if index is None or index >= state.log.arrival_phase:
        return []
    severity: Severity = "note" if index in state.log.late_parts else "error"
    tail = f" (the {ORDER[index]} already reported late: one error)" if severity == "note" else ""
    begun = ORDER[state.log.arrival_phase]
    return [finding(severity, "4.0", entry, f"{turn_and_step(state)}: {ORDER[index]} come before {begun}, which "
                                            f"{'has' if begun == 'supply income' else 'have'} begun{tail}")]


def paratroop_problems(state: OnslaughtState, entry: Place, section: str) -> list[Finding]:
    """An Allied paratroop division in an Allied Movement action, or why not (9.1, 9.2)."""
    out = []
    unit = unit_of(state, entry.unit)
    if unit.side != "Allied" or unit.type != "paratroop":
        out.append(finding("error", section, entry, f"{entry.unit} is not an Allied paratroop division"))
    action = state.action
    if action is None or action.side != "Allied" or action.type != "movement":
        what = "paradrop" if entry.how == "paradrop" else "pick up a paratroop division"
        out.append(finding("error", section, entry, f"{turn_and_step(state)}: the Allies {what} only in an "
                                                      "Allied Movement action"))
    return out


def check_pickup(state: OnslaughtState, entry: Place) -> list[Finding]:
    """9.1: an activated full-strength paratroop division not in enemy ZOC leaves the map for
    the turn track, three turns ahead, instead of moving."""
    # One pickup is one decision: its first fault is the error, any other a note (one breach, one error).
    return one_error(pickup_findings(state, entry), "the same pickup breaks {rule} above: one error")


def pickup_findings(state: OnslaughtState, entry: Place) -> list[Finding]:
    """Every fault of a pickup (9.1, 5.3), in the order check_pickup keeps the first as the error."""
    out = paratroop_problems(state, entry, "9.1")
    if out:
        return out
    action = state.action
    assert action is not None
    here = on_map(state, entry.unit)
    if here is None:
        return [finding("error", "9.1", entry, f"{entry.unit} is not on the map "
                                                 f"({state.location.get(entry.unit) or 'not in play'})")]
    if entry.unit not in action.activated:
        out.append(finding("error", "9.1", entry, f"{entry.unit} is picked up without being activated in this "
                                                    "action"))
    elif entry.unit not in action.latest:
        out.append(finding("error", "5.3", entry, f"{entry.unit} is picked up after another stack was "
                                                    "activated; only one stack is activated at a time"))
    if entry.unit in state.action_log.moved:
        out.append(finding("error", "9.1", entry, f"{entry.unit} has moved in this action; it is picked up "
                                                    "instead of moving"))
    if entry.unit in state.depleted:
        out.append(finding("error", "9.1", entry, f"{entry.unit} is depleted; only full-strength paratroop "
                                                    "divisions are picked up"))
    if here in zone_of_control(state, "German"):
        out.append(finding("error", "9.1", entry, f"{entry.unit} is in a German zone of control at "
                                                    f"{state.location[entry.unit]}"))
    if entry.hex is not None and entry.hex != pickup_place(state):
        out.append(finding("error", "9.1", entry, f"a paratroop division picked up on turn {state.at.turn} waits "
                                                    f"on turn {return_turn(state)} of the turn track, not "
                                                    f"{entry.hex}"))
    return out


def return_turn(state: OnslaughtState) -> int:
    return state.at.turn + int(state.game.parameter["paratroop_return_turns"])


def pickup_place(state: OnslaughtState) -> str:
    """Where a paratroop division picked up now waits (9.1): the turn track, three turns on."""
    return f"{TURN_TRACK}@{return_turn(state)}"


def check_paradrop(state: OnslaughtState, entry: Place) -> list[Finding]:
    """9.2: from the Paratroop box, in an Allied Movement action, one supply point each, into
    any hex a division may enter that no German division holds."""
    out = paratroop_problems(state, entry, "9.2")
    where = state.location.get(entry.unit)
    if where != PARATROOP_BOX:
        out.append(finding("error", "9.2", entry, f"{entry.unit} is not in the Paratroop box "
                                                    f"({where or 'not in play'})"))
    game = state.game
    if entry.hex is None or not game.grid.is_label(entry.hex):
        out.append(finding("error", "9.2", entry, f"a paradrop lands in a hex of the map, not "
                                                    f"{entry.hex or 'nowhere'}"))
    elif game.grid.hex_of(entry.hex) not in map_tables(state.game).passable:
        out.append(finding("error", "9.2", entry, f"no division may enter {entry.hex}"))
    elif units_at(state, entry.hex, "German"):
        out.append(finding("error", "9.2", entry, f"German divisions hold {entry.hex}"))
    # Which division drops, when and where is one decision (one error); what it is paid with is another.
    out = one_error(out, "the same paradrop breaks {rule} above: one error")
    if entry.unit in state.action_log.dropped:
        return out  # the drop of this action written again (its one error, above): it spends nothing (apply_place)
    cost = int(game.parameter["paradrop_cost"])
    if state.supply.get("Allied", 0) < cost:
        out.append(short_of_supply(state, "Allied", entry, "a paradrop", cost, "9.2"))
    if entry.supply is not None and entry.supply != cost:
        out.append(finding("error", "9.2", entry, f"a paradrop costs {cost} supply point(s), not {entry.supply}"))
    return out


def scheduled(state: OnslaughtState, entry: Place | Loss, section: str) -> tuple[Arrival | None,
                                                                                         list[Finding]]:
    """The unit's schedule row if it may arrive now (10.0, 10.1), else the findings why not."""
    out = []
    if state.at.step != "reinforcement":
        out.append(finding("error", "10.1", entry, f"{turn_and_step(state)}: reinforcements arrive in the "
                                                     "Reinforcement Step"))
    unit = unit_of(state, entry.unit)
    if entry.side and unit.side != entry.side:
        out.append(finding("error", section, entry, f"{entry.unit} is a {unit.side} division"))
    row = arrival(state, entry.unit)
    if row is None:
        return None, out + [finding("error", section, entry, f"{entry.unit} is not on the reinforcement "
                                                               "schedule")]
    where = state.location.get(entry.unit)
    if where is not None and where != box_of(state.game, "delayed", unit.side):
        out.append(finding("error", section, entry, f"{entry.unit} is already in play ({where})"))
    elif row.turn > state.at.turn:
        out.append(finding("error", section, entry, f"{entry.unit} arrives on turn {row.turn}, not "
                                                      f"{state.at.turn}"))
    return row, out


def check_reinforce(state: OnslaughtState, entry: Place) -> list[Finding]:
    """10.1-10.3 (9.1 for paratroops): a scheduled division, on its turn or from the Delayed
    Reinforcements box, in a hex it may enter, in supply, not overstacked."""
    return reinforcement_findings(state, entry, recruits=False)


def check_reinforce_or_recruit(state: OnslaughtState, entry: Place) -> list[Finding]:
    """10.1-10.3 with 14.2 in force: an asterisked French division may also be recruited in a French city."""
    return reinforcement_findings(state, entry, recruits=True)


def reinforcement_findings(state: OnslaughtState, entry: Place, recruits: bool) -> list[Finding]:
    """10.1-10.3, and 14.2 when its layer `recruits` (check_reinforce_or_recruit)."""
    unit = unit_of(state, entry.unit)
    section = "10.2" if unit.side == "German" else "10.3"
    row, out = scheduled(state, entry, section)
    if row is None or out:
        return out
    if row.entry == PARATROOP_BOX:
        if entry.hex not in (None, PARATROOP_BOX):
            out.append(finding("error", "9.1", entry, f"{entry.unit} arrives in the Paratroop box, not "
                                                        f"{entry.hex}"))
        return out
    if entry.hex is None:
        return [finding("error", section, entry, f"name the hex where {entry.unit} is placed")]
    problem = placement_problem(state, entry.unit, entry.hex, row.entry)
    if problem is not None and recruits and "free_french" in row.tags:
        # 14.2: a division recruited in France may also appear in a French city.
        recruited = recruitment_problem(state, entry.unit, entry.hex)
        if recruited is None:
            return out
        return out + [finding("error", "14.2", entry, f"{problem}; nor can it be recruited there: {recruited}")]
    if problem is not None:
        out.append(finding("error", section, entry, problem))
    return out


def recruitment_problem(state: OnslaughtState, unit_id: str, label: str) -> str | None:
    """Why a Free French division may not appear at `label` now (14.2), or None."""
    game = state.game
    if not game.grid.is_label(label):
        return f"{label} is not a hex of the map"
    h = game.grid.hex_of(label)
    if h not in area_of(game, "france") or "city" not in game.hex_terrain.get(h, ()):
        return f"{label} is not a city in France"
    occupied = units_at(state, label, "Allied")
    if not occupied and state.controlled.get(label) != "Allied":
        return f"no Allied division occupies {label} or was the last to occupy it"
    if units_at(state, label, "German"):
        return f"German divisions hold {label}"
    if h in near_enemy(state, "Allied"):
        distance = int(game.parameter["free_french_min_distance_mp"])
        # 14.2: "more than two" movement points away; at `distance` (three) a city qualifies.
        return f"{label} is {distance - 1} movement points or less from a German division ({distance} or more needed)"
    if not supply.traces_to(state, "Allied", h, placement_sources(state, "Allied", None)):  # one hex: no flood
        return f"{label} is out of supply"
    limit = int(game.parameter["free_french_per_city"])
    recruited = [u for u in state.log.placed_now if state.location.get(u) == label
                 and (row := arrival(state, u)) is not None and "free_french" in row.tags]
    if len(recruited) >= limit:
        return f"{limit} divisions have already been recruited in {label} this turn"
    return None


def needless_delay(state: OnslaughtState, unit_id: str, entry_area: str | None) -> list[Hex]:
    """10.3: the open hexes that make a delay needless, empty when none does: each room left in them refuses one
    delay (one room left unused, one error), not every delay after it; nor is room a reinforcement of this turn
    still neither placed nor delayed, or one left off the map before, may take (ruling 10.3: that one is the error)."""
    open_now = open_hexes(state, unit_id, entry_area)
    room, taken = room_in(state, "Allied", open_now) - state.log.refused_delays, set(open_now)
    if room <= 0:
        return []
    due = {*(row.unit for row in _schedule(state.game)[1].get((state.scenario, state.at.turn), ())), *state.left_off}
    still_due = sum(1 for u in due if u != unit_id and u not in state.location and unit_of(state, u).side == "Allied"
                    and (row := arrival(state, u)) is not None and row.entry != PARATROOP_BOX
                    and taken & set(open_hexes(state, u, row.entry)))
    return open_now if room > still_due else []


def check_delay(state: OnslaughtState, entry: Place) -> list[Finding]:
    """10.3: an Allied reinforcement goes to the Delayed Reinforcements box only when stacking
    keeps it off every hex it may enter."""
    if unit_of(state, entry.unit).side != "Allied":
        return [finding("error", "10.3", entry, "only Allied reinforcements are delayed")]
    row, out = scheduled(state, entry, "10.3")
    box = box_of(state.game, "delayed", "Allied")
    if row is None or out:
        return out
    if state.location.get(entry.unit) == box:
        return [finding("error", "10.3", entry, f"{entry.unit} is already in the Delayed Reinforcements box")]
    if entry.hex not in (None, box):
        return [finding("error", "10.3", entry, f"a delayed reinforcement goes to {box}, not {entry.hex}")]
    if row.entry == PARATROOP_BOX:
        return [finding("error", "9.1", entry, f"{entry.unit} arrives in the Paratroop box; nothing delays it")]
    open_now = needless_delay(state, entry.unit, row.entry)
    if open_now:
        labels = ", ".join(state.game.grid.label_of(h) for h in open_now[:5])
        return [finding("error", "10.3", entry, f"{entry.unit} can be placed (at {labels}); only reinforcements "
                                                  "that stacking keeps off the map are delayed")]
    return []


def check_arrival_loss(state: OnslaughtState, entry: Loss) -> list[Finding] | None:
    """10.2: a German reinforcement eliminated because no hex of its entry area is in supply;
    None when the loss is not a reinforcement's (other rules judge it)."""
    row = arrival(state, entry.unit)
    if state.at.step != "reinforcement" or entry.loss != "eliminate" or row is None:
        return None
    where = state.location.get(entry.unit)
    if where is not None:
        return None
    if unit_of(state, entry.unit).side != "German":
        return [finding("error", "10.3", entry, "Allied reinforcements that cannot be placed are delayed "
                                                  "(10.3), not eliminated")]
    _, out = scheduled(state, entry, "10.2")
    if out:
        return out
    supplied = supplied_from(state, "German", row.entry)
    usable = sorted((h for h in entry_hexes(state, entry.unit, row.entry, False)
                     if h in supplied), key=state.game.grid.label_of)
    if usable:
        labels = ", ".join(state.game.grid.label_of(h) for h in usable[:5])
        return [finding("error", "10.2", entry, f"{entry.unit} can be placed in supply (at {labels}); only "
                                                  "reinforcements that no entry hex can supply are eliminated")]
    return []


def unplaced(state: OnslaughtState) -> list[tuple[str, str, str]]:
    """The reinforcements of this turn still off the map as the step ends: (unit, section, message)."""
    out = []
    for row in _schedule(state.game)[1].get((state.scenario, state.at.turn), ()):
        if row.unit in state.location:
            continue
        side = unit_of(state, row.unit).side
        section = "9.1" if row.entry == PARATROOP_BOX else ("10.2" if side == "German" else "10.3")
        fate = "placed" if side == "German" else "placed or delayed"
        out.append((row.unit, section, f"turn {state.at.turn}: the {side} reinforcement {row.unit} was not {fate}"))
    return out


def check_replace(state: OnslaughtState, entry: Place) -> list[Finding]:
    """11.1-11.4 (9.3): an eliminated or depleted division rebuilt, its cost and where it goes."""
    out, cost, start, end, in_germany = rebuild(state, entry)
    if cost is None:
        return out
    unit = unit_of(state, entry.unit)
    if entry.points is not None and entry.points != cost:
        out.append(finding("error", "11.1", entry, f"rebuilding {entry.unit} ({unit.type}, {start} to {end}"
                                                     f"{', in Germany' if in_germany else ''}) costs {cost} "
                                                     f"replacement point(s), not {entry.points}"))
    left = state.log.replacement_points.get(unit.side, 0)
    # 11.1: points are received in the Reinforcement Step; a replacement bought outside it is that one error, not
    # also one of points the side has not been given yet.
    if cost > left and state.at.step == "reinforcement":
        out.append(finding("error", "11.1", entry, f"{unit.side} has {left} replacement point(s) left this turn and "
                                                     f"rebuilding {entry.unit} costs {cost}"))
    return out


def replacement_spent(state: OnslaughtState, entry: Place) -> int:
    """The points a replacement spends: the Replacement Table's cost (11.1), whatever the log claims; nothing when the
    rules refuse it (its one error; ruling 11.1 in the register), so later replacements are judged on what the lawful
    ones spent."""
    out, cost, *_ = rebuild(state, entry)
    if cost is None or cost > state.log.replacement_points.get(unit_of(state, entry.unit).side, 0):
        return 0
    refused = out + check_arrival(state, entry, out)
    return 0 if any(f.severity == "error" for f in refused) else cost


def rebuild(state: OnslaughtState, entry: Place) -> tuple[list[Finding], int | None, str, str, bool]:
    """A replacement's faults but its points (11.2-11.4, 9.3), and its cost by the Replacement Table (None when the
    table has no line for it), its start and end strengths and whether it is rebuilt in Germany (11.1)."""
    game = state.game
    out: list[Finding] = []
    if state.at.step != "reinforcement":
        out.append(finding("error", "11.1", entry, f"{turn_and_step(state)}: replacements are bought in the "
                                                     "Reinforcement Step"))
    unit = unit_of(state, entry.unit)
    side = unit.side
    none = (None, "", "", False)
    if entry.side and entry.side != side:
        return (out + [finding("error", "11.2", entry, f"{entry.unit} is a {side} division")], *none)
    where = state.location.get(entry.unit)
    eliminated = box_of(game, "eliminated", side)
    if unit.type == "paratroop" and where in (eliminated, OUT_OF_PLAY):
        return (out + [finding("error", "9.3", entry, f"{entry.unit} was eliminated; paratroop divisions are "
                                                        "never rebuilt")], *none)
    if where == eliminated:
        start = "eliminated"
    elif on_map(state, entry.unit) is not None and entry.unit in state.depleted:
        start = "depleted"
    else:
        state_of = "at full strength on the map" if on_map(state, entry.unit) is not None else \
            f"in {where}" if where else "not in play"
        return (out + [finding("error", "11.2", entry, f"{entry.unit} is {state_of}; only eliminated divisions "
                                                         "and depleted ones on the map are rebuilt")], *none)
    end = "depleted" if entry.strength == "reduced" else "full"
    if start == "depleted":
        if end == "depleted":
            return (out + [finding("error", "11.2", entry, f"{entry.unit} is already depleted; it is rebuilt to "
                                                             "full strength")], *none)
        if entry.hex is not None and entry.hex != where:
            out.append(finding("error", "11.2", entry, f"{entry.unit} is rebuilt where it stands, {where}"))
        if not is_supplied(state, entry.unit):
            out.append(unsupplied_rebuild(state, entry, where or ""))
        label = where
    else:
        label = entry.hex or ""
        out += replacement_place(state, entry, side)
    in_germany = game.grid.is_label(label or "") and game.grid.hex_of(label or "") in area_of(game, "germany")
    cost = replacement_cost(game, unit.type, start, end, in_germany)
    if cost is None:
        out.append(finding("error", "11.2", entry, f"the Replacement Table has no line for a {unit.type} division "
                                                     f"from {start} to {end}"))
    return out, cost, start, end, in_germany


def unsupplied_rebuild(state: OnslaughtState, entry: Place, where: str) -> Finding:
    """11.2: a depleted division rebuilt out of supply; 8.3 when only enemy zones of control cut its line."""
    side = unit_of(state, entry.unit).side
    if supply.traces_but_for_zoc(state, side, state.game.grid.hex_of(where)):
        return finding("error", "8.3", entry, f"{entry.unit} at {where} is out of supply: every line to a source "
                                              "passes a hex in an enemy zone of control that no friendly division "
                                              "occupies; depleted divisions are rebuilt only in supply (11.2)")
    return finding("error", "11.2", entry, f"{entry.unit} at {where} is out of supply; depleted divisions are "
                                           "rebuilt only in supply")


def replacement_place(state: OnslaughtState, entry: Place, side: str) -> list[Finding]:
    """Where an eliminated division comes back: Allied as reinforcements, never in area B, or
    delayed when stacking leaves no room (11.3); German anywhere far from the Allies (11.4)."""
    game = state.game
    if side == "Allied":
        box = box_of(game, "delayed", "Allied")
        if entry.hex == box:
            open_now = open_hexes(state, entry.unit, None, replacing=True)
            if open_now:
                labels = ", ".join(game.grid.label_of(h) for h in open_now[:5])
                return [finding("error", "11.3", entry, f"{entry.unit} can be placed (at {labels}); only "
                                                          "replacements that stacking keeps off the map are "
                                                          "delayed")]
            return []
        if entry.hex is None:
            return [finding("error", "11.3", entry, f"name the hex where {entry.unit} is placed")]
        problem = placement_problem(state, entry.unit, entry.hex, None, replacing=True)
        return [] if problem is None else [finding("error", "11.3", entry, problem)]
    if entry.hex is None or not game.grid.is_label(entry.hex):
        return [finding("error", "11.4", entry, f"German replacements are placed on the map, not "
                                                  f"{entry.hex or 'nowhere'}")]
    h = game.grid.hex_of(entry.hex)
    if h not in map_tables(state.game).passable:
        return [finding("error", "11.4", entry, f"no division may enter {entry.hex}")]
    if units_at(state, entry.hex, "Allied"):
        return [finding("error", "11.4", entry, f"Allied divisions hold {entry.hex}")]
    allied = [h2 for h2 in (on_map(state, u) for u in state.location
                            if unit_of(state, u).side == "Allied") if h2 is not None]
    near_divisions = within_two(state, allied)
    if h in near_divisions:
        return [finding("error", "11.4", entry, f"{entry.hex} is two movement points or less from an Allied "
                                                  "division (three or more needed)")]
    sources = supply.allied_sources(state, state.controlled)
    if h in within_two(state, (s for hexes in sources.values() for s in hexes)):
        return [finding("error", "11.4", entry, f"{entry.hex} is two movement points or less from an Allied "
                                                  "supply source (three or more needed)")]
    german = supply.german_sources(state, state.controlled, state.captured_ports)
    if not supply.traces_avoiding(state, "German", h, german, frozenset(near_divisions)):
        return [finding("error", "11.4", entry, f"no supply line from {entry.hex} keeps three movement "
                                                  "points from every Allied division")]
    return []


PLACE_CHECKS: dict[str, Callable[[OnslaughtState, Place], list[Finding]]] = {
    "reinforce": check_reinforce, "delay": check_delay, "replace": check_replace, "paradrop": check_paradrop,
    "pickup": check_pickup, "setup": check_setup}
"""The check of each way of placing a unit."""
RECRUITING_CHECKS = {**PLACE_CHECKS, "reinforce": check_reinforce_or_recruit}
"""The same with 14.2 in force."""


def check_place(state: OnslaughtState, entry: Place) -> list[Finding]:
    """Placements: paratroops (9.1, 9.2), reinforcements (10.1-10.3), replacements (11.1-11.4)."""
    return placement_findings(PLACE_CHECKS, state, entry)


def check_place_recruiting(state: OnslaughtState, entry: Place) -> list[Finding]:
    """`check_place` with 14.2 in force (its registry layer, rules.py): reinforcements may be recruited too."""
    return placement_findings(RECRUITING_CHECKS, state, entry)


def placement_findings(checks: dict[str, Callable[[OnslaughtState, Place], list[Finding]]], state: OnslaughtState,
                       entry: Place) -> list[Finding]:
    """A placement's own rule, then stacking, judged alike for every way a division arrives (10.1, 6.3)."""
    check = checks.get(entry.how)
    found = [] if check is None else check(state, entry)
    return found + check_arrival(state, entry, found)


def apply_place(state: OnslaughtState, entry: Place) -> OnslaughtState:
    """A placement as the log writes it (3.0, 9.1, 9.2, 10.1-10.3, 11.1-11.4)."""
    game = state.game
    unit = unit_of(state, entry.unit)
    # Asked before the division is placed, as the check asked it.
    reported = overstacks_on_arrival(state, entry)
    if entry.how == "setup":
        state = replace(state, regrouped=True)
    if entry.how == "delay" and unit.side == "Allied":
        row = arrival(state, entry.unit)
        if row is not None and needless_delay(state, entry.unit, row.entry):
            state = replace(state, log=replace(state.log, refused_delays=state.log.refused_delays + 1))
    if entry.how == "pickup":
        # 9.1: instead of moving, onto the turn track three turns ahead.
        return replace(state, location={**state.location, entry.unit: pickup_place(state)},
                       action_log=replace(state.action_log, moved=state.action_log.moved | {entry.unit}))
    if entry.how == "paradrop":
        cost = entry.supply if entry.supply is not None else int(game.parameter["paradrop_cost"])
        # 9.2: the division's drop of this action written again drops nothing more, so spends nothing.
        cost = 0 if entry.unit in state.action_log.dropped else cost
        action = state.action
        if action is not None:
            state = replace(state, action=replace(action, paid=action.paid + cost))
        state = replace(pay(state, "Allied", cost),
                        action_log=replace(state.action_log, dropped=state.action_log.dropped | {entry.unit},
                                           moved=state.action_log.moved | {entry.unit}))
    if entry.how == "replace":
        side = unit.side
        cost = replacement_spent(state, entry)
        left = {**state.log.replacement_points, side: state.log.replacement_points.get(side, 0) - cost}
        state = replace(state, log=replace(state.log, replacement_points=left))
    if entry.how == "replace" and entry.hex is None and on_map(state, entry.unit) is not None:
        # 11.2: a depleted division on the map is rebuilt where it stands.
        return replace(state, depleted=state.depleted - {entry.unit})
    target = entry.hex
    if target is None:
        # Without a hex: delayed arrivals to the Delayed Reinforcements box (10.3), paratroops
        # to the Paratroop box (9.1).
        if entry.how == "delay":
            target = box_of(game, "delayed", unit.side)
        elif unit.type == "paratroop" and entry.how == "reinforce":
            target = PARATROOP_BOX
        else:
            return state
    if game.grid.is_label(target):
        state = mark_control(state, entry.unit, [target])
        if reported:
            # One breach, one error: the placement's own rule (10.1; 3.0 for the set-up) reports the overstack
            # it makes, so 6.3 does not report it again at the action's or step's end; a paradrop's or a
            # German replacement's is 6.3's to report (stacking.arrival_rule).
            state = replace(state, overstacks=state.overstacks | {(target, unit.side)})
    row = arrival(state, entry.unit) if entry.how == "reinforce" else None
    free = state.log.free_moves | {entry.unit} if row is not None and unit.side == "German" and \
        row.entry in ("entry_a", "entry_b") else state.log.free_moves
    depleted = state.depleted | {entry.unit} if entry.strength == "reduced" else state.depleted - {entry.unit}
    placed = state.log.placed_now | {entry.unit} if entry.how == "reinforce" else state.log.placed_now
    # The placed division's own side's zone and the divisions by place carry over (`relocate`).
    return relocate(state, entry.unit, target, depleted=depleted,
                    log=replace(state.log, free_moves=free, placed_now=placed))
