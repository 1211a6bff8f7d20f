"""Where a value sits in a JSON text (adjudicator/notation/json_places.py): a JSON log's problems are placed at their
line and column, as a text log's are."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.notation.json_places import Path, data_path, line_and_column, places, value_starts

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
