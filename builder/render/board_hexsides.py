"""Hexside features on the board (waterways, roads, trails, rail, bridges, fortified sides) and named lines."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from builder.render.board_canvas import (
    BoardCanvas, Draw, Point, Segment, chain, draw_dashed, draw_polyline, midpoint, sides_of, unit_vector,
    whole_px,
)
from builder.render.board_terrain import hex_style
from builder.render.ink import INK, PAPER
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.records import frozen


@frozen
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

VICTORY = "#c0182b"
BOUNDARY = "#7a0a4a"
WEST: dict[str, Point] = {"up": (-1.0, 0.0), "right": (0.0, -1.0), "down": (1.0, 0.0), "left": (0.0, 1.0)}


def side_style(game: Game, feature: str) -> SideStyle:
    """The style of a hexside feature: ours (or a guess from its id, else a grey dashed line),
    in terrain.toml's colour where it gives one."""
    style = SIDE_STYLES.get(feature) or next((st for word, st in SIDE_HINTS if word in feature), FALLBACK_SIDE)
    chart = game.terrain.get(feature)
    if chart is not None and chart.colour:
        style = replace(style, colour=chart.colour)
    return style


def draw_teeth(draw: Draw, a: Point, b: Point, outward: Point, s: float, colour: str) -> None:
    """A fortified line on segment a-b with saw teeth pointing `outward`."""
    nx, ny = outward
    base_shift = -0.03 * s  # the base sits just inside the fortified hex, teeth cross the side
    a2 = (a[0] + nx * base_shift, a[1] + ny * base_shift)
    b2 = (b[0] + nx * base_shift, b[1] + ny * base_shift)
    draw.line([a2, b2], fill=colour, width=whole_px(s * 0.05))
    n = 4
    for k in range(n):
        t0, t1 = (k + 0.15) / n, (k + 0.85) / n
        p0 = (a2[0] + (b2[0] - a2[0]) * t0, a2[1] + (b2[1] - a2[1]) * t0)
        p1 = (a2[0] + (b2[0] - a2[0]) * t1, a2[1] + (b2[1] - a2[1]) * t1)
        apex = ((p0[0] + p1[0]) / 2 + nx * s * 0.13, (p0[1] + p1[1]) / 2 + ny * s * 0.13)
        draw.polygon([p0, apex, p1], fill=colour)


def draw_bridge(draw: Draw, mid: Point, across: Point, s: float, rails: bool, colour: str = INK) -> None:
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
    w = whole_px(s * 0.035)
    flare = s * 0.07
    for side in (-1, 1):
        p0 = (x - ux * half_l + side * vx * half_w, y - uy * half_l + side * vy * half_w)
        p1 = (x + ux * half_l + side * vx * half_w, y + uy * half_l + side * vy * half_w)
        f0 = (p0[0] - ux * flare + side * vx * flare, p0[1] - uy * flare + side * vy * flare)
        f1 = (p1[0] + ux * flare + side * vx * flare, p1[1] + uy * flare + side * vy * flare)
        draw.line([f0, p0, p1, f1], fill=colour, width=w, joint="curve")


def draw_water(draw: Draw, lines: Sequence[Sequence[Point]], style: SideStyle, s: float) -> None:
    """Waterway or plain-line polylines in a side style."""
    for points in lines:
        if style.dash:
            draw_dashed(draw, points, style.colour, style.width * s, style.dash[0] * s, style.dash[1] * s)
            continue
        draw_polyline(draw, points, style.colour, style.width * s)
        if style.inner:
            draw_polyline(draw, points, style.inner, style.width * s * 0.4)


def draw_path(draw: Draw, lines: Sequence[Sequence[Point]], style: SideStyle, s: float) -> None:
    """Roads and trails, hex centre to hex centre."""
    for points in lines:
        if style.casing:
            draw_polyline(draw, points, style.casing, style.width * s * 1.9)
    for points in lines:
        if style.dash:
            draw_dashed(draw, points, style.colour, style.width * s, style.dash[0] * s, style.dash[1] * s)
        else:
            draw_polyline(draw, points, style.colour, style.width * s)


def draw_hexsides(b: BoardCanvas) -> None:
    """Waterways, roads, trails, bridges and fortified sides, in that order."""
    game, s, draw = b.game, b.s, b.draw
    by_style: dict[SideStyle, list[Hexside]] = defaultdict(list)
    for side, features in game.hexside_features.items():
        for feature in sorted(features):
            by_style[side_style(game, feature)].append(side)
    ordered = sorted(by_style.items(), key=lambda item: (item[0].order, item[0].colour, item[0].width))
    for style, sides in ordered:
        if style.kind in ("water", "line"):
            draw_water(draw, chain(b.segment(side) for side in sides), style, s)
    bridges = [(side, style) for style, sides in ordered if style.kind == "bridge" for side in sides]
    for side, _ in bridges:
        draw_bridge(draw, midpoint(b.segment(side)), unit_vector(b.centre(side.a), b.centre(side.b)), s, rails=False)
    for style, sides in ordered:
        if style.kind == "path":
            draw_path(draw, chain((b.centre(side.a), b.centre(side.b)) for side in sides), style, s)
    for side, style in bridges:
        draw_bridge(draw, midpoint(b.segment(side)), unit_vector(b.centre(side.a), b.centre(side.b)), s, rails=True,
                    colour=style.colour)
    for style, sides in ordered:
        if style.kind != "teeth":
            continue
        for side in sides:
            inner, outer = _fortified_inside(game, side)
            a, c = b.segment(side)
            draw_teeth(draw, a, c, unit_vector(b.centre(inner), b.centre(outer)), s, style.colour)


def _fortified_inside(game: Game, side: Hexside) -> tuple[Hex, Hex]:
    """(the fortified hex, the hex its teeth face) across a fortified side."""
    def fortified(h: Hex) -> bool:
        return any(hex_style(game, t).texture == "fort" for t in game.hex_terrain.get(h, ()))
    if fortified(side.b) and not fortified(side.a):
        return side.b, side.a
    return side.a, side.b


def draw_lines(b: BoardCanvas) -> None:
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
            for h, n in sides_of(members):
                u = unit_vector(b.centre(h), b.centre(n))
                if u[0] * west[0] + u[1] * west[1] > 0.3:
                    seg = b.side_between(h, n)
                    segments.append(seg)
                    outward[seg] = u
        if line_def.kind == "boundary":
            bands = [[(x + ux * 0.14 * s, y + uy * 0.14 * s) for x, y in seg]
                     for seg in segments for ux, uy in [outward.get(seg, (0.0, 0.0))]]

            def band(mask: Draw, ink: int, origin: Point, bands: list[list[Point]] = bands) -> None:
                for points in bands:
                    draw_polyline(mask, [(x - origin[0], y - origin[1]) for x, y in points], ink, 0.28 * s)
            if bands:
                xs, ys = [x for points in bands for x, _ in points], [y for points in bands for _, y in points]
                reach = 0.14 * s + 2
                b.tint(band, BOUNDARY, 90, (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach))
            for points in chain(segments):
                draw_polyline(draw, points, BOUNDARY, 0.09 * s)
        elif line_def.kind == "river":
            draw_water(draw, chain(segments), side_style(game, "river"), s)
        else:
            colour = VICTORY if line_def.kind == "victory" else INK
            for points in chain(segments):
                draw_polyline(draw, points, PAPER, 0.16 * s)
                draw_dashed(draw, points, colour, 0.11 * s, 0.32 * s, 0.16 * s)
