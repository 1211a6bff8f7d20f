"""Rulebook facts about the Onslaught map, each checked against the loaded data."""

from __future__ import annotations

import pytest

from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.hexes import Hexside


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def names_in(game: Game, area_id: str) -> set[str]:
    """Names of the places inside an area."""
    hexes = {game.grid.label_of(h) for h in game.area_hexes(area_id)}
    return {p.name for _, p in game.places if p.hex in hexes}


def test_terrain_types(game: Game) -> None:
    """2.2: forests, rough, bocage, rivers, cities and fortifications are on the map."""
    on_map = {t for ts in game.hex_terrain.values() for t in ts}
    assert {"forest", "rough", "bocage", "city", "fortification", "clear"} <= on_map
    features = {f for fs in game.hexside_features.values() for f in fs}
    assert {"river", "major_waterway", "sea_side", "fortified"} <= features


def test_defensive_terrain_modifiers(game: Game) -> None:
    """7.1: forest, rough and bocage -1; rivers -1; major waterways -2."""
    assert {t: game.terrain[t].combat_die_modifier for t in ("forest", "rough", "bocage", "river", "major_waterway")} \
        == {"forest": -1, "rough": -1, "bocage": -1, "river": -1, "major_waterway": -2}


def test_sea_hexsides_block_zoc(game: Game) -> None:
    """6.2: zones of control do not extend across sea hexsides, and only those."""
    assert [t.id for t in game.terrain.values() if t.blocks_zoc] == ["sea_side"]


def test_rhine_and_scheldt_estuary_are_major_waterways(game: Game) -> None:
    """6.5: the Rhine and the Scheldt estuary are the major waterways."""
    from collections import Counter

    path = game.files["hexsides"]
    names: Counter[str] = Counter()
    for _, record in game.hexsides:
        if record.feature == "major_waterway":
            names[record.note] += 1
    assert set(names) == {"Rhine", "Rhine (mouth)", "Nederrijn-Lek", "Westerschelde"}, path
    assert names["Rhine"] > 40 and names["Westerschelde"] >= 4


def test_three_landing_hexes_worth_four(game: Game) -> None:
    """3.0, 8.1: three landing hexes in Normandy, four supply points each."""
    landing = game.areas_by_id["landing_hexes"]
    assert len(landing.hexes) == 3 and landing.value == 4
    assert all(game.hex_terrain[game.grid.hex_of(h)] != ("sea",) for h in landing.hexes)


def test_port_areas(game: Game) -> None:
    """8.5: Le Havre and Rouen share the western port area, Antwerp and Ghent the eastern one."""
    assert {"Le Havre", "Rouen"} <= names_in(game, "le_havre_port_area")
    assert {"Antwerp", "Ghent"} <= names_in(game, "antwerp_port_area")
    assert not names_in(game, "le_havre_port_area") & {"Antwerp", "Ghent"}


def test_ports_are_land_and_valued(game: Game) -> None:
    """8.1: every port is a land hex; a port without a number is still a source (no value)."""
    ports = [a for a in game.areas.area if a.kind == "port"]
    assert len(ports) >= 8
    for port in ports:
        assert game.hex_terrain[game.grid.hex_of(port.hexes[0])] != ("sea",), port.name
        assert port.value is None or port.value > 0


def test_fortified_ports(game: Game) -> None:
    """7.5, 8.4: fortified ports are fortification hexes, every land side fortified."""
    members = game.areas_by_id["fortified_ports"].members
    assert members
    for member in members:
        h = game.grid.hex_of(game.areas_by_id[member].hexes[0])
        assert "fortification" in game.hex_terrain[h]
        for n in game.grid.neighbours_on_map(h):
            if game.hex_terrain[n] not in (("sea",), ("neutral",)):
                assert "fortified" in game.hexside_features.get(Hexside.between(h, n), frozenset())


def test_west_wall_along_the_german_border(game: Game) -> None:
    """7.5: West Wall fortification hexes stand in Germany, fortified toward the west."""
    germany = game.area_hexes("germany")
    wall = [h for h in germany if "fortification" in game.hex_terrain[h]]
    assert len(wall) >= 25
    for h in wall:
        outside = [n for n in game.grid.neighbours_on_map(h) if n not in germany]
        assert outside, game.grid.label_of(h)


def test_entry_areas_on_the_southern_edge(game: Game) -> None:
    """10.1: entry areas A and B lie along the southern map edge, A west of B."""
    a = [game.grid.numbers_of(h) for h in game.area_hexes("entry_a")]
    b = [game.grid.numbers_of(h) for h in game.area_hexes("entry_b")]
    last_row = game.map.grid.first_row + game.map.grid.rows - 1
    assert a and b
    assert all(row == last_row for _, row in a + b)
    assert max(c for c, _ in a) < min(c for c, _ in b)


def test_eastern_edge(game: Game) -> None:
    """8.4: the eastern map edge is the German supply source: every hex of the last column."""
    east = game.area_hexes("east_edge")
    last = game.map.grid.first_column + game.map.grid.columns - 1
    assert east and all(game.grid.numbers_of(h)[0] == last for h in east)


def test_victory_regions(game: Game) -> None:
    """13.2, 13.3: the regions east of the Victory Line and west of the Rhine (they overlap
    between the German frontier and the Rhine)."""
    east = game.area_hexes("east_of_victory_line")
    west = game.area_hexes("west_of_rhine")
    assert east and west
    assert {"Paris", "Brussels", "Aachen"} <= names_in(game, "west_of_rhine")
    assert "Cologne" in names_in(game, "west_of_rhine")  # Cologne's centre is on the west bank
    assert {"Trier", "Cologne", "Mainz"} <= names_in(game, "east_of_victory_line")
    assert not names_in(game, "east_of_victory_line") & {"Paris", "Brussels", "Liège", "Metz"}
    assert not names_in(game, "west_of_rhine") & {"Wiesbaden", "Dortmund", "Essen", "Mannheim"}
