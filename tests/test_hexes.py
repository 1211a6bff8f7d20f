"""Properties and golden values of axial hex math: neighbours, distance, rings, lines, hexsides."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from wargame.hexes import DIRECTIONS, Hex, Hexside, cube_round

COORD = st.integers(min_value=-1000, max_value=1000)
HEXES = st.builds(Hex, COORD, COORD)
DIRECTION = st.integers(min_value=0, max_value=5)
RADIUS = st.integers(min_value=0, max_value=12)

FAST = settings(max_examples=200, deadline=None)


# -- golden values ------------------------------------------------------------------------
def test_golden_distances() -> None:
    """Named distances, including ones that need the third cube coordinate."""
    assert Hex(0, 0).distance(Hex(3, -1)) == 3
    assert Hex(0, 0).distance(Hex(1, 1)) == 2
    assert Hex(0, 0).distance(Hex(2, -1)) == 2
    assert Hex(-2, 3).distance(Hex(4, -5)) == 8
    assert Hex(5, 5).distance(Hex(5, 5)) == 0


def test_golden_neighbours_and_directions() -> None:
    """Direction vectors are counter-clockwise from (1, 0), and s is the third cube coordinate."""
    assert DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert Hex(2, 3).neighbours() == (Hex(3, 3), Hex(3, 2), Hex(2, 2), Hex(1, 3), Hex(1, 4), Hex(2, 4))
    assert Hex(2, 3).neighbour(8) == Hex(2, 2)  # directions wrap modulo 6
    assert Hex(2, 3).s == -5
    assert Hex(0, 0).direction_to(Hex(1, 0)) == 0
    assert Hex(0, 0).direction_to(Hex(0, 1)) == 5


def test_golden_ring_and_line() -> None:
    """The first ring starts at direction 4 and walks counter-clockwise; lines pick fixed sides."""
    assert Hex(0, 0).ring(1) == [Hex(-1, 1), Hex(0, 1), Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0)]
    assert Hex(0, 0).ring(0) == [Hex(0, 0)]
    assert Hex(0, 0).line_to(Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    # The midpoint lies exactly on the hexside between (1, 0) and (1, -1); the nudge picks (1, 0).
    assert Hex(0, 0).line_to(Hex(2, -1)) == [Hex(0, 0), Hex(1, 0), Hex(2, -1)]
    assert Hex(2, -1).line_to(Hex(0, 0)) == [Hex(2, -1), Hex(1, 0), Hex(0, 0)]


def test_golden_cube_round() -> None:
    """Fractional coordinates round to the hex that contains them."""
    assert cube_round(0.1, 0.2) == Hex(0, 0)
    assert cube_round(0.9, -0.1) == Hex(1, 0)
    assert cube_round(-0.6, 0.55) == Hex(-1, 1)
    assert cube_round(2.0, -3.0) == Hex(2, -3)


def test_golden_hexside() -> None:
    """The canonical pair is ordered by (q, r)."""
    side = Hexside.between(Hex(1, 0), Hex(0, 0))
    assert side == Hexside(Hex(0, 0), Hex(1, 0))
    assert side.hexes() == (Hex(0, 0), Hex(1, 0))
    assert Hex(0, 0).sides()[0] == side
    assert Hex(1, 0).side(3) == side


def test_errors() -> None:
    """Non-adjacent hexes and negative radii are refused with ValueError."""
    with pytest.raises(ValueError, match="not adjacent"):
        Hex(0, 0).direction_to(Hex(2, 0))
    with pytest.raises(ValueError, match="not adjacent"):
        Hex(0, 0).direction_to(Hex(0, 0))
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(Hex(0, 0), Hex(1, 1))
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(Hex(3, 3), Hex(3, 3))
    with pytest.raises(ValueError, match="not on hexside"):
        Hexside.between(Hex(0, 0), Hex(1, 0)).other(Hex(5, 5))
    with pytest.raises(ValueError, match="radius"):
        Hex(0, 0).ring(-1)


# -- neighbours ---------------------------------------------------------------------------
@FAST
@given(HEXES, HEXES)
def test_neighbour_symmetry(a: Hex, b: Hex) -> None:
    """b is a neighbour of a exactly when a is a neighbour of b, and when they are 1 apart."""
    assert (b in a.neighbours()) == (a in b.neighbours()) == a.is_adjacent(b) == (a.distance(b) == 1)


@FAST
@given(HEXES, DIRECTION)
def test_neighbour_direction_round_trip(a: Hex, d: int) -> None:
    """The neighbour in direction d lies in direction d, and a lies in direction d+3 from it."""
    b = a.neighbour(d)
    assert b in a.neighbours()
    assert a in b.neighbours()
    assert a.direction_to(b) == d
    assert b.direction_to(a) == (d + 3) % 6
    assert a.neighbours()[d] == b


@FAST
@given(HEXES)
def test_six_distinct_neighbours(a: Hex) -> None:
    """Every hex has six distinct neighbours, all at distance 1."""
    ns = a.neighbours()
    assert len(set(ns)) == 6
    assert all(a.distance(n) == 1 for n in ns)
    # Written out, not generated from DIRECTIONS: still each direction's neighbour, in order, and a Hex.
    assert ns == tuple(a.neighbour(d) for d in range(6))
    assert all(type(n) is Hex for n in ns)


# -- distance -----------------------------------------------------------------------------
@FAST
@given(HEXES, HEXES, HEXES)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    """Identity, symmetry, non-negativity and the triangle inequality."""
    assert a.distance(a) == 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == b.distance(a) >= 0
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@FAST
@given(HEXES, HEXES)
def test_distance_is_max_of_cube_differences(a: Hex, b: Hex) -> None:
    """Axial distance equals the cube (Chebyshev) distance."""
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


# -- rings and spirals --------------------------------------------------------------------
@FAST
@given(HEXES, RADIUS)
def test_ring(centre: Hex, k: int) -> None:
    """A ring of radius k has 6k (or 1) distinct hexes, all k away, each adjacent to the next."""
    ring = centre.ring(k)
    assert len(ring) == (6 * k if k else 1)
    assert len(set(ring)) == len(ring)
    assert all(centre.distance(h) == k for h in ring)
    if k:
        assert all(ring[i].is_adjacent(ring[(i + 1) % len(ring)]) for i in range(len(ring)))


@FAST
@given(HEXES, RADIUS)
def test_spiral(centre: Hex, k: int) -> None:
    """A spiral of radius k holds exactly the 1+3k(k+1) hexes within k, innermost first."""
    spiral = list(centre.spiral(k))
    assert len(spiral) == 1 + 3 * k * (k + 1)
    assert len(set(spiral)) == len(spiral)
    assert spiral[0] == centre
    distances = [centre.distance(h) for h in spiral]
    assert distances == sorted(distances)
    assert max(distances) == k


def test_spiral_is_every_hex_within_radius() -> None:
    """The spiral equals a brute-force enumeration of the hexes within the radius."""
    centre = Hex(3, -7)
    for k in range(6):
        brute = {
            Hex(centre.q + dq, centre.r + dr)
            for dq in range(-k, k + 1)
            for dr in range(-k, k + 1)
            if centre.distance(Hex(centre.q + dq, centre.r + dr)) <= k
        }
        assert set(centre.spiral(k)) == brute


# -- lines --------------------------------------------------------------------------------
LINE_COORD = st.integers(min_value=-60, max_value=60)
LINE_HEXES = st.builds(Hex, LINE_COORD, LINE_COORD)


@FAST
@given(LINE_HEXES, LINE_HEXES)
def test_line(a: Hex, b: Hex) -> None:
    """A line has distance+1 hexes, runs from a to b, and steps to an adjacent hex each time."""
    line = a.line_to(b)
    n = a.distance(b)
    assert len(line) == n + 1
    assert line[0] == a
    assert line[-1] == b
    assert all(line[i].is_adjacent(line[i + 1]) for i in range(n))
    assert all(a.distance(h) == i for i, h in enumerate(line))


@FAST
@given(LINE_HEXES, LINE_HEXES)
def test_line_is_reversible(a: Hex, b: Hex) -> None:
    """The fixed nudge makes a line and its reverse pick the same hexes (same side every time)."""
    assert a.line_to(b) == list(reversed(b.line_to(a)))


@FAST
@given(HEXES, st.floats(min_value=-0.49, max_value=0.49), st.floats(min_value=-0.49, max_value=0.49))
def test_cube_round_inside_inner_circle(h: Hex, fq: float, fr: float) -> None:
    """Any fractional point within the hex's inner circle rounds to that hex."""
    # Inner radius in axial units is 1/2; this bounds the cube-coordinate offsets well within it.
    fs = -fq - fr
    assume(max(abs(fq), abs(fr), abs(fs)) < 0.49)
    assert cube_round(h.q + fq, h.r + fr) == h


# -- hexsides -----------------------------------------------------------------------------
@FAST
@given(HEXES, DIRECTION)
def test_hexside_is_canonical(a: Hex, d: int) -> None:
    """Both hexes name the same hexside, in either order and from either side."""
    b = a.neighbour(d)
    side = Hexside.between(a, b)
    assert Hexside.between(b, a) == side
    assert a.side(d) == side
    assert b.side((d + 3) % 6) == side
    assert side.a < side.b
    assert set(side.hexes()) == {a, b}
    assert side.other(a) == b
    assert side.other(b) == a
    assert side in a.sides() and side in b.sides()


@FAST
@given(HEXES)
def test_six_distinct_sides(a: Hex) -> None:
    """A hex has six distinct sides, one per direction, each shared with that neighbour."""
    sides = a.sides()
    assert len(set(sides)) == 6
    assert [s.other(a) for s in sides] == list(a.neighbours())
