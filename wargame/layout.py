"""Hex <-> pixel through one `Layout`, and the VASSAL grid attributes derived from it.

The builder draws with this layout, the module's `HexGrid` + `HexGridNumbering` are derived
from it (never typed by hand), and the log reader maps VASSAL's pixels back with it, so the
three cannot disagree about which hex a point is in (house style 2).
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING

from wargame.errors import GridError
from wargame.grid import Grid, GridSpec, Orientation
from wargame.hexes import Hex, Hexside, cube_round
from wargame.records import frozen

if TYPE_CHECKING:  # shapely (and numpy under it) is imported when a shape is asked for: the referee never asks
    from shapely.geometry import LineString, Polygon

SQRT3 = math.sqrt(3.0)


@frozen
class OrientationMatrix:
    """Red Blob's hex orientation: forward (hex -> pixel) and backward (pixel -> hex) matrices, first corner's angle."""

    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float
    """The first corner's angle, in sixths of a turn (0 flat, 0.5 pointy); corners run clockwise on screen."""

    @cached_property
    def unit_corners(self) -> tuple[tuple[float, float], ...]:
        """The six corners of a hex of circumradius 1 centred at the origin, in `Layout.corners`' order."""
        angles = (math.radians(60.0 * (self.start_angle + k)) for k in range(6))
        return tuple((math.cos(a), math.sin(a)) for a in angles)

    @cached_property
    def side_normals(self) -> tuple[tuple[float, float], ...]:
        """Unit normals of the hex's three pairs of opposite sides (each side halfway between two corners)."""
        # Modulo half a turn: each pair of sides by the normal at the smaller angle, in angle order.
        angles = sorted((60.0 * self.start_angle + 30.0 + 60.0 * k) % 180.0 for k in range(3))
        return tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in angles)

    @cached_property
    def forward_rows(self) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """The forward matrix's rows as (scale, q step, r step), the row's largest entry taken out as its scale.

        The steps are then 0, 1/2 or 1, so `a q + b r` is exact in hexes and a pixel coordinate is
        rounded twice (scale x size, then x steps) instead of four times.
        """
        def row(a: float, b: float) -> tuple[float, float, float]:
            scale = max(abs(a), abs(b))
            return scale, a / scale, b / scale
        return row(self.f0, self.f1), row(self.f2, self.f3)


FLAT = OrientationMatrix(1.5, 0.0, SQRT3 / 2, SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, SQRT3 / 3.0, 0.0)
"""Flat-topped hexes: columns of hexes 3/2 size apart."""
POINTY = OrientationMatrix(SQRT3, SQRT3 / 2, 0.0, 1.5, SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5)
"""Pointy-topped hexes: rows of hexes 3/2 size apart."""
ORIENTATIONS: dict[Orientation, OrientationMatrix] = {"flat": FLAT, "pointy": POINTY}
"""The matrix of each orientation a grid can name."""


@frozen
class Layout:
    """Regular hexes of circumradius `size_px` with Hex(0, 0)'s centre at `origin` (y down)."""

    orientation: Orientation
    size_px: float
    origin: tuple[float, float]

    # -- spacing ----------------------------------------------------------------------
    @property
    def line_spacing_px(self) -> float:
        """Distance between two neighbouring columns (flat) or rows (pointy): 3/2 size."""
        return 1.5 * self.size_px

    @property
    def across_flats_px(self) -> float:
        """Hex height (flat) or width (pointy) from side to side: sqrt(3) size."""
        return SQRT3 * self.size_px

    # -- hex -> pixel -------------------------------------------------------------------
    @cached_property
    def matrix(self) -> OrientationMatrix:
        """The orientation's matrix, which every pixel of this layout is computed from."""
        return ORIENTATIONS[self.orientation]

    def centre(self, h: Hex) -> tuple[float, float]:
        """Pixel centre of a hex: the forward matrix times (q, r), times the size, plus the origin."""
        (kx, ax, bx), (ky, ay, by) = self.matrix.forward_rows
        s = self.size_px
        return self.origin[0] + kx * s * (ax * h.q + bx * h.r), self.origin[1] + ky * s * (ay * h.q + by * h.r)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corner points of a hex, clockwise on screen from the first angle."""
        cx, cy = self.centre(h)
        s = self.size_px
        return [(cx + s * ux, cy + s * uy) for ux, uy in self.matrix.unit_corners]

    def polygon(self, h: Hex) -> Polygon:
        """The hex as a shapely polygon."""
        from shapely.geometry import Polygon

        return Polygon(self.corners(h))

    def hexside_segment(self, side: Hexside) -> LineString:
        """The hexside as a shapely segment between its two corners."""
        from shapely.geometry import LineString

        return LineString(self.hexside_ends(side))

    def hexside_ends(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """The hexside's two corners (what `hexside_segment` joins, without building it)."""
        return self.ends_between(self.centre(side.a), self.centre(side.b))

    def ends_between(self, a: tuple[float, float],
                     b: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of the side between neighbouring hexes centred at a and b (`hexside_ends` of the side
        from a's hex to b's)."""
        (ax, ay), (bx, by) = a, b
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        # The side is perpendicular to the line of centres and as long as the circumradius.
        px, py = -dy / length * self.size_px / 2, dx / length * self.size_px / 2
        return (mx - px, my - py), (mx + px, my + py)

    # -- pixel -> hex -------------------------------------------------------------------
    def fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial coordinates of a pixel: the backward matrix times its offset from the origin, / size."""
        m = self.matrix
        px, py = x - self.origin[0], y - self.origin[1]
        return (m.b0 * px + m.b1 * py) / self.size_px, (m.b2 * px + m.b3 * py) / self.size_px

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing a pixel.

        A point on a hexside or corner (within 1e-9 of the size) belongs to the hex whose
        centre lies furthest down the screen, then furthest right. (VASSAL's own snap uses
        overlapping rounded outlines, so no boundary rule can match it exactly; hex centres
        always agree, see tests/test_vassal_grid.py.)
        """
        h = cube_round(*self.fractional(x, y))
        cx, cy = self.centre(h)
        inner = self.across_flats_px / 2
        if math.hypot(x - cx, y - cy) < inner * (1 - 1e-9):
            return h
        best = h
        best_d = math.hypot(x - cx, y - cy)
        best_key = (cy, cx)
        tolerance = 1e-9 * self.size_px
        for n in h.neighbours():
            nx, ny = self.centre(n)
            d = math.hypot(x - nx, y - ny)
            if d < best_d - tolerance or (abs(d - best_d) <= tolerance and (ny, nx) > best_key):
                best, best_d, best_key = n, min(d, best_d), (ny, nx)
        return best

    # -- construction for a map ------------------------------------------------------
    @staticmethod
    def for_grid(grid: Grid, size_px: float, margin_px: float = 0.0) -> Layout:
        """A layout that puts the map `margin_px` inside its image, with VASSAL's reference
        hex (see `vassal_grid`) centred on a whole pixel so the module's grid is exact.

        Keep the margin at least half a hex: VASSAL truncates the centres of the off-board
        hexes toward the map, so with less a drop near an edge corner can snap off the board.
        """
        flat = grid.spec.orientation == "flat"
        line = 1.5 * size_px
        across = SQRT3 * size_px
        # Frame coordinates: u runs along the lines of hexes' spacing axis (x for flat, y for
        # pointy), v across them. Visual line 0's centre u must clear the margin by one size;
        # the reference hex sits one line before it when line 0 is shifted.
        k = 1 if grid._first_line_shifted else 0
        u_ref = math.ceil(margin_px + size_px - k * line)
        v_ref = math.ceil(margin_px + across / 2)
        u0 = u_ref + k * line
        v0 = v_ref + (across / 2 if grid._first_line_shifted else 0.0)
        origin = (u0, v0) if flat else (v0, u0)
        return Layout(grid.spec.orientation, size_px, origin)

    def board_size(self, grid: Grid, margin_px: float = 0.0) -> tuple[int, int]:
        """Whole-pixel image size that holds every hex of the map plus the margin."""
        # A corner is its hex's centre plus the corner's offset (`corners`), and rounding a sum never reverses an
        # order, so the largest corner coordinate is the largest centre's plus the largest offset's, to the last
        # bit: one centre a hex instead of six corners (each build of a large map walked them twice).
        s = self.size_px
        centres = [self.centre(h) for h in grid.hexes]
        offset_x = max(s * ux for ux, _ in self.matrix.unit_corners)
        offset_y = max(s * uy for _, uy in self.matrix.unit_corners)
        max_x = max([0.0] + [x + offset_x for x, _ in centres])
        max_y = max([0.0] + [y + offset_y for _, y in centres])
        return math.ceil(max_x + margin_px), math.ceil(max_y + margin_px)


MAX_BOARD_PIXELS = 100_000_000
"""The largest board Umpire draws, in pixels at the scale drawn (the bundled maps at scale 4 are
under 96 million); the canvas, supersampled, needs about 27 bytes a pixel (docs/limits.md)."""


def board_pixels(spec: GridSpec, size_px: float, margin_px: float) -> tuple[int, int]:
    """About the board size (width, height) of a map, from its grid's shape alone (no hex walked):
    within a hex of `Layout.board_size`, so a map too large to draw is refused before it is built."""
    line, across = 1.5 * size_px, SQRT3 * size_px
    lines, per_line = (spec.columns, spec.rows) if spec.orientation == "flat" else (spec.rows, spec.columns)
    # Along the lines: a hex's width for the first, 3/2 size for each next; across them: the
    # line's hexes and half a hex for the shifted lines; a margin each side, rounded up.
    along = 2 * size_px + (lines - 1) * line + 2 * margin_px
    side = per_line * across + (across / 2 if lines > 1 else 0.0) + 2 * margin_px
    width, height = (along, side) if spec.orientation == "flat" else (side, along)
    return math.ceil(width), math.ceil(height)


def board_too_large(spec: GridSpec, size_px: float, margin_px: float, scale: float = 1.0) -> str | None:
    """Why a map cannot be drawn at `scale` (its pixel size and the limit), or None if it can."""
    width, height = board_pixels(spec, size_px * scale, margin_px * scale)
    if width * height <= MAX_BOARD_PIXELS:
        return None
    at = "" if scale == 1 else f" at scale {scale:g}"
    return (f"the board would be {width:,} x {height:,} pixels{at} ({width * height / 1e6:,.0f} million), more than "
            f"the {MAX_BOARD_PIXELS / 1e6:,.0f} million Umpire draws: use fewer hexes or a smaller hex_size_px")


@frozen
class VassalGrid:
    """Attributes of VASSAL's `HexGrid` and `HexGridNumbering` elements, as XML strings."""

    hex_grid: dict[str, str]
    numbering: dict[str, str]


def _whole(value: float, what: str) -> int:
    rounded = round(value)
    if abs(value - rounded) > 1e-6:
        raise GridError(f"VASSAL needs {what} on a whole pixel, the layout puts it at {value:.6f};"
                        " build the layout with Layout.for_grid")
    return int(rounded)


def vassal_grid(layout: Layout, grid: Grid, board_size: tuple[int, int]) -> VassalGrid:
    """Derive VASSAL 3.7's HexGrid and HexGridNumbering attributes from our layout and grid.

    VASSAL works in a frame rotated for sideways (pointy) grids, where its odd raw columns
    are drawn half a hex lower; its raw column 0 is our first unshifted line (visual line 0,
    or the line before it when line 0 is shifted). Stagger is off because every printed
    column (row) starts at the same number. Descending numbers count from the board size,
    as VASSAL does (`getMaxColumns`/`getMaxRows`).
    """
    spec = grid.spec
    if layout.orientation != spec.orientation:
        raise GridError(f"layout is {layout.orientation}-topped but the grid is {spec.orientation}-topped")
    sideways = spec.orientation == "pointy"
    dx = layout.line_spacing_px
    dy = layout.across_flats_px
    k = 1 if grid._first_line_shifted else 0
    # Centre of the reference hex: visual line -k, position 0 along the line, unshifted.
    if sideways:
        ref = grid.hex_at_visual(0, -k)
        real_x, real_y = layout.centre(ref)
        x0 = _whole(real_y, "the reference hex's y")
        y0 = _whole(real_x, "the reference hex's x")
    else:
        ref = grid.hex_at_visual(-k, 0)
        real_x, real_y = layout.centre(ref)
        x0 = _whole(real_x, "the reference hex's x")
        y0 = _whole(real_y, "the reference hex's y")
    width, height = board_size
    max_rows = math.floor(height / dx + 0.5)
    max_columns = math.floor(width / dy + 0.5)
    columns_descend = spec.column_numbers == "descending"
    rows_descend = spec.row_numbers == "descending"
    if not sideways:
        # VASSAL "column" = our column (H part), "row" = our row (V part).
        h_off = (spec.first_column + spec.columns - 1 - max_columns + k) if columns_descend else spec.first_column - k
        v_off = (spec.first_row + spec.rows - 1 - max_rows) if rows_descend else spec.first_row
        h_descend, v_descend = columns_descend, rows_descend
        h_leading, v_leading = spec.label.column_digits - 1, spec.label.row_digits - 1
        first = "H" if spec.label.order == "column-row" else "V"
    else:
        # Sideways, VASSAL's "column" counts our rows (flipped by vDescend) and its "row"
        # counts our columns (flipped by hDescend); see HexGridNumbering.getColumn/getRow.
        h_off = (spec.first_row + spec.rows - 1 - max_rows + k) if rows_descend else spec.first_row - k
        v_off = (spec.first_column + spec.columns - 1 - max_columns) if columns_descend else spec.first_column
        h_descend, v_descend = columns_descend, rows_descend
        h_leading, v_leading = spec.label.row_digits - 1, spec.label.column_digits - 1
        first = "V" if spec.label.order == "column-row" else "H"
    hex_grid = {
        "color": "0,0,0",
        "cornersLegal": "false",
        "dotsVisible": "false",
        "dx": repr(dx),
        "dy": repr(dy),
        "edgesLegal": "false",
        "sideways": "true" if sideways else "false",
        "snapTo": "true",
        "visible": "false",
        "x0": str(x0),
        "y0": str(y0),
    }
    numbering = {
        "first": first,
        "hDescend": "true" if h_descend else "false",
        "hLeading": str(h_leading),
        "hOff": str(h_off),
        "hType": "N",
        "locationFormat": "$gridLocation$",
        "sep": spec.label.separator,
        "stagger": "false",
        "vDescend": "true" if v_descend else "false",
        "vLeading": str(v_leading),
        "vOff": str(v_off),
        "vType": "N",
        "visible": "false",
    }
    return VassalGrid(hex_grid, numbering)
