"""Fonts and colours shared by every picture the builder draws."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).resolve().parent.parent / "fonts"
INK = "#1e1e1e"
PAPER = "#fbf8ef"


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans (draws accented names on any machine)."""
    name = "DejaVuSans-Bold.ttf" if bold else ("DejaVuSansCondensed.ttf" if condensed else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), max(1, size))
