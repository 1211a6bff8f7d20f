"""Reading the JSON form of a log strictly: what the text notation could not say is refused, not coerced.

A JSON log is validated in strict mode (`"turn": "1"` or `true` is not a turn number), with
duplicate keys refused (JSON would keep the last silently) and numbers bounded, so the same
file means the same thing to every reader and converts to a text log that says the same.
"""

from __future__ import annotations

import json
from typing import NoReturn, Union

from pydantic import ValidationError

from adjudicator.notation.entries import Entry, LogDocument
from adjudicator.notation.text import LogSyntaxErrors
from wargame.errors import LogSyntaxError, Place

MAX_NUMBER_DIGITS = 9
"""No number of a log (turn, die, supply, points) needs more digits; longer ones are refused."""


JsonValue = Union[str, int, float, bool, None, list["JsonValue"], dict[str, "JsonValue"]]
"""A value JSON decodes to (recursive)."""


class _Refused(Exception):
    """A JSON value refused while decoding (duplicate key, huge number, NaN)."""


def _no_duplicates(pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise _Refused(f"the key {twice[0]!r} appears twice in one object (JSON readers disagree on which counts)")
    return dict(pairs)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _Refused(f"the number {text[:20]}{'...' if len(text) > 20 else ''} ({len(text)} digits) is too "
                       f"large: a log's numbers have at most {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _refused_constant(text: str) -> NoReturn:
    raise _Refused(f"{text} is not a JSON number")


def read_json_log(text: str, file: str) -> list[Entry]:
    """The entries of a JSON log; LogSyntaxErrors naming each problem."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_bounded_int,
                          parse_constant=_refused_constant)
    except json.JSONDecodeError as e:
        raise LogSyntaxErrors([LogSyntaxError(f"not JSON: {e.msg}", Place(file, e.lineno, e.colno))]) from None
    except _Refused as e:
        raise LogSyntaxErrors([LogSyntaxError(str(e), Place(file))]) from None
    except RecursionError:
        raise LogSyntaxErrors([LogSyntaxError("arrays or objects nested too deep", Place(file))]) from None
    try:
        # Strict: a JSON log is typed, so a string or true where a number belongs is an error.
        return list(LogDocument.model_validate(data, strict=True).entries)
    except ValidationError as e:
        errors = [LogSyntaxError(f"{'.'.join(map(str, err['loc']))}: {err['msg']}", Place(file))
                  for err in e.errors()]
        raise LogSyntaxErrors(errors) from None
