"""Where each key of a TOML text is written: the line of every table, array-of-tables element, assignment and array
element, by its key path as the loaders name it (`sequence[2].items[0].entries[1].side`), so an error is placed on
the line it is about.

The text was read by the TOML reader already (this runs only to place errors): the scan follows TOML's grammar far
enough to know where a header, a key or a value starts, and never fails on text it does not expect (it moves on)."""

from __future__ import annotations

import re

import tomli

Path_ = tuple[str | int, ...]

_SPACE = re.compile(r"[ \t\r]*")
_COMMENT = re.compile(r"#[^\n]*")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BASIC = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LITERAL = re.compile(r"'[^'\n]*'")
_MULTILINE_BASIC = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""(?:"{1,2}(?!"))?', re.DOTALL)
_MULTILINE_LITERAL = re.compile(r"'''(?:[^']|'(?!''))*'''(?:'{1,2}(?!'))?", re.DOTALL)
_SCALAR = re.compile(r"[^,\]}\n#\s]+")
_REST_OF_LINE = re.compile(r"[^\n]*")


def _quoted_key(token: str) -> str:
    """A quoted key's name (escapes of a basic string read as TOML reads them)."""
    if token.startswith("'"):
        return token[1:-1]
    try:
        return str(tomli.loads(f"k = {token}")["k"])
    except tomli.TOMLDecodeError:
        return token[1:-1]


class TomlLines:
    """The 1-based line of every key path of a TOML text, indexed once so that placing many errors does not rescan
    the file for each (2,000 errors took 11 s when each scanned it)."""

    def __init__(self, text: str) -> None:
        self.at: dict[Path_, int] = {}
        self._text = text
        self._i = 0
        self._line = 1
        self._elements: dict[Path_, int] = {}  # arrays of tables: the elements given so far
        self._scan()

    def line_of(self, loc: Path_) -> int | None:
        """The line a key path points at: its own, else that of the nearest key above it that is written (a key
        left out is placed at its table)."""
        for depth in range(len(loc), 0, -1):
            found = self.at.get(tuple(loc[:depth]))
            if found is not None:
                return found
        return None

    # -- the scan ---------------------------------------------------------------------------
    def _keep(self, path: Path_) -> None:
        self.at.setdefault(path, self._line)

    def _skip(self, newlines: bool) -> None:
        """Past spaces and comments (and line ends, counted, where `newlines`)."""
        text = self._text
        while self._i < len(text):
            self._i = _SPACE.match(text, self._i).end()  # type: ignore[union-attr]
            if text.startswith("#", self._i):
                self._i = _COMMENT.match(text, self._i).end()  # type: ignore[union-attr]
            elif newlines and text.startswith("\n", self._i):
                self._i += 1
                self._line += 1
            else:
                return

    def _take(self, pattern: re.Pattern[str]) -> str | None:
        """The token a pattern matches here, taken (its line ends counted), or None."""
        m = pattern.match(self._text, self._i)
        if m is None:
            return None
        self._i = m.end()
        self._line += m.group().count("\n")
        return m.group()

    def _key(self) -> tuple[str, ...]:
        """A dotted key's parts (none when no key starts here)."""
        parts: list[str] = []
        while True:
            self._skip(newlines=False)
            bare = self._take(_BARE_KEY)
            quoted = None if bare is not None else (self._take(_BASIC) or self._take(_LITERAL))
            if bare is None and quoted is None:
                return tuple(parts)
            parts.append(bare if bare is not None else _quoted_key(quoted or ""))
            self._skip(newlines=False)
            if not self._text.startswith(".", self._i):
                return tuple(parts)
            self._i += 1

    def _scan(self) -> None:
        """Every header and assignment at the top level, each value's keys and elements within it."""
        text = self._text
        table: Path_ = ()
        while self._i < len(text):
            self._skip(newlines=True)
            if self._i >= len(text):
                return
            if text.startswith("[", self._i):
                table = self._header(table)
            else:
                start = self._i
                parts = self._key()
                self._skip(newlines=False)
                if parts and text.startswith("=", self._i):
                    self._i += 1
                    self._keep(table + parts)
                    self._value(table + parts)
                elif self._i == start:
                    self._i += 1  # not TOML here (the reader refused such text before): move on
            self._take(_REST_OF_LINE)  # a comment, or what the reader would have refused

    def _header(self, table: Path_) -> Path_:
        """A `[table]` or `[[array]]` header: the table it opens, by its concrete path (array elements indexed)."""
        many = self._text.startswith("[[", self._i)
        self._i += 2 if many else 1
        parts = self._key()
        if not parts:
            return table
        concrete: Path_ = ()
        for part in parts[:-1]:
            concrete += (part,)
            if concrete in self._elements:  # a key through an array of tables: its last element so far
                concrete += (self._elements[concrete] - 1,)
        concrete += (parts[-1],)
        if many:
            self._keep(concrete)
            index = self._elements.get(concrete, 0)
            self._elements[concrete] = index + 1
            concrete += (index,)
        self._keep(concrete)
        return concrete

    def _value(self, path: Path_) -> None:
        """The value starting here, at `path`: an array's elements and an inline table's keys kept, with those
        within them; done with an explicit stack (arrays nest as deep as the text does)."""
        text = self._text
        # Each open array or inline table: its path, whether it is an array, and its next element's index.
        stack: list[tuple[Path_, bool, list[int]]] = []
        pending: Path_ | None = path
        while self._i < len(text):
            self._skip(newlines=bool(stack))
            if self._i >= len(text):
                return
            c = text[self._i]
            if pending is not None:  # a value starts here
                if c == "[":
                    self._i += 1
                    stack.append((pending, True, [0]))
                elif c == "{":
                    self._i += 1
                    stack.append((pending, False, [0]))
                elif not (self._take(_MULTILINE_BASIC) or self._take(_MULTILINE_LITERAL) or self._take(_BASIC)
                          or self._take(_LITERAL) or self._take(_SCALAR)):
                    if not stack:
                        return
                    self._i += 1
                pending = None
                if not stack:
                    return
                continue
            if not stack:
                return
            where, is_array, index = stack[-1]
            if c in "]}":
                self._i += 1
                stack.pop()
                if not stack:
                    return
            elif c == ",":
                self._i += 1
                index[0] += 1
            elif c == "\n":
                return  # an inline table's line ended unclosed: the reader refused it before
            elif is_array:
                pending = (*where, index[0])
                self._keep(pending)
            else:
                parts = self._key()
                self._skip(newlines=False)
                if parts and text.startswith("=", self._i):
                    self._i += 1
                    pending = where + parts
                    self._keep(pending)
                else:
                    self._i += 1


def toml_line(text: str, loc: Path_) -> int | None:
    """The line a key path points at in a TOML text (see `TomlLines.line_of`)."""
    return TomlLines(text).line_of(loc)
