"""Printed labels <-> offset numbers <-> hexes, directions and hexsides, for many grid descriptions."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from wargame.errors import GridError
from wargame.grid import DIRECTION_NAMES, Grid, GridSpec, LabelFormat, Orientation
from wargame.hexes import Hex, Hexside
from wargame.layout import Layout

# The Onslaught map: 24 columns of 30 flat-topped hexes, even columns drawn half a hex lower.
ONSLAUGHT = GridSpec(orientation="flat", columns=24, rows=30, shifted="even")

SPECS: dict[str, GridSpec] = {
    "onslaught": ONSLAUGHT,
    "flat-odd-descending-columns-first-0": GridSpec(
        orientation="flat", columns=9, rows=7, first_column=0, first_row=0, shifted="odd",
        column_numbers="descending",
    ),
    "flat-descending-rows-separator": GridSpec(
        orientation="flat", columns=11, rows=8, first_column=5, first_row=3, row_numbers="descending",
        label=LabelFormat(separator="."),
    ),
    "flat-both-descending-row-column": GridSpec(
        orientation="flat", columns=6, rows=13, first_column=2, first_row=0, shifted="odd",
        column_numbers="descending", row_numbers="descending",
        label=LabelFormat(order="row-column", column_digits=2, row_digits=3),
    ),
    "pointy-even": GridSpec(orientation="pointy", columns=10, rows=12),
    "pointy-odd-row-column-first-0": GridSpec(
        orientation="pointy", columns=7, rows=9, first_row=0, shifted="odd",
        label=LabelFormat(order="row-column"),
    ),
    "pointy-descending-3-digits-separator": GridSpec(
        orientation="pointy", columns=12, rows=6, first_column=95, first_row=7,
        column_numbers="descending", row_numbers="descending",
        label=LabelFormat(separator=":", column_digits=3, row_digits=1),
    ),
}


@pytest.fixture(scope="module")
def onslaught() -> Grid:
    """The Onslaught map's grid."""
    return Grid(ONSLAUGHT)


def _columns(spec: GridSpec) -> range:
    return range(spec.first_column, spec.first_column + spec.columns)


def _rows(spec: GridSpec) -> range:
    return range(spec.first_row, spec.first_row + spec.rows)


# -- round trips --------------------------------------------------------------------------
def check_round_trips(grid: Grid) -> None:
    """Every label and every (column, row) converts to a hex and back unchanged."""
    spec = grid.spec
    assert len(grid) == spec.columns * spec.rows
    assert len(set(grid.labels)) == len(grid.labels) == len(grid)
    assert len(set(grid.hexes)) == len(grid)
    for label in grid.labels:
        h = grid.hex_of(label)
        assert h in grid
        assert grid.is_label(label)
        assert grid.label_of(h) == label
        assert grid.parse_label(label) == grid.numbers_of(h)
    for column in _columns(spec):
        for row in _rows(spec):
            h = grid.hex_at(column, row)
            assert grid.numbers_of(h) == (column, row)
            assert grid.label_of(h) == grid.format_label(column, row)
            assert grid.hex_of(grid.format_label(column, row)) == h
            assert grid.hex_at_visual(*grid.visual_of(h)) == h


def check_screen_positions(grid: Grid) -> None:
    """Numbers run the promised way on screen, and shifted lines are drawn half a hex over."""
    spec = grid.spec
    layout = Layout(spec.orientation, 10.0, (0.0, 0.0))
    line, across = layout.line_spacing_px, layout.across_flats_px
    column_step = 1 if spec.column_numbers == "ascending" else -1
    row_step = 1 if spec.row_numbers == "ascending" else -1
    shifted_parity = 1 if spec.shifted == "odd" else 0
    for column in _columns(spec):
        for row in _rows(spec):
            h = grid.hex_at(column, row)
            x, y = layout.centre(h)
            line_number = column if spec.orientation == "flat" else row
            assert grid.is_shifted(h) == (line_number % 2 == shifted_parity)
            if column + 1 in _columns(spec):
                nx, ny = layout.centre(grid.hex_at(column + 1, row))
                if spec.orientation == "flat":
                    assert nx - x == pytest.approx(column_step * line)
                    # The shifted one of two side-by-side hexes with the same row number is lower.
                    lower = 1 if grid.is_shifted(grid.hex_at(column + 1, row)) else -1
                    assert ny - y == pytest.approx(lower * across / 2)
                else:
                    assert (nx - x, ny - y) == pytest.approx((column_step * across, 0.0), abs=1e-9)
            if row + 1 in _rows(spec):
                nx, ny = layout.centre(grid.hex_at(column, row + 1))
                if spec.orientation == "flat":
                    assert (nx - x, ny - y) == pytest.approx((0.0, row_step * across), abs=1e-9)
                else:
                    assert ny - y == pytest.approx(row_step * line)
                    right = 1 if grid.is_shifted(grid.hex_at(column, row + 1)) else -1
                    assert nx - x == pytest.approx(right * across / 2)


@pytest.mark.parametrize("spec", SPECS.values(), ids=SPECS.keys())
def test_round_trips(spec: GridSpec) -> None:
    """label -> hex -> label and (column, row) -> hex -> numbers for every hex."""
    check_round_trips(Grid(spec))


@pytest.mark.parametrize("spec", SPECS.values(), ids=SPECS.keys())
def test_screen_positions(spec: GridSpec) -> None:
    """Column and row numbers grow in the promised screen directions; shifting matches the spec."""
    check_screen_positions(Grid(spec))


@st.composite
def grid_specs(draw: st.DrawFn) -> GridSpec:
    """Small grid descriptions with every option drawn."""
    columns = draw(st.integers(1, 9))
    rows = draw(st.integers(1, 9))
    first_column = draw(st.integers(0, 120))
    first_row = draw(st.integers(0, 120))
    separator = draw(st.sampled_from(["", ".", ":", " ", "x"]))
    last_column_width = len(str(first_column + columns - 1))
    last_row_width = len(str(first_row + rows - 1))
    low_c, low_r = (1, 1) if separator else (last_column_width, last_row_width)
    label = LabelFormat(
        column_digits=draw(st.integers(low_c, 4)),
        row_digits=draw(st.integers(low_r, 4)),
        separator=separator,
        order=draw(st.sampled_from(["column-row", "row-column"])),
    )
    return GridSpec(
        orientation=draw(st.sampled_from(["flat", "pointy"])),
        columns=columns,
        rows=rows,
        first_column=first_column,
        first_row=first_row,
        shifted=draw(st.sampled_from(["odd", "even"])),
        column_numbers=draw(st.sampled_from(["ascending", "descending"])),
        row_numbers=draw(st.sampled_from(["ascending", "descending"])),
        label=label,
    )


@settings(max_examples=60, deadline=None)
@given(grid_specs())
def test_round_trips_for_any_spec(spec: GridSpec) -> None:
    """Round trips and screen directions hold for drawn grid descriptions too."""
    grid = Grid(spec)
    check_round_trips(grid)
    check_screen_positions(grid)


def test_spec_refuses_labels_that_do_not_fit() -> None:
    """Without a separator, column 100 does not fit two digits."""
    with pytest.raises(ValueError, match="separator or more digits"):
        GridSpec(orientation="flat", columns=100, rows=10)


# -- golden facts of the Onslaught map -----------------------------------------------------
def test_onslaught_golden_hexes(onslaught: Grid) -> None:
    """Column 1 is visual line 0 and unshifted; even columns are shifted."""
    assert onslaught.hex_of("0101") == Hex(0, 0)
    assert onslaught.hex_of("0201") == Hex(1, 0)
    assert onslaught.hex_of("0608") == Hex(5, 5)
    assert onslaught.hex_of("0709") == Hex(6, 5)
    assert onslaught.is_shifted(onslaught.hex_of("0608"))
    assert onslaught.is_shifted(onslaught.hex_of("0201"))
    assert not onslaught.is_shifted(onslaught.hex_of("0709"))
    assert not onslaught.is_shifted(onslaught.hex_of("0101"))
    assert len(onslaught) == 720
    assert onslaught.labels[0] == "0101" and onslaught.labels[-1] == "2430"


def test_onslaught_golden_adjacency(onslaught: Grid) -> None:
    """Adjacencies read off the printed map (they fail if the shifted parity is wrong)."""
    h = onslaught.hex_of
    for a, b in [("0608", "0609"), ("0608", "0709"), ("0609", "0709")]:
        assert h(a).is_adjacent(h(b)), (a, b)
    assert h("1811").is_adjacent(h("1911"))
    beach = ["2318", "2319", "2219", "2120", "2121", "2122"]
    for a, b in zip(beach, beach[1:]):
        assert h(a).is_adjacent(h(b)), (a, b)
    # A shifted column's hex touches rows r and r+1 of the next column, not r-1.
    assert not h("0608").is_adjacent(h("0707"))
    assert not h("0608").is_adjacent(h("0710"))
    # An unshifted column's hex touches rows r-1 and r of the next column.
    assert h("0709").is_adjacent(h("0808"))
    assert not h("0709").is_adjacent(h("0810"))
    assert sorted(onslaught.label_of(n) for n in onslaught.neighbours_on_map(h("0608"))) == [
        "0508", "0509", "0607", "0609", "0708", "0709",
    ]
    assert sorted(onslaught.label_of(n) for n in onslaught.neighbours_on_map(h("0101"))) == [
        "0102", "0201",
    ]
    assert onslaught.is_edge(h("0101")) and onslaught.is_edge(h("2415"))
    assert not onslaught.is_edge(h("1215"))


def test_onslaught_golden_hexsides(onslaught: Grid) -> None:
    """Hexsides written with directions name the expected neighbours."""
    assert onslaught.hexside_label(onslaught.parse_hexside("2318/N")) == "2317-2318"
    assert onslaught.hexside_label(onslaught.parse_hexside("2318/S")) == "2318-2319"
    assert onslaught.hexside_label(onslaught.parse_hexside("2219/NE")) == "2219-2319"
    assert onslaught.hexside_label(onslaught.parse_hexside("2219/se")) == "2219-2320"
    assert onslaught.hexside_label(onslaught.parse_hexside("2319/SW")) == "2219-2319"
    assert onslaught.parse_hexside("2318-2319") == onslaught.parse_hexside("2319-2318")
    assert onslaught.parse_hexside(" 2318 - 2319 ") == Hexside.between(Hex(22, 7), Hex(22, 6))
    assert onslaught.hexside_label(onslaught.parse_hexside("0101/N")) == "0101/N"
    assert onslaught.hexside_label(onslaught.parse_hexside("0101/NW")) == "0101/NW"
    assert onslaught.hexside_label(onslaught.parse_hexside("2430/S")) == "2430/S"
    # 24 columns of 29 sides inside each column, 23 column pairs with 59 sides between them.
    assert len(onslaught.hexsides) == 24 * 29 + 23 * 59 == 2053


# -- directions ---------------------------------------------------------------------------
@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_direction_names_match_the_screen(orientation: Orientation) -> None:
    """A direction named N points up the screen, E to the right, and so on."""
    grid = Grid(GridSpec(orientation=orientation, columns=3, rows=3))
    layout = Layout(orientation, 10.0, (0.0, 0.0))
    assert grid.direction_names == DIRECTION_NAMES[orientation]
    x, y = layout.centre(Hex(0, 0))
    for d, name in enumerate(grid.direction_names):
        nx, ny = layout.centre(Hex(0, 0).neighbour(d))
        dx, dy = nx - x, ny - y
        assert (dy < -1e-9) == ("N" in name), name
        assert (dy > 1e-9) == ("S" in name), name
        assert (dx > 1e-9) == ("E" in name), name
        assert (dx < -1e-9) == ("W" in name), name
        assert grid.direction_of(name) == d
        assert grid.direction_of(name.lower()) == d


def test_unknown_direction(onslaught: Grid) -> None:
    """A pointy direction on a flat grid is refused, listing the valid names."""
    with pytest.raises(GridError, match="'E' is not a direction of a flat-topped grid") as info:
        onslaught.direction_of("E")
    assert "SE, NE, N, NW, SW, S" in str(info.value)


# -- hexside round trips ------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS.values(), ids=SPECS.keys())
def test_hexside_round_trips(spec: GridSpec) -> None:
    """Every inner hexside and every edge hexside formats and parses back to itself."""
    grid = Grid(spec)
    for side in grid.hexsides:
        assert side.a in grid and side.b in grid
        text = grid.hexside_label(side)
        assert grid.parse_hexside(text) == side
        first, second = text.split("-")
        assert first < second
        assert grid.parse_hexside(f"{second}-{first}") == side
    edge_sides = 0
    for h in grid.hexes:
        label = grid.label_of(h)
        for d, name in enumerate(grid.direction_names):
            side = grid.parse_hexside(f"{label}/{name}")
            assert side == h.side(d)
            text = grid.hexside_label(side)
            assert grid.parse_hexside(text) == side
            if h.neighbour(d) in grid:
                assert side in grid.hexsides
            else:
                edge_sides += 1
                assert text == f"{label}/{name}"
    assert edge_sides + 2 * len(grid.hexsides) == 6 * len(grid)


# -- errors -------------------------------------------------------------------------------
def test_off_map_labels(onslaught: Grid) -> None:
    """Labels and numbers off the map raise GridError naming the label and the map's range."""
    for label in ["0000", "2501", "0131", "0100", "9999"]:
        with pytest.raises(GridError, match="off the map") as info:
            onslaught.hex_of(label)
        assert label in str(info.value)
        assert "columns 1-24, rows 1-30" in str(info.value)
    with pytest.raises(GridError, match="column 25, row 1 is off the map"):
        onslaught.hex_at(25, 1)
    with pytest.raises(GridError, match="not on the map"):
        onslaught.numbers_of(Hex(-1, 0))
    with pytest.raises(GridError, match="not on the map"):
        onslaught.label_of(Hex(0, 30))
    assert not onslaught.is_label("2501")
    assert "2401" in str(pytest.raises(GridError, onslaught.hex_of, "2501").value)  # did you mean


@pytest.mark.parametrize("label", ["", "abc", "608", "06088", "06-08", "06.08", "0608a", "O608", "+608"])
def test_malformed_labels(onslaught: Grid, label: str) -> None:
    """Labels not written like the map's raise GridError with an example of the right form."""
    with pytest.raises(GridError, match="is not a hex label of this map") as info:
        onslaught.hex_of(label)
    assert "'0101'" in str(info.value)


def test_malformed_labels_with_separator() -> None:
    """A separated grid refuses labels without the separator and accepts unpadded numbers."""
    grid = Grid(SPECS["flat-descending-rows-separator"])
    assert grid.labels[0] == "05.03"
    assert grid.hex_of("5.3") == grid.hex_of("05.03")
    for label in ["0503", "05:03", "05.", ".03", "05.03.1"]:
        with pytest.raises(GridError, match="expected e.g. '05.03'"):
            grid.hex_of(label)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0608-0610", "not adjacent"),
        ("0608", "is not a hexside"),
        ("", "is not a hexside"),
        ("0608/Q", "not a direction"),
        ("0608/E", "not a direction"),
        ("9999/N", "off the map"),
        ("0608-9999", "off the map"),
        ("0608-abcd", "is not a hex label"),
    ],
)
def test_malformed_hexsides(onslaught: Grid, text: str, message: str) -> None:
    """Hexsides that are not adjacent pairs or hex/direction raise GridError saying why."""
    with pytest.raises(GridError, match=message):
        onslaught.parse_hexside(text)


def test_hexside_label_needs_a_map_hex(onslaught: Grid) -> None:
    """A hexside wholly off the map has no label."""
    with pytest.raises(GridError):
        onslaught.hexside_label(Hexside.between(Hex(-5, 0), Hex(-5, 1)))


JUNK_GRIDS = (Grid(ONSLAUGHT), Grid(SPECS["flat-descending-rows-separator"]))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789-/NSEWnsew .:x"), max_size=14) | st.text(max_size=14))
def test_junk_gives_grid_error(text: str) -> None:
    """Junk labels and hexsides give GridError or a hex of the map, never another exception."""
    for grid in JUNK_GRIDS:
        try:
            assert grid.hex_of(text) in grid
        except GridError:
            pass
        try:
            side = grid.parse_hexside(text)
            assert side.a in grid or side.b in grid
        except GridError:
            pass


# -- regressions --------------------------------------------------------------------------
@pytest.mark.parametrize("separator", ["-", "/", "0", "a-b", "...."])
def test_separator_cannot_clash_with_hexsides_or_digits(separator: str) -> None:
    """'-' and '/' write hexsides and digits write numbers, so neither may separate a label."""
    # Before the fix a '-' separator was accepted and '01-01-01-02' could not be parsed back. Checked where map.toml
    # is read: pydantic validates the plain dataclass.
    with pytest.raises(ValueError, match="separator"):
        TypeAdapter(LabelFormat).validate_python({"separator": separator})


@pytest.mark.parametrize("label", ["1" * 5000 + ".1", "1234567.1", "5.1234567"])
def test_overlong_numbers_in_separated_labels(label: str) -> None:
    """A label with an absurdly long number gives GridError (it once leaked int()'s ValueError)."""
    grid = Grid(SPECS["flat-descending-rows-separator"])
    with pytest.raises(GridError, match="is not a hex label"):
        grid.hex_of(label)


def test_onslaught_layout_column_order(onslaught: Grid) -> None:
    """On a flat ascending map the next column number is the next column to the right."""
    layout = Layout.for_grid(onslaught, 20.0, 10.0)
    for row in (1, 15, 30):
        xs = [layout.centre(onslaught.hex_at(c, row))[0] for c in range(1, 25)]
        assert xs == sorted(xs)
        assert all(math.isclose(b - a, 30.0) for a, b in zip(xs, xs[1:]))


def test_labels_take_ascii_digits_only() -> None:
    """Other scripts' digits are not hex labels."""
    grid = Grid(GridSpec(orientation="flat", columns=24, rows=30))
    with pytest.raises(GridError):
        grid.hex_of("\u0660\u0661\u0660\u0661")


def test_a_letter_for_a_digit_suggests_the_label() -> None:
    """A label with the letter O typed for a zero (or I, l for a one) suggests the label it looks like, when that is a
    hex of the map."""
    grid = Grid(GridSpec(orientation="flat", columns=24, rows=30))
    with pytest.raises(GridError, match=r"not a hex label of this map \(expected e.g. '0101'\) \(did you mean '0620'"):
        grid.hex_of("062O")
    with pytest.raises(GridError, match=r"did you mean '1201'\?"):
        grid.hex_of("l2O1")
    with pytest.raises(GridError, match=r"expected e.g. '0101'\)$"):
        grid.hex_of("3O31")  # column 30 is off this map: nothing to suggest


def test_off_map_label_suggests_the_nearest_hex() -> None:
    """An off-map label suggests the nearest hex on the map, not the closest spelling."""
    grid = Grid(GridSpec(orientation="flat", columns=24, rows=30))
    with pytest.raises(GridError, match=r"did you mean '0130'\?"):
        grid.hex_of("0131")
    with pytest.raises(GridError, match=r"did you mean '2401'\?"):
        grid.hex_of("2900")
