"""Drawing on a window of a larger canvas: shapes given in the whole canvas's pixels, drawn into an image that
holds only the part a picture shows (a finding's picture needs a few hexes, not the whole board supersampled); and a
recording of a whole canvas's drawing, drawn band by band (the build's board: its supersampled canvas never whole)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from wargame.records import frozen

Offset = tuple[int, int]
Coords = Sequence[float] | Sequence[Sequence[float]]
"""Points as ImageDraw takes them: flat numbers or pairs."""
Ink = float | tuple[int, ...] | str | None
MOVED = frozenset({"draw_arc", "draw_bitmap", "draw_chord", "draw_ellipse", "draw_lines", "draw_pieslice",
                   "draw_points", "draw_polygon", "draw_rectangle"})
"""The core's drawing calls whose first argument is coordinates (the others, draw_ink, pass through)."""
NUMBERS = (int, float)
"""What a flat list of coordinates holds (else it holds pairs)."""


def moved(xy: Coords, offset: Offset) -> Coords:
    """Coordinates (flat numbers or pairs) moved `offset` pixels up and left (whole numbers kept whole: a
    bitmap's corner must be)."""
    dx, dy = offset
    if xy and not isinstance(xy[0], NUMBERS):  # not an ABC check: this runs for every call a band draws
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


@frozen
class Band:
    """A band of a recorded canvas being drawn: its image, a drawing on it in the canvas's coordinates, and where
    it lies on the canvas."""

    image: Image.Image
    draw: ShiftedDraw
    origin: Offset


Later = Callable[[Band], None]
"""A step kept whole (a translucent paste, a stamp), done on each band it may reach."""
Call = tuple[str, tuple[Any, ...]] | tuple[None, Later]
"""A drawing core call (its name and arguments, in the canvas's pixels) or a step kept whole."""


class Recording:
    """A canvas's drawing kept call by call, each filed under the bands of rows it may reach, in drawing order, so
    that every band can be drawn alone with the whole canvas's calls (the work that decides what to draw, such as
    place names kept clear of each other and chained rivers, done once for all bands).

    The calls are Pillow's drawing core's, after ImageDraw has worked out every point, arc and text position in the
    canvas's pixels, and each is filed already moved onto its band (bands run across the whole canvas: moved up by
    whole pixels only, as a window's are, see `ShiftedDraw`)."""

    def __init__(self, bands: Sequence[tuple[int, int, int]]) -> None:
        # Each band's rows on the canvas: the top of its image, and the first and the end of the rows it is drawn
        # for (its image reaches higher, where a shape reaching those rows from above must have no negative
        # coordinate); each increasing. A call is filed under the bands whose own rows it reaches only.
        self.bands = list(bands)
        self._tops = [top for top, _, _ in self.bands]
        self._starts = [start for _, start, _ in self.bands]
        self._ends = [end for _, _, end in self.bands]
        self.calls: list[list[Call]] = [[] for _ in self.bands]

    def _reached(self, y0: float, y1: float) -> range:
        """The bands whose own rows y0..y1 reach."""
        return range(bisect.bisect_left(self._ends, y0), bisect.bisect_right(self._starts, y1))

    def keep(self, name: str, args: tuple[Any, ...]) -> None:
        """Keep a drawing core call, moved onto each band it may reach."""
        # Written out (this runs for every call of the board, some 25,000): the rows reached worked out for the
        # usual boxes and two-point lines without lists, then the points moved up by each band's top.
        xy = args[0]
        flat = isinstance(xy[0], NUMBERS)
        if name == "draw_bitmap":
            y0, y1 = xy[1], xy[1] + args[1].size[1]
        else:
            at = WIDTH_AT.get(name, 0)
            reach = (args[at] if 0 < at < len(args) else 1) + 2
            if flat and len(xy) == 4:
                low, high = (xy[1], xy[3]) if xy[1] <= xy[3] else (xy[3], xy[1])
            elif not flat and len(xy) == 2:
                low, high = (xy[0][1], xy[1][1]) if xy[0][1] <= xy[1][1] else (xy[1][1], xy[0][1])
            else:
                ys = xy[1::2] if flat else [p[1] for p in xy]
                low, high = min(ys), max(ys)
            y0, y1 = low - reach, high + reach
        first, end = bisect.bisect_left(self._ends, y0), bisect.bisect_right(self._starts, y1)
        for k in range(first, end):
            dy = self._tops[k]
            if not dy:
                self.calls[k].append((name, args))
            elif not flat:
                if len(xy) == 2:
                    (ax, ay), (bx, by) = xy
                    self.calls[k].append((name, ([(ax, ay - dy), (bx, by - dy)], *args[1:])))
                else:
                    self.calls[k].append((name, ([(x, y - dy) for x, y in xy], *args[1:])))
            elif len(xy) == 4:
                self.calls[k].append((name, ((xy[0], xy[1] - dy, xy[2], xy[3] - dy), *args[1:])))
            else:
                self.calls[k].append((name, (tuple(v - dy if i % 2 else v for i, v in enumerate(xy)), *args[1:])))

    def later(self, y0: float, y1: float, step: Later) -> None:
        """Keep a step that draws within rows y0..y1, to be done on each band they reach."""
        for k in self._reached(y0, y1):
            self.calls[k].append((None, step))

    def draw(self, k: int, band: Band) -> None:
        """Draw band k's calls on its image (at (0, its top) on the canvas), in the order they were made."""
        if band.origin != (0, self._tops[k]):
            raise ValueError(f"band {k} lies at {(0, self._tops[k])} on the canvas, not {band.origin}")
        core = band.draw.draw.core if isinstance(band.draw.draw, _MovedCore) else band.draw.draw
        methods: dict[str, Callable[..., Any]] = {}
        for name, args in self.calls[k]:
            if name is None:
                args(band)  # type: ignore[operator]
                continue
            method = methods.get(name)
            if method is None:
                method = methods[name] = getattr(core, name)
            method(*args)  # type: ignore[misc]


WIDTH_AT: dict[str, int] = {"draw_lines": 2, "draw_polygon": 3, "draw_ellipse": 3, "draw_rectangle": 3, "draw_arc": 4,
                            "draw_chord": 5, "draw_pieslice": 5}
"""Where each core call takes its line width (absent: 1), for how far its pixels reach beyond its points."""


def forward(xy: Coords) -> Coords:
    """A two-point line's points in the order Pillow centres it at an even width: it widens such a line by a pixel
    more on one side of its travel, so one drawn toward -x or -y lands a pixel off its points (half a final pixel on
    a board at 2x; a grid line right to left filled the hex row above its side). Toward +x+y it lands where they say,
    on average over their fractions (measured in tests/test_board_lines.py); longer lines are left as they are."""
    if not isinstance(xy[0], NUMBERS):
        if len(xy) == 2:
            (ax, ay), (bx, by) = xy  # type: ignore[misc]
            return [(bx, by), (ax, ay)] if bx - ax + by - ay < -BACKWARD else xy
    elif len(xy) == 4 and xy[2] - xy[0] + xy[3] - xy[1] < -BACKWARD:  # type: ignore[operator]
        return (xy[2], xy[3], xy[0], xy[1])  # type: ignore[return-value]
    return xy


BACKWARD = 1e-9
"""How far toward -x-y a line must run to be turned (`forward`): a line along x + y = const (the hatch) runs neither
way, and rounding in its ends' last bits must not turn it one time and not the next (its stamp, drawn at another
place, must have its pixels)."""


def _ys(xy: Coords) -> Sequence[float]:
    """The y of every point of coordinates (flat numbers or pairs)."""
    if isinstance(xy[0], NUMBERS):
        return xy[1::2]  # type: ignore[return-value]
    return [p[1] for p in xy]  # type: ignore[index]


class _RecordingCore:
    """Pillow's drawing core for a canvas that is never made whole: every drawing call is kept in a `Recording`
    (measuring and inks are the real core's, of a stand-in image of the canvas's mode)."""

    def __init__(self, core: Any, recording: Recording) -> None:
        self.core = core
        self.recording = recording

    def __getattr__(self, name: str) -> Any:
        if name == "draw_outline":
            raise NotImplementedError("ImageDraw.shape is not recorded")
        if name not in MOVED:
            method = getattr(self.core, name)
            setattr(self, name, method)  # found without __getattr__ from now on (draw_ink: every shape)
            return method

        recording = self.recording

        def keep(*args: Any) -> None:
            recording.keep(name, args)
        setattr(self, name, keep)  # found without __getattr__ from now on
        return keep


class ShiftedDraw(ImageDraw.ImageDraw):
    """An ImageDraw on an image that is the window at `offset` of a larger canvas, given that canvas's
    coordinates; measuring (textbbox, textlength) stays in the canvas's coordinates. With `skip_outside`,
    a line or shape whose every point lies away from the image is not drawn at all (it would draw no pixel); with
    `even_forward`, a two-point line of even width is drawn toward +x+y (`forward`)."""

    def __init__(self, im: Image.Image, offset: Offset = (0, 0), mode: str | None = None,
                 skip_outside: bool = False, recording: Recording | None = None, even_forward: bool = False) -> None:
        super().__init__(im, mode)
        self.offset = offset
        self.skip_outside = skip_outside
        self.even_forward = even_forward
        self.recording = recording  # with one, `im` is a stand-in: every call is kept, none drawn
        if recording is not None:
            self.draw: Any = _RecordingCore(self.draw, recording)
        elif offset != (0, 0):
            self.draw = _MovedCore(self.draw, offset)

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
            super().line(forward(xy) if self.even_forward and not width % 2 else xy, fill, width, joint)

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
        if self.recording is not None and outline is not None and width > 1:
            ys = _ys(xy)

            def wide(band: Band) -> None:
                band.draw.polygon(xy, fill, outline, width)
            self.recording.later(min(ys) - width - 2, max(ys) + width + 2, wide)
            return
        if outline is None or width <= 1 or self.offset == (0, 0):
            super().polygon(xy, fill, outline, width)
            return
        moving, self.draw = self.draw, self.draw.core
        try:
            super().polygon(moved(xy, self.offset), fill, outline, width)
        finally:
            self.draw = moving


class RecordingDraw(ShiftedDraw):
    """A ShiftedDraw whose canvas is recorded: lines, ellipses, rectangles and plain polygons filed straight into the
    `Recording` as the core calls ImageDraw would make, each colour turned into the core's ink once (a board makes
    about 25,000 such calls, most of their cost ImageDraw's colour lookup and the recording core's dispatch).
    Anything else (a curved joint, a wide polygon outline, a default ink) goes through ImageDraw as before."""

    def __init__(self, im: Image.Image, recording: Recording) -> None:
        super().__init__(im, recording=recording, even_forward=True)
        self._inks: dict[object, int] = {}
        self._keep = recording.keep

    def _ink(self, colour: Ink) -> int:
        """The core's ink for a colour given as ImageDraw takes it (a name, an RGB tuple or a number)."""
        try:
            return self._inks[colour]
        except KeyError:
            pass
        except TypeError:  # a colour that cannot be a key (a list): looked up each time
            return self._getink(colour)[0]  # type: ignore[return-value]
        ink = self._getink(colour)[0]
        self._inks[colour] = ink  # type: ignore[assignment]
        return ink  # type: ignore[return-value]

    def line(self, xy: Coords, fill: Ink = None, width: int = 0, joint: str | None = None) -> None:
        """A line, as ImageDraw.line files it."""
        if fill is None or (joint == "curve" and width > 4):
            super().line(xy, fill, width, joint)
        elif width != 0:
            self._keep("draw_lines", (xy if width % 2 else forward(xy), self._ink(fill), width))

    def ellipse(self, xy: Coords, fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """An ellipse, as ImageDraw.ellipse files it."""
        if fill is None and outline is None:
            super().ellipse(xy, fill, outline, width)
        else:
            self._fill_and_outline("draw_ellipse", xy, fill, outline, width)

    def rectangle(self, xy: Coords, fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """A rectangle, as ImageDraw.rectangle files it."""
        if fill is None and outline is None:
            super().rectangle(xy, fill, outline, width)
        else:
            self._fill_and_outline("draw_rectangle", xy, fill, outline, width)

    def _fill_and_outline(self, core: str, xy: Coords, fill: Ink, outline: Ink, width: int) -> None:
        """An ellipse's or a rectangle's fill, then its outline where it differs, as ImageDraw files the two."""
        fill_ink = None if fill is None else self._ink(fill)
        if fill_ink is not None:
            self._keep(core, (xy, fill_ink, 1))
        ink = None if outline is None else self._ink(outline)
        if ink is not None and ink != fill_ink and width != 0:
            self._keep(core, (xy, ink, 0, width))

    def polygon(self, xy: Coords, fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """A polygon, as ImageDraw.polygon files it (a wide outline as ShiftedDraw keeps it)."""
        if (fill is None and outline is None) or (outline is not None and width > 1):
            super().polygon(xy, fill, outline, width)
            return
        fill_ink = None if fill is None else self._ink(fill)
        if fill_ink is not None:
            self._keep("draw_polygon", (xy, fill_ink, 1))
        ink = None if outline is None else self._ink(outline)
        if ink is not None and ink != fill_ink and width != 0:
            self._keep("draw_polygon", (xy, ink, 0, width))


__all__ = ["Band", "Coords", "Ink", "Offset", "Recording", "RecordingDraw", "ShiftedDraw", "forward", "moved"]
