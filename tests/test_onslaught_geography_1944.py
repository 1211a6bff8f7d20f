"""Onslaught's map against the geography of 1944: real positions through the map's projection.

Every position below is a town centre in degrees (lon, lat) as given by Wikipedia's
coordinates (GeoHack) for the place, rounded to 0.001 degree; none is read from the map's
own extracts, so a change of the extracts, the grid or the derivation that moves a city to
the wrong bank or the wrong side of the frontier fails here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import cache

import pytest

from builder.geography.config import GeographySpec
from builder.geography.plane import GeoPlane
from wargame.bundled import data_root
from wargame.datafiles import load_toml
from wargame.game import Game, load_game
from wargame.hexes import Hex, Hexside

# (lon, lat) of town centres (Wikipedia).
ARNHEM = (5.899, 51.985)
APELDOORN = (5.969, 52.211)
NIJMEGEN = (5.852, 51.843)
BONN = (7.098, 50.734)
EUSKIRCHEN = (6.787, 50.660)
HENNEF = (7.283, 50.775)
KOBLENZ = (7.598, 50.360)
MONTABAUR = (7.826, 50.435)
DUISBURG = (6.762, 51.433)
KREFELD = (6.564, 51.333)
OBERHAUSEN = (6.851, 51.470)
MAYEN = (7.222, 50.328)
DUSSELDORF = (6.776, 51.227)
LIEGE = (5.571, 50.633)
WAREMME = (5.255, 50.698)
HERVE = (5.794, 50.640)
AACHEN = (6.084, 50.776)
KLEVE = (6.139, 51.788)
SAARBRUCKEN = (6.997, 49.234)
EPINAL = (6.451, 48.172)  # Place des Vosges, the old town (the hexside runs at 48.1737 N)
COLMAR = (7.358, 48.079)
LE_HAVRE = (0.108, 49.494)
HONFLEUR = (0.233, 49.419)
VLISSINGEN = (3.573, 51.443)
GOES = (3.889, 51.504)
ZIERIKZEE = (3.918, 51.650)
MIDDELHARNIS = (4.165, 51.757)
LELYSTAD_1944_WATER = (5.45, 52.45)  # the middle of today's Oostelijk Flevoland


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


@cache
def _plane() -> GeoPlane:
    root = data_root()
    game = load_game(root, "onslaught")
    spec = load_toml(root / "maps" / game.manifest.map / "geography.toml", GeographySpec)
    return GeoPlane(spec, game.grid)


def at(lonlat: tuple[float, float]) -> Hex:
    """The map hex holding a real position, through the map's projection and grid."""
    return _plane().hex_at(*lonlat)


def reach(game: Game, start: Hex, wall: Callable[[set[str], str], bool], steps: int) -> set[Hex]:
    """Land hexes reached from start within `steps` hexes without crossing a wall hexside."""
    notes: dict[Hexside, set[tuple[str, str]]] = {}
    for _, record in game.hexsides:
        notes.setdefault(game.grid.parse_hexside(record.hexside), set()).add((record.feature, record.note))
    seen = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if seen[h] == steps:
            continue
        for n in h.neighbours():
            if n in seen or n not in game.grid or "sea" in game.hex_terrain[n]:
                continue
            side = notes.get(Hexside.between(h, n), set())
            if any(wall({f for f, _ in side}, note) for _, note in side):
                continue
            seen[n] = seen[h] + 1
            queue.append(n)
    return set(seen)


def place_hex(game: Game, name: str) -> Hex:
    """The hex places.csv gives a place."""
    return next(game.grid.hex_of(p.hex) for _, p in game.places if p.name == name)


@pytest.mark.parametrize(("name", "where"), [
    ("Arnhem", ARNHEM), ("Bonn", BONN), ("Koblenz", KOBLENZ), ("Duisburg", DUISBURG), ("Liège", LIEGE),
    ("Aachen", AACHEN), ("Kleve", KLEVE), ("Saarbrücken", SAARBRUCKEN), ("Épinal", EPINAL), ("Colmar", COLMAR),
    ("Le Havre", LE_HAVRE), ("Vlissingen", VLISSINGEN), ("Düsseldorf", DUSSELDORF),
])
def test_place_in_the_hex_of_its_real_position(game: Game, name: str, where: tuple[float, float]) -> None:
    """places.csv puts each place in the hex holding its real town centre (Épinal 4128)."""
    assert place_hex(game, name) == at(where)


def test_epinal_4128(game: Game) -> None:
    """Épinal's hex is 4128 (GeoNames' point, 1 km north of the centre, falls in 4127)."""
    assert game.grid.label_of(place_hex(game, "Épinal")) == "4128"


def _river(name: str) -> Callable[[set[str], str], bool]:
    return lambda features, note: note == name and bool(features & {"river", "major_waterway", "sea_side"})


def _rhine(features: set[str], note: str) -> bool:
    return "major_waterway" in features and note in {"Rhine", "Rhine (mouth)", "Nederrijn-Lek"}


def test_arnhem_on_the_north_bank_of_the_nederrijn(game: Game) -> None:
    """Arnhem is reached from Apeldoorn without crossing a major waterway, from Nijmegen only across one."""
    arnhem = place_hex(game, "Arnhem")
    north = reach(game, arnhem, _rhine, 3)
    assert at(APELDOORN) in north and at(NIJMEGEN) not in north
    sides = [Hexside.between(arnhem, n) for n in arnhem.neighbours()]
    waterway = {s for s in sides if "major_waterway" in game.hexside_features.get(s, ())}
    assert 0 < len(waterway) < 6


@pytest.mark.parametrize(("city", "same_bank", "far_bank"), [
    ("Bonn", EUSKIRCHEN, HENNEF), ("Koblenz", MAYEN, MONTABAUR), ("Duisburg", OBERHAUSEN, KREFELD),
])
def test_rhine_cities_on_their_bank(game: Game, city: str, same_bank: tuple[float, float],
                                    far_bank: tuple[float, float]) -> None:
    """Bonn and Koblenz lie west of the Rhine, Duisburg east of it (the far bank needs a crossing)."""
    side = reach(game, place_hex(game, city), _rhine, 4)
    assert at(same_bank) in side and at(far_bank) not in side


def test_rhine_cities_in_west_of_rhine(game: Game) -> None:
    """13.2's west of the Rhine holds Bonn and Koblenz, not Duisburg or Düsseldorf."""
    west = game.area_hexes("west_of_rhine")
    assert place_hex(game, "Bonn") in west and place_hex(game, "Koblenz") in west
    assert place_hex(game, "Duisburg") not in west and place_hex(game, "Düsseldorf") not in west


def test_liege_on_the_west_bank_of_the_meuse(game: Game) -> None:
    """Liège's hex is on the city's (west) bank of the Meuse: Waremme on its side, Herve across."""
    # Any river is a wall: a hexside holds one river's name, and the Albert Canal meets the
    # Meuse at Liège.
    side = reach(game, place_hex(game, "Liège"), lambda features, note: bool(features & {"river"}), 3)
    assert at(WAREMME) in side and at(HERVE) not in side


@pytest.mark.parametrize("name", ["Aachen", "Kleve", "Saarbrücken"])
def test_german_towns_east_of_the_victory_line(game: Game, name: str) -> None:
    """The Victory Line is the 1939 frontier: Aachen, Kleve and Saarbrücken are German and east of it."""
    h = place_hex(game, name)
    assert h in game.area_hexes("germany") and h in game.area_hexes("east_of_victory_line")


def test_germany_is_east_of_the_victory_line(game: Game) -> None:
    """Every land hex is in `germany` exactly when it is east of the Victory Line (4103, 4104 included)."""
    land = {h for h, t in game.hex_terrain.items() if "sea" not in t and "neutral" not in t}
    germany, east = game.area_hexes("germany") & land, game.area_hexes("east_of_victory_line") & land
    assert germany == east
    for label in ("4103", "4104"):  # astride the frontier: German (4103) or Dutch (4104) by the centre
        assert (game.grid.hex_of(label) in germany) == (game.grid.hex_of(label) in east)


def test_seine_estuary_is_open_water(game: Game) -> None:
    """6.2's example: Le Havre's zone of control stops at the estuary; Honfleur is across open water."""
    side = Hexside.between(at(LE_HAVRE), at(HONFLEUR))
    assert "sea_side" in game.hexside_features.get(side, ())
    assert game.terrain["sea_side"].blocks_zoc


def test_walcheren_has_no_land_link_north(game: Game) -> None:
    """1944 Zeeland: Walcheren reaches Zuid-Beveland (the Sloedam) but not Schouwen or Overflakkee by land."""
    def water(features: set[str], note: str) -> bool:
        return bool(features & {"sea_side", "major_waterway"})

    walcheren = reach(game, place_hex(game, "Vlissingen"), water, 3)
    assert at(GOES) in walcheren
    assert at(ZIERIKZEE) not in walcheren and at(MIDDELHARNIS) not in walcheren


def test_zuiderzee_before_the_polders(game: Game) -> None:
    """The IJsselmeer of 1944 (today's Flevoland) is water: hex 3501 is sea, 3401 and 3601 part water."""
    assert game.hex_terrain[at(LELYSTAD_1944_WATER)] == ("sea",)
    assert game.hex_terrain[game.grid.hex_of("3501")] == ("sea",)
    notes = {r.hex: r.note for _, r in game.hexes}
    assert notes["3601"].startswith("land ") and notes["3401"].startswith("land ")


def test_colmar_not_forest(game: Game) -> None:
    """Colmar lies on the Alsace plain, not in the Vosges forest."""
    assert "forest" not in game.hex_terrain[place_hex(game, "Colmar")]


def test_city_places_are_city_hexes(game: Game) -> None:
    """A place of kind `city` stands on city terrain (2.2), alone or with a fortification."""
    wrong = sorted(p.name for _, p in game.places
                   if p.kind == "city" and "city" not in game.hex_terrain[game.grid.hex_of(p.hex)])
    assert wrong == []


# Places the set-up notes name for the four hexes found wrong (Wikipedia positions).
NOTED = {
    "de-inf-04": ("0621", (-0.835, 49.182)),   # Balleroy
    "de-inf-13": ("1913", (1.907, 50.567)),    # Hucqueliers
    "de-inf-18": ("2314", (2.811, 50.372)),    # Vimy
    "de-inf-20": ("2608", (3.444, 51.207)),    # Maldegem
}


def test_setup_notes_name_a_place_in_the_hex(game: Game) -> None:
    """A set-up note naming just a place ("Dieppe, 6 June 1944") names a place of that hex."""
    where = {p.name: p.hex for _, p in game.places}
    checked = 0
    for _, placement in game.setup:
        name = placement.note.split(",")[0]
        if placement.note.endswith(", 6 June 1944") and name in where:
            assert where[name] == placement.location, (placement.piece, name)
            checked += 1
    assert checked >= 10
    for piece, (label, lonlat) in NOTED.items():
        placement = next(p for _, p in game.setup if p.piece == piece)
        assert placement.location == label and game.grid.label_of(at(lonlat)) == label
