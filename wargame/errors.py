"""One error root for everything Umpire refuses; only the command lines catch it."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from pathlib import Path

from wargame.records import frozen


def edit_distance(a: str, b: str, limit: int) -> int:
    """Edit distance counting a swap of neighbours as one edit (optimal string alignment),
    giving up (limit + 1) once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        if min(row) > limit:
            return limit + 1
        rows.append(row)
    return rows[-1][-1]


MAX_COMPARED = 1_000
"""At most this many words of a vocabulary are measured against an unknown word, those nearest it in
alphabetical order: each measure is pure Python (about 20 µs), and a 200 x 200 map's 40,000 hex labels
took 30 s for 39 unknown labels (issue 30). Every bundled vocabulary is smaller."""


def listed_words(text: str) -> list[str]:
    """The quoted words of a validator's list of allowed values ("'army', 'corps' or 'group'")."""
    return re.findall(r"'([^']*)'", text)


def did_you_mean(word: str, vocabulary: Iterable[str], limit: int = 3) -> str:
    """Return ' (did you mean X?)' for the closest words of a finite vocabulary, or ''.

    Closest by edit distance (ties in alphabetical order), within two edits or a third of the word; of a
    vocabulary larger than MAX_COMPARED, among the MAX_COMPARED of a fitting length nearest it alphabetically.
    """
    choices = sorted(set(vocabulary))
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered and lowered[word.lower()] != word:
        close = [lowered[word.lower()]]
    else:
        allowed = max(2, len(word) // 3)
        # Words longer or shorter by more than `allowed` are that many edits away at least.
        fitting = [c for c in choices if abs(len(c) - len(word)) <= allowed]
        if len(fitting) > MAX_COMPARED:
            at = bisect.bisect_left(fitting, word)
            start = min(max(0, at - MAX_COMPARED // 2), len(fitting) - MAX_COMPARED)
            fitting = fitting[start:start + MAX_COMPARED]
        scored = sorted((d, c) for c in fitting if (d := edit_distance(word, c, allowed)) <= allowed)
        close = [c for _, c in scored[:limit]]
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


@frozen
class Place:
    """Where in a user's file a problem is: file, 1-based line and column, or a key path."""

    file: Path | str | None = None
    line: int | None = None
    column: int | None = None
    key: str | None = None

    def __str__(self) -> str:
        parts = [str(self.file) if self.file is not None else "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        text = ":".join(parts)
        if self.key:
            text += f" [{self.key}]"
        return text


class WargameError(Exception):
    """Root of every error Umpire reports to a user."""

    def __init__(self, message: str, place: Place | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.place = place

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


class DataError(WargameError):
    """A game data file is malformed or inconsistent."""


class DataErrors(DataError):
    """Several data problems found at once, reported together."""

    def __init__(self, errors: list[DataError]) -> None:
        super().__init__(f"{len(errors)} problem(s) in the game data")
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class GridError(DataError):
    """A hex label, coordinate or hexside does not exist on a map's grid."""


class LogSyntaxError(WargameError):
    """A move log does not follow the notation."""


class ReplayError(WargameError):
    """A log entry cannot be resolved against the game state, so the replay stops."""
