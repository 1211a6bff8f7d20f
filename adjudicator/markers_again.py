"""Turn and phase markers written again, or two written in each other's place: one error, and nothing changes.

Every system whose data orders its steps or phases (`[[sequence]]`, a turn keeper, the engine's sequence check).
Where a system's keeper opens only a later phase (`TurnKeeper.later_only`: a player turn's phase named again is the
next player's), a marker naming the phase under way, or an earlier one of the player turn, was read as the next
player's phase of that id: one slip put every entry after it in the other player's turn, each an error of its own.
The marker is read as the next player's only where the log shows it: an entry after it, before the next marker,
that the next player's phase allows and the phase under way does not. Otherwise it is a marker written again: one
error of the sequence, the phase under way goes on and nothing of it ends (elsewhere the marker went back to the
phase it names, and the markers after it were errors too). A `Turn` marker naming the turn just begun (no phase
opened yet) is the same slip where phases are named again. Two phase markers written in each other's place are one
error: on the first (its phase opened early) where every phase is written, the second, naming the phase it passed
over, then a note and opening nothing; where a marker may pass over empty phases (`EngineChecks.skip_phases`) the
first was lawful and the second is the error, opening nothing.

Ruling: docs/rules-coverage.md's register, row F&M 4.1 (a marker written again).
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.contract import RuleSystem, StateT, next_turn
from adjudicator.findings import Finding
from adjudicator.missing_markers import STRETCH, Lookahead, first_fit, governed
from adjudicator.notation.entries import Entry, TurnMarker
from wargame.sequence import TurnOrder, next_slot, slot_index

__all__ = ["turn_written_after", "written_again"]


def written_again(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entry: Entry, index: int,
                  ahead: Lookahead) -> Finding | None:
    """The one error for a marker written again (the log's `index`th entry), which then opens nothing; None for any
    other entry, and for a marker the entries after it show opens the next player's phase."""
    keeper = system.turn_keeper
    if keeper is None or not system.engine_checks.sequence:
        return None
    at = keeper.context(state)
    noun = system.step_noun
    turn = entry.as_turn_marker()
    if turn is not None:
        # Elsewhere a `Turn` marker written again is the engine's (a copy) or the system's own one error.
        if not keeper.later_only or at.turn == 0 or turn.turn != at.turn:
            return None
        if at.step is not None:
            opening = order.sequence[0].id if order.sequence else None
            if at.step != opening or not _right_after(ahead, index, lambda e: (m := e.as_step_marker()) is not None
                                                    and m.step == opening):
                return None
            return system.table.finding("note", order.section, entry.line, entry.column,
                                        f"GT {turn.turn} is written after its first {noun}'s marker, in each other's "
                                        f"place: one error, on that marker, where the turn began; this one opens "
                                        "nothing")
        return system.table.finding("error", order.section, entry.line, entry.column,
                                    f"GT {turn.turn} is written again: it has just begun, and no {noun} of it has "
                                    "opened yet; the marker opens nothing (one marker written twice, one error)")
    step = entry.as_step_marker()
    if step is None or at.turn == 0:
        return None
    sequence = order.sequence
    if at.step is None:
        # Where empty phases need no marker (`skip_phases`) a turn may lawfully open in its last phase.
        if system.engine_checks.skip_phases or not sequence or step.step != sequence[-1].id or \
                not _right_after_turn(ahead, index):
            return None
        # The turn's last phase written after the next turn's marker, in each other's place: the turn ending before
        # it is the one error (4.1, on the 'Turn' marker); opened now, every phase of the new turn was passed over.
        return system.table.finding("note", order.section, entry.line, entry.column,
                                    f"turn {at.turn}: {noun} {step.step!r} is written after the 'Turn {at.turn}' "
                                    f"marker, in each other's place: one error, on the 'Turn' marker (the turn "
                                    f"before ended without it); this one opens nothing")
    current = slot_index(sequence, at.step, at.player_turn)
    if current is None:
        return None
    side = sequence[current].side
    first = current
    while first > 0 and side is not None and sequence[first - 1].side == side:
        first -= 1
    expected = next_slot(sequence, at.step, at.player_turn)
    if expected is not None and expected.id == step.step:
        return None  # the next phase (the next player's first, too)
    later = next((k for k in range(current + 1, len(sequence)) if sequence[k].id == step.step), None)
    if later is not None and _shows_later(system, state, order, ahead, index, current, later):
        return None
    if _swapped(ahead, index, step.step, at.step, sequence[current - 1].id if current > 0 else None):
        # Two markers written in each other's place: the first of them, opening its phase early, is the one error;
        # where a marker may pass over empty phases (`skip_phases`) the first was lawful, and this one is the error.
        if system.engine_checks.skip_phases:
            return system.table.finding("error", order.section, entry.line, entry.column,
                                        f"turn {at.turn}: {noun} {step.step!r} is written after {at.step!r}, whose "
                                        f"marker came in its place: the two markers are swapped (one error); this one "
                                        f"opens nothing and the entries after it are judged in {at.step!r}")
        return system.table.finding("note", order.section, entry.line, entry.column,
                                    f"turn {at.turn}: {noun} {step.step!r} is written after {at.step!r}, whose marker "
                                    f"came in its place: the two markers are swapped, one error, on the marker before "
                                    f"it; this one opens nothing and the entries after it are judged in {at.step!r}")
    passed = any(sequence[k].id == step.step for k in range(first, current + 1))
    if not passed and (later is not None or step.step == sequence[0].id):
        return None  # a later phase, the ones between passed (the engine's error); the turn's first (missing_markers)
    then = f"the next {noun} is {expected.id!r}" if expected is not None else f"{at.step!r} is the turn's last {noun}"
    again = "is under way" if step.step == at.step else \
        "has passed in this player turn" if passed else "is left in this turn no more"
    return system.table.finding("error", order.section, entry.line, entry.column,
                                f"turn {at.turn}: {noun} {step.step!r} comes after {at.step!r}; {then}: "
                                f"{step.step!r} {again}, so the marker, written again, opens nothing and the "
                                f"entries after it are judged in {at.step!r} (one error)")


def _swapped(ahead: Lookahead, index: int, step: str, now: str, passed_over: str | None) -> bool:
    """Whether the marker at `index`, naming `step`, and the marker right before it (naming `now`, the phase under
    way) were written in each other's place: `step` is the phase before `now` in the turn, and no marker opened it."""
    if passed_over != step or step == now:
        return False
    written = [e for e in ahead.entries[max(0, index - STRETCH):index] if not e.is_comment and e.as_header() is None]
    last = written[-1].as_step_marker() if written else None
    if last is None or last.step != now:
        return False
    # The marker before that one: had it opened `step`, this one names it again (an error of its own).
    before = next((e for e in reversed(written[:-1]) if e.as_step_marker() or e.as_turn_marker()), None)
    named = before.as_step_marker() if before is not None else None
    return named is None or named.step != step


def _shows_later(system: RuleSystem[StateT], state: StateT, order: TurnOrder, ahead: Lookahead, index: int,
                 current: int, later: int) -> bool:
    """Whether an entry after the marker, before the next one, belongs to the `later` phase (the next player's of
    the marker's id) and not to the `current` one under way: the log went on to the next player's turn. With no
    entry before the next marker, and that marker the phase due after the one under way (the two swapped), the
    entries after that one tell."""
    end = ahead.next_marker_index(index)
    stretch = [e for e in ahead.entries[index + 1:end][:STRETCH] if governed(order, e)]
    following = ahead.entries[end].as_step_marker() if end < len(ahead.entries) else None
    due = current + 1 < len(order.sequence) and following is not None and \
        following.step == order.sequence[current + 1].id
    if not stretch and due:
        # Judged against the phase that marker opens: the entries after it are the later phase's, not its.
        stretch = [e for e in ahead.entries[end + 1:ahead.next_marker_index(end)][:STRETCH] if governed(order, e)]
        current += 1
    game = system.game_of(state)
    return any(first_fit(game, order, e, current, current + 1) is None and
               first_fit(game, order, e, later, later + 1) is not None for e in stretch)


def _right_after_turn(ahead: Lookahead, index: int) -> bool:
    """Whether the entry before the `index`th (comments and headers aside) is a `Turn` marker."""
    return _right_after(ahead, index, lambda e: e.as_turn_marker() is not None)


def _right_after(ahead: Lookahead, index: int, wanted: Callable[[Entry], bool]) -> bool:
    """Whether the entry before the `index`th (comments and headers aside) is one `wanted`."""
    before = next((e for e in reversed(ahead.entries[max(0, index - STRETCH):index])
                   if not e.is_comment and e.as_header() is None), None)
    return before is not None and wanted(before)


def turn_written_after(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entry: Entry, index: int,
                       ahead: Lookahead) -> tuple[list[Entry], Finding] | None:
    """A turn's first phase written right before its `Turn` marker, where only a later phase opens (elsewhere the
    system's own one error): the turn is begun before it (the markers to apply first) with the one error; the `Turn`
    marker after it is then a note."""
    keeper = system.turn_keeper
    step = entry.as_step_marker()
    if keeper is None or not keeper.later_only or step is None or not order.sequence or \
            step.step != order.sequence[0].id:
        return None
    at = keeper.context(state)
    if at.turn != 0 and at.step != order.sequence[-1].id:
        return None
    coming = next_turn(system.game_of(state), order.scenario or "", at.turn)
    after = next((e for e in ahead.entries[index + 1:index + 1 + STRETCH]
                  if not e.is_comment and e.as_header() is None), None)
    turn = after.as_turn_marker() if after is not None else None
    if turn is None or turn.turn != coming:
        return None
    message = (f"the 'Turn {coming}' marker is written after this line, its first {system.step_noun}'s, in each "
               f"other's place: the turn begins here (one error)")
    return [TurnMarker(line=entry.line, column=entry.column, turn=coming)], \
        system.table.finding("error", order.section, entry.line, entry.column, message)
