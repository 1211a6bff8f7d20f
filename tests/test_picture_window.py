"""A finding's picture drawn on the part of the board it shows (issue 30 item 4): the same pixels as cut from the
whole board, and only the hexes and counters near the crop drawn."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

import builder.picture as picture_module
from builder.picture import Painter, cached_board, reading_scale
from builder.render.board import board_image_size, render_board
from builder.render.board_canvas import BoardCanvas
from builder.render.window import ShiftedDraw
from wargame.bundled import data_root
from wargame.game import load_game
from wargame.hexes import Hex
from wargame.scene import Counter, Crop, Mark, Scene, Stack


def _same(a: Image.Image, b: Image.Image) -> bool:
    """Same size, same pixels."""
    return a.size == b.size and a.mode == b.mode and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("box", [(0, 0, 301, 257), (137, 1165, 401, 1626), (667, 777, 1081, 1073), (738, 3, 1135, 471)])
def test_a_window_of_the_board_has_the_whole_boards_pixels(box: tuple[int, int, int, int]) -> None:
    """A window drawn on its own (odd and even corners, at the board's edges and inside) equals the same window
    cut from the whole board, pixel for pixel: shapes, textures, hex numbers and names crossing its edges alike."""
    game = load_game(data_root(), "moscow")
    scale = reading_scale(game)
    whole = render_board(game, scale)
    assert _same(render_board(game, scale, window=box), whole.crop(box))


def test_a_window_past_the_board_is_cut_to_it_and_one_off_it_is_refused() -> None:
    """A window reaching past the board's edge is the board's part inside it; a window wholly off it, an error."""
    game = load_game(data_root(), "moscow")
    width, height = board_image_size(game, 1.0)
    assert render_board(game, 1.0, window=(width - 50, height - 40, width + 30, height + 30)).size == (50, 40)
    with pytest.raises(ValueError, match="off the board"):
        render_board(game, 1.0, window=(width + 1, 0, width + 20, 20))


def _scene_everywhere(painter: Painter) -> Scene:
    """A counter on every tenth hex of the map, and a path through the crop."""
    game = painter.game
    unit = next(iter(sorted(game.units_by_id)))
    labels = sorted(game.grid.label_of(h) for h in game.grid.hexes)
    stacks = tuple(Stack(label, (Counter(unit),)) for label in labels[::10])
    return Scene(stacks, (Mark("path", ("2017", "2018", "2019"), "breach"),))


def test_a_cold_picture_draws_only_the_hexes_and_counters_its_crop_shows(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """Without the whole board at hand, a cropped picture paints the terrain of the hexes near its crop only (the
    crop and the margin drawn above and left of it, not the whole map) and draws no counter art for a stack it
    does not show; and it is the very picture cut from the whole board."""
    game = load_game(data_root(), "omaha")
    scale = reading_scale(game)
    cold = Painter(game, scale, None)
    scene = _scene_everywhere(cold)
    crop = Crop(hexes=("2017", "2019"))
    drawn_hexes: set[Hex] = set()
    real_in_view = BoardCanvas.in_view

    def counted_in_view(canvas: BoardCanvas, hexes: Iterable[Hex]) -> list[Hex]:
        shown = real_in_view(canvas, hexes)  # the hexes whose terrain, sides and numbers are drawn
        drawn_hexes.update(shown)
        return shown

    faces: list[str] = []
    real_face = picture_module._counter_image

    def counted_face(game_: object, counter: Counter, size_px: int) -> Image.Image:
        faces.append(counter.piece)
        return real_face(game_, counter, size_px)  # type: ignore[arg-type]

    monkeypatch.setattr(BoardCanvas, "in_view", counted_in_view)
    monkeypatch.setattr(picture_module, "_counter_image", counted_face)
    drawn = cold.draw(scene, crop)
    # The crop's three hexes, its margin of one hex, and the two hexes drawn above and left of it: a few dozen
    # hexes, none more than six from the crop's, of the map's 780.
    near = {game.grid.hex_of(label) for label in ("2017", "2019")}
    assert 0 < len(drawn_hexes) < len(game.grid.hexes) // 8
    assert all(min(h.distance(n) for n in near) <= 6 for h in drawn_hexes)
    # Counter art only for the stacks that reach the crop (its hexes, its margin of a hex and a little more).
    beside = [stack for stack in scene.stacks if min(game.grid.hex_of(stack.place).distance(n) for n in near) <= 3]
    assert 0 < len(faces) <= len(beside) < len(scene.stacks) // 5
    monkeypatch.undo()
    where = tmp_path / "cache"
    cached_board(game, scale, where)  # the whole board at hand: the picture is cut from it
    warm = Painter(game, scale, where).draw(scene, crop)
    assert drawn.origin == warm.origin
    assert _same(drawn.image, warm.image)


def test_shifted_drawing_equals_the_whole_canvas_cut() -> None:
    """Every shape ShiftedDraw draws into a window is the whole canvas's, cut (a wide polygon outline too), where
    no shape reaching it lies above or left of the window's canvas (Pillow rounds negative coordinates toward
    zero: the reason windows are drawn with a margin up and left); a shape away from it is not drawn at all."""
    size, canvas, box = (400, 300), (100, 40, 330, 250), (120, 60, 330, 250)
    whole = Image.new("RGB", size, "white")
    window = Image.new("RGB", (canvas[2] - canvas[0], canvas[3] - canvas[1]), "white")
    for draw in (ImageDraw.Draw(whole), ShiftedDraw(window, canvas[:2], skip_outside=True)):
        draw.line([(110.3, 50.7), (200.2, 150.9), (390.4, 80.1)], fill="red", width=7, joint="curve")
        draw.polygon([(110.5, 50.2), (250.7, 90.1), (180.2, 260.3)], fill="blue", outline="black", width=4)
        draw.ellipse((140.2, 100.7, 220.9, 170.3), fill="green", outline="black", width=3)
        draw.rectangle((5, 5, 50, 30), fill="black")  # away from the window
        draw.rounded_rectangle((200.4, 180.6, 320.2, 240.8), radius=9, fill="yellow", outline="black")
        draw.text((130.6, 70.3), "2017 Vierville", fill="black")
    window = window.crop((box[0] - canvas[0], box[1] - canvas[1], box[2] - canvas[0], box[3] - canvas[1]))
    assert _same(window, whole.crop(box))


def test_a_painter_of_many_pictures_draws_the_whole_board_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A verdict with many findings' pictures: the first few are windows, then the whole board is drawn once and
    every later picture cut from it (a window repeats the board-wide work), with the same pixels either way."""
    game = load_game(data_root(), "moscow")
    scale = reading_scale(game)
    painter = Painter(game, scale, None)
    scene = _scene_everywhere(painter)
    calls: list[object] = []
    real_render = picture_module.render_board

    def counted_render(game_: object, scale_: float, window: object = None) -> Image.Image:
        calls.append(window)
        return real_render(game_, scale_, window=window)  # type: ignore[arg-type]

    monkeypatch.setattr(picture_module, "render_board", counted_render)
    labels = list(game.grid.labels[:: max(1, len(game.grid.labels) // 12)][:12])
    pictures = [painter.draw(scene, Crop(hexes=(label,))) for label in labels]
    windows = [w for w in calls if w is not None]
    assert len(windows) == picture_module.WINDOWS_BEFORE_WHOLE
    assert calls.count(None) == 1
    monkeypatch.undo()
    fresh = Painter(game, scale, None)
    for label, picture in zip(labels, pictures):
        again = fresh.draw(scene, Crop(hexes=(label,)))
        fresh._whole, fresh.windows = None, 0  # each a window of its own
        assert _same(picture.image, again.image), label
