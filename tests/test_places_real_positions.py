"""Every named place and every set-up note against real positions, through each map's own projection.

Positions are Wikipedia's coordinates for the town (its town hall or centre), rounded to 0.001
degree (0.0001 on Omaha's 2 km hexes); none is read from the maps' own extracts. A place passes
when its hex holds its position or lies within 5% of a hex's width of it: a town spreads around
its point, so a point a few hundred metres past a hexside cannot choose between the two hexes.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from shapely.geometry import Point

from builder.geography.config import GeographySpec
from builder.geography.plane import GeoPlane
from wargame.bundled import data_root
from wargame.datafiles import load_toml
from wargame.game import Game, load_game
from wargame.hexes import Hex

ONSLAUGHT = {
    "'s-Hertogenbosch": (5.304, 51.689), "Aachen": (6.084, 50.776), "Abbeville": (1.833, 50.106),
    "Amiens": (2.302, 49.894), "Amsterdam": (4.894, 52.373), "Antwerp": (4.403, 51.219),
    "Argentan": (-0.020, 48.744), "Arnhem": (5.899, 51.985), "Avranches": (-1.357, 48.685),
    "Bastogne": (5.716, 50.000), "Bayeux": (-0.703, 49.277), "Bonn": (7.098, 50.734),
    "Boulogne": (1.614, 50.726), "Breda": (4.776, 51.589), "Brussels": (4.352, 50.847),
    "Caen": (-0.364, 49.181), "Calais": (1.858, 50.948), "Carentan": (-1.248, 49.304),
    "Charleroi": (4.444, 50.411), "Chartres": (1.489, 48.446), "Cherbourg": (-1.616, 49.640),
    "Châlons": (4.365, 48.957), "Colmar": (7.358, 48.079), "Cologne": (6.958, 50.938),
    "Compiègne": (2.826, 49.418), "Dieppe": (1.078, 49.922), "Dinant": (4.912, 50.261),
    "Dortmund": (7.465, 51.514), "Duisburg": (6.762, 51.433), "Dunkirk": (2.377, 51.038),
    "Düren": (6.483, 50.800), "Düsseldorf": (6.776, 51.227), "Eindhoven": (5.478, 51.441),
    "Essen": (7.013, 51.451), "Falaise": (-0.197, 48.897), "Ghent": (3.726, 51.054),
    "Hoek van Holland": (4.133, 51.977), "IJmuiden": (4.620, 52.459), "Karlsruhe": (8.404, 49.009),
    "Kleve": (6.139, 51.788), "Koblenz": (7.598, 50.360), "Le Havre": (0.108, 49.494),
    "Le Mans": (0.199, 48.008), "Leuven": (4.700, 50.879), "Lille": (3.063, 50.637),
    "Liège": (5.571, 50.633), "London": (-0.128, 51.507), "Luxembourg": (6.130, 49.612),
    "Maastricht": (5.691, 50.851), "Mainz": (8.271, 50.000), "Malmedy": (6.028, 50.426),
    "Mannheim": (8.466, 49.488), "Metz": (6.178, 49.120), "Mons": (3.957, 50.454),
    "Mortain": (-0.940, 48.648), "Mulhouse": (7.339, 47.749), "Namur": (4.867, 50.467),
    "Nancy": (6.184, 48.692), "Nijmegen": (5.852, 51.843), "Orléans": (1.909, 47.903),
    "Ostend": (2.912, 51.216), "Paris": (2.352, 48.857), "Reims": (4.032, 49.258),
    "Remagen": (7.227, 50.577), "Rennes": (-1.680, 48.111), "Roermond": (5.988, 51.194),
    "Rotterdam": (4.478, 51.922), "Rouen": (1.099, 49.443), "Saarbrücken": (6.997, 49.234),
    "Saint-Lô": (-1.091, 49.116), "Saint-Quentin": (3.287, 49.848), "Sainte-Mère-Église": (-1.317, 49.409),
    "Sedan": (4.945, 49.702), "Soissons": (3.324, 49.382), "St. Vith": (6.127, 50.281),
    "Strasbourg": (7.746, 48.583), "The Hague": (4.300, 52.080), "Trier": (6.641, 49.757),
    "Troyes": (4.079, 48.300), "Utrecht": (5.122, 52.091), "Venlo": (6.168, 51.370),
    "Verdun": (5.388, 49.160), "Vire": (-0.889, 48.838), "Vlissingen": (3.573, 51.443),
    "Wesel": (6.618, 51.659), "Épinal": (6.451, 48.172),
}

OMAHA = {
    "Airel": (-1.0794, 49.2186), "Balleroy": (-0.8350, 49.1820), "Bayeux": (-0.7031, 49.2769),
    "Bérigny": (-0.9408, 49.1428), "Carentan": (-1.2481, 49.3036), "Cerisy-la-Forêt": (-0.9356, 49.1958),
    "Colleville-sur-Mer": (-0.8422, 49.3492), "Couvains": (-1.0069, 49.1658), "Formigny": (-0.8978, 49.3372),
    "Grandcamp": (-1.0411, 49.3875), "La Cambe": (-1.0058, 49.3435), "Le Molay-Littry": (-0.8725, 49.2436),
    "Lison": (-1.0381, 49.2414), "Marigny": (-1.2422, 49.0997), "Pont-Hébert": (-1.1333, 49.1669),
    "Port-en-Bessin": (-0.7553, 49.3442), "St-Clair-sur-l'Elle": (-1.0294, 49.1922),
    "St-Jean-de-Daye": (-1.1378, 49.2278), "St-Laurent-sur-Mer": (-0.8764, 49.3594),
    "Tilly-sur-Seulles": (-0.6267, 49.1753), "Vierville-sur-Mer": (-0.9050, 49.3742),
    "Villers-Bocage": (-0.6556, 49.0803),
}
# Hill 192 is a ridge, drawn as a rough-terrain polygon; its label has no town point to test.
OMAHA_LANDMARKS = {"Hill 192"}

# Every place an Onslaught set-up note names (Wikipedia positions).
NOTE_PLACES = {
    "Cherbourg": (-1.616, 49.640), "Bricquebec": (-1.634, 49.470), "Valognes": (-1.470, 49.509),
    "La Haye-du-Puits": (-1.544, 49.289), "St-Sauveur": (-1.531, 49.386), "Balleroy": (-0.835, 49.182),
    "Le Molay-Littry": (-0.873, 49.244), "Caen": (-0.364, 49.181), "Pont-l'Évêque": (0.184, 49.285),
    "Évreux": (1.151, 49.024), "Chartres": (1.489, 48.446), "Magny-en-Vexin": (1.786, 49.155),
    "Neufchâtel-en-Bray": (1.439, 49.734), "Amiens": (2.302, 49.894), "Leopoldsburg": (5.255, 51.117),
    "Le Havre": (0.108, 49.494), "Bolbec": (0.473, 49.573), "Dieppe": (1.078, 49.922),
    "Le Tréport": (1.372, 50.060), "Abbeville": (1.833, 50.106), "Hucqueliers": (1.907, 50.567),
    "Montreuil": (1.764, 50.464), "Boulogne": (1.614, 50.726), "Calais": (1.858, 50.948),
    "Licques": (1.936, 50.784), "Lumbres": (2.121, 50.707),
    "Dunkirk": (2.377, 51.038), "St-Omer": (2.254, 50.750), "Vimy": (2.811, 50.372),
    "Liévin": (2.779, 50.423), "Arras": (2.781, 50.291), "Bruges": (3.225, 51.209),
    "Maldegem": (3.444, 51.207), "Aardenburg": (3.447, 51.273), "Eeklo": (3.557, 51.187),
    "Middelburg": (3.614, 51.499), "Rotterdam": (4.478, 51.922), "Leiden": (4.497, 52.160),
    "Haarlem": (4.637, 52.381), "Amsterdam": (4.894, 52.373),
}
# How a note puts a unit beside a place rather than in it: "inland of Montreuil", "north of Arras",
# "west of Amsterdam", "Caen (to the south-east)".
BESIDE = r"\b(?:of|by) {name}\b|\b{name} \((?:to the|inland)"


@cache
def _map(game_id: str) -> tuple[Game, GeoPlane]:
    root = data_root()
    game = load_game(root, game_id)
    spec = load_toml(root / "maps" / game.manifest.map / "geography.toml", GeographySpec)
    return game, GeoPlane(spec, game.grid)


def km_outside(game_id: str, label: str, lonlat: tuple[float, float]) -> float:
    """How far (km) a real position lies outside a hex (0 inside it)."""
    game, plane = _map(game_id)
    return float(plane.hex_polygon(game.grid.hex_of(label)).distance(Point(plane.km(*lonlat))))


def positioned_places(game_id: str) -> dict[str, str]:
    """Places placed by their position (not by rule hexes), with their hexes."""
    game, plane = _map(game_id)
    by_rule = {p.name for p in plane.spec.place if p.hexes}
    return {p.name: p.hex for _, p in game.places if p.name not in by_rule}


@pytest.mark.parametrize(("game_id", "positions", "landmarks"), [
    ("onslaught", ONSLAUGHT, set()), ("omaha", OMAHA, OMAHA_LANDMARKS),
])
def test_every_place_in_the_hex_of_its_real_position(game_id: str, positions: dict[str, tuple[float, float]],
                                                     landmarks: set[str]) -> None:
    """Every place the map positions is in the hex of its real position (within 5% of a hex).
    Cerisy-la-Forêt (Omaha 1016, not 1117) and Lison (1413, not 1313) were a hex off their villages."""
    places = positioned_places(game_id)
    assert set(places) - landmarks == set(positions), "give every new place its real position here"
    tolerance = _map(game_id)[1].spec.grid.hex_across_km * 0.05
    wrong = {name: (label, round(km_outside(game_id, label, positions[name]), 2))
             for name, label in places.items() if name in positions
             and km_outside(game_id, label, positions[name]) > tolerance}
    assert wrong == {}
    assert places.get("Cerisy-la-Forêt", "1016") == "1016" and places.get("Lison", "1413") == "1413"


def test_every_setup_note_names_places_of_the_units_hex() -> None:
    """A set-up note names a place only in the unit's hex, or beside it when the note says so
    ("inland of", "north of", "(to the south-east)"...), and then the place is in a neighbouring hex.
    Le Molay-Littry (0620) and Eeklo (2709) were named for units in 0621 and 2608, Amsterdam (3301)
    for one in 3201, and Calais (1910) beside one two hexes away (2011)."""
    game, plane = _map("onslaught")
    checked = 0
    for _, placement in game.setup:
        named = [name for name in NOTE_PLACES if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", placement.note)]
        if placement.note.endswith(", 6 June 1944"):
            assert named, (placement.piece, "a set-up note names a place: give its position here")
        if not named:
            continue
        unit: Hex = game.grid.hex_of(placement.location)
        for name in named:
            where = plane.hex_at(*NOTE_PLACES[name])
            if re.search(BESIDE.format(name=re.escape(name)), placement.note):
                assert where.is_adjacent(unit), (placement.piece, name, game.grid.label_of(where))
            else:
                assert where == unit, (placement.piece, name, game.grid.label_of(where))
            checked += 1
    assert checked >= 30
