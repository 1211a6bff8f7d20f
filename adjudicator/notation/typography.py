"""Typographic characters that an email program or a word processor writes for the notation's own (curly quotes,
en and em dashes, Unicode hyphens), read as those: one character for one, so every column stays where its writer
put it, and a comment is left as written. What was read so is said once a log, as a note (docs/log-format.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from adjudicator.findings import Finding

CHARACTERS: dict[str, tuple[str, str]] = {
    "\u2010": ("-", "hyphen"), "\u2011": ("-", "non-breaking hyphen"), "\u2012": ("-", "figure dash"),
    "\u2013": ("-", "en dash"), "\u2014": ("-", "em dash"), "\u2015": ("-", "horizontal bar"),
    "\u2212": ("-", "minus sign"), "\ufe63": ("-", "small hyphen-minus"), "\uff0d": ("-", "fullwidth hyphen-minus"),
    "\u201c": ('"', "left double quote"), "\u201d": ('"', "right double quote"), "\u201e": ('"', "low double quote"),
    "\u201f": ('"', "reversed double quote"), "\u2033": ('"', "double prime"), "\u00ab": ('"', "left guillemet"),
    "\u00bb": ('"', "right guillemet"), "\u2018": ("'", "left single quote"), "\u2019": ("'", "right single quote"),
    "\u201a": ("'", "low single quote"), "\u201b": ("'", "reversed single quote"), "\u2032": ("'", "prime"),
}
"""Each typographic character, the notation's own that it stands for, and its name for people."""
_TABLE = str.maketrans({c: plain for c, (plain, _) in CHARACTERS.items()})
_TYPOGRAPHIC = re.compile("[" + "".join(CHARACTERS) + "]")
_COMMENT = re.compile(r"(?:^|\s)#")
MAX_LINES_NAMED = 12
"""How many lines the note names (a log pasted through a word processor may have them on every line)."""


def _code_end(line: str) -> int:
    """Where a line's comment starts (its length if it has none): a word that begins with '#'."""
    m = _COMMENT.search(line)
    return len(line) if m is None else m.end() - 1


def plain_code(line: str) -> str:
    """The line with the typographic characters before its comment read as the notation's own; a header whose
    quotes are plain already is left whole (a curly apostrophe in a player's name is the player's)."""
    if _TYPOGRAPHIC.search(line) is None:  # every line of every text log comes here: one search for most
        return line
    end = _code_end(line)
    if _TYPOGRAPHIC.search(line, 0, end) is None:
        return line
    if line.lstrip().startswith("[") and line.count('"', 0, end) >= 2:
        return line
    return line[:end].translate(_TABLE) + line[end:]


def retyped(line: str) -> str:
    """The typographic characters `plain_code` reads in a line, each once, in the order they first appear."""
    if plain_code(line) == line:
        return ""
    return "".join(dict.fromkeys(_TYPOGRAPHIC.findall(line, 0, _code_end(line))))


def described(characters: str) -> str:
    """What was read, for people: `'–' (en dash) as '-' (typographic characters ...)`."""
    read = ", ".join(f"{c!r} ({CHARACTERS[c][1]}) as {CHARACTERS[c][0]!r}" for c in characters)
    return f"read {read} (what an email program or a word processor may write for the notation's own)"


def typography_note(lines: Sequence[str], base: int = 0) -> Finding | None:
    """One note for a text log's lines read with typographic characters (None if none was): at the first such
    character, naming the characters read and the lines; `base` numbers a chain's part (its line 0)."""
    first: tuple[int, int] | None = None
    found: list[int] = []
    characters: dict[str, None] = {}
    for number, line in enumerate(lines, 1):
        if not (chars := retyped(line)):
            continue
        if first is None:
            first = (number, min(line.find(c) for c in chars) + 1)
        found.append(number)
        characters.update(dict.fromkeys(chars))
    if first is None:
        return None
    named = ", ".join(str(n) for n in found[:MAX_LINES_NAMED])
    more = f" and {len(found) - MAX_LINES_NAMED:,} more" if len(found) > MAX_LINES_NAMED else ""
    return Finding("note", "notation", "typography", base + first[0], first[1],
                   f"{described(''.join(characters))}; on line(s) {named}{more}")
