"""An independent model of VASSAL 3.7's HexGrid + HexGridNumbering, for testing our derivation.

Re-expressed in Python from VASSAL 3.7.26's `HexGrid`, `RegularGridNumbering` and
`HexGridNumbering` (LGPL) and from docs vassal-format.md sections 1.4 and 3. It reads only
what a module holds: the two elements' XML attribute strings and the board's pixel size. It
must never import `wargame`: it is the yardstick the library is measured against.

Java semantics kept on purpose:
- `(int)` on a double truncates toward zero (`math.trunc`);
- `Math.round` rounds half up exactly (`_java_round`), while code that spells out
  `Math.floor(v + 0.5)` gets exactly that, double addition included;
- `Point` holds ints; sideways grids swap x and y before and after every formula;
- the hex outline used by the snap is built in float32 and tested with
  `java.awt.geom.Area.contains` insideness (left/top edges in, right/bottom edges out).
Limits: `locationName` substitutes only `$gridLocation$`, `$row$` and `$column$`; a
`locationFormat` with escaped `\\$` is refused; `snapscale` must be 0 (what we generate).
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Mapping

Point = tuple[int, int]

SQRT3_2 = math.sqrt(3.0) / 2.0
# HexGrid's defaults: a 64 px high hex, origin (0, 32).
DEFAULT_DY = 64.0
DEFAULT_DX = SQRT3_2 * DEFAULT_DY
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# RegularGridNumbering's pattern for an alphabetic part: one letter repeated.
ALPHABETIC_MATCH = "-?(?:" + "|".join(f"{c}+" for c in ALPHABET) + ")"
GRID_LOCATION, ROW, COLUMN = "gridLocation", "row", "column"


class BadCoords(ValueError):
    """A location name VASSAL's `getLocation` would refuse (Java's `MapGrid.BadCoords`)."""


# -- Java number semantics ----------------------------------------------------------------
def _java_int(text: str) -> int:
    """`Integer.valueOf`: optional sign and decimal digits, nothing else."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ValueError(f"not a Java int: {text!r}")
    value = int(text)
    if not -(2**31) <= value < 2**31:
        raise ValueError(f"Java int overflow: {text!r}")
    return value


def _java_bool(text: str) -> bool:
    """`Boolean.valueOf`: true only for 'true' in any case."""
    return text.lower() == "true"


def _java_round(v: float) -> int:
    """`Math.round(double)` since Java 7: nearest integer, ties toward +infinity, no 0.49999 slip."""
    f = math.floor(v)
    # v - floor(v) is exact for doubles, unlike v + 0.5.
    return f + 1 if v - f >= 0.5 else f


def _f32(v: float) -> float:
    """Round a double to the nearest float32, as a Java `(float)` cast or float operation does."""
    narrowed: float = struct.unpack("f", struct.pack("f", v))[0]
    return narrowed


def _round_f32(v: float) -> int:
    """`Math.round(float)`: v is already a float32 value, so v + 0.5 is exact in a double."""
    return math.floor(v + 0.5)


# -- the grid ----------------------------------------------------------------------------
class VassalHexGrid:
    """VASSAL 3.7's point <-> hex-name arithmetic for one board, from attribute strings only."""

    def __init__(
        self,
        hex_grid: Mapping[str, str],
        numbering: Mapping[str, str],
        board_size: tuple[int, int],
    ) -> None:
        self.width, self.height = board_size
        # HexGrid
        self.x0 = _java_int(hex_grid.get("x0", "0"))
        self.y0 = _java_int(hex_grid.get("y0", "32"))
        self.sideways = _java_bool(hex_grid.get("sideways", "false"))
        self.snap_enabled = _java_bool(hex_grid.get("snapTo", "true"))
        self.edges_legal = _java_bool(hex_grid.get("edgesLegal", "false"))
        self.corners_legal = _java_bool(hex_grid.get("cornersLegal", "false"))
        self.snap_scale = _java_int(hex_grid.get("snapscale", "0"))
        # setAttribute("dy") recomputes dx when dx still holds its default; attributes are
        # applied alphabetically (vassal-format.md 1.4), so an explicit dx is set first.
        self.dx = DEFAULT_DX
        self.dy = DEFAULT_DY
        if "dx" in hex_grid:
            self.dx = float(hex_grid["dx"])
        if "dy" in hex_grid:
            self.dy = float(hex_grid["dy"])
            if self.dx == DEFAULT_DX:
                self.dx = SQRT3_2 * self.dy
        # HexGridNumbering (RegularGridNumbering attributes plus stagger)
        self.first = numbering.get("first", "H")[0]
        self.sep = numbering.get("sep", "")
        self.h_type = numbering.get("hType", "N")[0]
        self.v_type = numbering.get("vType", "N")[0]
        self.h_leading = _java_int(numbering.get("hLeading", "1"))
        self.v_leading = _java_int(numbering.get("vLeading", "1"))
        self.h_off = _java_int(numbering.get("hOff", "1"))
        self.v_off = _java_int(numbering.get("vOff", "1"))
        self.h_descending = _java_bool(numbering.get("hDescend", "false"))
        self.v_descending = _java_bool(numbering.get("vDescend", "false"))
        self.stagger = _java_bool(numbering.get("stagger", "true"))
        self.location_format = numbering.get("locationFormat", f"${GRID_LOCATION}$")

    # -- frames ------------------------------------------------------------------------
    def _rotate_if_sideways(self, p: Point) -> Point:
        """HexGrid.rotateIfSideways: sideways grids do all their math with x and y swapped."""
        return (p[1], p[0]) if self.sideways else p

    @property
    def max_rows(self) -> int:
        """getMaxRows: the unrotated board height over dx (sic), rounded."""
        return math.floor(self.height / self.dx + 0.5)

    @property
    def max_columns(self) -> int:
        """getMaxColumns: the unrotated board width over dy (sic), rounded."""
        return math.floor(self.width / self.dy + 0.5)

    # -- point -> numbers --------------------------------------------------------------
    def raw_column(self, p: Point) -> int:
        """HexGrid.getRawColumn: the column of hex centres nearest the point, from 0 at x0."""
        x, _ = self._rotate_if_sideways(p)
        return math.floor((x - self.x0) / self.dx + 0.5)

    def raw_row(self, p: Point) -> int:
        """HexGrid.getRawRow: rectangle rounding along the column; odd columns sit dy/2 lower."""
        x, y = self._rotate_if_sideways(p)
        nx = _java_round((x - self.x0) / self.dx)
        if nx % 2 == 0:
            return _java_round((y - self.y0) / self.dy)
        return _java_round((y - self.y0 - self.dy / 2) / self.dy)

    def column(self, p: Point) -> int:
        """HexGridNumbering.getColumn: raw column, flipped by the board size when descending."""
        x = self.raw_column(p)
        if self.v_descending and self.sideways:
            x = self.max_rows - x
        if self.h_descending and not self.sideways:
            x = self.max_columns - x
        return x

    def row(self, p: Point) -> int:
        """HexGridNumbering.getRow: raw row, flipped when descending, then staggered."""
        ny = self.raw_row(p)
        if self.v_descending and not self.sideways:
            ny = self.max_rows - ny
        if self.h_descending and self.sideways:
            ny = self.max_columns - ny
        if self.stagger and self.raw_column(p) % 2 != 0:
            descending = self.h_descending if self.sideways else self.v_descending
            ny += -1 if descending else 1
        return ny

    # -- names ---------------------------------------------------------------------------
    @staticmethod
    def part_name(n: int, kind: str, leading: int) -> str:
        """RegularGridNumbering.getName(int, char, int): one numbered part of a name."""
        text = "-" if n < 0 else ""
        n = abs(n)
        if kind == "A":
            # A..Z, then AA, BB, ...: the letter repeats once per 26.
            while True:
                text += ALPHABET[n % 26]
                n -= 26
                if n < 0:
                    return text
        # One zero per power of ten above n, testing 10^leading then counting leading down.
        while leading > 0 and n < 10.0**leading:
            leading -= 1
            text += "0"
        return text + str(n)

    def name(self, row: int, column: int) -> str:
        """RegularGridNumbering.getName(row, column): the $gridLocation$ text."""
        row_name = self.part_name(row + self.v_off, self.v_type, self.v_leading)
        column_name = self.part_name(column + self.h_off, self.h_type, self.h_leading)
        if self.first == "H":
            return column_name + self.sep + row_name
        return row_name + self.sep + column_name

    def _format_tokens(self) -> list[str]:
        """SequenceEncoder.Decoder(locationFormat, '$') tokens; escapes are not modelled."""
        if "\\$" in self.location_format:
            raise ValueError("locationFormat with an escaped '$' is outside this model")
        return self.location_format.split("$")

    def location_name(self, p: Point) -> str:
        """RegularGridNumbering.locationName: the hex name VASSAL reports for a board point."""
        row, column = self.row(p), self.column(p)
        values = {
            GRID_LOCATION: self.name(row, column),
            ROW: self.part_name(row + self.v_off, self.v_type, self.v_leading),
            COLUMN: self.part_name(column + self.h_off, self.h_type, self.h_leading),
        }
        tokens = self._format_tokens()
        if len(tokens) % 2 == 0:
            raise ValueError("locationFormat with an unpaired '$' is outside this model")
        out: list[str] = []
        for k, token in enumerate(tokens):
            if k % 2 == 0:
                out.append(token)
            elif token in values:
                out.append(values[token])
            else:
                raise ValueError(f"property ${token}$ is outside this model")
        return "".join(out)

    # -- name -> point -------------------------------------------------------------------
    @staticmethod
    def _matching_pattern(kind: str, leading: int) -> str:
        """RegularGridNumbering.getMatchingPattern: at least leading+1 digits, or one letter run."""
        if kind == "A":
            return ALPHABETIC_MATCH
        return "-?[0-9]{" + str(leading + 1) + ",}"

    @staticmethod
    def _parse_part(text: str, kind: str) -> int:
        """RegularGridNumbering.parseName: numeric via Integer.parseInt, alpha as 26*(len-1)+letter."""
        if kind != "A":
            return _java_int(text)
        negative = text.startswith("-")
        index = 1 if negative else 0
        value = 0
        while index < len(text) and text[index].isupper():
            value += 26 if index < len(text) - 1 else ALPHABET.index(text[index])
            index += 1
        return -value if negative else value

    def _location_regex(self) -> tuple[re.Pattern[str], int, int]:
        """The regex getLocation builds from locationFormat, with its column and row groups."""
        tokens = self._format_tokens()
        regex = ""
        column_group = row_group = groups = 0
        h_part = "(" + self._matching_pattern(self.h_type, self.h_leading) + ")"
        v_part = "(" + self._matching_pattern(self.v_type, self.v_leading) + ")"
        for k, token in enumerate(tokens):
            if not token:
                continue
            is_property = k % 2 == 1
            if not is_property or k == len(tokens) - 1:
                regex += re.escape(token)
            elif token == GRID_LOCATION:
                # Pattern.quote("") matches nothing extra, so the H/V branches' different
                # handling of an empty separator comes to the same regex.
                if self.first == "H":
                    regex += h_part + re.escape(self.sep) + v_part
                    column_group, row_group = groups + 1, groups + 2
                else:
                    regex += v_part + re.escape(self.sep) + h_part
                    row_group, column_group = groups + 1, groups + 2
                groups += 2
            elif token == ROW:
                regex += v_part
                groups += 1
                row_group = groups
            elif token == COLUMN:
                regex += h_part
                groups += 1
                column_group = groups
            # Any other property name adds nothing to the regex, as in Java.
        if not regex or column_group == 0 or row_group == 0:
            raise BadCoords(f"locationFormat {self.location_format!r} names no row and column")
        return re.compile(regex), column_group, row_group

    def center_point(self, column: int, row: int) -> Point:
        """HexGridNumbering.getCenterPoint(col, row) for 0-based numbers (offsets removed)."""
        if self.stagger and column % 2 != 0:
            descending = self.h_descending if self.sideways else self.v_descending
            row += 1 if descending else -1
        if self.sideways:
            if self.v_descending:
                column = self.max_rows - column
            if self.h_descending:
                row = self.max_columns - row
        else:
            if self.h_descending:
                column = self.max_columns - column
            if self.v_descending:
                row = self.max_rows - row
        x = math.trunc(column * self.dx) + self.x0
        if column % 2 == 0:
            y = math.trunc(row * self.dy)
        else:
            y = math.trunc(row * self.dy + self.dy / 2)
        return self._rotate_if_sideways((x, y + self.y0))

    def location(self, name: str) -> Point:
        """RegularGridNumbering.getLocation: the board point a hex name stands for."""
        pattern, column_group, row_group = self._location_regex()
        # Matcher.matches() is a whole-string match.
        m = pattern.fullmatch(name)
        if m is None:
            raise BadCoords(f"{name!r} does not match {pattern.pattern!r}")
        row = self._parse_part(m.group(row_group), self.v_type)
        column = self._parse_part(m.group(column_group), self.h_type)
        return self.center_point(column - self.h_off, row - self.v_off)

    # -- snap ----------------------------------------------------------------------------
    def _center_from_raw_index(self, nx: int, ny: int) -> Point:
        """HexGrid.hexPointCenterFromRawIndex (rotated frame): note trunc(dy/2), not dy/2."""
        x = math.trunc(self.dx * nx + self.x0)
        if nx % 2 == 0:
            y = math.trunc(self.dy * ny + self.y0)
        else:
            y = math.trunc(self.dy * ny + math.trunc(self.dy / 2) + self.y0)
        return x, y

    def hex_outline(self, cx: int, cy: int) -> list[Point]:
        """HexGrid.getSingleHexShape (rotated frame, not reversed): float32 corners, +1 right/down."""
        x, y = _f32(float(cx)), _f32(float(cy))
        delta_x, delta_y = _f32(self.dx), _f32(self.dy)
        r = _f32(_f32(2.0 * delta_x) / 3.0)
        half_r = _f32(0.5 * r)
        half_dy = _f32(0.5 * delta_y)
        x_left, x_right = _f32(x - r), _f32(x + r)
        x2, x3 = _f32(x - half_r), _f32(x + half_r)
        y_top, y_bottom = _f32(y - half_dy), _f32(y + half_dy)
        return [
            (_round_f32(x_left), _round_f32(y)),
            (_round_f32(x2), _round_f32(y_top)),
            (_round_f32(x3) + 1, _round_f32(y_top)),
            (_round_f32(x_right) + 1, _round_f32(y)),
            (_round_f32(x3) + 1, _round_f32(y_bottom) + 1),
            (_round_f32(x2), _round_f32(y_bottom) + 1),
        ]

    @staticmethod
    def area_contains(outline: list[Point], x: float, y: float) -> bool:
        """java.awt.geom.Area(polygon).contains(x, y): bounds check, then rightward crossings."""
        xs = [px for px, _ in outline]
        ys = [py for _, py in outline]
        # Rectangle2D.contains: half-open on the right and bottom.
        if not (min(xs) <= x < max(xs) and min(ys) <= y < max(ys)):
            return False
        crossings = 0
        for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1]):
            if ay == by:
                continue  # Area drops horizontal edges
            # Order1 keeps its top end first.
            (x0, y0), (x1, y1) = ((ax, ay), (bx, by)) if ay < by else ((bx, by), (ax, ay))
            if y0 <= y < y1:
                if x0 == x1 or y <= y0:
                    x_at_y: float = x0
                else:
                    x_at_y = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                # Curve.crossingsFor
                if x < max(x0, x1) and (x < min(x0, x1) or x < x_at_y):
                    crossings += 1
        return crossings % 2 == 1

    def _hex_point(self, x: int, y: int) -> Point:
        """HexGrid.hexPoint (rotated frame): rectangle guess, then the outline of it and 4 neighbours."""
        nx = math.floor((x - self.x0 + self.dx / 2) / self.dx)
        if nx % 2 == 0:
            ny = math.floor((y - self.y0 + self.dy / 2) / self.dy)
        else:
            ny = math.floor((y - self.y0) / self.dy)
        first = self._center_from_raw_index(nx, ny)
        if self.area_contains(self.hex_outline(*first), x, y):
            return first
        offsets = ((-1, -1), (-1, 0), (1, -1), (1, 0)) if nx % 2 == 0 else ((-1, 0), (-1, 1), (1, 0), (1, 1))
        for ox, oy in offsets:
            c = self._center_from_raw_index(nx + ox, ny + oy)
            if self.area_contains(self.hex_outline(*c), x, y):
                return c
        # In no outline (a point on a rounded edge or corner): VASSAL keeps the first guess.
        return first

    def snap_to_hex(self, p: Point) -> Point:
        """HexGrid.snapToHex: the centre a piece dropped at p lands on (board coordinates)."""
        if self.snap_scale != 0:
            raise ValueError("snapscale > 0 is outside this model")
        x, y = self._rotate_if_sideways(p)
        return self._rotate_if_sideways(self._hex_point(x, y))

    def snap_to(self, p: Point) -> Point:
        """HexGrid.snapTo for grids that snap to centres only (what our modules use)."""
        if not self.snap_enabled:
            return p
        if self.edges_legal or self.corners_legal:
            raise ValueError("edge and corner snapping are outside this model")
        return self.snap_to_hex(p)
