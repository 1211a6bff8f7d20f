"""The whole board drawn in bands (issue 30 item 2): its drawing recorded once, each band's supersampled canvas
alone in memory, and the same pixels as drawn in one piece."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import builder.vassal.art as art_module
from builder.render import board as board_module
from builder.render.board import BAND_ROWS, board_image_size, render_board
from builder.render.window import Band, Recording
from wargame.bundled import data_root
from wargame.game import load_game


def _same(a: Image.Image, b: Image.Image) -> bool:
    """Same size, same pixels."""
    return a.size == b.size and a.mode == b.mode and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize(("game_id", "scale", "rows"), [
    ("moscow", 1.0, 97), ("moscow", 1.25, 300), ("omaha", 1.0, 173), ("onslaught", 1.0, 251),
])
def test_a_board_in_bands_has_the_pixels_of_the_board_in_one_piece(game_id: str, scale: float, rows: int) -> None:
    """Bands of any height (odd ones, cutting hexes, rivers, names and the legend anywhere) give the pixels of the
    board drawn in one band: terrain, translucent borders and country names, stamps and texts alike."""
    game = load_game(data_root(), game_id)
    whole = render_board(game, scale, band_rows=10**6)
    assert _same(render_board(game, scale, band_rows=rows), whole)


def test_the_builds_board_is_drawn_in_bands_from_one_recording(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's board (what its process draws and encodes) is drawn band by band, each on a canvas of a band's
    rows and the margin above it, never the whole board's canvas; its layers are worked out once for all bands."""
    game = load_game(data_root(), "omaha")
    width, height = board_image_size(game, 1.0)
    canvases: list[tuple[int, int]] = []
    real_draw = Recording.draw

    def counted_draw(recording: Recording, k: int, band: Band) -> None:
        canvases.append(band.image.size)
        real_draw(recording, k, band)

    layers: list[object] = []
    real_layers = board_module._draw_layers

    def counted_layers(b: object, frame: object) -> None:
        layers.append(b)
        real_layers(b, frame)  # type: ignore[arg-type]

    monkeypatch.setattr(Recording, "draw", counted_draw)
    monkeypatch.setattr(board_module, "_draw_layers", counted_layers)
    image, png = art_module._board_and_png(game, 1.0)
    assert image.size == (width, height) and png.startswith(b"\x89PNG")
    assert len(layers) == 1
    assert len(canvases) == -(-height // BAND_ROWS) > 1
    ss = board_module.SUPERSAMPLE
    reach = 2 * round(board_module.WINDOW_REACH * board_module.board_layout(game, 1.0).size_px) + 2
    assert all(w == width * ss and h <= (BAND_ROWS + reach) * ss for w, h in canvases)
    assert max(w * h for w, h in canvases) < width * height * ss * ss // 2
