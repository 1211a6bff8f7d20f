"""Decks (a DrawPile's pieces in a saved game): what a save must hold for a draw cup.

Format: VASSAL 3.7.26's `Deck.getType`/`myRefreshType` (the type string; tokens left out take
the decoder's defaults) and `Deck.getState` (map, position, face-down, the ids of its pieces,
which the save must add before the deck). Shared by the builder (the modules' set-ups) and the
adjudicator (`adjudicate export`).
"""

from __future__ import annotations

from collections.abc import Sequence

from wargame.records import frozen
from wargame.vassal.commands import ESC, split
from wargame.vassal.encoding import encode

DECK_DRAWN_PX = 2
"""Deck.draw offsets each card under the top one by 2 px right and up."""
DECK_MAX_DRAWN = 10
"""Deck.draw shows at most maxStack cards (VASSAL's default, kept)."""


@frozen
class Cup:
    """A draw cup: its deck's name, where it lies and how big an empty one is drawn."""

    name: str
    map_name: str
    board: str
    x: int
    y: int
    size_px: int


def deck_type(cup: Cup) -> str:
    """The type string of the cup's Deck, as Deck.getType writes it, up to maxStack."""
    fields: list[str | int | bool] = [
        True, "0,0,0", cup.size_px, cup.size_px, "Always", "Always", False, False, False,
        "", "", "", cup.name, "", "", "", False, False, "", "", DECK_MAX_DRAWN,
    ]
    return "deck;" + encode(fields, ";")


def deck_state(cup: Cup, piece_ids: Sequence[str]) -> str:
    """The Deck's state: its map and position, face down, and its pieces bottom first."""
    return encode([cup.map_name, cup.x, cup.y, True, encode(piece_ids, ",")], ";")


def add_decks(tree: str, decks: Sequence[tuple[Cup, Sequence[tuple[str, str, str]]]]) -> str:
    """A save's command tree with each cup's pieces (id, type, state) and then its Deck added."""
    # split: encoding.decode's tokens in linear time (decode reads the whole save character by character, twice).
    commands = split(tree, ESC)
    if len(commands) < 3 or commands[0] != "begin_save":
        raise ValueError("not a saved game's command tree")
    adds = split(commands[2], ESC)
    for index, (cup, pieces) in enumerate(decks):
        for piece_id, type_text, state_text in pieces:
            adds.append("+/" + encode([piece_id, type_text, state_text], "/"))
        ids = [piece_id for piece_id, _, _ in pieces]
        adds.append("+/" + encode([f"deck{index}", deck_type(cup), deck_state(cup, ids)], "/"))
    commands[2] = encode(adds, ESC)
    return encode(commands, ESC)
