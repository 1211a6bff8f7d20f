"""The map board: terrain, hexsides, roads, places, areas, hex labels, title and legend.

Shapes are drawn at SUPERSAMPLE times the final size and reduced with a box filter, so lines
and symbols come out anti-aliased; hex labels, place names and the title and legend text are
printed last, on the reduced image at final pixels (FreeType anti-aliases it itself). The
supersampled layout is `board_layout` scaled exactly (never a second `Layout.for_grid`,
which rounds), shifted by the sub-pixels that put a layout point at the centre of its final
pixel, so the printed grid is the module's grid to the pixel; the title and legend only ever
extend the image to the right or below the map.
"""

from __future__ import annotations

import bisect
import io
import math
import os
import random
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from PIL import Image, ImageColor, ImageDraw, ImageFont
from shapely.geometry import Polygon
from shapely.ops import unary_union

from builder.render.style import INK, PAPER, font
from wargame.files import write_atomically
from wargame.game import Game
from wargame.models import is_reconstructed
from wargame.hexes import Hex, Hexside
from wargame.layout import Layout

Point = tuple[float, float]
Segment = tuple[Point, Point]
RGB = tuple[int, int, int]
Draw = ImageDraw.ImageDraw

SUPERSAMPLE = 3
"""Drawing scale before the reduction (3: smooth diagonals)."""
LARGE_BOARD_PX = 12_000_000
"""Boards with more final pixels than this are drawn at 2x only, to keep the canvas in memory."""

SQRT3 = math.sqrt(3.0)


# -- styles ---------------------------------------------------------------------------------
@dataclass(frozen=True)
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


@dataclass(frozen=True)
class SideStyle:
    """How a hexside feature is drawn; widths and dashes in hex sizes (circumradius)."""

    colour: str
    width: float
    kind: Literal["water", "path", "teeth", "bridge", "line"]
    order: int
    dash: tuple[float, float] | None = None
    casing: str | None = None
    inner: str | None = None


SIDE_STYLES: dict[str, SideStyle] = {
    "sea_side": SideStyle("#72b3e3", 0.11, "water", 0),
    "major_waterway": SideStyle("#1f5ea8", 0.22, "water", 1, inner="#4f8fd0"),
    "river": SideStyle("#2f78c4", 0.12, "water", 2),
    "stream": SideStyle("#5fa8de", 0.06, "water", 3),
    "canal": SideStyle("#12877f", 0.075, "water", 4),
    "ditch": SideStyle("#77772a", 0.04, "line", 5, dash=(0.16, 0.09)),
    "road": SideStyle("#b0412a", 0.075, "path", 10, casing="#fff8ea"),
    "trail": SideStyle("#8c6d3f", 0.05, "path", 11, dash=(0.17, 0.11)),
    "bridge": SideStyle(INK, 0.035, "bridge", 20),
    "fortified": SideStyle("#8b1a1a", 0.05, "teeth", 30),
}
SIDE_HINTS: tuple[tuple[str, SideStyle], ...] = (
    ("bridge", SIDE_STYLES["bridge"]), ("road", SIDE_STYLES["road"]), ("rail", SideStyle(INK, 0.05, "path", 12)),
    ("trail", SIDE_STYLES["trail"]), ("track", SIDE_STYLES["trail"]), ("canal", SIDE_STYLES["canal"]),
    ("river", SIDE_STYLES["river"]), ("stream", SIDE_STYLES["stream"]), ("creek", SIDE_STYLES["stream"]),
    ("water", SIDE_STYLES["river"]), ("fort", SIDE_STYLES["fortified"]), ("wall", SIDE_STYLES["fortified"]),
    ("ditch", SIDE_STYLES["ditch"]),
)
FALLBACK_SIDE = SideStyle("#555555", 0.05, "line", 15, dash=(0.12, 0.08))

GRID_ALPHA = 80  # hex grid lines: ink at this opacity, so they stay quiet over every fill
COAST = "#3f79aa"
SHALLOWS = "#bcd8ec"
LANDING = "#e69f00"
PORT_AREA = "#7b3294"
ENTRY = "#d55e00"
EDGE = "#8a5a9e"
COUNTRY = "#2b2b2b"
VICTORY = "#c0182b"
BOUNDARY = "#7a0a4a"
ANCHOR = "#1d3f73"
LABEL_DARK = "#5e584d"
LABEL_LIGHT = "#f4f0e6"
WEST: dict[str, Point] = {"up": (-1.0, 0.0), "right": (0.0, -1.0), "down": (1.0, 0.0), "left": (0.0, 1.0)}


# -- colours and geometry -------------------------------------------------------------------
def _rgb(colour: str) -> RGB:
    """A colour as an RGB triple."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    return (r, g, b)


def _shade(colour: str, factor: float) -> RGB:
    """A colour darkened (factor < 1) or lightened toward white (factor > 1)."""
    r, g, b = _rgb(colour)
    if factor <= 1:
        return (round(r * factor), round(g * factor), round(b * factor))
    t = min(1.0, factor - 1)
    return (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))


def _is_dark(colour: str) -> bool:
    """True when light text reads better on this colour."""
    r, g, b = _rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def _px(value: float) -> int:
    """A line width or radius in whole pixels, never zero."""
    return max(1, round(value))


_UNIT_CORNERS: dict[str, tuple[Point, ...]] = {
    orientation: tuple((math.cos(math.radians(start + 60 * k)), math.sin(math.radians(start + 60 * k)))
                       for k in range(6))
    for orientation, start in (("flat", 0.0), ("pointy", 30.0))
}


def _corners(c: Point, s: float, orientation: str) -> list[Point]:
    """Corners of a hex of circumradius s centred at c (same order as Layout.corners)."""
    return [(c[0] + s * ux, c[1] + s * uy) for ux, uy in _UNIT_CORNERS[orientation]]


_NORMALS: dict[str, tuple[tuple[float, float], ...]] = {
    orientation: tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in angles)
    for orientation, angles in (("flat", (30.0, 90.0, 150.0)), ("pointy", (0.0, 60.0, 120.0)))
}
"""Unit normals of a hex's three pairs of sides, by orientation (computed once: _inside runs per dot)."""


def _inside(x: float, y: float, s: float, orientation: str) -> bool:
    """True if (x, y), relative to a hex centre, lies inside a hex of circumradius s."""
    apothem = s * SQRT3 / 2
    return all(abs(x * cos + y * sin) <= apothem for cos, sin in _NORMALS[orientation])


def _unit(a: Point, b: Point) -> Point:
    """The unit vector from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _chain(segments: Iterable[Segment]) -> list[list[Point]]:
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


def _dashes(points: Sequence[Point], on: float, off: float) -> list[list[Point]]:
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


def _polyline(draw: Draw, points: Sequence[Point], colour: str | RGB | int, width: float,
              caps: bool = True) -> None:
    """A polyline with smooth joints and (optionally) round ends."""
    w = _px(width)
    draw.line(list(points), fill=colour, width=w, joint="curve")
    if caps and w > 2:
        for x, y in (points[0], points[-1]):
            draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=colour)


def _dashed(draw: Draw, points: Sequence[Point], colour: str | RGB, width: float, on: float, off: float) -> None:
    """A dashed polyline."""
    for piece in _dashes(points, on, off):
        _polyline(draw, piece, colour, width, caps=False)


def _dotted(draw: Draw, points: Sequence[Point], colour: str | RGB, radius: float, spacing: float) -> None:
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


def _rings(polygons: Sequence[Polygon], inset: float, s: float) -> list[list[Point]]:
    """Outlines of a union of hexes, moved `inset` pixels inward (so nested areas both show)."""
    # The tiny outward buffer closes the float-sized gaps between neighbouring hexes.
    eps = 0.01 * s
    region = unary_union(list(polygons)).buffer(eps, join_style="mitre").buffer(-eps - inset, join_style="mitre")
    rings: list[list[Point]] = []
    for poly in getattr(region, "geoms", [region]):
        if poly.is_empty:
            continue
        rings.append([(x, y) for x, y in poly.exterior.coords])
        rings.extend([(x, y) for x, y in interior.coords] for interior in poly.interiors)
    return rings


def _scatter(c: Point, s: float, orientation: str, rng: random.Random, spacing: float,
             jitter: float = 0.3, inset: float = 0.8, top: float = -0.45) -> list[Point]:
    """Jittered lattice points inside a hex, kept below the band where the hex label sits."""
    step = spacing * s
    n = int(1 / spacing) + 2
    points: list[Point] = []
    # _inside and rng.uniform(-jitter, jitter) written out: this runs for every lattice point.
    (c1, s1), (c2, s2), (c3, s3) = _NORMALS[orientation]
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


# -- terrain textures -------------------------------------------------------------------
# Each draws inside one hex of circumradius s centred at c; `fill` is the hex's ground colour.
Texture = Callable[[Draw, Point, float, str, random.Random, str], None]


def _trees(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Round-topped trees, drawn back to front."""
    dark, light, trunk = _shade(fill, 0.55), _shade(fill, 1.18), (96, 72, 44)
    for x, y in sorted(_scatter(c, s, orientation, rng, 0.3, top=-0.38), key=lambda p: (p[1], p[0])):
        r = s * 0.1 * rng.uniform(0.85, 1.15)
        draw.line([(x, y), (x, y + r * 1.25)], fill=trunk, width=_px(s * 0.03))
        draw.ellipse((x - r, y - r * 1.25, x + r, y + r * 0.55), fill=light, outline=dark, width=_px(s * 0.022))


def _scrub(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Scattered small trees and bushes (mixed ground)."""
    dark = _shade(fill, 0.5)
    for x, y in _scatter(c, s, orientation, rng, 0.42, jitter=0.35):
        r = s * 0.065 * rng.uniform(0.8, 1.2)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=_shade(fill, 0.78), outline=dark, width=_px(s * 0.018))


def _peaks(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Hill hachures: peaks shaded on their eastern flank."""
    dark, shadow = _shade(fill, 0.45), _shade(fill, 0.8)
    for x, y in _scatter(c, s, orientation, rng, 0.4, jitter=0.22, top=-0.35):
        w, h = s * 0.15 * rng.uniform(0.85, 1.15), s * 0.14 * rng.uniform(0.85, 1.2)
        draw.polygon([(x, y - h / 2), (x + w, y + h / 2), (x + w * 0.15, y + h / 2)], fill=shadow)
        draw.line([(x - w, y + h / 2), (x, y - h / 2), (x + w, y + h / 2)], fill=dark, width=_px(s * 0.03),
                  joint="curve")


def _stipple(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Fine random dots (broken ground)."""
    dark = _shade(fill, 0.55)
    r = s * 0.022
    # _inside and rng.uniform(-s, s) written out, as in _scatter.
    (c1, s1), (c2, s2), (c3, s3) = _NORMALS[orientation]
    apothem = s * 0.9 * SQRT3 / 2
    span, rand, ellipse = s - -s, rng.random, draw.ellipse
    for _ in range(60):
        x, y = -s + span * rand(), -s + span * rand()
        if (y >= -0.45 * s and abs(x * c1 + y * s1) <= apothem and abs(x * c2 + y * s2) <= apothem
                and abs(x * c3 + y * s3) <= apothem):
            ellipse((c[0] + x - r, c[1] + y - r, c[0] + x + r, c[1] + y + r), fill=dark)


def _hedges(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Small hedged fields: irregular squares outlined in dark green."""
    hedge = _shade(fill, 0.62)
    for x, y in _scatter(c, s, orientation, rng, 0.3, jitter=0.12, inset=0.82, top=-0.42):
        w, h = s * rng.uniform(0.07, 0.1), s * rng.uniform(0.06, 0.09)
        draw.rectangle((x - w, y - h, x + w, y + h), outline=hedge, width=_px(s * 0.022))


def _tufts(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Marsh tufts: a short water line with reeds."""
    ink = (46, 110, 104)
    w = _px(s * 0.025)
    for x, y in _scatter(c, s, orientation, rng, 0.34, jitter=0.2, top=-0.35):
        a = s * 0.11
        draw.line([(x - a, y), (x + a, y)], fill=ink, width=w)
        for dx, lean in ((-0.5, -0.35), (0.0, 0.0), (0.5, 0.35)):
            draw.line([(x + dx * a, y - s * 0.02), (x + dx * a + lean * a, y - a * 0.9 + abs(dx) * a * 0.3)],
                      fill=ink, width=w)


def _houses(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """A small cluster of buildings (a town)."""
    ink = (92, 66, 56)
    for k in range(5):
        a = rng.uniform(0, 2 * math.pi)
        d = s * (0.0 if k == 0 else rng.uniform(0.12, 0.24))
        x, y = c[0] + d * math.cos(a), c[1] + s * 0.05 + d * math.sin(a) * 0.8
        w, h = s * rng.uniform(0.06, 0.09), s * rng.uniform(0.05, 0.08)
        draw.rectangle((x - w, y - h, x + w, y + h), fill=ink, outline=_shade(fill, 1.5), width=_px(s * 0.015))


def _blocks(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Built-up blocks between streets (a city)."""
    ink = _shade(fill, 0.6)
    step = s * 0.19
    half = step * 0.38
    for j in range(-5, 6):
        for i in range(-6, 7):
            x, y = i * step, j * step
            if y < -0.45 * s or not _inside(x, y, s * 0.8, orientation) or rng.random() < 0.18:
                continue
            draw.rectangle((c[0] + x - half, c[1] + y - half, c[0] + x + half, c[1] + y + half), fill=ink)


def _fort(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """A fort: a square with bastion ticks on its sides."""
    x, y, h = c[0], c[1] + s * 0.02, s * 0.17
    ink = (40, 36, 32)
    w = _px(s * 0.04)
    draw.rectangle((x - h, y - h, x + h, y + h), fill=(238, 232, 220), outline=ink, width=w)
    tick = s * 0.08
    for k in (-0.6, 0.0, 0.6):
        for (px, py), (dx, dy) in (((x + k * h, y - h), (0, -1)), ((x + k * h, y + h), (0, 1)),
                                   ((x - h, y + k * h), (-1, 0)), ((x + h, y + k * h), (1, 0))):
            draw.line([(px, py), (px + dx * tick, py + dy * tick)], fill=ink, width=w)


def _waves(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """A few faint wave marks."""
    ink = _shade(fill, 0.86)
    wave = [(s * (t / 100 - 0.12), s * 0.022 * math.sin(t / 24 * 3 * math.pi)) for t in range(25)]
    for x, y in _scatter(c, s, orientation, rng, 0.55, jitter=0.3, top=-0.4):
        draw.line([(x + dx, y + dy) for dx, dy in wave], fill=ink, width=_px(s * 0.022), joint="curve")


def _hatch(draw: Draw, c: Point, s: float, orientation: str, rng: random.Random, fill: str) -> None:
    """Diagonal hatching in phase across hexes (out-of-play land)."""
    ink = _shade(fill, 0.8)
    corners = _corners(c, s, orientation)
    step = s * 0.16
    first = math.floor((c[0] + c[1] - 2 * s) / step)
    for k in range(first, first + int(4 * s / step) + 2):
        const = k * step  # lines x + y = const, the same family in every hex
        piece = _cut(corners, const)
        if piece is not None:
            draw.line(piece, fill=ink, width=_px(s * 0.022))


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


def side_style(game: Game, feature: str) -> SideStyle:
    """The style of a hexside feature: ours (or a guess from its id, else a grey dashed line),
    in terrain.toml's colour where it gives one."""
    style = SIDE_STYLES.get(feature) or next((st for word, st in SIDE_HINTS if word in feature), FALLBACK_SIDE)
    chart = game.terrain.get(feature)
    if chart is not None and chart.colour:
        style = replace(style, colour=chart.colour)
    return style


def _ground(game: Game, terrain: Sequence[str]) -> tuple[str, list[str]]:
    """A hex's fill colour and its textures (ground first, overlays such as forts last)."""
    styles = [hex_style(game, t) for t in terrain]
    ground = next((st for st in styles if st.texture not in OVERLAY_TEXTURES), styles[0])
    textures: list[str] = []
    for st in sorted(styles, key=lambda st: st.texture in OVERLAY_TEXTURES):
        if st.texture and st.texture not in textures:
            textures.append(st.texture)
    return ground.fill, textures


def _paint_hex(draw: Draw, c: Point, s: float, orientation: str, fill: str, textures: Sequence[str],
               seed: int, layer: Literal["all", "ground", "late"] = "all") -> None:
    """One hex's fill and textures (deterministic per seed); `layer` picks the ground (fill and
    ground textures) or the late symbols only."""
    if layer != "late":
        draw.polygon(_corners(c, s * 1.003, orientation), fill=fill)
    for name in textures:
        if layer == "all" or (name in LATE_TEXTURES) == (layer == "late"):
            TEXTURES[name](draw, c, s, orientation, random.Random(seed * 31 + zlib.crc32(name.encode())), fill)


# -- symbols ----------------------------------------------------------------------------
def _anchor(draw: Draw, c: Point, s: float, colour: str) -> None:
    """An anchor, about a third of a hex tall."""
    x, y = c
    h = s * 0.34
    w = _px(s * 0.04)
    ring = s * 0.05
    halo = _px(s * 0.09)
    # A pale halo first, so the anchor reads on city blocks and forest alike.
    for width, ink in ((halo, PAPER), (w, colour)):
        draw.line([(x, y - h / 2 + ring), (x, y + h / 2)], fill=ink, width=width)
        draw.line([(x - h * 0.28, y - h * 0.18), (x + h * 0.28, y - h * 0.18)], fill=ink, width=width)
        draw.arc((x - h * 0.42, y - h * 0.1, x + h * 0.42, y + h / 2), 20, 160, fill=ink, width=width)
        draw.ellipse((x - ring, y - h / 2 - ring, x + ring, y - h / 2 + ring), outline=ink,
                     width=max(1, width - (halo - w) // 2) if ink == PAPER else w)


def _badge(draw: Draw, c: Point, r: float, text: str, colour: str, s: float, text_colour: str = "#ffffff") -> None:
    """A filled disc with a short bold text (port values, entry letters)."""
    x, y = c
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=PAPER, width=_px(s * 0.025))
    draw.text((x, y), text, fill=text_colour, font=font(_px(r * (1.3 if len(text) < 2 else 1.05)), bold=True),
              anchor="mm")


def _outlined(draw: Draw, points: Sequence[Point], fill: str | RGB, outline: str | RGB, width: int) -> None:
    """A polygon with an outline `width` pixels wide inside its edge, as ImageDraw draws one,
    but without its mask the size of the whole canvas (30 ms a star on the board)."""
    draw.polygon(list(points), fill=outline)
    inner = Polygon(points).buffer(-width, join_style="mitre")
    for poly in getattr(inner, "geoms", [inner]):
        if not poly.is_empty:
            draw.polygon([(x, y) for x, y in poly.exterior.coords], fill=fill)


def _star(draw: Draw, c: Point, r: float, colour: str, s: float) -> None:
    """A five-pointed star with a pale outline (objectives)."""
    pts = []
    for k in range(10):
        a = math.radians(-90 + 36 * k)
        rad = r if k % 2 == 0 else r * 0.45
        pts.append((c[0] + rad * math.cos(a), c[1] + rad * math.sin(a)))
    _outlined(draw, pts, colour, PAPER, _px(s * 0.02))


def _teeth(draw: Draw, a: Point, b: Point, outward: Point, s: float, colour: str) -> None:
    """A fortified line on segment a-b with saw teeth pointing `outward`."""
    nx, ny = outward
    base_shift = -0.03 * s  # the base sits just inside the fortified hex, teeth cross the side
    a2 = (a[0] + nx * base_shift, a[1] + ny * base_shift)
    b2 = (b[0] + nx * base_shift, b[1] + ny * base_shift)
    draw.line([a2, b2], fill=colour, width=_px(s * 0.05))
    n = 4
    for k in range(n):
        t0, t1 = (k + 0.15) / n, (k + 0.85) / n
        p0 = (a2[0] + (b2[0] - a2[0]) * t0, a2[1] + (b2[1] - a2[1]) * t0)
        p1 = (a2[0] + (b2[0] - a2[0]) * t1, a2[1] + (b2[1] - a2[1]) * t1)
        apex = ((p0[0] + p1[0]) / 2 + nx * s * 0.13, (p0[1] + p1[1]) / 2 + ny * s * 0.13)
        draw.polygon([p0, apex, p1], fill=colour)


def _bridge(draw: Draw, mid: Point, across: Point, s: float, rails: bool, colour: str = INK) -> None:
    """A bridge glyph across a hexside: the deck (rails=False) or its parapets (rails=True)."""
    ux, uy = across
    vx, vy = -uy, ux
    half_l, half_w = s * 0.2, s * 0.085
    x, y = mid
    if not rails:
        deck = [(x + sx * ux * half_l + sy * vx * half_w, y + sx * uy * half_l + sy * vy * half_w)
                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        draw.polygon(deck, fill=(246, 240, 226))
        return
    w = _px(s * 0.035)
    flare = s * 0.07
    for side in (-1, 1):
        p0 = (x - ux * half_l + side * vx * half_w, y - uy * half_l + side * vy * half_w)
        p1 = (x + ux * half_l + side * vx * half_w, y + uy * half_l + side * vy * half_w)
        f0 = (p0[0] - ux * flare + side * vx * flare, p0[1] - uy * flare + side * vy * flare)
        f1 = (p1[0] + ux * flare + side * vx * flare, p1[1] + uy * flare + side * vy * flare)
        draw.line([f0, p0, p1, f1], fill=colour, width=w, joint="curve")


def _water(draw: Draw, lines: Sequence[Sequence[Point]], style: SideStyle, s: float) -> None:
    """Waterway or plain-line polylines in a side style."""
    for points in lines:
        if style.dash:
            _dashed(draw, points, style.colour, style.width * s, style.dash[0] * s, style.dash[1] * s)
            continue
        _polyline(draw, points, style.colour, style.width * s)
        if style.inner:
            _polyline(draw, points, style.inner, style.width * s * 0.4)


def _path(draw: Draw, lines: Sequence[Sequence[Point]], style: SideStyle, s: float) -> None:
    """Roads and trails, hex centre to hex centre."""
    for points in lines:
        if style.casing:
            _polyline(draw, points, style.casing, style.width * s * 1.9)
    for points in lines:
        if style.dash:
            _dashed(draw, points, style.colour, style.width * s, style.dash[0] * s, style.dash[1] * s)
        else:
            _polyline(draw, points, style.colour, style.width * s)


def _arrow(draw: Draw, c: Point, length: float, north: str, s: float) -> None:
    """A north arrow pointing to the map's north."""
    angle = {"up": -90.0, "right": 0.0, "down": 90.0, "left": 180.0}[north]
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    vx, vy = -uy, ux
    x, y = c
    tip = (x + ux * length / 2, y + uy * length / 2)
    tail = (x - ux * length / 2, y - uy * length / 2)
    wing = length * 0.22
    left = (tip[0] - ux * length * 0.55 + vx * wing, tip[1] - uy * length * 0.55 + vy * wing)
    right = (tip[0] - ux * length * 0.55 - vx * wing, tip[1] - uy * length * 0.55 - vy * wing)
    draw.polygon([tip, left, (x, y), right], fill=INK)
    _outlined(draw, [tip, right, (x, y)], PAPER, INK, _px(s * 0.02))
    draw.line([(x, y), tail], fill=INK, width=_px(s * 0.04))
    n_pos = (tip[0] + ux * length * 0.22, tip[1] + uy * length * 0.22)
    draw.text(n_pos, "N", fill=INK, font=font(_px(length * 0.3), bold=True), anchor="mm")


# -- the board ----------------------------------------------------------------------------
def board_layout(game: Game, scale: float = 1.0) -> Layout:
    """The layout the board is printed on; at scale 1 it is the module's `game.layout`."""
    return Layout.for_grid(game.grid, game.map.layout.hex_size_px * scale, game.map.layout.margin_px * scale)


@dataclass(frozen=True)
class _Text:
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


class _GlyphPrinter:
    """Prints short texts from glyph masks rendered once per character and sub-pixel pen
    position: FreeType's stroker is the slow part of drawing the map's ~1,500 hex labels,
    and they are all the same few characters in one font. The text's anchored origin is
    rounded to a whole pixel (the same glyphs then recur); a text the font kerns is drawn
    as usual."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.masks: dict[tuple[ImageFont.FreeTypeFont, float, str, int], tuple[Image.Image, Image.Image, int, int]] = {}
        self.baselines: dict[ImageFont.FreeTypeFont, int] = {}
        self.lengths: dict[tuple[ImageFont.FreeTypeFont, str], float] = {}

    def _length(self, f: ImageFont.FreeTypeFont, text: str) -> float:
        """The advance of a character or a pair (layout is slow, the pairs few)."""
        key = (f, text)
        if key not in self.lengths:
            self.lengths[key] = f.getlength(text)
        return self.lengths[key]

    def _glyph(self, f: ImageFont.FreeTypeFont, stroke: float, char: str,
               sixty_fourths: int) -> tuple[Image.Image, Image.Image, int, int]:
        """A character's stroked and plain masks and their offset from the pen (whole pixels)."""
        key = (f, stroke, char, sixty_fourths)
        if key not in self.masks:
            x0, y0, x1, y1 = (round(v) for v in f.getbbox(char, anchor="ls", stroke_width=stroke))
            ox, oy = 2 - x0, 2 - y0  # the pen's whole-pixel origin inside the masks
            size = (x1 - x0 + 5, y1 - y0 + 4)
            outer, inner = Image.new("L", size, 0), Image.new("L", size, 0)
            pen = (ox + sixty_fourths / 64, oy)
            ImageDraw.Draw(outer).text(pen, char, fill=255, font=f, anchor="ls", stroke_width=stroke, stroke_fill=255)
            ImageDraw.Draw(inner).text(pen, char, fill=255, font=f, anchor="ls")
            self.masks[key] = (outer, inner, -ox, -oy)
        return self.masks[key]

    def print(self, t: _Text) -> None:
        """Print one text as ImageDraw.text would (anchor 'mm')."""
        f = t.font
        advances = [self._length(f, c) for c in t.text]
        length = sum(advances)
        kerned = any(abs(self._length(f, a + c) - self._length(f, a) - self._length(f, c)) > 1e-6
                     for a, c in zip(t.text, t.text[1:]))
        if t.anchor != "mm" or kerned:
            self.draw.text(t.xy, t.text, fill=t.fill, font=f, anchor=t.anchor, stroke_width=t.stroke_width,
                           stroke_fill=t.stroke_fill)
            return
        if f not in self.baselines:  # the baseline below the middle anchor: the font's, not the text's
            self.baselines[f] = round(f.getbbox("0", anchor="mm")[1] - f.getbbox("0", anchor="ls")[1])
        x, y = round(t.xy[0] - length / 2), round(t.xy[1]) + self.baselines[f]
        placed = []
        pen = 0.0
        for char, advance in zip(t.text, advances):
            whole = math.floor(pen)
            placed.append((x + whole, self._glyph(f, t.stroke_width, char, round((pen - whole) * 64))))
            pen += advance
        # The whole text's stroke first, then its ink, as ImageDraw draws them.
        if t.stroke_width and t.stroke_fill is not None:
            for px, (outer, _, dx, dy) in placed:
                self.image.paste(t.stroke_fill, (px + dx, y + dy), outer)
        for px, (_, inner, dx, dy) in placed:
            self.image.paste(t.fill, (px + dx, y + dy), inner)


@dataclass
class _Board:
    """The supersampled canvas and what every drawing step needs."""

    game: Game
    layout: Layout  # the final layout
    fine: Layout  # the same layout ss times larger
    image: Image.Image
    draw: Draw
    board_px: tuple[float, float]  # the map part of the canvas, before the title and legend
    ss: int  # supersampling factor
    texts: list[_Text] = field(default_factory=list)  # printed on the final image, in this order

    @property
    def s(self) -> float:
        """Hex circumradius on the canvas."""
        return self.fine.size_px

    @property
    def orientation(self) -> str:
        """'flat' or 'pointy'."""
        return self.fine.orientation

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
        return self.fine.centre(h)

    def segment(self, side: Hexside) -> Segment:
        """A hexside's two corners on the canvas."""
        return self.fine.hexside_ends(side)

    def tint(self, paint: Callable[[Draw, int, Point], None], colour: str, alpha: int,
             bounds: tuple[float, float, float, float], smooth: bool = False) -> None:
        """Draw something translucent: `paint` draws it into a mask with the ink it is given.

        The mask covers only `bounds` (canvas pixels, what `paint` may touch); `paint` gets the
        mask's top-left corner on the canvas to subtract. ImageDraw's lines and shapes are not
        anti-aliased, so their mask is drawn at `alpha` directly; a `smooth` painter (text)
        draws at 255 and its mask is scaled to `alpha`.
        """
        x0, y0 = max(0, math.floor(bounds[0])), max(0, math.floor(bounds[1]))
        x1, y1 = min(self.image.width, math.ceil(bounds[2]) + 1), min(self.image.height, math.ceil(bounds[3]) + 1)
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
        x0, y0, x1, y1 = box[0] + x0, box[1] + y0, box[2] + x0, box[3] + y0
        # Pasting a colour through a mask blends it at the mask's opacity, in place; each pixel
        # on its own, so horizontal bands on worker threads (Pillow releases the GIL) give the same.
        bands = max(1, min(PASTE_BANDS, os.cpu_count() or 1, (y1 - y0) // 256))
        edges = [y0 + (y1 - y0) * k // bands for k in range(bands + 1)]

        def band(k: int) -> None:
            top, bottom = edges[k], edges[k + 1]
            self.image.paste(colour, (x0, top, x1, bottom), opacity.crop((0, top - y0, x1 - x0, bottom - y0)))

        if bands == 1:
            self.image.paste(colour, (x0, y0, x1, y1), opacity)
            return
        with ThreadPoolExecutor(bands) as pool:
            list(pool.map(band, range(bands)))


def _sides_of(hexes: Iterable[Hex]) -> Iterable[tuple[Hex, Hex]]:
    """(inside, outside) pairs across the outline of a set of hexes, on or off the map."""
    members = set(hexes)
    for h in sorted(members):
        for n in h.neighbours():
            if n not in members:
                yield h, n


def _draw_terrain(b: _Board, layer: Literal["ground", "late"]) -> None:
    """Fills and ground textures of every hex, then the coastline; or the late symbols."""
    game = b.game
    styles: dict[tuple[str, ...], tuple[str, list[str]]] = {}
    for h in sorted(game.grid.hexes):
        terrain = game.hex_terrain[h]
        if terrain not in styles:
            styles[terrain] = _ground(game, terrain)
        fill, textures = styles[terrain]
        _paint_hex(b.draw, b.centre(h), b.s, b.orientation, fill, textures, h.q * 7919 + h.r * 104729, layer)
    if layer == "late":
        return
    sea = _sea_hexes(game)
    coast: list[tuple[Segment, Point]] = []
    for h in sorted(sea):
        for n in h.neighbours():
            if n in game.grid and n not in sea:
                coast.append((b.segment(Hexside.between(h, n)), _unit(b.centre(n), b.centre(h))))
    # Shallows: a pale band on the sea side of the coast, then the coastline itself.
    for (p, q), (ux, uy) in coast:
        off = 0.1 * b.s
        _polyline(b.draw, [(p[0] + ux * off, p[1] + uy * off), (q[0] + ux * off, q[1] + uy * off)], SHALLOWS,
                  0.16 * b.s)
    for line in _chain(seg for seg, _ in coast):
        _polyline(b.draw, line, COAST, 0.035 * b.s)


def _sea_hexes(game: Game) -> set[Hex]:
    """Hexes that are all water (their sides toward land are the coast)."""
    return {h for h, terrain in game.hex_terrain.items() if all(hex_style(game, t).texture == "waves" for t in terrain)}


def _draw_grid(b: _Board) -> None:
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
            styles[terrain] = _rgb(_ground(game, terrain)[0])
        fills[h] = styles[terrain]
    sea = _sea_hexes(game)
    paper, ink = _rgb(PAPER), _rgb(INK)
    width = _px(b.s * 0.028)
    inks: dict[tuple[RGB, RGB], RGB] = {}
    for h in sorted(fills):
        for n in h.neighbours():
            if n in fills and (n < h or (n in sea) != (h in sea)):
                continue  # each side once, from its smaller hex; none under the coastline
            pair = (fills[h], fills.get(n, paper))
            if pair not in inks:
                ground = [(a + c) / 2 for a, c in zip(*pair)]
                inks[pair] = tuple(round(g + (k - g) * GRID_ALPHA / 255) for g, k in zip(ground, ink))  # type: ignore[assignment]
            b.draw.line(list(b.segment(Hexside.between(h, n))), fill=inks[pair], width=width)


HEX_NUMBER_SIZE = 0.24
"""The printed hex numbers' font size, as a share of the hex size."""
HEX_NUMBER_DY: dict[str, float] = {"flat": -0.66, "pointy": -0.6}
"""How far above its hex's centre a hex number is printed, as a share of the hex size, by orientation."""


def hex_number_px(hex_size_px: float) -> int:
    """The font size of the hex numbers on a board drawn with hexes of this size."""
    return _px(hex_size_px * HEX_NUMBER_SIZE)


def _draw_hex_labels(b: _Board) -> None:
    """The printed hex numbers, small, at the top of each hex (printed over everything the
    board draws but the place names, which keep clear of them)."""
    game = b.game
    size = b.layout.size_px
    f = font(hex_number_px(size), condensed=True)
    dy = HEX_NUMBER_DY[b.orientation]
    styles: dict[tuple[str, ...], str] = {}
    for h in sorted(game.grid.hexes):
        terrain = game.hex_terrain[h]
        if terrain not in styles:
            styles[terrain] = _ground(game, terrain)[0]
        fill = styles[terrain]
        cx, cy = b.layout.centre(h)
        ink = LABEL_LIGHT if _is_dark(fill) else LABEL_DARK
        # A halo in the hex's colour keeps roads and rivers drawn across the number off its digits.
        b.texts.append(_Text((cx, cy + dy * size), game.grid.label_of(h), f, ink, "mm", _px(size * 0.05), fill,
                             glyphs=True))


def _area_hexes(game: Game, area_id: str) -> list[Hex]:
    """An area's hexes that are on the map, sorted."""
    return sorted(h for h in game.area_hexes(area_id) if h in game.grid)


def _outer_edges(b: _Board, hexes: Iterable[Hex]) -> list[Segment]:
    """Sides of these hexes that face off the map."""
    return [b.segment(Hexside.between(h, n)) for h, n in _sides_of(hexes) if n not in b.game.grid]


def _draw_areas(b: _Board) -> None:
    """Country borders and names, edge and entry bands, port areas and landing hexes."""
    game, s, draw = b.game, b.s, b.draw
    for area in game.areas.area:
        hexes = _area_hexes(game, area.id)
        if not hexes:
            continue
        if area.kind == "country":
            border = [b.segment(Hexside.between(h, n)) for h, n in _sides_of(hexes) if n in game.grid]
            for line in _chain(border):
                _polyline(draw, line, PAPER, 0.1 * s)
                for piece in _dashes(line, 0.3 * s, 0.12 * s):
                    _polyline(draw, piece, COUNTRY, 0.05 * s, caps=False)
            _letter_country(b, area.name, hexes)
        elif area.kind in ("edge", "entry"):
            colour = EDGE if area.kind == "edge" else ENTRY
            for line in _chain(_outer_edges(b, hexes)):
                _polyline(draw, line, colour, 0.13 * s)
    for area in game.areas.area:
        hexes = _area_hexes(game, area.id) if area.kind in ("port_area", "landing", "beach") else []
        if not hexes:
            continue
        polygons = [Polygon(b.fine.corners(h)) for h in hexes]
        if area.kind == "port_area":
            for ring in _rings(polygons, 0.13 * s, s):
                _dotted(draw, ring, PORT_AREA, 0.035 * s, 0.12 * s)
        elif area.kind in ("landing", "beach"):
            for ring in _rings(polygons, 0.055 * s, s):
                _polyline(draw, ring, LANDING, 0.1 * s)


def _letter_country(b: _Board, name: str, hexes: Sequence[Hex]) -> None:
    """A country's name in large spaced capitals, translucent, inside its hexes and clear of
    its towns' names when it can be."""
    text = " ".join(name.upper())
    # As large as fits across the country (up to most of a hex high); none if too small to read.
    xs = [x for h in hexes for x, _ in b.fine.corners(h)]
    x0, x1 = min(xs), max(xs)
    size = b.s * 0.8
    f = font(_px(size), bold=True)
    fit = (x1 - x0) * 0.85 / max(1.0, b.draw.textlength(text, font=f))
    if fit < 1:
        size *= fit
        if size < b.s * 0.35:
            return
        f = font(_px(size), bold=True)
    half_w, half_h = b.draw.textlength(text, font=f) / 2, size / 2
    places = [b.centre(b.game.grid.hex_of(p.hex)) for _, p in b.game.places]
    cx = sum(b.centre(h)[0] for h in hexes) / len(hexes)
    cy = sum(b.centre(h)[1] for h in hexes) / len(hexes)
    # The least crowded spot nearest the middle whose box fits in the country: spots are
    # ranked first and only tried in that order (the fit is the slow part).
    places.sort(key=lambda p: p[1])
    rows = [py for _, py in places]
    ranked: list[tuple[int, float, int, Point]] = []
    for k, h in enumerate(hexes):
        x, y = b.centre(h)
        y += b.s * 0.43  # between a hex's name spot and the next hex's number
        # Names of places at most a hex above or below the spot (places sorted by y).
        band = places[bisect.bisect_left(rows, y - b.s * 1.0):bisect.bisect_right(rows, y + b.s * 0.9)]
        crowd = sum(1 for px, py in band
                    if abs(px - x) < half_w + b.s and -b.s * 0.9 < y - py < b.s * 1.0)
        ranked.append((crowd, math.hypot(x - cx, y - cy), k, (x, y)))
    members = set(hexes)
    for _, _, _, (x, y) in sorted(ranked):
        box = Polygon([(x - half_w, y - half_h), (x + half_w, y - half_h), (x + half_w, y + half_h),
                       (x - half_w, y + half_h)])
        # The country's hexes tile it: the box's area inside is the sum over the hexes it
        # reaches (a few dozen, where a union of the whole country took most of the time).
        near = b.fine.pixel_to_hex(x, y)
        reach = math.ceil(half_w / (b.s * 1.5)) + 2
        covered = sum(box.intersection(Polygon(b.fine.corners(h))).area
                      for h in near.spiral(reach) if h in members)
        if covered >= 0.97 * box.area:
            break
    else:
        return

    def paint(mask: Draw, ink: int, origin: Point) -> None:
        mask.text((x - origin[0], y - origin[1]), text, fill=ink, font=f, anchor="mm")
    left, top, right, bottom = b.draw.textbbox((x, y), text, font=f, anchor="mm")
    b.tint(paint, "#3d3a35", 105, (left, top, right, bottom), smooth=True)


def _draw_hexsides(b: _Board) -> None:
    """Waterways, roads, trails, bridges and fortified sides, in that order."""
    game, s, draw = b.game, b.s, b.draw
    by_style: dict[SideStyle, list[Hexside]] = defaultdict(list)
    for side, features in game.hexside_features.items():
        for feature in sorted(features):
            by_style[side_style(game, feature)].append(side)
    ordered = sorted(by_style.items(), key=lambda item: (item[0].order, item[0].colour, item[0].width))
    for style, sides in ordered:
        if style.kind in ("water", "line"):
            _water(draw, _chain(b.segment(side) for side in sides), style, s)
    bridges = [(side, style) for style, sides in ordered if style.kind == "bridge" for side in sides]
    for side, _ in bridges:
        _bridge(draw, _mid(b.segment(side)), _unit(b.centre(side.a), b.centre(side.b)), s, rails=False)
    for style, sides in ordered:
        if style.kind == "path":
            _path(draw, _chain((b.centre(side.a), b.centre(side.b)) for side in sides), style, s)
    for side, style in bridges:
        _bridge(draw, _mid(b.segment(side)), _unit(b.centre(side.a), b.centre(side.b)), s, rails=True,
                colour=style.colour)
    for style, sides in ordered:
        if style.kind != "teeth":
            continue
        for side in sides:
            inner, outer = _fortified_inside(game, side)
            a, c = b.segment(side)
            _teeth(draw, a, c, _unit(b.centre(inner), b.centre(outer)), s, style.colour)


def _mid(segment: Segment) -> Point:
    """The middle of a segment."""
    (ax, ay), (bx, by) = segment
    return (ax + bx) / 2, (ay + by) / 2


def _fortified_inside(game: Game, side: Hexside) -> tuple[Hex, Hex]:
    """(the fortified hex, the hex its teeth face) across a fortified side."""
    def fortified(h: Hex) -> bool:
        return any(hex_style(game, t).texture == "fort" for t in game.hex_terrain.get(h, ()))
    if fortified(side.b) and not fortified(side.a):
        return side.b, side.a
    return side.a, side.b


def _draw_lines(b: _Board) -> None:
    """Named lines: the Victory Line, scenario boundaries and others."""
    game, s, draw = b.game, b.s, b.draw
    west = WEST[game.map.north]
    for line_def in game.areas.line:
        if line_def.hexsides:
            segments = [b.segment(game.grid.parse_hexside(text)) for text in line_def.hexsides]
            outward: dict[Segment, Point] = {}
        else:
            # A line of hexes: the limit runs along the sides of those hexes that face west
            # (10.1 of Omaha: no unit may move west of the line).
            members = {game.grid.hex_of(label) for label in line_def.hexes}
            segments = []
            outward = {}
            for h, n in _sides_of(members):
                u = _unit(b.centre(h), b.centre(n))
                if u[0] * west[0] + u[1] * west[1] > 0.3:
                    seg = b.segment(Hexside.between(h, n))
                    segments.append(seg)
                    outward[seg] = u
        if line_def.kind == "boundary":
            bands = [[(x + ux * 0.14 * s, y + uy * 0.14 * s) for x, y in seg]
                     for seg in segments for ux, uy in [outward.get(seg, (0.0, 0.0))]]

            def band(mask: Draw, ink: int, origin: Point, bands: list[list[Point]] = bands) -> None:
                for points in bands:
                    _polyline(mask, [(x - origin[0], y - origin[1]) for x, y in points], ink, 0.28 * s)
            if bands:
                xs, ys = [x for points in bands for x, _ in points], [y for points in bands for _, y in points]
                reach = 0.14 * s + 2
                b.tint(band, BOUNDARY, 90, (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach))
            for points in _chain(segments):
                _polyline(draw, points, BOUNDARY, 0.09 * s)
        elif line_def.kind == "river":
            _water(draw, _chain(segments), side_style(game, "river"), s)
        else:
            colour = VICTORY if line_def.kind == "victory" else INK
            for points in _chain(segments):
                _polyline(draw, points, PAPER, 0.16 * s)
                _dashed(draw, points, colour, 0.11 * s, 0.32 * s, 0.16 * s)


def _draw_markers(b: _Board, reserved: list[tuple[float, float, float, float]]) -> None:
    """Ports (anchor and supply value), entry letters and objective stars."""
    game, s, draw = b.game, b.s, b.draw
    for area in game.areas.area:
        hexes = _area_hexes(game, area.id)
        if area.kind == "port":
            # Anchor and value sit right of the centre, clear of a fort symbol in the middle
            # and of the name below it.
            for h in hexes:
                cx, cy = b.centre(h)
                ax, ay = cx + 0.4 * s, cy - 0.12 * s
                _anchor(draw, (ax, ay), s, ANCHOR)
                reserved.append((ax - 0.12 * s, ay - 0.22 * s, ax + 0.12 * s, ay + 0.2 * s))
                if area.value is not None:
                    bx = ax + 0.32 * s
                    _badge(draw, (bx, ay), 0.19 * s, str(area.value), ANCHOR, s)
                    reserved.append((bx - 0.2 * s, ay - 0.2 * s, bx + 0.2 * s, ay + 0.2 * s))
        elif area.kind == "entry":
            letter = _entry_letter(area.id, area.name)
            if letter is None:
                _edge_name(b, area.name, hexes, ENTRY)
                continue
            for h in hexes:
                off = [_unit(b.centre(h), b.centre(n)) for n in h.neighbours() if n not in game.grid]
                cx, cy = b.centre(h)
                if off:
                    ux, uy = sum(u[0] for u in off), sum(u[1] for u in off)
                    length = math.hypot(ux, uy) or 1.0
                    cx, cy = cx + ux / length * 0.62 * s, cy + uy / length * 0.62 * s
                _badge(draw, (cx, cy), 0.19 * s, letter, ENTRY, s)
                reserved.append((cx - 0.2 * s, cy - 0.2 * s, cx + 0.2 * s, cy + 0.2 * s))
        elif area.kind == "victory" and 0 < len(hexes) <= 24:
            # Small victory areas are objectives worth marking hex by hex; a large one (a
            # whole region) is shown by its line instead.
            for h in hexes:
                cx, cy = b.centre(h)
                _star(draw, (cx - 0.45 * s, cy - 0.22 * s), 0.14 * s, VICTORY, s)
                reserved.append((cx - 0.6 * s, cy - 0.37 * s, cx - 0.3 * s, cy - 0.07 * s))
        elif area.kind == "edge":
            _edge_name(b, area.name, hexes, EDGE)
    for h in sorted(game.grid.hexes):
        if any(hex_style(game, t).texture == "fort" for t in game.hex_terrain[h]):
            cx, cy = b.centre(h)
            reserved.append((cx - 0.26 * s, cy - 0.24 * s, cx + 0.26 * s, cy + 0.28 * s))


def _entry_letter(area_id: str, name: str) -> str | None:
    """The letter printed on an entry area (the last part of its id or name if one or two
    characters long); None when it has none."""
    for word in (area_id.split("_")[-1], *name.split()[-1:]):
        if len(word) <= 2:
            return word.upper()
    return None


def _edge_name(b: _Board, name: str, hexes: Sequence[Hex], colour: str) -> None:
    """An edge area's name in the margin beside it, turned to run along the edge."""
    edges = _outer_edges(b, hexes)
    if not edges:
        return
    xs = [p[0] for seg in edges for p in seg]
    ys = [p[1] for seg in edges for p in seg]
    vertical = max(xs) - min(xs) < max(ys) - min(ys)
    f = font(_px(b.s * 0.3), bold=True)
    text = name.upper()
    box = b.draw.textbbox((0, 0), text, font=f)
    tw, th = box[2] - box[0], box[3] - box[1]
    stamp = Image.new("L", (round(tw) + 8, round(th) + 8), 0)
    ImageDraw.Draw(stamp).text((4 - box[0], 4 - box[1]), text, fill=255, font=f)
    width, height = b.board_px
    if vertical:
        stamp = stamp.rotate(90 if sum(xs) / len(xs) < width / 2 else -90, expand=True)
        outside = min(xs) < width / 2
        x = (min(xs) - b.s * 0.55) if outside else (max(xs) + b.s * 0.18)
        y = (min(ys) + max(ys)) / 2 - stamp.height / 2
    else:
        outside = min(ys) < height / 2
        x = (min(xs) + max(xs)) / 2 - stamp.width / 2
        y = (min(ys) - b.s * 0.55) if outside else (max(ys) + b.s * 0.18)
    solid = Image.new("RGB", stamp.size, colour)
    b.image.paste(solid, (round(x), round(y)), stamp)


PLACE_FONT: dict[str, tuple[float, bool]] = {
    "city": (0.36, True), "port": (0.33, True), "town": (0.31, True), "village": (0.28, False),
    "landmark": (0.28, False), "beach": (0.3, True), "region": (0.34, True),
}


def _draw_places(b: _Board, reserved: list[tuple[float, float, float, float]]) -> None:
    """Place symbols and names: one label per group of adjacent hexes of the same name."""
    game, s, draw = b.game, b.s, b.draw
    by_name: dict[tuple[str, str], set[Hex]] = defaultdict(set)
    for _, place in game.places:
        by_name[(place.name, place.kind)].add(game.grid.hex_of(place.hex))
    groups: list[tuple[str, str, list[Hex]]] = []
    for (name, kind), members in sorted(by_name.items()):
        left = set(members)
        while left:
            seed = min(left)
            component, frontier = {seed}, [seed]
            while frontier:
                for n in frontier.pop().neighbours():
                    if n in left and n not in component:
                        component.add(n)
                        frontier.append(n)
            left -= component
            groups.append((name, kind, sorted(component)))
    names: list[tuple[Point, str, str, list[Hex]]] = []
    for name, kind, hexes in groups:
        # Built-up terrain (and a fort symbol) already mark the hex: no extra dot.
        built_up = any(
            hex_style(game, t).texture in ("houses", "blocks", "fort") for h in hexes for t in game.hex_terrain[h])
        centres = [b.centre(h) for h in hexes]
        cx = sum(p[0] for p in centres) / len(centres)
        cy = sum(p[1] for p in centres) / len(centres)
        if not built_up and kind in ("city", "town", "village", "port"):
            for x, y in centres:
                r = s * (0.1 if kind in ("city", "port") else 0.075)
                draw.rectangle((x - r, y - r, x + r, y + r), fill=INK, outline=PAPER, width=_px(s * 0.025))
                reserved.append((x - r, y - r, x + r, y + r))
        elif kind == "landmark":
            for x, y in centres:
                r = s * 0.12
                _outlined(draw, [(x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6)], INK, PAPER,
                          _px(s * 0.025))
                reserved.append((x - r, y - r, x + r, y + r))
        names.append(((cx, cy), name, kind, hexes))
    # Names are placed and printed at final pixels, among the symbols' boxes.
    size = b.layout.size_px
    taken = _Boxes(2 * size)
    for x0, y0, x1, y1 in reserved:
        taken.add((*b.final(x0, y0), *b.final(x1, y1)))
    # A name may not hide any printed hex number (a long name reaches two hexes away).
    # The box is the digits' with their halo (font 0.24 of the hex, 4 condensed digits).
    label_h, label_w = 0.32 * size, 0.36 * size
    dy = HEX_NUMBER_DY[b.orientation]
    for h in sorted(game.grid.hexes):
        x, y = b.layout.centre(h)
        taken.add((x - label_w, y + dy * size - label_h / 2, x + label_w, y + dy * size + label_h / 2))
    board_px = (b.board_px[0] / b.ss, b.board_px[1] / b.ss)
    # Cities first so the most important names get the best spots.
    rank = {"city": 0, "port": 1, "town": 2, "region": 3, "beach": 4, "landmark": 5, "village": 6}
    for centre, name, kind, hexes in sorted(names, key=lambda n: (rank.get(n[2], 9), n[1])):
        cx, cy = b.final(*centre)
        points, bold = PLACE_FONT.get(kind, (0.3, False))
        stroke = _px(size * 0.055)
        many = len(hexes) > 1
        spots: list[tuple[Point, Literal["mm", "lm", "rm"]]] = (
            [((cx, cy), "mm"), ((cx, cy + 0.42 * size), "mm"), ((cx, cy - 0.34 * size), "mm")] if many else
            [((cx, cy + 0.4 * size), "mm"), ((cx, cy - 0.34 * size), "mm"), ((cx + 0.2 * size, cy + 0.02 * size), "lm"),
             ((cx - 0.2 * size, cy + 0.02 * size), "rm"), ((cx, cy + 0.72 * size), "mm"), ((cx, cy + 0.52 * size), "mm"),
             ((cx, cy + 0.05 * size), "mm")])
        # Then the same spots nudged sideways, where a long name clears the numbers beside it.
        spots += [((x + dx * size, y), anchor) for (x, y), anchor in list(spots) for dx in (-0.45, 0.45)]
        best: tuple[float, Point, Literal["mm", "lm", "rm"], tuple[float, float, float, float],
                    ImageFont.FreeTypeFont] | None = None
        # The name's own size first, then smaller, before it may cover anything.
        for shrink in (1.0, 0.88, 0.78):
            f = font(_px(size * points * shrink), bold=bold)
            for spot, anchor in spots:
                spot = _inside_image(draw.textbbox(spot, name, font=f, anchor=anchor, stroke_width=stroke), spot,
                                     board_px)
                box = draw.textbbox(spot, name, font=f, anchor=anchor, stroke_width=stroke)
                overlap = taken.overlap(box)
                if best is None or overlap < best[0]:
                    best = (overlap, spot, anchor, box, f)
                if overlap == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        _, spot, anchor, box, f = best
        ink = "#1b4f8a" if kind in ("beach", "region") else INK
        b.texts.append(_Text(spot, name, f, ink, anchor, stroke, PAPER))
        taken.add(box)


class _Boxes:
    """Boxes (x0, y0, x1, y1) filed under the square cells they touch, so the area a new box
    shares with them is summed over its neighbours only (same sum, same order as over all)."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.boxes: list[tuple[float, float, float, float]] = []
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)

    def _cells(self, box: Sequence[float]) -> Iterable[tuple[int, int]]:
        """The cells a box touches."""
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def add(self, box: Sequence[float]) -> None:
        """File a box."""
        self.boxes.append((box[0], box[1], box[2], box[3]))
        for cell in self._cells(box):
            self.cells[cell].append(len(self.boxes) - 1)

    def overlap(self, box: Sequence[float]) -> float:
        """The area a box shares with the filed ones, summed in filing order."""
        near = sorted({k for cell in self._cells(box) for k in self.cells.get(cell, ())})
        return sum(_overlap(box, self.boxes[k]) for k in near)


def _inside_image(box: Sequence[float], spot: Point, size: tuple[float, float]) -> Point:
    """A text position moved so its box stays on the board (names of edge hexes)."""
    x, y = spot
    x += max(0.0, -box[0]) - max(0.0, box[2] - size[0])
    y += max(0.0, -box[1]) - max(0.0, box[3] - size[1])
    return x, y


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """Area shared by two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


# -- title and legend -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Item:
    """One legend entry: a sample drawn in a box of one hex size, and its text."""

    text: str
    paint: Callable[[Draw, Point, float], None]


def _legend_items(game: Game, orientation: str) -> list[_Item]:
    """Legend entries for what this map shows: terrain, hexside features, then symbols."""
    items: list[_Item] = []
    used_terrain = sorted({t for terrain in game.hex_terrain.values() for t in terrain})
    chart_order = [t.id for t in game.terrain.values() if t.kind == "hex"]
    terrain_ids = [t for t in chart_order if t in used_terrain] + [t for t in used_terrain if t not in chart_order]
    for tid in terrain_ids:
        chart = game.terrain.get(tid)
        fill, textures = _ground(game, (tid,))
        if textures and textures[0] in OVERLAY_TEXTURES and chart is not None and not chart.colour:
            fill = _ground(game, (game.map.default_terrain,))[0]

        def paint_hex(draw: Draw, c: Point, s: float, fill: str = fill, textures: list[str] = textures,
                      seed: int = zlib.crc32(tid.encode())) -> None:
            _paint_hex(draw, c, s * 0.62, orientation, fill, textures, seed)
            corners = _corners(c, s * 0.62, orientation)
            draw.line(corners + [corners[0]], fill=_shade(fill, 0.6), width=_px(s * 0.025))
        items.append(_Item(chart.name if chart else tid.replace("_", " ").capitalize(), paint_hex))
    used_features = sorted({f for features in game.hexside_features.values() for f in features},
                           key=lambda f: (side_style(game, f).order, f))
    for feature in used_features:
        style = side_style(game, feature)
        chart = game.terrain.get(feature)
        text = chart.name if chart else feature.replace("_", " ").capitalize()

        def paint_side(draw: Draw, c: Point, s: float, style: SideStyle = style) -> None:
            x, y = c
            a, z = (x - 0.55 * s, y), (x + 0.55 * s, y)
            if style.kind == "path":
                _path(draw, [[a, z]], style, s)
            elif style.kind == "teeth":
                _teeth(draw, a, z, (0.0, -1.0), s, style.colour)
            elif style.kind == "bridge":
                _water(draw, [[(x, y - 0.45 * s), (x, y + 0.45 * s)]], side_style(game, "river"), s)
                _bridge(draw, c, (1.0, 0.0), s, rails=False)
                _path(draw, [[a, z]], side_style(game, "road"), s)
                _bridge(draw, c, (1.0, 0.0), s, rails=True, colour=style.colour)
            else:
                _water(draw, [[a, z]], style, s)
        items.append(_Item(text, paint_side))
    items.extend(_symbol_items(game, orientation))
    return items


def _symbol_items(game: Game, orientation: str) -> list[_Item]:
    """Legend entries for areas, lines and place symbols present on this map."""
    items: list[_Item] = []
    kinds = {a.kind for a in game.areas.area}
    ports = [a for a in game.areas.area if a.kind == "port"]
    if ports:
        def paint_port(draw: Draw, c: Point, s: float) -> None:
            _anchor(draw, (c[0] - 0.22 * s, c[1]), s, ANCHOR)
            _badge(draw, (c[0] + 0.12 * s, c[1]), 0.19 * s, "5", ANCHOR, s)
        items.append(_Item("Port and its supply points", paint_port))
    for kind, text in (("landing", "Landing hexes"), ("beach", "Beach hexes")):
        named = [a.name for a in game.areas.area if a.kind == kind]
        if named:
            def paint_landing(draw: Draw, c: Point, s: float) -> None:
                corners = _corners(c, s * 0.5, orientation)
                _polyline(draw, corners + [corners[0]], LANDING, 0.1 * s)
            items.append(_Item(named[0] if len(named) == 1 else text, paint_landing))
    if "port_area" in kinds:
        def paint_port_area(draw: Draw, c: Point, s: float) -> None:
            corners = _corners(c, s * 0.5, orientation)
            _dotted(draw, corners + [corners[0]], PORT_AREA, 0.035 * s, 0.12 * s)
        items.append(_Item("Port area", paint_port_area))
    lettered = [(a, _entry_letter(a.id, a.name)) for a in game.areas.area if a.kind == "entry"]
    letters = [letter for _, letter in lettered if letter]
    if letters:
        def paint_entry(draw: Draw, c: Point, s: float, letter: str = letters[0]) -> None:
            _polyline(draw, [(c[0] - 0.55 * s, c[1] + 0.3 * s), (c[0] + 0.55 * s, c[1] + 0.3 * s)], ENTRY, 0.13 * s)
            _badge(draw, (c[0], c[1] + 0.02 * s), 0.19 * s, letter, ENTRY, s)
        items.append(_Item(f"Entry area{'s' if len(letters) > 1 else ''} {', '.join(letters)}", paint_entry))
    for area, letter in lettered:
        if letter is None:
            def paint_entry_edge(draw: Draw, c: Point, s: float) -> None:
                _polyline(draw, [(c[0] - 0.55 * s, c[1]), (c[0] + 0.55 * s, c[1])], ENTRY, 0.13 * s)
            items.append(_Item(area.name, paint_entry_edge))
    for area in (a for a in game.areas.area if a.kind == "edge"):
        def paint_edge(draw: Draw, c: Point, s: float) -> None:
            _polyline(draw, [(c[0] - 0.55 * s, c[1]), (c[0] + 0.55 * s, c[1])], EDGE, 0.13 * s)
        items.append(_Item(area.name, paint_edge))
    for area in (a for a in game.areas.area if a.kind == "country"):
        def paint_country(draw: Draw, c: Point, s: float) -> None:
            line = [(c[0] - 0.6 * s, c[1]), (c[0] + 0.6 * s, c[1])]
            _dashed(draw, line, COUNTRY, 0.05 * s, 0.3 * s, 0.12 * s)
        items.append(_Item(f"Border of {area.name}", paint_country))
    for area in (a for a in game.areas.area if a.kind == "victory"):
        if len(game.area_hexes(area.id)) <= 24:
            def paint_star(draw: Draw, c: Point, s: float) -> None:
                _star(draw, c, 0.16 * s, VICTORY, s)
            items.append(_Item(area.name, paint_star))
    for line_def in game.areas.line:
        if line_def.kind == "boundary":
            def paint_boundary(draw: Draw, c: Point, s: float) -> None:
                draw.rectangle((c[0] - 0.55 * s, c[1] - 0.28 * s, c[0] + 0.55 * s, c[1]),
                               fill=_mix(PAPER, BOUNDARY, 90 / 255))
                _polyline(draw, [(c[0] - 0.55 * s, c[1]), (c[0] + 0.55 * s, c[1])], BOUNDARY, 0.09 * s)
            items.append(_Item(line_def.name, paint_boundary))
        elif line_def.kind != "river":
            colour = VICTORY if line_def.kind == "victory" else INK

            def paint_line(draw: Draw, c: Point, s: float, colour: str = colour) -> None:
                line = [(c[0] - 0.6 * s, c[1]), (c[0] + 0.6 * s, c[1])]
                _polyline(draw, line, PAPER, 0.16 * s)
                _dashed(draw, line, colour, 0.11 * s, 0.32 * s, 0.16 * s)
            items.append(_Item(line_def.name, paint_line))
    place_kinds = {p.kind for _, p in game.places}
    if place_kinds & {"city", "port", "town", "village"}:
        def paint_town(draw: Draw, c: Point, s: float) -> None:
            r = 0.075 * s
            draw.rectangle((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=INK)
        items.append(_Item("Town (name and hex)", paint_town))
    if "landmark" in place_kinds:
        def paint_landmark(draw: Draw, c: Point, s: float) -> None:
            r = 0.12 * s
            x, y = c
            draw.polygon([(x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6)], fill=INK)
        items.append(_Item("Landmark", paint_landmark))
    return items


def _mix(a: str, b: str, t: float) -> RGB:
    """Colour a blended toward b by t."""
    ra, rb = _rgb(a), _rgb(b)
    return (round(ra[0] + (rb[0] - ra[0]) * t), round(ra[1] + (rb[1] - ra[1]) * t),
            round(ra[2] + (rb[2] - ra[2]) * t))


def _wrap(draw: Draw, text: str, f: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Words of a text in lines no wider than `width`."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and draw.textlength(trial, font=f) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


@dataclass(frozen=True)
class _StripPlan:
    """Where the title and legend go, in final pixels."""

    side: Literal["right", "bottom"]
    image_size: tuple[int, int]
    columns: int
    rows: int
    column_w: float
    row_h: float
    title_w: float
    title_beside: bool  # title block left of the legend (else above it)


def _plan_strip(board_size: tuple[int, int], size: float, items: int) -> _StripPlan:
    """Put the title and legend under a wide map or beside a tall one."""
    width, height = board_size
    row_h, column_w, title_w, title_h = size * 1.5, size * 6.4, size * 9.0, size * 5.0
    # Under the map: the title block at the left when there is room, the legend in columns.
    beside = width >= title_w + column_w + size
    columns = max(1, int((width - (title_w if beside else 0) - size) // column_w))
    rows = max(3, math.ceil(items / columns))
    strip = size * 1.0 + rows * row_h + (0 if beside else title_h)
    bottom = _StripPlan("bottom", (width, math.ceil(height + strip)), columns, rows, column_w, row_h, title_w, beside)
    # Beside the map: the title block on top, the legend in as many columns as it needs.
    rows = max(1, int((height - title_h - size) // row_h))
    columns = max(1, math.ceil(items / rows))
    strip = max(title_w, columns * column_w) + size * 0.6
    right = _StripPlan("right", (math.ceil(width + strip), height), columns, rows, column_w, row_h, title_w, False)
    # A tall map takes its legend beside it, a wide one below, unless that wastes much paper.
    preferred, other = (right, bottom) if height > width else (bottom, right)
    def area(plan: _StripPlan) -> int:
        return plan.image_size[0] * plan.image_size[1]
    return preferred if area(preferred) <= 1.3 * area(other) else other


def _draw_strip(b: _Board, plan: _StripPlan, board_size: tuple[int, int], items: list[_Item]) -> None:
    """Title, map name, scale, north arrow and the legend."""
    game, draw = b.game, b.draw
    size = b.layout.size_px
    ss = b.ss
    width, height = board_size
    if plan.side == "bottom":
        x0, y0 = size * 0.6, height + size * 0.4
        draw.line([b.at(size * 0.4, height), b.at(width - size * 0.4, height)], fill=INK, width=_px(ss * 1.5))
    else:
        x0, y0 = width + size * 0.3, size * 0.6
        draw.line([b.at(width, size * 0.4), b.at(width, height - size * 0.4)], fill=INK, width=_px(ss * 1.5))
    # Title block (text at final pixels, see _Text).
    title_font = font(_px(size * 0.62), bold=True)
    sub_font = font(_px(size * 0.3))
    y = y0
    for line in _wrap(draw, game.manifest.title, title_font, plan.title_w - size):
        b.texts.append(_Text((x0, y), line, title_font, INK, "la"))
        y += size * 0.78
    y += size * 0.1
    for line in _wrap(draw, game.map.name, sub_font, plan.title_w - size):
        b.texts.append(_Text((x0, y), line, sub_font, INK, "la"))
        y += size * 0.4
    arrow_c = b.at(x0 + size * 0.6, y + size * 1.0)
    _arrow(draw, arrow_c, size * 1.1 * ss, game.map.north, size * ss)
    if game.map.miles_per_hex:
        _scale_bar(b, (x0 + size * 1.6, y + size * 0.9), game.map.miles_per_hex, game.map.scale_source,
                   game.map.drawn_miles_per_hex)
    # Legend grid.
    if plan.title_beside:
        lx, ly = x0 + plan.title_w, height + size * 0.55
    elif plan.side == "bottom":
        lx, ly = x0 - size * 0.3, y + size * 2.2
    else:
        lx, ly = width + size * 0.3, y + size * 2.2
    item_font = font(_px(size * 0.33))
    for k, item in enumerate(items):
        col, row = divmod(k, plan.rows)
        if col >= plan.columns:
            break
        cx = lx + col * plan.column_w + size * 0.7
        cy = ly + row * plan.row_h + size * 0.62
        item.paint(draw, b.at(cx, cy), size * ss)
        lines = _wrap(draw, item.text, item_font, plan.column_w - size * 1.7)[:3]
        line_h = size * 0.36
        ty = cy - line_h * (len(lines) - 1) / 2
        for text in lines:
            b.texts.append(_Text((cx + size * 0.9, ty), text, item_font, INK, "lm"))
            ty += line_h


def _scale_bar(b: _Board, origin: Point, miles_per_hex: float, source: str | None = None,
               drawn_miles_per_hex: float | None = None) -> None:
    """A scale bar a few hexes long, marked in miles: the rule's figure (cited), and the scale the
    map is really drawn to when a reconstruction departs from it."""
    size = b.layout.size_px
    ss = b.ss
    hex_px = SQRT3 * size  # centre to centre
    hexes = 4
    x, y = origin
    f = font(_px(size * 0.26))
    for k in range(hexes):
        fill = INK if k % 2 == 0 else PAPER
        b.draw.rectangle((*b.at(x + k * hex_px / 2, y), *b.at(x + (k + 1) * hex_px / 2, y + size * 0.14)),
                         fill=fill, outline=INK, width=_px(ss * 0.8))
    for k in range(0, hexes + 1, 2):
        miles = miles_per_hex * k / 2
        b.texts.append(_Text((x + k * hex_px / 2, y + size * 0.22), f"{miles:g}", f, INK, "ma"))
    b.texts.append(_Text((x + hexes * hex_px / 2 + size * 0.3, y + size * 0.07), "miles", f, INK, "lm"))
    cited = f" ({source})" if source and not is_reconstructed(source) else ""
    b.texts.append(_Text((x, y - size * 0.2), f"1 hex = {miles_per_hex:g} miles{cited}", f, INK, "ld"))
    if drawn_miles_per_hex:
        b.texts.append(_Text((x, y + size * 0.6), f"drawn at {drawn_miles_per_hex:g} miles a hex", f, INK, "la"))
        b.texts.append(_Text((x, y + size * 0.92), "(reconstruction, see PROVENANCE)", f, INK, "la"))


PASTE_BANDS = 4
"""Horizontal bands a translucent paste is split into, one per worker thread at most."""


def board_image_size(game: Game, scale: float = 1.0) -> tuple[int, int]:
    """The size of `render_board`'s image: the map and its title and legend strip."""
    layout = board_layout(game, scale)
    board_size = layout.board_size(game.grid, game.map.layout.margin_px * scale)
    return _plan_strip(board_size, layout.size_px, len(_legend_items(game, layout.orientation))).image_size


def render_board(game: Game, scale: float = 1.0, texts: list[_Text] | None = None) -> Image.Image:
    """The map board, its top-left pixel at `board_layout(game, scale)`'s pixel (0, 0)."""
    layout = board_layout(game, scale)
    margin = game.map.layout.margin_px * scale
    board_size = layout.board_size(game.grid, margin)
    items = _legend_items(game, layout.orientation)
    plan = _plan_strip(board_size, layout.size_px, len(items))
    width, height = plan.image_size
    ss = SUPERSAMPLE if width * height <= LARGE_BOARD_PX else 2
    offset = (ss - 1) / 2  # see _Board.at: layout points are pixel centres
    fine = Layout(layout.orientation, layout.size_px * ss,
                  (layout.origin[0] * ss + offset, layout.origin[1] * ss + offset))
    image = Image.new("RGB", (width * ss, height * ss), PAPER)
    b = _Board(game, layout, fine, image, ImageDraw.Draw(image), (board_size[0] * ss, board_size[1] * ss), ss)
    _draw_terrain(b, "ground")
    _draw_grid(b)
    _draw_hex_labels(b)
    _draw_areas(b)
    _draw_hexsides(b)
    _draw_lines(b)
    _draw_terrain(b, "late")
    reserved: list[tuple[float, float, float, float]] = []
    _draw_markers(b, reserved)
    _draw_places(b, reserved)
    _draw_strip(b, plan, board_size, items)
    if texts is not None:
        texts.extend(b.texts)  # what was printed where, for the tests of label placement
    # A box filter: each final pixel the mean of its ss x ss block (the supersampling's own
    # anti-aliasing; LANCZOS looked the same and took ten times longer).
    board = image.reduce(ss)
    draw = ImageDraw.Draw(board)
    glyphs = _GlyphPrinter(board)
    for t in b.texts:
        if t.glyphs:
            glyphs.print(t)
        else:
            draw.text(t.xy, t.text, fill=t.fill, font=t.font, anchor=t.anchor, stroke_width=t.stroke_width,
                      stroke_fill=t.stroke_fill)
    return board


def write_board(game: Game, out_dir: Path, scale: float = 1.0) -> Path:
    """Write `<game>-board.png` into out_dir; its path."""
    buffer = io.BytesIO()
    render_board(game, scale).save(buffer, format="PNG", optimize=False)
    path = out_dir / f"{game.id}-board.png"
    write_atomically(path, buffer.getvalue())
    return path


__all__ = ["HexStyle", "SideStyle", "board_image_size", "board_layout", "hex_style", "render_board", "side_style", "write_board"]
