"""The board's supersampled canvas, its printed texts, and the strokes and colour helpers every layer draws with."""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from PIL import Image, ImageDraw, ImageFont

from builder.render.ink import rgb
from builder.render.insets import kept_rings, mitre_inset, ring_key
from builder.render.window import Band, Recording, ShiftedDraw
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.layout import SQRT3, Layout, OrientationMatrix
from wargame.records import frozen

Point = tuple[float, float]
Segment = tuple[Point, Point]
RGB = tuple[int, int, int]
Draw = ImageDraw.ImageDraw


# -- colours ---------------------------------------------------------------------------------
def shade(colour: str, factor: float) -> RGB:
    """A colour darkened (factor < 1) or lightened toward white (factor > 1)."""
    r, g, b = rgb(colour)
    if factor <= 1:
        return (round(r * factor), round(g * factor), round(b * factor))
    t = min(1.0, factor - 1)
    return (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))


def is_dark(colour: str) -> bool:
    """True when light text reads better on this colour."""
    r, g, b = rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


# -- geometry and strokes --------------------------------------------------------------------
def whole_px(value: float) -> int:
    """A line width or radius in whole pixels, never zero."""
    return max(1, round(value))


def hex_corners(c: Point, s: float, matrix: OrientationMatrix) -> list[Point]:
    """Corners of a hex of circumradius s centred at c (same order as Layout.corners)."""
    return [(c[0] + s * ux, c[1] + s * uy) for ux, uy in matrix.unit_corners]


def in_hex(x: float, y: float, s: float, matrix: OrientationMatrix) -> bool:
    """True if (x, y), relative to a hex centre, lies inside a hex of circumradius s."""
    apothem = s * SQRT3 / 2
    return all(abs(x * cos + y * sin) <= apothem for cos, sin in matrix.side_normals)


def unit_vector(a: Point, b: Point) -> Point:
    """The unit vector from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def midpoint(segment: Segment) -> Point:
    """The middle of a segment."""
    (ax, ay), (bx, by) = segment
    return (ax + bx) / 2, (ay + by) / 2


def sides_of(hexes: Iterable[Hex]) -> Iterable[tuple[Hex, Hex]]:
    """(inside, outside) pairs across the outline of a set of hexes, on or off the map."""
    members = set(hexes)
    for h in sorted(members):
        for n in h.neighbours():
            if n not in members:
                yield h, n


def chain(segments: Iterable[Segment]) -> list[list[Point]]:
    """Join segments that share ends into polylines (so joints and dash patterns flow)."""
    segs = list(segments)

    def key(p: Point) -> tuple[float, float]:
        return (round(p[0], 2), round(p[1], 2))

    ends: dict[tuple[float, float], list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(segs):
        ends[key(a)].append(i)
        ends[key(b)].append(i)
    used = [False] * len(segs)

    def walk(i: int, start: Point) -> list[Point]:
        line = [start]
        point = start
        while True:
            used[i] = True
            a, b = segs[i]
            point = b if key(a) == key(point) else a
            line.append(point)
            nxt = [j for j in ends[key(point)] if not used[j]]
            if len(ends[key(point)]) != 2 or not nxt:
                return line
            i = nxt[0]

    lines: list[list[Point]] = []
    for node in sorted(ends):
        if len(ends[node]) == 2:
            continue
        for i in ends[node]:
            if not used[i]:
                a, b = segs[i]
                lines.append(walk(i, a if key(a) == node else b))
    for i in range(len(segs)):
        if not used[i]:
            lines.append(walk(i, segs[i][0]))
    return lines


def dash_pieces(points: Sequence[Point], on: float, off: float) -> list[list[Point]]:
    """The 'on' pieces of a dash pattern laid along a polyline."""
    pieces: list[list[Point]] = []
    current: list[Point] = [points[0]]
    drawing, left = True, on
    for a, b in zip(points, points[1:]):
        length = math.dist(a, b)
        pos = 0.0
        while length - pos > left:
            pos += left
            t = pos / length
            p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if drawing:
                current.append(p)
                pieces.append(current)
            else:
                current = [p]
            drawing = not drawing
            left = on if drawing else off
        left -= length - pos
        if drawing:
            current.append(b)
    if drawing and len(current) > 1:
        pieces.append(current)
    return pieces


def draw_polyline(draw: Draw, points: Sequence[Point], colour: str | RGB | int, width: float,
                  caps: bool = True) -> None:
    """A polyline with smooth joints and (optionally) round ends."""
    w = whole_px(width)
    draw.line(list(points), fill=colour, width=w, joint="curve")
    if caps and w > 2:
        for x, y in (points[0], points[-1]):
            draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=colour)


def draw_dashed(draw: Draw, points: Sequence[Point], colour: str | RGB, width: float, on: float, off: float) -> None:
    """A dashed polyline."""
    for piece in dash_pieces(points, on, off):
        draw_polyline(draw, piece, colour, width, caps=False)


def draw_dotted(draw: Draw, points: Sequence[Point], colour: str | RGB, radius: float, spacing: float) -> None:
    """Round dots at even spacing along a polyline."""
    carry = 0.0
    for a, b in zip(points, points[1:]):
        length = math.dist(a, b)
        pos = carry
        while pos <= length:
            t = pos / length if length else 0.0
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
            pos += spacing
        carry = pos - length


def inset_rings(polygons: Sequence[Sequence[Point]], inset: float, s: float) -> list[list[Point]]:
    """Outlines of a union of hexes (each its corners), moved `inset` pixels inward (so nested areas both show): the
    bundled games' areas at a picture's scale as kept (builder/render/insets.py), others worked out by shapely."""
    kept = kept_rings(ring_key(polygons, inset, s))
    if kept is not None:
        return kept
    return shapely_inset_rings(polygons, inset, s)


def shapely_inset_rings(polygons: Sequence[Sequence[Point]], inset: float, s: float) -> list[list[Point]]:
    """`inset_rings` worked out by shapely."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    # The tiny outward buffer closes the float-sized gaps between neighbouring hexes.
    eps = 0.01 * s
    region = unary_union([Polygon(p) for p in polygons]).buffer(eps, join_style="mitre").buffer(-eps - inset, join_style="mitre")
    rings: list[list[Point]] = []
    for poly in getattr(region, "geoms", [region]):
        if poly.is_empty:
            continue
        rings.append([(x, y) for x, y in poly.exterior.coords])
        rings.extend([(x, y) for x, y in interior.coords] for interior in poly.interiors)
    return rings


def draw_outlined(draw: Draw, points: Sequence[Point], fill: str | RGB, outline: str | RGB, width: int) -> None:
    """A polygon with an outline `width` pixels wide inside its edge, as ImageDraw draws one,
    but without its mask the size of the whole canvas (30 ms a star on the board)."""
    if isinstance(draw, ShiftedDraw) and draw.misses(points, 1):
        return
    draw.polygon(list(points), fill=outline)
    corners = mitre_inset(points, width)  # shapely's corners, without importing it (a picture's process)
    if corners is not None:
        draw.polygon([*corners, corners[0]], fill=fill)
        return
    from shapely.geometry import Polygon

    inner = Polygon(points).buffer(-width, join_style="mitre")
    for poly in getattr(inner, "geoms", [inner]):
        if not poly.is_empty:
            draw.polygon([(x, y) for x, y in poly.exterior.coords], fill=fill)


# -- the canvas ------------------------------------------------------------------------------
PASTE_BANDS = 4
"""Horizontal bands a translucent paste is split into, one per worker thread at most."""
PASTE_TILE = 128
"""Side of the tiles a colour is pasted through a mask in (`paste_inked`)."""


def paste_inked(image: Image.Image, colour: str | RGB, xy: tuple[int, int], mask: Image.Image) -> None:
    """Paste a colour through a mask with its top-left corner at `xy`, tile by tile, leaving out the tiles the mask
    leaves clear: pasting through a zero leaves a pixel as it was, so the pixels are those of one paste, and a
    boundary's tint (a thin line across its whole bounding box on the supersampled canvas) no longer blends every
    pixel of that box (Pillow's blending was a tenth of Omaha's board)."""
    width, height = mask.size
    for ty in range(0, height, PASTE_TILE):
        for tx in range(0, width, PASTE_TILE):
            tile = mask.crop((tx, ty, min(width, tx + PASTE_TILE), min(height, ty + PASTE_TILE)))
            inked = tile.getbbox()
            if inked is None:
                continue
            left, top = xy[0] + tx + inked[0], xy[1] + ty + inked[1]
            image.paste(colour, (left, top, left + inked[2] - inked[0], top + inked[3] - inked[1]), tile.crop(inked))


@frozen
class PrintedText:
    """Text printed on the final image after the reduction, at final pixels: FreeType
    anti-aliases text itself, so it gains nothing from the supersampled canvas."""

    xy: Point
    text: str
    font: ImageFont.FreeTypeFont
    fill: str | RGB
    anchor: str
    stroke_width: float = 0
    stroke_fill: str | RGB | None = None
    glyphs: bool = False  # set in one font from cached glyphs (the hex labels: many, all alike)


@dataclass
class BoardCanvas:
    """The supersampled canvas and what every drawing step needs."""

    game: Game
    layout: Layout  # the final layout
    fine: Layout  # the same layout ss times larger
    image: Image.Image
    draw: Draw
    board_px: tuple[float, float]  # the map part of the canvas, before the title and legend
    ss: int  # supersampling factor
    texts: list[PrintedText] = field(default_factory=list)  # printed on the final image, in this order
    origin: tuple[int, int] = (0, 0)  # where `image` lies on the whole canvas (not (0, 0): a window of it)
    windowed: bool = False  # `image` is a window of the canvas: hexes away from it are not drawn
    recording: Recording | None = None  # the canvas is recorded (`draw` keeps its calls), `image` a stand-in
    centres: dict[Hex, Point] = field(default_factory=dict, repr=False)
    """Each hex's centre on the canvas, worked out once (a board asked for them some 24,000 times: every layer, and
    both ends of every side); shared with the canvas drawing on a band (`on`)."""

    def on(self, band: Band) -> BoardCanvas:
        """This canvas drawing on a band of it (a recorded step done there)."""
        return replace(self, image=band.image, draw=band.draw, origin=band.origin, recording=None)

    def in_view(self, hexes: Iterable[Hex]) -> list[Hex]:
        """The hexes whose paint can reach the image (all of them unless it is a window), in the order given."""
        if not self.windowed:
            return list(hexes)
        reach = 1.5 * self.s  # a hex's fill, textures, sides and number stay within its circumradius
        x0, y0 = self.origin[0] - reach, self.origin[1] - reach
        x1, y1 = self.origin[0] + self.image.width + reach, self.origin[1] + self.image.height + reach
        return [h for h in hexes if x0 <= (c := self.centre(h))[0] <= x1 and y0 <= c[1] <= y1]

    def reaches(self, hexes: Iterable[Hex]) -> bool:
        """Whether what is drawn inside these hexes can reach the image (always unless it is a window)."""
        if not self.windowed:
            return True
        return bool(self.in_view(hexes))

    def paste(self, im: Image.Image | RGB, xy: tuple[int, int], mask: Image.Image) -> None:
        """Paste an image, or a colour, at a canvas position, through a mask (a colour's box is the mask's)."""
        if self.recording is not None:
            self.recording.later(xy[1], xy[1] + mask.height,
                                 lambda band: band.image.paste(im, (xy[0] - band.origin[0], xy[1] - band.origin[1]),
                                                               mask))
            return
        self.image.paste(im, (xy[0] - self.origin[0], xy[1] - self.origin[1]), mask)

    @property
    def s(self) -> float:
        """Hex circumradius on the canvas."""
        return self.fine.size_px

    @property
    def matrix(self) -> OrientationMatrix:
        """The orientation matrix the hexes are drawn with."""
        return self.fine.matrix

    def at(self, x: float, y: float) -> Point:
        """A final-image point on the canvas."""
        # Layout points are pixel centres (what VASSAL snaps to); a final pixel's centre is
        # the middle of its ss x ss block.
        return x * self.ss + (self.ss - 1) / 2, y * self.ss + (self.ss - 1) / 2

    def final(self, x: float, y: float) -> Point:
        """A canvas point on the final image (the inverse of `at`)."""
        return (x - (self.ss - 1) / 2) / self.ss, (y - (self.ss - 1) / 2) / self.ss

    def centre(self, h: Hex) -> Point:
        """A hex centre on the canvas."""
        centre = self.centres.get(h)
        if centre is None:
            centre = self.centres[h] = self.fine.centre(h)
        return centre

    def segment(self, side: Hexside) -> Segment:
        """A hexside's two corners on the canvas (`Layout.hexside_ends`, from the centres kept)."""
        return self.fine.ends_between(self.centre(side.a), self.centre(side.b))

    def side_between(self, h: Hex, n: Hex) -> Segment:
        """The two corners of the side between two neighbouring hexes, as `segment` gives them for that side (its
        smaller hex first), without making the side."""
        return self.fine.ends_between(self.centre(n), self.centre(h)) if n < h else \
            self.fine.ends_between(self.centre(h), self.centre(n))

    def tint(self, paint: Callable[[Draw, int, Point], None], colour: str, alpha: int,
             bounds: tuple[float, float, float, float], smooth: bool = False) -> None:
        """Draw something translucent: `paint` draws it into a mask with the ink it is given.

        The mask covers only `bounds` (canvas pixels, what `paint` may touch); `paint` gets the
        mask's top-left corner on the canvas to subtract. ImageDraw's lines and shapes are not
        anti-aliased, so their mask is drawn at `alpha` directly; a `smooth` painter (text)
        draws at 255 and its mask is scaled to `alpha`.
        """
        if self.recording is not None:
            self.recording.later(bounds[1] - 1, bounds[3] + 1,
                                 lambda band: self.on(band).tint(paint, colour, alpha, bounds, smooth))
            return
        ox, oy = self.origin
        x0, y0 = max(ox, math.floor(bounds[0])), max(oy, math.floor(bounds[1]))
        x1 = min(ox + self.image.width, math.ceil(bounds[2]) + 1)
        y1 = min(oy + self.image.height, math.ceil(bounds[3]) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        paint(ImageDraw.Draw(mask), 255 if smooth else alpha, (x0, y0))
        box = mask.getbbox()
        if box is None:
            return
        opacity = mask.crop(box)
        if smooth:
            opacity = opacity.point(lambda v: v * alpha // 255)
        x0, y0, x1, y1 = box[0] + x0 - ox, box[1] + y0 - oy, box[2] + x0 - ox, box[3] + y0 - oy  # on the image
        # Pasting a colour through a mask blends it at the mask's opacity, in place; each pixel
        # on its own, so horizontal bands on worker threads (Pillow releases the GIL) give the same.
        bands = max(1, min(PASTE_BANDS, os.cpu_count() or 1, (y1 - y0) // 256))
        edges = [y0 + (y1 - y0) * k // bands for k in range(bands + 1)]

        def band(k: int) -> None:
            top, bottom = edges[k], edges[k + 1]
            paste_inked(self.image, colour, (x0, top), opacity.crop((0, top - y0, x1 - x0, bottom - y0)))

        if bands == 1:
            paste_inked(self.image, colour, (x0, y0), opacity)
            return
        from concurrent.futures import ThreadPoolExecutor  # here: a picture's small pastes never need it (logging)

        with ThreadPoolExecutor(bands) as pool:
            list(pool.map(band, range(bands)))
