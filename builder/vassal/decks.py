"""Draw cups as VASSAL decks (DrawPile in the buildFile, Deck in saved games).

Format: VASSAL 3.7.26's `DrawPile` (attributes); the Deck's type and state strings are
`wargame.vassal.decks`'s (shared with `adjudicate export`).
"""

from __future__ import annotations

from wargame.vassal.decks import DECK_DRAWN_PX, DECK_MAX_DRAWN, Cup, add_decks, deck_state, deck_type

__all__ = ["DECK_DRAWN_PX", "DECK_MAX_DRAWN", "Cup", "add_decks", "deck_state", "deck_type",
           "draw_pile_attributes"]


def draw_pile_attributes(cup: Cup) -> dict[str, str]:
    """The DrawPile's attributes: face down, drawn one at a time at random, masked when drawn."""
    return {
        "name": cup.name, "owningBoard": cup.board, "x": str(cup.x), "y": str(cup.y),
        "width": str(cup.size_px), "height": str(cup.size_px),
        # shuffle "Always": every draw is random (Deck.drawCards), so the order never matters.
        "shuffle": "Always", "faceDown": "Always", "drawFaceUp": "false",
        "allowMultiple": "false", "allowSelect": "false", "reversible": "false", "reshufflable": "false",
        "draw": "true", "color": "0,0,0", "canSave": "false", "maxStack": str(DECK_MAX_DRAWN),
        "hotkeyOnEmpty": "false", "restrictOption": "false", "deckRestrictAccess": "false",
        "expressionCounting": "false", "description": "",
    }
