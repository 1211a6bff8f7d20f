"""The game's hex grid on the projected plane: hexes <-> lon/lat through one km layout."""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from shapely.geometry import Polygon

from builder.geography.config import GeographySpec
from builder.geography.projection import LambertConformalConic
from wargame.grid import Grid
from wargame.hexes import Hex
from wargame.layout import SQRT3, Layout
from wargame.records import frozen


@frozen
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
        """Hexes in the turned km frame (x right, y down on the map image)."""
        east, north = self.spec.grid.first_hex_km
        return Layout(self.grid.spec.orientation, self.spec.grid.hex_across_km / SQRT3,
                      self._turn(east, -north))

    @cached_property
    def _rotation(self) -> tuple[float, float]:
        angle = math.radians(self.spec.grid.rotation_deg)
        return math.cos(angle), math.sin(angle)

    def _turn(self, x: float, y: float) -> tuple[float, float]:
        """Turn a (east, south) km point clockwise on the image by rotation_deg."""
        c, s = self._rotation
        return x * c - y * s, x * s + y * c

    def _plain_km(self, lonlat: NDArray[np.float64]) -> NDArray[np.float64]:
        """Projected and turned km of (N, 2) lon/lat rows, before any warp."""
        xy = self.projection.forward_array(lonlat)
        c, s = self._rotation
        x, y = xy[:, 0], -xy[:, 1]
        return np.column_stack((x * c - y * s, x * s + y * c))

    @cached_property
    def _warp(self) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
        """Anchor positions and the Gaussian weights that carry each onto its hexes."""
        radius = self.spec.grid.warp_radius_km
        if radius <= 0 or not self.spec.anchor:
            return None
        places = self._plain_km(np.array([a.lonlat for a in self.spec.anchor], dtype=float))
        targets = np.array([np.mean([self.layout.centre(self.grid.hex_of(label)) for label in a.hexes], axis=0)
                            for a in self.spec.anchor])
        kernel = np.exp(-(np.linalg.norm(places[:, None, :] - places[None, :, :], axis=2) / radius) ** 2)
        weights = np.linalg.solve(kernel, targets - places)
        return places, weights

    def _shift(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        warp = self._warp
        if warp is None:
            return np.zeros_like(points)
        places, weights = warp
        distance = np.linalg.norm(points[:, None, :] - places[None, :, :], axis=2)
        # np.asarray with a dtype is typed NDArray[float64] by every numpy's stubs (the bare `@` is Any in some).
        return np.asarray(np.exp(-(distance / self.spec.grid.warp_radius_km) ** 2) @ weights, dtype=np.float64)

    def km_array(self, lonlat: NDArray[np.float64]) -> NDArray[np.float64]:
        """Layout coordinates (km, image axes) of (N, 2) lon/lat rows."""
        plain = self._plain_km(np.asarray(lonlat, dtype=float).reshape(-1, 2))
        return plain + self._shift(plain)

    def km(self, lon: float, lat: float) -> tuple[float, float]:
        """Layout coordinates (km, image axes) of a lon/lat."""
        x, y = self.km_array(np.array([[lon, lat]]))[0]
        return float(x), float(y)

    def lonlat(self, x: float, y: float) -> tuple[float, float]:
        """Lon/lat of layout coordinates (the warp undone by fixed-point iteration)."""
        target = np.array([[x, y]], dtype=float)
        plain = target.copy()
        for _ in range(50):
            moved = plain + self._shift(plain)
            error = target - moved
            plain = plain + error
            if float(np.abs(error).max()) < 1e-9:
                break
        c, s = self._rotation
        px, py = float(plain[0, 0]), float(plain[0, 1])
        east, south = px * c + py * s, -px * s + py * c
        return self.projection.inverse(east, -south)

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
