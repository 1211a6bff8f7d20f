"""The chat lines our modules' declaration commands write, shared by the builder (which writes the
report formats into the module) and the log reader (which reads the lines back).

A declaration line is `[umpire] SIDE: WORDS`: the prefix, the side of the player who clicked
(VASSAL's `$PlayerSide$`, empty for a player without a side), a colon, then either a piece
declaration (`attacker us-inf-01 at 0620`: the word, the piece's `UnitId` or `MarkerId`, `at` and
VASSAL's name for where it lies) or a toolbar declaration (`action combat supply 3`, `pass`,
`declare bulge`, `result DR`). VASSAL writes them after `* ` (ReportState, ChangePropertyButton);
a player may type the same line in chat. docs/vassal-logs.md, "Declarations from the module".
"""

from __future__ import annotations

import re

from wargame.errors import did_you_mean
from wargame.records import frozen

PREFIX = "[umpire]"
"""What starts every declaration line, so that no ordinary chat or VASSAL report is taken for one."""

ATTACKER = "attacker"
TARGET = "target"
ACTIVATE = "activate"
STAND = "stand"
SUPPORT = "support"
BOMBARD = "bombard"
DEFENDER = "defender"
"""The unit of a stack that defends it, chosen by its owner (the bombarding player for a bombardment):
Omaha 11.2.3, 11.2.4."""
MOVE_FIRST = "move-first"
"""An activation for a Breakthrough whose stack moves before it attacks (Onslaught 5.5), the notation's
`activate HEX move-first`; a plain activation leaves the order to what the stack does first."""
ALSO = "also"
"""Another hex of the attack just declared (`attack 0302+0303 with ...`), where the game's rules allow attacks on
several hexes (rules.toml's `[combat] multi_hex`)."""
PIECE_WORDS = (ACTIVATE, MOVE_FIRST, ATTACKER, TARGET, ALSO, BOMBARD, SUPPORT, STAND, DEFENDER)
"""Declarations made from a piece's menu: each names the piece and where it lies."""

ACTION = "action"
PASS = "pass"
DECLARE = "declare"
RESULT = "result"
INCOME = "income"
"""`income N` (or `income` alone: the referee counts it), supply collected (Onslaught 8.7); `income reduce
SOURCE N`: a reduced collection announced for a source."""
CAPTURE = "capture"
"""`capture HEX [points N]`: supply captured at an enemy source (Onslaught 8.7)."""
TOOLBAR_WORDS = (ACTION, PASS, DECLARE, RESULT, INCOME, CAPTURE)
"""Declarations made from the toolbar's Declare menu."""

UNSET = "?"
"""The value the declaration property is reset to before each toolbar declaration: VASSAL's
ChangePropertyButton reports only a change, so the same declaration twice in a row needs it."""

DECLARATION_PROPERTY = "UmpireDeclaration"
"""The global property the toolbar's declaration buttons set (and whose change they report)."""

LINE = re.compile(r"^\s*\[umpire\]\s*(?P<side>[^:\s]*)\s*:\s*(?P<words>.*?)\s*$", re.S)
PIECE = re.compile(r"^(?P<word>[a-z]+(?:-[a-z]+)?)\s+(?P<subject>\S+)(?:\s+at(?:\s+(?P<where>.*?))?)?\s*$", re.S)


def piece_report(word: str, id_property: str) -> str:
    """A piece declaration's report format (VASSAL FormattedString): who, what, which piece, where."""
    return f"{PREFIX} $PlayerSide$: {word} ${id_property}$ at $location$"


def toolbar_report(words: str) -> str:
    """A toolbar declaration's report format; `$newValue$` is what the player entered or picked."""
    return f"{PREFIX} $PlayerSide$: {words}"


@frozen
class Declaration:
    """One declaration line read back: the player's side (None without one), the word and the rest."""

    side: str | None
    word: str
    subject: str = ""
    """The piece's id (piece declarations) or the words after the word (toolbar declarations)."""
    where: str = ""
    """VASSAL's name for where the piece lies (piece declarations)."""


class NotADeclaration(ValueError):
    """A line that starts with the prefix but does not read as a declaration."""


def is_declaration(text: str) -> bool:
    """True when a chat line (without VASSAL's `* `) is meant as a declaration."""
    return text.lstrip().startswith(PREFIX)


def read_declaration(text: str) -> Declaration:
    """A declaration line as its parts; NotADeclaration (with what was expected) if it does not read."""
    m = LINE.match(text)
    if m is None:
        raise NotADeclaration(f"expected '{PREFIX} SIDE: WORDS' (a side, or nothing, then a colon)")
    side = m.group("side") or None
    words = m.group("words")
    first = words.split(maxsplit=1)[0] if words else ""
    if first in TOOLBAR_WORDS:
        return Declaration(side, first, words[len(first):].strip())
    if first in PIECE_WORDS:
        p = PIECE.match(words)
        if p is None:
            raise NotADeclaration(f"expected '{first} PIECE at PLACE', found {words!r}")
        return Declaration(side, first, p.group("subject"), (p.group("where") or "").strip())
    known = (*PIECE_WORDS, *TOOLBAR_WORDS)
    raise NotADeclaration(f"expected one of {', '.join(known)} after '{PREFIX} SIDE:', found "
                          f"{first or 'nothing'!r}" + did_you_mean(first, known))


@frozen
class Declarations:
    """What a rule system's players declare from our modules: piece menus and toolbar buttons."""

    unit_words: tuple[str, ...]
    """Piece declarations on every unit."""
    marker_words: dict[str, tuple[str, ...]]
    """Piece declarations on markers, by marker kind."""
    actions: tuple[str, ...]
    """Action types, each a toolbar button that asks for the supply paid (Onslaught 5.1)."""
    passes: bool
    """A Pass button (Onslaught 5.0)."""
    declares: dict[str, str]
    """`declare WHAT` buttons: what, and who may declare it (a side)."""
    reduces: str | None = None
    """The side that announces a reduced collection from a supply source (Onslaught 8.7): a button asking
    for the source and the points, writing `income reduce SOURCE N`; None: no such button."""
    collects: bool = False
    """A button for the supply points a side collects (Onslaught 8.7), asking for them (or `-`), writing
    `income N` (`income`: the referee counts them)."""
    captures: str | None = None
    """The side that captures supply at the enemy's sources (Onslaught 8.7): a button asking for the hex
    (and the points), writing `capture HEX [points N]`; None: no such button."""
