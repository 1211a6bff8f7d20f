"""Reading TOML and CSV data files into models, with errors that name file, line and key."""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import itertools
import json
import operator
import re
import types
import typing
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import tomli

from wargame.constraints import RefusedAt
from wargame.errors import DataError, DataErrors, Place, did_you_mean, listed, listed_words, standing_for
from wargame.files import TooLarge, read_capped
from wargame.models import PATTERN_MEANINGS, SCHEMA_VERSION
from wargame.validation import Declined, field_annotations, field_checkers, validated, validator

if typing.TYPE_CHECKING:
    from pydantic import TypeAdapter, ValidationError
    from pydantic_core import ErrorDetails

M = TypeVar("M")
# CSV files carry their schema version in a comment line before the header.
CSV_VERSION = re.compile(r"^\s*#\s*schema_version\s*=\s*(\d+)\s*$")


MAX_DATA_FILE_BYTES = 4 * 2**20
"""A data file (TOML or CSV) larger than this is refused, counted as it is read (docs/limits.md)."""
MAX_TOML_DEPTH = 32
"""Arrays and tables nested deeper than this in a TOML data file are refused (the games use 4)."""
MAX_CSV_FIELD_CHARS = 131_072
"""A CSV cell longer than this is refused (the csv module's own limit, as our error)."""


def read_text(path: Path) -> str:
    """A data file's text; DataError if it is missing, too large or not UTF-8."""
    try:
        raw = read_capped(path, MAX_DATA_FILE_BYTES)
    except TooLarge as e:
        raise DataError(f"{e.found}: a data file may have at most {MAX_DATA_FILE_BYTES:,}", Place(path)) from None
    except FileNotFoundError:
        raise DataError("file not found", Place(path)) from None
    except OSError as e:
        raise DataError(f"cannot read: {e.strerror}", Place(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError(f"byte 0x{raw[e.start]:02x} is not UTF-8 text ({e.reason}): expected a file saved as UTF-8",
                        _byte_place(path, raw, e.start)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as text mode reads


def _byte_place(path: Path, raw: bytes, at: int) -> Place:
    """The line and column (in characters, as an editor counts them) of byte `at` of a file."""
    before = raw[:at].replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # universal newlines, as `read_text` reads
    start = before.rfind(b"\n") + 1
    return Place(path, before.count(b"\n") + 1, len(before[start:].decode("utf-8", errors="replace")) + 1)


def _loc_text(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_SHOWN_CHARS = 60
"""A value shown in a message is cut short past this: a message never grows with its input (a cell of 140,000
characters, shown whole in each of its 70,000 errors, took gigabytes; the fuzzing of 2026-12-06)."""


def _shown(value: object) -> str:
    """A value as a designer wrote it (a cell of several numbers as on the counter), cut short when long."""
    if isinstance(value, tuple):
        written = "-".join(map(str, value[:_SHOWN_CHARS]))
        if len(written) > _SHOWN_CHARS:
            return f"{written[:_SHOWN_CHARS]!r}... ({len(value):,} values)"
        return repr(written)
    if isinstance(value, str) and len(value) > _SHOWN_CHARS:
        return f"{value[:_SHOWN_CHARS]!r}... ({len(value):,} characters)"
    shown = repr(value)
    if len(shown) > _SHOWN_CHARS:
        # An array or table where a single value belongs (a schema_version of 3,000 numbers was shown whole).
        counted = f" ({len(value):,} {'keys' if isinstance(value, dict) else 'values'})" if \
            isinstance(value, (dict, list)) else ""
        return f"{shown[:_SHOWN_CHARS]}...{counted}"
    return shown


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(model: type[M]) -> TypeAdapter[M]:
    """The validator of a model, built on first use (building one costs milliseconds: a warm load builds none)."""
    adapter = _ADAPTERS.get(model)
    if adapter is None:
        # Imported here only: pydantic validates what wargame.validation cannot vouch for, and words its errors.
        from pydantic import TypeAdapter
        adapter = _ADAPTERS[model] = TypeAdapter(model)
    return adapter


_FIELDS: dict[type, dict[str, tuple[Any, bool]]] = {}


def fields_of(model: type) -> dict[str, tuple[Any, bool]]:
    """A model's fields in order, each with its type (constraints left out) and whether it is required; {} for a
    type that is no model. The games' models are dataclasses; the geography's (authoring) are pydantic's."""
    known = _FIELDS.get(model)
    if known is not None:
        return known
    found: dict[str, tuple[Any, bool]] = {}
    if dataclasses.is_dataclass(model):
        # The annotations the vouching evaluated already (typing.get_type_hints compiles each again), constraints off.
        hints = field_annotations(model)
        found = {f.name: (_unconstrained(hints[f.name]),
                          f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                 for f in dataclasses.fields(model)}
    elif isinstance(pydantic_fields := getattr(model, "model_fields", None), dict):
        found = {name: (info.annotation, info.is_required()) for name, info in pydantic_fields.items()}
    _FIELDS[model] = found
    return found


def _unconstrained(annotation: Any) -> Any:
    """An annotation without its constraints (`Annotated`) at any depth: what typing.get_type_hints gives."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unconstrained(typing.get_args(annotation)[0])
    args = typing.get_args(annotation)
    if not args or origin is typing.Literal:
        return annotation
    plain = tuple(_unconstrained(a) for a in args)
    if plain == args:
        return annotation
    if origin is types.UnionType:
        return functools.reduce(operator.or_, plain)
    if origin is typing.Union:
        return typing.Union[plain]
    return types.GenericAlias(origin, plain)


def _keys_at(model: type, loc: tuple[int | str, ...]) -> list[str]:
    """The keys of the table at `loc` in a model (a misspelt key's neighbours), [] where it is not a model."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue  # an array's item: the same model
        fields = fields_of(current) if isinstance(current, type) else {}
        if part not in fields:
            return []
        annotation = fields[part][0]
        # The model inside `Model | None`, `list[Model]` or `tuple[Model, ...]`.
        while typing.get_origin(annotation) in (typing.Union, types.UnionType, list, tuple, dict):
            inner = [a for a in typing.get_args(annotation) if a is not type(None) and a is not Ellipsis]
            annotation = inner[-1] if inner else None
        current = annotation
    return list(fields_of(current)) if isinstance(current, type) else []


def _keys_first(errors: list[ErrorDetails]) -> list[ErrorDetails]:
    """Pydantic's errors with each table's unknown keys before its fields' errors: a dataclass reports them after,
    a pydantic model (the order the messages had) before."""
    first: dict[tuple[int | str, ...], int] = {}
    for n, err in enumerate(errors):
        loc = tuple(err["loc"])
        for depth in range(1, len(loc) + 1):
            first.setdefault(loc[:depth], n)

    def order(n: int) -> tuple[tuple[int, int], ...]:
        # Each level of the key path in the order it first came, an unknown key ahead of its table's fields; an
        # error on a value itself where it came among those inside it (`terrain` too short after `terrain[0]`).
        loc = tuple(errors[n]["loc"])
        if errors[n]["type"] == "unexpected_keyword_argument":
            return (*((1, first[loc[:depth]]) for depth in range(1, len(loc))), (0, n))
        return (*((1, first[loc[:depth]]) for depth in range(1, len(loc) + 1)), (1, n))

    return [errors[n] for n in sorted(range(len(errors)), key=order)]


def _misspelt_keys(errors: list[ErrorDetails]) -> dict[tuple[int | str, ...], tuple[int | str, ...]]:
    """The unknown keys that stand for a required key missing from the same table (`standing_for`): the key path
    of each, with the missing key's."""
    missing: dict[tuple[int | str, ...], list[str]] = defaultdict(list)
    unknown: dict[tuple[int | str, ...], list[str]] = defaultdict(list)
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "missing" and loc and isinstance(loc[-1], str):
            missing[loc[:-1]].append(loc[-1])
        elif err["type"] in ("extra_forbidden", "unexpected_keyword_argument") and loc:
            unknown[loc[:-1]].append(str(loc[-1]))
    meant: dict[tuple[int | str, ...], tuple[int | str, ...]] = {}
    for table, keys in unknown.items():
        for key, standing in zip(keys, standing_for(keys, missing.get(table, []))):
            if standing is not None:
                meant[(*table, key)] = (*table, standing)
    return meant


def validation_errors(e: ValidationError, path: Path, text: str | None = None,
                      line: int | None = None, columns: dict[str, int] | None = None,
                      cells: dict[str, str] | None = None, model: type | None = None) -> list[DataError]:
    """One DataError per pydantic error, placed at the key (TOML) or the row and column (CSV), the value shown; of
    the errors of one list's elements (a cell's numbers, an array's values), the first, saying how many more."""
    from wargame.toml_lines import TomlLines  # here: only a file with a problem is indexed

    out: list[tuple[tuple[int | str, ...] | None, str, Place]] = []
    more: dict[tuple[int | str, ...], int] = {}
    lines = TomlLines(text) if text and line is None else None
    errors = _keys_first(e.errors())
    meant = _misspelt_keys(errors)
    for err in errors:
        loc = tuple(err["loc"])
        refused = (err.get("ctx") or {}).get("error")
        if isinstance(refused, RefusedAt):
            loc += refused.key  # a model's own check that names its key: placed at that key's line
        group = loc[:-1] if loc and isinstance(loc[-1], int) else None
        if group is not None and group in more:  # another bad element of a list reported already: counted only
            more[group] += 1
            continue
        if group is not None:
            more[group] = 0
        key = _loc_text(loc)
        # A model's own check speaks for itself: pydantic's "Value error, " before its words says nothing more.
        msg = str(refused) if err["type"] == "value_error" and isinstance(refused, ValueError) else err["msg"]
        value = err.get("input")
        # The cell as written (`4-x`), not pydantic's piece of it (`x`).
        cell = cells.get(str(loc[0])) if cells and loc else None
        written = f" in {_shown(cell)}" if cell is not None and len(loc) > 1 else ""
        if err["type"] == "missing" and loc in meant.values():
            continue  # the key is given, misspelt: its unknown key's error says so (one mistake, one error)
        if loc == ("schema_version",) and err["type"] != "missing":
            msg = (f"schema_version {_shown(value)} is not one this version of Umpire reads (it reads "
                   f"{SCHEMA_VERSION}): the file was written for another version")
        elif err["type"] in ("int_parsing", "int_type", "int_from_float"):
            msg = f"{_shown(value)}{written} is not a whole number"
        elif err["type"] in ("float_parsing", "float_type"):
            msg = f"{_shown(value)}{written} is not a number"
        elif err["type"] in ("bool_parsing", "bool_type"):
            msg = f"{_shown(value)} is not yes or no"
        elif err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
            # A dataclass names an unknown key `unexpected_keyword_argument`, a pydantic model `extra_forbidden`.
            if loc in meant:
                msg = f"unknown key {loc[-1]!r} (did you mean {meant[loc][-1]!r}? a required key, not given)"
            else:
                msg = f"unknown key {loc[-1]!r}" + (did_you_mean(str(loc[-1]), _keys_at(model, loc[:-1]))
                                                    if model is not None else "")
        elif err["type"] == "string_pattern_mismatch":
            pattern = (err.get("ctx") or {}).get("pattern", "")
            msg = f"{_shown(err['input'])} is not {PATTERN_MEANINGS.get(pattern, 'of the expected form ' + pattern)}"
        elif err["type"] == "missing":
            msg = f"missing key {loc[-1]!r}" if loc else "missing value"
        elif err["type"] == "dataclass_type" and msg != "Input should be an object":
            # A table where a value was read from Python (CSV): worded as it was for pydantic's models.
            msg = f"Input should be a valid dictionary or instance of {(err.get('ctx') or {}).get('class_name', '')}"
            msg += f", found {_shown(value)}{written}" if not isinstance(value, (dict, list)) and value is not None else ""
        elif not isinstance(value, (dict, list)) and value is not None:
            msg = f"{msg}, found {_shown(value)}{written}"
            if err["type"] in ("literal_error", "enum") and isinstance(value, str):
                # One of a few words (a unit's size, a marker's kind): the nearest to what was written.
                msg += did_you_mean(value, listed_words((err.get("ctx") or {}).get("expected", "")))
        where_line = line if lines is None else lines.line_of(loc)
        column = columns.get(str(loc[0])) if columns and loc else None
        out.append((group, msg, Place(path, where_line, column, key or None)))
    # Of one list's bad elements (a cell's numbers, an array's values) the first, saying how many more: a cell of
    # 70,000 bad numbers is one error, not 70,000.
    kind = "cell" if cells is not None else "array"
    return [DataError(msg + (f" (and {more[group]:,} more in this {kind})" if group is not None and more[group] else ""),
                      place) for group, msg, place in out]


def load_toml(path: Path, model: type[M]) -> M:
    """Read a TOML file into a model; DataError(s) naming the line and key."""
    text = read_text(path)
    _refuse_deep_nesting(text, path)
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        place = Place(path, int(m.group(1)), int(m.group(2))) if m else Place(path)
        raise DataError(f"TOML syntax: {msg}", place) from None
    except ValueError:
        # tomli turns digits into int() unbounded: more than 4,300 digits raise ValueError.
        huge = re.search(r"[0-9_]{4000,}", text)
        line = text.count("\n", 0, huge.start()) + 1 if huge else None
        raise DataError("a number too long to read (thousands of digits)", Place(path, line)) from None
    except RecursionError:
        raise DataError(f"arrays or tables nested more than {MAX_TOML_DEPTH} deep: refused", Place(path)) from None
    # Strict, through JSON: TOML values are typed, so `columns = "50"` or `true` for a number is an
    # error, not coerced (lax validation read "50" as 50 and true as 1); arrays still read as tuples.
    as_json = json.dumps(data, default=str)
    checked = validated(model, json.loads(as_json), strict=True)
    if checked is not None:
        return checked
    from pydantic import ValidationError as Refused
    try:
        return _adapter(model).validate_json(as_json, strict=True)
    except Refused as e:
        errors = validation_errors(e, path, text, model=model)
        if len(errors) == 1:
            raise errors[0] from None
        raise DataErrors(errors) from None


_BRACKET_OUTSIDE_STRINGS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|([\[\]{}])')
"""A string or a comment (its group empty), or a bracket or brace outside them (its group the character)."""


def _refuse_deep_nesting(text: str, path: Path) -> None:
    """DataError for brackets or braces nested deeper than MAX_TOML_DEPTH (tomli and pydantic recurse)."""
    # The brackets outside strings and comments, in order, read by the regex engine alone: a Python callback per
    # string cost a cold check 1.5% (issue 30).
    brackets = "".join(_BRACKET_OUTSIDE_STRINGS.findall(text))
    if brackets.count("[") + brackets.count("{") <= MAX_TOML_DEPTH:
        return
    depth = 0
    for index, char in enumerate(brackets):
        if char in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                # The place of that opening bracket, found again only now.
                found = (m for m in _BRACKET_OUTSIDE_STRINGS.finditer(text) if m.group(1))
                start = next(itertools.islice(found, index, None)).start()
                raise DataError(f"arrays or tables nested more than {MAX_TOML_DEPTH} deep: refused",
                                Place(path, text.count("\n", 0, start) + 1))
        else:
            depth = max(0, depth - 1)


_TEXTS = (str, str | None, tuple[str, ...], tuple[str, ...] | None)
"""The annotations whose checked values are texts or tuples of texts, nothing else."""


def _row_reader(model: type[M], header: list[str], kinds: dict[str, str]
                ) -> Callable[[list[str]], tuple[M, frozenset[str]]] | None:
    """A row's cells straight to the model, as converting them (`_convert`) and vouching for the result (`validator`)
    would give it, without the dict between them, with the columns it states; Declined where either would decline.
    None for a model never vouched for, or a column its `__init__` does not take. (The CSV rows were a fifth of a
    cold check, issue 30.)"""
    found = field_checkers(model, strict=False)
    if found is None:
        return None
    checks, required = found
    if not all(name in checks for name in header):
        return None

    # Each column's check, its conversion where its cells are not plain text, and whether its values are texts (or
    # tuples of texts). Those are made one object for each value a file repeats (Onslaught's hexes name 'clear' and
    # their source 2,500 times): the game kept in the cache pickles each once, so a check of a kept game reads it in
    # 4% fewer instructions. Values of other types are never merged: equal ones may differ in type (`1 == 1.0`).
    fields = fields_of(model)
    readers = [(name, checks[name], None if kinds[name] == "str" else functools.partial(_convert, kinds[name]),
                _unconstrained(fields[name][0]) in _TEXTS) for name in header]
    same: dict[object, object] = {}

    def row(cells: list[str]) -> tuple[M, frozenset[str]]:
        values: dict[str, object] = {}
        for (name, check, convert, text), cell in zip(readers, cells):
            stripped = cell.strip()
            if stripped:
                if convert is None:
                    value = check(stripped)
                else:
                    value = convert(cell)
                    value = check(value.strip() if isinstance(value, str) else value)
                values[name] = same.setdefault(value, value) if text else value
        if not required <= values.keys():
            raise Declined
        try:
            return model(**values), frozenset(values)
        except Exception:  # noqa: BLE001 - the model's own refusal is pydantic's to word, as `validator` leaves it
            raise Declined from None
    return row


def _field_kind(model: type, name: str) -> str:
    """How a CSV cell converts for a model field: 'tuple-int', 'tuple-tuple-int', 'tuple-str', 'bool' or 'str'."""
    annotation = fields_of(model)[name][0]
    args: tuple[Any, ...] = ()
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = tuple(a for a in typing.get_args(annotation) if a is not type(None))
        annotation = args[0] if len(args) == 1 else annotation
        origin = typing.get_origin(annotation)
    if origin is tuple:
        inner = typing.get_args(annotation)[0]
        if typing.get_origin(inner) is tuple:
            return "tuple-tuple-int"  # faces of values, `4-4;2-4`
        return "tuple-int" if inner is int else "tuple-str"
    if annotation is bool:
        return "bool"
    return "str"


_VALUE_SEPARATORS = re.compile(r"[-/]")
_SHORT_NUMBER = re.compile(r"\d{1,9}")


def _convert(kind: str, cell: str) -> Any:
    if kind == "tuple-int":
        parts = [p.strip() for p in _VALUE_SEPARATORS.split(cell)]
        # At most 9 digits become a number; a longer run stays text, which the model refuses with its
        # own message (int() of 4,300 digits and more raises ValueError).
        return tuple(int(p) if _SHORT_NUMBER.fullmatch(p) else p for p in parts)
    if kind == "tuple-tuple-int":
        return tuple(_convert("tuple-int", face) for face in cell.split(";") if face.strip())
    if kind == "tuple-str":
        return tuple(p.strip() for p in cell.split(";") if p.strip())
    if kind == "bool":
        lowered = cell.strip().lower()
        if lowered in ("yes", "true", "1", "y"):
            return True
        if lowered in ("no", "false", "0", "n"):
            return False
        return cell
    return cell


def _header_errors(path: Path, line: int, header: list[str], fields: dict[str, tuple[Any, bool]]) -> list[DataError]:
    """The problems of a CSV header: unknown columns, columns given twice, required columns missing. A misspelt
    required column is one error, the unknown column's, naming the column it stands for (it was two, the second a
    "missing column" that followed from the first)."""
    found: dict[int, DataError] = {}
    columns: dict[str, int] = {}
    for index, name in enumerate(header, 1):
        if name in columns:  # the later column's cells would silently replace the earlier's
            found[index] = DataError(f"column {name!r} given twice (columns {columns[name]} and {index})",
                                     Place(path, line, index))
        elif name in fields:
            columns[name] = index
    missing = [name for name, (_, required) in fields.items() if required and name not in columns]
    unused = [name for name in fields if name not in columns]
    unknown = [(index, name) for index, name in enumerate(header, 1) if name not in fields]
    for (index, name), meant in zip(unknown, standing_for([name for _, name in unknown], missing)):
        if meant is not None:
            missing.remove(meant)
            said = f" (did you mean {meant!r}? a required column, not given)"
        else:
            said = did_you_mean(name, unused or list(fields))
        found[index] = DataError(f"unknown column {name!r}{said}", Place(path, line, index))
    return [found[index] for index in sorted(found)] + [DataError(f"missing column {name!r}", Place(path, line))
                                                         for name in missing]


def load_csv(path: Path, model: type[M], failed: list[dict[str, str]] | None = None,
             stated: dict[int, frozenset[str]] | None = None) -> tuple[list[tuple[int, M]], list[DataError]]:
    """Rows of a CSV file as (line number, model) pairs, and every problem found, each naming
    its line and column. Lines starting with '#' are comments; one of them must be
    '# schema_version = 1'. The cells of rows that do not load are added to `failed`, and the columns
    each loaded row gives a value in (the others take their defaults) to `stated`, by line."""
    text = read_text(path)
    errors: list[DataError] = []
    rows: list[tuple[int, M]] = []
    all_lines = text.splitlines()
    version = next((m for m in (CSV_VERSION.match(line) for line in all_lines) if m), None)
    if version is None:
        return rows, [DataError(f"missing the line '# schema_version = {SCHEMA_VERSION}' before the header",
                                Place(path, 1))]
    if len(version.group(1)) > 9 or int(version.group(1)) != SCHEMA_VERSION:
        line_no = all_lines.index(version.string) + 1
        return rows, [DataError(f"schema_version {version.group(1)[:20]} is not one this version of Umpire reads (it "
                                f"reads {SCHEMA_VERSION}): the file was written for another version",
                                Place(path, line_no))]
    numbered = [(n, line) for n, line in enumerate(all_lines, 1)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        return rows, [DataError("no header row", Place(path, 1))]
    header_line, header_text = numbered[0]
    try:
        header = [h.strip() for h in next(csv.reader([header_text]))]
    except csv.Error as e:
        return rows, [DataError(f"not a CSV header row ({e}; a cell may have at most {MAX_CSV_FIELD_CHARS:,} "
                                "characters)", Place(path, header_line))]
    errors.extend(_header_errors(path, header_line, header, fields_of(model)))
    if errors:
        return rows, errors
    columns = {name: index for index, name in enumerate(header, 1)}
    kinds = {name: _field_kind(model, name) for name in header}
    vouched = validator(model, strict=False)
    fast = _row_reader(model, header, kinds)
    for line_no, line in numbered[1:]:
        try:
            # A line without quotes (nearly all) is its cells split at commas, as the csv module would read it.
            quoted = '"' in line or "\0" in line or len(line) > MAX_CSV_FIELD_CHARS
            cells = next(csv.reader(io.StringIO(line))) if quoted else line.split(",")
        except csv.Error as e:
            errors.append(DataError(f"not a CSV row ({e}; a cell may have at most {MAX_CSV_FIELD_CHARS:,} "
                                    "characters)", Place(path, line_no)))
            continue
        if len(cells) != len(header):
            errors.append(DataError(f"{len(cells)} cells for {len(header)} columns ({listed(header)})",
                                    Place(path, line_no)))
            continue
        if fast is not None:
            try:
                made, given = fast(cells)
            except Declined:
                pass
            else:
                rows.append((line_no, made))
                if stated is not None:
                    stated[line_no] = given
                continue
        data: dict[str, Any] = {}
        for name, cell in zip(header, cells):
            stripped = cell.strip()
            if stripped:
                value = stripped if kinds[name] == "str" else _convert(kinds[name], cell)
                data[name] = value.strip() if isinstance(value, str) else value
        checked = vouched(data)
        if checked is None:
            # Declined: pydantic decides (the row may still be valid) and words what it refuses.
            from pydantic import ValidationError as Refused
            try:
                checked = _adapter(model).validate_python(data)
            except Refused as e:
                raw = {name: cell.strip() for name, cell in zip(header, cells)}
                errors.extend(validation_errors(e, path, line=line_no, columns=columns, cells=raw))
                if failed is not None:
                    failed.append(raw)
                continue
        rows.append((line_no, checked))
        if stated is not None:
            stated[line_no] = frozenset(data)
    return rows, errors
