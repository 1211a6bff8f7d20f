"""Hex <-> pixel through a Layout: centres, corners, polygons, hexsides and layouts for a map."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.ops import unary_union

from wargame.grid import Grid, GridSpec, LabelFormat
from wargame.hexes import Hex, Hexside
from wargame.layout import FLAT, ORIENTATIONS, POINTY, SQRT3, Layout, vassal_grid

COORD = st.integers(min_value=-300, max_value=300)
HEXES = st.builds(Hex, COORD, COORD)
LAYOUTS = st.builds(
    Layout,
    st.sampled_from(["flat", "pointy"]),
    st.floats(min_value=1.0, max_value=200.0),
    st.tuples(st.floats(min_value=-5000.0, max_value=5000.0), st.floats(min_value=-5000.0, max_value=5000.0)),
)
UNIT = st.floats(min_value=0.0, max_value=1.0)

FAST = settings(max_examples=200, deadline=None)

SMALL_SPECS: dict[str, GridSpec] = {
    "flat-even": GridSpec(orientation="flat", columns=6, rows=5),
    "flat-odd-descending": GridSpec(
        orientation="flat", columns=5, rows=4, shifted="odd", column_numbers="descending", first_column=0,
    ),
    "pointy-even": GridSpec(orientation="pointy", columns=5, rows=6),
    "pointy-odd-descending": GridSpec(
        orientation="pointy", columns=4, rows=5, shifted="odd", row_numbers="descending",
        label=LabelFormat(separator="."),
    ),
    "onslaught": GridSpec(orientation="flat", columns=24, rows=30),
}


def near(a: tuple[float, float], b: tuple[float, float], tolerance: float) -> bool:
    """True if two points are within `tolerance` of each other."""
    return math.dist(a, b) <= tolerance


# -- golden values ------------------------------------------------------------------------
def test_golden_centres_and_corners() -> None:
    """Red Blob Games' formulas for a size-10 layout at the origin."""
    flat = Layout("flat", 10.0, (0.0, 0.0))
    assert flat.centre(Hex(1, 0)) == pytest.approx((15.0, 5 * SQRT3))
    assert flat.centre(Hex(0, 1)) == pytest.approx((0.0, 10 * SQRT3))
    assert flat.corners(Hex(0, 0))[0] == pytest.approx((10.0, 0.0))
    assert flat.corners(Hex(0, 0))[1] == pytest.approx((5.0, 5 * SQRT3))  # clockwise on a y-down screen
    pointy = Layout("pointy", 10.0, (100.0, 50.0))
    assert pointy.centre(Hex(1, 0)) == pytest.approx((100.0 + 10 * SQRT3, 50.0))
    assert pointy.centre(Hex(0, 1)) == pytest.approx((100.0 + 5 * SQRT3, 65.0))
    assert pointy.corners(Hex(0, 0))[0] == pytest.approx((100.0 + 5 * SQRT3, 55.0))
    assert flat.line_spacing_px == 15.0 and pointy.across_flats_px == pytest.approx(10 * SQRT3)
    assert flat.polygon(Hex(0, 0)).area == pytest.approx(1.5 * SQRT3 * 100.0)


def test_golden_onslaught_layout() -> None:
    """The Onslaught map at 20 px with a 10 px margin: origin and image size worked by hand."""
    grid = Grid(SMALL_SPECS["onslaught"])
    layout = Layout.for_grid(grid, 20.0, 10.0)
    # Column 1 is unshifted: its centre clears the margin by one size, the top by half a height.
    assert layout == Layout("flat", 20.0, (30.0, 28.0))
    # Width: 23 column steps of 30 px + size + margin; height: shifted column 24's bottom edge.
    assert layout.board_size(grid, 10.0) == (750, math.ceil(28 + 20 * SQRT3 * 30 + 10))


def test_golden_pixel_to_hex() -> None:
    """Named pixels of a flat size-10 layout."""
    layout = Layout("flat", 10.0, (0.0, 0.0))
    assert layout.pixel_to_hex(0.0, 0.0) == Hex(0, 0)
    assert layout.pixel_to_hex(9.0, 0.0) == Hex(0, 0)  # inside, near the east corner
    assert layout.pixel_to_hex(15.0, 8.0) == Hex(1, 0)
    assert layout.pixel_to_hex(0.0, -8.6) == Hex(0, 0)
    assert layout.pixel_to_hex(0.0, -8.7) == Hex(0, -1)  # beyond the north flat, 8.66 from the centre


# -- the orientation matrix ----------------------------------------------------------------
def test_orientations_are_red_blobs_matrices() -> None:
    """Flat and pointy are the two values of Red Blob's Orientation; each backward matrix inverts its forward one."""
    assert (FLAT.f0, FLAT.f1, FLAT.f2, FLAT.f3, FLAT.start_angle) == (1.5, 0.0, SQRT3 / 2, SQRT3, 0.0)
    assert (POINTY.f0, POINTY.f1, POINTY.f2, POINTY.f3, POINTY.start_angle) == (SQRT3, SQRT3 / 2, 0.0, 1.5, 0.5)
    assert ORIENTATIONS == {"flat": FLAT, "pointy": POINTY}
    for m in (FLAT, POINTY):
        product = [m.b0 * m.f0 + m.b1 * m.f2, m.b0 * m.f1 + m.b1 * m.f3,
                   m.b2 * m.f0 + m.b3 * m.f2, m.b2 * m.f1 + m.b3 * m.f3]
        assert product == pytest.approx([1.0, 0.0, 0.0, 1.0])
    assert Layout("pointy", 10.0, (0.0, 0.0)).matrix is POINTY


def _centre_before_the_matrix(layout: Layout, h: Hex) -> tuple[float, float]:
    """Layout.centre as it was written before the matrix (one branch per orientation)."""
    s = layout.size_px
    ox, oy = layout.origin
    if layout.orientation == "flat":
        return ox + 1.5 * s * h.q, oy + SQRT3 * s * (h.r + h.q / 2)
    return ox + SQRT3 * s * (h.q + h.r / 2), oy + 1.5 * s * h.r


def _corners_before_the_matrix(layout: Layout, h: Hex) -> list[tuple[float, float]]:
    """Layout.corners as it was written before the matrix."""
    cx, cy = _centre_before_the_matrix(layout, h)
    start = 0.0 if layout.orientation == "flat" else 30.0
    return [(cx + layout.size_px * math.cos(math.radians(start + 60.0 * k)),
             cy + layout.size_px * math.sin(math.radians(start + 60.0 * k))) for k in range(6)]


def _fractional_before_the_matrix(layout: Layout, x: float, y: float) -> tuple[float, float]:
    """Layout.fractional as it was written before the matrix."""
    s = layout.size_px
    px, py = x - layout.origin[0], y - layout.origin[1]
    if layout.orientation == "flat":
        return (2.0 / 3.0 * px) / s, (-1.0 / 3.0 * px + SQRT3 / 3.0 * py) / s
    return (SQRT3 / 3.0 * px - 1.0 / 3.0 * py) / s, (2.0 / 3.0 * py) / s


@FAST
@given(LAYOUTS, HEXES, st.floats(min_value=-2.0, max_value=2.0), st.floats(min_value=-2.0, max_value=2.0))
def test_the_matrix_gives_the_same_pixels_as_before(layout: Layout, h: Hex, du: float, dv: float) -> None:
    """Centres, corners and fractional coordinates from the matrix are the branchy formulas' to the last bit,
    so no board, module grid or VASSAL reading moved when the matrix came in."""
    assert layout.centre(h) == _centre_before_the_matrix(layout, h)
    assert layout.corners(h) == _corners_before_the_matrix(layout, h)
    x, y = layout.centre(h)
    x, y = x + du * layout.size_px, y + dv * layout.size_px
    assert layout.fractional(x, y) == _fractional_before_the_matrix(layout, x, y)


def test_the_matrix_gives_the_same_pixels_as_before_on_every_bundled_map() -> None:
    """The same, bit for bit, over every hex of the bundled maps laid out flat and pointy at the module's size."""
    from wargame.bundled import data_root
    from wargame.game import load_game

    for game_id in ("moscow", "omaha", "onslaught"):
        game = load_game(data_root(), game_id)
        for orientation in ("flat", "pointy"):
            grid = Grid(replace(game.map.grid, orientation=orientation))
            layout = Layout.for_grid(grid, game.map.layout.hex_size_px, game.map.layout.margin_px)
            for h in grid.hexes:
                assert layout.corners(h) == _corners_before_the_matrix(layout, h), (game_id, orientation, h)


def test_side_normals_are_perpendicular_to_the_sides() -> None:
    """Each side normal is at right angles to a pair of opposite sides of the hex, as the renderer's textures need."""
    for m in (FLAT, POINTY):
        corners = m.unit_corners
        sides = [(corners[(k + 1) % 6][0] - corners[k][0], corners[(k + 1) % 6][1] - corners[k][1]) for k in range(6)]
        for nx, ny in m.side_normals:
            assert math.hypot(nx, ny) == pytest.approx(1.0)
            assert sum(1 for sx, sy in sides if abs(sx * nx + sy * ny) < 1e-12) == 2


# -- pixel -> hex ---------------------------------------------------------------------------
@FAST
@given(LAYOUTS, HEXES)
def test_centre_maps_back(layout: Layout, h: Hex) -> None:
    """pixel_to_hex(centre(h)) == h."""
    assert layout.pixel_to_hex(*layout.centre(h)) == h


@FAST
@given(LAYOUTS, HEXES, st.floats(min_value=0.0, max_value=2 * math.pi))
def test_inner_circle_maps_to_hex(layout: Layout, h: Hex, angle: float) -> None:
    """A point 0.9 inner radius from the centre in any direction is in the hex."""
    cx, cy = layout.centre(h)
    reach = 0.9 * layout.across_flats_px / 2
    assert layout.pixel_to_hex(cx + reach * math.cos(angle), cy + reach * math.sin(angle)) == h


@FAST
@given(LAYOUTS, HEXES, st.integers(0, 5), UNIT, UNIT)
def test_points_inside_polygon_map_to_hex(layout: Layout, h: Hex, k: int, u: float, v: float) -> None:
    """Any point of the hex shrunk by 0.1% (corners included) maps to the hex."""
    if u + v > 1:
        u, v = 1 - u, 1 - v
    (cx, cy), corners = layout.centre(h), layout.corners(h)
    (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 6]
    # A point of the triangle centre-corner-corner, pulled 0.1% towards the centre.
    x = cx + 0.999 * (u * (ax - cx) + v * (bx - cx))
    y = cy + 0.999 * (u * (ay - cy) + v * (by - cy))
    assert layout.pixel_to_hex(x, y) == h


@FAST
@given(LAYOUTS, st.floats(-3000.0, 3000.0), st.floats(-3000.0, 3000.0))
def test_any_pixel_goes_to_nearest_centre(layout: Layout, x: float, y: float) -> None:
    """The hex found for any pixel has the nearest centre (hexes are the centres' Voronoi cells)."""
    h = layout.pixel_to_hex(x, y)
    d = math.dist((x, y), layout.centre(h))
    assert d <= layout.size_px * (1 + 1e-9)
    assert all(d <= math.dist((x, y), layout.centre(n)) + 1e-9 * layout.size_px for n in h.neighbours())


def _lowest_then_rightmost(layout: Layout, hexes: list[Hex]) -> Hex:
    return max(hexes, key=lambda h: (layout.centre(h)[1], layout.centre(h)[0]))


@FAST
@given(LAYOUTS, HEXES, st.integers(0, 5))
def test_ties_go_down_then_right(layout: Layout, h: Hex, d: int) -> None:
    """Hexside midpoints and corners belong to the lowest (then rightmost) hex touching them."""
    n = h.neighbour(d)
    mx, my = layout.hexside_segment(Hexside.between(h, n)).interpolate(0.5, normalized=True).coords[0]
    assert layout.pixel_to_hex(mx, my) == _lowest_then_rightmost(layout, [h, n])
    corner = layout.corners(h)[d]
    touching = [c for c in (h, *h.neighbours()) if near(layout.centre(c), corner, layout.size_px * (1 + 1e-9))]
    assert len(touching) == 3
    assert layout.pixel_to_hex(*corner) == _lowest_then_rightmost(layout, touching)


# -- polygons and hexsides ----------------------------------------------------------------
@FAST
@given(LAYOUTS, HEXES)
def test_corners(layout: Layout, h: Hex) -> None:
    """Six corners one size from the centre, one size apart, enclosing the regular hexagon's area."""
    centre, corners = layout.centre(h), layout.corners(h)
    assert len(corners) == 6
    tolerance = 1e-9 * max(layout.size_px, abs(centre[0]), abs(centre[1]))
    for k in range(6):
        assert math.dist(centre, corners[k]) == pytest.approx(layout.size_px, abs=tolerance)
        assert math.dist(corners[k], corners[(k + 1) % 6]) == pytest.approx(layout.size_px, abs=tolerance)
    polygon = layout.polygon(h)
    assert polygon.is_valid
    assert polygon.area == pytest.approx(1.5 * SQRT3 * layout.size_px**2, rel=1e-6)


@FAST
@given(LAYOUTS, HEXES, st.integers(0, 5))
def test_neighbours_share_exactly_the_hexside(layout: Layout, h: Hex, d: int) -> None:
    """Neighbouring polygons don't overlap and share one side, which is hexside_segment."""
    n = h.neighbour(d)
    a, b = layout.polygon(h), layout.polygon(n)
    size = layout.size_px
    scale = max(size, *map(abs, layout.centre(h)))
    assert a.intersection(b).area <= 1e-9 * size * size
    # The part of a's outline lying on b (up to rounding) is one whole side.
    shared = a.exterior.intersection(b.buffer(1e-7 * scale))
    assert shared.length == pytest.approx(size, abs=1e-5 * scale)
    segment = layout.hexside_segment(Hexside.between(h, n))
    assert segment.length == pytest.approx(size, rel=1e-9)
    assert segment.hausdorff_distance(shared) <= 1e-6 * scale
    for end in segment.coords:
        assert any(near(end, c, 1e-9 * scale) for c in layout.corners(h))
        assert any(near(end, c, 1e-9 * scale) for c in layout.corners(n))


@FAST
@given(LAYOUTS, HEXES, st.integers(0, 5), st.integers(0, 1))
def test_hexes_two_apart_do_not_touch(layout: Layout, h: Hex, d: int, turn: int) -> None:
    """Hexes two steps apart are separated by at least a side's worth of a hex between them."""
    far = h.neighbour(d).neighbour(d + turn)
    assert h.distance(far) == 2
    assert layout.polygon(h).distance(layout.polygon(far)) >= 0.99 * layout.size_px


# -- layouts for a map --------------------------------------------------------------------
@pytest.mark.parametrize("spec", SMALL_SPECS.values(), ids=SMALL_SPECS.keys())
@pytest.mark.parametrize(("size_px", "margin_px"), [(10.0, 0.0), (23.7, 7.5), (40.0, 31.0)])
def test_for_grid_fits_the_board(spec: GridSpec, size_px: float, margin_px: float) -> None:
    """Every hex lies inside board_size less the margin, tightly, and VASSAL's reference is whole."""
    grid = Grid(spec)
    layout = Layout.for_grid(grid, size_px, margin_px)
    width, height = layout.board_size(grid, margin_px)
    xs = [x for h in grid.hexes for x, _ in layout.corners(h)]
    ys = [y for h in grid.hexes for _, y in layout.corners(h)]
    assert min(xs) >= margin_px - 1e-9 and min(ys) >= margin_px - 1e-9
    assert max(xs) <= width - margin_px + 1e-9 and max(ys) <= height - margin_px + 1e-9
    # Tight: origin and size are rounded up to whole pixels, so less than a pixel is wasted.
    assert min(xs) - margin_px < 1 and min(ys) - margin_px < 1
    assert width - margin_px - max(xs) < 1 and height - margin_px - max(ys) < 1
    for h in grid.hexes:
        assert layout.pixel_to_hex(*layout.centre(h)) == h
    vassal_grid(layout, grid, (width, height))  # GridError if the reference hex is off a whole pixel


@pytest.mark.parametrize("spec", SMALL_SPECS.values(), ids=SMALL_SPECS.keys())
@pytest.mark.parametrize("size_px", [10.0, 23.7, 40.0, 50.0 * 1.4, 37.1 * 1.25, 1e-3, 1234.567])
@pytest.mark.parametrize("origin", [(0.0, 0.0), (13.5, -7.25), (1e6 / 3, 0.1)])
def test_board_size_is_the_largest_corner(spec: GridSpec, size_px: float, origin: tuple[float, float]) -> None:
    """board_size, from one centre a hex, is the corners' walk to the last bit (rounding a sum keeps its order)."""
    grid = Grid(spec)
    for orientation in ("flat", "pointy"):
        layout = Layout(orientation, size_px, origin)
        corners = [c for h in grid.hexes for c in layout.corners(h)]
        max_x = max([0.0] + [x for x, _ in corners])
        max_y = max([0.0] + [y for _, y in corners])
        for margin_px in (0.0, 7.5, 31.0):
            assert layout.board_size(grid, margin_px) == (math.ceil(max_x + margin_px), math.ceil(max_y + margin_px))


@pytest.mark.parametrize("spec", [s for k, s in SMALL_SPECS.items() if k != "onslaught"], ids=list(SMALL_SPECS)[:-1])
def test_small_grid_polygons_tile(spec: GridSpec) -> None:
    """The polygons of a small map don't overlap: the union's area is the sum of the areas."""
    grid = Grid(spec)
    layout = Layout.for_grid(grid, 17.3, 4.0)
    polygons = [layout.polygon(h) for h in grid.hexes]
    total = sum(p.area for p in polygons)
    union = unary_union(polygons)
    assert union.area == pytest.approx(total, rel=1e-9)
    assert total == pytest.approx(len(grid) * 1.5 * SQRT3 * 17.3**2)
    # One connected piece (a hair of buffer closes the rounding gaps between neighbours).
    assert unary_union([p.buffer(1e-6) for p in polygons]).geom_type == "Polygon"
    for side in grid.hexsides:
        assert layout.hexside_segment(side).length == pytest.approx(17.3)
