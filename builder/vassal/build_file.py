"""Elements of the buildFile: VASSAL's class prefix, one element, piece definitions and their slots with ids."""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from wargame.vassal.encoding import Trait, add_piece

P = "VASSAL.build."


@dataclass
class PieceDef:
    """A piece definition: its traits (outermost first) and what it stands for."""

    name: str
    traits: list[Trait]
    slot_px: int
    gpids: list[str] = field(default_factory=list)


class SlotIds:
    """Hands out PieceSlot gpids in build order (stable for the same data)."""

    def __init__(self) -> None:
        self.next = 1

    def take(self) -> str:
        """A new gpid."""
        gpid = str(self.next)
        self.next += 1
        return gpid


def el(parent: etree._Element, tag: str, **attrs: str) -> etree._Element:
    """A child element of VASSAL's class `tag` (without the VASSAL.build. prefix)."""
    return etree.SubElement(parent, P + tag, {k: v for k, v in attrs.items()})


def add_slot(parent: etree._Element, piece: PieceDef, ids: SlotIds, tag: str = "widget.PieceSlot") -> str:
    """A slot holding the piece, with a new gpid (also kept on the piece); the gpid."""
    gpid = ids.take()
    slot = el(parent, tag, entryName=piece.name, gpid=gpid,
              width=str(piece.slot_px), height=str(piece.slot_px))
    slot.text = add_piece(piece.traits, gpid)
    piece.gpids.append(gpid)
    return gpid
