"""Turn, step and phase markers a log left out, inferred where the markers written after them show it passed over them.

One slip, one error: a `Phase` marker left out put every entry of that phase in the one before it, each an error of
its own (an attack in a movement phase, its retreat owed to nothing, ...), and a `Turn` marker left out put a whole
turn in the one before. The marker is inferred only where the log itself shows it is missing: the next marker
written comes after the step the entry belongs to (so the log passed over it), or the next `Turn` marker written is
not the one this step would begin. Anything else (an entry written early, a step written twice) is judged as
written.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

from adjudicator.contract import RuleSystem, StateT, deciding_side, how_of, kind_of, next_turn
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, StepMarker, TurnMarker
from wargame.game import Game
from wargame.sequence import TurnOrder, next_slot, slot_index

__all__ = ["Lookahead", "STRETCH", "first_fit", "governed", "missing_markers"]


class Lookahead:
    """The next marker written after each entry of a log (and the next `Turn` marker), worked out once per length
    of the log read so far: a chain's later parts extend it."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self._known = -1
        self._marker: list[int] = []
        self._turn: list[int] = []

    def _refresh(self) -> None:
        """Both indexes worked out backwards over the entries read so far (linear in the log)."""
        n = len(self.entries)
        if n == self._known:
            return
        marker, turn = [n] * (n + 1), [n] * (n + 1)
        for i in range(n - 1, -1, -1):
            entry = self.entries[i]
            is_turn = entry.as_turn_marker() is not None
            marker[i] = i if is_turn or entry.as_step_marker() is not None else marker[i + 1]
            turn[i] = i if is_turn else turn[i + 1]
        self._marker, self._turn, self._known = marker, turn, n

    def next_marker_index(self, index: int) -> int:
        """The index of the first turn, step or phase marker after entry `index` (the log's length: none)."""
        self._refresh()
        return self._marker[index + 1] if index + 1 <= self._known else self._known

    def next_marker(self, index: int) -> Entry | None:
        """The first turn, step or phase marker after entry `index` (None: the log ends first)."""
        at = self.next_marker_index(index)
        return self.entries[at] if at < self._known else None

    def next_turn_marker(self, index: int) -> TurnMarker | None:
        """The first `Turn` marker after entry `index` (None: the log ends first)."""
        self._refresh()
        at = self._turn[index + 1] if index + 1 <= self._known else self._known
        return self.entries[at].as_turn_marker() if at < self._known else None


def missing_markers(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entry: Entry, index: int,
                    ahead: Lookahead) -> tuple[list[Entry], Finding] | None:
    """The markers left out before `entry` (the log's `index`th), to be applied before it, and the one error that
    says so; None where none is shown missing."""
    handed = system.engine_checks
    if not handed.sequence or system.turn_keeper is None:
        return None
    sequence = order.sequence
    # The cheap tests first: the engine asks this of every entry.
    step = entry.as_step_marker()
    if step is not None:
        if not sequence or step.step != sequence[0].id:
            return None
        at = system.sequence_point(state)
        return _missing_turn(system, state, order, step, at.turn, at.step, at.player_turn, index, ahead)
    if entry.is_comment or entry.as_turn_marker() is not None or entry.as_header() is not None or not handed.entries:
        return None
    kind = kind_of(entry)
    # Where the data cannot tell (a kind this step allows too in other circumstances), the system says.
    claimed = system.step_of(state, entry)
    if claimed is None and not order.governs(kind, how_of(entry)):
        return None
    at = system.sequence_point(state)
    if at.turn == 0:
        return None
    game = system.game_of(state)
    current = slot_index(sequence, at.step, at.player_turn) if at.step is not None else -1
    if current is None:
        return None
    if claimed is None and current >= 0 and first_fit(game, order, entry, current, current + 1) is not None:
        return None
    # A marker written later shows the log passed over a step. A log that ends here may end early: an entry written
    # early is then its own one error, as written; only several after it, all of a later step, show its marker
    # left out (each judged in the step under way would be an error of its own).
    following = ahead.next_marker(index)
    stretch = ahead.entries[index:ahead.next_marker_index(index)]
    if following is None and len(list(islice((e for e in stretch if not e.is_comment and e.as_header() is None),
                                             2))) < 2:
        return None
    end = len(sequence)
    later = following.as_step_marker() if following is not None else None
    if later is not None:
        end = next((k for k in range(current + 1, len(sequence)) if sequence[k].id == later.step), -1)
        if end < 0:
            return None
    if claimed is None:
        belongs = _fitting(game, order, stretch, current + 1, end)
    else:
        # The step the system names, if it comes later in this turn than the one under way, and the entries after
        # it up to the next marker fit there or later.
        belongs = next((k for k in range(current + 1, end) if sequence[k].id == claimed), None)
        if belongs is not None and not _fits_from(game, order, stretch[1:], belongs, end):
            belongs = None
    if belongs is None:
        return None
    markers: list[Entry] = [StepMarker(line=entry.line, column=entry.column, step=sequence[k].id)
                            for k in range(current + 1, belongs + 1)]
    noun = system.step_noun
    # No line numbers in the words: the finding has its line, and a VASSAL log's are its steps.
    then = (f"the next marker written opens '{later.step}' after it" if later is not None
            else "the next marker written begins another turn" if following is not None
            else "the entries after it to the log's end belong there too")
    left = sequence[belongs]
    message = (f"turn {at.turn}: the '{left.id}' {noun} marker is missing before this line: the '{kind}' "
               f"entry here belongs to that {noun}, and {then}; the entries from here are judged in the "
               f"'{left.id}' {noun} (one marker left out, one error)")
    if _written_before_turn(ahead.entries, index, left.id):
        # The marker written just before the turn's own (the error of its place): one slip, that one error.
        return markers, system.table.finding("note", order.section, entry.line, entry.column,
                                             f"{message}; it was written before the 'Turn' marker: that error")
    return markers, system.table.finding("error", order.section, entry.line, entry.column, message)


def _written_before_turn(entries: Sequence[Entry], index: int, step: str) -> bool:
    """Whether the marker of `step` was written just before the `Turn` marker of the turn under way (the two swapped),
    looking back from entry `index` at most STRETCH entries."""
    turn = next((k for k in range(index - 1, max(-1, index - STRETCH), -1) if entries[k].as_turn_marker() is not None),
                None)
    if turn is None:
        return False
    before = next((e for e in reversed(entries[max(0, turn - STRETCH):turn]) if not e.is_comment), None)
    marker = before.as_step_marker() if before is not None else None
    return marker is not None and marker.step == step


STRETCH = 200
"""The most entries between a misplaced entry and the next marker that are read for a marker left out: a step's
entries are far fewer, and the cost per entry stays bounded whatever the log."""


def _fitting(game: Game, order: TurnOrder, stretch: Sequence[Entry], first: int, end: int) -> int | None:
    """The step the first of `stretch` (the entries up to the next marker) belongs to, among the sequence's
    `first` to `end - 1`, where every entry of the stretch the sequence governs fits, in order, in that step or
    a later one before `end`; None where one does not (an entry written out of its step, not a marker left out)."""
    for i, entry in enumerate(stretch):
        if not governed(order, entry):
            continue
        belongs = first_fit(game, order, entry, first, end)
        return belongs if belongs is not None and _fits_from(game, order, stretch[i + 1:], belongs, end) else None
    return None


def governed(order: TurnOrder, entry: Entry) -> bool:
    """Whether the sequence places an entry (a comment or header, or a kind no step names, fits anywhere)."""
    return not entry.is_comment and entry.as_header() is None and order.governs(kind_of(entry), how_of(entry))


def _fits_from(game: Game, order: TurnOrder, stretch: Sequence[Entry], first: int, end: int) -> bool:
    """Whether every entry of `stretch` the sequence governs fits, in order, in the sequence's step `first` or a later
    one before `end`."""
    if len(stretch) > STRETCH:
        return False
    at = first
    for entry in stretch:
        if not governed(order, entry):
            continue
        fits = first_fit(game, order, entry, at, end)
        if fits is None:
            return False
        at = fits
    return True


def first_fit(game: Game, order: TurnOrder, entry: Entry, first: int, end: int) -> int | None:
    """The first of the sequence's steps `first` to `end - 1` that allows the entry (its kind, side and units'
    types, as the engine's check of its place reads them), or None."""
    kind, how = kind_of(entry), how_of(entry)
    side = deciding_side(game, entry)
    types = tuple(game.units_by_id[u].type for u in entry.acting_units() if u in game.units_by_id)
    return next((k for k in range(first, end) if order.allows(order.sequence[k], kind, side, types, how)), None)


def _missing_turn(system: RuleSystem[StateT], state: StateT, order: TurnOrder, step: StepMarker, turn: int,
                  now: str | None, player_turn: str | None, index: int,
                  ahead: Lookahead) -> tuple[list[Entry], Finding] | None:
    """A `Turn` marker left out before a step or phase marker that can only begin a turn: it names the turn's first
    step (the caller's test), which this turn has passed (or no turn has begun), and the next `Turn` marker written is not the one
    it would begin."""
    sequence = order.sequence
    expected = next_slot(sequence, now, player_turn)
    if turn != 0 and expected is not None and expected.id == step.step:
        return None
    game = system.game_of(state)
    coming = next_turn(game, order.scenario or "", turn)
    written = ahead.next_turn_marker(index)
    # Shown missing: before any turn, unless the turn is written later; in a game, by the turn after it written next,
    # or by the turn under way at its last step with no turn written after (a first step written again with no such
    # turn after it, or in the middle of a turn, is judged as written).
    shown = (written is None or written.turn != coming) if turn == 0 else \
        (written is not None and written.turn == coming + 1) or (written is None and expected is None)
    if not shown:
        return None
    then = (f"the next 'Turn' marker written is turn {written.turn}" if written is not None
            else "no 'Turn' marker is written after it")
    where = "no turn has begun" if turn == 0 else f"turn {turn} has passed its '{step.step}' {system.step_noun}"
    message = (f"the 'Turn {coming}' marker is missing before this line: '{step.step}' begins a turn, "
               f"{where}, and {then}; the entries from here are judged in turn {coming} (one marker left out, "
               f"one error)")
    marker = TurnMarker(line=step.line, column=step.column, turn=coming)
    return [marker], system.table.finding("error", order.section, step.line, step.column, message)
