"""A cold load's shortcuts (issue 30, item 1) give what the longer ways gave: CSV rows read straight to their models,
the nesting of a TOML file measured by the regex engine, the cross-checks' membership tests."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame import datafiles
from wargame.datafiles import load_csv
from wargame.errors import DataError

from test_validation import CSV_CELLS, CSV_MODELS, _files

ROOT = Path(__file__).resolve().parents[1]


def _loaded(path: Path, model: type) -> tuple[str, str, list[dict[str, str]], dict[int, frozenset[str]]]:
    """Everything load_csv gives: its rows, its errors, the cells of the rows it refused and the columns stated."""
    failed: list[dict[str, str]] = []
    stated: dict[int, frozenset[str]] = {}
    rows, errors = load_csv(path, model, failed, stated)
    return repr(rows), "\n".join(str(e) for e in errors), failed, stated


@pytest.mark.parametrize("path", _files(".csv"), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_rows_read_straight_to_their_models_as_through_a_dict(path: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundled CSV file, and a copy with a few of its rows repeated with each cell swapped for each kind of text
    or emptied: the rows read straight to their models (`_row_reader`) are the rows, errors, refused cells and
    stated columns of the vouching of each row's dict, which pydantic's agreement is tested against."""
    model = CSV_MODELS[path.name]
    lines = path.read_text(encoding="utf-8").splitlines()
    data = [n for n, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    header = lines[data[0]].split(",")
    variants = []
    for n in random.Random(path.name).sample(data[1:], min(len(data) - 1, 3)):
        cells = lines[n].split(",")
        if '"' in lines[n] or len(cells) != len(header):
            continue
        for column in range(len(header)):
            for cell in [*CSV_CELLS, "", "  "]:
                variants.append(",".join([*cells[:column], cell, *cells[column + 1:]]))
    copy = tmp_path / path.name
    copy.write_text("\n".join([*lines, *variants]) + "\n", encoding="utf-8")
    assert variants
    for source in (path, copy):
        straight = _loaded(source, model)
        monkeypatch.setattr(datafiles, "_row_reader", lambda *args: None)
        through_a_dict = _loaded(source, model)
        monkeypatch.undo()
        assert straight == through_a_dict
    assert straight[1] and straight[0] != "[]"  # the copy has refused rows and read ones


def test_a_bundled_files_rows_are_read_straight() -> None:
    """Every bundled CSV model's rows take the short way (a model it could not take would be read row by row through
    a dict, as fast as before this shortcut and no faster)."""
    for path in _files(".csv"):
        model = CSV_MODELS[path.name]
        header = next(line for line in path.read_text(encoding="utf-8").splitlines()
                      if line.strip() and not line.startswith("#")).split(",")
        kinds = {name: datafiles._field_kind(model, name) for name in header}
        assert datafiles._row_reader(model, header, kinds) is not None, path


_OLD_STRING_OR_COMMENT = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def _deepest_place(text: str, deepest: int) -> int | None:
    """The line of the first bracket nested deeper than `deepest`, as the loader found it before the shortcut:
    strings and comments blanked to their newlines, then every bracket and newline walked in Python."""
    bare = _OLD_STRING_OR_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
    depth, line = 0, 1
    for m in re.finditer(r"[\[\]{}\n]", bare):
        char = m.group()
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > deepest:
                return line
        else:
            depth = max(0, depth - 1)
    return None


_PIECES = ["[", "]", "{", "}", "[", "[", "\n", "x = ", '"a[b"', '"c]\\"]"', "'[['", "'''[\n]'''", '"""{\n{"""',
           "# [[ {\n", "#", '"', "'", "\\", "1", ","]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=80), st.integers(0, 6))
def test_the_nesting_refused_is_the_nesting_the_loader_refused(pieces: list[str], deepest: int) -> None:
    """Brackets, braces, strings of every TOML kind (holding brackets, newlines and escaped quotes), comments and
    stray quotes: a text is refused exactly when the Python walk refused it, on the same line."""
    text = "".join(pieces)
    expected = _deepest_place(text, deepest)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(datafiles, "MAX_TOML_DEPTH", deepest)
            datafiles._refuse_deep_nesting(text, Path("t.toml"))
    except DataError as e:
        assert e.place is not None and e.place.line == expected, text
        assert f"nested more than {deepest} deep" in e.message
    else:
        assert expected is None, text


def test_a_deep_array_is_placed_on_its_line(tmp_path: Path) -> None:
    """Brackets in strings and comments above do not count; the refusal names the line where the 33rd level opens."""
    text = 'a = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n# {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n' + \
        "b = " + "[" * 20 + "\n" + "[" * 20 + "1" + "]" * 40 + "\n"
    with pytest.raises(DataError) as refused:
        datafiles._refuse_deep_nesting(text, tmp_path / "x.toml")
    assert refused.value.place is not None and refused.value.place.line == 4
    datafiles._refuse_deep_nesting(text.replace("[" * 20 + "1", "[" * 12 + "1"), tmp_path / "x.toml")


def test_a_text_a_file_repeats_is_one_object(tmp_path: Path) -> None:
    """The texts and tuples of texts a file repeats are one object each (the kept game pickles each once); numbers
    are never merged with equal numbers of another type."""
    from wargame.models import HexRecord, Unit

    hexes = ROOT / "maps" / "onslaught" / "hexes.csv"
    rows, errors = load_csv(hexes, HexRecord)
    assert not errors and len(rows) > 1000
    by_value: dict[object, set[int]] = {}
    for _, record in rows:
        by_value.setdefault(record.source, set()).add(id(record.source))
        by_value.setdefault(record.terrain, set()).add(id(record.terrain))
    assert all(len(ids) == 1 for ids in by_value.values())
    assert max(sum(1 for _, r in rows if r.source == value) for value in by_value) > 500
    units, errors = load_csv(ROOT / "counters" / "onslaught" / "units.csv", Unit)
    assert not errors
    for _, unit in units:
        assert type(unit.steps) is int and all(type(v) is int for face in (unit.full, unit.reduced or ()) for v in face)
