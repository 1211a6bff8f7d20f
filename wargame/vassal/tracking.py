"""Following every piece of a VASSAL recording through its commands: the saved position, then
what each log step adds, moves, changes and removes, with the chat, property and turn-tracker
commands alongside.

The effects mirror VASSAL 3.7.26's `AddPiece`, `RemovePiece`, `ChangePiece`, `MovePiece` and
`Stack.setState` (a stack's pieces lie where the stack lies). A command about a piece that is
not in play does nothing in VASSAL; here it does nothing either and leaves a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from wargame.errors import Place
from wargame.records import frozen
from wargame.vassal.commands import (
    AddPiece, AddPlayer, ChangePiece, Chat, Command, MovePiece, RemovePiece, RemovePlayer, SetProperty, SetTurn,
    UndoMarker, split,
)
from wargame.vassal.encoding import decode
from wargame.vassal.pieces import Piece, read_piece, with_state
from wargame.vassal.reader import Recording, Step

How = Literal["add", "remove", "move", "change", "stack"]
UNDOABLE = (AddPiece, RemovePiece, ChangePiece, MovePiece, SetProperty, SetTurn)
"""Commands VASSAL's Undo takes back (each has an undo command)."""


@frozen
class PieceEvent:
    """A piece before and after one command (None before an add, after a remove)."""

    how: How
    before: Piece | None
    after: Piece | None
    player_id: str | None = None

    @property
    def piece_id(self) -> str:
        """The piece's id."""
        piece = self.after or self.before
        assert piece is not None
        return piece.piece_id


@frozen
class ChatEvent:
    """A chat line (VASSAL's HTML text)."""

    html: str


@frozen
class PropertyEvent:
    """A global property changed (dice buttons set `<name>_result` and others)."""

    name: str
    old: str
    new: str


@frozen
class TurnEvent:
    """A turn tracker's state changed."""

    tracker_id: str
    old: str | None
    new: str


@frozen
class PlayerEvent:
    """A player takes a side (`side` None: leaves it), as VASSAL's Retire button records it."""

    password: str
    name: str
    side: str | None


Event = PieceEvent | ChatEvent | PropertyEvent | TurnEvent | PlayerEvent


@frozen
class StepEvents:
    """One log step and what it did, in order."""

    step: Step
    events: tuple[Event, ...]
    undoable: bool = False
    """Whether the step holds a command with an undo in VASSAL (a piece or property change, or a chat line, whose
    undo shows "UNDO: ..."): BasicLogger's first Undo takes back the latest such step."""


@frozen
class Player:
    """A player of the recording: the name shown in chat and the side taken."""

    password: str
    name: str
    side: str


@dataclass
class Tracking:
    """The position when the recording begins, each step's events, and notes on odd commands."""

    initial: dict[str, Piece]
    initial_turns: dict[str, str]
    players: dict[str, Player]
    steps: list[StepEvents]
    final: dict[str, Piece]
    notes: list[tuple[int, str]] = field(default_factory=list)
    unknown_traits: set[str] = field(default_factory=set)
    final_turns: dict[str, str] = field(default_factory=dict)
    """Each turn tracker's state after the last step (where the next log of a game begins)."""
    initial_players: dict[str, Player] = field(default_factory=dict)
    """The players and their sides in the saved position (`players`: after the last step)."""


class _Board:
    """The pieces and stacks in play while the commands are applied."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.pieces: dict[str, Piece] = {}
        self.stacks: dict[str, tuple[str | None, int, int, tuple[str, ...]]] = {}
        # Each piece's stacks, so a piece moved alone leaves its stacks without a look at every stack (VASSAL
        # keeps a stack's id once it is empty: a scan of them all made a long recording's moves quadratic).
        self.holding: dict[str, set[str]] = {}
        self.turns: dict[str, str] = {}
        self.players: dict[str, Player] = {}
        self.notes: list[tuple[int, str]] = []
        self.unknown_traits: set[str] = set()

    @staticmethod
    def _moved(piece: Piece, map_name: str | None, x: int, y: int) -> Piece:
        return replace(piece, map_name=map_name, x=x, y=y)

    def apply(self, command: Command, step: int, where: str) -> list[Event]:
        """Apply one command; the events it caused."""
        place = Place(self.file, key=where)
        if isinstance(command, AddPiece):
            return self._add(command, step, place)
        if isinstance(command, RemovePiece):
            if command.piece_id in self.stacks:
                self._set_stack(command.piece_id, None)
                return []
            before = self.pieces.pop(command.piece_id, None)
            if before is None:
                self.notes.append((step, f"piece {command.piece_id} removed but not in play"))
                return []
            return [PieceEvent("remove", before, None)]
        if isinstance(command, ChangePiece):
            old = self.pieces.get(command.piece_id)
            if old is None:
                self.notes.append((step, f"piece {command.piece_id} changed but not in play"))
                return []
            new = with_state(old, command.new_state, place)
            self.pieces[command.piece_id] = new
            return [PieceEvent("change", old, new)] if new != old else []
        if isinstance(command, MovePiece):
            return self._move(command, step)
        if isinstance(command, Chat):
            return [ChatEvent(command.html)]
        if isinstance(command, SetProperty):
            return [PropertyEvent(command.name, command.old, command.new)]
        if isinstance(command, SetTurn):
            old_state = self.turns.get(command.tracker_id)
            self.turns[command.tracker_id] = command.state
            return [TurnEvent(command.tracker_id, old_state, command.state)] if old_state != command.state else []
        if isinstance(command, AddPlayer):
            self.players[command.password] = Player(command.password, command.name, command.side)
            return [PlayerEvent(command.password, command.name, command.side)]
        if isinstance(command, RemovePlayer):
            gone = self.players.pop(command.password, None)
            return [PlayerEvent(command.password, gone.name, None)] if gone is not None else []
        return []

    def _add(self, command: AddPiece, step: int, place: Place) -> list[Event]:
        piece_id = command.piece_id or f"(unnamed {len(self.pieces) + 1})"
        if command.is_stack:
            tokens = split(command.state_text, ";")
            members = tuple(t for t in tokens[3:] if t and not t.startswith("@@") and t in self.pieces)
            return self._gather(piece_id, tokens, members)
        if command.type_text.startswith("deck;"):
            # A Deck (Omaha's support-fire cups, wargame/vassal/decks.py): map;x;y;face-down;its pieces'
            # ids joined by commas, bottom first. Its pieces lie where it lies, as a stack's do.
            tokens = decode(command.state_text, ";")
            ids = decode(tokens[4], ",") if len(tokens) > 4 and tokens[4] else []
            return self._gather(piece_id, tokens, tuple(i for i in ids if i in self.pieces))
        piece = read_piece(piece_id, command.type_text, command.state_text, place)
        self.unknown_traits.update(piece.unknown_traits)
        previous = self.pieces.get(piece_id)
        self.pieces[piece_id] = piece
        if previous is not None:
            self.notes.append((step, f"piece {piece_id} added again while in play: the new one replaces it"))
            return [PieceEvent("change", previous, piece)]
        return [PieceEvent("add", None, piece)]

    def _gather(self, group_id: str, tokens: list[str], members: tuple[str, ...]) -> list[Event]:
        """A stack or deck (map, x, y first in its state) and its members, moved to where it is."""
        map_name = None if not tokens or tokens[0] in ("", "null") else tokens[0]
        coordinates = [int(t) if t.lstrip("-").isdigit() and len(t) < 11 else 0 for t in tokens[1:3]]
        x, y = (coordinates + [0, 0])[:2]
        self._set_stack(group_id, (map_name, x, y, members))
        events: list[Event] = []
        for member in members:
            before = self.pieces[member]
            if (before.map_name, before.x, before.y) != (map_name, x, y):
                after = self._moved(before, map_name, x, y)
                self.pieces[member] = after
                events.append(PieceEvent("stack", before, after))
        return events

    def _move(self, command: MovePiece, step: int) -> list[Event]:
        if command.piece_id is None:
            return []
        if command.piece_id in self.stacks:
            _, _, _, members = self.stacks[command.piece_id]
            self.stacks[command.piece_id] = (command.map_name, command.x, command.y, members)
            events: list[Event] = []
            for member in members:
                before = self.pieces.get(member)
                if before is not None:
                    after = self._moved(before, command.map_name, command.x, command.y)
                    self.pieces[member] = after
                    events.append(PieceEvent("move", before, after, command.player_id))
            return events
        before = self.pieces.get(command.piece_id)
        if before is None:
            self.notes.append((step, f"piece {command.piece_id} moved but not in play"))
            return []
        after = self._moved(before, command.map_name, command.x, command.y)
        self.pieces[command.piece_id] = after
        for stack_id in self.holding.pop(command.piece_id, set()):
            m, x, y, members = self.stacks[stack_id]
            self.stacks[stack_id] = (m, x, y, tuple(p for p in members if p != command.piece_id))
        return [PieceEvent("move", before, after, command.player_id)]

    def _set_stack(self, stack_id: str, stack: tuple[str | None, int, int, tuple[str, ...]] | None) -> None:
        """A stack put in (or its members changed), or taken out (None), its members' `holding` kept with it."""
        old = self.stacks.pop(stack_id, None) if stack is None else self.stacks.get(stack_id)
        for member in old[3] if old is not None else ():
            self.holding.get(member, set()).discard(stack_id)
        if stack is not None:
            self.stacks[stack_id] = stack
            for member in stack[3]:
                self.holding.setdefault(member, set()).add(stack_id)


def track(recording: Recording) -> Tracking:
    """Apply the saved position, then every step, recording what each step did."""
    board = _Board(recording.file)
    for i, command in enumerate(recording.restore, 1):
        board.apply(command, 0, f"saved position, command {i}")
    initial = dict(board.pieces)
    initial_turns = dict(board.turns)
    initial_players = dict(board.players)
    steps: list[StepEvents] = []
    for step in recording.steps:
        events: list[Event] = []
        for k, command in enumerate(step.commands, 1):
            if isinstance(command, UndoMarker):
                continue
            events += board.apply(command, step.number, f"{step.where}, part {k}")
        # BasicLogger.log moves its undo point to a command whose undo is not null: a change, or a chat line
        # (Chatter.DisplayText's undo shows "UNDO: ..."); a Report Action's unchanged piece logs only null commands.
        undoable = any(isinstance(c, (*UNDOABLE, Chat)) for c in step.commands)
        steps.append(StepEvents(step, tuple(events), undoable))
    return Tracking(initial, initial_turns, dict(board.players), steps, dict(board.pieces), board.notes,
                    board.unknown_traits, dict(board.turns), initial_players)
