"""Umpire's shared kernel: hex geometry, layout, data models and loaders."""

from wargame.errors import DataError, LogSyntaxError, ReplayError, WargameError
from wargame.hexes import Hex, Hexside

__all__ = ["DataError", "Hex", "Hexside", "LogSyntaxError", "ReplayError", "WargameError"]
