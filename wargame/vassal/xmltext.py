"""XML members of VASSAL files (buildFile.xml, savedata, moduledata) read safely: decoded by us in
the few encodings a module may use, with no DOCTYPE or entity declaration in any of them.

The text is decoded here rather than by expat, so the DOCTYPE ban holds for UTF-16 too and a
declared encoding Python or expat cannot read (UTF-7, `x-nonsense`) is our error, not theirs.
"""

from __future__ import annotations

import codecs
import re
from xml.etree import ElementTree

from wargame.errors import DataError, Place

ACCEPTED_ENCODINGS = frozenset(codecs.lookup(e).name for e in (
    "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "ascii", "latin-1", "cp1252"))
"""Codec names (after `codecs.lookup`) an XML member may declare; VASSAL itself writes UTF-8."""

_DECLARED = re.compile(rb"""^<\?xml[^>]{0,200}?encoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']""")


def _encoding_of(data: bytes) -> str:
    """The encoding named by a byte-order mark, a UTF-16 first character, or the XML declaration."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if data.startswith(b"<\x00"):
        return "utf-16-le"
    if data.startswith(b"\x00<"):
        return "utf-16-be"
    declared = _DECLARED.match(data)
    return declared.group(1).decode("ascii") if declared else "utf-8"


def parse_xml(data: bytes, name: str, place: Place) -> ElementTree.Element:
    """The root element of an XML member; DataError for an encoding, declaration or syntax we refuse."""
    encoding = _encoding_of(data)
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        codec = ""
    if codec not in ACCEPTED_ENCODINGS:
        raise DataError(f"{name}: the encoding {encoding!r} it declares is not accepted (VASSAL writes UTF-8; "
                        f"accepted: UTF-8, UTF-16, ASCII, ISO-8859-1, windows-1252)", place)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:
        raise DataError(f"{name}: byte {e.start} is not {encoding} text", place) from None
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        # VASSAL writes neither; refusing them keeps entity-expansion attacks out (checked on the text,
        # so a UTF-16 file cannot slip past a byte check).
        raise DataError(f"{name}: a DOCTYPE or ENTITY declaration is not accepted", place)
    try:
        # A str: expat reads it as decoded here, whatever encoding its declaration names.
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as e:
        raise DataError(f"{name} is not well-formed XML ({e})", place) from None
