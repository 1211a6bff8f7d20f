"""Shapes moved inward without shapely (and numpy under it, about 0.1 s of a picture's process to import): a small
polygon's mitred inset worked out directly, and the outlines of the bundled games' areas kept as computed once.

Every shortcut here gives shapely's own answer (tests/test_picture_shapes.py holds them equal); where it cannot be
sure to, it answers None and the caller asks shapely.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

Point = tuple[float, float]
Ring = list[Point]

KEPT_RINGS = Path(__file__).resolve().parent / "kept_rings.json"
"""Outlines of unions of hexes moved inward, as shapely draws them (their first point and direction are shapely's own,
and a ring's dots and caps start there), keyed by `ring_key`: the bundled games' areas at their pictures' scale.
Written by `python -m builder.render.keep_rings`."""

MITRE_LIMIT = 5.0
"""shapely's (GEOS's) default mitre limit: a join longer than this many times the inset is bevelled there."""


def _area2(points: Sequence[Point]) -> float:
    """Twice the signed area of a polygon (positive when its points run clockwise on screen, y down)."""
    return sum(points[k - 1][0] * p[1] - p[0] * points[k - 1][1] for k, p in enumerate(points))


def mitre_inset(points: Sequence[Point], inset: float) -> Ring | None:
    """A simple polygon's outline moved `inset` pixels inward with mitred corners, as shapely's
    `Polygon(points).buffer(-inset, join_style="mitre")` outlines it (the same corners, to rounding; its first point
    and direction may differ, which a filled polygon does not show); None when that is not sure: a corner with no
    turn, an edge the inset reverses or a mitre past the limit, where shapely's answer has other corners."""
    ring = list(points)
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    n = len(ring)
    if n < 3 or inset <= 0:
        return None
    area2 = _area2(ring)
    if area2 == 0:
        return None
    side = 1.0 if area2 > 0 else -1.0  # which normal points inward
    lines: list[tuple[Point, Point]] = []  # each edge moved inward: a point on it and its direction
    for k in range(n):
        (ax, ay), (bx, by) = ring[k], ring[(k + 1) % n]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        if length == 0:
            return None
        nx, ny = -dy / length * side, dx / length * side
        lines.append(((ax + nx * inset, ay + ny * inset), (dx, dy)))
    corners: Ring = []
    for k in range(n):
        (px, py), (dx, dy) = lines[k - 1]
        (qx, qy), (ex, ey) = lines[k]
        cross = dx * ey - dy * ex
        if abs(cross) <= 1e-9 * (dx * dx + dy * dy) ** 0.5 * (ex * ex + ey * ey) ** 0.5:
            return None  # no turn: shapely leaves no corner there
        t = ((qx - px) * ey - (qy - py) * ex) / cross
        x, y = px + t * dx, py + t * dy
        vx, vy = ring[k]
        if ((x - vx) ** 2 + (y - vy) ** 2) ** 0.5 > MITRE_LIMIT * inset:
            return None
        corners.append((x, y))
    # Each edge keeps its direction (none is reversed or swallowed by the inset).
    for k in range(n):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % n]
        _, (dx, dy) = lines[k]
        if (bx - ax) * dx + (by - ay) * dy <= 0:
            return None
    if _area2(corners) * area2 <= 0:
        return None
    return corners


def ring_key(polygons: Sequence[Sequence[Point]], inset: float, s: float) -> str:
    """What an inset outline of a union of polygons depends on, hashed: every point's exact value, the inset and the
    hex size."""
    digest = hashlib.sha256(repr(([list(p) for p in polygons], inset, s)).encode())
    return digest.hexdigest()[:32]


@cache
def kept() -> dict[str, list[Ring]]:
    """The kept outlines (none when the file is missing or damaged: they are worked out again)."""
    import json  # here: a picture away from every outlined area reads no file

    try:
        raw = json.loads(KEPT_RINGS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {key: [[(x, y) for x, y in ring] for ring in rings] for key, rings in raw.items()}


def kept_rings(key: str) -> list[Ring] | None:
    """The outlines kept under a key, or None."""
    rings = kept().get(key)
    return None if rings is None else [list(ring) for ring in rings]

