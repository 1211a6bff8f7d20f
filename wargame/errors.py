"""One error root for everything Umpire refuses; only the command lines catch it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


def did_you_mean(word: str, vocabulary: Iterable[str], limit: int = 3) -> str:
    """Return ' (did you mean X?)' for the closest words of a finite vocabulary, or ''."""
    choices = sorted(set(vocabulary))
    close = difflib.get_close_matches(word, choices, n=limit, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


@dataclass(frozen=True)
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
