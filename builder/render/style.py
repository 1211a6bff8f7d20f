"""The house font and colours under their first name: builder.render.board imports them from here till its split."""

from __future__ import annotations

from builder.render.ink import FONTS, INK, PAPER, font

__all__ = ["FONTS", "INK", "PAPER", "font"]
