"""The game's data models are plain frozen dataclasses, validated by pydantic only where data files are read
(issue 30, item 1): the same checks, values and messages as when they were pydantic's models."""

from __future__ import annotations

import dataclasses
import json
import pickle
import shutil
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from adjudicator.basis import unit_zoc
from wargame.constraints import record_data
from wargame.datafiles import load_csv, load_toml, validation_errors
from wargame.errors import DataErrors
from wargame.game import load_game
from wargame.grid import GridSpec, LabelFormat
from wargame.models import AreasFile, GameManifest, HexRecord, Unit

ROOT = Path(__file__).resolve().parent.parent


def test_the_models_are_frozen_keyword_dataclasses_that_check_themselves() -> None:
    """Built from Python values they are frozen, take keywords only, and run the checks the validators did."""
    unit = Unit(id="u", name="U", side="A", nationality="n", type="t", mobility="leg", size="division", steps=1,
                full=(4, 5), source="1.0")
    assert dataclasses.is_dataclass(unit) and unit.zoc is True and unit.further_reduced == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        unit.steps = 2  # type: ignore[misc]
    with pytest.raises(ValueError, match="a 2-step unit needs reduced values"):
        dataclasses.replace(unit, steps=2)
    with pytest.raises(TypeError):
        Unit("u", "U")  # type: ignore[misc]
    # Mutable defaults are a unit's own, never shared.
    assert AreasFile(schema_version=1).area is not AreasFile(schema_version=1).area


def test_equality_hash_and_repr_are_a_dataclass_s() -> None:
    """Written once on the base class, not generated for each: the same as the dataclass's own."""
    label = LabelFormat()
    assert repr(label) == "LabelFormat(column_digits=2, row_digits=2, separator='', order='column-row')"
    assert label == LabelFormat() and hash(label) == hash(LabelFormat()) and label != LabelFormat(row_digits=3)
    assert label.__eq__(GridSpec(orientation="flat", columns=1, rows=1)) is NotImplemented
    assert {label, LabelFormat()} == {label}
    with pytest.raises(TypeError):
        hash(AreasFile(schema_version=1))  # a list inside: unhashable, as a frozen dataclass's


def test_unknown_keys_come_first_in_each_table_as_they_did(tmp_path: Path) -> None:
    """A dataclass reports a table's unknown keys after its fields' errors, pydantic's models before: the messages
    keep the models' order (each table's unknown keys, then its fields)."""
    path = tmp_path / "areas.toml"
    path.write_text('schema_versionx = 1\nyy = 1\n\n[[area]]\nidx = "a"\nname = "n"\nkind = "edge"\nhexes = ["0101"]\n'
                    'source = "1"\nzz = 2\n\n[[area]]\nid = "b"\nname = 3\nkind = "edge"\nsource = "1"\nq = 1\n',
                    encoding="utf-8")
    with pytest.raises(DataErrors) as caught:
        load_toml(path, AreasFile)
    keys = [e.place.key if e.place else None for e in caught.value.errors]
    # A misspelt required key is one error, the unknown key's (its missing key no other).
    assert keys == ["schema_versionx", "yy", "area[0].idx", "area[0].zz", "area[1].q", "area[1].name"]
    assert caught.value.errors[0].message == ("unknown key 'schema_versionx' (did you mean 'schema_version'? a "
                                              "required key, not given)")
    assert caught.value.errors[2].message == "unknown key 'idx' (did you mean 'id'? a required key, not given)"


def test_an_error_on_a_value_follows_those_inside_it(tmp_path: Path) -> None:
    """`terrain[0]` (not an identifier), then `terrain` (empty once it is dropped): pydantic's order, kept."""
    path = tmp_path / "hexes.csv"
    path.write_text("# schema_version = 1\nhex,terrain,source\n0101,-1,1.0\n", encoding="utf-8")
    _, errors = load_csv(path, HexRecord)
    assert [e.place.key if e.place else None for e in errors] == ["terrain[0]", "terrain"]


def test_a_table_where_a_value_is_expected_is_worded_as_before() -> None:
    """Read from Python values (not JSON), pydantic words a dataclass's type error its own way: ours stays."""
    with pytest.raises(ValidationError) as caught:
        TypeAdapter(GridSpec).validate_python({"orientation": "flat", "columns": 3, "rows": 3, "label": "x"})
    (error,) = validation_errors(caught.value, Path("map.toml"), line=1)
    assert error.message == "Input should be a valid dictionary or instance of LabelFormat, found 'x'"


def test_record_data_is_the_json_the_models_dumped() -> None:
    """Tuples as lists, nested models as tables, fields in order (as `model_dump(mode="json")` gave)."""
    game = load_game(ROOT, "omaha")
    unit = game.units[0][1]
    data = record_data(unit)
    assert list(data) == [f.name for f in dataclasses.fields(Unit)]
    assert data["full"] == list(unit.full) and json.loads(json.dumps(data)) == data
    manifest = record_data(game.manifest)
    assert isinstance(manifest["declare"], dict) and isinstance(manifest["sides"], list)
    assert TypeAdapter(GameManifest).validate_python(manifest) == game.manifest


def test_a_loaded_game_pickles_as_itself() -> None:
    """The cache keeps games pickled: a round trip gives an equal game."""
    game = load_game(ROOT, "moscow")
    again = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
    assert again == game and again.rules == game.rules and again.manifest.declare == game.manifest.declare


def test_a_unit_zoc_is_cited_only_where_units_csv_states_it(tmp_path: Path) -> None:
    """units.csv's `zoc` cell is the basis of a unit's zone of control only when written: a blank cell is the
    rules' default (pydantic's `model_fields_set` told it before)."""
    for kind in ("maps", "counters"):
        shutil.copytree(ROOT / kind / "omaha", tmp_path / kind / "omaha")
    units = tmp_path / "counters" / "omaha" / "units.csv"
    lines = units.read_text(encoding="utf-8").splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("id,"))
    column = lines[header].split(",").index("zoc")
    row = lines[header + 1].split(",")
    row[column] = ""
    lines[header + 1] = ",".join(row)
    units.write_text("\n".join(lines) + "\n", encoding="utf-8")
    game = load_game(tmp_path, "omaha")
    blank, written = row[0], lines[header + 2].split(",")[0]
    assert unit_zoc(game, blank) is None
    assert unit_zoc(game, written) is not None
    stated: dict[int, frozenset[str]] = {}
    loaded, errors = load_csv(units, Unit, stated=stated)
    assert not errors and "zoc" not in stated[loaded[0][0]] and "zoc" in stated[loaded[1][0]]
