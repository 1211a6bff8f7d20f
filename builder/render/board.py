"""The map board, assembled: terrain, grid, hex numbers, areas, hexsides, lines, markers, places, title and legend."""

# Shapes are drawn at SUPERSAMPLE times the final size and reduced with a box filter, so lines
# and symbols come out anti-aliased; hex labels, place names and the title and legend text are
# printed last, on the reduced image at final pixels (FreeType anti-aliases it itself). The
# supersampled layout is `board_layout` scaled exactly (never a second `Layout.for_grid`,
# which rounds), shifted by the sub-pixels that put a layout point at the centre of its final
# pixel, so the printed grid is the module's grid to the pixel; the title and legend only ever
# extend the image to the right or below the map.

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from PIL import Image

from builder.render.board_areas import draw_areas, draw_markers
from builder.render.board_canvas import BoardCanvas, PrintedText
from builder.render.board_hexsides import FALLBACK_SIDE, SideStyle, draw_hexsides, draw_lines, side_style
from builder.render.board_labels import (
    HEX_NUMBER_DY, HEX_NUMBER_SIZE, GlyphPrinter, draw_hex_labels, draw_places, hex_number_px,
)
from builder.render.board_legend import LegendItem, StripPlan, draw_strip, legend_items, plan_strip
from builder.render.board_terrain import FALLBACK_FILLS, HexStyle, draw_grid, draw_terrain, hex_style
from builder.render.ink import PAPER
from builder.render.png import png_bytes
from builder.render.window import Band, Recording, RecordingDraw, ShiftedDraw
from wargame.files import write_atomically
from wargame.game import Game
from wargame.layout import Layout
from wargame.records import frozen

SUPERSAMPLE = 2
"""Drawing scale before the reduction: 2 looks as 3 did at 100% (side by side, bench/README.md's fifth pass of the
first build), on a canvas 2.25 times smaller, once texture marks carry the ink of their exact sizes."""
WINDOW_REACH = 2.0
"""Hexes of board drawn above and left of a window (cut off after): the most a shape (a hex's fill and
textures, a hexside, a symbol) reaches from its corners."""


def board_layout(game: Game, scale: float = 1.0) -> Layout:
    """The layout the board is printed on; at scale 1 it is the module's `game.layout`."""
    return Layout.for_grid(game.grid, game.map.layout.hex_size_px * scale, game.map.layout.margin_px * scale)


def board_image_size(game: Game, scale: float = 1.0) -> tuple[int, int]:
    """The size of `render_board`'s image: the map and its title and legend strip."""
    layout = board_layout(game, scale)
    board_size = layout.board_size(game.grid, game.map.layout.margin_px * scale)
    return plan_strip(board_size, layout.size_px, len(legend_items(game, layout.matrix))).image_size


BAND_ROWS = 512
"""Final rows of the whole board drawn at a time (each band's supersampled canvas alone in memory, with the
whole board's drawing recorded once and filed by band): measured in bench/README.md, peak memory against CPU."""


@frozen
class _Frame:
    """The board's size, supersampling and layouts, as every drawing of it works them out."""

    layout: Layout
    fine: Layout  # the layout ss times larger, shifted so layout points are pixel centres
    board_size: tuple[int, int]  # the map part, before the title and legend
    plan: StripPlan
    items: list[LegendItem]
    ss: int

    @property
    def size(self) -> tuple[int, int]:
        """The whole image's size, in final pixels."""
        return self.plan.image_size


def _frame(game: Game, scale: float) -> _Frame:
    """The board's frame at a scale."""
    layout = board_layout(game, scale)
    margin = game.map.layout.margin_px * scale
    board_size = layout.board_size(game.grid, margin)
    items = legend_items(game, layout.matrix)
    plan = plan_strip(board_size, layout.size_px, len(items))
    ss = SUPERSAMPLE
    offset = (ss - 1) / 2  # see BoardCanvas.at: layout points are pixel centres
    fine = replace(layout, size_px=layout.size_px * ss,
                   origin=(layout.origin[0] * ss + offset, layout.origin[1] * ss + offset))
    return _Frame(layout, fine, board_size, plan, items, ss)


def _draw_layers(b: BoardCanvas, frame: _Frame) -> None:
    """Every layer of the board, bottom to top (texts kept in `b.texts`, printed after the reduction)."""
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
    draw_strip(b, frame.plan, frame.board_size, frame.items)


def _top(row: int, layout: Layout) -> int:
    """Where a window or band starting at a row is drawn from: WINDOW_REACH hexes further up (Pillow rounds a
    negative coordinate toward zero: a shape reaching it from above must have none) on an even pixel (so that
    round(), to even, rounds as on the whole board)."""
    top = max(0, row - math.ceil(WINDOW_REACH * layout.size_px))
    return top - top % 2


def render_board(game: Game, scale: float = 1.0, texts: list[PrintedText] | None = None,
                 window: tuple[int, int, int, int] | None = None, band_rows: int = BAND_ROWS) -> Image.Image:
    """The map board, its top-left pixel at `board_layout(game, scale)`'s pixel (0, 0); with a `window` (left,
    top, right, bottom), only that part of it, the same pixels drawn on a canvas the window's size. The whole board
    is drawn in bands of `band_rows` rows (the same pixels), its drawing worked out once for all of them."""
    frame = _frame(game, scale)
    if window is None:
        return _draw_bands(game, frame, band_rows, texts)
    width, height = frame.size
    ss = frame.ss
    wanted = (max(0, window[0]), max(0, window[1]), min(width, window[2]), min(height, window[3]))
    if wanted[2] <= wanted[0] or wanted[3] <= wanted[1]:
        raise ValueError(f"window {window} is off the board ({width} x {height})")
    # A window is drawn in the whole board's coordinates, moved onto a canvas that starts further up and left.
    left, top, right, bottom = _top(wanted[0], frame.layout), _top(wanted[1], frame.layout), wanted[2], wanted[3]
    origin = (left * ss, top * ss)
    image = Image.new("RGB", ((right - left) * ss, (bottom - top) * ss), PAPER)
    draw = ShiftedDraw(image, origin, skip_outside=True, even_forward=True)
    b = BoardCanvas(game, frame.layout, frame.fine, image, draw, (frame.board_size[0] * ss, frame.board_size[1] * ss),
                    ss, origin=origin, windowed=True)
    _draw_layers(b, frame)
    if texts is not None:
        texts.extend(b.texts)  # what was printed where, for the tests of label placement
    # A box filter: each final pixel the mean of its ss x ss block (the supersampling's own
    # anti-aliasing; LANCZOS looked the same and took ten times longer).
    board = image.reduce(ss)
    _print(board, b.texts, (left, top, right, bottom))
    if (left, top) != wanted[:2]:
        board = board.crop((wanted[0] - left, wanted[1] - top, right - left, bottom - top))
    return board


def _draw_bands(game: Game, frame: _Frame, band_rows: int, texts: list[PrintedText] | None) -> Image.Image:
    """The whole board, its drawing recorded once and drawn band by band into the final image."""
    width, height = frame.size
    ss = frame.ss
    starts = list(range(0, height, max(1, band_rows)))
    ends = starts[1:] + [height]
    tops = [_top(start, frame.layout) for start in starts]
    recording = Recording([(top * ss, start * ss, end * ss) for top, start, end in zip(tops, starts, ends)])
    stand_in = Image.new("RGB", (1, 1), PAPER)  # measuring and inks only: every call is recorded
    b = BoardCanvas(game, frame.layout, frame.fine, stand_in, RecordingDraw(stand_in, recording),
                    (frame.board_size[0] * ss, frame.board_size[1] * ss), ss, recording=recording)
    _draw_layers(b, frame)
    if texts is not None:
        texts.extend(b.texts)
    board = Image.new("RGB", (width, height), PAPER)
    # One canvas, the tallest band's, painted over with paper for each band: a new one for each band cost the
    # kernel a page fault for every 4 KB of it (about 0.1 s of system time for Omaha's board). A band drawn on a
    # taller canvas has the same pixels in its own rows: no drawing reads a pixel it does not draw, and the
    # reduction reads the band's own rows only.
    image = Image.new("RGB", (width * ss, max(end - top for top, end in zip(tops, ends)) * ss), PAPER)
    for k, (start, top, end) in enumerate(zip(starts, tops, ends)):
        if k:
            image.paste(PAPER, (0, 0, image.width, image.height))
        recording.draw(k, Band(image, ShiftedDraw(image, (0, top * ss)), (0, top * ss)))
        recording.calls[k].clear()  # drawn: its shapes and text masks are not needed again
        board.paste(image.reduce(ss, (0, (start - top) * ss, width * ss, (end - top) * ss)), (0, start))
    del image
    _print(board, b.texts, None)
    return board


def _print(board: Image.Image, texts: list[PrintedText], box: tuple[int, int, int, int] | None) -> None:
    """Print texts on the final image, a `box` of the board (None: the whole board), at final pixels."""
    origin = (0, 0) if box is None else box[:2]
    draw = ShiftedDraw(board, origin)
    glyphs = GlyphPrinter(board, origin)
    for t in texts:
        if box is not None and not _may_reach(t, box):
            continue
        if t.glyphs:
            glyphs.print(t)
        else:
            draw.text(t.xy, t.text, fill=t.fill, font=t.font, anchor=t.anchor, stroke_width=t.stroke_width,
                      stroke_fill=t.stroke_fill)


def _may_reach(t: PrintedText, box: tuple[int, int, int, int]) -> bool:
    """Whether a printed text may reach a box of the board (a bound from its font's size, whatever its anchor)."""
    size = t.font.size
    lines = t.text.count("\n") + 1
    across = size * (max(len(line) for line in t.text.split("\n")) + 1) + 2 * t.stroke_width + 2
    down = size * 1.5 * lines + 2 * t.stroke_width + 2
    x, y = t.xy
    return x + across >= box[0] and x - across <= box[2] and y + down >= box[1] and y - down <= box[3]


def write_board(game: Game, out_dir: Path, scale: float = 1.0) -> Path:
    """Write `<game>-board.png` into out_dir; its path."""
    path = out_dir / f"{game.id}-board.png"
    write_atomically(path, png_bytes(render_board(game, scale)))
    return path


__all__ = [
    "FALLBACK_FILLS", "FALLBACK_SIDE", "HEX_NUMBER_DY", "HEX_NUMBER_SIZE", "HexStyle", "SideStyle", "board_image_size",
    "board_layout", "hex_number_px", "hex_style", "render_board", "side_style", "write_board",
]