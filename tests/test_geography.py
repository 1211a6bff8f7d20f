"""The map authoring tool: projection, the odd-crossing river rule, and reproducible output."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Polygon, box

from builder.geography.config import GeographySpec
from builder.geography.derive import derive, write_draft
from builder.geography.geojson import write_features
from builder.geography.plane import GeoPlane
from builder.geography.projection import LambertConformalConic
from wargame.bundled import data_root
from wargame.datafiles import load_toml
from wargame.errors import DataError
from wargame.grid import Grid, GridSpec
from wargame.hexes import Hexside

ROOT = Path(__file__).resolve().parent.parent
LCC = LambertConformalConic((48.5, 51.5), 3.0, 50.0)


def test_projection_round_trip_and_distance() -> None:
    """inverse(forward(p)) == p; Paris-Cologne is about 403 km as on the globe."""
    for lon, lat in [(-2.0, 52.4), (8.5, 47.7), (2.35, 48.85), (3.0, 50.0)]:
        back = LCC.inverse(*LCC.forward(lon, lat))
        assert back == pytest.approx((lon, lat), abs=1e-9)
    (x1, y1), (x2, y2) = LCC.forward(2.35, 48.85), LCC.forward(6.96, 50.94)
    assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(403.5, abs=2.0)


def test_projection_is_conformal() -> None:
    """East-west and north-south scales agree at a point (no shape distortion)."""
    lon, lat, d = 5.0, 49.0, 1e-4
    x0, y0 = LCC.forward(lon, lat)
    x1, y1 = LCC.forward(lon + d, lat)
    x2, y2 = LCC.forward(lon, lat + d)
    east = math.hypot(x1 - x0, y1 - y0) / (d * math.cos(math.radians(lat)))
    north = math.hypot(x2 - x0, y2 - y0) / d
    assert east == pytest.approx(north, rel=1e-6)


def _spec(**layers: object) -> GeographySpec:
    base = {
        "schema_version": 1,
        "projection": {"kind": "lambert_conformal_conic", "standard_parallels": [48.5, 51.5],
                       "central_meridian": 3.0, "origin_latitude": 50.0},
        "grid": {"hex_across_km": 17.702784, "first_hex_km": [0.0, 0.0]},
        "extract": {"countries": ["AAA", "BBB"]},
    }
    base.update(layers)
    return GeographySpec.model_validate(base)


def _geodata(folder: Path, plane: GeoPlane, land_km: Polygon, rivers: list[tuple[str, LineString]],
             split_x_km: float) -> None:
    """Write synthetic extracts: land, two countries split at x, rivers; all given in km."""
    def to_lonlat(geom: Polygon | LineString) -> Polygon | LineString:
        return shapely.transform(geom, lambda xy: np.array([plane.lonlat(x, y) for x, y in xy]))

    minx, miny, maxx, maxy = land_km.bounds
    write_features(folder / "land.geojson", [({}, to_lonlat(land_km))], "test")
    write_features(folder / "countries.geojson", [
        ({"iso3": "AAA"}, to_lonlat(box(minx, miny, split_x_km, maxy))),
        ({"iso3": "BBB"}, to_lonlat(box(split_x_km, miny, maxx, maxy)))], "test")
    write_features(folder / "rivers.geojson",
                   [({"name": name, "feature": "river"}, to_lonlat(line)) for name, line in rivers], "test")
    write_features(folder / "places.geojson", [], "test")


def test_river_hexsides_follow_the_odd_crossing_rule(tmp_path: Path) -> None:
    """A river crossing the centre-to-centre segment once marks the side; twice does not."""
    grid = Grid(GridSpec(orientation="flat", columns=6, rows=6))
    spec = _spec()
    plane = GeoPlane(spec, grid)
    a, b, c = grid.hex_of("0202"), grid.hex_of("0203"), grid.hex_of("0402")
    (ax, ay), (bx, by) = plane.layout.centre(a), plane.layout.centre(b)
    mid_y = (ay + by) / 2
    straight = LineString([(ax - 5, mid_y), (ax + 5, mid_y)])  # crosses 0202-0203 once
    cx, cy = plane.layout.centre(c)
    # Crosses the segment 0402-0403 twice (in and back out): a meander, not a river hexside.
    meander = LineString([(cx - 4, cy + 5), (cx + 4, cy + 6), (cx + 4, cy + 10), (cx - 4, cy + 11)])
    segment = LineString([(cx, cy), plane.layout.centre(grid.hex_of("0403"))])
    assert len(segment.intersection(meander).geoms) == 2  # the meander does cross, twice
    land = box(-100, -100, 200, 200)
    _geodata(tmp_path, plane, land, [("Straight", straight), ("Meander", meander)], split_x_km=1000)
    draft = derive(spec, grid, tmp_path, "test")
    rivers = {side for side, feats in draft.sides.items() if "river" in feats}
    assert Hexside.between(a, b) in rivers
    assert Hexside.between(c, grid.hex_of("0403")) not in rivers
    assert len(rivers) == 1


def test_a_river_joins_the_one_it_flows_into(tmp_path: Path) -> None:
    """A tributary ending on a bend of its river cuts the land with it: the hex holding the junction
    is walled off from the hex across the tributary, even though the segment between their centres
    goes round the junction, crossing the main river twice and the tributary never (the Meurthe
    at Frouard)."""
    grid = Grid(GridSpec(orientation="flat", columns=8, rows=8))
    spec = _spec()
    plane = GeoPlane(spec, grid)
    a, b = grid.hex_of("0405"), grid.hex_of("0404")  # b is a's northern neighbour (y grows down)
    (ax, ay), (_, by) = plane.layout.centre(a), plane.layout.centre(b)
    d = ay - by
    y1 = ay - 0.2 * d
    bend = (ax + 6, y1)
    # The main river comes from the west just north of a's centre, bends north-west at the junction
    # and crosses the segment a-b again further north.
    main = LineString([(ax - 60, y1), bend, (ax - 6, y1 - 0.8 * d), (ax - 40, y1 - 3 * d)])
    tributary = LineString([(ax + 60, y1 + 3), bend])
    segment = LineString([(ax, ay), (ax, by)])
    assert len(segment.intersection(main).geoms) == 2 and not segment.intersects(tributary)
    _geodata(tmp_path, plane, box(-200, -200, 300, 300), [("Main", main), ("Tributary", tributary)],
             split_x_km=1000)
    draft = derive(spec, grid, tmp_path, "test")
    assert draft.sides[Hexside.between(a, b)]["river"] == ("reconstructed:geography", "Tributary")
    assert "hexsides joining a river to the one it flows into: 1" in draft.report


def test_sea_hexes_and_west_wall(tmp_path: Path) -> None:
    """Hexes with too little land are sea; West Wall hexes face the other country."""
    grid = Grid(GridSpec(orientation="flat", columns=8, rows=4))
    spec = _spec(west_wall={"country": "BBB", "min_lat": -90, "max_lat": 90, "source": "7.5"})
    plane = GeoPlane(spec, grid)
    # Land covers columns 1-6; columns 7-8 are sea. Country BBB from x = 45 km (column 4 on).
    land = box(-20, -20, 85, 100)
    _geodata(tmp_path, plane, land, [], split_x_km=38.0)
    draft = derive(spec, grid, tmp_path, "test")
    for h in grid.hexes:
        column, _ = grid.numbers_of(h)
        assert (draft.terrain[h] == ["sea"]) == (column >= 7), grid.label_of(h)
    wall = {grid.label_of(h) for h in grid.hexes if "fortification" in draft.terrain[h]}
    assert wall and all(label.startswith("04") for label in wall)
    for side, feats in draft.sides.items():
        if "fortified" in feats:
            assert {grid.numbers_of(side.a)[0], grid.numbers_of(side.b)[0]} == {3, 4}


def test_west_wall_facing_an_unknown_region_is_a_clear_error(tmp_path: Path) -> None:
    """`facing` names a region of geography.toml; a misspelt one is refused with its name."""
    grid = Grid(GridSpec(orientation="flat", columns=4, rows=4))
    spec = _spec(west_wall={"country": "BBB", "min_lat": -90, "max_lat": 90, "facing": "west_of_rhin",
                            "source": "7.5"})
    _geodata(tmp_path, GeoPlane(spec, grid), box(-20, -20, 85, 100), [], split_x_km=38.0)
    with pytest.raises(DataError, match="west_wall: facing 'west_of_rhin' is not a region"):
        derive(spec, grid, tmp_path, "test")


@pytest.mark.slow
def test_committed_map_is_what_the_tool_derives(tmp_path: Path) -> None:
    """Deriving again from the committed extracts reproduces the committed map files."""
    root = data_root()
    for game in ("onslaught", "omaha"):
        folder = root / "maps" / game
        if not (folder / "geography.toml").exists():
            continue
        from wargame.models import MapManifest

        spec = load_toml(folder / "geography.toml", GeographySpec)
        grid = Grid(load_toml(folder / "map.toml", MapManifest).grid)
        out = tmp_path / game
        out.mkdir()
        write_draft(derive(spec, grid, folder / "geodata", game), grid, out, game)
        for name in ("hexes.csv", "hexsides.csv", "places.csv", "areas.toml"):
            assert (out / name).read_text(encoding="utf-8") == (folder / name).read_text(encoding="utf-8"), name
