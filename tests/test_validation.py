"""wargame/validation.py vouches for a data file's values without pydantic: whatever it accepts, pydantic accepts
with the same result, and whatever pydantic refuses, it declines (so pydantic words the error). Checked value by
value over the bundled games' data files, each value swapped for others of every kind, each key dropped, one added."""

from __future__ import annotations

import json
import random
import tomli
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

import wargame.datafiles as datafiles
from wargame import models, rulebook, tables
from wargame.bundled import data_root
from wargame.datafiles import load_csv, load_toml
from wargame.errors import DataError, DataErrors
from wargame.validation import validated

ROOT = data_root()
TOML_MODELS: dict[str, type] = {
    "map.toml": models.MapManifest, "terrain.toml": models.TerrainChart, "areas.toml": models.AreasFile,
    "game.toml": models.GameManifest, "markers.toml": models.MarkersFile, "crt.toml": tables.CombatTable,
    "charts.toml": tables.ChartsFile, "parameters.toml": tables.ParametersFile, "rules.toml": rulebook.RulesFile}
CSV_MODELS: dict[str, type] = {
    "hexes.csv": models.HexRecord, "hexsides.csv": models.HexsideRecord, "places.csv": models.PlaceRecord,
    "units.csv": models.Unit, "setup.csv": models.Placement, "reinforcements.csv": models.Arrival,
    "replacements.csv": models.ReplacementRecord}

# What a TOML value may be swapped for: every JSON type, the edges of numbers, strings each pattern takes or not.
TOML_VALUES: list[object] = [
    "50", "", "x" * 65, "a b", "a\nb", "reconstructed\n", "8.2\n", "hex\n", "#a0b0c0\n", "reconstructed",
    "reconstructed:x", "8.2", "#a0b0c0", "#a0b0c", "0101",
    "hex", "A-1", True, False, 0, 1, -1, 2, 6, 7, 999, 1000, 2**53 + 1, 2**63, -(2**63), 0.0, -0.0, 0.5, 2.5, 3.0,
    4.0, 401.0, 1e308, [], [1], [1, 2], ["a"], ["a", "b"], [[1, 2]], [["a"]], {}, {"a": 1}, {"a": "b"},
    {"a": ["b"]}, None]
# What a CSV cell may be swapped for, as text: lax reading turns some into numbers.
CSV_CELLS: list[str] = [
    "3", "+3", "03", "-0", "-1", "0", "3.0", "3.5", "-0.5", "1e3", "1_000", " 3", "nan", "inf", "9" * 19, "9" * 30,
    "yes", "no", "True", "false", "Y", "n", "1", "x", "x" * 65, "a b", "4-4", "4-4;2-4", "1/2", "a;b", "A1", "0101",
    "reconstructed", "8.2", "#ffffff", "é"]


def _files(suffix: str) -> list[Path]:
    """The bundled games' data files of that kind that hold at least one value (a CSV file one row)."""
    return sorted(p for p in ROOT.rglob(f"*{suffix}") if "geodata" not in p.parts
                  and p.name in (TOML_MODELS if suffix == ".toml" else CSV_MODELS)
                  and (suffix == ".toml" or len([line for line in p.read_text(encoding="utf-8").splitlines()
                                                 if line.strip() and not line.startswith("#")]) > 1))


_ADAPTERS: dict[type, TypeAdapter[object]] = {}


def _adapter(model: type) -> TypeAdapter[object]:
    """pydantic's validator of a model, built once (building one takes milliseconds)."""
    if model not in _ADAPTERS:
        _ADAPTERS[model] = TypeAdapter(model)
    return _ADAPTERS[model]


def _same(model: type, data: object, strict: bool) -> None:
    """The fast check and pydantic agree on `data`: the same value, or a refusal left to pydantic."""
    adapter = _adapter(model)
    fast = validated(model, data, strict=strict)
    try:
        slow = adapter.validate_json(json.dumps(data), strict=True) if strict else adapter.validate_python(data)
    except ValidationError:
        assert fast is None, f"accepted what pydantic refuses: {data!r}"
        return
    if fast is not None:
        # repr tells 3 from 3.0 and a tuple from a list, which == does not.
        assert fast == slow and repr(fast) == repr(slow), data


def _leaves(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """The path of every value in a TOML document, tables and arrays included."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value[:3]):
            yield from _leaves(item, (*path, n))


def _swapped(document: object, path: tuple[object, ...], value: object) -> object:
    """A deep copy of `document` with the value at `path` replaced (or removed, for `_DROP`)."""
    copy = json.loads(json.dumps(document))
    holder = copy
    for part in path[:-1]:
        holder = holder[part]
    if value is _DROP:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return copy


_DROP = object()


@pytest.mark.parametrize("path", _files(".toml"), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_toml_file_each_value_swapped(path: Path) -> None:
    """Every value of a bundled TOML file (a sample of them in the largest), swapped for each kind of value, dropped,
    and a key added: the fast check agrees with pydantic's strict JSON validation."""
    model = TOML_MODELS[path.name]
    document = json.loads(json.dumps(tomli.loads(path.read_text(encoding="utf-8")), default=str))
    assert validated(model, document, strict=True) is not None, "a bundled file is vouched for"
    _same(model, document, True)
    leaves = list(_leaves(document))
    rng = random.Random(path.name)
    # Every top-level key, and a sample of the values below (the largest files have thousands).
    chosen = {leaf for leaf in leaves if len(leaf) == 1} | set(rng.sample(leaves, min(len(leaves), 40)))
    for leaf in sorted(chosen, key=repr):
        for value in [*TOML_VALUES, _DROP]:
            _same(model, _swapped(document, leaf, value), True)
        if isinstance(leaf[-1], str):
            _same(model, _swapped(document, (*leaf[:-1], "unknown_key"), 1), True)


@pytest.mark.parametrize("path", _files(".csv"), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_csv_row_each_cell_swapped(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A few rows of every bundled CSV file, each cell swapped for text of each kind: the fast check agrees with
    pydantic's lax validation of the row as the loader gives it."""
    model = CSV_MODELS[path.name]
    seen: list[dict[str, object]] = []
    real = datafiles.validator

    def spy(model: type, *, strict: bool) -> Callable[[object], object]:
        vouched = real(model, strict=strict)

        def row(data: object) -> object:
            seen.append(typing.cast(dict[str, object], data))
            return vouched(data)
        return row
    monkeypatch.setattr(datafiles, "validator", spy)
    monkeypatch.setattr(datafiles, "_row_reader", lambda *args: None)  # every row through the vouching of a dict
    rows, errors = load_csv(path, model)
    assert len(seen) == len(rows)
    assert rows and not errors
    monkeypatch.undo()
    rng = random.Random(path.name)
    kinds = {name: datafiles._field_kind(model, name) for name in datafiles.fields_of(model)}
    for data in rng.sample(seen, min(len(seen), 3)):
        assert validated(model, data, strict=False) is not None, "a bundled row is vouched for"
        for name in kinds:
            for cell in CSV_CELLS:
                converted = datafiles._convert(kinds[name], cell)
                _same(model, {**data, name: converted.strip() if isinstance(converted, str) else converted}, False)
            if name in data:
                _same(model, {k: v for k, v in data.items() if k != name}, False)


def _outcome(path: Path, model: type) -> str:
    """What loading a file gives, as text: its model's repr, or its errors in order."""
    try:
        if path.suffix == ".toml":
            return repr(load_toml(path, model))
        rows, errors = load_csv(path, model)
        return repr(rows) + "\n".join(str(e) for e in errors)
    except (DataError, DataErrors) as e:
        return str(e)


@pytest.mark.parametrize("seed", range(4))
def test_damaged_files_load_as_pydantic_alone_loads_them(tmp_path: Path, seed: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Damaged data files (the fuzz campaign's mutations) give the same models and the same errors, word for word,
    with the fast check as with pydantic alone, and a CSV file's rows read straight to their models (`_row_reader`)
    as through the vouching of each row's dict."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import fuzz

    rng = random.Random(seed)
    mutator = fuzz.Mutator(rng, ["x", "0101", "reconstructed", "yes", "-1"])
    files = [*_files(".toml"), *_files(".csv")]
    for n in range(40):
        source = rng.choice(files)
        model = TOML_MODELS.get(source.name) or CSV_MODELS[source.name]
        target = tmp_path / f"{n}-{source.name}"
        target.write_text(fuzz.damaged_data(mutator, source.read_text(encoding="utf-8"), source.suffix),
                          encoding="utf-8", errors="surrogatepass")
        fast = _outcome(target, model)
        monkeypatch.setattr(datafiles, "_row_reader", lambda *args: None)
        by_dict = _outcome(target, model)
        monkeypatch.setattr(datafiles, "validated", lambda *args, **kwargs: None)
        monkeypatch.setattr(datafiles, "validator", lambda *args, **kwargs: lambda data: None)
        slow = _outcome(target, model)
        monkeypatch.undo()
        assert fast == by_dict == slow, target.read_text(encoding="utf-8", errors="replace")[:2000]


def test_a_models_own_refusal_is_worded_by_pydantic(tmp_path: Path) -> None:
    """A value the model's own check refuses (a margin under half a hex) is declined, and the error is pydantic's."""
    assert validated(models.LayoutSpec, {"hex_size_px": 40.0, "margin_px": 10.0}, strict=True) is None
    assert validated(models.LayoutSpec, {"hex_size_px": 40, "margin_px": 20}, strict=True) == models.LayoutSpec(
        hex_size_px=40.0, margin_px=20.0)
    source = next(p for p in _files(".toml") if p.name == "map.toml")
    text = source.read_text(encoding="utf-8")
    damaged = tmp_path / "map.toml"
    damaged.write_text(text.replace("[layout]", "[layout]\nmargin_px = 0.5", 1) if "margin_px" not in text
                       else "\n".join("margin_px = 0.5" if line.strip().startswith("margin_px") else line
                                      for line in text.split("\n")), encoding="utf-8")
    with pytest.raises((DataError, DataErrors), match="margin_px must be at least half of hex_size_px"):
        load_toml(damaged, models.MapManifest)


def _annotations() -> list[object]:
    """Every distinct annotation of a field of the data models (and of the models inside them), constraints kept."""
    import dataclasses
    import typing

    from wargame.constraints import Model

    found: dict[str, object] = {}
    todo: list[type] = [*TOML_MODELS.values(), *CSV_MODELS.values()]
    done: set[type] = set()
    while todo:
        model = todo.pop()
        if model in done:
            continue
        done.add(model)
        hints = typing.get_type_hints(model, include_extras=True)
        for hint in (hints[f.name] for f in dataclasses.fields(model)):
            found.setdefault(repr(hint), hint)
            stack = [hint]
            while stack:
                inner = stack.pop()
                stack.extend(typing.get_args(inner))
                if isinstance(inner, type) and issubclass(inner, Model):
                    todo.append(inner)
    return [found[key] for key in sorted(found)]


# Each bound the models use, and either side of it, as an integer and as a number.
BOUNDS = sorted({v for b in (0, 1, 4, 6, 64, 400, 999, 2000) for v in (b - 1, b, b + 1)})
SCALARS: list[object] = [*BOUNDS, *(float(b) for b in BOUNDS), 0.5, 4.5, float("inf"), float("nan"), True, False,
                         None, "", "a", "x" * 64, "x" * 65, "reconstructed", "8.2", "#a0b0c0", "rail", "flat"]


@pytest.mark.parametrize("annotation", _annotations(), ids=repr)
def test_each_annotation_at_its_edges(annotation: object) -> None:
    """Every annotation the models use, given values at and beside each bound they state, strictly (a TOML value)
    and laxly (a CSV cell's text, and values as the loader converts them): accepted only as pydantic accepts it."""
    adapter = TypeAdapter(annotation)
    for value in [*SCALARS, [1, 2], ["a"], {"a": 1}]:
        _agree(annotation, adapter, value, strict=True)
    for cell in [*CSV_CELLS, *(str(v) for v in SCALARS), "4.50", "-0.0", "00.5", ".5", "5."]:
        _agree(annotation, adapter, cell, strict=False)
        _agree(annotation, adapter, (cell,), strict=False)


def _agree(annotation: object, adapter: TypeAdapter[object], value: object, *, strict: bool) -> None:
    """`validated` of one value agrees with pydantic's adapter of its annotation."""
    from wargame.validation import Declined, _checker

    try:
        fast: object = _checker(annotation, strict)(value)
    except Declined:
        return
    try:
        slow = adapter.validate_json(json.dumps(value), strict=True) if strict else adapter.validate_python(value)
    except ValidationError:
        pytest.fail(f"{annotation!r} accepted {value!r}, which pydantic refuses")
    assert repr(fast) == repr(slow), (annotation, value)


def test_annotations_read_as_typing_reads_them() -> None:
    """The models' annotations as wargame.validation evaluates them are typing.get_type_hints' own, model by model."""
    import dataclasses
    import typing

    from wargame.constraints import Model
    from wargame.validation import field_annotations as evaluated

    checked = 0
    for model in {*TOML_MODELS.values(), *CSV_MODELS.values(), *Model.__subclasses__()}:
        hints = typing.get_type_hints(model, include_extras=True)
        # By repr: a Pattern marker has no equality of its own.
        assert repr(evaluated(model)) == repr({f.name: hints[f.name] for f in dataclasses.fields(model)}), model
        checked += 1
    assert checked > 40


def test_a_csv_models_fields_are_typings_without_constraints() -> None:
    """fields_of reads the annotations the vouching evaluated and takes their constraints off at every depth: the
    same types, by equality and by repr, as typing.get_type_hints gives without extras, model by model (a cold load
    no longer compiles every annotation a second time)."""
    import dataclasses
    import typing

    from wargame.constraints import Model
    from wargame.datafiles import fields_of

    checked = 0
    for model in {*TOML_MODELS.values(), *CSV_MODELS.values(), *Model.__subclasses__()}:
        hints = typing.get_type_hints(model)
        expected = {f.name: (hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                    for f in dataclasses.fields(model)}
        assert fields_of(model) == expected and repr(fields_of(model)) == repr(expected), model
        checked += 1
    assert checked > 40
