"""Loading the games' data, and every kind of problem a broken copy must report."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wargame.bundled import data_root, game_dir, game_ids
from wargame.errors import DataError, DataErrors
from wargame.game import load_game
from data_edits import edit

ROOT = Path(__file__).resolve().parent.parent


def problems(root: Path, game: str) -> list[str]:
    """Every problem load_game reports for a game, as text."""
    with pytest.raises(DataErrors) as caught:
        load_game(root, game)
    return [str(e) for e in caught.value.errors]


def test_bundled_games_load() -> None:
    """Both bundled games load without a problem and their grids hold every label."""
    root = data_root()
    assert game_ids(root) == ["moscow", "omaha", "onslaught"]
    for game_id in game_ids(root):
        game = load_game(root, game_id)
        assert len(game.grid) == game.map.grid.columns * game.map.grid.rows


def test_unknown_game_suggests() -> None:
    """A misspelt game name gets a suggestion."""
    with pytest.raises(DataError, match=r"did you mean 'omaha'"):
        game_dir(data_root(), "omaah")


def test_toml_syntax_error_names_line_and_column(data_copy: Path) -> None:
    """A TOML syntax error gives file:line:col."""
    path = data_copy / "maps" / "omaha" / "map.toml"
    edit(path, 'columns = 26', 'columns = = 26')
    found = problems(data_copy, "omaha")
    assert len(found) == 1
    assert re.search(r"map\.toml:\d+:\d+: TOML syntax", found[0])


def test_unknown_key_is_refused_with_its_line(data_copy: Path) -> None:
    """A misspelt key in a TOML table fails at its line and key path."""
    path = data_copy / "counters" / "omaha" / "game.toml"
    edit(path, 'symbol = "ranger"', 'symbol = "ranger"\nsymbl = "x"')
    found = problems(data_copy, "omaha")
    line = path.read_text(encoding="utf-8").splitlines().index('symbl = "x"') + 1
    assert any(f"game.toml:{line} [unit_type[2].symbl]: unknown key 'symbl'" in f for f in found), found


def test_bad_enum_value_is_placed(data_copy: Path) -> None:
    """A value outside a finite vocabulary names the key and the allowed values."""
    path = data_copy / "maps" / "onslaught" / "map.toml"
    edit(path, 'orientation = "flat"', 'orientation = "flatt"')
    found = problems(data_copy, "onslaught")
    assert any("[grid.orientation]" in f and "'flat' or 'pointy'" in f and "(did you mean 'flat'?)" in f
               for f in found), found


def test_a_misspelt_word_of_a_csv_vocabulary_gets_a_suggestion(data_copy: Path) -> None:
    """A unit's size written 'corp' is placed at its row and column, with the sizes allowed and the nearest."""
    path = data_copy / "counters" / "moscow" / "units.csv"
    row = "ge-ix,IX Army Corps,German,german,infantry,leg,"
    edit(path, row + "corps,", row + "corp,")
    found = problems(data_copy, "moscow")
    assert len(found) == 1 and re.search(r"units\.csv:\d+:7 \[size\]: Input should be 'army', 'corps'.*found 'corp' "
                                         r"\(did you mean 'corps'\?\)$", found[0]), found


def test_many_problems_reported_at_once(data_copy: Path) -> None:
    """Several broken files give one message each, all in one run."""
    maps = data_copy / "maps" / "omaha"
    counters = data_copy / "counters" / "omaha"
    # 1. a place off the map, 2. a hexside between hexes that do not touch, 3. an unknown feature,
    # 4. a line with a gap, 5. a set-up piece that does not exist, 6. a box that does not exist,
    # 7. a marker count above what the game has, 8. an area member that does not exist,
    # 9. a hex listed twice, 10. an unknown terrain.
    edit(maps / "places.csv", "Caumont,0421", "Caumont,0431")
    (maps / "hexsides.csv").write_text(
        "# schema_version = 1\nhexside,feature,source,note\n0101-0103,river,reconstructed,\n0101-0102,rivr,reconstructed,\n",
        encoding="utf-8")
    edit(maps / "areas.toml", '"0705", "0604"', '"0705", "0603"')
    edit(counters / "setup.csv", "beach_to_bocage,de_sf_9,german_cup", "beach_to_bocage,de_sf_99,german_cup")
    edit(counters / "setup.csv", "beach_to_bocage,de_sf_8,german_cup", "beach_to_bocage,de_sf_8,germn_cup")
    edit(counters / "setup.csv", "de_sf_6,german_cup,3", "de_sf_6,german_cup,4")
    edit(maps / "areas.toml", 'members = ["isigny"]', 'members = ["isigni"]')
    (maps / "hexes.csv").write_text(
        "# schema_version = 1\nhex,terrain,source,note\n0101,clear,5.4,\n0101,clear,5.4,\n0102,wods,reconstructed,\n",
        encoding="utf-8")
    found = "\n".join(problems(data_copy, "omaha"))
    expected = [
        r"places\.csv:\d+ \[hex\]: hex 0431: column 4, row 31 is off the map",
        r"hexsides\.csv:3 \[hexside\]: hexside '0101-0103': hexes 0101 and 0103 are not adjacent",
        r"hexsides\.csv:4 \[feature\]: unknown hexside feature 'rivr'",
        r"areas\.toml:48 \[line\[0\] scenario_boundary\]: line scenario_boundary: 0705 and 0603 are not adjacent",
        r"setup\.csv:\d+ \[piece\]: unknown unit or marker 'de_sf_99' \(did you mean 'de_sf_9'",
        r"setup\.csv:\d+ \[location\]: 'germn_cup' is neither a hex label.*did you mean 'german_cup'",
        r"setup\.csv:\d+ \[count\]: marker 'de_sf_6': 4 placed but the game has 3",
        r"areas\.toml:32 \[area\[3\] german_marker_loss\.members\]: unknown area 'isigni' \(did you mean 'isigny'",
        r"hexes\.csv:4 \[hex\]: hex 0101 already listed on line 3",
        r"hexes\.csv:5 \[terrain\]: unknown hex terrain 'wods'",
    ]
    for pattern in expected:
        assert re.search(pattern, found), f"{pattern!r} not in:\n{found}"


def test_csv_header_and_cell_problems(data_copy: Path) -> None:
    """CSV files: an unknown column gets a suggestion; a bad cell names line and column."""
    counters = data_copy / "counters" / "onslaught"
    (counters / "units.csv").write_text(
        "# schema_version = 1\n"
        "id,name,side,nationality,type,mobility,size,steps,full,reduced,zoc,source\n"
        "us-inf-1,US infantry,Allied,us,infantry,leg,division,2,4-5,2-5,yes,2.3\n"
        "us-inf-1,US infantry,Allied,us,infantry,leg,division,2,4-5,2-5,yes,2.3\n"
        "us-inf-2,US infantry,Allied,us,infantry,leg,division,3,4-5,2-5,yes,2.3\n"
        "de-inf-1,German infantry,German,us,infantry,leg,division,2,4-4-4,2-4,yes,2.3\n"
        "de-inf-2,German infantry,Germans,wehrmacht,infantri,leg,division,1,4-4,,yes,section 2\n",
        encoding="utf-8")
    found = "\n".join(problems(data_copy, "onslaught"))
    expected = [
        r"units\.csv:4 \[id\]: unit id 'us-inf-1' already used on line 3",
        r"units\.csv:5 \[further_reduced\]: a 3-step unit has 1 further reduced face\(s\), not 0",
        r"units\.csv:5 \[steps\]: 3 steps: the onslaught rule system's units have two at most",
        r"units\.csv:6 \[side\]: nationality 'us' belongs to side 'Allied', not 'German'",
        r"units\.csv:6 \[full\]: full values '4-4-4': expected 2 whole numbers \(combat-movement\)",
        r"units\.csv:7:12 \[source\]: 'section 2' is not a source: a rule section such as '8\.2'",
    ]
    for pattern in expected:
        assert re.search(pattern, found), f"{pattern!r} not in:\n{found}"
    (counters / "units.csv").write_text("# schema_version = 1\nid,name,sid\n", encoding="utf-8")
    found = "\n".join(problems(data_copy, "onslaught"))
    assert re.search(r"units\.csv:2:3: unknown column 'sid' \(did you mean .*'side'", found), found
    assert "missing column 'nationality'" in found


def test_cross_file_vocabulary(data_copy: Path) -> None:
    """Sides, nationalities and schedule turns are checked across files."""
    counters = data_copy / "counters" / "omaha"
    edit(counters / "game.toml", 'side = "German"\ntext_colour', 'side = "Germn"\ntext_colour')
    (counters / "reinforcements.csv").write_text(
        "# schema_version = 1\nscenario,turn,unit,entry,source\nbeach_to_bocage,18,sch30,1005,11.1.2\n", encoding="utf-8")
    found = "\n".join(problems(data_copy, "omaha"))
    assert re.search(r"game\.toml:23 \[nationality german\.side\]: unknown side 'Germn' \(did you mean 'German'",
                     found), found
    assert re.search(r"reinforcements\.csv:3 \[turn\]: turn 18 is outside scenario 'beach_to_bocage' "
                     r"\(turns 1-17\)", found), found
    assert re.search(r"reinforcements\.csv:3 \[unit\]: unknown unit 'sch30'", found), found


def test_csv_schema_version_is_required(data_copy: Path) -> None:
    """A CSV file without its schema version line, or with an unknown one, is refused."""
    places = data_copy / "maps" / "omaha" / "places.csv"
    text = places.read_text(encoding="utf-8")
    places.write_text(text.replace("# schema_version = 1\n", ""), encoding="utf-8")
    assert any("places.csv:1: missing the line '# schema_version = 1'" in f for f in problems(data_copy, "omaha"))
    places.write_text(text.replace("# schema_version = 1", "# schema_version = 7"), encoding="utf-8")
    assert any("places.csv:1: schema_version 7 is not one this version of Umpire reads (it reads 1)" in f
               for f in problems(data_copy, "omaha"))


def _misspelt(word: str) -> str:
    """A word with its second and third letters swapped (a two-letter word with its last doubled)."""
    return word + word[-1] if len(word) < 3 else word[0] + word[2] + word[1] + word[3:]


DATA_FILES = [("moscow", f"counters/moscow/{name}") for name in (
    "units.csv", "setup.csv", "reinforcements.csv", "replacements.csv", "game.toml", "markers.toml", "crt.toml",
    "charts.toml", "rules.toml")] + [("moscow", f"maps/moscow/{name}") for name in (
        "hexes.csv", "hexsides.csv", "places.csv", "map.toml", "terrain.toml", "areas.toml")] + [
    ("onslaught", "counters/onslaught/parameters.toml")]


@pytest.mark.parametrize(("game", "name"), DATA_FILES)
def test_a_misspelt_required_column_or_key_is_one_error(data_copy: Path, game: str, name: str) -> None:
    """Every loader of a game's data, a required CSV column (the header's first) or TOML key (the first after
    schema_version but a name, which some tables need not give) misspelt: one error at the file's line (and column), saying what it may stand for. It was two,
    the unknown column or key and the missing one; and a TOML file so refused made each reference to its ids
    another (a misspelt key of areas.toml gave 38 errors, one of markers.toml 6)."""
    path = data_copy / name
    lines = path.read_text(encoding="utf-8").split("\n")
    if path.suffix == ".csv":
        at = next(n for n, line in enumerate(lines) if line.strip() and not line.startswith("#"))
        word = lines[at].split(",")[0]
        lines[at] = ",".join([_misspelt(word), *lines[at].split(",")[1:]])
        wanted = f"{path}:{at + 1}:1: unknown column {_misspelt(word)!r} (did you mean {word!r}? a required column"
    else:
        at, word = next((n, m.group(1)) for n, line in enumerate(lines)
                        if (m := re.match(r"([a-z_]+) =", line)) and m.group(1) not in ("schema_version", "name"))
        lines[at] = _misspelt(word) + lines[at][len(word):]
        wanted = f"{path}:{at + 1} ["
    path.write_text("\n".join(lines), encoding="utf-8")
    found = problems(data_copy, game)
    assert len(found) == 1 and found[0].startswith(wanted), found
    assert f"unknown {'column' if path.suffix == '.csv' else 'key'} {_misspelt(word)!r} (did you mean {word!r}? a " \
           f"required {'column' if path.suffix == '.csv' else 'key'}, not given)" in found[0], found


def test_a_column_renamed_beyond_a_suggestion_s_reach_is_one_error(data_copy: Path) -> None:
    """`ident` for units.csv's `id` is three edits away, past what a suggestion allows: it was an unknown column
    with no suggestion and a missing column. The one unknown column and the one required column missing are one
    mistake."""
    units = data_copy / "counters" / "moscow" / "units.csv"
    edit(units, "\nid,name,", "\nident,name,")
    assert problems(data_copy, "moscow") == [
        f"{units}:6:1: unknown column 'ident' (did you mean 'id'? a required column, not given)"]


def test_a_misspelt_schema_version_is_one_short_error(data_copy: Path) -> None:
    """A TOML file's schema_version misspelt: the version check showed the whole file as the value found (the
    table, thousands of characters) as well as the unknown key. One error, at the key."""
    crt = data_copy / "counters" / "moscow" / "crt.toml"
    edit(crt, "\nschema_version = 1", "\nschmea_version = 1")
    found = problems(data_copy, "moscow")
    assert len(found) == 1 and len(found[0].replace(str(crt), "")) < 200, found
    assert "unknown key 'schmea_version' (did you mean 'schema_version'? a required key, not given)" in found[0]


def test_an_array_where_one_value_belongs_is_shown_cut_short(data_copy: Path) -> None:
    """`schema_version = [0, 1, ..., 2999]` and a grid's `columns` given an array: each error showed the whole array
    as the value found (15 KB for the first). Shown cut short, saying how many values it holds."""
    crt = data_copy / "counters" / "moscow" / "crt.toml"
    edit(crt, "\nschema_version = 1", "\nschema_version = [" + ", ".join(map(str, range(3000))) + "]")
    found = problems(data_copy, "moscow")
    assert len(found) == 1 and len(found[0].replace(str(crt), "")) < 250 and "... (3,000 values)" in found[0], found
    crt.write_text((ROOT / "counters" / "moscow" / "crt.toml").read_text(encoding="utf-8"), encoding="utf-8")
    grid = data_copy / "maps" / "moscow" / "map.toml"
    edit(grid, "\ncolumns = 14", "\ncolumns = [" + ", ".join(map(str, range(30))) + "]")
    found = problems(data_copy, "moscow")
    assert len(found) == 1 and found[0].endswith("... (30 values) is not a whole number"), found
