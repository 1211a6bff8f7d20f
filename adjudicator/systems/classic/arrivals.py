"""Reinforcements (reinforcements.csv) and replacements (replacements.csv with rules.toml's `[replacements]`):
when, where, on which face, what a point buys, and that the hex is in communication."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.findings import Finding
from adjudicator.notation.entries import Place
from adjudicator.systems.classic.base import (
    enemy_of, finding, in_communication, noted_overstack, rules_of, stack_count, steps_left, steps_lost, unit_of,
    zone_of,
)
from adjudicator.systems.classic.victory import entered
from adjudicator.systems.classic.state import ClassicState, evolve, relocate
from wargame.models import Arrival


def schedule(state: ClassicState, unit_id: str) -> Arrival | None:
    """A unit's arrival in the scenario (None: it is not a reinforcement)."""
    return next((a for _, a in state.game.reinforcements if a.scenario == state.scenario and a.unit == unit_id),
                None)


def entry_hexes(state: ClassicState, arrival: Arrival) -> frozenset[str]:
    """Where a reinforcement may enter: its hex, or the hexes of its area (none given: anywhere)."""
    if arrival.entry is None:
        return frozenset()
    if state.game.grid.is_label(arrival.entry):
        return frozenset({arrival.entry})
    return rules_of(state).area_hexes((arrival.entry,))


def _label_order(state: ClassicState) -> Callable[[str], tuple[int, int]]:
    """Hex labels in the map's reading order (row by row), for a list in a message."""
    grid = state.game.grid

    def key(label: str) -> tuple[int, int]:
        column, row = grid.parse_label(label)
        return row, column
    return key


def points_for(state: ClassicState, side: str) -> int:
    """The replacement points a side receives this turn (replacements.csv)."""
    rules = rules_of(state).rules.replacements
    kind = rules.kind if rules is not None else "steps"
    return sum(r.amount for _, r in state.game.replacements
               if r.scenario == state.scenario and r.turn == state.at.turn and r.side == side and r.kind == kind)


def _hex_findings(state: ClassicState, entry: Place, label: str, section: str, zoc_rule: bool,
                  empty: bool = False) -> list[Finding]:
    """A hex a unit is placed in: on the map, free of enemy units (and zones), empty where the placing rule says so
    (its own clause, not stacking's), the stack within the limit."""
    grid = state.game.grid
    if not grid.is_label(label):
        return [finding(state, "error", section, entry, f"{label} is not a hex of the map")]
    side = unit_of(state, entry.unit).side
    if state.side_in(label) not in (None, side):
        return [finding(state, "error", section, entry, f"{entry.unit} may not be placed in {label}: enemy units "
                        "are there")]
    if zoc_rule and grid.hex_of(label) in zone_of(state, enemy_of(state, side)):
        return [finding(state, "error", section, entry, f"{entry.unit} may not be placed in {label}, in an enemy "
                        "zone of control")]
    stacking = rules_of(state).rules.stacking
    there = [u for u in state.units_in(label) if u != entry.unit]
    if empty and there:
        return [finding(state, "error", section, entry, f"{entry.unit} may not be placed in {label}, where "
                        f"{', '.join(there)} {'is' if len(there) == 1 else 'are'}: a rebuilt unit appears in an empty "
                        "hex")]
    if stack_count(state, [*there, entry.unit]) > stacking.limit:
        return [finding(state, "error", stacking.source, entry, f"{entry.unit} placed in {label} with "
                        f"{', '.join(there)}: over the stacking limit of {stacking.limit}")]
    return []


def check_reinforce(state: ClassicState, entry: Place) -> list[Finding]:
    """A reinforcement placed on its turn (not before; not after unless the rules allow), at its entry hex."""
    rules = rules_of(state).rules.reinforcements
    section = rules.source if rules else rules_of(state).rules.movement.source
    arrival = schedule(state, entry.unit)
    if arrival is None:
        return [finding(state, "error", section, entry, f"{entry.unit} is not a reinforcement of this scenario")]
    if entry.unit in state.arrived:
        return [finding(state, "error", section, entry, f"{entry.unit} has arrived already")]
    if state.at.turn < arrival.turn:
        return [finding(state, "error", section, entry, f"{entry.unit} arrives on turn {arrival.turn}, not "
                        f"{state.at.turn}")]
    out: list[Finding] = []
    if state.at.turn > arrival.turn and not late_allowed(state):
        # One breach, one error: a reinforcement left off the map as its turn ended was reported then.
        if entry.unit not in state.overdue:
            return [finding(state, "error", section, entry, f"{entry.unit} was due on turn {arrival.turn}; a "
                            "reinforcement is placed on its turn")]
        out.append(finding(state, "note", section, entry, f"{entry.unit} is placed late (due on turn "
                           f"{arrival.turn}): reported as that turn ended"))
    allowed = entry_hexes(state, arrival)
    label = entry.hex or ""
    if allowed and label not in allowed:
        # An area's unit enters on one of its hexes, which the log names (the area's id is no hex).
        where = arrival.entry if len(allowed) == 1 else \
            f"a hex of {arrival.entry} ({', '.join(sorted(allowed, key=_label_order(state)))})"
        said = f"not {label}" if label and label != arrival.entry else "name the hex it enters"
        return [*out, finding(state, "error", section, entry, f"{entry.unit} enters on {where}; {said}")]
    return [*out, *_hex_findings(state, entry, label, section, rules is not None and rules.not_in_enemy_zoc)]


def check_replace(state: ClassicState, entry: Place) -> list[Finding]:
    """A replacement point spent: an eliminated unit rebuilt on its reduced (or full) face in a hex the rules
    allow, or a reduced unit restored where it stands; in communication; within the turn's points."""
    t = rules_of(state)
    rules = t.rules.replacements
    if rules is None:
        return [finding(state, "error", t.rules.movement.source, entry, "this game has no replacements")]
    section = rules.source
    unit = unit_of(state, entry.unit)
    side = unit.side
    if rules.unit_types.get(side) and unit.type not in rules.unit_types[side]:
        return [finding(state, "error", section, entry, f"{entry.unit} is a {unit.type} unit; {side} replacements "
                        f"rebuild {', '.join(rules.unit_types[side])} units only")]
    spent = state.log.points.get(side, 0) + (entry.points if entry.points is not None else 1)
    have = points_for(state, side)
    if spent > have:
        return [finding(state, "error", section, entry, f"{side} has {have} replacement point(s) on turn "
                        f"{state.at.turn}; this one would make {spent}")]
    if entry.points is not None and entry.points != 1:
        return [finding(state, "error", section, entry, f"a replacement costs 1 point, not {entry.points}")]
    if rules.once_per_phase and entry.unit in state.log.replaced:
        return [finding(state, "error", section, entry, f"{entry.unit} has taken a replacement point this phase "
                        "already; a unit takes one a phase")]
    earliest = rules.from_turn.get(entry.unit)
    if earliest is not None and state.at.turn < earliest:
        return [finding(state, "error", section, entry, f"{entry.unit} may be brought in from turn {earliest} on, "
                        f"not on turn {state.at.turn}")]
    exempt = {t.place_hex.get(n, n) for n in rules.communication_exempt.get(side, ())}
    grid = state.game.grid
    where = state.location.get(entry.unit, "")
    on_map = grid.is_label(where)
    if on_map:
        if entry.unit not in state.reduced:
            return [finding(state, "error", section, entry, f"{entry.unit} is at full strength already")]
        if not rules.restore:
            return [finding(state, "error", section, entry, "replacements rebuild eliminated units only")]
        if entry.hex not in (None, where):
            return [finding(state, "error", section, entry, f"{entry.unit} is in {where}; a reduced unit is restored "
                            "where it stands")]
        lost = steps_lost(state, entry.unit)
        if entry.strength == "reduced" and lost == 1:
            return [finding(state, "error", section, entry, f"restoring {entry.unit} flips it to its full face")]
        if entry.strength == "full" and lost > 1:
            return [finding(state, "error", section, entry, f"a point restores one step: {entry.unit} has "
                            f"{steps_left(state, entry.unit) + 1} of its {unit_of(state, entry.unit).steps} steps "
                            "after it, not its full face")]
        if rules.in_communication and where not in exempt and not in_communication(state, where, side):
            # The clause misread is the line of communication's (its own section, when the rules give one).
            return [finding(state, "error", t.rules.supply.source if t.rules.supply else section, entry, f"{entry.unit} in {where} is not in communication; only "
                            "a unit in communication is restored")]
        return []
    if schedule(state, entry.unit) is not None and entry.unit not in state.arrived:
        return [finding(state, "error", section, entry, f"{entry.unit} has not arrived yet; only eliminated units "
                        "are rebuilt")]
    if entry.strength is not None and entry.strength != rules.rebuild:
        return [finding(state, "error", section, entry, f"an eliminated unit comes back {rules.rebuild}, not "
                        f"{entry.strength}")]
    label = entry.hex or ""
    places = t.area_hexes(rules.places.get(side, ()))
    if places and label not in places:
        return [finding(state, "error", section, entry, f"{label} is not a hex where {side} replacements appear "
                        f"({', '.join(rules.places[side])})")]
    sources = t.area_hexes(t.rules.supply.sources.get(side, ())) if t.rules.supply is not None else frozenset()
    if rules.places_controlled and label not in sources and state.control.get(label) != side:
        return [finding(state, "error", section, entry, f"{label} is not controlled by {side}; replacements appear "
                        "in its own places")]
    out = _hex_findings(state, entry, label, section, rules.not_in_enemy_zoc, rules.empty_hex)
    if not out and rules.in_communication and label not in exempt and not in_communication(state, label, side):
        out.append(finding(state, "error", t.rules.supply.source if t.rules.supply else section, entry, f"{label} is not in communication; a rebuilt unit "
                           "appears in communication"))
    return out


def apply_place(state: ClassicState, entry: Place) -> ClassicState:
    """The unit in its hex, on the face written (a rebuilt unit on the rules' face), points counted."""
    unit = unit_of(state, entry.unit)
    label = entry.hex or state.location.get(entry.unit, "")
    if entry.how == "replace" and state.game.grid.is_label(state.location.get(entry.unit, "")):
        label = state.location[entry.unit]  # a unit on the map is restored where it stands, whatever is written
    reduced = state.reduced
    further = dict(state.further)
    log = state.log
    arrived = state.arrived
    if entry.how == "replace":
        log = evolve(log, points={**log.points, unit.side: log.points.get(unit.side, 0) + (entry.points or 1)},
                      replaced=log.replaced | {entry.unit})
        rules = rules_of(state).rules.replacements
        on_map = state.game.grid.is_label(state.location.get(entry.unit, ""))
        face = entry.strength or ("full" if on_map else (rules.rebuild if rules else "reduced"))
        reduced = reduced - {entry.unit} if face == "full" else reduced | {entry.unit}
        further = {u: n for u, n in further.items() if u != entry.unit}
        lost = state.further.get(entry.unit, 0)
        if on_map and entry.unit in state.reduced and lost:
            # A point restores one step: a unit below its reduced face moves one face up.
            reduced = reduced | {entry.unit}
            if lost > 1:
                further[entry.unit] = lost - 1
        elif not on_map and face == "reduced" and unit.steps > 2:
            # A unit of three or four steps is rebuilt with one step, and regains the others a point at a time.
            further[entry.unit] = unit.steps - 2
        if unit.steps == 1:
            reduced = reduced - {entry.unit}
    elif entry.how == "reinforce":
        arrived = arrived | {entry.unit}
        if entry.strength == "reduced" and unit.steps >= 2:
            reduced = reduced | {entry.unit}
    after = relocate(state, {entry.unit: label}, reduced, log=log, arrived=arrived, further=further)
    return noted_overstack(entered(after, unit.side, [label]), label)


def late_allowed(state: ClassicState) -> bool:
    """Whether a reinforcement may be placed after its turn (rules.toml's `[reinforcements] late`; without the
    table, the default: it may not)."""
    rules = rules_of(state).rules.reinforcements
    return rules is not None and rules.late == "allowed"


def overdue(state: ClassicState, turn: int) -> list[tuple[str, int]]:
    """Reinforcements due by `turn` and not placed (when the rules do not allow them late), not yet reported (a turn
    the log skipped included); one placed early is on the map, its one error given where it was placed."""
    if late_allowed(state):
        return []
    grid = state.game.grid
    return sorted((a.unit, a.turn) for _, a in state.game.reinforcements
                  if a.scenario == state.scenario and a.turn <= turn and a.unit not in state.arrived
                  and a.unit not in state.overdue and not grid.is_label(state.location.get(a.unit, "")))
