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


def menu_command(command: str, key: str, description: str = "") -> Trait:
    """A Trigger Action ('macro;') that only puts `command` on the piece's menu, bound to `key`.

    Choosing it sends `key` through the piece, where a Report Action on the same key writes the
    chat line; the trigger itself fires nothing (no action keys, no loop).
    """
    # TriggerAction.mySetType order: description, menu text, key, property filter, watch keys,
    # action keys, loop, pre-loop key, post-loop key, loop type, while, until, loop count, index,
    # index property, index start, index step.
    fields: list[str | bool] = [description, command, key, "", "", "", False, "", "", "counted", "", "", "1", False,
                                "", "1", "1"]
    return Trait("macro;" + encode(fields, ";"), "")

