"""The holding board: boxes and track spaces laid out once, titles clear of each other and of the boxes."""

from __future__ import annotations

import io

import pytest

from builder.render.holding import (
    SPACE_LABEL_H, STACK_OFFSET_PX, HoldingLayout, flip_bonus, holding_layout, render_holding_board, space_name,
)
from builder.render.board import board_layout
from builder.render.counters import counter_size_px
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.vassal.places import holding_areas

Rect = tuple[int, int, int, int]


@pytest.fixture(scope="module", params=["onslaught", "omaha"])
def game(request: pytest.FixtureRequest) -> Game:
    """Each bundled game, loaded once for the module."""
    return load_game(data_root(), request.param)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _layout(game: Game) -> HoldingLayout:
    return holding_layout(game, 55)


def test_every_box_and_track_space_is_laid_out(game: Game) -> None:
    """One area per box and per track space, each inside the board and none overlapping."""
    layout = _layout(game)
    assert [a.location for a in layout.boxes] == [b.id for b in game.manifest.box]
    assert len(layout.spaces) == sum(t.last - t.first + 1 for t in game.manifest.track)
    width, height = layout.size
    areas = layout.areas
    for i, area in enumerate(areas):
        x0, y0, x1, y1 = area.rect
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
        assert x0 <= area.seat[0] < x1 and y0 <= area.seat[1] < y1
        assert not any(_overlap(area.rect, other.rect) for other in areas[i + 1:]), area.location


def test_titles_never_overlap(game: Game) -> None:
    """Long box names wrap onto their own lines: no title runs into another title or a box."""
    layout = _layout(game)
    titles = layout.titles
    for i, title in enumerate(titles):
        assert 0 <= title.rect[0] and title.rect[2] <= layout.size[0], title.lines
        for other in titles[i + 1:]:
            assert not _overlap(title.rect, other.rect), (title.lines, other.lines)
        for area in layout.areas:
            assert not _overlap(title.rect, area.rect), (title.lines, area.location)
    assert any(len(t.lines) > 1 for t in titles) or all(len(b.name) < 20 for b in game.manifest.box)


@pytest.mark.parametrize("counter_px", [50, 55, 75])
def test_the_largest_set_up_stack_fits_its_box(game: Game, counter_px: int) -> None:
    """A box's largest set-up stack, climbing up and right, stays inside the box's frame (4 px)."""
    layout = holding_layout(game, counter_px)
    boxes = {a.location: a for a in layout.boxes}
    counts: dict[tuple[str, str], int] = {}
    for _, placement in game.setup:
        key = (placement.scenario, placement.location)
        counts[key] = counts.get(key, 0) + placement.count
    for (_, location), count in counts.items():
        if location not in boxes:
            continue
        x0, y0, x1, y1 = boxes[location].rect
        x, y = boxes[location].seat
        climb = (count - 1) * STACK_OFFSET_PX
        half = counter_px // 2
        assert x0 + 4 <= x - half and x + half + climb <= x1 - 4, (location, count)
        assert y0 + 4 <= y - half - climb and y + half <= y1 - 4, (location, count)


def test_a_counter_on_a_track_space_leaves_its_number_visible(game: Game) -> None:
    """Pieces sit below a space's printed number, inside the space."""
    for area in holding_layout(game, 50).spaces:
        x0, y0, x1, y1 = area.rect
        x, y = area.seat
        assert y - 25 >= y0 + SPACE_LABEL_H and y + 25 <= y1 and x0 < x - 25 and x + 25 < x1, area.location


def test_space_names_read_as_the_track(game: Game) -> None:
    """Turn track spaces are 'Turn N'; other tracks drop the word 'track'."""
    for track in game.manifest.track:
        name = space_name(track, track.first)
        assert name.endswith(f" {track.first}") and "track" not in name.lower()
        if track.kind == "turn":
            assert name == f"Turn {track.first}"


def test_the_picture_is_the_same_every_time(game: Game) -> None:
    """Two renders give the same bytes."""
    def png() -> bytes:
        buffer = io.BytesIO()
        render_holding_board(game, 55).image.save(buffer, format="PNG")
        return buffer.getvalue()

    assert png() == png()


@pytest.mark.parametrize(("game_id", "counter_px", "size", "first_box", "first_space", "last_space"), [
    ("onslaught", 50, (1142, 879), (16, 77, 277, 228), (16, 267, 90, 341), (386, 789, 460, 863)),
    ("omaha", 55, (1217, 1125), (16, 77, 277, 228), (16, 951, 95, 1030), (727, 1030, 806, 1109)),
])
def test_golden_areas(game_id: str, counter_px: int, size: tuple[int, int], first_box: Rect, first_space: Rect,
                      last_space: Rect) -> None:
    """Golden rectangles: boxes and spaces are arithmetic on the data and the counter size, not on fonts."""
    layout = holding_layout(load_game(data_root(), game_id), counter_px)
    assert layout.size == size
    assert (layout.boxes[0].rect, layout.spaces[0].rect, layout.spaces[-1].rect) == (first_box, first_space, last_space)


def test_supply_spaces_know_their_flipped_value() -> None:
    """8.2: the Allied track reads 0-30 and 30-60 with the marker flipped (+30), the German 0-20 and 20-40 (+20)."""
    game = load_game(data_root(), "onslaught")
    bonuses = {t.id: flip_bonus(game, t) for t in game.manifest.track}
    assert bonuses == {"turn": None, "allied_supply": 30, "german_supply": 20}
    tracks = {t.id: t for t in game.manifest.track}
    assert (tracks["allied_supply"].first, tracks["allied_supply"].last) == (0, 30)
    assert (tracks["german_supply"].first, tracks["german_supply"].last) == (0, 20)


def test_the_log_reader_lays_the_board_out_as_it_is_drawn(game: Game) -> None:
    """The reader's boxes and track spaces (wargame/vassal/places.py, without a module) are the
    drawn board's, at the module's counter size: one geometry, wargame/holding.py."""
    drawn = holding_layout(game, counter_size_px(board_layout(game)))
    assert holding_areas(game) == [(a.location, a.rect) for a in drawn.areas]
