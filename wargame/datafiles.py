"""Reading TOML and CSV data files into models, with errors that name file, line and key."""

from __future__ import annotations

import csv
import io
import re
import tomllib
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from wargame.errors import DataError, DataErrors, Place, did_you_mean
from wargame.models import PATTERN_MEANINGS, SCHEMA_VERSION

M = TypeVar("M", bound=BaseModel)
# CSV files carry their schema version in a comment line before the header.
CSV_VERSION = re.compile(r"^\s*#\s*schema_version\s*=\s*(\d+)\s*$")


def read_text(path: Path) -> str:
    """A data file's text; DataError if it is missing or not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError("file not found", Place(path)) from None
    except UnicodeDecodeError as e:
        raise DataError(f"not UTF-8 text ({e.reason} at byte {e.start})", Place(path)) from None
    except OSError as e:
        raise DataError(f"cannot read: {e.strerror}", Place(path)) from None


def _loc_text(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def toml_line(text: str, loc: tuple[int | str, ...]) -> int | None:
    """Best guess of the line a key path points at in a TOML text (tables and arrays of tables)."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    i = 0
    found: int | None = None
    while i < len(loc):
        key = loc[i]
        if not isinstance(key, str):
            break
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        if isinstance(nxt, int):
            # An array of tables: the nxt-th [[key]] header (or an inline array: the key line).
            header = re.compile(rf"^\s*\[\[\s*(?:[\w.-]+\.)?{re.escape(key)}\s*\]\]")
            hits = [n for n in range(start, end) if header.match(lines[n])]
            if nxt < len(hits):
                start = hits[nxt]
                following = [n for n in range(start + 1, end) if re.match(r"^\s*\[", lines[n])]
                end = following[0] if following else end
                found = start + 1
                start += 1
                i += 2
                continue
            inline = re.compile(rf"^\s*{re.escape(key)}\s*=")
            hits = [n for n in range(start, end) if inline.match(lines[n])]
            return hits[0] + 1 if hits else found
        header = re.compile(rf"^\s*\[\s*(?:[\w.-]+\.)?{re.escape(key)}\s*\]")
        assign = re.compile(rf"^\s*{re.escape(key)}\s*=")
        hit = next((n for n in range(start, end) if assign.match(lines[n]) or header.match(lines[n])), None)
        if hit is None:
            return found
        found = hit + 1
        if header.match(lines[hit]):
            following = [n for n in range(hit + 1, len(lines)) if re.match(r"^\s*\[", lines[n])]
            start, end = hit + 1, following[0] if following else len(lines)
        i += 1
    return found


def _shown(value: object) -> str:
    """A value as a designer wrote it (a cell of several numbers as on the counter)."""
    if isinstance(value, tuple):
        return repr("-".join(map(str, value)))
    return repr(value)


def validation_errors(e: ValidationError, path: Path, text: str | None = None,
                      line: int | None = None, columns: dict[str, int] | None = None,
                      cells: dict[str, str] | None = None) -> list[DataError]:
    """One DataError per pydantic error, placed at the key (TOML) or the row and column (CSV), the value shown."""
    out = []
    for err in e.errors():
        loc = tuple(err["loc"])
        key = _loc_text(loc)
        msg = err["msg"]
        value = err.get("input")
        # The cell as written (`4-x`), not pydantic's piece of it (`x`).
        cell = cells.get(str(loc[0])) if cells and loc else None
        written = f" in {cell!r}" if cell is not None and len(loc) > 1 else ""
        if loc == ("schema_version",):
            msg = (f"schema_version {value!r} is not one this version of Umpire reads (it reads "
                   f"{SCHEMA_VERSION}): the file was written for another version")
        elif err["type"] in ("int_parsing", "int_type", "int_from_float"):
            msg = f"{_shown(value)}{written} is not a whole number"
        elif err["type"] in ("float_parsing", "float_type"):
            msg = f"{_shown(value)}{written} is not a number"
        elif err["type"] in ("bool_parsing", "bool_type"):
            msg = f"{_shown(value)} is not yes or no"
        elif err["type"] == "extra_forbidden":
            msg = f"unknown key {loc[-1]!r}"
        elif err["type"] == "string_pattern_mismatch":
            pattern = (err.get("ctx") or {}).get("pattern", "")
            msg = f"{err['input']!r} is not {PATTERN_MEANINGS.get(pattern, 'of the expected form ' + pattern)}"
        elif err["type"] == "missing":
            msg = f"missing key {loc[-1]!r}" if loc else "missing value"
        elif not isinstance(value, (dict, list)) and value is not None:
            msg = f"{msg}, found {_shown(value)}{written}"
        where_line = line if line is not None else (toml_line(text, loc) if text else None)
        column = columns.get(str(loc[0])) if columns and loc else None
        out.append(DataError(msg, Place(path, where_line, column, key or None)))
    return out


def load_toml(path: Path, model: type[M]) -> M:
    """Read a TOML file into a model; DataError(s) naming the line and key."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        place = Place(path, int(m.group(1)), int(m.group(2))) if m else Place(path)
        raise DataError(f"TOML syntax: {msg}", place) from None
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errors = validation_errors(e, path, text)
        if len(errors) == 1:
            raise errors[0] from None
        raise DataErrors(errors) from None


def _field_kind(model: type[BaseModel], name: str) -> str:
    """How a CSV cell converts for a model field: 'tuple-int', 'tuple-str', 'bool' or 'str'."""
    annotation = model.model_fields[name].annotation
    args: tuple[Any, ...] = ()
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = tuple(a for a in typing.get_args(annotation) if a is not type(None))
        annotation = args[0] if len(args) == 1 else annotation
        origin = typing.get_origin(annotation)
    if origin is tuple:
        inner = typing.get_args(annotation)[0]
        return "tuple-int" if inner is int else "tuple-str"
    if annotation is bool:
        return "bool"
    return "str"


def _convert(kind: str, cell: str) -> Any:
    if kind == "tuple-int":
        parts = [p.strip() for p in re.split(r"[-/]", cell)]
        return tuple(int(p) if re.fullmatch(r"\d+", p) else p for p in parts)
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


def load_csv(path: Path, model: type[M], failed: list[dict[str, str]] | None = None
             ) -> tuple[list[tuple[int, M]], list[DataError]]:
    """Rows of a CSV file as (line number, model) pairs, and every problem found, each naming
    its line and column. Lines starting with '#' are comments; one of them must be
    '# schema_version = 1'. The cells of rows that do not load are added to `failed`."""
    text = read_text(path)
    errors: list[DataError] = []
    rows: list[tuple[int, M]] = []
    all_lines = text.splitlines()
    version = next((m for m in (CSV_VERSION.match(line) for line in all_lines) if m), None)
    if version is None:
        return rows, [DataError(f"missing the line '# schema_version = {SCHEMA_VERSION}' before the header",
                                Place(path, 1))]
    if int(version.group(1)) != SCHEMA_VERSION:
        line_no = all_lines.index(version.string) + 1
        return rows, [DataError(f"schema_version {version.group(1)} is not one this version of Umpire reads (it "
                                f"reads {SCHEMA_VERSION}): the file was written for another version",
                                Place(path, line_no))]
    numbered = [(n, line) for n, line in enumerate(all_lines, 1)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        return rows, [DataError("no header row", Place(path, 1))]
    header_line, header_text = numbered[0]
    header = [h.strip() for h in next(csv.reader([header_text]))]
    fields = model.model_fields
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        if name not in fields:
            errors.append(DataError(f"unknown column {name!r}{did_you_mean(name, fields)}",
                                    Place(path, header_line, index + 1)))
        columns[name] = index + 1
    for name, info in fields.items():
        if info.is_required() and name not in columns:
            errors.append(DataError(f"missing column {name!r}", Place(path, header_line)))
    if errors:
        return rows, errors
    kinds = {name: _field_kind(model, name) for name in header}
    for line_no, line in numbered[1:]:
        cells = next(csv.reader(io.StringIO(line)))
        if len(cells) != len(header):
            errors.append(DataError(f"{len(cells)} cells for {len(header)} columns ({', '.join(header)})",
                                    Place(path, line_no)))
            continue
        data = {name: _convert(kinds[name], cell) for name, cell in zip(header, cells) if cell.strip() != ""}
        data = {k: v.strip() if isinstance(v, str) else v for k, v in data.items()}
        try:
            rows.append((line_no, model.model_validate(data)))
        except ValidationError as e:
            raw = {name: cell.strip() for name, cell in zip(header, cells)}
            errors.extend(validation_errors(e, path, line=line_no, columns=columns, cells=raw))
            if failed is not None:
                failed.append(raw)
    return rows, errors
