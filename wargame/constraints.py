"""Constraints on plain data classes that pydantic honours when it validates them, importing nothing of pydantic.

The loaded game and the log's entries are plain frozen dataclasses, so that a check of a log whose game is kept
between runs never imports pydantic (issue 30, item 1); pydantic validates them only where data are read from
files (`pydantic.TypeAdapter(TheClass)`), reading these markers beside annotated_types' Ge, Gt, Le, MinLen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

FORBID_EXTRA: dict[str, str] = {"extra": "forbid"}
"""A dataclass's `__pydantic_config__`: unknown keys refused (a pydantic ConfigDict is a plain dict)."""


class Pattern:
    """A string that must match `pattern` (and be at most `max_length` long), as pydantic's StringConstraints."""

    __slots__ = ("pattern", "max_length")

    def __init__(self, pattern: str, max_length: int | None = None) -> None:
        self.pattern = pattern
        self.max_length = max_length

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r}, max_length={self.max_length!r})"

    def __get_pydantic_core_schema__(self, source: type, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The string schema pydantic validates with (imported only when a validator is built)."""
        from pydantic_core import core_schema
        return core_schema.str_schema(pattern=self.pattern, max_length=self.max_length)
