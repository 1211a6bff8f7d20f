"""The entries a translation has written, remembering how much of their beginning is unchanged since last read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsIndex

from adjudicator.notation.entries import Entry


class Written(list[Entry]):
    """A list of entries that keeps `unchanged`: how many of its first entries no write has touched since the
    follower last read it. The follower then applies only what was written or rewritten after that, so that
    following a translation of n steps costs O(n) in all, not O(n) a step (a hostile log of 100,000 flips).
    `scanned_unchanged` does the same for the reader of what is carried out after a reroll (`reroll.Rerolls`)."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        """A new list; nothing read yet."""
        super().__init__(entries)
        self.unchanged = 0
        self.scanned_unchanged = 0

    def _touched(self, at: int) -> None:
        """An entry at index `at` or later was written over, taken out or put in before others."""
        self.unchanged = min(self.unchanged, max(0, at))
        self.scanned_unchanged = min(self.scanned_unchanged, max(0, at))

    def _at(self, index: SupportsIndex | slice) -> int:
        """The first index a subscript touches."""
        if isinstance(index, slice):
            start, _, step = index.indices(len(self))
            return start if step > 0 else 0
        at = index.__index__()
        return at + len(self) if at < 0 else at

    def __setitem__(self, index: SupportsIndex | slice, value: Entry | Iterable[Entry]) -> None:
        """Write over one entry or a slice (an insertion is a slice written)."""
        self._touched(self._at(index))
        super().__setitem__(index, value)  # type: ignore[index, assignment]

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        """Take out one entry or a slice."""
        self._touched(self._at(index))
        super().__delitem__(index)

    def insert(self, index: SupportsIndex, value: Entry) -> None:
        """Put an entry in before another."""
        self._touched(min(self._at(index), len(self)))
        super().insert(index, value)

    def pop(self, index: SupportsIndex = -1) -> Entry:
        """Take out an entry (the last by default)."""
        self._touched(self._at(index))
        return super().pop(index)

    def remove(self, value: Entry) -> None:
        """Take out the first entry equal to `value`."""
        self._touched(0)
        super().remove(value)

    def clear(self) -> None:
        """Take out every entry."""
        self._touched(0)
        super().clear()

    def sort(self, *args: object, **kwargs: object) -> None:
        """Entries are never sorted: a sort would rewrite them all."""
        self._touched(0)
        super().sort(*args, **kwargs)  # type: ignore[call-overload]

    def reverse(self) -> None:
        """Reversing rewrites them all."""
        self._touched(0)
        super().reverse()

    def __imul__(self, times: SupportsIndex) -> Written:
        """Repeating rewrites them all (nothing does)."""
        self._touched(0)
        super().__imul__(times)
        return self
