"""Shapes moved inward without shapely (and numpy under it, about 0.1 s of a picture's process to import): a small
polygon's mitred inset worked out directly, and the outlines of the bundled games' areas kept as computed once.

Every shortcut here gives shapely's own answer (tests/test_picture_shapes.py holds them equal); where it cannot be
sure to, it answers None and the caller asks shapely.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

Point = tuple[float, float]
Ring = list[Point]

KEPT_RINGS = Path(__file__).resolve().parent / "kept_rings.json"
"""Outlines of unions of hexes moved inward, as shapely draws them (their first point and direction are shapely's own,
and a ring's dots and caps start there), keyed by `ring_key`: the bundled games' areas at their pictures' scale.
Written by `python -m builder.render.keep_rings`."""

MITRE_LIMIT = 4.0
"""How far (in insets) a corner may lie from a reflex vertex before the answer is left to shapely: GEOS bevels a join
longer than 5 insets (its default mitre limit); 4 keeps clear of the cases near it."""
SLIVER_LIMIT = 50.0
"""The same for a convex vertex (GEOS sets no limit there): a sharper tip is left to shapely too."""


def _area2(points: Sequence[Point]) -> float:
    """Twice the signed area of a polygon (positive when its points run clockwise on screen, y down)."""
    return sum(points[k - 1][0] * p[1] - p[0] * points[k - 1][1] for k, p in enumerate(points))


def mitre_inset(points: Sequence[Point], inset: float) -> Ring | None:
    """A simple polygon's outline moved `inset` pixels inward with mitred corners, as shapely's
    `Polygon(points).buffer(-inset, join_style="mitre")` outlines it when every edge survives: each corner where its
    two edges' inward lines cross, the ring running the way GEOS runs a shell (Pillow's fill can differ with the
    direction, never with the start), from the first vertex's corner, not closed. None when that is not sure (an
    edge vanishes or turns back, a corner too sharp or too flat), for shapely to work out."""
    ring = list(points)
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    n = len(ring)
    if n < 3 or inset <= 0:
        return None
    area2 = _area2(ring)
    if area2 == 0:
        return None
    side = 1.0 if area2 > 0 else -1.0  # the inward side of an edge, whichever way the ring runs
    lines: list[tuple[float, float, float, float]] = []  # each edge's inward line: a point on it and its direction
    for k in range(n):
        (ax, ay), (bx, by) = ring[k], ring[(k + 1) % n]
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        if length == 0:
            return None
        nx, ny = -dy / length * side, dx / length * side
        lines.append((ax + nx * inset, ay + ny * inset, dx, dy))
    corners: Ring = []
    for k in range(n):
        px, py, ux, uy = lines[k - 1]
        qx, qy, vx, vy = lines[k]
        cross = ux * vy - uy * vx
        if abs(cross) < 1e-3 * math.hypot(ux, uy) * math.hypot(vx, vy):
            return None  # (nearly) straight on: GEOS may drop the vertex
        t = ((qx - px) * vy - (qy - py) * vx) / cross
        corner = (px + ux * t, py + uy * t)
        # The limit holds where the inset turns outward, at a reflex vertex (at a convex one its lines simply cross).
        convex = (cross > 0) == (area2 > 0)
        if math.dist(corner, ring[k]) > (SLIVER_LIMIT if convex else MITRE_LIMIT) * inset:
            return None
        corners.append(corner)
    for k in range(n):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % n]
        ex, ey = ring[(k + 1) % n][0] - ring[k][0], ring[(k + 1) % n][1] - ring[k][1]
        if (bx - ax) * ex + (by - ay) * ey <= 0:
            return None  # the edge vanished or turned back: the inset is not this ring
    # GEOS's shells run clockwise by shapely's reckoning.
    return [corners[0], *reversed(corners[1:])] if area2 > 0 else corners


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

