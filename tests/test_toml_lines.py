"""Errors placed on the line of the key they are about: the TOML key index (wargame/toml_lines.py) and the models'
own checks naming their key (RefusedAt)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomli
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.errors import DataError, DataErrors
from wargame.game import load_game
from wargame.toml_lines import TomlLines

ROOT = Path(__file__).resolve().parents[1]
BUNDLED_TOML = sorted(p for folder in ("maps", "counters") for p in (ROOT / folder).rglob("*.toml")
                      if "geodata" not in p.parts)


def _walk(value: object, path: tuple[str | int, ...]) -> list[tuple[tuple[str | int, ...], object]]:
    """Every key path of a parsed document with its value, tables and arrays included."""
    out: list[tuple[tuple[str | int, ...], object]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out += [((*path, key), item), *_walk(item, (*path, key))]
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += [((*path, index), item), *_walk(item, (*path, index))]
    return out


def _written(value: object) -> str:
    """A scalar as a TOML line would show it (enough of it to find on its line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value.split("\n")[0].split("\\")[0][:20]
    return str(value) if isinstance(value, int) else ""


@pytest.mark.parametrize("path", BUNDLED_TOML, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_key_of_a_bundled_file_is_on_its_own_line(path: Path) -> None:
    """Every key, table, array-of-tables element and array element of every bundled TOML file is found, on a
    line that writes it: a key's line names the key, an element of an array of tables is its `[[...]]` header, a
    scalar element's line holds the value."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = TomlLines(text)
    for key_path, value in _walk(tomli.loads(text), ()):
        assert key_path in found.at, key_path
        line = lines[found.at[key_path] - 1]
        last = key_path[-1]
        if isinstance(last, str):
            assert last in line, (key_path, line)
        elif isinstance(value, dict) and line.lstrip().startswith("[["):
            assert str(key_path[-2]) in line, (key_path, line)
        elif not isinstance(value, (dict, list)):
            assert _written(value) in line, (key_path, line)


TRICKY = '''\
# [[fake]] in a comment, key = 1
title = """
[not_a_table]
fake = 1
"""
literal = \'\'\'
[[nor_this]]
\'\'\'
"quoted.key" = 1
dotted.inner = 2
nested = [
    [1, 2],
    [
        3,
        "a ] , [ b",
    ],
]
points = [
    { x = 1, y = 2 },
    { x = 3, y = "}" },
]

[[army]]
name = "first"

[army.staff]
chief = "a"

[[army.corps]]
name = "I"

[[army.corps.division]]
name = "1st"

[[army.corps.division]]
name = "2nd"

[[army]]
name = "second"

[[army.corps]]
name = "II"
'''


def test_a_tricky_document_is_indexed_as_toml_reads_it() -> None:
    """Headers and keys inside multi-line strings are not keys, quoted and dotted keys are, arrays nest across
    lines, and nested arrays of tables and sub-tables of their elements are indexed by element."""
    found = TomlLines(TRICKY)
    assert "not_a_table" not in {p[0] for p in found.at} and ("fake",) not in found.at
    assert ("nor_this",) not in found.at
    expected: dict[tuple[str | int, ...], int] = {
        ("title",): 2, ("literal",): 6, ("quoted.key",): 9, ("dotted", "inner"): 10,
        ("nested",): 11, ("nested", 0): 12, ("nested", 0, 1): 12, ("nested", 1): 13, ("nested", 1, 0): 14,
        ("nested", 1, 1): 15, ("points", 0, "x"): 19, ("points", 1, "y"): 20,
        ("army", 0): 23, ("army", 0, "name"): 24, ("army", 0, "staff"): 26, ("army", 0, "staff", "chief"): 27,
        ("army", 0, "corps", 0): 29, ("army", 0, "corps", 0, "division", 0): 32,
        ("army", 0, "corps", 0, "division", 1, "name"): 36, ("army", 1, "name"): 39,
        ("army", 1, "corps", 0, "name"): 42,
    }
    assert {key: found.at.get(key) for key in expected} == expected
    # A key left out is placed at its table; one of no table at none.
    assert found.line_of(("army", 1, "corps", 0, "missing")) == 41
    assert found.line_of(("army", 0, "corps", 0, "division", 1, "name", 3)) == 36
    assert found.line_of(("nowhere",)) is None
    assert tomli.loads(TRICKY)["army"][0]["corps"][0]["division"][1]["name"] == "2nd"


@pytest.mark.parametrize("text", ["key = ", "[unclosed", "= 3", "a = [1, 2", 'b = "open', "[[x]]\n[[x.y", "{ a = 1"])
def test_text_the_reader_refuses_is_scanned_without_failing(text: str) -> None:
    """The index is built after the reader took the text, but never fails on text it refused."""
    TomlLines(text).line_of(("a",))


def _errors(data: Path, game: str) -> list[DataError]:
    with pytest.raises(DataError) as caught:
        load_game(data, game)
    return caught.value.errors if isinstance(caught.value, DataErrors) else [caught.value]


# (game, file, text as bundled, text written instead, words of the message, text on the line the error is put at)
CHECKS = [
    ("moscow", "maps/moscow/map.toml", "margin_px = 24.0", "margin_px = 1.0", "margin_px must be at least half",
     "margin_px = 1.0"),
    ("moscow", "maps/moscow/map.toml", "columns = 14", "columns = 140", "labels need a separator or more digits",
     "[grid.label]"),
    ("omaha", "maps/omaha/areas.toml", 'hexes = ["0705", "0604"', 'hexsides = ["0705-0604"]\nhexes = ["0705", "0604"',
     "either by hexes or by hexsides", "hexsides = "),
    ("moscow", "counters/moscow/game.toml", "first = 1\nlast = 7", "first = 9\nlast = 7", "first must not exceed last",
     "first = 9"),
    ("moscow", "counters/moscow/game.toml", "first_turn = 1", "first_turn = 9", "first_turn must not exceed",
     "first_turn = 9"),
    ("onslaught", "counters/onslaught/game.toml", 'captures = "German"', 'captures = "Germn"',
     "declare.captures: 'Germn' is not one of the sides", 'captures = "Germn"'),
    ("onslaught", "counters/onslaught/game.toml", 'declares = { bulge = "German" }', 'declares = { bulge = "Gmn" }',
     "declare.declares.bulge: 'Gmn'", "bulge"),
    ("moscow", "counters/moscow/game.toml", 'kind = "place"\nside = "German"\nhow = ["replace"]',
     'kind = "place"\nside = "Germn"\nhow = ["replace"]', "entries side 'Germn' is not 'any', 'phasing' or one of the sides (German, Soviet) (did you mean 'German'?)",
     'side = "Germn"'),
    ("moscow", "counters/moscow/game.toml", 'unit_types = ["panzer"]', 'unit_types = ["panzr"]',
     "entries unit type 'panzr'", "panzr"),
    ("moscow", "counters/moscow/game.toml", 'id = "combat"\nentry = "attack"',
     'id = "combat"\nroller = "Sovet"\nentry = "attack"', "roller 'Sovet'", 'roller = "Sovet"'),
    ("moscow", "counters/moscow/game.toml", 'id = "combat"\nentry = "attack"',
     'id = "combat"\noptional = "fog"\nentry = "attack"', "optional 'fog'", 'optional = "fog"'),
    ("omaha", "counters/omaha/game.toml", 'id = "german_setup"\nname = "German set-up, recorded in secret"\n',
     'id = "german_setup"\nbefore_first_turn = true\nname = "German set-up, recorded in secret"\n',
     "before_first_turn belongs to a top-level", "before_first_turn = true"),
    ("omaha", "counters/omaha/game.toml", 'player = "both"\nbefore_first_turn = true',
     'player = "each"\nbefore_first_turn = true', "not each player's turn", 'player = "each"'),
    ("omaha", "counters/omaha/game.toml", "menu = { target = ", "menu = { activate = \"x\", target = ",
     "menu text for 'activate'", "menu = {"),
    ("moscow", "counters/moscow/crt.toml", '    ["EX", "DR", "DR", "DR", "DRL", "DRL"],',
     '    ["EX", "DR", "DR", "DR", "DRL"],', "die 2: 5 results for 6 columns", '["EX", "DR", "DR", "DR", "DRL"]'),
    ("moscow", "counters/moscow/crt.toml", '    ["EX", "EX", "DR", "EX", "DRL", "DE"],',
     '    ["EX", "EX", "DR", "EX", "DRL", "XX"],', "result 'XX' is not in result_codes", '"XX"'),
    ("moscow", "counters/moscow/crt.toml", "\n[result_codes]",
     '\n[[stated]]\ncolumn = "2:1"\ndie = 3\nresult = "EX"\nsource = "8.0"\n\n[[stated]]\ncolumn = "2:1"\ndie = 4\n'
     'result = "DE"\nsource = "8.0"\n\n[result_codes]', "the table gives 'EX', 8.0 states 'DE'", 'result = "DE"'),
    ("omaha", "counters/omaha/crt.toml", 'cells = ["-5", "-4", "-3"', 'cells = ["-4", "-3"',
     "line clear: 11 cells for 12 columns", 'cells = ["-4"'),
    ("moscow", "counters/moscow/charts.toml", '    ["Railroad", "Soviet rail movement only", "No effect"],',
     '    ["Railroad", "Soviet rail movement only"],', "row 7 has 2 cells for 3 columns", '["Railroad"'),
    ("moscow", "counters/moscow/rules.toml", '[[section]]\nid = "3.0"', '[[section]]\nid = "2.0"',
     "section '2.0' is listed twice", 'id = "2.0"'),
    ("moscow", "counters/moscow/rules.toml", '[[combat.results]]\ncode = "DR"\n',
     '[[combat.results]]\ncode = "NE"\n', "code 'NE' is listed twice", 'code = "NE"'),
    # The cross-checks between files, placed on the key's line too (they were placed at the file).
    ("moscow", "maps/moscow/terrain.toml", 'id = "forest"', 'id = "clear"  # again', "terrain 'clear' defined twice",
     "# again"),
    ("moscow", "counters/moscow/game.toml", 'id = "soviet_eliminated"', 'id = "german_eliminated"  # again',
     "box 'german_eliminated' defined 2 times", "# again"),
    ("moscow", "counters/moscow/game.toml", 'kind = "eliminated"\nside = "Soviet"', 'kind = "eliminated"\nside = "Sovet"',
     "unknown side 'Sovet'", 'side = "Sovet"'),
    ("moscow", "counters/moscow/game.toml", 'first_player = "German"', 'first_player = "Grman"',
     "unknown side 'Grman'", 'first_player = "Grman"'),
    ("moscow", "counters/moscow/game.toml", 'kind = "turn"\nfirst = 1', 'kind = "turn"\nside = "Both"\nfirst = 1',
     "unknown side 'Both'", 'side = "Both"'),
    ("moscow", "counters/moscow/markers.toml", 'kind = "turn"\nsource', 'kind = "turn"\nside = "Neither"\nsource',
     "unknown side 'Neither'", 'side = "Neither"'),
    ("moscow", "maps/moscow/areas.toml", 'kind = "edge"\nside = "German"', 'kind = "edge"\nside = "Grman"',
     "unknown side 'Grman'", 'side = "Grman"'),
    ("moscow", "maps/moscow/areas.toml", 'hexes = ["0101", "0102"', 'hexes = ["0101", "0199"',
     "0199", 'hexes = ["0101", "0199"'),
    ("moscow", "maps/moscow/map.toml", 'default_terrain = "clear"', 'default_terrain = "clearr"',
     "unknown hex terrain 'clearr'", 'default_terrain = "clearr"'),
    ("onslaught", "counters/onslaught/parameters.toml", 'id = "activation_cost"', 'id = "stacking_limit"  # again',
     "parameter 'stacking_limit' defined 2 times", "# again"),
    # An id given twice where the data keep one table an id (these were accepted silently, one table lost).
    ("moscow", "counters/moscow/game.toml", 'id = "panzer_movement"', 'id = "german_replacement"  # again',
     "sequence 'german_replacement' defined 2 times", "# again"),
    ("omaha", "counters/omaha/game.toml", 'id = "amphibious_landings"', 'id = "german_setup"  # again',
     "sequence 'german_setup' defined 2 times", "# again"),
    ("omaha", "counters/omaha/game.toml", '[[roll]]\nid = "weather"\nentry = "roll"', '[[roll]]\nid = "bombardment"  # again\nentry = "roll"',
     "roll 'bombardment' defined 2 times", "# again"),
    ("moscow", "counters/moscow/charts.toml", 'id = "turn_record"', 'id = "terrain_effects"  # again',
     "chart 'terrain_effects' defined 2 times", "# again"),
    ("omaha", "counters/omaha/crt.toml", 'id = "marsh"', 'id = "clear"  # again', "CRT line 'clear' defined 2 times",
     "# again"),
    ("omaha", "maps/omaha/areas.toml", 'id = "boundary_douve"', 'id = "scenario_boundary"  # again',
     "line 'scenario_boundary' defined 2 times", "# again"),
    # rules.toml against the other files: each at its own key (the first line naming the key's last part before).
    ("moscow", "counters/moscow/rules.toml", 'terrain = "fortification"', 'terrain = "fortress"',
     "unknown terrain 'fortress'", 'terrain = "fortress"'),
    ("moscow", "counters/moscow/rules.toml", 'sides = ["Soviet"]\nsource = "7.0"', 'sides = ["Sovet"]\nsource = "7.0"',
     "unknown side 'Sovet'", 'sides = ["Sovet"]'),
    ("moscow", "counters/moscow/rules.toml", 'controls = ["Moscow"]', 'controls = ["Moskva"]',
     "unknown place of places.csv (or hex) 'Moskva'", 'controls = ["Moskva"]'),
    ("moscow", "counters/moscow/rules.toml", 'sources = { German = ["west_edge"]', 'sources = { German = ["westedge"]',
     "unknown area of areas.toml 'westedge'", "sources = {"),
    ("moscow", "counters/moscow/rules.toml", 'id = "rail_movement"', 'id = "rail_move"',
     "unknown phase of [[sequence]] 'rail_move'", 'id = "rail_move"'),
    ("moscow", "counters/moscow/rules.toml", 'initial_others = "Soviet"', 'initial_others = "Russia"',
     "unknown side 'Russia'", 'initial_others = "Russia"'),
    ("moscow", "counters/moscow/rules.toml", '[[combat.results]]\ncode = "NE"\nsource = "8.0"',
     '[[combat.results]]\ncode = "NE"\nsource = "8.5"', "combat.results NE: source '8.5' is not one of",
     'source = "8.5"'),
]


@pytest.mark.parametrize(("game", "file", "old", "new", "message", "on_line"), CHECKS,
                         ids=[f"{c[0]}-{c[4][:30]}" for c in CHECKS])
def test_a_models_own_check_is_placed_on_its_keys_line(data_copy: Path, game: str, file: str, old: str, new: str,
                                                       message: str, on_line: str) -> None:
    """Each check a model makes of itself names the key it refuses, and the error is put on that key's line (it
    was put at the table, or the file, before), in the check's own words."""
    path = data_copy / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    errors = [e for e in _errors(data_copy, game) if message in str(e)]
    assert len(errors) == 1, [str(e) for e in _errors(data_copy, game)]
    place = errors[0].place
    assert place is not None and place.line is not None
    assert on_line in path.read_text(encoding="utf-8").splitlines()[place.line - 1], str(errors[0])
    assert "Value error" not in str(errors[0])


def test_a_units_reduced_values_are_placed_at_their_cell(data_copy: Path) -> None:
    """A two-step unit without reduced values: its row's line and the `reduced` column."""
    path = data_copy / "counters" / "moscow" / "units.csv"
    text = path.read_text(encoding="utf-8")
    old = "ge-xxiv,XXIV Panzer Corps,German,german,panzer,mobile,corps,2,12-6,6-6,"
    path.write_text(text.replace(old, old.replace("12-6,6-6,", "12-6,,")), encoding="utf-8")
    errors = [e for e in _errors(data_copy, "moscow") if "needs reduced values" in str(e)]
    assert len(errors) == 1
    place = errors[0].place
    assert place is not None and place.line is not None
    header = next(line for line in text.splitlines() if line.startswith("id,"))
    assert place.column == header.split(",").index("reduced") + 1
    assert text.splitlines()[place.line - 1].startswith("ge-xxiv,")


# -- generated documents -------------------------------------------------------------------------------------------
KEYS = st.sampled_from(["a", "b", "id", "side", "x-y", "k_2", "quoted key", "dotted.key", "sequence", "entries"])
TEXTS = st.sampled_from(["plain", "[not] a table", "# not a comment", 'say "hi"', "k = 1", "a,b]", "{x}", "é", ""])
SCALARS = st.one_of(st.integers(-5, 99), st.booleans(), TEXTS)


def _key(name: str) -> str:
    """A key as TOML writes it: bare where it may be, else quoted."""
    return name if all(c.isalnum() or c in "_-" for c in name) and name else json.dumps(name)


def _scalar(value: object) -> str:
    """A scalar as TOML writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


@st.composite
def documents(draw: st.DrawFn, depth: int = 0) -> dict[str, object]:
    """A table: scalars, arrays of scalars, sub-tables and arrays of tables (not too deep)."""
    table: dict[str, object] = {}
    for name in draw(st.lists(KEYS, max_size=4, unique=True)):
        kind = draw(st.sampled_from(["scalar", "array", "table", "tables"] if depth < 2 else ["scalar", "array"]))
        if kind == "scalar":
            table[name] = draw(SCALARS)
        elif kind == "array":
            table[name] = draw(st.lists(st.integers(0, 9) | TEXTS, max_size=4))
        elif kind == "table":
            table[name] = draw(documents(depth + 1))
        else:
            table[name] = draw(st.lists(documents(depth + 1), min_size=1, max_size=3))
    return table


def _write(table: dict[str, object], path: tuple[str | int, ...], out: list[str],
           lines: dict[tuple[str | int, ...], int], data: st.DataObject) -> None:
    """A table's own keys, then its sub-tables and arrays of tables under their headers; each key path's line."""
    for name, value in table.items():
        if isinstance(value, dict) or (isinstance(value, list) and value and isinstance(value[0], dict)):
            continue
        at = (*path, name)
        lines[at] = len(out) + 1
        if isinstance(value, list):
            if data.draw(st.booleans()):  # one element a line
                out.append(f"{_key(name)} = [")
                for i, item in enumerate(value):
                    lines[(*at, i)] = len(out) + 1
                    out.append(f"    {_scalar(item)},  # [x] = 1")
                out.append("]")
            else:
                out.append(f"{_key(name)} = [{', '.join(_scalar(item) for item in value)}]")
                lines.update({(*at, i): lines[at] for i in range(len(value))})
        elif isinstance(value, str) and data.draw(st.booleans()):
            # A multi-line string whose lines look like a header and a key: not keys.
            table[name] = f"[fake]\nfake = 1\n{value}"
            out.extend([f'{_key(name)} = """', "[fake]", "fake = 1", f'{value}"""'])
        else:
            out.append(f"{_key(name)} = {_scalar(value)}")
    for name, value in table.items():
        header = ".".join(_key(str(p)) for p in (*path, name) if isinstance(p, str))
        if isinstance(value, dict):
            lines[(*path, name)] = len(out) + 1
            out.append(f"[{header}]")
            _write(value, (*path, name), out, lines, data)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                lines.setdefault((*path, name), len(out) + 1)
                lines[(*path, name, i)] = len(out) + 1
                out.append(f"[[{header}]]")
                _write(item, (*path, name, i), out, lines, data)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_generated_documents_keys_are_where_they_were_written(data: st.DataObject) -> None:
    """Documents of scalars, one-line and multi-line arrays, multi-line strings holding text like headers and keys,
    quoted keys, sub-tables and arrays of tables within arrays of tables: every key path's line is the one written."""
    table = data.draw(documents())
    out: list[str] = []
    lines: dict[tuple[str | int, ...], int] = {}
    _write(table, (), out, lines, data)
    text = "\n".join(out) + "\n"
    assert tomli.loads(text) == table
    found = TomlLines(text)
    assert {key: found.line_of(key) for key in lines} == lines, text
