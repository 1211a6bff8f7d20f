"""Hex terrain on the board: fill colours and textures, the coastline and the hex grid."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal

from PIL import Image

from builder.render.board_canvas import (
    RGB, BoardCanvas, Draw, Point, Segment, chain, draw_polyline, hex_corners, in_hex, shade, unit_vector,
    whole_px,
)
from builder.render.ink import INK, PAPER, rgb
from builder.render.window import ShiftedDraw
from wargame.game import Game
from wargame.hexes import Hex
from wargame.layout import SQRT3, OrientationMatrix
from wargame.records import frozen


# -- styles ---------------------------------------------------------------------------------
@frozen
class HexStyle:
    """How a hex terrain is painted: a fill colour and an optional texture (key of TEXTURES)."""

    fill: str
    texture: str | None = None


# Fills are used only where terrain.toml gives no colour. Neighbouring terrains differ in
# lightness as well as hue, and every terrain but clear carries a texture, so no distinction
# rests on red-green hue alone.
HEX_STYLES: dict[str, HexStyle] = {
    "clear": HexStyle("#f2ecd0"),
    "forest": HexStyle("#6f9e5b", "trees"),
    "woods": HexStyle("#6f9e5b", "trees"),
    "mixed": HexStyle("#c6d59c", "scrub"),
    "rough": HexStyle("#b59a6d", "peaks"),
    "broken": HexStyle("#dcc894", "stipple"),
    "bocage": HexStyle("#a8c27a", "hedges"),
    "marsh": HexStyle("#bcdccb", "tufts"),
    "town": HexStyle("#e6dccb", "houses"),
    "city": HexStyle("#c9c3bb", "blocks"),
    "fortification": HexStyle("#8d8478", "fort"),
    "sea": HexStyle("#9cc3e0", "waves"),
    "neutral": HexStyle("#d9d4c7", "hatch"),
}
# Words in a terrain id this palette does not know that suggest a texture: map data is
# authored independently of this file, so a new id still gets a sensible look.
TEXTURE_HINTS: tuple[tuple[str, str], ...] = (
    ("wood", "trees"), ("forest", "trees"), ("jungle", "trees"), ("mixed", "scrub"), ("scrub", "scrub"),
    ("marsh", "tufts"), ("swamp", "tufts"), ("bog", "tufts"), ("polder", "tufts"),
    ("village", "houses"), ("town", "houses"), ("city", "blocks"), ("urban", "blocks"),
    ("rough", "peaks"), ("hill", "peaks"), ("mountain", "peaks"), ("broken", "stipple"),
    ("sand", "stipple"), ("dune", "stipple"), ("hedge", "hedges"), ("bocage", "hedges"),
    ("sea", "waves"), ("lake", "waves"), ("water", "waves"), ("fort", "fort"), ("neutral", "hatch"),
)
FALLBACK_FILLS = ("#e0d3a8", "#c7d9b0", "#d6c3d9", "#bfd4dc", "#e3c9a8", "#cfcfb0")
# Textures that mark something built on the hex rather than its ground: drawn over the fill
# of the hex's other terrain.
OVERLAY_TEXTURES = frozenset({"fort"})
# Symbols drawn after roads and rivers, as on a printed map, so a road never hides a town.
LATE_TEXTURES = frozenset({"fort", "houses"})


GRID_ALPHA = 80  # hex grid lines: ink at this opacity, so they stay quiet over every fill
COAST = "#3f79aa"
SHALLOWS = "#bcd8ec"


def _scatter(c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, spacing: float,
             jitter: float = 0.3, inset: float = 0.8, top: float = -0.45) -> list[Point]:
    """Jittered lattice points inside a hex, kept below the band where the hex label sits."""
    step = spacing * s
    n = int(1 / spacing) + 2
    points: list[Point] = []
    # in_hex and rng.uniform(-jitter, jitter) written out: this runs for every lattice point.
    (c1, s1), (c2, s2), (c3, s3) = matrix.side_normals
    apothem = s * inset * SQRT3 / 2
    low, span, rand = -jitter, 2 * jitter, rng.random
    for j in range(-n, n + 1):
        for i in range(-n, n + 1):
            x = (i + (j % 2) * 0.5) * step + (low + span * rand()) * step
            y = j * step * SQRT3 / 2 + (low + span * rand()) * step
            if (y >= top * s and abs(x * c1 + y * s1) <= apothem and abs(x * c2 + y * s2) <= apothem
                    and abs(x * c3 + y * s3) <= apothem):
                points.append((c[0] + x, c[1] + y))
    return points


def _stroke(ink: RGB, fill: str, width: float) -> tuple[RGB, int]:
    """A texture's line on the hex's ground: its whole-pixel width, and its ink mixed toward the ground by as much
    as that width rounds up, so the line lays down the ink of its exact width at any supersampling (at 2x a hatch
    line of 1.6 canvas pixels drawn 2 wide darkened a neutral hex by half as much again as at 3x)."""
    whole = whole_px(width)
    if whole <= width:
        return ink, whole
    ground, share = rgb(fill), width / whole
    return tuple(round(g + (k - g) * share) for g, k in zip(ground, ink)), whole  # type: ignore[return-value]


def dot_box_radius(radius: float) -> float:
    """The half-size of the box a dot of a radius is drawn in: Pillow fills an ellipse's box out to its far pixels,
    about half a pixel more all round than the circle, so a stipple dot came out 1.7 times its area at 2x
    supersampling (1.3 at 3x); 0.4 pixel in, it inks its circle's area within a sixth on average, at either
    (measured over sub-pixel positions in tests/test_board_lines.py)."""
    return max(0.5, radius - 0.4)


# -- terrain textures -------------------------------------------------------------------
# Each draws inside one hex of circumradius s centred at c; `fill` is the hex's ground colour.
Texture = Callable[[Draw, Point, float, OrientationMatrix, random.Random, str], None]


def _trees(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Round-topped trees, drawn back to front."""
    dark, light = shade(fill, 0.55), shade(fill, 1.18)
    trunk_ink, trunk_px = _stroke((96, 72, 44), fill, s * 0.03)
    for x, y in sorted(_scatter(c, s, matrix, rng, 0.3, top=-0.38), key=lambda p: (p[1], p[0])):
        r = s * 0.1 * rng.uniform(0.85, 1.15)
        draw.line([(x, y), (x, y + r * 1.25)], fill=trunk_ink, width=trunk_px)
        draw.ellipse((x - r, y - r * 1.25, x + r, y + r * 0.55), fill=light, outline=dark, width=whole_px(s * 0.022))


def _scrub(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Scattered small trees and bushes (mixed ground)."""
    dark = shade(fill, 0.5)
    for x, y in _scatter(c, s, matrix, rng, 0.42, jitter=0.35):
        r = s * 0.065 * rng.uniform(0.8, 1.2)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=shade(fill, 0.78), outline=dark, width=whole_px(s * 0.018))


def _peaks(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Hill hachures: peaks shaded on their eastern flank."""
    shadow = shade(fill, 0.8)
    dark, width = _stroke(shade(fill, 0.45), fill, s * 0.03)
    for x, y in _scatter(c, s, matrix, rng, 0.4, jitter=0.22, top=-0.35):
        w, h = s * 0.15 * rng.uniform(0.85, 1.15), s * 0.14 * rng.uniform(0.85, 1.2)
        draw.polygon([(x, y - h / 2), (x + w, y + h / 2), (x + w * 0.15, y + h / 2)], fill=shadow)
        draw.line([(x - w, y + h / 2), (x, y - h / 2), (x + w, y + h / 2)], fill=dark, width=width, joint="curve")


def _stipple(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Fine random dots (broken ground)."""
    dark = shade(fill, 0.55)
    r = dot_box_radius(s * 0.022)
    # in_hex and rng.uniform(-s, s) written out, as in _scatter.
    (c1, s1), (c2, s2), (c3, s3) = matrix.side_normals
    apothem = s * 0.9 * SQRT3 / 2
    span, rand, ellipse = s - -s, rng.random, draw.ellipse
    for _ in range(60):
        x, y = -s + span * rand(), -s + span * rand()
        if (y >= -0.45 * s and abs(x * c1 + y * s1) <= apothem and abs(x * c2 + y * s2) <= apothem
                and abs(x * c3 + y * s3) <= apothem):
            ellipse((c[0] + x - r, c[1] + y - r, c[0] + x + r, c[1] + y + r), fill=dark)


def _hedges(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Small hedged fields: irregular squares outlined in dark green."""
    hedge, width = _stroke(shade(fill, 0.62), fill, s * 0.022)
    for x, y in _scatter(c, s, matrix, rng, 0.3, jitter=0.12, inset=0.82, top=-0.42):
        w, h = s * rng.uniform(0.07, 0.1), s * rng.uniform(0.06, 0.09)
        draw.rectangle((x - w, y - h, x + w, y + h), outline=hedge, width=width)


def _tufts(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Marsh tufts: a short water line with reeds."""
    ink, w = _stroke((46, 110, 104), fill, s * 0.025)
    for x, y in _scatter(c, s, matrix, rng, 0.34, jitter=0.2, top=-0.35):
        a = s * 0.11
        draw.line([(x - a, y), (x + a, y)], fill=ink, width=w)
        for dx, lean in ((-0.5, -0.35), (0.0, 0.0), (0.5, 0.35)):
            draw.line([(x + dx * a, y - s * 0.02), (x + dx * a + lean * a, y - a * 0.9 + abs(dx) * a * 0.3)],
                      fill=ink, width=w)


def _houses(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """A small cluster of buildings (a town)."""
    ink = (92, 66, 56)
    for k in range(5):
        a = rng.uniform(0, 2 * math.pi)
        d = s * (0.0 if k == 0 else rng.uniform(0.12, 0.24))
        x, y = c[0] + d * math.cos(a), c[1] + s * 0.05 + d * math.sin(a) * 0.8
        w, h = s * rng.uniform(0.06, 0.09), s * rng.uniform(0.05, 0.08)
        draw.rectangle((x - w, y - h, x + w, y + h), fill=ink, outline=shade(fill, 1.5), width=whole_px(s * 0.015))


def _blocks(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Built-up blocks between streets (a city)."""
    ink = shade(fill, 0.6)
    step = s * 0.19
    half = step * 0.38
    for j in range(-5, 6):
        for i in range(-6, 7):
            x, y = i * step, j * step
            if y < -0.45 * s or not in_hex(x, y, s * 0.8, matrix) or rng.random() < 0.18:
                continue
            draw.rectangle((c[0] + x - half, c[1] + y - half, c[0] + x + half, c[1] + y + half), fill=ink)


def _fort(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """A fort: a square with bastion ticks on its sides."""
    x, y, h = c[0], c[1] + s * 0.02, s * 0.17
    ink = (40, 36, 32)
    w = whole_px(s * 0.04)
    draw.rectangle((x - h, y - h, x + h, y + h), fill=(238, 232, 220), outline=ink, width=w)
    tick = s * 0.08
    for k in (-0.6, 0.0, 0.6):
        for (px, py), (dx, dy) in (((x + k * h, y - h), (0, -1)), ((x + k * h, y + h), (0, 1)),
                                   ((x - h, y + k * h), (-1, 0)), ((x + h, y + k * h), (1, 0))):
            draw.line([(px, py), (px + dx * tick, py + dy * tick)], fill=ink, width=w)


def _waves(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """A few faint wave marks."""
    ink, width = _stroke(shade(fill, 0.86), fill, s * 0.022)
    wave = [(s * (t / 100 - 0.12), s * 0.022 * math.sin(t / 24 * 3 * math.pi)) for t in range(25)]
    for x, y in _scatter(c, s, matrix, rng, 0.55, jitter=0.3, top=-0.4):
        draw.line([(x + dx, y + dy) for dx, dy in wave], fill=ink, width=width, joint="curve")


def _hatch(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, rng: random.Random, fill: str) -> None:
    """Diagonal hatching in phase across hexes (out-of-play land)."""
    hatch_lines(draw, c, s, matrix, fill, 0)


def hatch_step(s: float) -> int:
    """The hatch's spacing in whole pixels: its lines x + y = k * step then fall alike in every hex whose centre is
    a whole number of pixels from another's in x + y, so a hex's hatch is one of `step` stamps (`hatch_phase`)."""
    return whole_px(s * 0.16)


def hatch_lines(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, fill: str, shift: int) -> None:
    """The hatch's lines x + y = k * step + shift through a hex, cut at its sides."""
    ink, width = _stroke(shade(fill, 0.8), fill, s * 0.022)
    corners = hex_corners(c, s, matrix)
    step = hatch_step(s)
    first = math.floor((c[0] + c[1] - 2 * s - shift) / step)
    for k in range(first, first + int(4 * s / step) + 2):
        piece = _cut(corners, k * step + shift)  # the same family in every hex
        if piece is not None:
            draw.line(piece, fill=ink, width=width)


def _cut(corners: Sequence[Point], const: float) -> list[Point] | None:
    """The chord the line x + y = const cuts through a convex polygon, None if it misses it."""
    ends: list[Point] = []
    for (ax, ay), (bx, by) in zip(corners, [*corners[1:], corners[0]]):
        fa, fb = ax + ay - const, bx + by - const
        if (fa < 0) != (fb < 0):
            t = fa / (fa - fb)
            ends.append((ax + (bx - ax) * t, ay + (by - ay) * t))
    if len(ends) != 2 or math.dist(*ends) < 1e-9:
        return None
    return sorted(ends, key=lambda p: -p[0])


TEXTURES: dict[str, Texture] = {
    "trees": _trees, "scrub": _scrub, "peaks": _peaks, "stipple": _stipple, "hedges": _hedges,
    "tufts": _tufts, "houses": _houses, "blocks": _blocks, "fort": _fort, "waves": _waves, "hatch": _hatch,
}


def hex_style(game: Game, terrain_id: str) -> HexStyle:
    """The fill and texture of a hex terrain: terrain.toml's colour, else ours, else a guess."""
    known = HEX_STYLES.get(terrain_id)
    texture = known.texture if known else next((t for word, t in TEXTURE_HINTS if word in terrain_id), None)
    chart = game.terrain.get(terrain_id)
    if chart is not None and chart.colour:
        fill = chart.colour
    elif known is not None:
        fill = known.fill
    else:
        fill = FALLBACK_FILLS[zlib.crc32(terrain_id.encode()) % len(FALLBACK_FILLS)]
    return HexStyle(fill, texture)


def hex_paint(game: Game, terrain: Sequence[str]) -> tuple[str, list[str]]:
    """A hex's fill colour and its textures (ground first, overlays such as forts last)."""
    styles = [hex_style(game, t) for t in terrain]
    ground = next((st for st in styles if st.texture not in OVERLAY_TEXTURES), styles[0])
    textures: list[str] = []
    for st in sorted(styles, key=lambda st: st.texture in OVERLAY_TEXTURES):
        if st.texture and st.texture not in textures:
            textures.append(st.texture)
    return ground.fill, textures


def fill_hex(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, fill: str) -> None:
    """A hex's ground colour, a hair larger than the hex so no seam shows between neighbours."""
    draw.polygon(hex_corners(c, s * 1.003, matrix), fill=fill)


def paint_terrain(draw: Draw, c: Point, s: float, matrix: OrientationMatrix, fill: str, textures: Sequence[str],
                  seed: int) -> None:
    """One hex's fill and textures drawn in place, deterministic per seed (the legend's swatches; the board's hexes
    are stamped, `draw_terrain`)."""
    fill_hex(draw, c, s, matrix, fill)
    for name in textures:
        TEXTURES[name](draw, c, s, matrix, random.Random(seed * 31 + zlib.crc32(name.encode())), fill)


# -- texture stamps ---------------------------------------------------------------------------
PHASED_TEXTURES = frozenset({"hatch"})
"""Textures laid in phase across hexes (the hatch's lines x + y = k * step run on from hex to hex): stamped by their
phase at the hex (`hatch_phase`), every other texture by the hex's variant (`stamp_variant`)."""
STAMP_VARIANTS = 7
"""Marks drawn per texture and ground colour: a hex takes variant (q + 3r) mod 7 (`stamp_variant`), which differs
from each of its six neighbours' and theirs from each other's, so no two hexes side by side carry the same marks."""


def stamp_variant(h: Hex) -> int:
    """Which of a texture's STAMP_VARIANTS a hex carries: the six steps to a neighbour add 1, 5, 4, 6, 2 and 3 to
    q + 3r, all different modulo 7 and none 0."""
    return (h.q + 3 * h.r) % STAMP_VARIANTS


@frozen
class Stamp:
    """A texture's marks for one hex, drawn once: their pixels (their one colour, when they have one), the mask of the
    pixels they ink, and where the hex's centre falls in them (whole pixels: stamped at a centre rounded to the pixel,
    marks land within half a canvas pixel, a quarter of a final one, of where drawing them there put them)."""

    marks: Image.Image | RGB
    mask: Image.Image
    centre: tuple[int, int]


@lru_cache(maxsize=128)
def texture_stamp(name: str, fill: str, s: float, matrix: OrientationMatrix, variant: int) -> Stamp:
    """A texture's marks in a hex of circumradius s on a ground colour, one of STAMP_VARIANTS (of a phased texture,
    the lines' shift `hatch_phase` gives): drawn on a clear canvas as they would be on the board (each mark opaque, so
    pasting through their mask gives the pixels of drawing them there), cut to what they ink. A board draws a few
    dozen of these for hundreds of hexes (a forest hex alone was thirty trees' calls, each recorded and drawn again
    for every band it reached)."""
    canvas, half = stamp_canvas(name, fill, s, matrix, variant)
    mask = canvas.getchannel("A")
    box = mask.getbbox() or (half, half, half + 1, half + 1)
    marks = canvas.crop(box)
    # Marks of one colour (stipple, hatch, waves, tufts, hedges, blocks) keep their mask alone and the colour is pasted
    # through it: the same pixels (the mask is 0 or 255: ImageDraw does not anti-alias) from a quarter of the memory
    # (at --scale 4 the hatch alone has 46 stamps of 580 x 580 pixels).
    inks: set[RGB] = set()
    for _, colour in marks.getcolors(marks.width * marks.height) or []:
        if isinstance(colour, tuple) and colour[3] == 255:  # RGBA: the inked ones
            inks.add((colour[0], colour[1], colour[2]))
    one = inks.pop() if len(inks) == 1 else None
    # A mask of mode "1": Pillow copies through it where it blends through an "L" one (the same pixels, 0 or 255 being
    # all the mask holds), a seventh of the time; a large stamp costs more to paste than the marks did to draw else
    # (Omaha's board at --scale 2.5: 5.8G instructions drawn hex by hex, 9.0G stamped through "L" masks).
    return Stamp(one if one is not None else marks.convert("RGB"), mask.crop(box).convert("1"),
                 (half - box[0], half - box[1]))


def stamp_canvas(name: str, fill: str, s: float, matrix: OrientationMatrix, variant: int) -> tuple[Image.Image, int]:
    """A texture variant's marks on a clear canvas 2 * half pixels square, the hex's centre at (half, half); and
    half."""
    half = stamp_half(s)
    canvas = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
    # Drawn as the board draws (an even-width two-point line toward +x+y, see window.forward).
    draw = ShiftedDraw(canvas, even_forward=True)
    if name in PHASED_TEXTURES:
        hatch_lines(draw, (half, half), s, matrix, fill, variant)
    else:
        TEXTURES[name](draw, (half, half), s, matrix, random.Random(variant * 31 + zlib.crc32(name.encode())), fill)
    return canvas, half


def hatch_phase(s: float, centre: tuple[int, int]) -> int:
    """The hatch stamp of a hex whose centre is stamped at a canvas pixel: the shift of the lines x + y = k * step on
    the stamp (its centre at (half, half)) that puts them on the canvas's lines."""
    return (2 * stamp_half(s) - centre[0] - centre[1]) % hatch_step(s)


def stamp_half(s: float) -> int:
    """Half the side of a stamp's canvas for hexes of circumradius s: STAMP_REACH of it and two pixels more."""
    return math.ceil(s * STAMP_REACH) + 2


STAMP_REACH = 1.2
"""How far a texture's marks may reach from the hex's centre, in circumradii (all stay inside the hex: a test finds
every stamp's ink clear of its canvas's edge)."""


def draw_terrain(b: BoardCanvas, layer: Literal["ground", "late"]) -> None:
    """Fills and ground textures of every hex, then the coastline; or the late symbols."""
    game = b.game
    styles: dict[tuple[str, ...], tuple[str, list[str]]] = {}
    for h in b.in_view(sorted(game.grid.hexes)):
        terrain = game.hex_terrain[h]
        if terrain not in styles:
            styles[terrain] = hex_paint(game, terrain)
        fill, textures = styles[terrain]
        c = b.centre(h)
        if layer != "late":
            fill_hex(b.draw, c, b.s, b.matrix, fill)
        for name in textures:
            if (name in LATE_TEXTURES) != (layer == "late"):
                continue
            at = (round(c[0]), round(c[1]))
            variant = hatch_phase(b.s, at) if name in PHASED_TEXTURES else stamp_variant(h)
            stamp = texture_stamp(name, fill, b.s, b.matrix, variant)
            b.paste(stamp.marks, (at[0] - stamp.centre[0], at[1] - stamp.centre[1]), stamp.mask)
    if layer == "late":
        return
    sea = _sea_hexes(game)
    coast: list[tuple[Segment, Point]] = []
    for h in sorted(sea):
        for n in h.neighbours():
            if n in game.grid and n not in sea:
                coast.append((b.side_between(h, n), unit_vector(b.centre(n), b.centre(h))))
    # Shallows: a pale band on the sea side of the coast, then the coastline itself.
    for (p, q), (ux, uy) in coast:
        off = 0.1 * b.s
        draw_polyline(b.draw, [(p[0] + ux * off, p[1] + uy * off), (q[0] + ux * off, q[1] + uy * off)], SHALLOWS,
                      0.16 * b.s)
    for line in chain(seg for seg, _ in coast):
        draw_polyline(b.draw, line, COAST, 0.035 * b.s)


def _sea_hexes(game: Game) -> set[Hex]:
    """Hexes that are all water (their sides toward land are the coast)."""
    return hexes_textured(game, "waves", every=True)


def hexes_textured(game: Game, texture: str, every: bool) -> set[Hex]:
    """The hexes whose terrains all (`every`) or any of them are drawn with a texture."""
    # Styled once for each distinct terrain, not for each hex: a board has thousands of hexes and a dozen terrains.
    known: dict[tuple[str, ...], bool] = {}
    found = set()
    for h, terrain in game.hex_terrain.items():
        textured = known.get(terrain)
        if textured is None:
            styled = (hex_style(game, t).texture == texture for t in terrain)
            textured = known[terrain] = all(styled) if every else any(styled)
        if textured:
            found.add(h)
    return found


def draw_grid(b: BoardCanvas) -> None:
    """Thin hex outlines, ink at GRID_ALPHA over the fills they separate.

    Each hexside is drawn once in the blend of the ink over its hexes' fills (their mean on a
    side between two terrains, paper beyond the map edge): the same pixels as a translucent
    mask pasted over the whole canvas, at a fraction of the cost. Sea-land sides are left to
    the coastline, drawn over them.
    """
    game = b.game
    fills: dict[Hex, RGB] = {}
    styles: dict[tuple[str, ...], RGB] = {}
    for h in game.grid.hexes:
        terrain = game.hex_terrain[h]
        if terrain not in styles:
            styles[terrain] = rgb(hex_paint(game, terrain)[0])
        fills[h] = styles[terrain]
    sea = _sea_hexes(game)
    paper, ink = rgb(PAPER), rgb(INK)
    width = whole_px(b.s * 0.028)
    inks: dict[tuple[RGB, RGB], RGB] = {}
    for h in b.in_view(sorted(fills)):
        for n in h.neighbours():
            if n in fills and (n < h or (n in sea) != (h in sea)):
                continue  # each side once, from its smaller hex; none under the coastline
            pair = (fills[h], fills.get(n, paper))
            if pair not in inks:
                ground = [(a + c) / 2 for a, c in zip(*pair)]
                inks[pair] = tuple(round(g + (k - g) * GRID_ALPHA / 255) for g, k in zip(ground, ink))  # type: ignore[assignment]
            b.draw.line(list(b.side_between(h, n)), fill=inks[pair], width=width)
