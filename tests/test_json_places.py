"""Where a value sits in a JSON text (adjudicator/notation/json_places.py): a JSON log's problems are placed at their
line and column, as a text log's are."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.notation.json_places import Path, data_path, line_and_column, places, value_starts
from adjudicator.notation.jsonlog import MAX_NUMBER_DIGITS, NESTING_SHOWN, read_json_log
from adjudicator.notation.text import LogSyntaxErrors

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=25,
)


def _paths(value: object, here: Path = ()) -> list[Path]:
    """Every path into a parsed document."""
    out = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*here, index))
    return out


def _at(value: object, path: Path) -> object:
    """The value at a path."""
    for step in path:
        value = value[step]  # type: ignore[index]
    return value


@settings(max_examples=200)
@given(JSON, st.sampled_from([None, 2]))
def test_every_value_starts_where_its_path_says(document: object, indent: int | None) -> None:
    """Decoding the text from a path's offset gives the value at that path, for every path of any document, written
    on one line or indented (strings holding brackets, quotes and escapes included)."""
    text = json.dumps(document, indent=indent)
    paths = _paths(document)
    starts = value_starts(text, paths)
    assert set(starts) == set(paths)
    decoder = json.JSONDecoder()
    for path, offset in starts.items():
        assert decoder.raw_decode(text, offset)[0] == _at(document, path)


def test_a_path_the_text_does_not_hold_is_placed_at_its_longest_part() -> None:
    """A key missing from an entry is placed at the entry, and a validator's name that is no key (a union's tag) is
    left out of the path."""
    text = '{"entries": [\n  {"kind": "move", "unit": "u"}\n]}'
    data = json.loads(text)
    assert data_path(data, ("entries", 0, "move", "path")) == ("entries", 0)
    assert data_path(data, ("entries", 0, "move", "unit")) == ("entries", 0, "unit")
    assert places(text, [("entries", 0, "path")]) == {("entries", 0, "path"): (2, 3)}
    assert places(text, [("entries", 0, "unit")]) == {("entries", 0, "unit"): (2, 28)}
    assert line_and_column("ab\ncd", 4) == (2, 2)


def _refused_at(text: str) -> tuple[str, int | None, int | None]:
    """The message, line and column of the one problem a JSON log's text is refused for while decoding."""
    with pytest.raises(LogSyntaxErrors) as caught:
        read_json_log(text, "log.json")
    [error] = caught.value.errors
    assert error.place is not None and error.place.file == "log.json"
    return error.message, error.place.line, error.place.column


LOG_HEAD = '{\n  "format": "umpire-log",\n  "version": 1,\n  "entries": [\n'
"""A JSON log's first four lines: the entries follow from line 5."""


def test_a_key_given_twice_is_placed_at_its_second_time() -> None:
    """At the second `turn` of the first object to close with a key twice (the decoder checks an object's keys as it
    closes, so the inner one), not at a string that reads like the key or an earlier object with one `turn`."""
    text = LOG_HEAD + ('    {"kind": "step", "step": "\\"turn\\": 1, \\"turn\\""},\n'
                       '    {"kind": "turn", "x": {"b": 1, "a": 2,\n'
                       '                           "b": 3, "a": 4}, "turn": 1, "turn": 2}\n  ]\n}\n')
    message, line, column = _refused_at(text)
    assert "'a' appears twice" in message
    assert (line, column) == (7, 36)
    flat = '{"entries": [{"kind": "turn", "turn": 1, "turn": 2}]}'
    assert _refused_at(flat)[1:] == (1, 42)


def test_a_number_too_long_is_placed_at_it() -> None:
    """At the first whole number of more than MAX_NUMBER_DIGITS digits, not at one in a string or a long float."""
    long = "1" * (MAX_NUMBER_DIGITS + 1)
    text = LOG_HEAD + (f'    {{"kind": "step", "step": "{long}"}},\n'
                       f'    {{"kind": "turn", "x": {long}.5, "y": -{"9" * MAX_NUMBER_DIGITS},\n'
                       f'     "turn": -{long}}}\n  ]\n}}\n')
    message, line, column = _refused_at(text)
    assert "too large" in message and (line, column) == (7, 14)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_constant_that_is_no_number_is_placed_at_it(constant: str) -> None:
    """At the constant, not at a string holding its name."""
    text = LOG_HEAD + f'    {{"kind": "step", "step": "{constant}"}},\n    {{"kind": "turn", "turn": {constant}}}\n  ]\n}}\n'
    message, line, column = _refused_at(text)
    assert f"{constant} is not a JSON number" in message and (line, column) == (6, 30)


def test_a_log_nested_too_deep_is_placed_where_it_passes_the_shown_depth() -> None:
    """A document too deep to decode is placed at the bracket that opens level NESTING_SHOWN + 1."""
    text = '{"entries":\n  ' + "[" * 100_000 + "]" * 100_000 + "}"
    message, line, column = _refused_at(text)
    assert "nested too deep" in message and (line, column) == (2, NESTING_SHOWN + 2)
