"""Umpire's shared kernel: hex geometry, layout, data models and loaders."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wargame.errors import DataError, LogSyntaxError, ReplayError, WargameError
    from wargame.hexes import Hex, Hexside

__all__ = ["DataError", "Hex", "Hexside", "LogSyntaxError", "ReplayError", "WargameError"]

_WHERE = {"DataError": "wargame.errors", "LogSyntaxError": "wargame.errors", "ReplayError": "wargame.errors",
          "WargameError": "wargame.errors", "Hex": "wargame.hexes", "Hexside": "wargame.hexes"}


def __getattr__(name: str) -> Any:
    """The kernel's names, imported when first asked for: a module of the package (the command lines' group,
    their exit statuses) is imported without them, so `adjudicate --help` does not import pathlib (PEP 562)."""
    if name in _WHERE:
        from importlib import import_module

        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
