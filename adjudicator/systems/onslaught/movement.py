"""Movement (6.1, 6.2's effect on it, 6.4 strategic movement, 6.5 major waterways, 8.6's one hex) of a division:
one model of a move, `MoveRule`, asked for by the checker and by the movement model (movement_model.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from functools import cached_property

from adjudicator.findings import Finding
from adjudicator.notation.entries import Move
from adjudicator.systems.onslaught.activation import sequence_recorded
from adjudicator.systems.onslaught.optional import in_force
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import (
    OnslaughtState, enemy_of, movement_allowance, occupants, on_map, relocate, replace, turn_and_step, unit_of,
    units_at,
)
from adjudicator.systems.onslaught.supply import carry_sources, control_changes
from adjudicator.systems.onslaught.tables import MapTables, hex_by_label, map_tables
from adjudicator.systems.onslaught.zoc import near_enemy, zone_of_control
from wargame.errors import WargameError
from wargame.hexes import Hex
from wargame.records import frozen


def as_corrected(state: OnslaughtState, entry: Move) -> OnslaughtState:
    """The state a move is judged in: when it rewrites a move written from the wrong hex (from the
    hex the unit was really in), the state before that move (one breach, one error)."""
    original = state.action_log.rewritten.get(entry.unit)
    if original is None or entry.path[0] != original or state.location.get(entry.unit) == original:
        return state
    return replace(state, location={**state.location, entry.unit: original},
                   action_log=replace(state.action_log, moved=state.action_log.moved - {entry.unit},
                                      stopped=state.action_log.stopped - {entry.unit}))


def _side(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The hexside between two hexes a move steps across, as the ordered pair a Hexside equals (its tuple):
    the hexes are adjacent by construction (checked first by `check_move`, neighbours in a walk), so no
    Hexside is built and checked for each of the thousands of steps a replay asks about."""
    return (a, b) if a < b else (b, a)


@frozen
class MoveRule:
    """A division's move in a state (6.1, 6.2, 6.4, 6.5, 8.6): the one model the checker, the VASSAL reader,
    the pictures and the generators ask for; `wargame.paths.reachable(start, rule.cost, rule.budget,
    stops=rule.stops)` walks it, and `check_move` judges a logged path with the same predicates."""

    state: OnslaughtState = field(repr=False, compare=False)
    unit_id: str
    side: str
    start: Hex
    strategic: bool
    allowance: int
    """6.1: the hexes the division may enter (its depleted face's when depleted), tripled by 6.4."""
    unsupplied: bool
    """8.6: its stack was out of supply when activated, so it moves one hex at most."""
    enemy_zoc: frozenset[Hex]
    """6.2: the hexes in the zone of control of the enemy's divisions."""

    @property
    def budget(self) -> float:
        """The hexes it may still enter in this move: its allowance, or one out of supply (8.6)."""
        return float(min(self.allowance, 1) if self.unsupplied else self.allowance)

    @cached_property
    def _tables(self) -> MapTables:
        return map_tables(self.state.game)

    @cached_property
    def _near(self) -> frozenset[Hex]:
        # 6.4: asked only of a strategic move.
        return frozenset(near_enemy(self.state, self.side))

    def enters(self, b: Hex) -> bool:
        """6.1: whether a division may enter the hex at all (a map hex, not prohibited terrain)."""
        return b in self._tables.passable

    def crosses(self, a: Hex, b: Hex) -> bool:
        """6.1: whether the hexside between two adjacent hexes may be crossed (not impassable)."""
        return _side(a, b) not in self._tables.impassable_sides

    def in_enemy_zoc(self, h: Hex) -> bool:
        """6.2: whether a hex is in an enemy division's zone of control."""
        return h in self.enemy_zoc

    def too_near(self, h: Hex) -> bool:
        """6.4: whether a strategic move may not enter (or start in) a hex, within two movement points of an
        enemy division."""
        return self.strategic and h in self._near

    def waterway(self, a: Hex, b: Hex) -> str | None:
        """6.5: the major waterway whose crossing from `a` into `b` takes the whole movement allowance, if it
        does: the Scheldt estuary always, the Rhine except for German divisions and for Allied ones entering a
        hex another Allied division (not of the crossing division's own stack) already holds."""
        tables = self._tables
        hexside = _side(a, b)
        if hexside not in tables.waterways:
            return None
        if hexside in tables.scheldt:
            return "the Scheldt estuary"
        if self.side == "German":
            return None
        action = self.state.action
        own_stack = action.latest if action is not None else frozenset()
        label = self.state.game.grid.label_of(b)
        if any(u != self.unit_id and u not in own_stack for u in units_at(self.state, label, self.side)):
            return None
        return "the Rhine"

    def enemy_held(self, h: Hex) -> bool:
        """Whether enemy divisions hold a hex (never a place to move to: it is in their zone of control, 6.2,
        and a hex holds one side's divisions, 6.3)."""
        return occupants(self.state).get(h, self.side) != self.side

    def cost(self, a: Hex, b: Hex) -> float | None:
        """Hexes of allowance to step from `a` into the adjacent `b` (1, or all of it across a major
        waterway), None when the division may not."""
        if not self.enters(b) or not self.crosses(a, b) or self.enemy_held(b) or self.too_near(b):
            return None
        if a == self.start and self.in_enemy_zoc(a) and self.in_enemy_zoc(b):
            return None  # 6.2: from an enemy ZOC not directly into another
        if self.waterway(a, b) is not None:
            # 6.5: the crossing takes the whole allowance, so it is the move's first and only hex.
            return self.budget if a == self.start else None
        return 1.0

    def stops(self, h: Hex) -> bool:
        """6.2: a division entering an enemy zone of control stops there."""
        return self.in_enemy_zoc(h)


def move_rule(state: OnslaughtState, unit_id: str, strategic: bool = False) -> MoveRule:
    """How a division may move now (6.1, 6.2, 6.4, 6.5, 8.6); WargameError if it is not on the map."""
    start = on_map(state, unit_id)
    if start is None:
        raise WargameError(f"{unit_id} is not on the map ({state.location.get(unit_id) or 'not in play'})")
    unit = unit_of(state, unit_id)
    allowance = movement_allowance(state, unit_id)
    if strategic:
        allowance *= int(state.game.parameter["strategic_movement_multiplier"])
    action = state.action
    # 8.6: out of supply at activation, in an action or in the German Reserve Step (5.0: like a Movement action).
    unsupplied = unit_id in action.unsupplied if action is not None else \
        state.at.step == "german_reserve" and unit_id in state.log.reserve_unsupplied
    return MoveRule(state, unit_id, unit.side, start, strategic, allowance, unsupplied,
                    zone_of_control(state, enemy_of(state, unit.side)))


UNACTIVATED = "moves without being activated in this action"
"""6.1's bar of a division not activated in the action under way."""


def move_bars(state: OnslaughtState, unit_id: str, strategic: bool) -> tuple[list[tuple[str, str]], bool]:
    """What bars a division from moving now, whatever its path (5.0-5.5, 6.1, 9.2, 10.2, 14.3): (section,
    message) in the order judged, and whether the first ends the judging of the move."""
    unit = unit_of(state, unit_id)
    game = state.game
    where = state.location.get(unit_id)
    if where is None or not game.grid.is_label(where):
        return [("6.1", f"{unit_id} is not on the map ({where or 'not in play'})")], True
    if unit_id in state.action_log.dropped:
        return [("9.2", f"{unit_id} made a paradrop in this action and moves no further in it")], True
    reserve = state.at.step == "german_reserve" and unit.side == "German"
    action = state.action
    out: list[tuple[str, str]] = []
    if state.at.step == "reinforcement" and action is None:
        if unit_id not in state.log.free_moves and unit.side == "Allied" and unit_id in state.log.placed_now:
            # 10.3: "Allied reinforcements do not get a free move after placement".
            return [("10.3", f"{unit_id} moves after its placement as a reinforcement; unlike German ones, "
                             "Allied reinforcements get no free move")], True
        if unit_id not in state.log.free_moves:
            # 10.2: the one move of the Reinforcement Step, free, for German arrivals from A or B.
            return [("10.2", f"{unit_id} moves in the Reinforcement Step; only German reinforcements placed in "
                             "area A or B this step move then, once")], True
    elif not reserve:
        if action is None:
            return [("5.2", f"{turn_and_step(state)}: {unit_id} moves without an action")], True
        if unit_id not in action.activated:
            # 6.1: "A division must be activated in order to move."
            out.append(("6.1", f"{unit_id} {UNACTIVATED}"))
        elif action.type in ("movement", "breakthrough") and unit_id not in action.latest:
            section = "5.3" if action.type == "movement" else "5.5"
            out.append((section, f"{unit_id} moves after another stack was activated; only one stack is "
                                 "activated at a time"))
        if action.type == "breakthrough" and unit.type != "armor" and unit_id in action.activated and \
                in_force(state).joins_breakthrough(state, unit.type):
            # 14.3: infantry activated with its armor attacks beside it but does not move. Without 14.3 its activation
            # was already 5.5's error (only armor takes part), and its move is part of that breach.
            out.append(("14.3", f"{unit_id} is not armor; infantry joins a breakthrough attack but does not move"))
        if action.type == "combat":
            out.append(("5.4", f"{unit_id} moves during a Combat action, where divisions move only to retreat or "
                               "advance after combat"))
    else:
        if not strategic:
            out.append(("5.0", "in the German Reserve Step divisions move strategically only"))
        # The step may be written as German movement actions (5.0 likens it to one): their stacks count too.
        stacks = state.log.reserve_stacks if action is None else (action.activated, action.latest)
        if not any(unit_id in stack for stack in stacks):
            # 6.1 and ruling 5.2: a division moves once its stack is activated, for a supply point, here too.
            out.append(("6.1", f"{unit_id} moves without being activated in this German Reserve Step (each stack "
                               "moved is activated for a supply point)"))
        elif unit_id not in stacks[-1]:
            # 5.0 makes the step "similar to a Movement action": 5.3's one stack at a time.
            out.append(("5.3", f"{unit_id} moves after another stack was activated; only one stack is "
                               "activated at a time"))
    # Ruling 6.1: a division's move in one action is one path, so the allowance is counted over the whole of it; a
    # division activated again (5.2's error, on the activation) that moves again is that one breach, not a second.
    if unit_id in state.action_log.moved and unit_id not in state.action_log.reactivated:
        within = "this German Reserve Step" if reserve else "this action"
        out.append(("6.1", f"{unit_id} has already moved in {within}; a division's move of one action is written "
                           "as one path (its allowance is counted over the whole move)"))
    return out, False


def check_move(state: OnslaughtState, entry: Move) -> list[Finding]:
    state = as_corrected(state, entry)
    bars, final = move_bars(state, entry.unit, entry.strategic)
    if bars and bars[0][0] == "5.2" and state.at.step == "german_reserve" and \
            any(entry.unit in stack for stack in state.log.reserve_stacks):
        # One breach, one error: an Allied stack activated in the German Reserve Step (5.2's error, on the
        # activation) that moves is that breach again.
        return [finding("note", "5.2", entry, f"{bars[0][1]} (its activation in this step is reported: one error)")]
    where = state.location.get(entry.unit)
    # One stack, one breach: a division of a stack another moved or attacked from unactivated is a note of that error.
    known = where in state.action_log.unactivated_from
    out = [finding("note", section, entry, f"{message} (so did its stack's: that error)")
           if known and message.endswith(UNACTIVATED) else finding("error", section, entry, message)
           for section, message in bars]
    if final:
        return out
    game = state.game
    if entry.path[0] != where:
        out.append(finding("error", "6.1", entry, f"{entry.unit} is in {where}, not {entry.path[0]}"))
        return out
    on_map_hexes = hex_by_label(game)
    off = [label for label in entry.path if label not in on_map_hexes]
    if off:
        # No Onslaught rule lets a division leave the map (6.1 moves it from hex to hex of the map).
        return out + [finding("error", "6.1", entry, f"{entry.unit} leaves the map at {off[0]}: no rule allows a "
                                                     "division to move off the map")]
    rule = move_rule(state, entry.unit, entry.strategic)
    hexes = [on_map_hexes[label] for label in entry.path]
    links = map_tables(game).links
    # 6.1: a step along the map's links is adjacent, enterable and across a passable hexside, so the
    # step by step checks below find nothing on a path made of such steps alone (most paths).
    steps: Iterable[tuple[tuple[str, Hex], tuple[str, Hex]]] = zip(zip(entry.path, hexes),
                                                                   zip(entry.path[1:], hexes[1:]))
    if all(b in links.get(a, ()) for a, b in zip(hexes, hexes[1:])):
        steps = ()
    for k, ((la, a), (lb, b)) in enumerate(steps, start=1):
        if b in links.get(a, ()):
            continue  # a step along the links: none below fails
        if not a.is_adjacent(b):
            hint = game.grid.step_hint(la, lb, entry.path[k + 1] if k + 1 < len(entry.path) else None)
            out.append(finding("error", "6.1", entry, f"{entry.unit} skips from {la} to {lb}{hint}; a division "
                                                      "moves from hex to adjacent hex"))
            return out
        if not rule.enters(b):
            out.append(finding("error", "6.1", entry, f"{entry.unit} enters {lb}, which no division may enter"))
        if not rule.crosses(a, b):
            out.append(finding("error", "6.1", entry, f"{entry.unit} crosses the impassable hexside {la}-{lb}"))
    out += check_waterways(entry, hexes, rule)
    entered = len(hexes) - 1
    held = next((i for i, h in enumerate(hexes[1:], start=1) if rule.enemy_held(h)), None)
    if held is not None:
        # Ruling 6.1: no rule lets a move enter a hex enemy divisions hold (7.4's advance into an emptied hex is
        # the only way in); that hex is also in their zone of control, but 6.2 is not the clause broken, so the
        # checks of zones and distances below judge the path only as far as the hex before it (one breach).
        out.append(finding("error", "6.1", entry, f"{entry.unit} enters {entry.path[held]}, which enemy divisions "
                                                  "hold; a division enters an enemy-held hex only by advancing "
                                                  "after combat once it is empty (7.4)"))
        hexes, path = hexes[:held], entry.path[:held]
    else:
        path = entry.path
    if rule.unsupplied and entered > 1:
        out.append(finding("error", "8.6", entry, f"{entry.unit}'s stack was out of supply when activated and "
                                                  f"may move one hex, not {entered}"))
    if entry.strategic:
        for label, h in zip(path, hexes):
            if rule.too_near(h):
                # 6.4: "at least three movement points away": two or less is too near.
                least = int(game.parameter["strategic_movement_min_distance_mp"])
                out.append(finding("error", "6.4", entry, f"{entry.unit} moves strategically {least - 1} movement "
                                                          f"points or less from an enemy division at {label} "
                                                          f"({least} or more needed)"))
                break
    if entered > rule.allowance:
        section = "6.4" if entry.strategic else "6.1"
        out.append(finding("error", section, entry, f"{entry.unit} enters {entered} hexes with a movement "
                                                    f"allowance of {rule.allowance}"))
    if entry.unit in state.action_log.stopped and entry.unit not in state.action_log.reactivated:
        # A division activated again (5.2's one error) that moves again breaks no second rule by it.
        out.append(finding("error", "6.2", entry, f"{entry.unit} entered an enemy zone of control earlier in this "
                                                  "action and can move no further"))
    zoc = rule.enemy_zoc
    if zoc.isdisjoint(hexes):
        return out  # 6.2: no hex of the path in an enemy zone of control, nothing below to find
    for i in range(1, len(hexes)):
        previous, current = hexes[i - 1], hexes[i]
        if rule.in_enemy_zoc(previous) and rule.in_enemy_zoc(current):
            if i == 1:
                message = (f"{entry.unit} starts in an enemy zone of control at {path[0]} and moves directly "
                           f"into another at {path[1]}")
            else:
                message = (f"{entry.unit} entered an enemy zone of control at {path[i - 1]} and moved on to "
                           f"{path[i]}")
            out.append(finding("error", "6.2", entry, message))
            break
        if rule.stops(current) and i < len(hexes) - 1:
            out.append(finding("error", "6.2", entry, f"{entry.unit} entered an enemy zone of control at "
                                                      f"{path[i]} and moved on to {path[i + 1]}"))
            break
    return out


def check_waterways(entry: Move, hexes: Sequence[Hex], rule: MoveRule) -> list[Finding]:
    """6.5: crossing a major waterway takes the whole movement allowance (first hex entered,
    then stop), except where `MoveRule.waterway` says it does not."""
    waterways = map_tables(rule.state.game).waterways
    for i, (a, b) in enumerate(zip(hexes, hexes[1:]), start=1):
        if _side(a, b) not in waterways:
            continue  # no major waterway: `rule.waterway` would say None
        name = rule.waterway(a, b)
        if name is None:
            continue
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
    # The changes are gathered and the state copied once (relocate), not once per change: a replay
    # applies a move for every other entry.
    where = state.location.get(entry.unit)
    corrected = as_corrected(state, entry)
    changes: dict[str, object] = {}
    rewritten = state.action_log.rewritten
    if corrected is not state:
        rewritten = {u: h for u, h in rewritten.items() if u != entry.unit}
        state = corrected
    elif where is not None and entry.path[0] != where and entry.unit not in rewritten:
        # Verify, don't correct: the log's move is applied; the hex it was really in is kept for a correction.
        rewritten = {**rewritten, entry.unit: where}
    action = sequence_recorded(state, "move", [entry.unit])
    if action is not None:
        changes["action"] = action
    if entry.unit in state.log.free_moves:
        changes["log"] = replace(state.log, free_moves=state.log.free_moves - {entry.unit})
    enemy_zoc = zone_of_control(state, enemy_of(state, unit_of(state, entry.unit).side))
    done = state.action_log
    unactivated = entry.unit not in state.action.activated if state.action is not None else \
        state.at.step == "german_reserve" and not any(entry.unit in stack for stack in state.log.reserve_stacks)
    if unactivated and where is not None:
        done = replace(done, unactivated_from=done.unactivated_from | {where})
    stopped = done.stopped | ({entry.unit} if state.game.grid.hex_of(entry.path[-1]) in enemy_zoc else set())
    changes.update(control_changes(state, entry.unit, entry.path[1:]))
    after = relocate(state, entry.unit, entry.path[-1], **changes,
                     action_log=replace(done, moved=done.moved | {entry.unit}, stopped=frozenset(stopped),
                                        rewritten=rewritten))
    # The places whose occupant or control the move changes: the hex left and the hexes entered.
    carry_sources(state, after, [*entry.path, state.location.get(entry.unit, "")])
    return after
