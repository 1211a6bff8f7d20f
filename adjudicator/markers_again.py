"""Turn and phase markers written again where only a later part of the turn may open: one error, and nothing changes.

Where a system's keeper opens only a later phase (`TurnKeeper.later_only`: a player turn's phase named again is the
next player's), a marker naming the phase under way, or an earlier one of the player turn, was read as the next
player's phase of that id: one slip put every entry after it in the other player's turn, each an error of its own.
The marker is read as the next player's only where the log shows it: an entry after it, before the next marker,
that the next player's phase allows and the phase under way does not. Otherwise it is a marker written again: one
error of the sequence (4.1), the phase under way goes on and nothing of it ends. A `Turn` marker naming the turn just
begun (no phase opened yet) is the same slip.

Ruling: docs/rules-coverage.md's register, row F&M 4.1 (a marker written again).
"""

from __future__ import annotations

from adjudicator.contract import RuleSystem, StateT, how_of, kind_of
from adjudicator.findings import Finding
from adjudicator.missing_markers import STRETCH, Lookahead, first_fit
from adjudicator.notation.entries import Entry
from wargame.sequence import TurnOrder, next_slot, slot_index

__all__ = ["written_again"]


def written_again(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entry: Entry, index: int,
                  ahead: Lookahead) -> Finding | None:
    """The one error for a marker written again (the log's `index`th entry), which then opens nothing; None for any
    other entry, and for a marker the entries after it show opens the next player's phase."""
    keeper = system.turn_keeper
    if keeper is None or not keeper.later_only or not system.engine_checks.sequence:
        return None
    at = keeper.context(state)
    noun = system.step_noun
    turn = entry.as_turn_marker()
    if turn is not None:
        if at.turn == 0 or turn.turn != at.turn or at.step is not None:
            return None
        return system.table.finding("error", order.section, entry.line, entry.column,
                                    f"GT {turn.turn} is written again: it has just begun, and no {noun} of it has "
                                    "opened yet; the marker opens nothing (one marker written twice, one error)")
    step = entry.as_step_marker()
    if step is None or at.turn == 0 or at.step is None:
        return None
    sequence = order.sequence
    current = slot_index(sequence, at.step, at.player_turn)
    if current is None:
        return None
    side = sequence[current].side
    first = current
    while first > 0 and side is not None and sequence[first - 1].side == side:
        first -= 1
    expected = next_slot(sequence, at.step, at.player_turn)
    if expected is not None and expected.id == step.step or \
            not any(sequence[k].id == step.step for k in range(first, current + 1)):
        return None  # the next phase (the next player's first, too), or one the player turn has not reached
    later = next((k for k in range(current + 1, len(sequence)) if sequence[k].id == step.step), None)
    if later is not None and _shows_later(system, state, order, ahead, index, current, later):
        return None
    then = f"the next {noun} is {expected.id!r}" if expected is not None else f"{at.step!r} is the turn's last {noun}"
    again = "is under way" if step.step == at.step else "has passed in this player turn"
    return system.table.finding("error", order.section, entry.line, entry.column,
                                f"turn {at.turn}: {noun} {step.step!r} comes after {at.step!r}; {then}: "
                                f"{step.step!r} {again}, so the marker, written again, opens nothing and the "
                                f"entries after it are judged in {at.step!r} (one error)")


def _shows_later(system: RuleSystem[StateT], state: StateT, order: TurnOrder, ahead: Lookahead, index: int,
                 current: int, later: int) -> bool:
    """Whether an entry after the marker, before the next one, belongs to the `later` phase (the next player's of
    the marker's id) and not to the `current` one under way: the log went on to the next player's turn."""
    stretch = ahead.entries[index + 1:ahead.next_marker_index(index)][:STRETCH]
    game = system.game_of(state)
    for entry in stretch:
        if entry.is_comment or entry.as_header() is not None or not order.governs(kind_of(entry), how_of(entry)):
            continue
        if first_fit(game, order, entry, current, current + 1) is None and \
                first_fit(game, order, entry, later, later + 1) is not None:
            return True
    return False
