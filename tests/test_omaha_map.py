"""Rulebook facts about the Omaha Beach map, each checked against the loaded data."""

from __future__ import annotations

from collections import defaultdict

import pytest

from builder.geography.config import GeographySpec
from builder.geography.fit import fit_grid
from wargame.bundled import data_root
from wargame.datafiles import load_toml
from wargame.game import Game, load_game
from wargame.hexes import Hex

NAMED = {  # place -> the hexes the rulebook gives it
    "Pointe du Hoc": {"2417"},  # 11.0, 11.2.3
    "Trévières": {"1718"},  # 11.1.4, 13.0
    "Isigny": {"1811", "1911"},  # 11.1.4, 13.0
    "Caumont": {"0421"},  # 11.1.4, 13.0
    "St-Lô": {"0608", "0609", "0709"},  # 13.0
}
BEACH = ["2318", "2319", "2219", "2120", "2121", "2122"]  # 11.0, 11.2.1


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def hexes_of(game: Game, name: str) -> set[str]:
    """Labels of a named place's hexes."""
    return {p.hex for _, p in game.places if p.name == name}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_places_sit_at_their_labels(game: Game, name: str) -> None:
    """11.0, 11.1.4, 13.0: every place the rulebook names by hex is in exactly those hexes."""
    assert hexes_of(game, name) == NAMED[name]


def test_st_lo_city_hexes(game: Game) -> None:
    """13.0: St-Lô's three hexes are city hexes, and mutually adjacent."""
    hexes = [game.grid.hex_of(label) for label in NAMED["St-Lô"]]
    assert all(game.hex_terrain[h] == ("city",) for h in hexes)
    assert all(a.is_adjacent(b) for a in hexes for b in hexes if a != b)


def test_beach_hexes_are_coastal_land(game: Game) -> None:
    """11.0: the six Omaha beach hexes are land, contiguous, and each touches the sea."""
    beach = game.areas_by_id["omaha_beach"]
    assert sorted(beach.hexes) == sorted(BEACH) and beach.kind == "beach"
    hexes = [game.grid.hex_of(label) for label in BEACH]
    for a, b in zip(hexes, hexes[1:]):
        assert a.is_adjacent(b)
    for h in hexes:
        assert game.hex_terrain[h] != ("sea",)
        assert any(game.hex_terrain[n] == ("sea",) for n in game.grid.neighbours_on_map(h)), game.grid.label_of(h)


def test_pointe_du_hoc_is_not_a_beach_hex(game: Game) -> None:
    """11.0, 11.2.3: 2417 is a separate cliff-top hex next to the beach, not one of its hexes."""
    assert "2417" not in BEACH
    assert game.grid.hex_of("2417").is_adjacent(game.grid.hex_of("2318"))


def test_scenario_boundary(game: Game) -> None:
    """10.1: the boundary hexes 0705-0104 form a line."""
    line = game.lines_by_id["scenario_boundary"]
    assert list(line.hexes) == ["0705", "0604", "0504", "0404", "0304", "0204", "0104"]


def test_douve_taute_runs_from_2108_to_0805(game: Game) -> None:
    """10.1: the Douve/Taute river courses from hex 2108 to hex 0805."""
    touched: set[Hex] = set()
    for _, record in game.hexsides:
        if record.feature == "river" and record.note in ("Douve", "Taute"):
            touched |= set(game.grid.parse_hexside(record.hexside))
    assert game.grid.hex_of("2108") in touched
    assert game.grid.hex_of("0805") in touched


def test_sch30_entry_hex(game: Game) -> None:
    """11.1.2: Sch/30 arrives on hex 1005, a land hex east of the Douve/Taute."""
    arrival = next(a for _, a in game.reinforcements if a.unit == "Sch/30")
    assert arrival.entry == "1005"
    assert game.hex_terrain[game.grid.hex_of("1005")] != ("sea",)


def test_german_entry_not_west_of_marigny(game: Game) -> None:
    """11.1.2: German reinforcements enter along the south edge, not west of Marigny."""
    south = game.area_hexes("south_edge")
    marigny = next(game.grid.hex_of(p.hex) for _, p in game.places if p.name == "Marigny")
    assert south
    assert all(game.grid.numbers_of(h)[0] == 1 for h in south)  # column 01 is the south edge
    assert min(game.grid.numbers_of(h)[1] for h in south) >= game.grid.numbers_of(marigny)[1]


def test_seven_named_cities(game: Game) -> None:
    """14.2: the US map holds seven named cities (St-Lô among them)."""
    cities: dict[str, set[str]] = defaultdict(set)
    for _, place in game.places:
        if game.hex_terrain[game.grid.hex_of(place.hex)] == ("city",):
            cities[place.name].add(place.hex)
    assert len(cities) == 7 and "St-Lô" in cities


def test_bridges_between_city_hexes_across_rivers(game: Game) -> None:
    """10.1: two city hexes separated by a river hexside are joined by a bridge."""
    checked = 0
    for side, features in game.hexside_features.items():
        if "river" in features and all(game.hex_terrain[h] == ("city",) for h in side):
            assert "bridge" in features, game.grid.hexside_label(side)
            checked += 1
    assert checked >= 1  # St-Lô straddles the Vire


def test_roads_cross_rivers_on_bridges(game: Game) -> None:
    """5.4.1 with 10.1: a road hexside over a river or stream carries a bridge."""
    for side, features in game.hexside_features.items():
        if "road" in features and features & {"river", "stream", "canal"}:
            assert "bridge" in features, game.grid.hexside_label(side)


def test_grid_fits_the_named_hexes() -> None:
    """The least-squares fit of the grid to the named places leaves each within 1.5 hexes,
    and after the warp every anchor lies in one of its hexes."""
    root = data_root()
    game = load_game(root, "omaha")
    spec = load_toml(root / "maps" / "omaha" / "geography.toml", GeographySpec)
    fit = fit_grid(spec, game.grid)
    assert 1.0 * 1.609344 < fit.hex_across_km < 1.3 * 1.609344  # 1.0-1.3 miles a hex
    for residual in fit.residuals:
        assert residual.hexes_off < 1.5, residual
        assert residual.falls_in in residual.hexes, residual
