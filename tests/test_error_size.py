"""A data file's errors stay small whatever it holds: values shown cut short, and one error for the elements of a
list (the fuzzing of 2026-12-06 found a cell of 70,000 bad numbers, its 140,000 characters shown in each of its
70,000 errors: gigabytes, then a MemoryError)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from wargame.datafiles import load_csv, load_toml
from wargame.errors import DataError, DataErrors
from wargame.models import MapManifest, Unit
from wargame.tables import CombatTable

ROOT = Path(__file__).resolve().parents[1]


def _units_with_full(tmp_path: Path, cell: str) -> Path:
    """Battle for Moscow's units.csv, its first unit's `full` cell written as given."""
    lines = (ROOT / "counters" / "moscow" / "units.csv").read_text(encoding="utf-8").split("\n")
    header = next(n for n, line in enumerate(lines) if line and not line.startswith("#"))
    cells = lines[header + 1].split(",")
    cells[lines[header].split(",").index("full")] = cell
    lines[header + 1] = ",".join(cells)
    path = tmp_path / "units.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_a_cell_of_many_bad_numbers_is_one_short_error(tmp_path: Path) -> None:
    """20,000 numbers that are not numbers in one cell: one error, its cell cut short, saying how many more; the
    memory it takes does not grow with the square of the cell (it took 0.8 GB, and 70,000 took the machine's)."""
    path = _units_with_full(tmp_path, "-".join(["x"] * 20_000))
    tracemalloc.start()
    try:
        _, errors = load_csv(path, Unit)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(errors) == 1
    message = str(errors[0])
    assert "(and 19,999 more in this cell)" in message and "(39,999 characters)" in message
    assert len(message) < 300
    assert peak < 60 * 1024 * 1024


def test_a_few_bad_numbers_are_one_error_saying_how_many_more(tmp_path: Path) -> None:
    """A short cell is shown whole, its first bad number named."""
    _, errors = load_csv(_units_with_full(tmp_path, "12-x-y"), Unit)
    assert [e.message for e in errors] == ["'x' in '12-x-y' is not a whole number (and 1 more in this cell)"]


def test_an_arrays_bad_values_are_one_error(tmp_path: Path) -> None:
    """Die rolls that are not whole numbers: one error at the array, saying how many more."""
    text = (ROOT / "counters" / "moscow" / "crt.toml").read_text(encoding="utf-8")
    path = tmp_path / "crt.toml"
    path.write_text(text.replace("die_rolls = [1, 2, 3, 4, 5, 6]", 'die_rolls = [1, "2", "3", 4, "5", 6]'),
                    encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_toml(path, CombatTable)
    errors = caught.value.errors if isinstance(caught.value, DataErrors) else [caught.value]
    assert len(errors) == 1
    assert errors[0].message.endswith("(and 2 more in this array)")
    assert errors[0].place is not None and errors[0].place.line == 9


def test_a_long_value_is_shown_cut_short(tmp_path: Path) -> None:
    """A 200,000-character value where a name is expected: the message shows its start and its length."""
    text = (ROOT / "maps" / "moscow" / "map.toml").read_text(encoding="utf-8")
    path = tmp_path / "map.toml"
    path.write_text(text.replace('default_terrain = "clear"', f'default_terrain = "{"?" * 200_000}"'),
                    encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_toml(path, MapManifest)
    message = str(caught.value)
    assert "(200,000 characters)" in message and len(message) < 400


def test_a_column_given_twice_is_refused_at_the_second(tmp_path: Path) -> None:
    """A header naming a column twice: the later cells would have replaced the earlier silently; refused at the
    second, once for each repeat."""
    header = (ROOT / "counters" / "moscow" / "units.csv").read_text(encoding="utf-8").split("\n")
    at = next(n for n, line in enumerate(header) if line.startswith("id,"))
    header[at] += ",note,note"
    path = tmp_path / "units.csv"
    path.write_text("\n".join(header), encoding="utf-8")
    _, errors = load_csv(path, Unit)
    count = header[at].count(",") + 1
    note = header[at].split(",").index("note") + 1
    assert [(e.message, e.place.column if e.place else None) for e in errors] == [
        (f"column 'note' given twice (columns {note} and {count - 1})", count - 1),
        (f"column 'note' given twice (columns {note} and {count})", count)]


def test_a_row_of_the_wrong_length_lists_the_columns_short() -> None:
    """The columns a row should have are listed short when there are many (the report would grow with the header
    times the rows)."""
    from wargame.errors import listed

    assert listed([f"c{i}" for i in range(5000)]).endswith("c10, c11, ... (5,000 in all)")
    assert listed(["id", "name"]) == "id, name"
