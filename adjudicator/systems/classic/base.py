"""What the classic series' rule areas share: findings citing the game's own sections, unit values, zones of
control, stacking and lines of communication, all read from the game's data."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from fractions import Fraction
from typing import Literal

from adjudicator.findings import Finding, Severity
from adjudicator.notation.entries import Entry
from adjudicator.systems.classic.state import ClassicState, evolve
from adjudicator.systems.classic.tables import Tables, factor, tables
from wargame.hexes import Hex, Hexside
from wargame.models import Unit

Role = Literal["attack", "defence"]
"""A unit's part in a combat, which says the strength it counts."""


def rules_of(state: ClassicState) -> Tables:
    """The game's tables (rules, costs, sections)."""
    return tables(state.game)


def finding(state: ClassicState, severity: Severity, section: str, entry: Entry | None, message: str,
            line: int = 0) -> Finding:
    """A finding citing one of the game's sections (its rules.toml `[[section]]`)."""
    where_line = entry.line if entry is not None else line
    column = entry.column if entry is not None else 1
    return rules_of(state).table.finding(severity, section, where_line, column, message)


def enemy_of(state: ClassicState, side: str) -> str:
    """The other side."""
    sides = state.game.manifest.sides
    return sides[1] if side == sides[0] else sides[0]


def unit_of(state: ClassicState, unit_id: str) -> Unit:
    """The unit of an id."""
    return state.game.units_by_id[unit_id]


def steps_lost(state: ClassicState, unit_id: str) -> int:
    """The steps a unit on the map has lost: 0 on its full face, 1 on its reduced face, more below it."""
    return (1 + state.further.get(unit_id, 0)) if unit_id in state.reduced else 0


def face_after(state: ClassicState, unit_id: str, lost: int) -> tuple[int, ...]:
    """A unit's values once it has lost `lost` steps in all (its full face, reduced face, further faces)."""
    unit = unit_of(state, unit_id)
    if lost <= 0 or unit.reduced is None:
        return unit.full
    return unit.reduced if lost == 1 else unit.further_reduced[min(lost, unit.steps - 1) - 2]


def values_of(state: ClassicState, unit_id: str) -> tuple[int, ...]:
    """A unit's values on the face it shows."""
    unit = unit_of(state, unit_id)
    if unit_id not in state.reduced or unit.reduced is None:
        return unit.full
    return face_after(state, unit_id, steps_lost(state, unit_id))


def strength(state: ClassicState, unit_id: str, role: Role) -> int:
    """A unit's attack or defence strength on the face it shows (one value for both on a two-value counter)."""
    return values_of(state, unit_id)[_index(state, role)]


def _index(state: ClassicState, role: Role) -> int:
    """Where a counter prints the strength of a role in combat (`[combat] attack_value`, `defence_value`)."""
    t = rules_of(state)
    return t.attack_index if role == "attack" else t.defence_index


def allowance(state: ClassicState, unit_id: str) -> int:
    """A unit's movement allowance on the face it shows, before any condition."""
    return values_of(state, unit_id)[rules_of(state).value_index]


def turn_allowance(state: ClassicState, unit_id: str) -> int:
    """A unit's movement allowance on the turn under way: its counter's, as the turn record (`[[turn]]`) changes it
    for its side and type, before any condition."""
    unit = unit_of(state, unit_id)
    record = rules_of(state).turn_record(state.at.turn, unit.side)
    points = allowance(state, unit_id)
    if record is None:
        return points
    return int(record.allowance_by_type.get(unit.type, points) * record.allowance_factor)


def steps_left(state: ClassicState, unit_id: str) -> int:
    """The steps a unit has left: its steps (units.csv) less those it has lost, one at least."""
    unit = unit_of(state, unit_id)
    return 1 if unit.steps == 1 else max(unit.steps - steps_lost(state, unit_id), 1)


def strength_lost(state: ClassicState, unit_id: str, steps: int, role: Role) -> Fraction:
    """The printed strength a unit loses with its next `steps` steps (what an exchange counts: the defender's
    defence, the attacker's attack): its face's less the face it would show, all of it when they are its last."""
    index = _index(state, role)
    now = values_of(state, unit_id)[index]
    if steps >= steps_left(state, unit_id):
        return Fraction(now)
    return Fraction(now - face_after(state, unit_id, steps_lost(state, unit_id) + steps)[index])


def step_value(state: ClassicState, unit_id: str, role: Role) -> Fraction:
    """The printed strength a unit loses with its next step (what an exchange counts)."""
    return strength_lost(state, unit_id, 1, role)


def off_the_map(state: ClassicState, unit_id: str, path: Iterable[str], verb: str) -> str | None:
    """How a path leaves the map's hexes, for a message (None: every label is a hex of the map): the engine hands a
    path stepping beyond the edge to the rules as a question, not a typo; a box's id is no hex either."""
    grid = state.game.grid
    off = next((label for label in path if not grid.is_label(label)), None)
    if off is None:
        return None
    if grid.hex_beyond(off) is not None:
        return f"{unit_id} {verb} off the map at {off}"
    return f"{unit_id} {verb} into {off}, which is not a hex of the map"


def eliminated_box(state: ClassicState, side: str) -> str:
    """Where a side's eliminated units go: its Eliminated box of game.toml, else `eliminated`."""
    box = state.game.manifest.box_of("eliminated", side, "units")
    return box.id if box is not None else "eliminated"


def exerts_zoc(state: ClassicState, unit_id: str) -> bool:
    """Whether a unit has a zone of control (units.csv's `zoc`; none at all when the rules have none)."""
    return rules_of(state).rules.zoc.kind != "none" and unit_of(state, unit_id).zoc


def zone_of(state: ClassicState, side: str) -> frozenset[Hex]:
    """The hexes in the zones of control `side`'s units exert (not across blocked hexsides, not into blocked
    hexes; a unit's own hex is in its zone)."""
    t = rules_of(state)
    if t.rules.zoc.kind == "none":
        return frozenset()
    last = t.zones.get(side)
    if last is not None and last[0] is state.by_hex:
        return last[1]
    # The zones depend on the hexes the side's units hold, not on the other side's: keyed by those hexes, the
    # zones a move of the other side leaves alone are found again.
    held = state.held.get(side, frozenset())
    zone = t.zones_by_hexes.get((side, held))
    if zone is None:
        grid = state.game.grid
        out: set[Hex] = set()
        for label in held:
            out |= t.zoc_cells[grid.hex_of(label)]
        zone = frozenset(out)
        if len(t.zones_by_hexes) > 256:
            t.zones_by_hexes.clear()  # bounded: a replay asks about its recent positions
        t.zones_by_hexes[(side, held)] = zone
    t.zones[side] = (state.by_hex, zone)
    return zone


def stack_count(state: ClassicState, units: Iterable[str]) -> int:
    """What a stack counts toward the limit: units, or steps (stacking's `count`)."""
    t = rules_of(state)
    units = list(units)
    if t.rules.stacking.count == "units":
        return len(units)
    return sum(steps_left(state, u) for u in units)


def overstacked(state: ClassicState, label: str) -> bool:
    """Whether a side's units in a hex are more than the stacking limit allows (enemy units that an illegal move
    put beside them are not counted: that move was the breach)."""
    units = state.game.units_by_id
    limit = rules_of(state).rules.stacking.limit
    return any(stack_count(state, [u for u in state.units_in(label) if units[u].side == side]) > limit
               for side in state.game.manifest.sides)


def noted_overstack(state: ClassicState, label: str) -> ClassicState:
    """The state with a hex's overstack marked as reported: the entry that made it was judged for it already
    (a retreat or placement ending on a full hex), so a phase's end does not report it again."""
    if not state.game.grid.is_label(label) or not overstacked(state, label):
        return state
    return evolve(state, overstacks=state.overstacks | {(label, state.units_in(label))})


def in_communication(state: ClassicState, label: str, side: str) -> bool:
    """Whether a hex traces a line of communication to one of `side`'s sources (`[supply]`)."""
    return communication_line(state, label, side) is not None


def communication_line(state: ClassicState, label: str, side: str) -> list[str] | None:
    """A shortest line of communication from a hex to one of `side`'s sources (`[supply]`), its labels from the
    hex on (None: none): through no hex of an enemy unit, through enemy zones only where the rules allow, within
    the line's length. Every asker (replacements, cut-off units, the movement model's pictures) traces this one."""
    t = rules_of(state)
    supply = t.rules.supply
    if supply is None:
        return [label]
    sources = t.area_hexes(supply.sources.get(side, ()))
    if label in sources:
        return [label]
    enemy = enemy_of(state, side)
    # 11.1 (rulings register): the line is traced from the hex, so only the hexes it enters must be free of
    # enemy units and zones; the hex itself may lie in an enemy zone, whether a friendly unit stands in it or it
    # is an empty hex a unit is placed in. A hex held by the enemy traces no line of this side.
    if state.side_in(label) == enemy:
        return None
    zoc = zone_of(state, enemy) if supply.enemy_zoc != "allowed" else frozenset()
    closed, steps, by_hex, units = t.supply_closed, t.supply_steps, state.by_hex, state.game.units_by_id
    friendly_zoc_open = supply.enemy_zoc == "blocked_unless_friendly"

    def open_hex(h: Hex, lab: str) -> bool:
        if h in closed:
            return False
        there = by_hex.get(lab)
        holder = units[there[0]].side if there else None
        if holder == enemy:
            return False
        return h not in zoc or (friendly_zoc_open and holder == side)

    start = state.game.grid.hex_of(label)
    # Each hex reached, with the hex and label it was reached from (the line is read back from a source).
    came: dict[Hex, tuple[Hex, str] | None] = {start: None}
    queue: deque[tuple[Hex, int]] = deque([(start, 0)])
    most = supply.max_hexes
    while queue:
        h, d = queue.popleft()
        if most is not None and d >= most:
            continue
        for n, lab in steps.get(h, ()):
            if n in came or not open_hex(n, lab):
                continue
            came[n] = (h, lab)
            if lab in sources:
                line: list[str] = []
                back = came[n]
                while back is not None:
                    line.append(back[1])
                    back = came[back[0]]
                return [label, *reversed(line)]
            queue.append((n, d + 1))
    return None


def condition_factor(state: ClassicState, attacking: bool) -> Fraction:
    """The condition in force now multiplies attackers' (or defenders') strengths by this."""
    condition = rules_of(state).condition(state.at.turn)
    if condition is None:
        return Fraction(1)
    return factor(condition.attack_factor if attacking else condition.defence_factor)
