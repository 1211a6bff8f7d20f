"""Drawing on a window of a larger canvas: shapes given in the whole canvas's pixels, drawn into an image that
holds only the part a picture shows (a finding's picture needs a few hexes, not the whole board at 3x)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

Offset = tuple[int, int]
Coords = Sequence[float] | Sequence[Sequence[float]]
"""Points as ImageDraw takes them: flat numbers or pairs."""
Ink = float | tuple[int, ...] | str | None
MOVED = frozenset({"draw_arc", "draw_bitmap", "draw_chord", "draw_ellipse", "draw_lines", "draw_pieslice",
                   "draw_points", "draw_polygon", "draw_rectangle"})
"""The core's drawing calls whose first argument is coordinates (the others, draw_ink, pass through)."""


def moved(xy: Coords, offset: Offset) -> Coords:
    """Coordinates (flat numbers or pairs) moved `offset` pixels up and left (whole numbers kept whole: a
    bitmap's corner must be)."""
    dx, dy = offset
    if xy and isinstance(xy[0], Sequence):
        return [(p[0] - dx, p[1] - dy) for p in xy]  # type: ignore[index]
    return tuple(v - (dy if i % 2 else dx) for i, v in enumerate(xy))  # type: ignore[operator]


class _MovedCore:
    """Pillow's drawing core for an image, every shape's coordinates moved by the window's offset.

    The move happens after ImageDraw has worked out every point, arc and text position in the whole canvas's
    pixels, and only by whole pixels, so the window's pixels are the whole canvas's pixels there (a text's
    sub-pixel start, a curve's joints and a dash's phase are those of the whole canvas)."""

    def __init__(self, core: Any, offset: Offset) -> None:
        self.core = core
        self.offset = offset

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.core, name)
        if name == "draw_outline":
            raise NotImplementedError("ImageDraw.shape is not drawn through a window")
        if name not in MOVED:
            return method

        def draw_moved(xy: Coords, *args: Any) -> Any:
            return method(moved(xy, self.offset), *args)
        return draw_moved


class ShiftedDraw(ImageDraw.ImageDraw):
    """An ImageDraw on an image that is the window at `offset` of a larger canvas, given that canvas's
    coordinates; measuring (textbbox, textlength) stays in the canvas's coordinates. With `skip_outside`,
    a line or shape whose every point lies away from the image is not drawn at all (it would draw no pixel)."""

    def __init__(self, im: Image.Image, offset: Offset = (0, 0), mode: str | None = None,
                 skip_outside: bool = False) -> None:
        super().__init__(im, mode)
        self.offset = offset
        self.skip_outside = skip_outside
        if offset != (0, 0):
            self.draw: Any = _MovedCore(self.draw, offset)

    def misses(self, xy: Coords, reach: float) -> bool:
        """Whether every point of `xy` lies more than `reach` pixels outside the image (never without
        `skip_outside`)."""
        if not self.skip_outside:
            return False
        if not xy:
            return False
        # Written out for the usual lists of pairs: this runs for every shape of a window.
        if isinstance(xy[0], Sequence):
            xs, ys = [p[0] for p in xy], [p[1] for p in xy]  # type: ignore[index]
        else:
            xs, ys = xy[0::2], xy[1::2]  # type: ignore[assignment]
        x0, y0 = self.offset
        return (max(xs) + reach < x0 or min(xs) - reach > x0 + self.im.size[0]
                or max(ys) + reach < y0 or min(ys) - reach > y0 + self.im.size[1])

    def line(self, xy: Coords, fill: Ink = None, width: int = 0, joint: str | None = None) -> None:
        """A line, unless it is away from the image."""
        if not self.misses(xy, width + 2):
            super().line(xy, fill, width, joint)

    def ellipse(self, xy: Coords, fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """An ellipse, unless it is away from the image."""
        if not self.misses(xy, width + 2):
            super().ellipse(xy, fill, outline, width)

    def rectangle(self, xy: Coords, fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """A rectangle, unless it is away from the image."""
        if not self.misses(xy, width + 2):
            super().rectangle(xy, fill, outline, width)

    def polygon(self, xy: Coords, fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """A polygon, unless it is away from the image; a wide outline is drawn through a mask of the window's
        size, so it is moved here."""
        if self.misses(xy, width + 2):
            return
        if outline is None or width <= 1 or self.offset == (0, 0):
            super().polygon(xy, fill, outline, width)
            return
        moving, self.draw = self.draw, self.draw.core
        try:
            super().polygon(moved(xy, self.offset), fill, outline, width)
        finally:
            self.draw = moving


__all__ = ["Coords", "Ink", "Offset", "ShiftedDraw", "moved"]
