"""The map board, assembled: terrain, grid, hex numbers, areas, hexsides, lines, markers, places, title and legend."""

# Shapes are drawn at SUPERSAMPLE times the final size and reduced with a box filter, so lines
# and symbols come out anti-aliased; hex labels, place names and the title and legend text are
# printed last, on the reduced image at final pixels (FreeType anti-aliases it itself). The
# supersampled layout is `board_layout` scaled exactly (never a second `Layout.for_grid`,
# which rounds), shifted by the sub-pixels that put a layout point at the centre of its final
# pixel, so the printed grid is the module's grid to the pixel; the title and legend only ever
# extend the image to the right or below the map.

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from PIL import Image, ImageDraw

from builder.render.board_areas import draw_areas, draw_markers
from builder.render.board_canvas import BoardCanvas, PrintedText
from builder.render.board_hexsides import FALLBACK_SIDE, SideStyle, draw_hexsides, draw_lines, side_style
from builder.render.board_labels import (
    HEX_NUMBER_DY, HEX_NUMBER_SIZE, GlyphPrinter, draw_hex_labels, draw_places, hex_number_px,
)
from builder.render.board_legend import draw_strip, legend_items, plan_strip
from builder.render.board_terrain import FALLBACK_FILLS, HexStyle, draw_grid, draw_terrain, hex_style
from builder.render.ink import PAPER
from wargame.files import write_atomically
from wargame.game import Game
from wargame.layout import Layout

SUPERSAMPLE = 3
"""Drawing scale before the reduction (3: smooth diagonals)."""
LARGE_BOARD_PX = 12_000_000
"""Boards with more final pixels than this are drawn at 2x only, to keep the canvas in memory."""


def board_layout(game: Game, scale: float = 1.0) -> Layout:
    """The layout the board is printed on; at scale 1 it is the module's `game.layout`."""
    return Layout.for_grid(game.grid, game.map.layout.hex_size_px * scale, game.map.layout.margin_px * scale)


def board_image_size(game: Game, scale: float = 1.0) -> tuple[int, int]:
    """The size of `render_board`'s image: the map and its title and legend strip."""
    layout = board_layout(game, scale)
    board_size = layout.board_size(game.grid, game.map.layout.margin_px * scale)
    return plan_strip(board_size, layout.size_px, len(legend_items(game, layout.matrix))).image_size


def render_board(game: Game, scale: float = 1.0, texts: list[PrintedText] | None = None) -> Image.Image:
    """The map board, its top-left pixel at `board_layout(game, scale)`'s pixel (0, 0)."""
    layout = board_layout(game, scale)
    margin = game.map.layout.margin_px * scale
    board_size = layout.board_size(game.grid, margin)
    items = legend_items(game, layout.matrix)
    plan = plan_strip(board_size, layout.size_px, len(items))
    width, height = plan.image_size
    ss = SUPERSAMPLE if width * height <= LARGE_BOARD_PX else 2
    offset = (ss - 1) / 2  # see BoardCanvas.at: layout points are pixel centres
    fine = replace(layout, size_px=layout.size_px * ss,
                   origin=(layout.origin[0] * ss + offset, layout.origin[1] * ss + offset))
    image = Image.new("RGB", (width * ss, height * ss), PAPER)
    b = BoardCanvas(game, layout, fine, image, ImageDraw.Draw(image), (board_size[0] * ss, board_size[1] * ss), ss)
    draw_terrain(b, "ground")
    draw_grid(b)
    draw_hex_labels(b)
    draw_areas(b)
    draw_hexsides(b)
    draw_lines(b)
    draw_terrain(b, "late")
    reserved: list[tuple[float, float, float, float]] = []
    draw_markers(b, reserved)
    draw_places(b, reserved)
    draw_strip(b, plan, board_size, items)
    if texts is not None:
        texts.extend(b.texts)  # what was printed where, for the tests of label placement
    # A box filter: each final pixel the mean of its ss x ss block (the supersampling's own
    # anti-aliasing; LANCZOS looked the same and took ten times longer).
    board = image.reduce(ss)
    draw = ImageDraw.Draw(board)
    glyphs = GlyphPrinter(board)
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


__all__ = [
    "FALLBACK_FILLS", "FALLBACK_SIDE", "HEX_NUMBER_DY", "HEX_NUMBER_SIZE", "HexStyle", "SideStyle", "board_image_size",
    "board_layout", "hex_number_px", "hex_style", "render_board", "side_style", "write_board",
]