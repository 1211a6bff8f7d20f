"""A module's pieces as VASSAL puts them in play, read from its buildFile: each PieceSlot's
piece with its prototypes expanded in place, found by the `UnitId` or `MarkerId` our modules
give it; the boards of each map; the turn tracker's levels. What a writer of saved games and
logs needs so that the pieces it places are exactly the module's.

Format facts: `../shared/reference/vassal-format.md` 1.3 and 1.5 (`PieceSlot` text is an
AddPiece command; `PieceCloner.clonePiece` replaces a `prototype;` trait by the prototype's
traits, its dummy BasicPiece left out; `TurnTracker`, `CounterTurnLevel`, `ListTurnLevel`),
checked against VASSAL 3.7.26's sources.
"""

from __future__ import annotations

from dataclasses import field
from xml.etree import ElementTree

from wargame.errors import DataError, Place
from wargame.records import frozen
from wargame.vassal.buildfile import P, ModuleFile, ModuleInfo, module_info
from wargame.vassal.commands import AddPiece, parse_command, split
from wargame.vassal.decks import Cup
from wargame.vassal.encoding import encode
from wargame.vassal.pieces import Piece, read_piece

MAX_PROTOTYPE_DEPTH = 20
"""Prototypes using prototypes, at most this deep (a loop of prototypes is refused)."""


@frozen
class Definition:
    """A piece as it comes into play: its traits' types and states, outermost first, BasicPiece last."""

    name: str
    gpid: str
    types: tuple[str, ...]
    states: tuple[str, ...]
    size_px: int
    properties: dict[str, str] = field(default_factory=dict)

    @property
    def type_text(self) -> str:
        """The TYPE chain of an AddPiece (`Decorator.getType`, recursively)."""
        return encode_chain(list(self.types))

    def state_text(self, map_name: str | None, x: int, y: int, overrides: dict[int, str] | None = None) -> str:
        """The STATE chain with the piece at (x, y) on a map; `overrides`: new states of traits by index."""
        text = encode([map_name or "null", x, y, self.gpid, 0], ";")
        for index in range(len(self.types) - 2, -1, -1):
            state = (overrides or {}).get(index, self.states[index])
            text = encode([state, text], "\t")
        return text

    def layer(self, name: str) -> int | None:
        """The index of the Layer (`emb2;`) trait called `name`, if the piece has one."""
        for index, trait in enumerate(self.types):
            if trait.startswith("emb2;"):
                fields = split(trait[len("emb2;"):], ";")
                if len(fields) > 18 and fields[18] == name:
                    return index
        return None


@frozen
class TrackerDefinition:
    """A turn tracker of our modules' shape: a counter of turns holding a list of steps or phases."""

    tracker_id: str
    first_turn: int
    loop: bool
    loop_limit: int
    phases: tuple[str, ...]
    turn_format: str
    report_format: str

    def state(self, turn: int, phase: int) -> str:
        """`TurnTracker.getState` at a turn and the index of its step (`CounterTurnLevel`, `ListTurnLevel`)."""
        listed = encode([phase, 0, 0, encode([True] * len(self.phases), ",")], ";")
        counter = encode([turn, 0, self.loop, self.loop_limit, listed], ";")
        return encode([0, counter], "|")

    def shown(self, turn: int, phase: int) -> str:
        """The turn as the tracker's `turnFormat` shows it (`$level1$ $level2$`)."""
        return self.turn_format.replace("$level1$", str(turn)).replace("$level2$", self.phases[phase])


@frozen
class Catalogue:
    """What a writer needs from a module: its pieces by unit and marker id, boards, turn tracker."""

    info: ModuleInfo
    units: dict[str, Definition]
    markers: dict[str, Definition]
    boards: dict[str, str]
    """The first board of each map, by map name (a save's BoardPicker commands)."""
    tracker: TrackerDefinition | None
    moduledata: bytes
    cups: dict[str, tuple[Cup, tuple[Definition, ...]]] = field(default_factory=dict)
    """Each DrawPile by name (our modules' draw cups): where its Deck lies on its map, and its cards."""


def _piece(text: str, place: Place) -> Piece:
    command = parse_command((text or "").strip(), place)
    if not isinstance(command, AddPiece) or command.is_stack:
        raise DataError("a piece definition that is not an add-piece command ('+/...')", place)
    return read_piece(command.piece_id or "", command.type_text, command.state_text, place)


def _expanded(piece: Piece, prototypes: dict[str, Piece], place: Place, depth: int = 0) -> list[tuple[str, str]]:
    """(type, state) of every trait with prototypes replaced by their own traits, as PieceCloner does."""
    if depth > MAX_PROTOTYPE_DEPTH:
        raise DataError(f"prototypes nested more than {MAX_PROTOTYPE_DEPTH} deep (a loop?)", place)
    out: list[tuple[str, str]] = []
    for trait in piece.traits:
        if trait.id == "prototype":
            name = split(trait.type_text[len("prototype;"):], ";")[0]
            prototype = prototypes.get(name)
            if prototype is None:
                raise DataError(f"piece {piece.name!r} uses prototype {name!r}, which the module does not define",
                                place)
            out += _expanded(prototype, prototypes, place, depth + 1)[:-1]  # its dummy BasicPiece left out
        else:
            out.append((trait.type_text, trait.state_text))
    return out


def _whole(value: str | None, default: int) -> int:
    text = (value or "").strip()
    return int(text) if text.lstrip("-").isdigit() and len(text) < 10 else default


def _tracker(root: ElementTree.Element) -> TrackerDefinition | None:
    for index, tracker in enumerate(root.iter(f"{P}module.turn.TurnTracker")):
        if index > 0:
            break
        counter = tracker.find(f"{P}module.turn.CounterTurnLevel")
        listed = None if counter is None else counter.find(f"{P}module.turn.ListTurnLevel")
        if counter is None or listed is None:
            return None
        phases = tuple(split(listed.get("list") or "", ","))
        return TrackerDefinition(
            f"TurnTracker{index}", _whole(counter.get("start"), 1), counter.get("loop", "false") == "true",
            _whole(counter.get("loopLimit"), -1), phases, tracker.get("turnFormat") or "$level1$ $level2$",
            tracker.get("reportFormat") or "")
    return None


def read_catalogue(module: ModuleFile) -> Catalogue:
    """The pieces of an opened module by `UnitId` and `MarkerId` (the first slot of each), and the rest."""
    root = module.root
    place = Place(module.file, key="buildFile.xml")
    prototypes: dict[str, Piece] = {}
    for definition in root.iter(f"{P}module.PrototypeDefinition"):
        prototypes[definition.get("name", "")] = _piece(definition.text or "", place)
    units: dict[str, Definition] = {}
    markers: dict[str, Definition] = {}
    cards: dict[int, Definition] = {}
    for slot in root.iter():
        if slot.tag not in (f"{P}widget.PieceSlot", f"{P}widget.CardSlot"):
            continue
        piece = _piece(slot.text or "", Place(module.file, key=f"buildFile.xml, slot {slot.get('entryName', '')}"))
        traits = _expanded(piece, prototypes, place)
        expanded = read_piece("", encode_chain([t for t, _ in traits]), encode_chain([s for _, s in traits]), place)
        unit, marker = expanded.properties.get("UnitId"), expanded.properties.get("MarkerId")
        made = Definition(slot.get("entryName", piece.name), slot.get("gpid", ""), tuple(t for t, _ in traits),
                          tuple(s for _, s in traits), _whole(slot.get("width"), 0), dict(expanded.properties))
        if slot.tag == f"{P}widget.CardSlot":
            cards[id(slot)] = made
        elif unit and unit not in units:
            units[unit] = made
        elif marker and marker not in markers:
            markers[marker] = made
    info = module_info(module)
    cups: dict[str, tuple[Cup, tuple[Definition, ...]]] = {}
    for element in root.iter(f"{P}module.Map"):
        map_name = element.get("mapName", "")
        origin = info.maps[map_name].origin if map_name in info.maps else (0, 0)
        for pile in element.iter(f"{P}module.map.DrawPile"):
            cup = Cup(pile.get("name", ""), map_name, pile.get("owningBoard", ""),
                      _whole(pile.get("x"), 0) + origin[0], _whole(pile.get("y"), 0) + origin[1],
                      _whole(pile.get("width"), 0))
            cups[cup.name] = (cup, tuple(cards[id(c)] for c in pile.iter(f"{P}widget.CardSlot")))
    boards: dict[str, str] = {}
    for element in root.iter():
        if element.tag == f"{P}module.Map":
            board = element.find(f"{P}module.map.BoardPicker/{P}module.map.boardPicker.Board")
            if board is not None:
                boards[element.get("mapName", "")] = board.get("name", "")
    return Catalogue(info, units, markers, boards, _tracker(root), module.moduledata, cups)


def encode_chain(parts: list[str]) -> str:
    """Parallel TYPE or STATE tokens (outermost first) as one tab-separated Decorator chain."""
    text = parts[-1]
    for part in reversed(parts[:-1]):
        text = encode([part, text], "\t")
    return text
