"""Movement (6.1, 6.4 strategic movement, 6.5 major waterways) of a division along a path."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.findings import Finding
from adjudicator.notation.entries import Move
from adjudicator.systems.onslaught.activation import record_sequence
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import (
    OnslaughtState, enemy_of, movement_allowance, relocate, replace, turn_and_step, unit_of, units_at,
)
from adjudicator.systems.onslaught.supply import mark_control
from adjudicator.systems.onslaught.tables import map_tables
from adjudicator.systems.onslaught.zoc import near_enemy, zone_of_control
from wargame.hexes import Hex, Hexside


def as_corrected(state: OnslaughtState, entry: Move) -> OnslaughtState:
    """The state a move is judged in: when it rewrites a move written from the wrong hex (from the
    hex the unit was really in), the state before that move (one breach, one error)."""
    original = state.rewritten.get(entry.unit)
    if original is None or entry.path[0] != original or state.location.get(entry.unit) == original:
        return state
    return replace(state, location={**state.location, entry.unit: original}, moved=state.moved - {entry.unit},
                   stopped=state.stopped - {entry.unit})


def check_move(state: OnslaughtState, entry: Move) -> list[Finding]:
    state = as_corrected(state, entry)
    out: list[Finding] = []
    unit = unit_of(state, entry.unit)
    game = state.game
    tables = map_tables(game)
    where = state.location.get(entry.unit)
    if where is None or not game.grid.is_label(where):
        return [finding("error", "6.1", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
    if entry.unit in state.dropped:
        return [finding("error", "9.2", entry, f"{entry.unit} made a paradrop in this action and moves no "
                                               "further in it")]
    reserve = state.step == "german_reserve" and unit.side == "German"
    action = state.action
    if state.step == "reinforcement" and action is None:
        if entry.unit not in state.free_moves:
            # 10.2: the one move of the Reinforcement Step, free, for German arrivals from A or B.
            return [finding("error", "10.2", entry, f"{entry.unit} moves in the Reinforcement Step; only German "
                                                    "reinforcements placed in area A or B this step move then, "
                                                    "once")]
    elif not reserve:
        if action is None:
            return [finding("error", "5.2", entry, f"{turn_and_step(state)}: {entry.unit} moves without an action")]
        if entry.unit not in action.activated:
            # 6.1: "A division must be activated in order to move."
            out.append(finding("error", "6.1", entry, f"{entry.unit} moves without being activated in this action"))
        elif action.type in ("movement", "breakthrough") and entry.unit not in action.latest:
            section = "5.3" if action.type == "movement" else "5.5"
            out.append(finding("error", section, entry, f"{entry.unit} moves after another stack was activated; "
                                                        "only one stack is activated at a time"))
        if action.type == "breakthrough" and unit.type != "armor" and entry.unit in action.activated:
            out.append(finding("error", "14.3", entry, f"{entry.unit} is not armor; infantry joins a breakthrough "
                                                       "attack but does not move"))
        if action.type == "combat":
            out.append(finding("error", "5.4", entry, f"{entry.unit} moves during a Combat action, where divisions "
                                                      "move only to retreat or advance after combat"))
    elif not entry.strategic:
        out.append(finding("error", "5.0", entry, "in the German Reserve Step divisions move strategically only"))
    if entry.unit in state.moved and not (action is not None and action.type == "breakthrough"):
        out.append(finding("error", "6.1", entry, f"{entry.unit} has already moved in this action"))
    if entry.path[0] != where:
        out.append(finding("error", "6.1", entry, f"{entry.unit} is in {where}, not {entry.path[0]}"))
        return out
    off = [label for label in entry.path if not game.grid.is_label(label)]
    if off:
        # No Onslaught rule lets a division leave the map (6.1 moves it from hex to hex of the map).
        return out + [finding("error", "6.1", entry, f"{entry.unit} leaves the map at {off[0]}: no rule allows a "
                                                     "division to move off the map")]
    hexes = [game.grid.hex_of(label) for label in entry.path]
    for (la, a), (lb, b) in zip(zip(entry.path, hexes), zip(entry.path[1:], hexes[1:])):
        if not a.is_adjacent(b):
            out.append(finding("error", "6.1", entry, f"{entry.unit} skips from {la} to {lb}; a division moves "
                                                      "from hex to adjacent hex"))
            return out
        if b not in tables.passable:
            out.append(finding("error", "6.1", entry, f"{entry.unit} enters {lb}, which no division may enter"))
        if Hexside.between(a, b) in tables.impassable_sides:
            out.append(finding("error", "6.1", entry, f"{entry.unit} crosses the impassable hexside {la}-{lb}"))
    out += check_waterways(state, entry, hexes)
    entered = len(hexes) - 1
    allowance = movement_allowance(state, entry.unit)
    if action is not None and entry.unit in action.unsupplied and entered > 1:
        out.append(finding("error", "8.6", entry, f"{entry.unit}'s stack was out of supply when activated and "
                                                  f"may move one hex, not {entered}"))
    if entry.strategic:
        allowance *= int(game.parameter["strategic_movement_multiplier"])
        near = near_enemy(state, unit.side)
        for label, h in zip(entry.path, hexes):
            if h in near:
                out.append(finding("error", "6.4", entry, f"{entry.unit} moves strategically within "
                                                          f"{game.parameter['strategic_movement_min_distance_mp']} "
                                                          f"movement points of an enemy division at {label}"))
                break
    if entered > allowance:
        section = "6.4" if entry.strategic else "6.1"
        out.append(finding("error", section, entry, f"{entry.unit} enters {entered} hexes with a movement "
                                                    f"allowance of {allowance}"))
    if entry.unit in state.stopped:
        out.append(finding("error", "6.2", entry, f"{entry.unit} entered an enemy zone of control earlier in this "
                                                  "action and can move no further"))
    enemy_zoc = zone_of_control(state, enemy_of(state, unit.side))
    for i in range(1, len(hexes)):
        previous, current = hexes[i - 1], hexes[i]
        if previous in enemy_zoc and current in enemy_zoc:
            if i == 1:
                message = (f"{entry.unit} starts in an enemy zone of control at {entry.path[0]} and moves directly "
                           f"into another at {entry.path[1]}")
            else:
                message = (f"{entry.unit} entered an enemy zone of control at {entry.path[i - 1]} and moved on to "
                           f"{entry.path[i]}")
            out.append(finding("error", "6.2", entry, message))
            break
        if current in enemy_zoc and i < len(hexes) - 1:
            out.append(finding("error", "6.2", entry, f"{entry.unit} entered an enemy zone of control at "
                                                      f"{entry.path[i]} and moved on to {entry.path[i + 1]}"))
            break
    return out


def check_waterways(state: OnslaughtState, entry: Move, hexes: Sequence[Hex]) -> list[Finding]:
    """6.5: crossing a major waterway takes the whole movement allowance (first hex entered,
    then stop), except German divisions across the Rhine and Allied ones into a hex another
    Allied division already holds (not one of the crossing division's own stack)."""
    tables = map_tables(state.game)
    unit = unit_of(state, entry.unit)
    action = state.action
    own_stack = action.latest if action is not None else frozenset()
    for i, (a, b) in enumerate(zip(hexes, hexes[1:]), start=1):
        side = Hexside.between(a, b)
        if side not in tables.waterways:
            continue
        scheldt = side in tables.scheldt
        if not scheldt and unit.side == "German":
            continue
        if not scheldt and any(u != entry.unit and u not in own_stack
                               for u in units_at(state, entry.path[i], unit.side)):
            continue
        name = "the Scheldt estuary" if scheldt else "the Rhine"
        if i != 1:
            return [finding("error", "6.5", entry, f"{entry.unit} crosses {name} at {entry.path[i - 1]}-"
                                                   f"{entry.path[i]} after moving; crossing a major waterway takes "
                                                   "the whole movement allowance, so it is the first hex entered")]
        if len(hexes) > 2:
            return [finding("error", "6.5", entry, f"{entry.unit} crosses {name} into {entry.path[1]} and moves on; "
                                                   "crossing a major waterway takes the whole movement allowance")]
    return []


def apply_move(state: OnslaughtState, entry: Move) -> OnslaughtState:
    """A division moves (6.1): control of the hexes entered (8.1), stopped in enemy ZOC (6.2)."""
    where = state.location.get(entry.unit)
    corrected = as_corrected(state, entry)
    if corrected is not state:
        state = replace(corrected, rewritten={u: h for u, h in state.rewritten.items() if u != entry.unit})
    elif where is not None and entry.path[0] != where and entry.unit not in state.rewritten:
        # Verify, don't correct: the log's move is applied; the hex it was really in is kept for a correction.
        state = replace(state, rewritten={**state.rewritten, entry.unit: where})
    state = record_sequence(state, "move", [entry.unit])
    state = replace(state, free_moves=state.free_moves - {entry.unit})
    enemy_zoc = zone_of_control(state, enemy_of(state, unit_of(state, entry.unit).side))
    stopped = state.stopped | ({entry.unit} if state.game.grid.hex_of(entry.path[-1]) in enemy_zoc else set())
    state = mark_control(state, entry.unit, entry.path[1:])
    return relocate(state, entry.unit, entry.path[-1], moved=state.moved | {entry.unit}, stopped=frozenset(stopped))
