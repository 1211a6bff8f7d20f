"""The board's frame: title, map name, north arrow, scale bar and the legend of what the map shows."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from typing import Literal

from PIL import ImageFont

from builder.render.board_areas import (
    ANCHOR, COUNTRY, EDGE, ENTRY, LANDING, PORT_AREA, draw_anchor, draw_badge, draw_star, entry_letter,
)
from builder.render.board_canvas import (
    BoardCanvas, Draw, Point, PrintedText, draw_dashed, draw_dotted, draw_outlined, draw_polyline, hex_corners,
    shade, whole_px,
)
from builder.render.board_hexsides import (
    BOUNDARY, VICTORY, SideStyle, draw_bridge, draw_path, draw_teeth, draw_water, side_style,
)
from builder.render.board_terrain import OVERLAY_TEXTURES, hex_paint, paint_terrain
from builder.render.ink import INK, PAPER, font, mix, rgb, wrap_words
from wargame.game import Game
from wargame.layout import SQRT3, OrientationMatrix
from wargame.models import is_reconstructed
from wargame.records import frozen


# -- title and legend -----------------------------------------------------------------------
@frozen
class LegendItem:
    """One legend entry: a sample drawn in a box of one hex size, and its text."""

    text: str
    paint: Callable[[Draw, Point, float], None]


def legend_items(game: Game, matrix: OrientationMatrix) -> list[LegendItem]:
    """Legend entries for what this map shows: terrain, hexside features, then symbols."""
    items: list[LegendItem] = []
    used_terrain = sorted({t for terrain in game.hex_terrain.values() for t in terrain})
    chart_order = [t.id for t in game.terrain.values() if t.kind == "hex"]
    terrain_ids = [t for t in chart_order if t in used_terrain] + [t for t in used_terrain if t not in chart_order]
    for tid in terrain_ids:
        chart = game.terrain.get(tid)
        fill, textures = hex_paint(game, (tid,))
        if textures and textures[0] in OVERLAY_TEXTURES and chart is not None and not chart.colour:
            fill = hex_paint(game, (game.map.default_terrain,))[0]

        def paint_hex(draw: Draw, c: Point, s: float, fill: str = fill, textures: list[str] = textures,
                      seed: int = zlib.crc32(tid.encode())) -> None:
            paint_terrain(draw, c, s * 0.62, matrix, fill, textures, seed)
            corners = hex_corners(c, s * 0.62, matrix)
            draw.line(corners + [corners[0]], fill=shade(fill, 0.6), width=whole_px(s * 0.025))
        items.append(LegendItem(chart.name if chart else tid.replace("_", " ").capitalize(), paint_hex))
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
                draw_path(draw, [[a, z]], style, s)
            elif style.kind == "teeth":
                draw_teeth(draw, a, z, (0.0, -1.0), s, style.colour)
            elif style.kind == "bridge":
                draw_water(draw, [[(x, y - 0.45 * s), (x, y + 0.45 * s)]], side_style(game, "river"), s)
                draw_bridge(draw, c, (1.0, 0.0), s, rails=False)
                draw_path(draw, [[a, z]], side_style(game, "road"), s)
                draw_bridge(draw, c, (1.0, 0.0), s, rails=True, colour=style.colour)
            else:
                draw_water(draw, [[a, z]], style, s)
        items.append(LegendItem(text, paint_side))
    items.extend(_symbol_items(game, matrix))
    return items


def _symbol_items(game: Game, matrix: OrientationMatrix) -> list[LegendItem]:
    """Legend entries for areas, lines and place symbols present on this map."""
    items: list[LegendItem] = []
    kinds = {a.kind for a in game.areas.area}
    ports = [a for a in game.areas.area if a.kind == "port"]
    if ports:
        def paint_port(draw: Draw, c: Point, s: float) -> None:
            draw_anchor(draw, (c[0] - 0.22 * s, c[1]), s, ANCHOR)
            draw_badge(draw, (c[0] + 0.12 * s, c[1]), 0.19 * s, "5", ANCHOR, s)
        items.append(LegendItem("Port and its supply points", paint_port))
    for kind, text in (("landing", "Landing hexes"), ("beach", "Beach hexes")):
        named = [a.name for a in game.areas.area if a.kind == kind]
        if named:
            def paint_landing(draw: Draw, c: Point, s: float) -> None:
                corners = hex_corners(c, s * 0.5, matrix)
                draw_polyline(draw, corners + [corners[0]], LANDING, 0.1 * s)
            items.append(LegendItem(named[0] if len(named) == 1 else text, paint_landing))
    if "port_area" in kinds:
        def paint_port_area(draw: Draw, c: Point, s: float) -> None:
            corners = hex_corners(c, s * 0.5, matrix)
            draw_dotted(draw, corners + [corners[0]], PORT_AREA, 0.035 * s, 0.12 * s)
        items.append(LegendItem("Port area", paint_port_area))
    lettered = [(a, entry_letter(a.id, a.name)) for a in game.areas.area if a.kind == "entry"]
    letters = [letter for _, letter in lettered if letter]
    if letters:
        def paint_entry(draw: Draw, c: Point, s: float, letter: str = letters[0]) -> None:
            draw_polyline(draw, [(c[0] - 0.55 * s, c[1] + 0.3 * s), (c[0] + 0.55 * s, c[1] + 0.3 * s)], ENTRY, 0.13 * s)
            draw_badge(draw, (c[0], c[1] + 0.02 * s), 0.19 * s, letter, ENTRY, s)
        items.append(LegendItem(f"Entry area{'s' if len(letters) > 1 else ''} {', '.join(letters)}", paint_entry))
    for area, letter in lettered:
        if letter is None:
            def paint_entry_edge(draw: Draw, c: Point, s: float) -> None:
                draw_polyline(draw, [(c[0] - 0.55 * s, c[1]), (c[0] + 0.55 * s, c[1])], ENTRY, 0.13 * s)
            items.append(LegendItem(area.name, paint_entry_edge))
    for area in (a for a in game.areas.area if a.kind == "edge"):
        def paint_edge(draw: Draw, c: Point, s: float) -> None:
            draw_polyline(draw, [(c[0] - 0.55 * s, c[1]), (c[0] + 0.55 * s, c[1])], EDGE, 0.13 * s)
        items.append(LegendItem(area.name, paint_edge))
    for area in (a for a in game.areas.area if a.kind == "country"):
        def paint_country(draw: Draw, c: Point, s: float) -> None:
            line = [(c[0] - 0.6 * s, c[1]), (c[0] + 0.6 * s, c[1])]
            draw_dashed(draw, line, COUNTRY, 0.05 * s, 0.3 * s, 0.12 * s)
        items.append(LegendItem(f"Border of {area.name}", paint_country))
    for area in (a for a in game.areas.area if a.kind == "victory"):
        if len(game.area_hexes(area.id)) <= 24:
            def paint_star(draw: Draw, c: Point, s: float) -> None:
                draw_star(draw, c, 0.16 * s, VICTORY, s)
            items.append(LegendItem(area.name, paint_star))
    for line_def in game.areas.line:
        if line_def.kind == "boundary":
            def paint_boundary(draw: Draw, c: Point, s: float) -> None:
                draw.rectangle((c[0] - 0.55 * s, c[1] - 0.28 * s, c[0] + 0.55 * s, c[1]),
                               fill=mix(rgb(PAPER), rgb(BOUNDARY), 90 / 255))
                draw_polyline(draw, [(c[0] - 0.55 * s, c[1]), (c[0] + 0.55 * s, c[1])], BOUNDARY, 0.09 * s)
            items.append(LegendItem(line_def.name, paint_boundary))
        elif line_def.kind != "river":
            colour = VICTORY if line_def.kind == "victory" else INK

            def paint_line(draw: Draw, c: Point, s: float, colour: str = colour) -> None:
                line = [(c[0] - 0.6 * s, c[1]), (c[0] + 0.6 * s, c[1])]
                draw_polyline(draw, line, PAPER, 0.16 * s)
                draw_dashed(draw, line, colour, 0.11 * s, 0.32 * s, 0.16 * s)
            items.append(LegendItem(line_def.name, paint_line))
    place_kinds = {p.kind for _, p in game.places}
    if place_kinds & {"city", "port", "town", "village"}:
        def paint_town(draw: Draw, c: Point, s: float) -> None:
            r = 0.075 * s
            draw.rectangle((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=INK)
        items.append(LegendItem("Town (name and hex)", paint_town))
    if "landmark" in place_kinds:
        def paint_landmark(draw: Draw, c: Point, s: float) -> None:
            r = 0.12 * s
            x, y = c
            draw.polygon([(x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6)], fill=INK)
        items.append(LegendItem("Landmark", paint_landmark))
    return items


@frozen
class StripPlan:
    """Where the title and legend go, in final pixels."""

    side: Literal["right", "bottom"]
    image_size: tuple[int, int]
    columns: int
    rows: int
    column_w: float
    row_h: float
    title_w: float
    title_beside: bool  # title block left of the legend (else above it)


def plan_strip(board_size: tuple[int, int], size: float, items: int) -> StripPlan:
    """Put the title and legend under a wide map or beside a tall one."""
    width, height = board_size
    row_h, column_w, title_w, title_h = size * 1.5, size * 6.4, size * 9.0, size * 5.0
    # Under the map: the title block at the left when there is room, the legend in columns.
    beside = width >= title_w + column_w + size
    columns = max(1, int((width - (title_w if beside else 0) - size) // column_w))
    rows = max(3, math.ceil(items / columns))
    strip = size * 1.0 + rows * row_h + (0 if beside else title_h)
    bottom = StripPlan("bottom", (width, math.ceil(height + strip)), columns, rows, column_w, row_h, title_w, beside)
    # Beside the map: the title block on top, the legend in as many columns as it needs.
    rows = max(1, int((height - title_h - size) // row_h))
    columns = max(1, math.ceil(items / rows))
    strip = max(title_w, columns * column_w) + size * 0.6
    right = StripPlan("right", (math.ceil(width + strip), height), columns, rows, column_w, row_h, title_w, False)
    # A tall map takes its legend beside it, a wide one below, unless that wastes much paper.
    preferred, other = (right, bottom) if height > width else (bottom, right)
    def area(plan: StripPlan) -> int:
        return plan.image_size[0] * plan.image_size[1]
    return preferred if area(preferred) <= 1.3 * area(other) else other


def draw_strip(b: BoardCanvas, plan: StripPlan, board_size: tuple[int, int], items: list[LegendItem]) -> None:
    """Title, map name, scale, north arrow and the legend."""
    game, draw = b.game, b.draw
    size = b.layout.size_px
    ss = b.ss
    width, height = board_size
    if plan.side == "bottom":
        x0, y0 = size * 0.6, height + size * 0.4
        draw.line([b.at(size * 0.4, height), b.at(width - size * 0.4, height)], fill=INK, width=whole_px(ss * 1.5))
    else:
        x0, y0 = width + size * 0.3, size * 0.6
        draw.line([b.at(width, size * 0.4), b.at(width, height - size * 0.4)], fill=INK, width=whole_px(ss * 1.5))
    # Title block (text at final pixels, see PrintedText).
    title_font = font(whole_px(size * 0.62), bold=True)
    sub_font = font(whole_px(size * 0.3))
    y = y0
    for line in wrap_words(game.manifest.title, title_font, plan.title_w - size):
        b.texts.append(PrintedText((x0, y), line, title_font, INK, "la"))
        y += size * 0.78
    y += size * 0.1
    for line in wrap_words(game.map.name, sub_font, plan.title_w - size):
        b.texts.append(PrintedText((x0, y), line, sub_font, INK, "la"))
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
    item_font = font(whole_px(size * 0.33))
    for k, item in enumerate(items):
        col, row = divmod(k, plan.rows)
        if col >= plan.columns:
            break
        cx = lx + col * plan.column_w + size * 0.7
        cy = ly + row * plan.row_h + size * 0.62
        item.paint(draw, b.at(cx, cy), size * ss)
        lines = wrap_words(item.text, item_font, plan.column_w - size * 1.7)[:3]
        line_h = size * 0.36
        ty = cy - line_h * (len(lines) - 1) / 2
        for text in lines:
            b.texts.append(PrintedText((cx + size * 0.9, ty), text, item_font, INK, "lm"))
            ty += line_h


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
    draw_outlined(draw, [tip, right, (x, y)], PAPER, INK, whole_px(s * 0.02))
    draw.line([(x, y), tail], fill=INK, width=whole_px(s * 0.04))
    n_pos = (tip[0] + ux * length * 0.22, tip[1] + uy * length * 0.22)
    draw.text(n_pos, "N", fill=INK, font=font(whole_px(length * 0.3), bold=True), anchor="mm")


def _scale_bar(b: BoardCanvas, origin: Point, miles_per_hex: float, source: str | None = None,
               drawn_miles_per_hex: float | None = None) -> None:
    """A scale bar a few hexes long, marked in miles: the rule's figure (cited), and the scale the
    map is really drawn to when a reconstruction departs from it."""
    size = b.layout.size_px
    ss = b.ss
    hex_px = SQRT3 * size  # centre to centre
    hexes = 4
    x, y = origin
    f = font(whole_px(size * 0.26))
    for k in range(hexes):
        fill = INK if k % 2 == 0 else PAPER
        b.draw.rectangle((*b.at(x + k * hex_px / 2, y), *b.at(x + (k + 1) * hex_px / 2, y + size * 0.14)),
                         fill=fill, outline=INK, width=whole_px(ss * 0.8))
    for k in range(0, hexes + 1, 2):
        miles = miles_per_hex * k / 2
        b.texts.append(PrintedText((x + k * hex_px / 2, y + size * 0.22), f"{miles:g}", f, INK, "ma"))
    b.texts.append(PrintedText((x + hexes * hex_px / 2 + size * 0.3, y + size * 0.07), "miles", f, INK, "lm"))
    cited = f" ({source})" if source and not is_reconstructed(source) else ""
    b.texts.append(PrintedText((x, y - size * 0.2), f"1 hex = {miles_per_hex:g} miles{cited}", f, INK, "ld"))
    if drawn_miles_per_hex:
        b.texts.append(PrintedText((x, y + size * 0.6), f"drawn at {drawn_miles_per_hex:g} miles a hex", f, INK, "la"))
        b.texts.append(PrintedText((x, y + size * 0.92), "(reconstruction, see PROVENANCE)", f, INK, "la"))
