"""Draw cups as VASSAL decks (DrawPile in the buildFile, Deck in saved games): which markers, where, face down."""

# Format: VASSAL 3.7.26's `DrawPile` (attributes); the Deck's type and state strings are
# `wargame.vassal.decks`'s (shared with `adjudicate export`).

from __future__ import annotations

from builder.render.counters import image_name
from builder.render.holding import HoldingLayout
from builder.vassal.maps import BOXES_MAP, HOLDING_BOARD
from wargame.game import Game
from wargame.vassal.decks import DECK_DRAWN_PX, DECK_MAX_DRAWN, Cup, add_decks, deck_state, deck_type

__all__ = ["DECK_DRAWN_PX", "DECK_MAX_DRAWN", "Cup", "add_decks", "cup_markers", "cup_of", "deck_state", "deck_type",
           "draw_pile_attributes", "mask_image"]


def cup_markers(game: Game) -> dict[str, str | None]:
    """Markers some scenario puts in a draw cup, with their side: they are drawn unseen."""
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    sides = {mk.id: mk.side for mk in game.markers.marker}
    return {p.piece: sides[p.piece] for _, p in game.setup if p.location in cups and p.piece in sides}


def mask_image(side: str) -> str:
    """Archive image name of the face-down side of a side's cup markers."""
    return image_name(f"cup-{side or 'neutral'}", "back")


def cup_of(game: Game, holding: HoldingLayout, counter_px: int, box_id: str, pieces: int) -> Cup:
    """Where a cup's deck lies: centred in its box, allowing for the cards Deck.draw shows under the top one."""
    box = next(a for a in holding.boxes if a.location == box_id)
    x0, y0, x1, y1 = box.rect
    climb = (min(pieces, DECK_MAX_DRAWN) - 1) * DECK_DRAWN_PX
    name = next(b.name for b in game.manifest.box if b.id == box_id)
    return Cup(name, BOXES_MAP, HOLDING_BOARD, (x0 + x1 - climb) // 2, (y0 + y1 + climb) // 2, counter_px)


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
