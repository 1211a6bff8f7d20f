"""A map's hex grid: printed labels <-> offset (column, row) <-> axial `Hex`.

Conventions (one description per map, `GridSpec`):
- flat-topped hexes stand in vertical columns; pointy-topped hexes lie in horizontal rows;
- `shifted` names the label parity of the columns (flat) drawn half a hex lower, or of the
  rows (pointy) drawn half a hex to the right;
- column numbers grow left-to-right (`ascending`) or right-to-left; row numbers grow
  top-to-bottom (`ascending`) or bottom-to-top;
- a label is the column then the row number (or the reverse), zero-padded to fixed widths.
Axial coordinates come from the visual position (i from the left, j from the top), so
directions keep their screen meaning whichever way the numbers run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from typing import Annotated, Literal

from wargame.constraints import Ge, Le, Model, Pattern, RefusedAt
from wargame.errors import GridError, did_you_mean
from wargame.hexes import DIRECTIONS, Hex, Hexside

LOOKALIKE_DIGITS = str.maketrans("OoIl", "0011")
"""Letters typed for the digits they look like, read back as those digits for a suggestion."""

Orientation = Literal["flat", "pointy"]

# Direction names on the screen (north = top of the map image), indexed like hexes.DIRECTIONS.
DIRECTION_NAMES: dict[str, tuple[str, ...]] = {
    "flat": ("SE", "NE", "N", "NW", "SW", "S"),
    "pointy": ("E", "NE", "NW", "W", "SW", "SE"),
}


class LabelFormat(Model):
    """How a hex's printed label is written."""

    column_digits: Annotated[int, Ge(1), Le(6)] = 2
    row_digits: Annotated[int, Ge(1), Le(6)] = 2
    # Digits would make labels ambiguous; '-' and '/' write hexsides ('0101-0102', '0101/N').
    separator: Annotated[str, Pattern(r"^[^0-9/-]{0,3}$")] = ""
    order: Literal["column-row", "row-column"] = "column-row"


class GridSpec(Model):
    """The description of one map's hex grid, as printed."""

    orientation: Orientation
    columns: Annotated[int, Ge(1), Le(999)]
    rows: Annotated[int, Ge(1), Le(999)]
    first_column: Annotated[int, Ge(0)] = 1
    first_row: Annotated[int, Ge(0)] = 1
    shifted: Literal["odd", "even"] = "even"
    column_numbers: Literal["ascending", "descending"] = "ascending"
    row_numbers: Literal["ascending", "descending"] = "ascending"
    label: LabelFormat = LabelFormat()

    def __post_init__(self) -> None:
        last_column = self.first_column + self.columns - 1
        last_row = self.first_row + self.rows - 1
        if not self.label.separator and (
            len(str(last_column)) > self.label.column_digits
            or len(str(last_row)) > self.label.row_digits
        ):
            raise RefusedAt(  # at [grid.label], where the digits are given (at [grid] when they are not)
                f"labels need a separator or more digits: column {last_column} or row "
                f"{last_row} is wider than {self.label.column_digits}/{self.label.row_digits} digits", "label"
            )


class Grid:
    """Conversions between labels, offset numbers and hexes for every hex of one map."""

    def __init__(self, spec: GridSpec) -> None:
        self.spec = spec
        flat = spec.orientation == "flat"
        # p = 1 when the visual line 0 (column for flat, row for pointy) is the shifted one.
        first_line_number = (
            (spec.first_column if spec.column_numbers == "ascending" else spec.first_column + spec.columns - 1)
            if flat
            else (spec.first_row if spec.row_numbers == "ascending" else spec.first_row + spec.rows - 1)
        )
        shifted_parity = 1 if spec.shifted == "odd" else 0
        self._first_line_shifted = first_line_number % 2 == shifted_parity
        self._p = 1 if self._first_line_shifted else 0
        self._flat = flat
        self._by_label: dict[str, Hex] = {}
        self._by_hex: dict[Hex, tuple[int, int]] = {}
        self._label_by_hex: dict[Hex, str] = {}
        # A column's number and text hang on its visual column alone, a row's on its visual row: each written once,
        # not once per hex (a grid is built by every cold load).
        columns = [self._numbers_of_visual(i, 0)[0] for i in range(spec.columns)]
        rows = [self._numbers_of_visual(0, j)[1] for j in range(spec.rows)]
        fmt = spec.label
        column_texts = [f"{column:0{fmt.column_digits}d}" for column in columns]
        row_texts = [f"{row:0{fmt.row_digits}d}" for row in rows]
        for i, (column, column_text) in enumerate(zip(columns, column_texts)):
            for j, (row, row_text) in enumerate(zip(rows, row_texts)):
                h = self.hex_at_visual(i, j)
                self._by_hex[h] = (column, row)
                label = self._joined(column_text, row_text)
                self._by_label[label] = h
                self._label_by_hex[h] = label
        sep = re.escape(spec.label.separator)
        if spec.label.separator:
            pattern = rf"^([0-9]{{1,6}}){sep}([0-9]{{1,6}})$"
        elif spec.label.order == "column-row":
            pattern = rf"^([0-9]{{{spec.label.column_digits}}})([0-9]{{{spec.label.row_digits}}})$"
        else:
            pattern = rf"^([0-9]{{{spec.label.row_digits}}})([0-9]{{{spec.label.column_digits}}})$"
        self._label_re = re.compile(pattern)

    # -- visual position <-> axial ------------------------------------------------------
    def hex_at_visual(self, i: int, j: int) -> Hex:
        """The hex at visual column i (from the left) and row j (from the top)."""
        if self._flat:
            return Hex(i, j - (i + self._p) // 2)
        return Hex(i - (j + self._p) // 2, j)

    def visual_of(self, h: Hex) -> tuple[int, int]:
        """Visual (column from the left, row from the top) of a hex, on the map or not."""
        if self._flat:
            return h.q, h.r + (h.q + self._p) // 2
        return h.q + (h.r + self._p) // 2, h.r

    def is_shifted(self, h: Hex) -> bool:
        """True if the hex's column (flat) or row (pointy) is drawn half a hex lower/right."""
        i, j = self.visual_of(h)
        return ((i if self._flat else j) + self._p) % 2 == 1

    def _numbers_of_visual(self, i: int, j: int) -> tuple[int, int]:
        s = self.spec
        column = s.first_column + i if s.column_numbers == "ascending" else s.first_column + s.columns - 1 - i
        row = s.first_row + j if s.row_numbers == "ascending" else s.first_row + s.rows - 1 - j
        return column, row

    def _visual_of_numbers(self, column: int, row: int) -> tuple[int, int]:
        s = self.spec
        i = column - s.first_column if s.column_numbers == "ascending" else s.first_column + s.columns - 1 - column
        j = row - s.first_row if s.row_numbers == "ascending" else s.first_row + s.rows - 1 - row
        return i, j

    # -- offset numbers ----------------------------------------------------------------
    def numbers_of(self, h: Hex) -> tuple[int, int]:
        """Printed (column, row) numbers of a hex on the map."""
        try:
            return self._by_hex[h]
        except KeyError:
            raise GridError(f"hex {tuple(h)} is not on the map") from None

    def hex_at(self, column: int, row: int) -> Hex:
        """The hex with printed column and row numbers; GridError if off the map."""
        h = self.hex_at_visual(*self._visual_of_numbers(column, row))
        if h not in self._by_hex:
            raise GridError(
                f"column {column}, row {row} is off the map (columns {self.spec.first_column}-"
                f"{self.spec.first_column + self.spec.columns - 1}, rows {self.spec.first_row}-"
                f"{self.spec.first_row + self.spec.rows - 1})"
            )
        return h

    # -- labels --------------------------------------------------------------------------
    def format_label(self, column: int, row: int) -> str:
        """Write printed numbers as a label (no check that the hex is on the map)."""
        fmt = self.spec.label
        return self._joined(f"{column:0{fmt.column_digits}d}", f"{row:0{fmt.row_digits}d}")

    def _joined(self, column: str, row: str) -> str:
        """A label from its column's and row's texts, in the map's order and with its separator."""
        fmt = self.spec.label
        return column + fmt.separator + row if fmt.order == "column-row" else row + fmt.separator + column

    def label_of(self, h: Hex) -> str:
        """The printed label of a hex on the map."""
        label = self._label_by_hex.get(h)
        if label is None:
            raise GridError(f"hex {tuple(h)} is not on the map")
        return label

    def parse_label(self, label: str) -> tuple[int, int]:
        """Printed (column, row) numbers of a label, on the map or not; GridError if malformed."""
        m = self._label_re.match(label.strip())
        if not m:
            example = self.format_label(self.spec.first_column, self.spec.first_row)
            # A letter typed for the digit it looks like (O for 0, I or l for 1) is the likeliest slip.
            digits = label.strip().translate(LOOKALIKE_DIGITS)
            meant = f" (did you mean {digits!r}?)" if digits != label.strip() and self.is_label(digits) else ""
            raise GridError(f"{label!r} is not a hex label of this map (expected e.g. {example!r}){meant}")
        a, b = int(m.group(1)), int(m.group(2))
        return (a, b) if self.spec.label.order == "column-row" else (b, a)

    def hex_of(self, label: str) -> Hex:
        """The hex a label names; GridError (with suggestions) if malformed or off the map."""
        h = self._by_label.get(label)
        if h is not None:
            return h
        column, row = self.parse_label(label)
        try:
            return self.hex_at(column, row)
        except GridError as e:
            # The nearest hex on the map is the likeliest meant, not the closest spelling.
            s = self.spec
            near_column = min(max(column, s.first_column), s.first_column + s.columns - 1)
            near_row = min(max(row, s.first_row), s.first_row + s.rows - 1)
            raise GridError(f"hex {label}: {e.message} (did you mean "
                            f"{self.format_label(near_column, near_row)!r}?)") from None

    def hex_beyond(self, label: str) -> Hex | None:
        """The hex a well-formed label names even off the map (a unit leaving it); None if malformed."""
        try:
            column, row = self.parse_label(label)
        except GridError:
            return None
        return self.hex_at_visual(*self._visual_of_numbers(column, row))

    def is_label(self, label: str) -> bool:
        """True if the label names a hex on this map."""
        return label in self._by_label

    # -- the whole map -----------------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self._by_hex

    def __len__(self) -> int:
        return len(self._by_hex)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, sorted by label."""
        return tuple(h for _, h in sorted(self._by_label.items()))

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Every label of the map, sorted."""
        return tuple(sorted(self._by_label))

    def neighbours_on_map(self, h: Hex) -> tuple[Hex, ...]:
        """Adjacent hexes that are on the map, in direction order (rules ask for them all the time)."""
        known = self.neighbour_map.get(h)
        return known if known is not None else tuple(n for n in h.neighbours() if n in self._by_hex)

    def step_hint(self, before: str, given: str, after: str | None = None) -> str:
        """' (did you mean X?)' for a path's hex that is not next to the hex before it, when a label one typo from
        it is (and is next to the hex after it too): a mistyped hex can be another real hex (0712 for 0721)."""
        if not (self.is_label(before) and (after is None or self.is_label(after))):
            return ""
        beside = set(self.neighbours_on_map(self.hex_of(before)))
        if after is not None:
            beside &= {*self.neighbours_on_map(self.hex_of(after)), self.hex_of(after)}
        return did_you_mean(given, [self.label_of(h) for h in beside])

    @cached_property
    def neighbour_map(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each map hex's adjacent hexes on the map, in direction order, for the whole map at once: the map's
        own `Hex` objects found by their coordinates (a `Hex` equals its tuple), none built per neighbour."""
        hexes: dict[tuple[int, int], Hex] = {h: h for h in self._by_hex}
        get = hexes.get
        return {h: tuple([n for dq, dr in DIRECTIONS if (n := get((h[0] + dq, h[1] + dr))) is not None])
                for h in hexes.values()}

    @cached_property
    def hexsides(self) -> tuple[Hexside, ...]:
        """Every hexside between two hexes of the map."""
        sides = {Hexside.between(h, n) for h in self._by_hex for n in h.neighbours() if n in self._by_hex}
        return tuple(sorted(sides))

    def is_edge(self, h: Hex) -> bool:
        """True if a hex of the map has a side on the map's edge."""
        return any(n not in self._by_hex for n in h.neighbours())

    # -- directions and hexsides --------------------------------------------------------
    @property
    def direction_names(self) -> tuple[str, ...]:
        """Screen names of directions 0-5 for this orientation."""
        return DIRECTION_NAMES[self.spec.orientation]

    def direction_of(self, name: str) -> int:
        """Direction index of a screen direction name such as 'NE'."""
        names = self.direction_names
        if name.upper() not in names:
            raise GridError(f"{name!r} is not a direction of a {self.spec.orientation}-topped grid"
                            f" (one of {', '.join(names)}){did_you_mean(name.upper(), names)}")
        return names.index(name.upper())

    def parse_hexside(self, text: str) -> Hexside:
        """A hexside written '2318-2319' (two adjacent hexes) or '2318/N' (hex and direction).

        The first hex must be on the map; the other may lie beyond its edge.
        """
        text = text.strip()
        if "/" in text:
            label, _, direction = text.partition("/")
            h = self.hex_of(label.strip())
            return h.side(self.direction_of(direction.strip()))
        if "-" in text:
            first, _, second = text.partition("-")
            a = self.hex_of(first.strip())
            b = self.hex_of(second.strip())
            if not a.is_adjacent(b):
                raise GridError(f"hexside {text!r}: hexes {first.strip()} and {second.strip()} are not adjacent")
            return Hexside.between(a, b)
        raise GridError(f"{text!r} is not a hexside (expected 'HEX-HEX' or 'HEX/DIRECTION')")

    def hexside_label(self, side: Hexside) -> str:
        """The canonical text of a hexside: 'A-B' for two map hexes, 'A/DIR' at the edge."""
        a, b = side
        if a in self._by_hex and b in self._by_hex:
            la, lb = self.label_of(a), self.label_of(b)
            return f"{la}-{lb}" if la < lb else f"{lb}-{la}"
        inner, outer = (a, b) if a in self._by_hex else (b, a)
        return f"{self.label_of(inner)}/{self.direction_names[inner.direction_to(outer)]}"
