"""The turn sequence (4.0), the Action Step (5.0) and action types (5.1): what opens and closes actions and steps."""

from __future__ import annotations

from typing import Literal

from adjudicator.contract import next_turn
from adjudicator.findings import Finding
from adjudicator.notation.entries import Action, Activate, Entry, Pass, RollOff, StepMarker, TurnMarker
from adjudicator.systems.onslaught.arrivals import PARATROOP_BOX, TURN_TRACK, replacement_points, unplaced
from adjudicator.systems.onslaught.optional import in_force
from adjudicator.systems.onslaught.sections import TABLE, finding
from adjudicator.systems.onslaught.setup import check_grouping
from adjudicator.systems.onslaught.stacking import overstacked
from adjudicator.systems.onslaught.state import (
    NO_ACTS, UNDECLARED, ActionState, OnslaughtState, replace, turn_and_step,
)
from wargame.errors import did_you_mean


ACTION_TYPES = ("movement", "combat", "breakthrough")
"""5.1: the three types of action."""


def closing_findings(state: OnslaughtState, entry: Entry) -> list[Finding]:
    """Findings due when an entry ends the action or step under way (5.2 supply claim, 6.3 stacking).

    Ruling (6.3): a player may end an action overstacked if he logs the removals before the
    next roll-off, action or step; a hex still over the limit then is a breach.
    """
    out: list[Finding] = []
    if not state.action_log.stacks_checked:
        limit = state.game.parameter.get("stacking_limit", 3)
        for where, side, excess in overstacked(state):
            if (where, side) in state.overstacks:
                continue  # one breach, one error: reported where it arose, until resolved
            out.append(finding("error", "6.3", entry, f"{turn_and_step(state)}: {side} ends the action or step with "
                                                       f"{excess} division(s) over the limit of {limit} in hex "
                                                       f"{where} and removed none"))
    action = state.action
    if action is not None and action.claimed is not None and action.claimed != action.paid and \
            not declared_again(state, entry):
        # One breach, one error: divisions that moved or attacked without being activated (5.4, 6.1: that error) are
        # most likely an activation left out, which the claim counted; the claim falling short is that breach.
        unactivated = sorted((state.action_log.unactivated | state.action_log.moved) - action.activated)
        follows = action.claimed > action.paid and unactivated
        why = f" ({', '.join(unactivated)} acted without being activated: that error)" if follows else ""
        out.append(TABLE.finding("note" if follows else "error", "5.2", action.line, action.column,
                                 f"the {action.side} {action.type} action claims {action.claimed} supply "
                                 f"point(s) but its activations cost {action.paid}{why}"))
    return out


def close_action(state: OnslaughtState) -> OnslaughtState:
    """End the action under way; stacking has been checked as of now (6.3); emergency supply
    points not spent are lost (14.4)."""
    if state.emergency is not None:
        state = replace(state, supply={**state.supply, state.emergency: 0}, emergency=None)
    if not state.action_log.stacks_checked:
        # 6.3: every overstack now has been reported (here or earlier); one resolved drops out.
        state = replace(state, overstacks=frozenset((where, side) for where, side, _ in overstacked(state)))
    # What happened in the action is forgotten as a whole (house style 19: one record, replaced at its end).
    return replace(state, action=None, action_log=NO_ACTS)


def check_turn(state: OnslaughtState, entry: TurnMarker) -> list[Finding]:
    out = check_grouping(state, entry) if state.at.turn == 0 and state.regrouped else []
    expected = next_turn(state.game, state.scenario, state.at.turn)
    scenario = next(s for s in state.game.manifest.scenario if s.id == state.scenario)
    if entry.turn > scenario.last_turn:
        # One breach, one error: a turn past the last is not also a turn out of order.
        out.append(finding("error", "4.0", entry, f"the game lasts {scenario.last_turn} turns"))
    elif entry.turn != expected:
        before = f"turn {state.at.turn}" if state.at.turn else "the set-up"
        out.append(finding("error", "4.0", entry, f"turn {entry.turn} follows {before}; turns run in order (turn "
                                                  f"{expected} comes next)"))
    if entry.turn == state.at.turn and state.at.step is None:
        return out  # the marker written twice: its one error is the order of turns, nothing of the turn has passed
    if state.at.turn and state.at.step != "reinforcement":
        out.append(finding("error", "4.0", entry, f"turn {state.at.turn} ends without its Reinforcement Step"))
    elif state.at.turn:
        out += [finding("error", section, entry, message) for _, section, message in unplaced(state)]
    return out


def check_roll(state: OnslaughtState, entry: RollOff) -> list[Finding]:
    """5.0: both players roll one die (that roll-offs belong to the Action Step is the engine's check,
    from the `entries` of game.toml's `[[sequence]]`)."""
    out = []
    sides = set(state.game.manifest.sides)
    if set(entry.rolls) != sides:
        out.append(finding("error", "5.0", entry, f"both players roll one die: {', '.join(sorted(sides))}"))
    if any(not 1 <= r <= 6 for r in entry.rolls.values()):
        out.append(finding("error", "5.0", entry, "a die roll is 1 to 6"))
    owed = state.log.entitled
    if state.log.step_over:
        out.append(finding(played_on(state), "5.0", entry, f"{turn_and_step(state)}: the Action Step has already "
                                                          f"ended{PLAYED_ON if state.log.played_on else ''}"))
    elif both_out(state):
        out.append(finding("error", "5.0", entry, f"{turn_and_step(state)}: both players are out of supply points, "
                                                  "so the Action Step has ended"))
    elif owed is not None and _can_act(state, owed):
        # 5.0: the players roll after each action; the winner's action (or pass) comes first. Only a winner who
        # cannot act is rolled past (4.1: no supply points, "the dice are rolled again").
        which = "the next" if state.log.begun else "the first"
        out.append(finding("error", "5.0", entry, f"{turn_and_step(state)}: {owed} takes {which} action, or passes, "
                                                  "before the players roll again"))
    return out


PLAYED_ON = " (play went on after the step's end, reported at its first entry: one error)"


def played_on(state: OnslaughtState) -> Literal["error", "note"]:
    """5.0: play going on after the Action Step ended is one breach: its first entry the error, the rest notes."""
    return "note" if state.log.played_on else "error"


def _can_act(state: OnslaughtState, side: str) -> bool:
    """Whether a side entitled to an action can take one: it has supply points (5.2), or 14.4's emergency
    points await it, or it holds the Bulge's extra action (12.0), which only its action or pass settles."""
    return state.supply.get(side, 0) > 0 or in_force(state).emergency_turn(state) or state.log.bulge_tie == "open"


def check_step(state: OnslaughtState, entry: StepMarker) -> list[Finding]:
    """5.0: the Action Step ends only on a tied roll, two passes in a row, or both players out of supply points."""
    if state.at.step != "action" or entry.step == "action" or state.log.step_over or both_out(state):
        return []
    if state.log.bulge_tie == "open":
        return []  # 12.0: after the first tie the German "can elect" to act; moving on without acting declines it
    owed = state.log.entitled
    if not state.log.begun:
        why = f"{owed or 'the Allied player'} has not taken the first action or passed"
    elif owed is not None:
        why = f"{owed} won the last roll and has not acted or passed"
    else:
        why = "no roll was tied and the players did not both pass in a row"
    return [finding("error", "5.0", entry, f"{turn_and_step(state)}: the Action Step has not ended ({why}; it ends "
                                           "on a tied roll, two passes in a row, or both players out of supply "
                                           "points)")]


def both_out(state: OnslaughtState) -> bool:
    """5.0: the Action Step also ends when both players are out of supply points, except on the
    turn of 14.4's emergency supplies, when the winner of a roll gets points to act with."""
    if in_force(state).emergency_turn(state):
        return False
    return state.at.step == "action" and all(points <= 0 for points in state.supply.values())


def step_of(state: OnslaughtState, entry: Entry) -> str | None:
    """The step a German activation, or German movement action, belongs to when it comes after the Action Step has
    ended and outside an action: the German Reserve Step's (5.0). The Action Step allows both too (within an action,
    or before the step ends), so the sequence's data alone cannot tell; None for every other entry."""
    if state.at.step != "action" or state.action is not None or entry.side != "German":
        return None
    if not (state.log.step_over or both_out(state)):
        return None
    if isinstance(entry, Activate) or (isinstance(entry, Action) and entry.action == "movement"):
        return "german_reserve"
    return None


def declared_late(state: OnslaughtState, entry: Entry) -> bool:
    """Whether an entry declares the action its side's activation opened undeclared (that activation's one error)."""
    action = state.action
    return isinstance(entry, Action) and action is not None and action.type == UNDECLARED and entry.side == action.side


def declared_again(state: OnslaughtState, entry: Entry) -> bool:
    """Whether an entry declares again the action under way, nothing activated in it yet (one slip, one error)."""
    action = state.action
    return isinstance(entry, Action) and action is not None and not action.activated and \
        (entry.side, entry.action, entry.supply) == (action.side, action.type, action.claimed)


def declared_before_step(state: OnslaughtState, entry: Entry) -> bool:
    """Whether a marker opens the Action Step for the action declared before it (before the turn's first step: that
    declaration's one error, 5.0), which goes on in the step rather than ending there."""
    marker = entry.as_step_marker()
    return marker is not None and marker.step == "action" and state.action is not None and state.action.stepless


def rolled_for(state: OnslaughtState, entry: Entry) -> bool:
    """Whether a roll-off is the roll for the action declared before it (5.0: that declaration's one error), nothing
    activated yet and its side the winner: the action goes on rather than ending empty."""
    action = state.action
    if not isinstance(entry, RollOff) or action is None or not action.unrolled or action.activated:
        return False
    best = max(entry.rolls.values(), default=0)
    return [side for side, roll in entry.rolls.items() if roll == best] == [action.side]


def check_action(state: OnslaughtState, entry: Action | Pass) -> list[Finding]:
    """5.0: who takes the next action, and the action types (5.1). The engine has already checked, from
    game.toml's `[[sequence]]`, that actions and passes come in the Action Step and only German actions
    in the German Reserve Step."""
    out = []
    side = entry.side or ""
    if state.at.step == "german_reserve":
        if isinstance(entry, Action) and entry.action != "movement":
            out.append(finding("error", "5.0", entry, f"{turn_and_step(state)}: only German movement (strategic) "
                                                      "takes place in the German Reserve Step"))
        return out
    if declared_late(state, entry):
        pass  # the action its activation opened: the activation was the one error (5.2)
    elif declared_again(state, entry) and state.action is not None:
        out.append(finding("error", "5.0", entry, f"{turn_and_step(state)}: the {side} {state.action.type} action is "
                                                  "declared again, nothing activated in it yet; one action at a "
                                                  "time, the players rolling after each"))
    elif state.log.step_over or (both_out(state) and state.action is not None):
        out.append(finding(played_on(state), "5.0", entry, f"{turn_and_step(state)}: the Action Step has ended "
                                                          "(tied roll, two passes, or both players out of supply)"
                                                          f"{PLAYED_ON if state.log.played_on else ''}"))
    elif state.log.entitled is not None and side != state.log.entitled:
        out.append(finding("error", "5.0", entry, f"{turn_and_step(state)}: {state.log.entitled} takes this action, "
                                                  f"not {side}"))
    elif state.log.entitled is None and not state.log.undecided and \
            not (isinstance(entry, Pass) and state.log.passes != () and state.log.passes[-1] != side):
        # 5.0: after every action, and a pass (5.1: taking no action), the players roll for the next one; the
        # other player may answer a pass with his own at once, and both players have passed (ruling 5.0).
        out.append(finding("error", "5.0", entry, f"{turn_and_step(state)}: the players roll for the next action "
                                                  "before it is taken or passed"))
    if isinstance(entry, Action) and entry.action not in ACTION_TYPES:
        out.append(finding("error", "5.1", entry, f"{entry.action!r} is not an action"
                                                  f"{did_you_mean(entry.action, ACTION_TYPES)}: an action is a "
                                                  "movement, combat or breakthrough action"))
    return out


def apply_turn(state: OnslaughtState, entry: TurnMarker) -> OnslaughtState:
    """A new turn (4.0; the engine has put it in): paratroop divisions waiting on this turn's space go to the
    Paratroop box (9.1)."""
    waiting = f"{TURN_TRACK}@{entry.turn}"
    if waiting not in state.location.values():
        return state
    return replace(state, location={u: PARATROOP_BOX if where == waiting else where
                                    for u, where in state.location.items()})


def apply_step(state: OnslaughtState, entry: StepMarker) -> OnslaughtState:
    """A new step (4.0; the engine has put it in, its record fresh): the Allied player takes the first action, the
    German in the counteroffensive's turn (12.0); the Reinforcement Step's replacement points (11.1)."""
    if entry.step == "action" and state.action is not None and state.action.stepless:
        # The action declared before the step's marker (its one error) is the step's first.
        return replace(state, action=replace(state.action, stepless=False),
                       log=replace(state.log, entitled=None, begun=True))
    if entry.step == "action":
        first = "German" if state.bulge_turn == state.at.turn else "Allied"
        return replace(state, log=replace(state.log, entitled=first))
    if entry.step == "reinforcement":
        # 11.1: the points, and the extra ones for the Eliminated Units box, as the step begins.
        points = {side: replacement_points(state, side) for side in state.game.manifest.sides}
        return replace(state, log=replace(state.log, replacement_points=points))
    return state


def apply_roll(state: OnslaughtState, entry: RollOff) -> OnslaughtState:
    """A roll-off (5.0): the winner acts, a tie ends the step (12.0: except the Bulge turn's first tie)."""
    if rolled_for(state, entry) and state.action is not None:
        # The roll for the action declared before it: the action goes on, its side having won.
        return replace(state, action=replace(state.action, unrolled=False),
                       log=replace(state.log, entitled=None, begun=True, undecided=False))
    bulge = state.bulge_turn == state.at.turn and state.at.step == "action"
    over = state.log.step_over or both_out(state)
    if over:
        return replace(state, log=replace(state.log, played_on=True, step_over=True, begun=True))
    if set(entry.rolls) != set(state.game.manifest.sides) or any(not 1 <= r <= 6 for r in entry.rolls.values()):
        # 5.0: a roll-off without both dice, or with a die off the die, has no winner: its error is the roll's, and
        # whichever player acts next is not judged against it.
        return replace(state, log=replace(state.log, entitled=None, undecided=True, begun=True))
    values = sorted(entry.rolls.items(), key=lambda kv: -kv[1])
    tied = len(values) > 1 and values[0][1] == values[1][1]
    if tied and bulge and not state.log.bulge_tie:
        # 12.0: the first tie of that turn lets the German player act instead of ending it.
        return replace(state, log=replace(state.log, entitled="German", begun=True, bulge_tie="open", undecided=False))
    # Ruling (5.0): only an action resets the count of passes; a roll-off between two passes does not.
    return replace(state, log=replace(state.log, entitled=None if tied else values[0][0], step_over=tied,
                                                  begun=True, undecided=False))


def apply_pass(state: OnslaughtState, entry: Pass) -> OnslaughtState:
    """A pass (5.0): two in a row end the Action Step.

    Only the last pass counts toward two in a row, so the state keeps the side of the last pass
    (not every pass: a long game of passes would grow every state)."""
    side = entry.side or ""
    if state.log.step_over:
        return replace(state, log=replace(state.log, played_on=True))
    both = state.log.passes != () and state.log.passes[-1] != side
    # 12.0: a German pass after the first tie declines the extra action, so the turn ends.
    declined = state.log.bulge_tie == "open"
    over = state.log.step_over or both or declined
    log = replace(state.log, passes=(side,), entitled=None, step_over=over, begun=True, undecided=False,
                              bulge_tie="spent" if declined else state.log.bulge_tie)
    return replace(state, log=log)


def apply_action(state: OnslaughtState, entry: Action) -> OnslaughtState:
    """An action begins (5.0, 5.1); on 14.4's turn a winner with no points acts on emergency points."""
    side = entry.side or ""
    if in_force(state).emergency_turn(state) and state.log.begun and state.at.step == "action" and \
            state.supply.get(side, 0) <= 0:
        # 14.4: the winner of a roll on turn 20 with no points gets emergency points for this action.
        grant = int(state.game.parameter[f"emergency_supply_{side.lower()}"])
        state = replace(state, supply={**state.supply, side: grant}, emergency=side)
    if declared_late(state, entry) and state.action is not None:
        # The declaration written after the activation that opened it: the action takes its type and claim.
        return replace(state, action=replace(state.action, type=entry.action, claimed=entry.supply, line=entry.line,
                                             column=entry.column))
    unrolled = state.log.entitled is None and not state.log.undecided and not state.log.step_over
    state = replace(state, action=ActionState(side, entry.action, entry.supply, entry.line, entry.column,
                                              unrolled=unrolled, stepless=state.at.turn > 0 and state.at.step is None))
    return replace(state, log=replace(state.log, entitled=None, passes=(), begun=True, undecided=False,
                                                  played_on=state.log.played_on or state.log.step_over,
                                                  bulge_tie="spent" if state.log.bulge_tie == "open" else
                                                  state.log.bulge_tie))
