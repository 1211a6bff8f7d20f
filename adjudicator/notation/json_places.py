"""Where in a JSON text a value sits, by its path (`entries`, 17, `path`, 0): the line and column a problem found in
the parsed document is reported at, as the text notation's are."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterable

Path = tuple[str | int, ...]

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
"""A JSON text's tokens: a whole string, a structural character, or a number or literal (whitespace skipped)."""


def value_starts(text: str, paths: Iterable[Path]) -> dict[Path, int]:
    """The offset in `text` (valid JSON) where the value at each path, or at the longest part of it found, begins.

    One pass over the tokens, keeping only the places on the way to a path asked for: linear in the text, whatever
    its nesting (a stack, no recursion)."""
    wanted = {path[:k] for path in paths for k in range(len(path) + 1)}
    found: dict[Path, int] = {}
    # Each open container: its path, whether it is an object, the next index (array) or the key read (object).
    stack: list[tuple[Path, bool, list[str | int]]] = []
    key: str | None = None
    expecting_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ",:":
            if token == "," and stack and not stack[-1][1]:
                stack[-1][2][0] = int(stack[-1][2][0]) + 1
            if token == "," and stack and stack[-1][1]:
                expecting_key = True
            continue
        if token in "}]":
            stack.pop()
            expecting_key = False
            continue
        if expecting_key:
            key = json.loads(token)
            expecting_key = False
            continue
        if not stack:
            path: Path = ()
        elif stack[-1][1]:
            path = (*stack[-1][0], key if key is not None else "")
        else:
            path = (*stack[-1][0], stack[-1][2][0])
        if path in wanted:
            found[path] = match.start()
        if token == "{":
            stack.append((path, True, [""]))
            expecting_key = True
        elif token == "[":
            stack.append((path, False, [0]))
    return found


def data_path(data: object, loc: Iterable[str | int]) -> Path:
    """A validation error's location as a path in the parsed document: the names a validator adds that are no key
    (a tagged union's tag, `move` in `entries.17.move.path`) left out, and cut where the document ends."""
    path: list[str | int] = []
    here = data
    for step in loc:
        if isinstance(here, dict) and isinstance(step, str) and step in here:
            here = here[step]
        elif isinstance(here, list) and isinstance(step, int) and 0 <= step < len(here):
            here = here[step]
        elif isinstance(step, str):
            continue
        else:
            break
        path.append(step)
    return tuple(path)


def line_and_column(text: str, offset: int, newlines: list[int] | None = None) -> tuple[int, int]:
    """The 1-based line and column of an offset (`newlines`: the offsets of the text's line feeds, if known)."""
    ends = newlines if newlines is not None else [m.start() for m in re.finditer("\n", text)]
    line = bisect.bisect_left(ends, offset)
    start = ends[line - 1] + 1 if line else 0
    return line + 1, offset - start + 1


def places(text: str, paths: Iterable[Path]) -> dict[Path, tuple[int, int]]:
    """The line and column of each path's value, or of the longest part of its path the text holds (a key missing
    from an entry: the entry; a union's tag, not a key: the value before it)."""
    asked = list(paths)
    starts = value_starts(text, asked)
    newlines = [m.start() for m in re.finditer("\n", text)]
    out: dict[Path, tuple[int, int]] = {}
    for path in asked:
        for k in range(len(path), -1, -1):
            if path[:k] in starts:
                out[path] = line_and_column(text, starts[path[:k]], newlines)
                break
    return out


def first_token(text: str, refused: Callable[[str], bool]) -> int | None:
    """The offset of the first number or literal (no string) for which `refused` is true: where the decoder, which
    refuses the first it meets, stopped."""
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] not in '"{}[]:,' and refused(token):
            return match.start()
    return None


def duplicate_key(text: str) -> int | None:
    """The offset of the second of a key given twice in the first object to close with one (the decoder checks each
    object's keys as it closes): of its keys given twice, the first in sorted order, as the message names it."""
    # Each open container: for an object, every key read with its offsets, and whether a key comes next.
    stack: list[dict[str, list[int]] | None] = []
    expecting_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "{[":
            stack.append({} if token == "{" else None)
            expecting_key = token == "{"
        elif token in "}]":
            keys = stack.pop() if stack else None
            twice = sorted(key for key, offsets in (keys or {}).items() if len(offsets) > 1)
            if keys is not None and twice:
                return keys[twice[0]][1]
            expecting_key = False
        elif token == ",":
            expecting_key = bool(stack) and stack[-1] is not None
        elif expecting_key and stack and stack[-1] is not None:
            stack[-1].setdefault(json.loads(token), []).append(match.start())
            expecting_key = False
    return None


def nested_beyond(text: str, depth: int) -> int | None:
    """The offset of the first bracket that opens more than `depth` arrays or objects within each other."""
    level = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "{[":
            level += 1
            if level > depth:
                return match.start()
        elif token in "}]":
            level -= 1
    return None


__all__ = ["data_path", "duplicate_key", "first_token", "line_and_column", "nested_beyond", "places", "value_starts"]
