"""Text from a log or a command line made inert in Markdown: for running text, table cells, code spans,
code blocks, alt text and link targets. A forum renders what we write; nothing a player typed may
become a link, an image, raw HTML or a change of the document's structure."""

from __future__ import annotations

import re
from urllib.parse import quote

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# CommonMark lets a backslash escape any ASCII punctuation; these are the ones that open inline
# syntax anywhere in a line (emphasis, code, links, images, autolinks, raw HTML, entities, tables,
# strikethrough, headings in a cell).
_INLINE = re.compile(r"([\\`*_\[\]<>!|&~#])")
# At the start of a line (a list item's text, a heading's) these open a block: a list, a quote, a
# setext underline, an ordered list.
_BLOCK_START = re.compile(r"^([-+=>]|\d{1,9}[.)])")


def _one_line(value: str) -> str:
    """Control characters (line breaks among them) as spaces: a value never ends the line it is on."""
    return _CONTROL.sub(" ", value)


def text(value: object, line_start: bool = False) -> str:
    """`value` as running Markdown text (a paragraph, a heading, alt text, a table cell; with `line_start`,
    text that begins a line or a list item, where `1.` or `-` would open a block)."""
    escaped = _INLINE.sub(r"\\\1", _one_line(str(value)))
    if not line_start:
        return escaped
    return _BLOCK_START.sub(lambda m: m.group(0)[:-1] + "\\" + m.group(0)[-1], escaped, count=1)


def code_span(value: object, in_table: bool = False) -> str:
    """`value` in a code span whose fence no run of back-ticks inside can close (CommonMark 6.1)."""
    body = _one_line(str(value))
    if not body.strip():
        return text(body)
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    if "`" in body or (body.startswith(" ") and body.endswith(" ")):
        body = f" {body} "  # CommonMark strips one space each side, so a back-tick may start or end the name
    if in_table:
        body = body.replace("|", "\\|")  # GFM splits cells before it reads code spans
    return f"{fence}{body}{fence}"


def code_block(lines: list[str]) -> list[str]:
    """`lines` as a fenced code block whose fence no line can close."""
    clean = [_one_line(line) for line in lines]
    longest = max((len(run) for line in clean for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, *clean, fence]


def link_target(path: str) -> str:
    """A relative file path as a link target: percent-encoded, so it names no scheme (`javascript:`)."""
    return quote(path, safe="/")
