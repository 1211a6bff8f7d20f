"""A measured prototype (issue 30 item 2): the board drawn anti-aliased at 1x by aggdraw (AGG, in C) on one canvas.

Not the build's board. The layers are the build's own functions (hex corners, fills, textures, grid, hexsides, rivers,
roads, areas, markers, labels, legend), run on the same 2x layout `render_board` works them out on, so every shape
has the geometry and the whole-pixel widths it has there; only the drawing differs: each call goes to aggdraw, which
maps the 2x canvas's coordinates onto the final image (a transform, in C) and covers each final pixel by the exact
area of the shape. No 2x canvas, no reduction, no bands, no recording. Texts are printed on the final image by the
build's own `_print` (GlyphPrinter), as now.

    python bench/raster_proto.py GAME [--rounds 7] [--crops] [--spot X,Y ...]   # CPU, pixel difference, /tmp/rp-*.png
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import aggdraw  # type: ignore[import-not-found]
except ImportError:  # not a dependency of Umpire: the prototype's own
    sys.exit("bench/raster_proto.py needs aggdraw: pip install aggdraw==1.4.1")
from PIL import Image, ImageChops, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from builder.render import board as board_module  # noqa: E402
from builder.render.board_areas import draw_areas, draw_markers  # noqa: E402
from builder.render.board_canvas import BoardCanvas, Point, PrintedText, hex_corners  # noqa: E402
from builder.render.board_hexsides import draw_hexsides, draw_lines  # noqa: E402
from builder.render.board_labels import draw_hex_labels, draw_places  # noqa: E402
from builder.render.board_legend import draw_strip  # noqa: E402
from builder.render.board_terrain import (  # noqa: E402
    LATE_TEXTURES, PHASED_TEXTURES, TEXTURES, draw_grid, draw_terrain, hatch_lines, hatch_phase, hex_paint,
    stamp_half, stamp_variant,
)
from builder.render.ink import PAPER  # noqa: E402
from wargame.game import Game  # noqa: E402
from wargame.hexes import Hex  # noqa: E402

Colour = str | tuple[int, ...]
FILL_GROWTH = 0.25
"""How far aggdraw's brush spreads a filled shape past its edges, in final pixels (measured: a 10 x 10 square inks
110.25 pixels; a pen's stroke inks its exact width). Boxes (ellipses, rectangles) are drawn that much smaller."""


class AggDraw(ImageDraw.ImageDraw):
    """ImageDraw's calls the board's layers make (line, polygon, ellipse, rectangle, arc, text), given the ss-times
    canvas's coordinates and whole-pixel widths, drawn by aggdraw on the final image, anti-aliased by coverage.
    Measuring (textbbox, textlength) is ImageDraw's, on a stand-in image, in the canvas's coordinates."""

    def __init__(self, stand_in: Image.Image, agg: Any, ss: int, texts: list[PrintedText]) -> None:
        super().__init__(stand_in)
        self.agg = agg
        self.ss = ss
        self.texts = texts
        self._pens: dict[tuple[Colour, float], Any] = {}
        self._brushes: dict[Colour, Any] = {}
        # Canvas pixel k's centre is at k (Pillow); final pixel x spans [x, x + 1) in AGG: u = (c + (ss - 1) / 2 ...)
        # worked out: a final point x is canvas x * ss + (ss - 1) / 2 and AGG x + 0.5.
        k = 1 / ss
        shift = 0.5 - (ss - 1) / (2 * ss)
        agg.settransform((k, 0, shift, 0, k, shift))
        self._grow = FILL_GROWTH * ss  # in canvas pixels

    def pen(self, colour: Colour, width: float) -> Any:
        """A pen of a canvas width."""
        key = (colour, width)
        pen = self._pens.get(key)
        if pen is None:
            pen = self._pens[key] = aggdraw.Pen(colour, width / self.ss)
        return pen

    def brush(self, colour: Colour) -> Any:
        """A brush of a colour."""
        brush = self._brushes.get(colour)
        if brush is None:
            brush = self._brushes[colour] = aggdraw.Brush(colour)
        return brush

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        """A (poly)line with butt ends, as Pillow's; a curved joint as a disc at each inner point."""
        if fill is None or width == 0:
            return
        pen = self._pens.get((fill, width)) or self.pen(fill, width)
        if len(xy) == 2:  # the usual two points (a grid side, a hatch line)
            (ax, ay), (bx, by) = xy
            self.agg.line((ax, ay, bx, by), pen)
            return
        self.agg.line(_flat(xy), pen)
        if joint == "curve" and width > 4 and len(xy) > 2 and not isinstance(xy[0], (int, float)):
            r = width / 2 - self._grow
            brush = self.brush(fill)
            for x, y in xy[1:-1]:
                self.agg.ellipse((x - r, y - r, x + r, y + r), None, brush)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A filled polygon; an outline (rare on the board) as a pen along its edge's inside."""
        if fill is not None:
            self.agg.polygon(_flat(xy), None, self.brush(fill))
        if outline is not None and outline != fill and width:
            self.agg.polygon(_flat(xy), self.pen(outline, width), None)

    def _box(self, shape: Callable[..., None], xy: Any, fill: Any, outline: Any, width: int) -> None:
        """An ellipse or rectangle as Pillow fills one: out to its box's far pixels (half a canvas pixel round), the
        outline `width` canvas pixels inside that."""
        x0, y0, x1, y1 = _flat(xy)
        if fill is not None:
            g = 0.5 - self._grow
            shape((x0 - g, y0 - g, x1 + g, y1 + g), None, self.brush(fill))
        if outline is not None and outline != fill and width:
            g = 0.5 - width / 2
            shape((x0 - g, y0 - g, x1 + g, y1 + g), self.pen(outline, width), None)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """An ellipse."""
        self._box(self.agg.ellipse, xy, fill, outline, width)

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A rectangle."""
        self._box(self.agg.rectangle, xy, fill, outline, width)

    def arc(self, xy: Any, start: float, end: float, fill: Any = None, width: int = 1) -> None:
        """An arc (Pillow's angles run clockwise, AGG's counter-clockwise), its width inside the box as Pillow's."""
        x0, y0, x1, y1 = _flat(xy)
        g = 0.5 - width / 2
        self.agg.arc((x0 - g, y0 - g, x1 + g, y1 + g), -end, -start, self.pen(fill, width))

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None,
             *args: Any, **kwargs: Any) -> None:
        """Text drawn on the canvas (a badge's number, the north arrow's N): printed on the final image after the
        shapes, in a font of the final size."""
        ss = self.ss
        final = ((xy[0] - (ss - 1) / 2) / ss, (xy[1] - (ss - 1) / 2) / ss)
        small = font.font_variant(size=font.size / ss)
        self.texts.append(PrintedText(final, text, small, fill, anchor or "la",
                                      kwargs.get("stroke_width", 0) / ss, kwargs.get("stroke_fill")))


def _flat(xy: Any) -> Sequence[float]:
    """Coordinates as flat numbers."""
    if xy and not isinstance(xy[0], (int, float)):
        return [v for p in xy for v in p]
    return xy  # type: ignore[no-any-return]


@dataclass
class AggCanvas(BoardCanvas):
    """The board's canvas drawn through aggdraw: `paste` and `tint` (an edge area's name, a country's name, a
    boundary's band) are done on the final image, their masks reduced from the canvas's, the AGG buffer copied out
    and back around them."""

    agg: Any = None
    final_image: Image.Image | None = None
    no_hexes: bool = False
    overlays: list[Callable[[Image.Image], None]] = field(default_factory=list)

    def in_view(self, hexes: Any) -> list[Hex]:
        """Every hex, or none while only the coast of `draw_terrain` is wanted."""
        return [] if self.no_hexes else list(hexes)

    def _on_final(self, step: Callable[[Image.Image], None]) -> None:
        """Do a Pillow step on the final image: at once between AGG's calls (`SYNC`: the AGG buffer copied out and
        back, about 13 ms a time for Onslaught), or after AGG's last call, over the shapes drawn since."""
        assert self.final_image is not None
        if not SYNC:
            self.overlays.append(step)
            return
        self.agg.flush()
        step(self.final_image)
        self.agg.frombytes(self.final_image.tobytes())

    def paste(self, im: Image.Image | tuple[int, int, int], xy: tuple[int, int], mask: Image.Image) -> None:
        """Paste an image or a colour through a canvas-sized mask: the mask reduced to final pixels."""
        ss = self.ss
        colour: Any = im if isinstance(im, tuple) else im.getpixel((0, 0))  # a solid image (edge names)
        x, y = xy
        px, py = x % ss, y % ss  # pad so the mask's blocks are the final pixels'
        padded = Image.new("L", (mask.width + px + ss, mask.height + py + ss), 0)
        padded.paste(mask.convert("L"), (px, py))
        small = padded.reduce(ss)
        at = ((x - px) // ss, (y - py) // ss)
        self._on_final(lambda final: final.paste(colour, (*at, at[0] + small.width, at[1] + small.height), small))

    def tint(self, paint: Callable[[Any, int, Point], None], colour: str, alpha: int,
             bounds: tuple[float, float, float, float], smooth: bool = False) -> None:
        """A translucent shape: its mask painted on the canvas's scale (as now), reduced, pasted on the final
        image."""
        ss = self.ss
        x0 = int(bounds[0]) - 2
        y0 = int(bounds[1]) - 2
        x0, y0 = x0 - x0 % ss, y0 - y0 % ss
        w, h = int(bounds[2] - x0) + 4, int(bounds[3] - y0) + 4
        w, h = w + (-w) % ss, h + (-h) % ss
        mask = Image.new("L", (w, h), 0)
        paint(ImageDraw.Draw(mask), 255 if smooth else alpha, (x0, y0))
        small = mask.reduce(ss)
        if smooth:
            small = small.point(lambda v: v * alpha // 255)
        at = (x0 // ss, y0 // ss)
        self._on_final(lambda final: final.paste(colour, (*at, at[0] + small.width, at[1] + small.height), small))


SYNC = False
"""Whether a paste or tint (a country's or an edge area's name, a boundary's band) is done in its layer's turn (the
AGG buffer copied out and back) or over everything once AGG is done (the prototype's default: cheaper, and those
translucent names then lie over the roads and rivers drawn after them)."""
KAPPA = 0.5522847498
"""A quarter circle's cubic Bezier control distance, in radii."""


def _num(v: float) -> str:
    """A number for a symbol's path."""
    return f"{v:.4f}"


def _poly_path(points: Sequence[Point], closed: bool) -> str:
    """A polyline's or polygon's SVG path."""
    head, *rest = points
    text = f"M{_num(head[0])},{_num(head[1])}" + "".join(f" L{_num(x)},{_num(y)}" for x, y in rest)
    return text + (" Z" if closed else "")


def _ellipse_path(x0: float, y0: float, x1: float, y1: float) -> str:
    """An ellipse's SVG path in four cubic arcs."""
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    kx, ky = rx * KAPPA, ry * KAPPA
    n = _num
    return (f"M{n(cx + rx)},{n(cy)} C{n(cx + rx)},{n(cy + ky)} {n(cx + kx)},{n(cy + ry)} {n(cx)},{n(cy + ry)}"
            f" C{n(cx - kx)},{n(cy + ry)} {n(cx - rx)},{n(cy + ky)} {n(cx - rx)},{n(cy)}"
            f" C{n(cx - rx)},{n(cy - ky)} {n(cx - kx)},{n(cy - ry)} {n(cx)},{n(cy - ry)}"
            f" C{n(cx + kx)},{n(cy - ry)} {n(cx + rx)},{n(cy - ky)} {n(cx + rx)},{n(cy)} Z")


Mark = tuple[Any, Any, Any]
"""A symbol, its pen and its brush (either None)."""


class MarkRecorder(ImageDraw.ImageDraw):
    """The ImageDraw calls of one hex's marks (drawn about (0, 0)), turned into aggdraw symbols with the geometry
    `AggDraw` gives each call, to be drawn at every hex that carries them in one call each."""

    def __init__(self, stand_in: Image.Image, like: AggDraw) -> None:
        super().__init__(stand_in)
        self.like = like
        self.paths: list[list[Any]] = []  # each mark's path, pen, brush and whether another may join it
        self.shift = (0, 0)  # subtracted from every point (the hatch is drawn about a stamp's centre)

    def _add(self, path: str, pen: Any, brush: Any, merge: bool = True) -> None:
        """Keep one mark: with the one before it when both have the same pen and brush (one call for both: strokes,
        and boxes, which all wind one way, are drawn as their union, which is what drawing them opaque one after the
        other gives); a polygon's fill (either winding) stays alone."""
        if merge and self.paths and self.paths[-1][1] is pen and self.paths[-1][2] is brush and self.paths[-1][3]:
            self.paths[-1][0] += " " + path
            return
        self.paths.append([path, pen, brush, merge])

    @property
    def marks(self) -> list[Mark]:
        """The marks kept, as symbols."""
        return [(aggdraw.Symbol(path), pen, brush) for path, pen, brush, _ in self.paths]

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        """A (poly)line."""
        if fill is None or width == 0:
            return
        dx, dy = self.shift
        points = [(x - dx, y - dy) for x, y in zip(_flat(xy)[0::2], _flat(xy)[1::2])]
        self._add(_poly_path(points, False), self.like.pen(fill, width), None)
        if joint == "curve" and width > 4 and len(points) > 2:
            r = width / 2 - self.like._grow
            for x, y in points[1:-1]:
                self._add(_ellipse_path(x - r, y - r, x + r, y + r), None, self.like.brush(fill))

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A polygon."""
        points = list(zip(_flat(xy)[0::2], _flat(xy)[1::2]))
        if fill is not None:
            self._add(_poly_path(points, True), None, self.like.brush(fill), merge=False)
        if outline is not None and outline != fill and width:
            self._add(_poly_path(points, True), self.like.pen(outline, width), None)

    def _box(self, ellipse: bool, xy: Any, fill: Any, outline: Any, width: int) -> None:
        """An ellipse or rectangle, as `AggDraw._box`."""
        x0, y0, x1, y1 = _flat(xy)
        shape = _ellipse_path if ellipse else (
            lambda a, b, c, d: _poly_path([(a, b), (c, b), (c, d), (a, d)], True))
        if fill is not None:
            g = 0.5 - self.like._grow
            self._add(shape(x0 - g, y0 - g, x1 + g, y1 + g), None, self.like.brush(fill))
        if outline is not None and outline != fill and width:
            g = 0.5 - width / 2
            self._add(shape(x0 - g, y0 - g, x1 + g, y1 + g), self.like.pen(outline, width), None)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """An ellipse."""
        self._box(True, xy, fill, outline, width)

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A rectangle."""
        self._box(False, xy, fill, outline, width)


def texture_marks(draw: AggDraw, name: str, fill: str, s: float, matrix: Any, variant: int) -> list[Mark]:
    """A texture variant's marks about (0, 0), as symbols (the marks its stamp holds: the same seed)."""
    recorder = MarkRecorder(Image.new("RGB", (1, 1)), draw)
    if name in PHASED_TEXTURES:
        half = stamp_half(s)  # the hatch's lines about the stamp's centre pixel, moved to (0, 0)
        recorder.shift = (half, half)
        hatch_lines(recorder, (half, half), s, matrix, fill, variant)
    else:
        TEXTURES[name](recorder, (0.0, 0.0), s, matrix, random.Random(variant * 31 + zlib.crc32(name.encode())), fill)
    return recorder.marks


STAMPS = True
"""Whether a hex's ground textures (not the hatch, not the late symbols) are drawn once per variant by aggdraw on a
small canvas of the hex's colour and pasted by Pillow at the pixel nearest the hex's centre (the AGG buffer copied
out for the pastes and back), or drawn at each hex as symbols."""


@dataclass
class TextureStamp:
    """A hex's ground textures drawn on its fill at 1x: the pixels, the mask of those the marks touch (pasted
    opaque: their ground is the fill they were drawn on), and the pixel of the hex's centre in them."""

    pixels: Image.Image
    mask: Image.Image
    centre: tuple[int, int]


def ground_stamp(draw: AggDraw, names: tuple[str, ...], fill: str, s: float, matrix: Any, variant: int
                 ) -> TextureStamp:
    """A variant of a hex's ground textures, anti-aliased at final pixels about the centre of a pixel."""
    half = stamp_half(s) // draw.ss + 1
    agg = aggdraw.Draw("RGB", (2 * half, 2 * half), fill)
    k = 1 / draw.ss
    agg.settransform((k, 0, half + 0.5, 0, k, half + 0.5))
    for name in names:
        for symbol, pen, brush in texture_marks(draw, name, fill, s, matrix, variant):
            agg.symbol((0, 0), symbol, pen, brush)
    pixels = Image.frombytes("RGB", (2 * half, 2 * half), agg.tobytes())
    touched = ImageChops.difference(pixels, Image.new("RGB", pixels.size, fill)).convert("L").point(
        lambda v: 255 if v else 0)
    box = touched.getbbox() or (half, half, half + 1, half + 1)
    return TextureStamp(pixels.crop(box), touched.crop(box).convert("1"), (half - box[0], half - box[1]))


def agg_terrain(b: AggCanvas, layer: str) -> None:
    """Fills of every hex (one symbol call per colour), then the ground textures (stamped, `STAMPS`, or each texture
    variant's marks at every hex that carries it, one call per mark), the hatch (symbols by its phase), then the
    coastline by `draw_terrain` itself; or the late symbols."""
    game = b.game
    styles: dict[tuple[str, ...], tuple[str, list[str]]] = {}
    draw, s, matrix = b.draw, b.s, b.matrix
    assert isinstance(draw, AggDraw)
    fills: dict[str, list[float]] = {}
    groups: dict[tuple[int, str, str, int], list[float]] = {}
    stamped: dict[tuple[str, tuple[str, ...], int], list[Point]] = {}
    for h in sorted(game.grid.hexes):
        terrain = game.hex_terrain[h]
        if terrain not in styles:
            styles[terrain] = hex_paint(game, terrain)
        fill, textures = styles[terrain]
        c = b.centre(h)
        if layer != "late":
            fills.setdefault(fill, []).extend(c)
        ground = tuple(name for name in textures if name not in LATE_TEXTURES and name not in PHASED_TEXTURES)
        if STAMPS and layer != "late" and ground:
            stamped.setdefault((fill, ground, stamp_variant(h)), []).append(c)
        for k, name in enumerate(textures):
            if (name in LATE_TEXTURES) != (layer == "late"):
                continue
            if name in PHASED_TEXTURES:  # stamped as the build stamps it: at the centre's pixel, by its phase there
                pixel = (round(c[0]), round(c[1]))
                groups.setdefault((k, name, fill, hatch_phase(s, pixel)), []).extend(pixel)
            elif not (STAMPS and layer != "late"):
                groups.setdefault((k, name, fill, stamp_variant(h)), []).extend(c)
    agg = draw.agg
    if fills:
        hexagon = aggdraw.Symbol(_poly_path(hex_corners((0.0, 0.0), s * 1.003, matrix), True))
        for fill, centres in fills.items():
            agg.symbol(centres, hexagon, None, draw.brush(fill))
    if stamped:
        ss = draw.ss
        shift = 0.5 - (ss - 1) / (2 * ss)

        def paste_stamps(image: Image.Image) -> None:
            for (fill, names, variant), centres in sorted(stamped.items()):
                stamp = ground_stamp(draw, names, fill, s, matrix, variant)
                for cx, cy in centres:
                    # the pixel whose centre is nearest the hex's centre (AGG's x + 0.5 is pixel x's centre)
                    x, y = round(cx / ss + shift - 0.5), round(cy / ss + shift - 0.5)
                    image.paste(stamp.pixels, (x - stamp.centre[0], y - stamp.centre[1]), stamp.mask)
        agg.flush()
        assert b.final_image is not None
        paste_stamps(b.final_image)
        agg.frombytes(b.final_image.tobytes())
    for (_, name, fill, variant), centres in sorted(groups.items()):
        for symbol, pen, brush in texture_marks(draw, name, fill, s, matrix, variant):
            agg.symbol(centres, symbol, pen, brush)
    if layer == "late":
        return
    b.no_hexes = True
    try:
        draw_terrain(b, "ground")  # the shallows and the coastline only
    finally:
        b.no_hexes = False


def render_board_agg(game: Game, scale: float = 1.0) -> Image.Image:
    """The board as `render_board` draws it, drawn by aggdraw at final pixels on one canvas."""
    frame = board_module._frame(game, scale)
    ss = frame.ss
    image = Image.new("RGB", frame.size, PAPER)
    agg = aggdraw.Draw(image)
    stand_in = Image.new("RGB", (1, 1), PAPER)
    texts: list[PrintedText] = []
    draw = AggDraw(stand_in, agg, ss, texts)
    b = AggCanvas(game, frame.layout, frame.fine, stand_in, draw,
                  (frame.board_size[0] * ss, frame.board_size[1] * ss), ss, texts=texts, agg=agg, final_image=image)
    agg_terrain(b, "ground")
    draw_grid(b)
    draw_hex_labels(b)
    draw_areas(b)
    draw_hexsides(b)
    draw_lines(b)
    agg_terrain(b, "late")
    reserved: list[tuple[float, float, float, float]] = []
    draw_markers(b, reserved)
    draw_places(b, reserved)
    draw_strip(b, frame.plan, frame.board_size, frame.items)
    agg.flush()
    for step in b.overlays:
        step(image)
    board_module._print(image, b.texts, None)
    return image


# -- measuring -------------------------------------------------------------------------------
CROP = (380, 240)
"""The size of each crop, in final pixels."""


def save_crops(now: Image.Image, proto: Image.Image, spots: list[tuple[int, int]], path: str) -> None:
    """Crops of both boards at 100%, the current one left, the prototype's right, a row per spot (top-left corners)."""
    w, h = CROP
    out = Image.new("RGB", (2 * w + 10, len(spots) * (h + 10)), "white")
    for k, (x, y) in enumerate(spots):
        out.paste(now.crop((x, y, x + w, y + h)), (0, k * (h + 10)))
        out.paste(proto.crop((x, y, x + w, y + h)), (w + 10, k * (h + 10)))
    out.save(path)


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of a call, and its answer."""
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def main() -> None:
    """Measure the prototype against `render_board`, alternated, and save crops side by side."""
    from wargame.bundled import data_root
    from wargame.game import load_game
    from builder.render.png import png_bytes

    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--crops", action="store_true", help="save both boards to /tmp/rp-GAME-{now,agg}.png")
    parser.add_argument("--spot", action="append", default=[], help="X,Y: a crop of both side by side (repeatable)")
    args = parser.parse_args()
    game = load_game(data_root(), args.game)
    board_module.render_board(game)  # warm: fonts, glyphs, kept rings
    render_board_agg(game)
    now: list[float] = []
    proto: list[float] = []
    now_png: list[float] = []
    proto_png: list[float] = []
    for _ in range(args.rounds):
        t, a = _cpu(lambda: board_module.render_board(game))
        now.append(t)
        now_png.append(t + _cpu(lambda: png_bytes(a))[0])
        t, p = _cpu(lambda: render_board_agg(game))
        proto.append(t)
        proto_png.append(t + _cpu(lambda: png_bytes(p))[0])
    med = statistics.median
    pairs = med(x / y for x, y in zip(proto, now))
    pairs_png = med(x / y for x, y in zip(proto_png, now_png))
    print(f"{args.game}: {a.size[0]} x {a.size[1]}; aggdraw/now, median of pairs: draw {pairs:.2f}, "
          f"draw + encode {pairs_png:.2f}")
    print(f"  board draw      now {med(now):.3f} ({min(now):.3f}-{max(now):.3f})  "
          f"aggdraw {med(proto):.3f} ({min(proto):.3f}-{max(proto):.3f})  ratio {med(proto) / med(now):.2f}")
    print(f"  draw + encode   now {med(now_png):.3f} ({min(now_png):.3f}-{max(now_png):.3f})  "
          f"aggdraw {med(proto_png):.3f} ({min(proto_png):.3f}-{max(proto_png):.3f})  "
          f"ratio {med(proto_png) / med(now_png):.2f}")
    import numpy as np

    da = np.asarray(a, dtype=np.int16)
    dp = np.asarray(p, dtype=np.int16)
    diff = np.abs(da - dp)
    per_pixel = diff.max(axis=2)
    print(f"  mean abs diff {diff.mean():.2f} levels; pixels > 8: {(per_pixel > 8).mean() * 100:.1f}%, "
          f"> 32: {(per_pixel > 32).mean() * 100:.1f}%, max {per_pixel.max()}")
    if args.crops:
        a.save(f"/tmp/rp-{args.game}-now.png")
        p.save(f"/tmp/rp-{args.game}-agg.png")
    if args.spot:
        spots = [(int(x), int(y)) for x, y in (spot.split(",") for spot in args.spot)]
        save_crops(a, p, spots, f"/tmp/rp-{args.game}-crops.png")


if __name__ == "__main__":
    main()
