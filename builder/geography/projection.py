"""Lambert conformal conic projection (spherical) between lon/lat degrees and map kilometres."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from wargame.records import frozen

EARTH_RADIUS_KM = 6371.0088


@frozen
class LambertConformalConic:
    """A conformal conic projection with two standard parallels; y grows northward."""

    standard_parallels: tuple[float, float]
    central_meridian: float
    origin_latitude: float

    @property
    def _constants(self) -> tuple[float, float, float]:
        p1, p2 = (math.radians(p) for p in self.standard_parallels)
        p0 = math.radians(self.origin_latitude)
        if abs(p1 - p2) < 1e-12:
            n = math.sin(p1)
        else:
            n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
                math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        rho0 = EARTH_RADIUS_KM * f / math.tan(math.pi / 4 + p0 / 2) ** n
        return n, f, rho0

    def forward(self, lon: float, lat: float) -> tuple[float, float]:
        """Kilometres east and north of the origin for a lon/lat in degrees."""
        n, f, rho0 = self._constants
        rho = EARTH_RADIUS_KM * f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
        theta = n * math.radians(lon - self.central_meridian)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """Lon/lat in degrees of a point in kilometres east and north of the origin."""
        n, f, rho0 = self._constants
        rho = math.copysign(math.hypot(x, rho0 - y), n)
        theta = math.atan2(x, rho0 - y) if n > 0 else math.atan2(-x, -(rho0 - y))
        lat = 2 * math.atan((EARTH_RADIUS_KM * f / rho) ** (1 / n)) - math.pi / 2
        return self.central_meridian + math.degrees(theta / n), math.degrees(lat)

    def forward_array(self, lonlat: NDArray[np.float64]) -> NDArray[np.float64]:
        """`forward` for an (N, 2) array of lon/lat rows."""
        n, f, rho0 = self._constants
        lon, lat = np.radians(lonlat[:, 0]), np.radians(lonlat[:, 1])
        rho = EARTH_RADIUS_KM * f / np.tan(np.pi / 4 + lat / 2) ** n
        theta = n * (lon - math.radians(self.central_meridian))
        return np.column_stack((rho * np.sin(theta), rho0 - rho * np.cos(theta)))
