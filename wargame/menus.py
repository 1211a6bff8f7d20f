"""What a game's players declare from its module, as data (game.toml's `[declare]`): the piece menus' commands,
the Declare toolbar's buttons and who may press them. The builder writes them into the module and the reader reads
their chat lines back (wargame/vassal/declarations.py); no code names a game or a side for them (issue 25)."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Literal

from wargame.constraints import Model, RefusedAt

if TYPE_CHECKING:
    from wargame.vassal.declarations import Declarations

PieceWord = Literal["activate", "move-first", "attacker", "target", "also", "bombard", "support", "stand", "defender"]
"""A declaration made from a piece's menu (wargame.vassal.declarations.PIECE_WORDS: a test keeps them the same)."""

MENU_TEXT: dict[str, str] = {
    "activate": "Activate", "move-first": "Activate, moving before attacking", "attacker": "Declare attacker", "target": "Declare target (attack this hex)",
    "also": "Also attack this hex (the same attack)",
    "bombard": "Bombard this hex", "stand": "Stand", "support": "Declare support fire",
    "defender": "Defends its stack",
}
"""Each piece command's menu text, unless the game's data word it otherwise."""


WINNING = "winning"
"""`[declare] declares`' word for a claim either player may make (the one who says they are winning)."""


class DeclareTable(Model):
    """game.toml's `[declare]`: the declarations a game's module offers (the defaults: attacker and target on every
    unit, and a claim of victory by the player who says they are winning)."""

    unit: tuple[PieceWord, ...] = ("attacker", "target")
    """Piece commands on every unit, outermost first."""
    markers: dict[str, tuple[PieceWord, ...]] = field(default_factory=dict)
    """Piece commands on markers, by marker kind (markers.toml)."""
    actions: tuple[str, ...] = ()
    """Action types, a toolbar button each asking for the supply paid (`action TYPE supply N`)."""
    passes: bool = False
    """A Pass button."""
    declares: dict[str, str] = field(default_factory=lambda: {"victory": WINNING})
    """`declare WHAT` buttons and who may press them: a side, or `winning` (either player, claiming it)."""
    reduces: str | None = None
    """The side that announces a reduced collection from a supply source (`income reduce SOURCE N`)."""
    collects: bool = False
    """A button for the supply points a side collects (`income N`, or `income`: the referee counts)."""
    captures: str | None = None
    """The side that captures supply at the enemy's sources (`capture HEX [points N]`)."""
    menu: dict[PieceWord, str] = field(default_factory=dict)
    """Menu texts in the game's own words, by command (the others: MENU_TEXT)."""
    source: str = ""
    """The rule sections the declarations serve."""

    def __post_init__(self) -> None:
        offered = {*self.unit, *(w for words in self.markers.values() for w in words)}
        for word in self.menu:
            if word not in offered:
                raise RefusedAt(f"menu text for {word!r}, which no unit or marker offers (unit = "
                                f"{list(self.unit)}{', markers' if self.markers else ''})", "menu", str(word))

    def sides_named(self) -> list[tuple[tuple[str, ...], str]]:
        """(key path, side) of every side the table names, for the manifest to check against its sides."""
        out: list[tuple[tuple[str, ...], str]] = [(("declares", what), who) for what, who in self.declares.items()
                                                  if who != WINNING]
        out += [((key,), side) for key, side in (("reduces", self.reduces), ("captures", self.captures)) if side]
        return out

    def menu_text(self, word: str) -> str:
        """A piece command's menu text."""
        own = {str(key): text for key, text in self.menu.items()}
        return own.get(word, MENU_TEXT[word])

    def declarations(self) -> Declarations:
        """The declarations the builder writes and the reader knows."""
        # Imported here: loading a game's data (a check of a text log) reads no VASSAL module.
        from wargame.vassal.declarations import Declarations
        return Declarations(tuple(self.unit), {k: tuple(v) for k, v in self.markers.items()}, tuple(self.actions),
                            self.passes, dict(self.declares), reduces=self.reduces, collects=self.collects,
                            captures=self.captures)


__all__ = ["MENU_TEXT", "WINNING", "DeclareTable", "PieceWord"]
