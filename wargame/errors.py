"""One error root for everything Umpire refuses; only the command lines catch it."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from wargame.records import frozen


def close_words(word: str, choices: Sequence[str], most: int) -> list[tuple[int, str]]:
    """(distance, choice) of every choice within `most` edits of a word, in the choices' order: the edit distance
    counting a swap of neighbours as one edit (optimal string alignment), rapidfuzz's in C (our pure-Python one,
    about 20 µs a pair, made a data file of 30,000 unknown hexes take 50 s of "did you mean";
    tests/test_suggestions.py holds the two equal)."""
    from rapidfuzz import process

    return [(d, c) for c, d, _ in process.extract(word, choices, scorer=_osa().distance, score_cutoff=most,
                                                   limit=None)]


def _osa() -> ModuleType:
    """rapidfuzz's optimal string alignment, imported on the first suggestion (about 28 ms: no clean run
    suggests anything)."""
    from rapidfuzz.distance import OSA

    return OSA


MAX_COMPARED = 1_000
"""At most this many words of a vocabulary are measured against an unknown word, those nearest it in
alphabetical order (a 200 x 200 map's 40,000 hex labels took 30 s for 39 unknown labels when each measure was
pure Python, issue 30). Every bundled vocabulary is smaller."""
SUGGESTIONS_KEPT = 4_096
"""Suggestions a vocabulary keeps, by word: a file repeating an unknown word is measured once for it."""


LISTED = 12
"""Words a message lists at most (a CSV header's columns, a game's boxes or steps): a message stays short
whatever the data holds (a header of 100,000 columns was listed in full in each bad row's error)."""


def listed(words: Iterable[str], most: int = LISTED) -> str:
    """Words joined by commas, the first `most` only of more, saying how many there are in all."""
    given = words if isinstance(words, Sequence) else list(words)
    if len(given) <= most:
        return ", ".join(given)
    return ", ".join(given[:most]) + f", ... ({len(given):,} in all)"


def listed_words(text: str) -> list[str]:
    """The quoted words of a validator's list of allowed values ("'army', 'corps' or 'group'")."""
    return re.findall(r"'([^']*)'", text)


class Vocabulary:
    """The words an unknown word may be a typo of, sorted once for every suggestion asked of them, the
    suggestions made kept: a data file or log of thousands of unknown words is not thousands of sortings of a
    map's hex labels (30,000 unknown hexes took 50 s)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.choices = sorted(set(words))
        self.lowered = {c.lower(): c for c in self.choices}
        self._made: dict[tuple[str, int], str] = {}

    def suggest(self, word: str, limit: int = 3) -> str:
        """' (did you mean X?)' for the closest words, or '' (see did_you_mean)."""
        made = self._made.get((word, limit))
        if made is None:
            made = self._suggestion(word, limit)
            if len(self._made) < SUGGESTIONS_KEPT:
                self._made[word, limit] = made
        return made

    def close(self, word: str, limit: int) -> list[str]:
        """The closest words (see did_you_mean), nearest first."""
        if word.lower() in self.lowered and self.lowered[word.lower()] != word:
            return [self.lowered[word.lower()]]
        allowed = max(2, len(word) // 3)
        # Words longer or shorter by more than `allowed` are that many edits away at least.
        fitting = [c for c in self.choices if abs(len(c) - len(word)) <= allowed]
        if len(fitting) > MAX_COMPARED:
            at = bisect.bisect_left(fitting, word)
            start = min(max(0, at - MAX_COMPARED // 2), len(fitting) - MAX_COMPARED)
            fitting = fitting[start:start + MAX_COMPARED]
        return [c for _, c in sorted(close_words(word, fitting, allowed))[:limit]]

    def _suggestion(self, word: str, limit: int) -> str:
        """The suggestion, worked out."""
        close = self.close(word, limit)
        if not close:
            return ""
        return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


@lru_cache(maxsize=16)
def _vocabulary(words: tuple[str, ...]) -> Vocabulary:
    """A vocabulary given as words, prepared once while it is asked again (a file's rows asking of the same)."""
    return Vocabulary(words)


def did_you_mean(word: str, vocabulary: Iterable[str], limit: int = 3) -> str:
    """Return ' (did you mean X?)' for the closest words of a finite vocabulary, or ''.

    A word differing only in case is the suggestion; else the closest by edit distance (ties in alphabetical
    order), within two edits or a third of the word; of a vocabulary larger than MAX_COMPARED, among the
    MAX_COMPARED of a fitting length nearest it alphabetically.
    """
    return _vocabulary(tuple(vocabulary)).suggest(word, limit)


def closest(word: str, vocabulary: Iterable[str], limit: int = 3) -> list[str]:
    """The words of a vocabulary that did_you_mean would suggest for a word, nearest first."""
    return _vocabulary(tuple(vocabulary)).close(word, limit)


def standing_for(unknown: Sequence[str], missing: Sequence[str]) -> list[str | None]:
    """For each unknown key or column of a table, the required one missing from it that it stands for (None: none):
    the nearest, each taken once; then, when one of each is left, that one (a key renamed beyond a suggestion's
    reach, `ident` for `id`, is still one mistake, not an unknown key and a missing one)."""
    left = list(missing)
    meant: list[str | None] = []
    for word in unknown:
        close = closest(word, left, 1)
        if close:
            left.remove(close[0])
        meant.append(close[0] if close else None)
    if meant.count(None) == len(left) == 1:
        meant[meant.index(None)] = left[0]
    return meant


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


class UnreadableData(DataErrors):
    """Data problems found when a data file could not be read at all (missing, unreadable, not UTF-8): the data were
    not checked (a validation could not run), and a command given them stops as for any problem of the data."""


class GridError(DataError):
    """A hex label, coordinate or hexside does not exist on a map's grid."""


class LogSyntaxError(WargameError):
    """A move log does not follow the notation."""


class ReplayError(WargameError):
    """A log entry cannot be resolved against the game state, so the replay stops."""
