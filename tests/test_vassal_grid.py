"""The VASSAL grid we derive names, places and snaps every hex as our layout draws it.

`vassal_oracle` models VASSAL 3.7's HexGrid/HexGridNumbering from the XML attribute strings
alone, so these tests check `wargame.layout.vassal_grid` the way a running module would.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from vassal_oracle import BadCoords, VassalHexGrid
from wargame.errors import GridError
from wargame.grid import Grid, GridSpec, LabelFormat
from wargame.hexes import Hex
from wargame.layout import Layout, vassal_grid


@dataclass(frozen=True)
class Variant:
    """One map grid, drawn at one hex size and margin."""

    id: str
    spec: GridSpec
    size_px: float
    margin_px: float


# Between them: both orientations, both parities, both number directions on each axis, first
# numbers 0, 1 and others, 1- to 3-digit labels, separators, row-column order, fractional
# sizes and margins down to 0, and visual line 0 both shifted and unshifted.
VARIANTS: list[Variant] = [
    Variant("flat-even-asc-0101-s30-m20",
            GridSpec(orientation="flat", columns=12, rows=10), 30.0, 20.0),
    Variant("flat-odd-coldesc-c0-s37.5-m3",
            GridSpec(orientation="flat", columns=14, rows=9, first_column=0, shifted="odd",
                     column_numbers="descending"), 37.5, 3.0),
    Variant("flat-even-rowdesc-3x3digits-c5r7-s41.3-m0",
            GridSpec(orientation="flat", columns=11, rows=13, first_column=5, first_row=7,
                     row_numbers="descending", label=LabelFormat(column_digits=3, row_digits=3)), 41.3, 0.0),
    Variant("flat-odd-bothdesc-sep-rowcol-c0r0-s25-m1.5",
            GridSpec(orientation="flat", columns=15, rows=12, first_column=0, first_row=0, shifted="odd",
                     column_numbers="descending", row_numbers="descending",
                     label=LabelFormat(separator=".", order="row-column")), 25.0, 1.5),
    Variant("flat-even-1digit-c1r1-s52-m4",
            GridSpec(orientation="flat", columns=9, rows=8, label=LabelFormat(column_digits=1, row_digits=1)),
            52.0, 4.0),
    Variant("flat-odd-asc-c2r3-big-s22.5-m10",
            GridSpec(orientation="flat", columns=40, rows=30, first_column=2, first_row=3, shifted="odd"),
            22.5, 10.0),
    Variant("pointy-even-asc-0101-s30-m20",
            GridSpec(orientation="pointy", columns=10, rows=12), 30.0, 20.0),
    Variant("pointy-odd-rowdesc-r0-s37.5-m2",
            GridSpec(orientation="pointy", columns=13, rows=12, first_row=0, shifted="odd",
                     row_numbers="descending"), 37.5, 2.0),
    Variant("pointy-even-coldesc-3digitcol-rowcol-c10r3-s33.3-m0",
            GridSpec(orientation="pointy", columns=12, rows=10, first_column=10, first_row=3,
                     column_numbers="descending", label=LabelFormat(column_digits=3, order="row-column")),
            33.3, 0.0),
    Variant("pointy-even-bothdesc-sep-c0r0-s28.7-m5",
            GridSpec(orientation="pointy", columns=11, rows=14, first_column=0, first_row=0,
                     column_numbers="descending", row_numbers="descending",
                     label=LabelFormat(separator=":")), 28.7, 5.0),
    Variant("pointy-odd-asc-2x3digits-c1r99-s44-m1",
            GridSpec(orientation="pointy", columns=9, rows=10, first_row=99, shifted="odd",
                     label=LabelFormat(row_digits=3)), 44.0, 1.0),
    Variant("pointy-odd-bothdesc-c7r1-big-s19.25-m0.5",
            GridSpec(orientation="pointy", columns=35, rows=28, first_column=7, shifted="odd",
                     column_numbers="descending", row_numbers="descending"), 19.25, 0.5),
]


@dataclass(frozen=True)
class Built:
    """A variant's grid, layout, board size and the VASSAL model of its derived attributes."""

    grid: Grid
    layout: Layout
    board_size: tuple[int, int]
    vassal: VassalHexGrid


_BUILT: dict[str, Built] = {}


def _build(variant: Variant) -> Built:
    """Derive the module's grid for a variant, as the builder does, and model it (cached)."""
    if variant.id not in _BUILT:
        grid = Grid(variant.spec)
        layout = Layout.for_grid(grid, variant.size_px, variant.margin_px)
        board_size = layout.board_size(grid, variant.margin_px)
        derived = vassal_grid(layout, grid, board_size)
        _BUILT[variant.id] = Built(grid, layout, board_size,
                                   VassalHexGrid(derived.hex_grid, derived.numbering, board_size))
    return _BUILT[variant.id]


def _vassal_point(x: float, y: float) -> tuple[int, int]:
    """A pixel as a java.awt.Point holding it: whole pixels, rounded half up."""
    return math.floor(x + 0.5), math.floor(y + 0.5)


by_variant = pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])


def test_variants_cover_both_first_line_parities() -> None:
    """Each orientation has a variant whose visual line 0 is shifted and one whose is not."""
    seen: set[tuple[str, bool]] = set()
    for v in VARIANTS:
        grid = Grid(v.spec)
        seen.add((v.spec.orientation, grid.is_shifted(grid.hex_at_visual(0, 0))))
    assert seen == {("flat", False), ("flat", True), ("pointy", False), ("pointy", True)}


def _touching(layout: Layout, around: Hex, x: float, y: float) -> set[Hex]:
    """Hexes (around and its neighbours) whose outline passes through (x, y)."""
    candidates = (around, *around.neighbours())
    inner = layout.across_flats_px / 2
    out: set[Hex] = set()
    for h in candidates:
        cx, cy = layout.centre(h)
        d = math.hypot(x - cx, y - cy)
        # On a hexside midpoint the distance is the inradius, on a corner the circumradius.
        if abs(d - inner) < 1e-6 * layout.size_px or abs(d - layout.size_px) < 1e-6 * layout.size_px:
            out.add(h)
    return out


def _naming_errors(vassal: VassalHexGrid, grid: Grid, layout: Layout) -> list[str]:
    """Hexes whose centre (as a VASSAL Point) VASSAL names other than by the printed label."""
    errors: list[str] = []
    for h in grid.hexes:
        p = _vassal_point(*layout.centre(h))
        name = vassal.location_name(p)
        if name != grid.label_of(h):
            errors.append(f"{grid.label_of(h)}: centre {p} is named {name!r}")
    return errors


def _location_errors(vassal: VassalHexGrid, grid: Grid, layout: Layout) -> list[str]:
    """Labels whose getLocation point is outside their hex, off our centre, or renamed."""
    errors: list[str] = []
    for h in grid.hexes:
        label = grid.label_of(h)
        try:
            x, y = vassal.location(label)
        except BadCoords as e:
            errors.append(f"{label}: refused ({e})")
            continue
        cx, cy = layout.centre(h)
        if layout.pixel_to_hex(x, y) != h:
            errors.append(f"{label}: placed at {(x, y)}, in hex {layout.pixel_to_hex(x, y)} not {h}")
        # getCenterPoint truncates col*dx and row*dy, so it may sit up to a pixel up/left.
        elif abs(x - cx) > 1 or abs(y - cy) > 1:
            errors.append(f"{label}: placed at {(x, y)}, our centre is ({cx:.2f}, {cy:.2f})")
        # A SetupStack at that point must show the same name.
        elif vassal.location_name((x, y)) != label:
            errors.append(f"{label}: placed at {(x, y)}, which is named {vassal.location_name((x, y))!r}")
    return errors


def _drops(
    layout: Layout, grid: Grid, h: Hex, inset_px: float, rim_inset_px: float
) -> list[tuple[float, float]]:
    """Points inside h: its centre, then one inset from each corner and each side's midpoint."""
    cx, cy = layout.centre(h)
    drops = [(cx, cy)]
    corners = layout.corners(h)
    for k, (kx, ky) in enumerate(corners):
        nx, ny = corners[(k + 1) % 6]
        for bx, by in ((kx, ky), ((kx + nx) / 2, (ky + ny) / 2)):
            on_rim = any(t not in grid for t in _touching(layout, h, bx, by))
            inset = rim_inset_px if on_rim else inset_px
            shrink = 1 - inset / math.hypot(bx - cx, by - cy)
            drops.append((cx + (bx - cx) * shrink, cy + (by - cy) * shrink))
    return drops


def _snap_errors(vassal: VassalHexGrid, grid: Grid, layout: Layout,
                 inset_px: float | None = None, rim_inset_px: float | None = None) -> list[str]:
    """Drops that snap out of their hex: at each centre, and (given insets) near its outline."""
    errors: list[str] = []
    for h in grid.hexes:
        if inset_px is None or rim_inset_px is None:
            drops = [layout.centre(h)]
        else:
            drops = _drops(layout, grid, h, inset_px, rim_inset_px)
        for x, y in drops:
            p = _vassal_point(x, y)
            snapped = vassal.snap_to(p)
            if layout.pixel_to_hex(*snapped) != h:
                errors.append(f"{grid.label_of(h)}: drop at {p} snaps to {snapped}, "
                              f"in hex {layout.pixel_to_hex(*snapped)} not {h}")
    return errors


def _summary(errors: list[str], total: int) -> str:
    """The first few errors and how many there are."""
    return f"{len(errors)} problems over {total} hexes: " + "; ".join(errors[:5])


@by_variant
def test_vassal_names_our_centres(variant: Variant) -> None:
    """(a) VASSAL's locationName of every hex centre we draw is that hex's printed label."""
    built = _build(variant)
    errors = _naming_errors(built.vassal, built.grid, built.layout)
    assert not errors, _summary(errors, len(built.grid))


@by_variant
def test_vassal_locations_fall_in_our_hexes(variant: Variant) -> None:
    """(b) getLocation(label) lands in that hex of our layout, within a pixel of our centre."""
    built = _build(variant)
    errors = _location_errors(built.vassal, built.grid, built.layout)
    assert not errors, _summary(errors, len(built.grid))


@by_variant
def test_vassal_snaps_our_centres_into_their_hexes(variant: Variant) -> None:
    """(c) A piece dropped on our centre snaps (snapToHex) to a point inside the same hex."""
    built = _build(variant)
    errors = _snap_errors(built.vassal, built.grid, built.layout)
    assert not errors, _summary(errors, len(built.grid))


@by_variant
def test_vassal_snaps_drops_well_inside_a_hex_into_it(variant: Variant) -> None:
    """Drops 3 px inside a corner or side shared with map hexes (4 px at the rim) snap into the hex."""
    built = _build(variant)
    # VASSAL's snap outlines are whole-pixel polygons around truncated centres, odd columns
    # losing dy/2's fraction too, so they stray up to ~2.5 px from the true hexes. Beyond the
    # top/left rim, with a margin under half a hex, centres are negative, where (int)
    # truncates toward the map and the outline's +1 px right/bottom edge adds to it: at size
    # 25, margin 1.5, a drop at (5, 414), 3 px inside hex 02.14's outer corner, snaps to the
    # off-board centre (-10, 434). So rim drops get 4 px.
    errors = _snap_errors(built.vassal, built.grid, built.layout, inset_px=3.0, rim_inset_px=4.0)
    assert not errors, _summary(errors, len(built.grid))


# Deliberately wrong attributes, each of which the checks above must notice.
MUTATIONS: dict[str, tuple[str, str, Callable[[str], str]]] = {
    "hOff+1": ("numbering", "hOff", lambda v: str(int(v) + 1)),
    "vOff-1": ("numbering", "vOff", lambda v: str(int(v) - 1)),
    "hDescend-flipped": ("numbering", "hDescend", lambda v: "false" if v == "true" else "true"),
    "vDescend-flipped": ("numbering", "vDescend", lambda v: "false" if v == "true" else "true"),
    "first-flipped": ("numbering", "first", lambda v: "V" if v == "H" else "H"),
    "x0+2": ("hex_grid", "x0", lambda v: str(int(v) + 2)),
    "y0-2": ("hex_grid", "y0", lambda v: str(int(v) - 2)),
    "dx*1.01": ("hex_grid", "dx", lambda v: repr(float(v) * 1.01)),
    "dy*0.99": ("hex_grid", "dy", lambda v: repr(float(v) * 0.99)),
    "stagger-on": ("numbering", "stagger", lambda v: "true"),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("variant", [VARIANTS[1], VARIANTS[9]], ids=[VARIANTS[1].id, VARIANTS[9].id])
def test_checks_catch_a_wrong_attribute(variant: Variant, mutation: str) -> None:
    """The oracle-based checks are not vacuous: one wrong attribute breaks at least one of them."""
    built = _build(variant)
    derived = vassal_grid(built.layout, built.grid, built.board_size)
    element, key, change = MUTATIONS[mutation]
    attributes = {"hex_grid": dict(derived.hex_grid), "numbering": dict(derived.numbering)}
    attributes[element][key] = change(attributes[element][key])
    wrong = VassalHexGrid(attributes["hex_grid"], attributes["numbering"], built.board_size)
    errors = (_naming_errors(wrong, built.grid, built.layout)
              + _location_errors(wrong, built.grid, built.layout)
              + _snap_errors(wrong, built.grid, built.layout, inset_px=3.0, rim_inset_px=4.0))
    assert errors


@by_variant
def test_vassal_rejects_labels_off_format(variant: Variant) -> None:
    """A label short of a padding digit, or without its separator, does not parse in VASSAL."""
    built = _build(variant)
    fmt = variant.spec.label
    label = built.grid.format_label(variant.spec.first_column, variant.spec.first_row)
    # Each numeric part must have at least leading+1 digits; a separator must be present.
    bad = label.replace(fmt.separator, "") if fmt.separator else label[1:]
    with pytest.raises(BadCoords):
        built.vassal.location(bad)


# -- points on hexsides and corners ---------------------------------------------------------
SMALL: list[Variant] = [
    Variant("flat-s37.5", GridSpec(orientation="flat", columns=6, rows=5), 37.5, 3.0),
    Variant("flat-odd-s30", GridSpec(orientation="flat", columns=5, rows=6, shifted="odd"), 30.0, 0.0),
    Variant("pointy-s37.5", GridSpec(orientation="pointy", columns=6, rows=5), 37.5, 3.0),
    Variant("pointy-odd-s28.7", GridSpec(orientation="pointy", columns=5, rows=6, shifted="odd"), 28.7, 1.0),
]
by_small = pytest.mark.parametrize("variant", SMALL, ids=[v.id for v in SMALL])


@by_small
def test_hexside_midpoints_have_one_stable_hex(variant: Variant) -> None:
    """The midpoint of every hexside maps to one of its two hexes, the same one every call."""
    built = _build(variant)
    layout = built.layout
    for side in built.grid.hexsides:
        (ax, ay), (bx, by) = layout.centre(side.a), layout.centre(side.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        assert _touching(layout, side.a, mx, my) == {side.a, side.b}
        chosen = layout.pixel_to_hex(mx, my)
        assert chosen in (side.a, side.b)
        assert all(layout.pixel_to_hex(mx, my) == chosen for _ in range(3))


@by_small
def test_corners_have_one_stable_hex(variant: Variant) -> None:
    """Every corner maps to one of the three hexes meeting there, whichever hex it was computed from."""
    built = _build(variant)
    layout = built.layout
    for h in built.grid.hexes:
        for x, y in layout.corners(h):
            touching = _touching(layout, h, x, y)
            assert len(touching) == 3
            chosen = layout.pixel_to_hex(x, y)
            assert chosen in touching
            assert all(layout.pixel_to_hex(x, y) == chosen for _ in range(3))
            # The same corner as computed from the other hexes (it differs in the last bits).
            for other in touching:
                same = min(layout.corners(other), key=lambda c: math.hypot(c[0] - x, c[1] - y))
                assert layout.pixel_to_hex(*same) == chosen, f"corner {(x, y)} computed from {other}"


@by_small
def test_boundary_points_follow_the_documented_tie_break(variant: Variant) -> None:
    """On a side or corner, pixel_to_hex picks the touching hex lowest on screen, then rightmost."""
    built = _build(variant)
    layout = built.layout
    points = [p for h in built.grid.hexes for p in layout.corners(h)]
    for side in built.grid.hexsides:
        (ax, ay), (bx, by) = layout.centre(side.a), layout.centre(side.b)
        points.append(((ax + bx) / 2, (ay + by) / 2))
    for x, y in points:
        around = layout.pixel_to_hex(x, y)
        touching = _touching(layout, around, x, y)
        expected = max(touching, key=lambda t: (layout.centre(t)[1], layout.centre(t)[0]))
        assert around == expected, f"{(x, y)}: got {around}, touching {sorted(touching)}"


# -- refusals ------------------------------------------------------------------------------
FLAT = GridSpec(orientation="flat", columns=6, rows=5)
POINTY = GridSpec(orientation="pointy", columns=6, rows=5)


@pytest.mark.parametrize(
    ("spec", "origin"),
    [
        pytest.param(FLAT, (10.3, 10.7), id="flat-both-fractional"),
        pytest.param(FLAT, (10.0, 10.7), id="flat-y-fractional"),
        pytest.param(FLAT, (10.5, 11.0), id="flat-x-fractional"),
        pytest.param(POINTY, (10.3, 10.7), id="pointy-both-fractional"),
        pytest.param(POINTY, (11.0, 10.25), id="pointy-y-fractional"),
    ],
)
def test_vassal_grid_refuses_an_origin_off_whole_pixels(spec: GridSpec, origin: tuple[float, float]) -> None:
    """x0/y0 are Java ints, so a reference hex centred between pixels cannot be represented."""
    grid = Grid(spec)
    layout = Layout(spec.orientation, 30.0, origin)
    with pytest.raises(GridError, match="whole pixel"):
        vassal_grid(layout, grid, layout.board_size(grid))


def test_vassal_grid_accepts_a_hand_made_whole_pixel_origin() -> None:
    """A layout built by hand is fine when the reference hex is on whole pixels."""
    grid = Grid(FLAT)  # column 1 is odd, shifted is "even": visual line 0 is unshifted
    layout = Layout("flat", 30.0, (40.0, 27.0))
    derived = vassal_grid(layout, grid, layout.board_size(grid))
    assert (derived.hex_grid["x0"], derived.hex_grid["y0"]) == ("40", "27")


def test_vassal_grid_refuses_a_layout_of_the_other_orientation() -> None:
    """A pointy layout cannot describe a flat grid."""
    grid = Grid(FLAT)
    with pytest.raises(GridError):
        vassal_grid(Layout("pointy", 30.0, (40.0, 40.0)), grid, (500, 500))


# -- the oracle itself, against hand-worked VASSAL values -----------------------------------
def test_oracle_pads_like_vassal() -> None:
    """getName: leading=1 gives 05 and 10, leading=2 gives 005, negatives keep their sign."""
    part = VassalHexGrid.part_name
    assert [part(5, "N", 1), part(10, "N", 1), part(5, "N", 2), part(50, "N", 2), part(500, "N", 2)] == \
        ["05", "10", "005", "050", "500"]
    assert part(-3, "N", 1) == "-03"
    assert [part(0, "A", 0), part(25, "A", 0), part(26, "A", 0), part(27, "A", 0)] == ["A", "Z", "AA", "BB"]


def test_oracle_defaults_match_vassal() -> None:
    """With no attributes: 64 px hexes, origin (0, 32), names like 0101 counted from 1, staggered."""
    grid = VassalHexGrid({}, {}, (1000, 1000))
    assert grid.dx == pytest.approx(55.42562584220407)
    assert grid.location_name((0, 32)) == "0101"
    # Stagger: the top hex of raw column 1, drawn half a hex lower, is numbered row 2.
    assert grid.location_name((55, 64)) == "0202"
    assert grid.location("0202") == (55, 64)
    assert grid.location("0101") == (0, 32)
    # The regex needs at least leading+1 digits per part, and takes the longest first part.
    with pytest.raises(BadCoords):
        grid.location("101")
    assert grid.location("10101") == grid.center_point(100, 0)


def test_oracle_snaps_with_truncated_half_height() -> None:
    """Odd columns snap to trunc(dy/2) below the row, where getCenterPoint uses trunc(row*dy + dy/2)."""
    grid = VassalHexGrid({"dx": "60.0", "dy": "69.28", "x0": "0", "y0": "0"},
                         {"stagger": "false", "hOff": "0", "vOff": "0"}, (2000, 2000))
    # Column 5, row 7: getCenterPoint y = trunc(7*69.28 + 34.64) = 519; the snap centre is
    # trunc(7*69.28 + 34 + 0) = 518.
    assert grid.location("0507") == (300, 519)
    assert grid.snap_to((300, 519)) == (300, 518)
    assert grid.location_name((300, 518)) == "0507"


def test_oracle_area_insideness_is_half_open() -> None:
    """Area.contains counts the left and top edges of a polygon as inside, the right and bottom not."""
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert VassalHexGrid.area_contains(square, 0, 0)
    assert VassalHexGrid.area_contains(square, 0, 9.999)
    assert not VassalHexGrid.area_contains(square, 10, 5)
    assert not VassalHexGrid.area_contains(square, 5, 10)


def test_oracle_area_gives_a_slanted_shared_edge_to_the_right_polygon() -> None:
    """Area.contains: a point on a non-horizontal edge belongs to the polygon on its right."""
    lower_left = [(0, 10), (5, 0), (15, 0), (20, 10), (15, 20), (5, 20)]
    upper_right = [(x + 15, y - 10) for x, y in lower_left]
    # (17.5, 5) lies on their shared edge from (15, 0) to (20, 10).
    assert not VassalHexGrid.area_contains(lower_left, 17.5, 5)
    assert VassalHexGrid.area_contains(upper_right, 17.5, 5)


def test_oracle_sideways_swaps_axes() -> None:
    """A sideways grid reads x0/dx along the screen's y axis and y0/dy along its x axis."""
    upright = VassalHexGrid({"dx": "45.0", "dy": "52.0", "x0": "30", "y0": "26"}, {}, (800, 600))
    sideways = VassalHexGrid({"dx": "45.0", "dy": "52.0", "x0": "30", "y0": "26", "sideways": "true"},
                             {}, (600, 800))
    for p in [(30, 26), (75, 52), (300, 200), (123, 456)]:
        assert sideways.location_name((p[1], p[0])) == upright.location_name(p)
        assert sideways.snap_to((p[1], p[0])) == upright.snap_to(p)[::-1]
