"""Activation (5.2-5.5): which stacks act, what they cost, and a breakthrough stack's one sequence."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from adjudicator.findings import Finding, one_error
from adjudicator.notation.entries import Activate, Attack, Entry, Move
from adjudicator.systems.onslaught.optional import in_force
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import (
    UNDECLARED, ActionState, OnslaughtState, replace, turn_and_step, unit_of, units_at,
)
from adjudicator.systems.onslaught.supply import is_supplied


RESERVE_AS_ACTION = " (5.0 makes the German Reserve Step similar to a Movement action: ruling 5.2)"


def check_activate(state: OnslaughtState, entry: Activate) -> list[Finding]:
    side = entry.side or ""
    reserve = state.action is None and state.at.step == "german_reserve" and side == "German"
    if state.action is None and not reserve:
        return [finding("error", "5.2", entry, f"{turn_and_step(state)}: a stack is activated only within an action")]
    # 5.0: the German Reserve Step "is similar to a Movement action": its activations are judged as one's.
    action = state.action or reserve_action(state, entry)
    within = "this German Reserve Step" if reserve else "this action"
    out = []
    if side != action.side:
        out.append(finding("error", "5.2", entry, f"{side} activates a stack during a {action.side} action"))
    present = units_at(state, entry.hex, side)
    named = activated_units(state, action.type, entry)
    if not present and entry.hex not in state.action_log.unactivated_from:
        # (A stack that moved or attacked before its activation was written: that move's error is the one.)
        out.append(finding("error", "5.2", entry, f"hex {entry.hex} holds no {side} division to activate"))
    absent = [u for u in named if u not in present]
    if absent:
        out.append(finding("error", "5.2", entry, f"{', '.join(absent)} {'is' if len(absent) == 1 else 'are'} not "
                                                  f"in hex {entry.hex}"))
    again = [u for u in named if u in action.activated]
    if again:
        # One activation, one breach: the stack's divisions activated before are named together.
        said = finding("error", "5.2", entry, f"{', '.join(again)} {'was' if len(again) == 1 else 'were'} "
                                              f"already activated in {within}; a division is activated "
                                              f"once per action{RESERVE_AS_ACTION if reserve else ''}")
        if reactivates(action.activated, named):
            # Only divisions activated before: that is the one breach; that they have moved on since (no longer in
            # the hex) follows from it. It activates nothing and spends nothing (apply_activate): no cost judged.
            return one_error([said, *out], "the same divisions activated again: one error")
        out.append(said)
    cost = activation_cost(state, action, named)
    if action.type == "breakthrough":
        out += check_breakthrough_stack(state, entry, [u for u in named if u in present])
    if activates_nothing(state, entry):
        return out  # 5.2: it activates nothing and spends nothing (apply_activate), so its cost is not judged
    if state.supply.get(side, 0) < cost:
        out.append(short_of_supply(state, side, entry, "the activation", cost))
    if entry.supply is not None and entry.supply != cost:
        # The clause that sets the cost: 5.5's two points, 14.1's doubled mixed stack, else 5.2's one.
        basic = activation_cost(state, replace(action, type="movement"), ())
        section = "5.5" if action.type == "breakthrough" else "14.1" if cost != basic else "5.2"
        kind = "the German Reserve Step" if reserve else f"a {action.type} action"
        out.append(finding("error", section, entry, f"activating a stack in {kind} costs {cost} supply point(s), "
                                                  f"not {entry.supply}"))
    return out


def reactivates(activated: frozenset[str], units: Iterable[str]) -> bool:
    """Whether an activation names only divisions already activated in the action or German Reserve Step (5.2's
    one error): it activates nothing, so it spends no supply point."""
    named = frozenset(units)
    return bool(named) and named <= activated


def activates_nothing(state: OnslaughtState, entry: Activate) -> bool:
    """Whether an activation is of a hex holding none of the side's divisions (5.2's one error: its stack activated
    and moved away already, say), so spends no supply point; not one written after its stack moved or attacked
    (that move's error, and its point)."""
    return not units_at(state, entry.hex, entry.side or "") and entry.hex not in state.action_log.unactivated_from


def leaves_combat_open(state: OnslaughtState, entry: Entry) -> bool:
    """Whether an entry activates a stack that has already moved or attacked in the action, written after that move
    or attack (its one error), or only divisions already activated in it (5.2's one error, activating nothing): it
    goes on with the combat under way rather than ending it."""
    if not isinstance(entry, Activate) or state.action is None:
        return False
    return entry.hex in state.action_log.unactivated_from or \
        reactivates(state.action.activated, activated_units(state, state.action.type, entry))


def activated_units(state: OnslaughtState, action_type: str, entry: Activate) -> list[str]:
    """The divisions an activation activates: those it names, else every division of the side in the hex (8.2) but,
    in a Breakthrough action, only its armor when it has any (5.5; 5.6 activates armor stacked with infantry, "the
    infantry is not activated"), with the divisions 14.3 lets join it (ruling 5.5: the armor need not be named)."""
    present = units_at(state, entry.hex, entry.side or "")
    if entry.units or action_type != "breakthrough":
        return list(entry.units or present)
    hooks = in_force(state)
    armor = [u for u in present if unit_of(state, u).type == "armor"]
    if not armor:
        return present  # nothing to infer: 5.5 refuses the hex's divisions as named
    return [u for u in present if u in armor or hooks.joins_breakthrough(state, unit_of(state, u).type)]


def reserve_action(state: OnslaughtState, entry: Entry) -> ActionState:
    """The German Reserve Step as the Movement action 5.0 likens it to: its stacks activated so far."""
    activated = frozenset().union(*state.log.reserve_stacks)
    return ActionState("German", "movement", None, entry.line, entry.column, activated=activated,
                       latest=state.log.reserve_stacks[-1] if state.log.reserve_stacks else frozenset(),
                       unsupplied=state.log.reserve_unsupplied)


def short_of_supply(state: OnslaughtState, side: str, entry: Entry, what: str, cost: int,
                    section: str = "5.2") -> Finding:
    """An activation or paradrop the side has not the points for: 5.2 (9.2 for a paradrop), whose points are those on
    the track; 14.4 on emergency points (only those granted are spent). Points 8.2's cap took are named, as the
    likely reason, but they were never on the track, so the spending clause is the one broken."""
    points = state.supply.get(side, 0)
    if state.emergency == side:
        granted = int(state.game.parameter[f"emergency_supply_{side.lower()}"])
        return finding("error", "14.4", entry, f"{side} acts on {granted} emergency supply point(s), {points} left, "
                                               f"and {what} costs {cost}")
    lost = state.capped_away.get(side, 0)
    why = ""
    # The points the cap took pay, in the message, for the shortfalls since the gain until they are used up.
    if lost and points + lost - state.unpaid.get(side, 0) >= cost:
        limit = int(state.game.parameter[f"{side.lower()}_supply_max"])
        why = f" (the {lost} point(s) above the limit of {limit} were lost when gained, 8.2, and never on the track)"
    return finding("error", section, entry, f"{side} has {points} supply point(s) and {what} costs {cost}{why}")


def check_breakthrough_sequence(state: OnslaughtState, entry: Entry, kind: str, units: Sequence[str]) -> list[Finding]:
    """5.5: a breakthrough stack moves then attacks, or attacks then moves, never back again."""
    action = state.action
    if action is None or action.type != "breakthrough" or not set(units) & action.latest:
        return []
    if action.switched and kind == action.sequence:
        other = "attacking" if kind == "move" else "moving"
        verb = "moves" if kind == "move" else "attacks"
        return [finding("error", "5.5", entry, f"the stack {verb} after {other}; this breakthrough stack "
                                               f"{'moves then attacks' if kind == 'move' else 'attacks then moves'}"
                                               ", in one sequence")]
    return []


def record_sequence(state: OnslaughtState, kind: str, units: Sequence[str]) -> OnslaughtState:
    """Record a breakthrough stack's move or attack in its sequence (5.5)."""
    action = sequence_recorded(state, kind, units)
    return state if action is None else replace(state, action=action)


def sequence_recorded(state: OnslaughtState, kind: str, units: Sequence[str]) -> ActionState | None:
    """The action with a breakthrough stack's move or attack recorded in its sequence (5.5); None when
    it does not change."""
    action = state.action
    if action is None or action.type != "breakthrough" or not set(units) & action.latest:
        return None
    if action.sequence is None:
        return replace(action, sequence=kind)
    if kind != action.sequence and not action.switched:
        return replace(action, switched=True)
    return None


def activation_cost(state: OnslaughtState, action: ActionState, units: Iterable[str] = ()) -> int:
    """Supply points to activate a stack (5.2, 5.5); with 14.1, two for a stack that mixes
    American or French divisions with Commonwealth ones."""
    params = state.game.parameter
    if action.type == "breakthrough":
        return int(params["breakthrough_activation_cost"])
    return in_force(state).stack_cost(state, int(params["activation_cost"]), units)


def check_breakthrough_stack(state: OnslaughtState, entry: Activate, units: list[str]) -> list[Finding]:
    """5.5: armor only; 14.3: infantry with the armor it is stacked with; 14.1: Commonwealth and
    American or French armor activated separately."""
    out = []
    armor = [u for u in units if unit_of(state, u).type == "armor"]
    joining: list[str] = []
    barred: list[str] = []
    hooks = in_force(state)
    for unit_id in units:
        kind = unit_of(state, unit_id).type
        if kind == "armor":
            continue
        if hooks.joins_breakthrough(state, kind):
            if not armor:
                joining.append(unit_id)
            continue
        barred.append(unit_id)
    # One activation, one breach per clause: the stack's divisions are named together.
    if joining:
        out.append(finding("error", "14.3", entry, f"{', '.join(joining)} join(s) a Breakthrough action only with "
                                                   "armor of its stack activated with it"))
    if barred:
        out.append(finding("error", "5.5", entry, f"{', '.join(barred)} {'is' if len(barred) == 1 else 'are'} not "
                                                  "armor; only armor divisions take part in a Breakthrough action"))
    return out + hooks.breakthrough_armor(state, entry, armor)


def check_move_order(state: OnslaughtState, entry: Move) -> list[Finding]:
    """5.5: a breakthrough stack's move in its one sequence."""
    return check_breakthrough_sequence(state, entry, "move", [entry.unit])


def check_attack_order(state: OnslaughtState, entry: Attack) -> list[Finding]:
    """5.5: a breakthrough stack's attack in its one sequence."""
    return check_breakthrough_sequence(state, entry, "attack", entry.attackers)


def pay(state: OnslaughtState, side: str, cost: int) -> OnslaughtState:
    """The state once a side pays `cost` (5.2, 9.2): a track never goes below nothing; points a side has not got are
    not spent (the shortfall is the activation's one error), so a later shortfall is said of nothing left; the
    shortfalls are kept, as they use up the points 8.2's cap took that a shortfall's message names."""
    points = state.supply.get(side, 0)
    short = max(0, cost - points)
    unpaid = {**state.unpaid, side: state.unpaid.get(side, 0) + short} if short else state.unpaid
    return replace(state, supply={**state.supply, side: max(0, points - cost)}, unpaid=unpaid)


def apply_activate(state: OnslaughtState, entry: Activate) -> OnslaughtState:
    """A stack activated (5.2): its cost paid; out of supply now, out of supply for the action (8.6)."""
    side = entry.side or ""
    # 5.2: a division activated again; the error is the activation's, and the move it makes next is part of it.
    before = state.action.activated if state.action is not None else frozenset().union(*state.log.reserve_stacks)
    again = before & frozenset(activated_units(state, state.action.type if state.action else "movement", entry))
    if again:
        state = replace(state, action_log=replace(state.action_log,
                                                  reactivated=state.action_log.reactivated | again))
    if state.action is None and state.at.step == "action":
        # 5.0: an activation in the Action Step outside an action is its one error (the action's declaration left
        # out): it opens the action, of a type not declared, for the activations, moves and attacks that follow.
        state = replace(state, action=ActionState(side, UNDECLARED, None, entry.line, entry.column),
                        log=replace(state.log, entitled=None, passes=(), begun=True, undecided=False,
                                    played_on=state.log.played_on or state.log.step_over))
    if state.action is None:
        # German Reserve Step: each stack moved costs a supply point (4.0, 5.2); out of supply now, it moves one
        # hex (8.6), as in the Movement action 5.0 likens the step to.
        stack = frozenset(activated_units(state, "movement", entry))
        # A stack activated again in the step (5.2's one error) activates nothing new and spends nothing, as in an
        # action below.
        cost = 0 if reactivates(before, stack) or activates_nothing(state, entry) else \
            activation_cost(state, reserve_action(state, entry), ())
        unsupplied = frozenset(u for u in stack if u in state.location and not is_supplied(state, u))
        return replace(pay(state, side, cost),
                       log=replace(state.log, reserve_stacks=state.log.reserve_stacks + (stack,),
                                   reserve_unsupplied=state.log.reserve_unsupplied | unsupplied))
    units = frozenset(activated_units(state, state.action.type, entry))
    cost = activation_cost(state, state.action, units)
    # 8.6: a stack out of supply when activated stays so for the whole action.
    unsupplied = frozenset(u for u in units if u in state.location and not is_supplied(state, u))
    declared = {"move-first": "move", "attack-first": "attack"}.get(entry.order or "")
    # A stack activated again in the action (5.2's one error) activates nothing new: it costs nothing, so neither the
    # action's claim nor a later activation short of points is judged on it.
    cost = 0 if reactivates(state.action.activated, units) or activates_nothing(state, entry) else cost
    action = replace(state.action, paid=state.action.paid + cost, activated=state.action.activated | units,
                     latest=units, unsupplied=state.action.unsupplied | unsupplied, sequence=declared,
                     switched=False, group=state.action.group | units, group_stacks=state.action.group_stacks + 1)
    return replace(pay(state, side, cost), action=action)
