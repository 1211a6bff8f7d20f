"""A judged game: its replay, its verdict, and how to quote and name its lines (shared by every verdict format)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine import Replay
from adjudicator.verdict import Verdict
from wargame.records import frozen


@frozen
class Judged:
    """A replay, the verdict on it, and how to quote its log: a line's text, and how a line is named for people."""

    result: Replay[Any]
    source_line: Callable[[int], str | None]
    cite: Callable[[int], str]
    name: str
    locate: Callable[[int], tuple[str, int]]
    """A line of the replay as the verdict cites it: its file and its line (VASSAL step) there."""
    verdict: Verdict
    """The verdict document every format renders (the pictures are added to it for a page)."""
