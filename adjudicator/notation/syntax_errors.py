"""A log's syntax errors and how a verdict quotes a line under them, apart from the parser so that the
command line can name them without loading the entries' models (start-up: bench/README.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from wargame.errors import LogSyntaxError

MAX_LOG_BYTES = 4 * 2**20
"""A text or JSON log larger than this is refused unread: a 20-turn game is about 200 KB, and parsing
runs at about 1.5 MB a second (docs/limits.md)."""


class LogSyntaxErrors(LogSyntaxError):
    """Every syntax error of one log, reported together."""

    def __init__(self, errors: list[LogSyntaxError], source: Sequence[str] = ()) -> None:
        super().__init__(f"{len(errors)} error(s) in the log")
        self.errors = errors
        self.source = list(source)


RECEIPT_IN_LINE = re.compile(r"\bumpire1\.[A-Za-z0-9_-]+")
ELIDED_RECEIPT = "umpire1.…"


def elide_receipts(line: str) -> str:
    """A log line as quoted in a verdict: each receipt (hundreds of characters of signature) as `umpire1.…`."""
    return RECEIPT_IN_LINE.sub(ELIDED_RECEIPT, line)


def quoted_source(line: str, column: int) -> list[str]:
    """A log line quoted under a finding, receipts elided, and the caret under the column it had (a column
    inside a receipt: under the receipt)."""
    shown = column
    for match in reversed(list(RECEIPT_IN_LINE.finditer(line))):
        if column > match.end():
            shown -= (match.end() - match.start()) - len(ELIDED_RECEIPT)
        elif column > match.start():
            shown = match.start() + 1
    return [f"    {elide_receipts(line)}", f"    {' ' * (max(shown, 1) - 1)}^"]


def caret_message(error: LogSyntaxError, source: Sequence[str]) -> str:
    """`file:line:col: error: message`, then the source line and a caret under the column."""
    place = error.place
    text = f"{place}: error: {error.message}" if place else f"error: {error.message}"
    if place and place.line and 0 < place.line <= len(source):
        text += "\n" + "\n".join(quoted_source(source[place.line - 1], place.column or 1))
    return text
