"""What a game's unit counters print besides symbol, size and values, as data (game.toml's `[counter]`): the
builder draws it and no code names a game for it (issue 25)."""

from __future__ import annotations

from wargame.constraints import Model


class CounterFace(Model):
    """game.toml's `[counter]` (the defaults: the unit's designation, and a mark on units without a ZOC)."""

    designation: bool = True
    """The unit's designation printed above its symbol."""
    from_note: bool = False
    """The designation is the short historical one read from the unit's note, not its id."""
    mobility_box: bool = False
    """The movement allowance in a box, black for leg units and red for mobile ones."""
    zoc_mark: bool = True
    """A black hexagon on units that exert no zone of control."""
    source: str = ""
    """The rule section describing the printed counters."""


__all__ = ["CounterFace"]
