"""Reading the JSON form of a log strictly: what the text notation could not say is refused, not coerced.

A JSON log is validated in strict mode (`"turn": "1"` or `true` is not a turn number), with
duplicate keys refused (JSON would keep the last silently) and numbers bounded, so the same
file means the same thing to every reader and converts to a text log that says the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache, partial
from typing import TYPE_CHECKING, Any, NoReturn, Union

from adjudicator.notation.entries import Entry, LogDocument, entry_data
from adjudicator.notation.lines import SparseLines
from adjudicator.notation.json_places import (
    data_path, duplicate_key, first_token, line_and_column, nested_beyond, places,
)
from adjudicator.notation.text import LogSyntaxErrors
from wargame.errors import LogSyntaxError, Place, did_you_mean, listed_words

if TYPE_CHECKING:
    from pydantic import TypeAdapter
    from pydantic_core import ErrorDetails, SchemaValidator

MAX_NUMBER_DIGITS = 9
"""No number of a log (turn, die, supply, points) needs more digits; longer ones are refused."""


JsonValue = Union[str, int, float, bool, None, list["JsonValue"], dict[str, "JsonValue"]]
"""A value JSON decodes to (recursive)."""


NESTING_SHOWN = 100
"""Where a log nested too deep to decode is placed: at the bracket that opens its 101st level (a log needs 4)."""


class _Refused(Exception):
    """A JSON value refused while decoding (duplicate key, huge number, NaN), with how to find it in the text."""

    def __init__(self, message: str, where: Callable[[str], int | None]) -> None:
        super().__init__(message)
        self.where = where
        """The offset of the refused value in the text, found again once the decoder has stopped at it."""


def _too_long(token: str) -> bool:
    return len(token.lstrip("-")) > MAX_NUMBER_DIGITS and token.lstrip("-").isdigit()


def _no_duplicates(pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise _Refused(f"the key {twice[0]!r} appears twice in one object (JSON readers disagree on which counts)",
                       duplicate_key)
    return dict(pairs)


def _bounded_int(text: str) -> int:
    if _too_long(text):
        raise _Refused(f"the number {text[:20]}{'...' if len(text) > 20 else ''} ({len(text)} digits) is too "
                       f"large: a log's numbers have at most {MAX_NUMBER_DIGITS} digits",
                       partial(first_token, refused=_too_long))
    return int(text)


def _refused_constant(text: str) -> NoReturn:
    raise _Refused(f"{text} is not a JSON number", partial(first_token, refused=text.__eq__))


def _place(file: str, text: str, offset: int | None) -> Place:
    """A place in the text by offset, or the file alone for none."""
    return Place(file) if offset is None else Place(file, *line_and_column(text, offset))


@cache
def log_adapter() -> TypeAdapter[LogDocument]:
    """The JSON form's schema, built on first use (pydantic is imported only to read or describe a JSON log)."""
    from pydantic import TypeAdapter
    return TypeAdapter(LogDocument)


def log_schema() -> dict[str, Any]:
    """The JSON Schema of the JSON form of logs, an empty list's or object's default written as such."""
    from pydantic.json_schema import GenerateJsonSchema, NoDefault
    from pydantic_core import core_schema

    class WithFactoryDefaults(GenerateJsonSchema):
        """Defaults made by a factory (`field(default_factory=list)`) shown as the value they make."""

        def get_default_value(self, schema: core_schema.WithDefaultSchema) -> Any:
            factory = schema.get("default_factory")
            if factory is not None and not schema.get("default_factory_takes_data"):
                return factory()  # type: ignore[call-arg]
            return schema.get("default", NoDefault)

    return log_adapter().json_schema(schema_generator=WithFactoryDefaults)


_STRICT_KINDS = frozenset({"str", "int", "bool", "list", "dict", "tagged-union"})
"""The schemas of a JSON log's values: strict, so that `"1"` or `true` is no number and `1` no text."""


def _strict_values(schema: object) -> object:
    """A core schema whose values are strict and whose dataclasses take objects (strict dataclasses take only
    instances from Python values)."""
    if isinstance(schema, list):
        return [_strict_values(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _strict_values(value) if key not in ("cls", "metadata", "config") else value
           for key, value in schema.items()}
    if out.get("type") in _STRICT_KINDS:
        out["strict"] = True
    return out


@cache
def _validator() -> SchemaValidator:
    """The validator of a JSON log's values, built on first use."""
    from pydantic_core import SchemaValidator
    return SchemaValidator(_strict_values(log_adapter().core_schema))  # type: ignore[arg-type]


_WORDED_AS_BEFORE = {
    "unexpected_keyword_argument": "Extra inputs are not permitted",
    "dataclass_type": "Input should be a valid dictionary or instance of {class_name}",
}
"""Errors pydantic words otherwise for dataclasses than for the models the entries were until issue 30: worded
as before, so that a log's errors read as they did."""


def _message(error: ErrorDetails) -> str:
    """An error's message as users know it, with the nearest allowed word to one misspelt (an entry's kind, a side)."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    message = _WORDED_AS_BEFORE[kind].format(**ctx) if kind in _WORDED_AS_BEFORE else error["msg"]
    if kind == "union_tag_invalid":
        return message + did_you_mean(str(ctx.get("tag", "")), listed_words(str(ctx.get("expected_tags", ""))))
    if kind in ("literal_error", "enum") and isinstance(error.get("input"), str):
        return message + did_you_mean(error["input"], listed_words(str(ctx.get("expected", ""))))
    return message


def _tag_key(error: ErrorDetails) -> tuple[str, ...]:
    """The key holding a tagged union's tag that matched none (`kind`), where the error is placed; else nothing."""
    if error["type"] != "union_tag_invalid":
        return ()
    return tuple(listed_words(str((error.get("ctx") or {}).get("discriminator", ""))))[:1]


def read_json_log(text: str, file: str) -> list[Entry]:
    """The entries of a JSON log; LogSyntaxErrors naming each problem."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_bounded_int,
                          parse_constant=_refused_constant)
    except json.JSONDecodeError as e:
        raise LogSyntaxErrors([LogSyntaxError(f"not JSON: {e.msg}", Place(file, e.lineno, e.colno))]) from None
    except _Refused as e:
        raise LogSyntaxErrors([LogSyntaxError(str(e), _place(file, text, e.where(text)))]) from None
    except RecursionError:
        deep = nested_beyond(text, NESTING_SHOWN)
        shown = f" (more than {NESTING_SHOWN} levels from here)" if deep is not None else ""
        raise LogSyntaxErrors([LogSyntaxError(f"arrays or objects nested too deep{shown}",
                                              _place(file, text, deep))]) from None
    if not isinstance(data, dict):
        # Said in the words of the format, not the validator's (": ... instance of LogDocument", placed nowhere).
        kinds = {list: "an array", str: "a string", bool: "true or false", type(None): "null"}
        given = kinds.get(type(data), "a number")
        raise LogSyntaxErrors([LogSyntaxError(
            f'a JSON log is an object ({{"format": "umpire-log", "version": 1, "entries": [...]}}), not {given}',
            _place(file, text, len(text) - len(text.lstrip())))])
    from pydantic import ValidationError
    try:
        # Strict: a JSON log is typed, so a string or true where a number belongs is an error.
        document: LogDocument = _validator().validate_python(data)
    except ValidationError as e:
        found = e.errors()
        paths = [data_path(data, (*err["loc"], *_tag_key(err))) for err in found]
        at = places(text, paths)
        errors = [LogSyntaxError(f"{'.'.join(map(str, err['loc']))}: {_message(err)}",
                                 Place(file, *at.get(path, (None, None))))
                  for err, path in zip(found, paths)]
        raise LogSyntaxErrors(errors) from None
    return list(document.entries)


def placed_in(entries: list[Entry], text: str) -> tuple[list[Entry], SparseLines]:
    """The entries of a JSON log read from `text`, each that gives no line of its own (0, the default: a hand-written
    log) placed at the line and column its object starts at in the text, so that findings and `--at` point into the
    file the user has; and the lines its findings quote: at a line the document gives an entry, the entry in the text
    notation (a twin's lines are its text log's, whose line held it); nothing at a line of the JSON itself."""
    from adjudicator.notation.text import write_entry
    unplaced = [i for i, entry in enumerate(entries) if entry.line == 0]
    at = places(text, [("entries", i) for i in unplaced]) if unplaced else {}
    placed = list(entries)
    for i in unplaced:
        line, column = at[("entries", i)]
        placed[i] = replace(entries[i], line=line, column=column)
    shown: dict[int, str] = {}
    unplaced_lines = {placed[i].line for i in unplaced}
    for entry in entries:
        if entry.line > 0 and entry.line not in shown and entry.line not in unplaced_lines:
            shown[entry.line] = write_entry(entry)
    # With entries placed in the JSON, its lines are the log's: `--at` may name any of them.
    json_lines = text.count("\n") + (not text.endswith("\n")) if unplaced else 0
    return placed, SparseLines(lambda n: shown.get(n, ""), max((*shown, *unplaced_lines, json_lines), default=0))


def log_data(entries: Sequence[Entry]) -> dict[str, object]:
    """The JSON form of a log as JSON values: its format, version and entries (LogDocument's fields)."""
    return {"format": "umpire-log", "version": 1, "entries": [entry_data(entry) for entry in entries]}


def write_json_log(entries: Sequence[Entry]) -> str:
    """The JSON form of a log, as `read_json_log` reads it: two spaces of indent, text as UTF-8, a final newline."""
    return json.dumps(log_data(entries), indent=2, ensure_ascii=False) + "\n"
