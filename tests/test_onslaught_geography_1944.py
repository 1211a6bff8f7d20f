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
from shapely.geometry import LineString, Point

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
MIDDELBURG = (3.614, 51.499)
VEERE = (3.667, 51.548)
S_HEERENHOEK = (3.768, 51.462)
BORSSELE = (3.735, 51.423)
KAPELLE = (3.958, 51.487)
KORTGENE = (3.804, 51.555)
WOENSDRECHT = (4.303, 51.430)
KAMPERLAND = (3.705, 51.573)
SLOEDAM = (3.705, 51.497)  # the causeway east of Arnemuiden (OpenStreetMap reading, about 0.5 km)
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


# The West Wall's course, north to south (Wikipedia positions of towns on the line): Kleve and the
# Reichswald, down the Dutch and Belgian frontier past Aachen, the Schnee Eifel and the Our, the
# Saar-Moselle triangle, Saarbrücken, the Palatinate frontier to the Rhine at Lauterbourg, then the
# German (east) bank of the upper Rhine to Basel.
WEST_WALL_COURSE = [
    (6.139, 51.788), (6.162, 51.678), (6.324, 51.519), (6.183, 51.240), (6.119, 50.966), (6.084, 50.776),
    (6.244, 50.555), (6.268, 50.390), (6.286, 50.233), (6.132, 50.048), (6.208, 49.935), (6.421, 49.812),
    (6.500, 49.715), (6.384, 49.534), (6.637, 49.443), (6.751, 49.314), (6.997, 49.234), (7.363, 49.247),
    (7.604, 49.200), (7.999, 49.103), (8.178, 48.975), (8.204, 48.858), (7.815, 48.573), (7.578, 48.033),
    (7.562, 47.815), (7.620, 47.594),
]
LAUTERBOURG = (8.178, 48.975)
# Towns on the right bank of the lower Rhine, by the Dutch frontier where the West Wall never ran.
RIGHT_BANK = {"Emmerich": (6.245, 51.835), "Rees": (6.397, 51.757), "Bocholt": (6.615, 51.838),
              "Hamminkeln": (6.590, 51.732), "Wesel": (6.618, 51.659)}


def west_wall(game: Game) -> set[Hex]:
    """The West Wall's fortification hexes (the fortified ports apart)."""
    notes = {r.hex: r.note for _, r in game.hexes}
    return {h for h, t in game.hex_terrain.items() if "fortification" in t and notes[game.grid.label_of(h)] == "West Wall"}


def test_no_west_wall_hex_beyond_the_rhine(game: Game) -> None:
    """The West Wall never ran north or east of the Rhine's course: every West Wall hex is west of the
    Rhine, or on the upper Rhine's German bank above Lauterbourg, facing France across the river.
    4105 (by Hamminkeln, east of the Rhine, on the Dutch frontier) is not one."""
    west = game.area_hexes("west_of_rhine")
    lauterbourg_lat = LAUTERBOURG[1]
    for h in west_wall(game):
        if h in west:
            continue
        label = game.grid.label_of(h)
        assert _plane().centre_lonlat(h)[1] < lauterbourg_lat, label
        across = [n for n in h.neighbours() if n in west and "major_waterway" in game.hexside_features.get(
            Hexside.between(h, n), ())]
        assert any(n in game.area_hexes("france") for n in across), label
    assert game.grid.hex_of("4105") not in west_wall(game) and game.grid.hex_of("4105") not in west
    for name, where in RIGHT_BANK.items():
        assert at(where) not in west_wall(game), name


def test_west_wall_follows_its_real_course(game: Game) -> None:
    """Every West Wall hex lies within one hex of the line's real course, and every town on the course
    is in a West Wall hex or next to one: no stretch of the frontier wrongly fortified or left open."""
    plane = _plane()
    course = LineString([plane.km(*p) for p in WEST_WALL_COURSE])
    wall = west_wall(game)
    hex_km = plane.spec.grid.hex_across_km
    for h in wall:
        assert course.distance(Point(plane.layout.centre(h))) < hex_km, game.grid.label_of(h)
    for where in WEST_WALL_COURSE[:-1]:  # Weil am Rhein, the last point, is off the map's south edge
        h = at(where)
        assert h in wall or any(n in wall for n in h.neighbours()), (where, game.grid.label_of(h))


# The Meurthe (Wikipedia positions of towns on it): Saint-Dié, Raon-l'Étape, Baccarat, Lunéville,
# Saint-Nicolas-de-Port, Nancy (on its left bank), Frouard (where it joins the Moselle).
MEURTHE_TOWNS = {"Saint-Dié": (6.949, 48.284), "Raon-l'Étape": (6.846, 48.405), "Baccarat": (6.740, 48.450),
                 "Lunéville": (6.497, 48.590), "Saint-Nicolas-de-Port": (6.300, 48.630),
                 "Nancy": (6.184, 48.692), "Frouard": (6.134, 48.760)}
CHATEAU_SALINS = (6.513, 48.819)  # north-east of Nancy, across the Meurthe
PONT_SAINT_VINCENT = (6.100, 48.604)  # south-west of Nancy, between the Moselle and the Meurthe


def _sides_of(game: Game, name: str) -> set[Hexside]:
    return {game.grid.parse_hexside(r.hexside) for _, r in game.hexsides if r.note == name}


def _corners(side: Hexside) -> set[tuple[float, float]]:
    """The two corners a hexside joins (km, rounded so that the two hexes' corners agree)."""
    a, b = ({(round(x, 6), round(y, 6)) for x, y in _plane().layout.corners(h)} for h in (side.a, side.b))
    return a & b


def test_meurthe_runs_from_saint_die_to_the_moselle_at_frouard(game: Game) -> None:
    """The Meurthe is a river like the others: an unbroken line of river hexsides past every town on
    it, joining the Moselle's at Frouard's hex."""
    meurthe = _sides_of(game, "Meurthe")
    assert meurthe and all(game.hexside_features[s] >= {"river"} for s in meurthe)
    for name, where in MEURTHE_TOWNS.items():
        h = at(where)
        assert any(h in side for side in meurthe), name
    chain, rest = [next(iter(meurthe))], set(meurthe)
    rest.discard(chain[0])
    while rest:  # one line: every hexside shares a corner with another
        linked = {s for s in rest if any(_corners(s) & _corners(c) for c in chain)}
        assert linked, sorted(game.grid.hexside_label(s) for s in rest)
        chain += sorted(linked, key=game.grid.hexside_label)
        rest -= linked
    moselle = _sides_of(game, "Moselle")
    frouard = at(MEURTHE_TOWNS["Frouard"])
    assert any(_corners(s) & _corners(m) for s in meurthe if frouard in s for m in moselle if frouard in m)


@pytest.mark.parametrize(("tributary", "river"), [
    ("Meurthe", "Moselle"), ("Saar", "Moselle"), ("Sauer", "Moselle"), ("Our", "Sauer"), ("Roer", "Meuse"),
    ("Sambre", "Meuse"), ("Albert Canal", "Meuse"), ("Oise", "Seine"), ("Marne", "Seine"), ("Aisne", "Oise"),
    ("IJssel", "Rhine"), ("Nederrijn-Lek", "Rhine"), ("Moselle", "Rhine"), ("Scheldt", "Westerschelde"),
    ("Douve", "Vire"),
])
def test_every_tributary_meets_its_river(game: Game, tributary: str, river: str) -> None:
    """A river's wall of hexsides meets the wall of the river it flows into: no dry gap at the
    junction for a unit to slip through without crossing either."""
    assert any(_corners(t) & _corners(r) for t in _sides_of(game, tributary) for r in _sides_of(game, river))


def test_every_river_is_one_unbroken_wall(game: Game) -> None:
    """Every river and waterway's hexsides, with the rivers and sea channels they meet, form one
    unbroken line of hexsides; a line may break only where the river leaves the map (the Rhine
    between Strasbourg and Mannheim runs east of column 50)."""
    walls = {game.grid.parse_hexside(r.hexside): r.note for _, r in game.hexsides
             if r.feature in ("river", "major_waterway", "sea_side")}
    # Hexsides sharing a corner take the lowest label among them, until nothing changes.
    by_corner: dict[tuple[float, float], list[Hexside]] = {}
    for side in walls:
        for corner in _corners(side):
            by_corner.setdefault(corner, []).append(side)
    label = {side: i for i, side in enumerate(walls)}
    changed = True
    while changed:
        changed = False
        for sides in by_corner.values():
            low = min(label[s] for s in sides)
            for s in sides:
                if label[s] != low:
                    label[s], changed = low, True
    edge = {h for h in game.grid.hexes if game.grid.is_edge(h)}
    for name in {n for n in walls.values() if not n.startswith("water ")}:
        parts: dict[int, set[Hexside]] = {}
        for side, note in walls.items():
            if note == name:
                parts.setdefault(label[side], set()).add(side)
        if len(parts) > 1:
            for part in parts.values():
                assert any(h in edge for side in part for h in side), (name, sorted(
                    game.grid.hexside_label(s) for s in part)[:5])


def test_nancy_and_luneville_on_the_left_bank_of_the_meurthe(game: Game) -> None:
    """Nancy reaches Lunéville and Pont-Saint-Vincent without crossing the Meurthe; Château-Salins,
    across it, only by crossing a river (not round the confluence at Frouard)."""
    side = reach(game, place_hex(game, "Nancy"), _river("Meurthe"), 3)
    assert at(MEURTHE_TOWNS["Lunéville"]) in side and at(PONT_SAINT_VINCENT) in side
    dry = reach(game, place_hex(game, "Nancy"), lambda features, note: "river" in features, 6)
    assert at(CHATEAU_SALINS) not in dry and at(MEURTHE_TOWNS["Frouard"]) in dry


def test_seine_estuary_is_open_water(game: Game) -> None:
    """6.2's example: Le Havre's zone of control stops at the estuary; Honfleur is across open water."""
    side = Hexside.between(at(LE_HAVRE), at(HONFLEUR))
    assert "sea_side" in game.hexside_features.get(side, ())
    assert game.terrain["sea_side"].blocks_zoc


def _water(features: set[str], note: str) -> bool:
    return bool(features & {"sea_side", "major_waterway"})


def test_walcheren_has_no_land_link_north(game: Game) -> None:
    """1944 Zeeland: Walcheren reaches Zuid-Beveland (the Sloedam) but not Schouwen or Overflakkee by land."""
    walcheren = reach(game, place_hex(game, "Vlissingen"), _water, 3)
    assert at(KAPELLE) in walcheren and at(S_HEERENHOEK) in walcheren
    assert at(ZIERIKZEE) not in walcheren and at(MIDDELHARNIS) not in walcheren


def test_walcheren_crosses_to_zuid_beveland_only_by_the_sloedam(game: Game) -> None:
    """The Veerse Gat cut Walcheren off from Noord-Beveland, and the Zandkreek Noord- from Zuid-Beveland
    (both dammed only in 1960-1961): Walcheren's one land hexside is the Sloedam's, to the hex of
    Zuid-Beveland ('s-Heerenhoek, Borssele), and Noord-Beveland (Kortgene, Kamperland) is an island."""
    walcheren = place_hex(game, "Vlissingen")
    assert walcheren == at(MIDDELBURG) == at(VEERE)
    zuid, noord = at(S_HEERENHOEK), at(KORTGENE)
    assert zuid == at(BORSSELE) and noord == at(KAMPERLAND) and zuid != noord
    land = [n for n in walcheren.neighbours() if n in game.grid and "sea" not in game.hex_terrain[n]
            and not _water(set(game.hexside_features.get(Hexside.between(walcheren, n), ())), "")]
    assert land == [zuid]
    # The Sloedam (1871) runs east from Arnemuiden towards Walcheren's east corner, where that
    # hexside starts: within a fifth of a hex of it.
    plane = _plane()
    assert plane.hex_polygon(zuid).distance(Point(plane.km(*SLOEDAM))) < plane.spec.grid.hex_across_km / 5
    assert reach(game, noord, _water, 6) == {noord}
    assert noord not in reach(game, walcheren, _water, 10)
    assert at(WOENSDRECHT) in reach(game, walcheren, _water, 3)  # on to the mainland by the isthmus


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
