"""Fit a map's grid to the places its rulebook puts in given hexes (least-squares similarity).

The unknowns are the hex size, the turn of the map and where the grid lies; each anchor ties
a lon/lat to the centre (or centroid) of one or more labelled hexes.
"""

from __future__ import annotations

import cmath
import math
import re
from pathlib import Path

from builder.geography.config import GeographySpec
from builder.geography.plane import GeoPlane
from wargame.errors import DataError
from wargame.files import write_atomically
from wargame.grid import Grid
from wargame.layout import SQRT3, Layout
from wargame.records import frozen


@frozen
class Residual:
    """How far an anchor's place lands from its hexes once the grid is fitted."""

    name: str
    hexes: tuple[str, ...]
    fitted: bool
    hexes_off: float
    km_off: float
    falls_in: str | None


@frozen
class Fit:
    """The fitted placement and every anchor's residual."""

    hex_across_km: float
    rotation_deg: float
    first_hex_km: tuple[float, float]
    residuals: list[Residual]


def fit_grid(spec: GeographySpec, grid: Grid) -> Fit:
    """Least-squares similarity from projected places to their hexes' centres."""
    plane = GeoPlane(spec, grid)
    unit = Layout(grid.spec.orientation, 1.0, (0.0, 0.0))
    points: list[tuple[complex, complex]] = []
    for anchor in spec.anchor:
        x, y = plane.projection.forward(*anchor.lonlat)
        z = complex(x, -y)
        centres = [unit.centre(grid.hex_of(label)) for label in anchor.hexes]
        c = complex(sum(p[0] for p in centres) / len(centres), sum(p[1] for p in centres) / len(centres))
        points.append((z, c))
    fitting = [p for p, a in zip(points, spec.anchor) if a.fit]
    if len(fitting) < 2:
        raise DataError("fitting the grid needs at least two anchors with fit = true")
    z_mean = sum(z for z, _ in fitting) / len(fitting)
    c_mean = sum(c for _, c in fitting) / len(fitting)
    num = sum((z - z_mean).conjugate() * (c - c_mean) for z, c in fitting)
    den = sum(abs(z - z_mean) ** 2 for z, _ in fitting)
    a = num / den
    b = c_mean - a * z_mean
    size_km = 1 / abs(a)
    turn = cmath.phase(a)
    origin_w = -b * size_km
    first = origin_w * cmath.exp(-1j * turn)
    fitted = GeographySpec.model_validate({
        **spec.model_dump(),
        "grid": {"hex_across_km": size_km * SQRT3, "rotation_deg": math.degrees(turn),
                 "first_hex_km": (first.real, -first.imag), "warp_radius_km": spec.grid.warp_radius_km},
    })
    fitted_plane = GeoPlane(fitted, grid)
    residuals = []
    for (z, c), anchor in zip(points, spec.anchor):
        off = abs(a * z + b - c)
        residuals.append(Residual(anchor.name, anchor.hexes, anchor.fit, off / SQRT3, off * size_km,
                                  fitted_plane.label_at(*anchor.lonlat)))
    return Fit(size_km * SQRT3, math.degrees(turn), (first.real, -first.imag), residuals)


def write_fit(path: Path, fit: Fit) -> None:
    """Put the fitted placement into geography.toml's [grid] table, leaving the rest as it is."""
    text = path.read_text(encoding="utf-8")
    values = {
        "hex_across_km": f"{fit.hex_across_km:.6f}",
        "rotation_deg": f"{fit.rotation_deg:.4f}",
        "first_hex_km": f"[{fit.first_hex_km[0]:.4f}, {fit.first_hex_km[1]:.4f}]",
    }
    section = re.search(r"^\[grid\]\s*$(.*?)(?=^\[)", text, re.M | re.S)
    if section is None:
        raise DataError("no [grid] table followed by another table", None)
    body = section.group(1)
    for key, value in values.items():
        if re.search(rf"^{key}\s*=.*$", body, re.M):
            body = re.sub(rf"^{key}\s*=.*$", f"{key} = {value}", body, flags=re.M)
        else:
            body = body.rstrip("\n") + f"\n{key} = {value}\n\n"
    write_atomically(path, text[:section.start(1)] + body + text[section.end(1):])
