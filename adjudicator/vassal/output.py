"""The entries a translation writes, in order, with its notes; the first turn's markers held back over the set-up."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from adjudicator.contract import how_of, kind_of
from adjudicator.notation.entries import Comment, Entry
from adjudicator.vassal.chat import one_line
from adjudicator.vassal.result import Note
from adjudicator.vassal.written import Written
from wargame.sequence import Slot

OPENING_RESULTS = frozenset({"rolloff", "markers", "loss", "retreat", "advance", "stand"})
"""The kinds that may follow the entries a game's opening allows before the first turn: its dice, the markers
drawn or put aside, and combat results (Omaha 11.2.3)."""


@dataclass
class Output:
    """The entries and notes written so far, by VASSAL step."""

    opening: Slot | None
    """The game's opening before the first turn, if it has one (wargame/sequence.py)."""
    entries: Written = field(default_factory=Written)
    notes: list[Note] = field(default_factory=list)
    steps: dict[int, str] = field(default_factory=dict)
    """A one-line description of every step, by number."""
    endpoint: dict[int, str] = field(default_factory=dict)
    """Entries (by index) whose path VASSAL did not record, and how the reader chose it."""
    remarks: dict[int, str] = field(default_factory=dict)
    """What the verdict says under the findings of a step (by step): what the reader wrote there and why."""
    held: list[Entry] = field(default_factory=list)
    """The first turn's markers while the set-up may still be going on (see `turns.Clock.start_turn`)."""
    turned: bool = False
    """Whether a turn marker has been written (held back or not)."""
    phase: int = 0
    """How many times a turn or step began (a marker written or the held ones put in): the step or phase a counter
    move was made in, which a declaration typed after it must share to stand for it."""

    def before_first_turn(self, entry: Entry) -> bool:
        """Whether the entry can come before the first turn begins, so that its markers wait for a later one."""
        if entry.is_comment or entry.as_header() is not None or how_of(entry) == "setup":
            return True
        # A game with an opening before the first turn (`before_first_turn` in its [[sequence]]; Omaha 11.2.3:
        # the Pointe du Hoc roll, its loss and marker and the Rangers' move, the beach assaults with their
        # markers, losses and retreats) plays it while VASSAL's turn tracker already shows the first turn's
        # first step: the kinds the opening allows, and the dice, markers and results that follow them.
        return self.opening is not None and (self.opening.names(kind_of(entry), how_of(entry))
                                             or kind_of(entry) in OPENING_RESULTS)

    def before_turns(self) -> bool:
        """Whether the first turn has not begun: its markers held back over the set-up, or none written yet (a
        saved position without the turn tracker's state, as `adjudicate export` writes a scenario's set-up)."""
        return bool(self.held) or not self.turned

    def emit(self, entry: Entry) -> int:
        """Write an entry (beginning the first turn first if it cannot come before it); its index."""
        if self.held and not self.before_first_turn(entry):
            self.start(entry.line)
        if entry.as_turn_marker() is not None or entry.as_step_marker() is not None:
            self.phase += 1
            self.turned = self.turned or entry.as_turn_marker() is not None
        self.entries.append(entry)
        return len(self.entries) - 1

    def start(self, step: int) -> None:
        """The first turn and step begin at `step`: their markers, held back over the set-up."""
        held, self.held = self.held, []
        self.phase += 1
        at = len(self.entries)
        while at > 0 and self.entries[at - 1].is_comment and self.entries[at - 1].line == step:
            at -= 1  # ahead of the step's own comments, which belong to the turn begun
        self.entries[at:at] = [replace(e, line=step) for e in held]

    def comment(self, step: int, text: str) -> int:
        """Write a comment at `step`; its index."""
        return self.emit(Comment(line=step, text=one_line(text, 500)))

    def note(self, step: int, message: str) -> None:
        """Tell the reader's user something about `step`."""
        self.notes.append(Note(step, message))

    def note_at(self, note: Note) -> int | None:
        """Where that very note is among the notes (None: not there)."""
        # Searched from the end, where the note asked for nearly always is: a cost that does not grow with the log.
        return next((i for i in range(len(self.notes) - 1, -1, -1) if self.notes[i] is note), None)

    def last_entry(self, step: int) -> Entry | None:
        """The last entry emitted at `step` other than a comment (for declarations clicked on a selection)."""
        for entry in reversed(self.entries):
            if entry.line != step:
                return None
            if not entry.is_comment:
                return entry
        return None

    def last_written(self) -> Entry | None:
        """The last entry written, comments aside, whatever its step."""
        return next((e for e in reversed(self.entries) if not e.is_comment), None)

    def replace(self, entry: Entry, by: Entry) -> int:
        """Put `by` in place of `entry` (the last time that very entry was written); its index."""
        # Searched from the end, where the entry replaced nearly always is: a cost per replacement that does not
        # grow with the log (docs/limits.md).
        index = next(i for i in range(len(self.entries) - 1, -1, -1) if self.entries[i] is entry)
        self.entries[index] = by
        return index
