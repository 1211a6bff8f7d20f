"""Round trips and VASSAL agreement for every hex of every bundled map."""

from __future__ import annotations

import pytest

from vassal_oracle import VassalHexGrid
from wargame.bundled import data_root, game_ids
from wargame.game import Game, load_game
from wargame.layout import vassal_grid

GAMES = game_ids(data_root())


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    """Each bundled game, loaded once."""
    return load_game(data_root(), request.param)


def test_label_hex_pixel_round_trips(game: Game) -> None:
    """label -> hex -> label, numbers -> hex -> numbers, and hex -> pixel -> hex for every hex."""
    grid, layout = game.grid, game.layout
    width, height = game.board_size
    for label in grid.labels:
        h = grid.hex_of(label)
        assert grid.label_of(h) == label
        assert grid.hex_at(*grid.numbers_of(h)) == h
        x, y = layout.centre(h)
        assert 0 < x < width and 0 < y < height
        assert layout.pixel_to_hex(x, y) == h


def test_module_grid_names_every_hex_as_we_do(game: Game) -> None:
    """VASSAL, given the derived attributes, names each centre with our label and back."""
    grid, layout = game.grid, game.layout
    derived = vassal_grid(layout, grid, game.board_size)
    vassal = VassalHexGrid(derived.hex_grid, derived.numbering, game.board_size)
    for h in grid.hexes:
        x, y = layout.centre(h)
        point = (int(x + 0.5), int(y + 0.5))
        assert vassal.location_name(point) == grid.label_of(h)
        assert layout.pixel_to_hex(*vassal.location(grid.label_of(h))) == h
        assert layout.pixel_to_hex(*vassal.snap_to(point)) == h


def test_rulebook_hexes_are_adjacent_as_the_rules_need() -> None:
    """Omaha's named multi-hex places and the beach are contiguous on our grid (11.0, 13.0)."""
    grid = load_game(data_root(), "omaha").grid
    chain = ["2318", "2319", "2219", "2120", "2121", "2122"]
    for a, b in zip(chain, chain[1:]):
        assert grid.hex_of(a).is_adjacent(grid.hex_of(b)), (a, b)
    st_lo = [grid.hex_of(label) for label in ("0608", "0609", "0709")]
    assert all(a.is_adjacent(b) for a in st_lo for b in st_lo if a != b)
    assert grid.hex_of("1811").is_adjacent(grid.hex_of("1911"))
