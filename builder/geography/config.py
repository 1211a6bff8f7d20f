"""`maps/GAME/geography.toml`: how a hex map is laid over real geography, and the layers
that geographic data lack (forests, bocage, rough, missing rivers, fortifications...)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from wargame.models import Ident, Source

LonLat = tuple[float, float]


class Model(BaseModel):
    """Base of the geography's models (authoring only, never on a check's path: pydantic's models): frozen, unknown
    keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ProjectionSpec(Model):
    """A Lambert conformal conic projection; kilometres east/north of the origin."""

    kind: Literal["lambert_conformal_conic"]
    standard_parallels: tuple[float, float]
    central_meridian: float
    origin_latitude: float


class GridPlacement(Model):
    """Where the hex grid lies on the projected plane."""

    hex_across_km: float = Field(gt=0)
    first_hex_km: tuple[float, float]
    """Projected centre (east, north) of the hex at visual column 0, row 0 (the top-left one)."""
    rotation_deg: float = 0.0
    """How far the map image is turned clockwise from north-up (90: north points right)."""
    warp_radius_km: float = Field(0.0, ge=0)
    """Above 0: bend the plane smoothly (Gaussian radial basis of this radius) so that every
    anchor's place lands exactly on its hexes; 0 keeps the plain fitted placement."""


class Anchor(Model):
    """A place the rulebook puts in given hexes: the grid is fitted to these (least squares)."""

    name: str
    hexes: tuple[str, ...] = Field(min_length=1)
    lonlat: tuple[float, float]
    fit: bool = True
    """False: leave it out of the least-squares fit (it still bends the plane when warping)."""
    source: Source
    note: str = ""


class ExtractSpec(Model):
    """What the extract step reads from the large data packages."""

    margin_deg: float = Field(1.5, ge=0)
    simplify_deg: float = Field(0.003, ge=0)
    min_population: int = Field(20000, ge=0)
    countries: tuple[str, ...]
    """ISO 3166 alpha-3 codes of the countries to keep (NE admin 0)."""


class TerrainIds(Model):
    """Which terrain ids of the game's terrain chart the derivation writes for what."""

    land: Ident = "clear"
    sea: Ident = "sea"
    neutral: Ident = "neutral"
    city: Ident = "city"
    fortification: Ident = "fortification"
    sea_side: Ident = "sea_side"
    fortified: Ident = "fortified"
    river: Ident = "river"
    major_waterway: Ident = "major_waterway"
    bridge: Ident = "bridge"
    road: Ident = "road"
    trail: Ident = "trail"


class DeriveSpec(Model):
    """Thresholds and vocabulary of the derivation."""

    land_min_fraction: float = Field(0.3, gt=0, lt=1)
    sea_side_min_fraction: float = Field(0.5, gt=0, lt=1)
    terrain_min_fraction: float = Field(0.4, gt=0, le=1)
    neutral_countries: tuple[str, ...] = ()
    """ISO alpha-3 codes of countries whose land is outside play."""
    hex_at_place: bool = False
    """True: a hex holding a place found by its position is tested at the place, not at its
    centre, against rivers, lines and borders (a city's bank, a town's side of a frontier)."""
    mark_sea_sides: bool = True
    """False: do not mark water between two land hexes (the game has no such hexside)."""
    bridged: tuple[Ident, ...] = ()
    """Water features a road or trail crosses on a bridge (and two city hexes, 10.1 of F&M)."""
    terrain_ids: TerrainIds = TerrainIds()


class TracedRiver(Model):
    """A river traced along the GSHHG network between hand-written anchor points."""

    name: str
    feature: Ident
    anchors: tuple[LonLat, ...] = Field(min_length=2)
    max_anchor_km: float = Field(8.0, gt=0)
    source: Source


class AuthoredLine(Model):
    """A river, waterway, road or trail the data lack, written as a lon/lat polyline.

    `crossing`: the feature lies between two hexes when it crosses the segment joining their
    centres an odd number of times (rivers). `route`: the feature joins the hexes it passes
    through, one after another (roads and trails run from hex to hex across hexsides).
    """

    name: str
    feature: Ident
    points: tuple[LonLat, ...] = Field(min_length=2)
    rasterise: Literal["crossing", "route"] = "crossing"
    source: Source
    note: str = ""


class TerrainArea(Model):
    """A hand-authored area of hex terrain (forest, bocage, rough...), a lon/lat polygon."""

    name: str
    terrain: Ident
    polygon: tuple[LonLat, ...] = Field(min_length=3)
    source: Source
    note: str = ""


class WaterArea(Model):
    """Water of the game's year where today's coastline shows land (polders, dammed estuaries)."""

    name: str
    polygon: tuple[LonLat, ...] = Field(min_length=3)
    source: Source
    note: str = ""


class PlaceSpec(Model):
    """A named place to put on the map, found in GeoNames by name and country or given."""

    name: str
    kind: Literal["city", "town", "village", "port", "landmark", "beach", "region"]
    lookup: str | None = None
    country: str | None = None
    lonlat: LonLat | None = None
    hexes: tuple[str, ...] = ()
    """The hexes the rulebook puts it in; they win over its position."""
    terrain: Ident | None = None
    """Hex terrain the place gives its hexes (e.g. city, town)."""
    source: Source
    note: str = ""


class PortSpec(Model):
    """A port: its supply value (None: a source worth no points) and whether it is fortified."""

    name: str
    supply: int | None = Field(None, ge=0)
    fortified: bool = False
    source: Source
    note: str = ""


class HexSetSpec(Model):
    """A named set of hexes chosen by lon/lat points, a polygon or a stretch of a map edge."""

    id: Ident
    name: str
    kind: Literal["landing", "beach", "port_area", "entry", "edge", "region", "victory", "setup", "city"]
    hexes: tuple[str, ...] = ()
    points: tuple[LonLat, ...] = ()
    polygon: tuple[LonLat, ...] = ()
    edge: Literal["top", "bottom", "left", "right"] | None = None
    """An edge of the map image (for a map turned from north-up, not a compass point)."""
    lon_range: tuple[float, float] | None = None
    members: tuple[Ident, ...] = ()
    value: int | None = None
    side: str | None = None
    source: Source
    note: str = ""


class LineSpec(Model):
    """A named line: a lon/lat polyline rasterised to hexsides, hexes the rulebook lists, or the
    hexsides of a traced or authored river (`river`, its name), so a rule can name part of a feature."""

    id: Ident
    name: str
    kind: Literal["victory", "boundary", "river", "front", "other"]
    points: tuple[LonLat, ...] = ()
    hexes: tuple[str, ...] = ()
    river: str | None = None
    source: Source
    note: str = ""


class WestWallSpec(Model):
    """Fortification hexes along a country's border between two latitudes."""

    country: str
    min_lat: float
    max_lat: float
    facing: Ident | None = None
    """Id of a region: a hex is fortified only toward neighbours inside it (the West Wall faced
    the land west of the Rhine, never the frontier north of it)."""
    source: Source
    note: str = ""


class CountryArea(Model):
    """An area of the hexes mostly inside one country."""

    id: Ident
    name: str
    iso3: str
    source: Source
    note: str = ""


class RegionSpec(Model):
    """The land hexes reached from a seed without crossing the named rivers or lines."""

    id: Ident
    name: str
    kind: Literal["region", "victory"]
    seed_place: str | None = None
    seed_edge: Literal["top", "bottom", "left", "right"] | None = None
    bounded_by: tuple[str, ...] = Field(min_length=1)
    """Names of traced or authored rivers, or ids of lines, whose hexsides are walls."""
    source: Source
    note: str = ""


class HexOverride(Model):
    """A hand correction of one hex's derived terrain."""

    hex: str
    terrain: tuple[Ident, ...]
    source: Source
    note: str


class GeographySpec(Model):
    """The whole of `geography.toml`."""

    schema_version: Literal[1]
    projection: ProjectionSpec
    grid: GridPlacement
    extract: ExtractSpec
    derive: DeriveSpec = DeriveSpec()
    anchor: list[Anchor] = []
    traced_river: list[TracedRiver] = []
    authored_line: list[AuthoredLine] = []
    terrain_area: list[TerrainArea] = []
    water_area: list[WaterArea] = []
    place: list[PlaceSpec] = []
    port: list[PortSpec] = []
    hex_set: list[HexSetSpec] = []
    line: list[LineSpec] = []
    west_wall: WestWallSpec | None = None
    country_area: list[CountryArea] = []
    region: list[RegionSpec] = []
    override: list[HexOverride] = []
