"""Movement (the game's movement and zone of control sections): allowances, terrain costs, enemy units and zones,
rail movement, conditions, stacking at the end of a move; read from rules.toml and terrain.toml."""

from __future__ import annotations


from adjudicator.findings import Finding
from adjudicator.notation.entries import Move
from adjudicator.systems.classic.base import (
    allowance, enemy_of, finding, in_communication, off_the_map, overstacked, rules_of, stack_count, turn_allowance,
    unit_of, zone_of,
)
from adjudicator.systems.classic.victory import entered
from adjudicator.systems.classic.state import ClassicState, evolve, relocate
from wargame.hexes import Hex, Hexside
from wargame.records import frozen


@frozen
class MoveLimits:
    """What a unit may still spend in the phase under way: movement points, or hexes where a condition caps them."""

    budget: float
    """Movement points left (infinite for a move capped in hexes only)."""
    hexes: int | None
    """Hexes left under a condition's cap (None: no cap)."""
    rail: bool
    """The phase under way is a rail movement phase."""
    cut_off: bool = False
    """The unit traces no line of communication, and the rules cut its allowance for it."""
    whole: float = 0.0
    """The allowance before the cut, for a message."""


def limits(state: ClassicState, unit_id: str, strategic: bool = False) -> MoveLimits:
    """The movement a unit has left in the phase under way (a strategic move's, when asked or the phase's)."""
    t = rules_of(state)
    phase = t.phases.get(state.at.step or "")
    rail = phase is not None and phase.movement == "rail"
    strategic = strategic or (phase is not None and phase.movement == "strategic")
    condition = t.condition(state.at.turn)
    if condition is not None and strategic and "strategic" in condition.exempt_movement:
        condition = None
    spent = state.log.spent.get(unit_id, 0.0)
    moved = state.log.hexes_moved.get(unit_id, 0)
    if rail:
        rail_rules = t.rules.movement.rail
        cap = rail_rules.max_hexes if rail_rules else None
        if rail_rules is not None and rail_rules.uses_allowance:
            whole = turn_allowance(state, unit_id)
            cap = min(cap, whole) if cap is not None else whole
        return MoveLimits(float("inf"), None if cap is None else cap - moved, True)
    if condition is not None and condition.max_hexes is not None:
        # A condition capping movement in hexes (mud: one hex a phase) replaces the allowance.
        return MoveLimits(float("inf"), condition.max_hexes - moved, False)
    points = turn_allowance(state, unit_id)
    if condition is not None:
        points = condition.allowance_by_type.get(unit_of(state, unit_id).type, points)
        points = int(points * condition.movement_factor)
    if strategic and t.rules.movement.strategic is not None:
        points = int(points * t.rules.movement.strategic.factor)
    supply = t.rules.supply
    where = state.location.get(unit_id, "")
    if supply is not None and supply.cut_off_movement != 1 and state.game.grid.is_label(where) and \
            not in_communication(state, where, unit_of(state, unit_id).side):
        # A unit tracing no line when it moves has its allowance cut (the rules' `[supply]`).
        return MoveLimits(int(points * supply.cut_off_movement) - spent, None, False, True, points - spent)
    return MoveLimits(points - spent, None, False)


def step_cost(state: ClassicState, a: Hex, b: Hex, rail: bool) -> float | None:
    """Movement points to step from `a` into the adjacent `b` (None: the terrain or hexside forbids it)."""
    t = rules_of(state)
    key = (a, b, rail)
    known = t.step_costs.get(key, False)
    if known is not False:
        return known
    side = Hexside.between(a, b)
    cost: float | None
    if rail:
        cost = 1.0 if side in t.rail else None
    else:
        base = t.hex_cost.get(b)
        add = t.side_add.get(side, 0.0)
        # A step along a road (a hexside feature with its own cost) costs the road's, whatever the hex.
        along = t.side_cost.get(side)
        cost = None if base is None or add is None else (along if along is not None else base + add)
    t.step_costs[key] = cost
    return cost


def check_move(state: ClassicState, entry: Move) -> list[Finding]:
    """One unit's move: from its hex, hex by hex, through no enemy unit or prohibited terrain, stopping on
    entering an enemy zone (and the zone kind's other limits), within its allowance, the stack at the end
    within the limit."""
    t = rules_of(state)
    rules = t.rules
    grid = state.game.grid
    unit = unit_of(state, entry.unit)
    mv, zs = rules.movement.source, rules.zoc.source
    where = state.location.get(entry.unit)
    if where is None or not grid.is_label(where):
        return [finding(state, "error", mv, entry, f"{entry.unit} is not on the map ({where or 'not in play'}); "
                        "only units on the map move")]
    if entry.path[0] != where:
        return [finding(state, "error", mv, entry, f"{entry.unit} is in {where}, not {entry.path[0]}; a move "
                        "starts from the unit's hex")]
    phase = t.phases.get(state.at.step or "")
    off = off_the_map(state, entry.unit, entry.path, "moves")
    if off is not None:
        # 4.0 (9.0 in a rail phase): a unit moves on the map; the classic series has no rule for leaving it.
        rail = rules.movement.rail
        section = rail.source if phase is not None and phase.movement == "rail" and rail is not None else mv
        return [finding(state, "error", section, entry, f"{off}; no rule of this game lets a unit leave the "
                        "map")]
    if rules.movement.one_at_a_time and entry.unit in state.log.spent and state.log.last_mover != entry.unit:
        return [finding(state, "error", mv, entry, f"{entry.unit} moved earlier this phase and "
                        f"{state.log.last_mover} has moved since; units move one at a time, each finishing its move "
                        "before the next")]
    if entry.unit in state.log.stopped:
        return [finding(state, "error", zs, entry, f"{entry.unit} entered an enemy zone of control earlier this "
                        "phase; its movement has ended")]
    strategic = entry.strategic or (phase is not None and phase.movement == "strategic")
    if strategic and rules.movement.strategic is None:
        return [finding(state, "error", mv, entry, f"{entry.unit}: this game has no strategic movement")]
    before = entry.unit in state.log.strategic
    if rules.movement.strategic is not None and entry.unit in state.log.spent and strategic != before:
        # The multiplied allowance is for a move kept away from the enemy from its start: a unit moving on in the
        # same phase moves as it began, or a normal move near the enemy would go on at the strategic allowance.
        return [finding(state, "error", rules.movement.strategic.source, entry, f"{entry.unit} moved "
                        f"{'strategically' if before else 'normally'} earlier this phase; a unit's movement in a "
                        "phase is strategic or not, all of it")]
    if strategic and rules.movement.strategic is not None:
        away = _too_near(state, entry, rules.movement.strategic.keep_away)
        if away is not None:
            return [finding(state, "error", rules.movement.strategic.source, entry, away)]
    lim = limits(state, entry.unit, strategic)
    if lim.rail:
        return _check_rail(state, entry, lim)
    if len(entry.path) > 1 and lim.hexes is None and lim.budget <= 0:
        # A unit with no movement points left (an allowance of 0: a fortress, a turn's own allowance) may not move
        # at all: the clause broken is the allowance's, whatever zones of control its path crosses.
        steps = zip(entry.path, entry.path[1:])
        path_cost = sum(step_cost(state, grid.hex_of(a), grid.hex_of(b), False) or 1.0 for a, b in steps
                        if grid.hex_of(a).is_adjacent(grid.hex_of(b)))
        return [_over_allowance(state, entry, path_cost, lim, strategic)]
    enemy = enemy_of(state, unit.side)
    zoc = zone_of(state, enemy)
    kind = rules.zoc.kind
    out: list[Finding] = []
    spent = 0.0
    hexes = [grid.hex_of(x) for x in entry.path]
    began = state.log.began.get(entry.unit, where)
    for i, (a, b) in enumerate(zip(hexes, hexes[1:])):
        la, lb = entry.path[i], entry.path[i + 1]
        if not a.is_adjacent(b):
            return [finding(state, "error", mv, entry, f"{entry.unit}'s path skips from {la} to {lb}: each hex "
                            "of a move is next to the one before")]
        cost = step_cost(state, a, b, False)
        if cost is None:
            return [finding(state, "error", mv, entry, f"{entry.unit} may not enter {lb}: its terrain (or the "
                            f"hexside {la}-{lb}) is prohibited")]
        if state.side_in(lb) == enemy:
            return [finding(state, "error", mv, entry, f"{entry.unit} may not enter {lb}: enemy units are there")]
        if a in zoc and kind != "none":
            first = i == 0 and la == began and entry.unit not in state.log.spent
            if i > 0:
                out.append(finding(state, "error", zs, entry, f"{entry.unit} entered the enemy zone of control at "
                                   f"{la} and moved on to {lb}; entering an enemy zone ends a unit's move"))
                break
            if kind == "lock" or not first:
                out.append(finding(state, "error", zs, entry, f"{entry.unit} may not leave the enemy zone of "
                                   f"control at {la} by moving"))
                break
            if kind == "no_zoc_to_zoc" and b in zoc:
                out.append(finding(state, "error", zs, entry, f"{entry.unit} moved from the enemy zone of control "
                                   f"at {la} straight into another at {lb}"))
                break
            cost += rules.zoc.leave_cost
        spent += cost
    moved = len(entry.path) - 1
    if not out and lim.hexes is not None and moved > lim.hexes:
        condition = t.condition(state.at.turn)
        section = condition.source if condition is not None else mv
        out.append(finding(state, "error", section, entry, f"{entry.unit} moved {moved} hex(es); "
                           f"{'the ' + condition.name + ' allows' if condition else 'it may move'} "
                           f"{max(lim.hexes, 0)} more this phase"))
    elif not out and spent > lim.budget and lim.cut_off and spent <= lim.whole and rules.supply is not None:
        # The clause misread is the cut-off unit's (the move was within the allowance it would have in supply).
        out.append(finding(state, "error", rules.supply.source, entry, f"{entry.unit} spent {spent:g} MP on "
                           f"{'-'.join(entry.path)}; cut off from its sources it had {max(lim.budget, 0):g} left "
                           f"(x{rules.supply.cut_off_movement:g} of {lim.whole:g})"))
    elif not out and spent > lim.budget:
        out.append(_over_allowance(state, entry, spent, lim, strategic))
    out += _stacking_after(state, entry.unit, entry.path[-1], entry)
    return out


def _over_allowance(state: ClassicState, entry: Move, spent: float, lim: MoveLimits, strategic: bool) -> Finding:
    """A move spending more than the allowance left: the clause that cut the allowance (a condition's, the turn
    record's) when the move was within the counter's, else the movement section's."""
    t = rules_of(state)
    rules = t.rules
    total = allowance(state, entry.unit)
    condition = t.condition(state.at.turn)
    unit = unit_of(state, entry.unit)
    record = t.turn_record(state.at.turn, unit.side)
    whys: list[tuple[str, str]] = []
    if record is not None and unit.type in record.allowance_by_type:
        whys.append((f"turn {record.number}: {unit.type} {record.allowance_by_type[unit.type]}", record.source))
    if record is not None and record.allowance_factor != 1:
        whys.append((f"turn {record.number}: x{record.allowance_factor:g}", record.source))
    if condition is not None and unit.type in condition.allowance_by_type:
        whys.append((f"{condition.name}: {unit.type} {condition.allowance_by_type[unit.type]}", condition.source))
    elif condition is not None and condition.movement_factor != 1:
        whys.append((f"{condition.name}: x{condition.movement_factor:g}", condition.source))
    why = "".join(f" ({w})" for w, _ in whys)
    # Over what the turn or the condition leaves but within the counter's allowance: that rule is what was
    # misread (the last to cut it: a condition's, else the turn record's).
    fast = rules.movement.strategic if strategic else None
    within = bool(whys) and spent <= total * (fast.factor if fast is not None else 1)
    # A strategic move's allowance is the strategic rule's (the counter's multiplied): that is the clause exceeded.
    section = whys[-1][1] if within else fast.source if fast is not None else rules.movement.source
    whole = f"strategic allowance ({total} x{fast.factor:g})" if fast is not None else f"allowance of {total}"
    return finding(state, "error", section, entry, f"{entry.unit} spent {spent:g} MP on {'-'.join(entry.path)}; it "
                   f"had {max(lim.budget, 0):g} of its {whole}{why} left this phase")


def _too_near(state: ClassicState, entry: Move, keep_away: int) -> str | None:
    """Why a strategic move comes too near the enemy (None: it keeps away): a hex of it, its start included,
    within `keep_away` hexes of an enemy unit."""
    if keep_away <= 0:
        return None
    grid = state.game.grid
    enemy = enemy_of(state, unit_of(state, entry.unit).side)
    foes = [grid.hex_of(label) for label, ids in state.by_hex.items() if state.side_in(label) == enemy]
    for label in entry.path:
        if not grid.is_label(label):
            continue
        h = grid.hex_of(label)
        near = next((f for f in foes if f.distance(h) <= keep_away), None)
        if near is not None:
            return (f"{entry.unit}'s strategic move passes {label}, {near.distance(h)} hex(es) from the enemy in "
                    f"{grid.label_of(near)}; a strategic move keeps more than {keep_away} away")
    return None


def _check_rail(state: ClassicState, entry: Move, lim: MoveLimits) -> list[Finding]:
    """A rail move: along rail hexsides only, from a rail hex, by a side that may, clear of enemy zones."""
    t = rules_of(state)
    rail = t.rules.movement.rail
    grid = state.game.grid
    unit = unit_of(state, entry.unit)
    section = rail.source if rail is not None else t.rules.movement.source
    if rail is not None and rail.sides and unit.side not in rail.sides:
        return [finding(state, "error", section, entry, f"{unit.side} units do not move by rail")]
    hexes = [grid.hex_of(x) for x in entry.path]
    if rail is not None and rail.start_on_rail and len(hexes) > 1 and hexes[0] not in t.rail_hexes:
        return [finding(state, "error", section, entry, f"{entry.unit} is in {entry.path[0]}, not on a rail "
                        "line; a rail move begins on one")]
    enemy = enemy_of(state, unit.side)
    zoc = zone_of(state, enemy) if rail is None or rail.enemy_zoc != "ignored" else frozenset()
    for i, (a, b) in enumerate(zip(hexes, hexes[1:])):
        la, lb = entry.path[i], entry.path[i + 1]
        if not a.is_adjacent(b):
            return [finding(state, "error", section, entry, f"{entry.unit}'s path skips from {la} to {lb}: each "
                            "hex of a move is next to the one before")]
        if Hexside.between(a, b) not in t.rail:
            return [finding(state, "error", section, entry, f"{entry.unit} left the rail line between {la} and "
                            f"{lb}; a rail move runs along rail lines only")]
        if state.side_in(lb) == enemy:
            return [finding(state, "error", section, entry, f"{entry.unit} may not enter {lb}: enemy units are "
                            "there")]
        if (a in zoc or b in zoc) and rail is not None and rail.enemy_zoc == "prohibited":
            at = la if a in zoc else lb
            return [finding(state, "error", section, entry, f"{entry.unit} moved by rail in the enemy zone of "
                            f"control at {at}; a rail move may not enter or leave one")]
        if a in zoc and i > 0:
            return [finding(state, "error", section, entry, f"{entry.unit} entered the enemy zone of control at "
                            f"{la} and moved on by rail to {lb}")]
    if lim.hexes is not None and len(hexes) - 1 > lim.hexes:
        return [finding(state, "error", section, entry, f"{entry.unit} moved {len(hexes) - 1} hexes by rail; at "
                        f"most {max(lim.hexes, 0)} more this phase")]
    return _stacking_after(state, entry.unit, entry.path[-1], entry)


def _stacking_after(state: ClassicState, unit_id: str, label: str, entry: Move) -> list[Finding]:
    """The stack a unit ends its move in is within the limit (when stacking is checked at the end of each move)."""
    rules = rules_of(state).rules
    if rules.stacking.checked != "end_of_move" or not state.game.grid.is_label(label):
        return []
    side = unit_of(state, unit_id).side
    there = [u for u in state.units_in(label) if u != unit_id and unit_of(state, u).side == side]
    count = stack_count(state, [*there, unit_id])
    if count > rules.stacking.limit:
        return [finding(state, "error", rules.stacking.source, entry, f"{unit_id} ends its move in {label} with "
                        f"{', '.join(there)}: {count} {rules.stacking.count} where the limit is "
                        f"{rules.stacking.limit}")]
    return []


def apply_move(state: ClassicState, entry: Move) -> ClassicState:
    """The unit in its path's last hex, its spending and any stop in an enemy zone remembered for the phase."""
    grid = state.game.grid
    unit = unit_of(state, entry.unit)
    t = rules_of(state)
    # Only whether the phase moves by rail matters here (`limits` would also price the allowance and trace a line).
    phase = t.phases.get(state.at.step or "")
    by_rail = phase is not None and phase.movement == "rail"
    hexes = [grid.hex_of(x) for x in entry.path if grid.is_label(x)]
    spent = 0.0
    for a, b in zip(hexes, hexes[1:]):
        if a.is_adjacent(b):
            spent += step_cost(state, a, b, by_rail) or 0.0
    log = state.log
    began = {**log.began}
    began.setdefault(entry.unit, state.location.get(entry.unit, entry.path[0]))
    stopped = log.stopped
    end = hexes[-1] if hexes else None
    rail = t.rules.movement.rail
    stops_here = not by_rail or (rail is not None and rail.enemy_zoc == "stop")
    if end is not None and stops_here and t.rules.zoc.kind != "none" and len(hexes) > 1 \
            and end in zone_of(state, enemy_of(state, unit.side)):
        stopped = stopped | {entry.unit}
    strategic = entry.strategic or (phase is not None and phase.movement == "strategic")
    log = evolve(log, spent={**log.spent, entry.unit: log.spent.get(entry.unit, 0.0) + spent},
                  strategic=log.strategic | {entry.unit} if strategic else log.strategic,
                  hexes_moved={**log.hexes_moved, entry.unit: log.hexes_moved.get(entry.unit, 0) + len(hexes) - 1},
                  began=began, stopped=stopped, last_mover=entry.unit)
    moved = relocate(state, {entry.unit: entry.path[-1]}, log=log)
    return entered(moved, unit.side, entry.path[1:])


def phase_stacking(state: ClassicState) -> list[tuple[str, str]]:
    """Every overstacked hex (label, side) when stacking is checked at the end of each phase."""
    stacking = rules_of(state).rules.stacking
    if stacking.checked != "end_of_phase":
        return []
    # A unit counts one, or at most its steps (three or four on some counters): a hex with fewer units than that
    # cannot be over the limit.
    most = max((u.steps for u in state.game.units_by_id.values()), default=1) if stacking.count == "steps" else 1
    return [(label, state.side_in(label) or "") for label in sorted(
        label for label, ids in state.by_hex.items() if len(ids) * most > stacking.limit) if overstacked(state, label)]
