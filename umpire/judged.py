"""A judged game: its replay and how to quote and name its lines (shared by every verdict format)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.engine import Replay


@dataclass(frozen=True)
class Judged:
    """A replay and how to quote its log: a line's text, and how a line is named for people."""

    result: Replay[Any]
    source_line: Callable[[int], str | None]
    cite: Callable[[int], str]
    name: str

