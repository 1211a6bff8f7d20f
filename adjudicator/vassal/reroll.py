"""A die rolled again right after an attack's die (a reroll): the first die stays the attack's, and when the players
carry out the reroll's result, that result is written as the one they claimed, so that the referee finds the one
breach (the first die's result owed) and judges what follows against what was carried out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from adjudicator.contract import RuleSystem, kind_of
from adjudicator.engine import check
from adjudicator.notation.entries import Entry
from adjudicator.vassal.movement import Follower, Lost
from adjudicator.vassal.output import Output
from adjudicator.vassal.result import Note
from wargame.errors import WargameError
from wargame.records import frozen

CARRIED_OUT = frozenset({"loss", "retreat", "advance", "stand"})
"""The kinds of entry that carry out a combat result."""


@frozen
class Reroll:
    """A die read as a reroll of the die an attack or bombardment was given."""

    index: int
    """The attack's (or bombardment's) entry."""
    first_step: int
    first: int
    step: int
    again: int
    who: str
    note: Note
    after: int
    """How many entries were written when the reroll was read: the entries after carry out a result."""


@dataclass
class Rerolls:
    """The reroll whose result may yet be carried out, and what the players carried out after it."""

    output: Output
    system: RuleSystem[object] | None
    follower: Follower[object] | None
    waiting: Reroll | None = None
    replaced: Note | None = None
    """The note of the last reroll whose result was found carried out (a fuller note put in its place)."""
    scanned: tuple[Reroll, int] | None = None
    """The reroll waiting and how far its entries have been looked through (the window is what was found there)."""
    window: list[int] = field(default_factory=list)
    """The entries (indices) after the waiting reroll that carry out a result, as far as looked through."""

    def _breaks(self, entries: list[Entry], k: int) -> bool | None:
        """Whether entry k is an error in the position before it (None when the reader cannot tell)."""
        if self.system is None or self.follower is None:
            return None
        followed = self.follower.follow(entries, upto=k)
        if isinstance(followed, Lost) or followed.lost is not None:
            return None
        try:
            return any(f.severity == "error" for f in check(self.system, followed.state, entries[k]))
        except WargameError:
            return None

    def _results(self, entries: list[Entry], reroll: Reroll) -> tuple[str, str] | None:
        """The results of the first die and of the reroll, by the rule system's combat audit (None if unknown)."""
        fought = entries[reroll.index].as_combat()
        auditor = self.system.auditor if self.system is not None else None
        if fought is None or auditor is None or self.follower is None:
            return None
        followed = self.follower.follow(entries, upto=reroll.index)
        if isinstance(followed, Lost) or followed.lost is not None:
            return None
        try:
            owed = auditor.account(followed.state, fought).result
            carried = auditor.account(followed.state, replace(fought, die=reroll.again)).result
        except WargameError:
            return None
        return None if owed is None or carried is None or owed == carried else (owed, carried)

    def _any_breaks(self, entries: list[Entry], window: list[int]) -> bool | None:
        """Whether any entry of the window is an error in the position before it (None when the reader cannot tell)."""
        found = [self._breaks(entries, k) for k in window]
        return None if None in found else any(found)

    def read(self, end: bool = False) -> None:
        """After a VASSAL step (`end`: the log's last): once what follows the reroll has been carried out (the losses,
        retreats, advances and stands written after it, up to the next entry of another kind or the end of the log;
        a retreat dragged in legs joined), whether it breaks the first die's result and carries out the reroll's
        (then the reroll's result is the attack's claimed one, said in a note and under the finding)."""
        reroll, entries = self.waiting, self.output.entries
        if reroll is None:
            return
        fought = entries[reroll.index].as_combat() if reroll.index < len(entries) else None
        if fought is None or fought.result is not None:
            self.waiting = None  # a result claimed: the players said what they carry out
            return
        # Only what was written (or written over) since the last step is looked through: looking through all that
        # follows the reroll at every step made a long run of chat before its result was carried out quadratic.
        start = reroll.after
        if self.scanned is not None and self.scanned[0] is reroll:
            start = max(reroll.after, min(self.scanned[1], entries.scanned_unchanged))
        else:
            self.window = []
        window = self.window
        while window and window[-1] >= start:
            window.pop()
        for k in range(start, len(entries)):
            if entries[k].is_comment:
                continue
            if kind_of(entries[k]) not in CARRIED_OUT:
                end = True  # the combat is over: what was carried out is all written
                break
            window.append(k)
        self.scanned, entries.scanned_unchanged = (reroll, len(entries)), len(entries)
        if not end:
            return
        self.waiting, self.scanned, self.window = None, None, []
        if not window or not self._any_breaks(entries, window):
            return
        results = self._results(entries, reroll)
        if results is None:
            return
        owed, carried = results
        entries[reroll.index] = replace(fought, reroll=reroll.again, result=carried)
        if self._any_breaks(entries, window) is not False:
            entries[reroll.index] = fought  # the reroll's result does not explain it either
            return
        later = window[0]
        noun = "bombardment" if fought.kind == "bombard" else fought.kind
        what = f"the {noun} on {fought.hex} (step {fought.line})"
        message = (f"{reroll.who} rolls again ({reroll.again}) for {what}, whose die was rolled at step "
                   f"{reroll.first_step} ({reroll.first}): a reroll. The first die is the one judged (dice are recorded "
                   f"outcomes) and gives {owed}; what was carried out from step {entries[later].line} is the reroll's "
                   f"result, {carried}, written as the result claimed, so that the one breach is the {owed} owed and "
                   "what follows is judged against what was carried out; a reroll both players agreed to is the "
                   "referee's to accept (to take a roll back, use VASSAL's Undo before rolling again)")
        self.replaced, at = reroll.note, self.output.note_at(reroll.note)
        if at is not None:
            self.output.notes[at] = Note(reroll.step, message)
        else:
            self.output.notes.append(Note(reroll.step, message))
        self.output.remarks[fought.line] = (
            f"    (the result carried out, {carried}, is the reroll's: {reroll.who} rolled {reroll.again} again at "
            f"step {reroll.step}; the {noun}'s die is the first, {reroll.first} at step {reroll.first_step}, "
            f"and its result {owed} is the one owed)")
