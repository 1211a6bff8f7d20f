"""Piece traits the module needs beyond `wargame.vassal.encoding`'s (format: VASSAL 3.7.26's classes)."""

from __future__ import annotations

from wargame.vassal.encoding import CTRL, Trait, encode, keystroke

CTRL_M = keystroke(77, CTRL)


def mask(image: str, mask_name: str, command: str = "Mask") -> Trait:
    """A Mask trait (Obscurable, 'obs;'): while obscured, others see `image` and the name `mask_name`."""
    # Obscurable.mySetType order: key, mask image, menu text, display style (I: the owner sees the
    # face with the mask inset), mask name, access (PlayerAccess: whoever masked it may look),
    # peek text, description, auto-peek on mouse-over, deal key, deal expression.
    fields: list[str | bool] = [CTRL_M, image, command, "I", mask_name, "player:", "Peek", "", True, "", ""]
    # A Deck turns its top piece face down through Properties.OBSCURED_BY; in play nobody masks it.
    return Trait("obs;" + encode(fields, ";"), encode(["null", ""], ";"))
