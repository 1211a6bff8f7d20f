"""The game's hex grid on the projected plane: hexes <-> lon/lat through one km layout."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import Polygon

from builder.geography.config import GeographySpec
from builder.geography.projection import LambertConformalConic
from wargame.grid import Grid
from wargame.hexes import Hex
from wargame.layout import SQRT3, Layout


@dataclass(frozen=True)
class GeoPlane:
    """A projection plus the grid's km layout (screen y = minus northing)."""

    spec: GeographySpec
    grid: Grid

    @cached_property
    def projection(self) -> LambertConformalConic:
        """The map projection."""
        p = self.spec.projection
        return LambertConformalConic(p.standard_parallels, p.central_meridian, p.origin_latitude)

    @cached_property
    def layout(self) -> Layout:
        """Hexes in km, east = x, south = y; Hex(0, 0) is the top-left hex."""
        east, north = self.spec.grid.first_hex_km
        return Layout(self.grid.spec.orientation, self.spec.grid.hex_across_km / SQRT3, (east, -north))

    def km(self, lon: float, lat: float) -> tuple[float, float]:
        """Layout coordinates (km east, km south) of a lon/lat."""
        x, y = self.projection.forward(lon, lat)
        return x, -y

    def lonlat(self, x: float, y: float) -> tuple[float, float]:
        """Lon/lat of layout coordinates."""
        return self.projection.inverse(x, -y)

    def hex_at(self, lon: float, lat: float) -> Hex:
        """The hex containing a lon/lat (on the map or not)."""
        return self.layout.pixel_to_hex(*self.km(lon, lat))

    def label_at(self, lon: float, lat: float) -> str | None:
        """The label of the map hex containing a lon/lat, or None off the map."""
        h = self.hex_at(lon, lat)
        return self.grid.label_of(h) if h in self.grid else None

    def hex_polygon(self, h: Hex) -> Polygon:
        """A hex as a km polygon."""
        return self.layout.polygon(h)

    def centre_lonlat(self, h: Hex) -> tuple[float, float]:
        """Lon/lat of a hex centre."""
        return self.lonlat(*self.layout.centre(h))
