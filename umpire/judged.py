"""A judged game: its replay and how to quote and name its lines (shared by every verdict format)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.engine import Replay
from adjudicator.notation.text import elide_receipts


@dataclass(frozen=True)
class Judged:
    """A replay and how to quote its log: a line's text, and how a line is named for people."""

    result: Replay[Any]
    source_line: Callable[[int], str | None]
    cite: Callable[[int], str]
    name: str


def quoting(source: Sequence[str]) -> Callable[[int], str | None]:
    """A line's text of one log as quoted (receipts elided; None past its ends)."""
    return lambda n: elide_receipts(source[n - 1]) if 0 < n <= len(source) else None
