"""A VASSAL recording of one of our games translated into the log notation, step by step.

What VASSAL records becomes entries: a drag from hex to hex a move (its path chosen by the rule
system's movement model, in the position the translation has reached, when only the end points are
known: see `movement`), a flip to the reduced side a depletion, a
delete or a drop into an Eliminated box an elimination, a counter taken from a palette onto the
map a reinforcement (a replacement if the unit had been eliminated), turn-tracker steps turn and
step markers, a die roll of each side in a row a roll-off. What VASSAL cannot know (the action
and its supply, which units attack which hex, retreats and advances) comes from the players'
declarations typed in chat in the notation itself; a declaration stands for the counter moves
it describes, so they are not translated twice. Every entry's line is its VASSAL step (0 for
the saved position the recording starts from); docs/vassal-logs.md has the conventions.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.contract import RuleSystem, how_of, kind_of
from adjudicator.engine import resolve
from adjudicator.notation.entries import (
    Action, Activate, Advance, Attack, Bombard, Comment, Entry, Header, Loss, Move, Pass, Place as PlaceEntry,
    Retreat, RollOff, StandFast, StepMarker, SupportMarkers, TurnMarker,
)
from adjudicator.notation.entries import logged_dice
from adjudicator.notation.text import SIDE, parse_line, write_entry
from adjudicator.systems import system_for
from adjudicator.vassal.movement import Followed, Follower, Lost, Motion, choose_path
from wargame.errors import LogSyntaxError, WargameError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex
from wargame.receipts import ReceiptError, receipt_from_token
from wargame.sequence import opening_slot, turn_sequence
from wargame.vassal.buildfile import ModuleInfo
from wargame.vassal.declarations import (
    ACTION, ACTIVATE, ATTACKER, BOMBARD, CAPTURE, DECLARE, DEFENDER, INCOME, PASS, PREFIX, RESULT, STAND, SUPPORT,
    TARGET, Declaration, NotADeclaration, is_declaration, read_declaration,
)
from wargame.vassal.pieces import Piece
from wargame.vassal.places import NOWHERE, Location, Places, fitted_places
from wargame.vassal.reader import Recording
from wargame.vassal.tracking import (
    ChatEvent, PieceEvent, Player, PlayerEvent, PropertyEvent, StepEvents, Tracking, TurnEvent,
)
from wargame.vassal.turns import tracker_position

STEP_LAYER = "Step"
"""The layer our modules give two-sided counters (wargame.vassal.encoding.layer_two_sided)."""

DICE = re.compile(r"^\*+\s*(?P<name>[^=]+?)\s*=\s*(?P<result>[0-9]+(?:\s*,\s*[0-9]+)*)\s*\*+\s*"
                  r"(?:<(?P<player>[^<>]*)>)?\s*$")
# A dice receipt of the ledger pasted into the chat, alone on its line, `Receipt` before it or not.
RECEIPT_LINE = re.compile(r"^(?:Receipt:?\s+)?(umpire1\.[A-Za-z0-9_-]+)$")
PLAYER_CHAT = re.compile(r"^<(?P<name>[^<>]*)> - (?P<text>.*)$", re.S)
MOVE_REPORT = re.compile(r"^\*\s*(?P<pieces>.+?) moves (?P<before>.+?) -> (?P<after>.+?)\s*\*$")
"""Our modules' moveToFormat, `$pieceName$ moves $previousLocation$ -> $location$ *`, as VASSAL reports it."""
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
MAX_DIFFERENCES = 40
MAX_NUMBER = 9999
"""The largest turn or die the notation writes (four digits)."""
Key = tuple[str, ...]
OPENING_RESULTS = (RollOff, SupportMarkers, Loss, Retreat, Advance, StandFast)
"""What may follow the entries a game's opening allows before the first turn: its dice, the markers drawn
or put aside, and combat results (Omaha 11.2.3)."""
STAND_KEY: Key = ("stand",)
"""A stand's effect on its counter: flipped, or eliminated (see `carries_out`)."""


@dataclass(frozen=True)
class Phase:
    """One level of our modules' turn tracker: the sequence step and the name it shows."""

    step: str
    name: str


def phases(game: Game) -> list[Phase]:
    """Our modules' turn-tracker steps in order: the game's sequence of play (wargame/sequence.py), without the
    opening played before the first turn, which has no tracker step: a recording's moves before its first turn
    step are the opening's entries, written with no step marker as in a text log."""
    return [Phase(slot.id, slot.name) for slot in turn_sequence(game.manifest)]


@dataclass(frozen=True)
class Note:
    """Something a person should know about the translation of one step (0: the saved position)."""

    step: int
    message: str


@dataclass(frozen=True)
class Carry:
    """What the translation of one log hands the next log of the same game (docs/vassal-logs.md, chains)."""

    scenario: str
    turn_at: tuple[int, int] | None
    """The turn and the index of the step in the turn tracker's list."""
    tracker_id: str | None
    eliminated: frozenset[str]
    """Units eliminated, so that bringing one back is a replacement, not a reinforcement."""
    open_attack: Attack | None
    """An attack declared last, so that the defender's drag in the next log is its retreat."""
    last_roll: tuple[str, int] | None
    """A die one side rolled last, so that the other side's die in the next log makes the roll-off."""
    game_state: Callable[[], Followed[Any] | Lost | None] | None = None
    """The rule system's state where the log ended (worked out when asked), for the next log's paths."""


@dataclass
class Translation:
    """Entries in the notation, each with its VASSAL step as its line, and what to know about them."""

    game: Game
    file: str
    scenario: str
    entries: list[Entry]
    notes: list[Note]
    steps: dict[int, str]
    """A one-line description of every step, by number."""
    endpoint_moves: dict[int, str] = field(default_factory=dict)
    """Entries (by index) whose path VASSAL did not record, and how the reader chose it."""
    undone: dict[int, int] = field(default_factory=dict)
    """Steps undone (by the step that undid them)."""
    carry: Carry | None = None
    """Where the translation ended, for the next log of the game."""
    saved_differences: tuple[str, ...] = ()
    """How the saved position differs from the scenario's set-up the replay starts from (units, markers on tracks)."""


def one_line(text: str, limit: int = 300) -> str:
    """Text fit for a comment: no line breaks or control characters, at most `limit` characters."""
    cleaned = "".join(" " if c in LINE_BREAKS or unicodedata.category(c) in ("Cc", "Cs") else c for c in text)
    cleaned = re.sub(r"\s+", " ", cleaned).strip()
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 3] + "..."


def is_reduced(piece: Piece | None) -> bool:
    """True for a counter showing its reduced side (our modules' Step layer at its second level)."""
    layer = None if piece is None else piece.layer(STEP_LAYER)
    return layer is not None and layer.level >= 2


def chat_text(html_text: str) -> str:
    """A chat line as a person reads it: markup dropped, then entities decoded."""
    # VASSAL writes a player's name as &lt;Name&gt;, so it survives the dropping of markup.
    return html.unescape(re.sub(r"<[^<>]{0,200}>", "", html_text))


class _Translator:
    """The state of one translation: where each unit is, what is declared, what was emitted."""

    def __init__(self, game: Game, recording: Recording, tracking: Tracking, places: Places,
                 phase_list: list[Phase], start: Followed[Any] | Lost | None = None) -> None:
        self.game = game
        try:
            system: RuleSystem[Any] | None = system_for(game)
        except WargameError:
            system = None
        self.system = system
        # The game followed through its rule system, so that a drag's path is the one its rules allow.
        self.follower: Follower[Any] | None = None if system is None else Follower(game, system, recording.file,
                                                                                    start)
        self.recording = recording
        self.tracking = tracking
        self.places = places
        self.phase_list = phase_list
        self.out: list[Entry] = []
        self.notes: list[Note] = []
        self.steps: dict[int, str] = {}
        self.endpoint: dict[int, str] = {}
        self.where: dict[str, Location] = {}
        self.eliminated: set[str] = set()
        self.expected: dict[str, list[tuple[Key, int, str]]] = defaultdict(list)
        self.physical: dict[str, list[tuple[int, frozenset[Key]]]] = defaultdict(list)
        self.pending_die: int | None = None
        self.open_attack: Attack | None = None
        self.last_combat: int | None = None
        """The entry (index) of the last attack or bombardment declared, for the result claimed next."""
        self.attackers: list[tuple[str, int]] = []
        """Units declared attackers (with their step) since the last attack declared."""
        self.supports: list[str] = []
        """Support fire markers declared since the last attack or bombardment declared."""
        self.last_roll: tuple[str, int] | None = None
        self.optional: set[str] = set()
        """Optional rules put in force by `[Optional "..."]` lines typed in chat."""
        self.weather: dict[int, int] = {}
        """Omaha's weather die (14.1) by game turn."""
        self.aside_rolls: dict[int, set[str]] = defaultdict(set)
        """The sides that rolled for the markers put aside in a game turn's inclement weather (14.1)."""
        self.turn_at: tuple[int, int] | None = None
        self.tracker_id: str | None = None
        self.sides = set(game.manifest.sides)
        self.unknown_units: set[str] = set()
        self.differences: list[str] = []
        self.reported: dict[tuple[str | None, int, int], Location] = {}
        self.before_start: list[Entry] = []
        """The first turn's markers while the set-up may still be going on (see start_turn)."""
        self.opening = opening_slot(game.manifest)
        self.die_rolls: set[int] = set()
        """The ids of the single-die `Roll` entries translated from dice (a typed one may repeat them)."""
        self.layout_differs = False
        self.boxes = {b.id: b for b in game.manifest.box}
        # The sides as the saved position has them; a player's Retire (a side change) updates them.
        self.roster: dict[str, Player] = dict(tracking.initial_players or tracking.players)
        self.side_of_name: dict[str, str] = {}
        self.side_of_password: dict[str, str] = {}
        self.recorder: str | None = None
        self.seat()

    def seat(self) -> None:
        """Who plays which side now: by chat name, by password, and the side when only one is played."""
        players = [p for p in self.roster.values() if p.side in self.sides]
        self.side_of_name = {p.name: p.side for p in players}
        self.side_of_password = {p.password: p.side for p in players}
        recorders = {p.side for p in players}
        self.recorder = next(iter(recorders)) if len(recorders) == 1 else None

    def player_event(self, step: int, event: PlayerEvent) -> None:
        """A player takes or leaves a side (VASSAL's Retire button): later steps are theirs for it."""
        if event.side is None:
            self.roster.pop(event.password, None)
        else:
            self.roster[event.password] = Player(event.password, event.name, event.side)
            self.comment(step, f"step {step}: {event.name} plays {event.side} from here")
        self.seat()

    # -- output --------------------------------------------------------------------------
    def before_first_turn(self, entry: Entry) -> bool:
        """Whether the entry can come before the first turn begins, so that its markers wait for a later one."""
        if isinstance(entry, (Header, Comment)) or isinstance(entry, PlaceEntry) and entry.how == "setup":
            return True
        # A game with an opening before the first turn (`before_first_turn` in its [[sequence]]; Omaha 11.2.3:
        # the Pointe du Hoc roll, its loss and marker and the Rangers' move, the beach assaults with their
        # markers, losses and retreats) plays it while VASSAL's turn tracker already shows the first turn's
        # first step: the kinds the opening allows, and the dice, markers and results that follow them.
        return self.opening is not None and (self.opening.names(kind_of(entry), how_of(entry))
                                             or isinstance(entry, OPENING_RESULTS))

    def emit(self, entry: Entry) -> int:
        if self.before_start and not self.before_first_turn(entry):
            self.start(entry.line)
        self.out.append(entry)
        return len(self.out) - 1

    def start(self, step: int) -> None:
        """The first turn and step begin at `step`: their markers, held back over the set-up."""
        held, self.before_start = self.before_start, []
        at = len(self.out)
        while at > 0 and isinstance(self.out[at - 1], Comment) and self.out[at - 1].line == step:
            at -= 1  # ahead of the step's own comments, which belong to the turn begun
        self.out[at:at] = [e.model_copy(update={"line": step}) for e in held]

    def comment(self, step: int, text: str) -> int:
        return self.emit(Comment(line=step, text=one_line(text, 500)))

    def note(self, step: int, message: str) -> None:
        self.notes.append(Note(step, message))

    # -- pieces ----------------------------------------------------------------------------
    def unit_of(self, piece: Piece) -> str | None:
        unit = piece.properties.get("UnitId")
        if unit is None or not unit:
            return None
        if unit not in self.game.units_by_id:
            if unit not in self.unknown_units:
                self.unknown_units.add(unit)
                self.note(0, f"piece {piece.name!r} names unit {unit!r}, which {self.game.id} does not have "
                             "(a module of another version?); it is not translated")
            return None
        return unit

    def locate(self, piece: Piece | None) -> Location:
        if piece is None:
            return NOWHERE
        reported = self.reported.get((piece.map_name, piece.x, piece.y))
        return reported if reported is not None else self.places.locate(piece.map_name, piece.x, piece.y)

    def read_reports(self, step: StepEvents) -> None:
        """Where VASSAL's report of the step's one drag names its places otherwise, its names win."""
        # That happens with a module whose off-map board the reader does not lay out as it does.
        self.reported = {}
        reports = [m for e in step.events if isinstance(e, ChatEvent)
                   if (m := MOVE_REPORT.match(one_line(chat_text(e.html)))) is not None]
        moves = [e for e in step.events if isinstance(e, PieceEvent) and e.how in ("move", "stack")
                 and e.before is not None and e.after is not None]
        if len(reports) != 1 or not moves:
            return
        # An Undo repeats the report of the move it takes back ("UNDO: * X moves A -> B *"): the
        # counter goes from B back to A.
        undo = reports[0].group("pieces").startswith("UNDO:")
        for attribute, group in (("before", "after" if undo else "before"), ("after", "before" if undo else "after")):
            spots = {(getattr(e, attribute).map_name, getattr(e, attribute).x, getattr(e, attribute).y) for e in moves}
            if len(spots) != 1:
                continue
            spot = next(iter(spots))
            named = self.places.named(reports[0].group(group))
            if named.kind not in ("hex", "box", "track"):
                continue
            ours = self.places.locate(*spot)
            if ours.name != named.name:
                self.reported[spot] = named
                if not self.layout_differs:
                    self.layout_differs = True
                    self.note(step.step.number, f"VASSAL names {named} where the reader's layout says {ours}: the "
                                                "module lays out its maps differently from what the reader computes "
                                                "from the game's data, so VASSAL's names are used where it reports "
                                                "them (give the module with --module to read its own layout)")

    @staticmethod
    def is_reduced(piece: Piece | None) -> bool:
        return is_reduced(piece)

    # -- the saved position -------------------------------------------------------------------
    def initial(self) -> str:
        """Units where the recording starts; the scenario whose set-up it matches best."""
        seen: dict[str, str] = {}
        reduced: set[str] = set()
        for piece in sorted(self.tracking.initial.values(), key=lambda p: p.piece_id):
            unit = self.unit_of(piece)
            if unit is None:
                continue
            if unit in seen:
                self.note(0, f"two counters of {unit} in the saved position ({seen[unit]} and "
                             f"{self.locate(piece)}); the reader follows both as the one unit")
            where = self.locate(piece)
            self.where[unit] = where
            seen[unit] = where.name
            if self.is_reduced(piece):
                reduced.add(unit)
            box = self.boxes.get(where.name)
            if box is not None and box.kind == "eliminated":
                self.eliminated.add(unit)
        markers: dict[str, list[str]] = defaultdict(list)
        for piece in self.tracking.initial.values():
            marker = piece.properties.get("MarkerId")
            if marker and marker in self.game.markers_by_id and piece.map_name is not None:
                markers[marker].append(self.locate(piece).name)
        scores = {s.id: sum(1 for _, p in self.game.setup if p.scenario == s.id and seen.get(p.piece) == p.location)
                  for s in self.game.manifest.scenario}
        tied = [s for s, score in scores.items() if score == max(scores.values())]
        # Scenarios with the same set-up (a campaign and its first scenario) look alike on the board:
        # the save's comment may name one (adjudicate export's does), else the first listed is taken.
        said = re.findall(r"\bscenario ([\w-]+)", self.recording.savedata.get("description", ""))
        best = next((s for s in said if s in tied), tied[0])
        expected = {p.piece: p.location for _, p in self.game.setup
                    if p.scenario == best and p.piece in self.game.units_by_id}
        # The faces the rules set up (a side set up reduced, rules.toml's start_reduced) are the set-up's too.
        set_up_reduced: set[str] = set()
        if self.system is not None:
            start = self.system.initial_state(self.game, [Header(key="Scenario", value=best)])
            set_up_reduced = set(self.system.position(start).reduced())
        differences = []
        for unit in sorted(set(expected) | set(seen)):
            if expected.get(unit) != seen.get(unit) or (unit in reduced) != (unit in set_up_reduced):
                now = seen.get(unit, "not in play") + (" (reduced)" if unit in reduced else "")
                differences.append(f"{unit} {expected.get(unit, 'not in play')} -> {now}")
        # Markers set up once each (turn, supply...): a different place is a move, or a layout
        # the reader does not know (a module other than the one the log was played with).
        placed: dict[str, list[str]] = defaultdict(list)
        for _, p in self.game.setup:
            if p.scenario == best and p.piece in self.game.markers_by_id:
                placed[p.piece] += [p.location] * p.count
        for marker in sorted(placed):
            if len(placed[marker]) == 1 and len(markers.get(marker, [])) == 1 and markers[marker] != placed[marker]:
                differences.append(f"marker {marker} {placed[marker][0]} -> {markers[marker][0]}")
        self.differences = differences
        return best

    # -- turns ---------------------------------------------------------------------------
    def turn_position(self, state: str, step: int) -> tuple[int, int] | None:
        position = tracker_position(state)
        if position is None or len(position) < 2:
            self.note(step, "a turn tracker state the reader does not know; turn and step not translated")
            return None
        turn, index = position[0], position[1]
        if not 0 <= turn <= MAX_NUMBER:
            self.note(step, f"turn tracker at turn {turn}: not a turn; not translated")
            return None
        if not 0 <= index < len(self.phase_list):
            self.note(step, f"turn tracker at step {index + 1} of a list of {len(self.phase_list)}: not one of "
                            f"{self.game.id}'s steps; not translated")
            return None
        return turn, index

    def turn_to(self, position: tuple[int, int], step: int) -> None:
        turn, index = position
        phase = self.phase_list[index]
        if self.turn_at is not None and position > self.turn_at:
            self.drop_attackers(step, f"the turn tracker's turn {turn}, {phase.name}")
        if self.turn_at is not None and position <= self.turn_at:
            if position < self.turn_at:
                self.comment(step, f"the turn tracker goes back to turn {turn}, {phase.name}: not translated")
                self.note(step, f"the turn tracker went back to turn {turn}, {phase.name}; the log goes on from "
                                "where it was")
            return
        if self.turn_at is None or turn != self.turn_at[0]:
            if self.turn_at is not None and turn > self.turn_at[0] + 1:
                self.note(step, f"the turn tracker jumps from turn {self.turn_at[0]} to turn {turn}")
            self.emit(TurnMarker(line=step, turn=turn))
        self.emit(StepMarker(line=step, step=phase.step))
        self.turn_at = position

    def start_turn(self, scenario: str) -> None:
        """The turn and step the saved position is at (held back over the set-up at the scenario's start)."""
        # Set-up comes before turn 1: the markers wait for something other than a set-up placement.
        for tracker_id in sorted(self.tracking.initial_turns):
            position = self.turn_position(self.tracking.initial_turns[tracker_id], 0)
            if position is not None:
                self.tracker_id = tracker_id
                first = next(s.first_turn for s in self.game.manifest.scenario if s.id == scenario)
                at = len(self.out)
                if self.turn_at is None and position > (first, 0):
                    # A game saved after its start, read on its own: the replay goes from the set-up, and
                    # markers jumping to the saved turn would breach the sequence of play (4.1: "GT 2 follows
                    # GT 0") where the players did not. The tracker is where it is; what follows is judged.
                    turn, index = position
                    self.comment(0, f"the saved game is at turn {turn}, {self.phase_list[index].name}")
                    self.note(0, f"the saved game is at turn {turn}, {self.phase_list[index].name}, not at the "
                                 "scenario's start: its turn is not judged (adjudicate the game's earlier logs with "
                                 "it to judge the turns that led there)")
                    self.turn_at = position
                    return
                self.turn_to(position, 0)
                if position == (first, 0) and not self.differences:
                    self.before_start = self.out[at:]
                    del self.out[at:]
                return

    # -- declarations ---------------------------------------------------------------------------
    def looks_declared(self, text: str) -> bool:
        words = text.split()
        if not words:
            return False
        first = words[0]
        if first in ("Turn", "Step", "Phase", "Roll") or first.startswith("["):
            return True
        m = SIDE.match(first)
        if m is not None and m.group(1) in self.sides:
            return True
        return first in self.game.units_by_id

    @staticmethod
    def declared_keys(entry: Entry) -> list[tuple[str, Key]]:
        """(unit, effect) of the counter moves a declared entry stands for."""
        out: list[tuple[str, Key]] = []
        if isinstance(entry, (Move, Retreat, Advance)):
            out.append((entry.unit, ("at", entry.path[-1])))
        elif isinstance(entry, PlaceEntry):
            if entry.hex is not None:
                out.append((entry.unit, ("at", entry.hex)))
            elif entry.how in ("delay", "pickup"):
                out.append((entry.unit, (entry.how,)))
            elif entry.how == "replace" and entry.strength != "reduced":
                out.append((entry.unit, ("restore",)))
            if entry.strength == "reduced" and entry.hex is not None:
                out.append((entry.unit, ("deplete",)))
        elif isinstance(entry, Loss):
            out.append((entry.unit, ("deplete",) if entry.loss == "deplete" else ("eliminate",)))
        elif isinstance(entry, StandFast):
            out += [(unit, STAND_KEY) for unit in entry.units]
        return out

    def in_place(self, entry: Entry, keys: list[tuple[str, Key]]) -> list[tuple[str, Key]]:
        """A replacement restoring a reduced unit where it stands (a classic game's 11.0, Onslaught's in-place
        rebuild) is carried out by flipping its counter, not by moving it to the hex it is in."""
        if not (isinstance(entry, PlaceEntry) and entry.how == "replace" and entry.strength != "reduced"
                and entry.hex is not None):
            return keys
        here = self.where.get(entry.unit)
        if here is None or not here.is_hex or here.name != entry.hex:
            return keys
        return [(unit, ("restore",) if key == ("at", entry.hex) else key) for unit, key in keys]

    def rolled_just_now(self, entry: RollOff) -> bool:
        """Whether the last entry written (comments aside) is the same roll, translated from a die."""
        last = next((e for e in reversed(self.out) if not isinstance(e, Comment)), None)
        return isinstance(last, RollOff) and last.rolls == entry.rolls and id(last) in self.die_rolls

    def declare(self, step: int, who: str, text: str, typed: bool = True) -> None:
        try:
            entry = parse_line(text, step, self.recording.file)
        except LogSyntaxError as e:
            self.comment(step, f"step {step}: {who}: {text}")
            self.note(step, f"chat line {text!r} looks like a declaration but does not read as one: {e.message}")
            return
        if entry is None:
            return
        if isinstance(entry, Header) and entry.key == "Game":
            if entry.value != self.game.id:
                self.note(step, f"chat names game {entry.value!r}, but the recording is of {self.game.id}: ignored")
            return
        if isinstance(entry, Header) and entry.key == "Optional":
            self.optional.add(entry.value)
        unresolved = resolve(self.game, [entry], self.recording.file)
        if unresolved:
            self.comment(step, f"step {step}: {who}: {text}")
            self.note(step, f"chat line {text!r} is not translated: " + "; ".join(e.message for e in unresolved))
            return
        if typed:
            self.comment(step, f"step {step}: typed by {who}")
        if isinstance(entry, (Action, Pass, TurnMarker, StepMarker, Attack, Bombard)):
            # A typed attack stands on its own: clicked attackers waiting for a target are dropped.
            self.drop_attackers(step, f"'{write_entry(entry)}'")
        if isinstance(entry, RollOff) and self.rolled_just_now(entry):
            # A `Roll` typed for the die just rolled (Pointe du Hoc, weather) writes that die, not a second.
            self.comment(step, f"step {step}: the typed '{write_entry(entry)}' is the die just rolled")
            return
        index = self.emit(entry)
        for unit, key in self.in_place(entry, self.declared_keys(entry)):
            if not self.retract(unit, key, step):
                self.expected[unit].append((key, step, write_entry(entry)))
        if isinstance(entry, (Attack, Bombard)):
            self.last_combat = index
        if isinstance(entry, Attack):
            self.open_attack = entry
        elif isinstance(entry, (Action, Pass, Activate, RollOff, TurnMarker, StepMarker)):
            self.open_attack = None
            self.pending_die = None
        if "die" in type(entry).model_fields:
            # An attack (or any entry with a die) declared without its die takes the next roll.
            self.pending_die = index if getattr(entry, "die") is None else None
        if isinstance(entry, TurnMarker):
            self.turn_at = (entry.turn, -1)
        elif isinstance(entry, StepMarker):
            turn = self.turn_at[0] if self.turn_at else 0
            after = self.turn_at[1] if self.turn_at else -1
            index_of = next((i for i, p in enumerate(self.phase_list) if p.step == entry.step and i > after), None)
            if index_of is not None:
                self.turn_at = (turn, index_of)
        self.last_roll = None

    def retract(self, unit: str, key: Key, step: int) -> bool:
        """A declaration typed after its counter moved replaces the reader's entry for that move."""
        for k in range(len(self.physical[unit]) - 1, -1, -1):
            index, keys = self.physical[unit][k]
            if carries_out(key, keys):
                old = self.out[index]
                self.out[index] = Comment(line=old.line, text=one_line(
                    f"step {old.line}: {write_entry(old)} -- as declared in chat at step {step}"))
                self.endpoint.pop(index, None)
                del self.physical[unit][k]
                return True
        return False

    def consume(self, unit: str, keys: frozenset[Key]) -> tuple[int, str] | None:
        """The declaration (step, text) a counter move carries out, if one is waiting."""
        waiting = self.expected.get(unit, [])
        for k, (key, step, text) in enumerate(waiting):
            if carries_out(key, keys):
                del waiting[k]
                return step, text
        return None

    def physical_entry(self, step: int, unit: str, keys: frozenset[Key], entry: Entry, what: str) -> None:
        """Emit the entry for a counter move unless a declaration already stands for it."""
        declared = self.consume(unit, keys)
        if declared is not None:
            self.comment(step, f"step {step}: {what} (as declared at step {declared[0]}: {declared[1]})")
            return
        index = self.emit(entry)
        self.physical[unit].append((index, keys))
        self.last_roll = None

    # -- declarations clicked in our modules (wargame.vassal.declarations) -------------------------
    def clicked(self, step: int, who: str | None, text: str) -> None:
        """A declaration line our modules' menus write (or a player typed in their form): its entry."""
        by = f" by {who}" if who else ""
        try:
            declared = read_declaration(text)
        except NotADeclaration as e:
            self.comment(step, f"step {step}: {who + ': ' if who else ''}{text}")
            self.note(step, f"chat line {text!r} starts with {PREFIX} but does not read as a declaration: {e}")
            return
        if declared.side is not None and declared.side not in self.sides:
            self.note(step, f"{text!r}: {declared.side!r} is not a side of {self.game.id}"
                            + did_you_mean(declared.side, self.sides) + "; the side is ignored")
        side = declared.side if declared.side in self.sides else None
        self.comment(step, f"step {step}: declared{by}: {text}")
        handler = {
            ACTION: self.clicked_notation, PASS: self.clicked_notation, DECLARE: self.clicked_notation,
            INCOME: self.clicked_notation, CAPTURE: self.clicked_notation,
            RESULT: self.clicked_result, ATTACKER: self.clicked_attacker, TARGET: self.clicked_target,
            BOMBARD: self.clicked_bombard, SUPPORT: self.clicked_support, STAND: self.clicked_stand,
            ACTIVATE: self.clicked_activate, DEFENDER: self.clicked_defender,
        }[declared.word]
        handler(step, side, declared, text)

    def clicked_notation(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """`action`, `pass`, `declare`, `income`, `capture`: the notation's own words after the side."""
        side = side or self.recorder
        if side is None:
            example = f"{self.game.manifest.sides[0]}: {declared.word} {declared.subject}".rstrip()
            self.note(step, f"{text!r} names no side of {self.game.id} (the player had not taken one in VASSAL), "
                            f"and the log has players of more than one side: not translated; type it with its "
                            f"side, e.g. '{example}'")
            return
        words = f"{declared.word} {declared.subject}".strip()
        # '-' (or nothing) as the answer to the supply prompt: the claim is left to the referee.
        words = re.sub(r"\s+supply\s*-?\s*$", "", words)
        # The same for the supply income's prompt (8.7): `income -` is `income`, the referee's count.
        words = re.sub(r"^income\s+-\s*$", "income", words)
        self.declare(step, "the module", f"{side}: {words}", typed=False)

    def unit_named(self, step: int, declared: Declaration, text: str) -> str | None:
        """The unit a piece declaration names, or None (and a note) if the game has none of that id."""
        unit = declared.subject
        if unit in self.game.units_by_id:
            return unit
        self.note(step, f"{text!r} names unit {unit!r}, which {self.game.id} does not have"
                        + did_you_mean(unit, self.game.units_by_id) + ": not translated")
        return None

    def hex_named(self, step: int, declared: Declaration, text: str) -> str | None:
        """The hex a piece declaration names (where the counter lies), or None and a note."""
        if self.game.grid.is_label(declared.where):
            return declared.where
        self.note(step, f"{text!r}: the counter is at {declared.where or 'no place VASSAL names'!s}, not on a "
                        "hex of the map: not translated")
        return None

    def last_entry(self, step: int) -> Entry | None:
        """The last entry emitted at `step` other than a comment (for declarations clicked on a selection)."""
        for entry in reversed(self.out):
            if entry.line != step:
                return None
            if not isinstance(entry, Comment):
                return entry
        return None

    def drop_attackers(self, step: int, why: str) -> None:
        """Attackers declared without a target: noted, and forgotten."""
        if self.attackers or self.supports:
            named = " ".join([u for u, _ in self.attackers] + self.supports)
            self.note(self.attackers[0][1] if self.attackers else step,
                      f"declared {named} for an attack, but no target was declared before {why}: not translated")
        self.attackers, self.supports = [], []

    def clicked_attacker(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        unit = self.unit_named(step, declared, text)
        if unit is None or self.hex_named(step, declared, text) is None:
            return
        if unit not in [u for u, _ in self.attackers]:
            self.attackers.append((unit, step))

    def clicked_target(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """The attack: the attackers declared since the last one, on the target's hex; its die comes next."""
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        last = self.last_entry(step)
        if not self.attackers:
            if not (isinstance(last, Attack) and last.hex == where):  # else another counter of the stack
                self.note(step, f"{text!r}: a target, but no attacker was declared since the last attack: not "
                                "translated (declare the attackers first)")
            return
        attackers = [u for u, _ in self.attackers]
        sides = sorted({self.game.units_by_id[u].side for u in attackers})
        if len(sides) > 1:
            self.note(step, f"the attackers declared for {where} ({' '.join(attackers)}) are of both sides; the "
                            "attack is written for the side of the first")
        attacking = self.game.units_by_id[attackers[0]].side
        if self.game.units_by_id[unit].side == attacking and unit not in attackers:
            # One of the attackers as the target is an attack on their own hex (Omaha's beach assaults, 11.2.3).
            self.note(step, f"{text!r}: the target {unit} is a unit of the attacking side ({attacking})")
        entry = Attack(line=step, side=attacking, hex=where, attackers=attackers, support=self.supports)
        self.attackers, self.supports = [], []
        index = self.emit(entry)
        self.open_attack, self.pending_die, self.last_combat, self.last_roll = entry, index, index, None

    def clicked_bombard(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A bombardment (Fire & Movement 8.1) of the target's hex by the markers declared just before."""
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        last = self.last_entry(step)
        if isinstance(last, Bombard) and last.hex == where:
            return  # another counter of the bombarded stack
        if not self.supports:
            self.note(step, f"{text!r}: a bombardment, but no support fire marker was declared for it: not "
                            "translated (declare the markers first)")
            return
        target_side = self.game.units_by_id[unit].side
        bombarding = side or next((s for s in self.game.manifest.sides if s != target_side), target_side)
        entry = Bombard(line=step, side=bombarding, hex=where, support=self.supports)
        self.supports = []
        index = self.emit(entry)
        self.pending_die, self.last_combat, self.last_roll = index, index, None

    def clicked_support(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A support fire marker: on the combat whose die is still to come, else on the next one declared."""
        marker = declared.subject
        if marker not in self.game.markers_by_id:
            self.note(step, f"{text!r} names marker {marker!r}, which {self.game.id} does not have"
                            + did_you_mean(marker, self.game.markers_by_id) + ": not translated")
            return
        if self.last_combat is not None and self.pending_die == self.last_combat:
            combat = self.out[self.last_combat]
            assert isinstance(combat, (Attack, Bombard))
            if marker not in combat.support:
                self.out[self.last_combat] = combat.model_copy(update={"support": [*combat.support, marker]})
        elif marker not in self.supports:
            self.supports.append(marker)

    def clicked_result(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """The result claimed: on the last attack or bombardment declared, checked against its die."""
        code = declared.subject
        codes = list(self.game.crt.result_codes) if self.game.crt is not None else []
        if not code or (codes and code not in codes):
            self.note(step, f"{text!r}: {code or 'no result'!s} is not a result of the combat table ("
                            f"{', '.join(codes)})" + did_you_mean(code, codes) + ": not translated")
            return
        if self.last_combat is None:
            self.note(step, f"{text!r}: a result claimed, but no attack was declared: not translated")
            return
        combat = self.out[self.last_combat]
        assert isinstance(combat, (Attack, Bombard))
        if combat.result is not None and combat.result != code:
            self.note(step, f"result {code} claimed for the {combat.kind} on {combat.hex} (step {combat.line}), "
                            f"which had result {combat.result}: the later claim is kept")
        self.out[self.last_combat] = combat.model_copy(update={"result": code})

    def clicked_defender(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """The unit that defends a stack (Omaha 11.2.3, 11.2.4): the `defender` of the last attack or
        bombardment declared, on that unit's hex."""
        unit = self.unit_named(step, declared, text)
        if unit is None:
            return
        combat = self.out[self.last_combat] if self.last_combat is not None else None
        if not isinstance(combat, (Attack, Bombard)):
            self.note(step, f"{text!r}: a defender, but no attack or bombardment was declared: not translated")
            return
        self.out[self.last_combat] = combat.model_copy(update={"defender": unit})  # type: ignore[index]

    def clicked_stand(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A stand (stiff resistance, a fortification): it stands for the counter's flip."""
        unit = self.unit_named(step, declared, text)
        if unit is None:
            return
        owner, by_opponent = self.sided(unit, side)
        last = self.last_entry(step)
        if isinstance(last, StandFast) and last.side == owner and last.by_opponent == by_opponent:
            index = max(i for i, e in enumerate(self.out) if e is last)
            self.out[index] = last.model_copy(update={"units": [*last.units, unit]})
        else:
            self.emit(StandFast(line=step, side=owner, by_opponent=by_opponent, units=[unit]))
        if not self.retract(unit, STAND_KEY, step):
            self.expected[unit].append((STAND_KEY, step, f"{owner}{'>' if by_opponent else ':'} stand {unit}"))

    def clicked_activate(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """An activation of the unit's stack (one entry for the units clicked together in a hex)."""
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        owner = self.game.units_by_id[unit].side
        last = self.last_entry(step)
        if isinstance(last, Activate) and last.hex == where and last.side == owner:
            index = max(i for i, e in enumerate(self.out) if e is last)
            if unit not in last.units:
                self.out[index] = last.model_copy(update={"units": [*last.units, unit]})
            return
        self.emit(Activate(line=step, side=owner, hex=where, units=[unit]))
        self.open_attack, self.pending_die, self.last_roll = None, None, None

    # -- dice --------------------------------------------------------------------------------
    def dice(self, step: int, name: str, values: list[int], player: str | None) -> None:
        side = self.side_of_name.get(player or "")
        who = f"{player} ({side})" if side else (player or "someone")
        rolled = ", ".join(map(str, values))
        if self.pending_die is not None and len(values) == 1:
            declared = self.out[self.pending_die]
            if side is None or declared.side is None or side == declared.side:
                # The die the declaration left out (an attack, a bombardment...): the next one its side rolls.
                self.out[self.pending_die] = declared.model_copy(update={"die": values[0]})
                kind = getattr(declared, "kind", "declaration")
                self.comment(step, f"step {step}: {who} rolls {name} = {rolled}, the die of the {kind} on "
                                   f"{getattr(declared, 'hex', '?')} (step {declared.line})")
                self.pending_die = None
                return
        self.comment(step, f"step {step}: {who} rolls {name} = {rolled}")
        single = [k for k in self.game.manifest.roll if k.entry == "roll" and k.by == "one"]
        if len(values) == 1 and side is not None and single:
            if self.before_start and any(k.opening for k in single):
                # Before GT 1 the one die is the Pointe du Hoc roll (Omaha 11.2.3), written `Roll Allied N`.
                self.die_rolls.add(id(self.out[self.emit(RollOff(line=step, rolls={side: values[0]}))]))
                return
            turn = self.turn_at[0] if self.turn_at else 0
            if self.weather_die(side):
                if turn in self.weather:
                    self.aside_rolls[turn].add(side)
                else:
                    self.weather[turn] = values[0]
                self.die_rolls.add(id(self.out[self.emit(RollOff(line=step, rolls={side: values[0]}))]))
                self.last_roll = None
                return
        if len(values) == 1 and side is not None:
            if self.last_roll is not None and self.last_roll[0] != side:
                # One die each, one side after the other: a roll-off.
                self.emit(RollOff(line=step, rolls={self.last_roll[0]: self.last_roll[1], side: values[0]}))
                self.last_roll = None
                return
            self.last_roll = (side, values[0])

    def receipt(self, step: int, who: str, token: str) -> None:
        """A dice receipt of the ledger pasted into the chat: the die of the entry waiting for one, else the
        receipt of the latest die roll that has none (adjudicate check --ledger then verifies it)."""
        try:
            receipt = receipt_from_token(token)
        except ReceiptError as e:
            self.comment(step, f"step {step}: {who}: {one_line(token)[:80]}")
            self.note(step, f"{who} pasted a dice receipt that does not read: {e.message}")
            return
        if self.pending_die is not None and len(receipt.result) == 1:
            declared = self.out[self.pending_die]
            self.out[self.pending_die] = declared.model_copy(update={"die": receipt.total, "receipts": [token]})
            self.comment(step, f"step {step}: {who} pastes ledger receipt #{receipt.seq}: {receipt.dice} = "
                               f"{receipt.total}, the die of the {getattr(declared, 'kind', 'entry')} on "
                               f"{getattr(declared, 'hex', '?')} (step {declared.line})")
            self.pending_die = None
            return
        for index in range(len(self.out) - 1, -1, -1):
            entry = self.out[index]
            has = list(getattr(entry, "receipts", []))
            if len(logged_dice(entry)) > len(has):
                self.out[index] = entry.model_copy(update={"receipts": [*has, token]})
                self.comment(step, f"step {step}: {who} pastes ledger receipt #{receipt.seq} ({receipt.dice} = "
                                   f"{receipt.total}) for the die roll of step {entry.line}")
                return
        self.comment(step, f"step {step}: {who} pastes ledger receipt #{receipt.seq}")
        self.note(step, f"{who} pasted ledger receipt #{receipt.seq} ({receipt.purpose!r}), but no die roll before "
                        "it is waiting for a receipt")

    def weather_die(self, side: str) -> bool:
        """Whether a die `side` rolls now is a weather die (Omaha 14.1, `[Optional "weather"]`): in a
        game turn's Support Fire Marker Phase from the first weather turn, the German player's die,
        then, when it gives inclement weather, each side's die for the markers put aside."""
        kind = next((k for k in self.game.manifest.roll if k.entry == "roll" and k.optional is not None
                     and k.optional in self.optional), None)
        if kind is None or self.turn_at is None or self.turn_at[1] != 0:
            return False
        first = self.game.parameter.get("weather_first_turn", 2)
        inclement = self.game.parameter.get("weather_inclement_roll", 6)
        turn = self.turn_at[0]
        if not isinstance(first, int) or turn < first:
            return False
        if turn not in self.weather:
            return kind.roller is None or side == kind.roller
        return self.weather[turn] == inclement and side not in self.aside_rolls[turn]

    # -- counters ------------------------------------------------------------------------------
    def actor_side(self, event: PieceEvent) -> str | None:
        if event.player_id is not None and event.player_id in self.side_of_password:
            return self.side_of_password[event.player_id]
        return self.recorder

    def sided(self, unit: str, actor: str | None) -> tuple[str, bool]:
        """The unit's side, and whether the other side made the move (a decision for the opponent)."""
        side = self.game.units_by_id[unit].side
        return side, actor is not None and actor != side

    def game_state(self) -> Callable[[], Followed[Any] | Lost | None]:
        """The state where the translation ends, for the next log of a chain: worked out now when the
        translation has followed the game already (little is left to apply), else when asked."""
        follower, entries = self.follower, list(self.out)
        if follower is None:
            return lambda: None
        if follower.states:
            done = follower.settle(entries)
            return lambda: done
        found: list[Followed[Any] | Lost | None] = []

        def final() -> Followed[Any] | Lost | None:
            if not found:
                found.append(follower.settle(entries))
            return found[0]
        return final

    def owes_retreat(self, unit: str) -> bool:
        """Whether the rule system says the combat being resolved owes the unit a retreat."""
        model = None if self.system is None else self.system.movement
        if model is None or self.follower is None:
            return False
        followed = self.follower.follow(self.out)
        if isinstance(followed, Lost):
            return False
        try:
            return any(option.unit == unit for option in model.retreat_options(followed.state))
        except WargameError:
            return False

    def route(self, unit: str, start: Location, end: Location, motion: Motion) -> tuple[list[str], str | None]:
        """The path of a drag from start to end hex, and a note if VASSAL did not record it."""
        assert start.hex is not None and end.hex is not None
        if start.hex.distance(end.hex) <= 1:
            return [start.name, end.name], None
        recorded = f"VASSAL recorded only where {unit} ended ({start} -> {end})"
        if self.system is None:
            return [start.name, end.name], (f"{recorded}; no rule system {self.game.manifest.rule_system!r} to "
                                            f"choose a path by: written as {start}-{end}")
        assert self.follower is not None  # made with the system
        chosen = choose_path(self.system, self.follower.follow(self.out), unit, start.hex, end.hex, motion)
        if chosen.path is None:
            return [start.name, end.name], (
                f"{recorded}, and no path joins them by {chosen.rule}; written as {start}-{end} (the rule "
                f"system will say it skips hexes): type the real path in chat, e.g. '{unit} {start}-...-{end}'")
        return list(chosen.path), (f"{recorded}; path supplied by the reader: {chosen.pick} by {chosen.rule}, "
                                   f"{'-'.join(chosen.path)}")

    def relocate(self, step: int, unit: str, before: Location, after: Location, reduced: bool,
                 actor: str | None) -> None:
        """A unit's counter changed place: the entry that says so."""
        side, by_opponent = self.sided(unit, actor)
        what = f"{unit} {before} -> {after}"
        if before.is_hex and after.is_hex:
            declared = self.consume(unit, frozenset({("at", after.name)}))
            if declared is not None:
                self.comment(step, f"step {step}: {what} (as declared at step {declared[0]}: {declared[1]})")
                return
            attack = self.open_attack
            motion: Motion = "move"
            if attack is not None and before.name == attack.hex and self.game.units_by_id[unit].side != attack.side:
                motion = "retreat"
            elif attack is not None and unit in attack.attackers:
                # An attacker's drag is its retreat when the result owes one (Fire & Movement 8.2.4), else its advance.
                motion = "retreat" if self.owes_retreat(unit) else "advance"
            probe = {"retreat": Retreat, "advance": Advance, "move": Move}[motion]
            if self.before_start and not self.before_first_turn(probe.model_construct()):
                self.start(step)  # the entry begins the first turn: the path is chosen in it
            path, why = self.route(unit, before, after, motion)
            entry: Entry
            if motion == "retreat":
                entry = Retreat(line=step, unit=unit, path=path, side=side, by_opponent=by_opponent)
            elif motion == "advance":
                entry = Advance(line=step, unit=unit, path=path, side=side, by_opponent=by_opponent)
            else:
                entry = Move(line=step, unit=unit, path=path)
            if why is not None:
                self.comment(step, f"step {step}: {why}")
            index = self.emit(entry)
            self.physical[unit].append((index, frozenset({("at", after.name)})))
            if why is not None:
                self.endpoint[index] = why
            self.last_roll = None
            return
        box_to = self.boxes.get(after.name) if after.kind == "box" else None
        box_from = self.boxes.get(before.name) if before.kind == "box" else None
        keys: set[Key] = {("at", after.name)}
        if box_to is not None:
            keys |= {("eliminate",)} if box_to.kind == "eliminated" else set()
            keys |= {("delay",)} if box_to.kind == "delayed" else set()
            keys |= {("pickup",)} if box_to.kind == "holding" else set()
        if before.is_hex and after.kind == "track":
            keys.add(("pickup",))  # Onslaught 9.1: a paratroop division picked up waits on the turn track
        if after.kind == "none":
            keys.add(("eliminate",))
        frozen = frozenset(keys)
        if before.is_hex and (after.kind == "none" or (box_to is not None and box_to.kind == "eliminated")):
            self.eliminated.add(unit)
            self.physical_entry(step, unit, frozen, Loss(line=step, loss="eliminate", unit=unit, side=side,
                                                         by_opponent=by_opponent), what)
            return
        if (before.is_hex or before.kind == "none") and box_to is not None and box_to.kind == "delayed":
            self.physical_entry(step, unit, frozen, PlaceEntry(line=step, how="delay", unit=unit, side=side,
                                                               by_opponent=by_opponent), what)
            return
        if after.is_hex and self.before_start and box_from is not None and box_from.kind not in ("eliminated",
                                                                                                   "delayed"):
            # Before the first turn begins, a unit taken from a holding box onto the map is set up.
            self.physical_entry(step, unit, frozen, PlaceEntry(line=step, how="setup", unit=unit, hex=after.name,
                                                               side=side, by_opponent=by_opponent), what)
            return
        if after.is_hex and (before.kind == "none" or box_from is not None and box_from.kind in ("eliminated",
                                                                                                   "delayed")):
            replacing = unit in self.eliminated
            self.eliminated.discard(unit)
            strength = ("reduced" if reduced else "full") if replacing else None
            if reduced and not replacing:
                self.note(step, f"{unit} comes into play on its reduced side")
            entry = PlaceEntry(line=step, how="replace" if replacing else "reinforce", unit=unit, hex=after.name,
                               strength=strength, side=side, by_opponent=by_opponent)
            self.physical_entry(step, unit, frozen, entry, what)
            return
        declared = self.consume(unit, frozen)
        if declared is not None:
            self.comment(step, f"step {step}: {what} (as declared at step {declared[0]}: {declared[1]})")
            return
        self.comment(step, f"step {step}: {what}")
        if after.is_hex:
            self.note(step, f"{unit} moved {before} -> {after}: not translated; if it was a rules action, type it in "
                            f"chat (e.g. '{side}: reinforce {unit} {after}' or '{side}: paradrop {unit} {after}')")
        elif before.is_hex or "off-grid" in (before.kind, after.kind) or "map" in (before.kind, after.kind):
            self.note(step, f"{unit} moved {before} -> {after}: not translated; if it was a rules action, type it in "
                            f"chat (e.g. '{side}: pickup {unit}')")

    def flip(self, step: int, unit: str, reduced: bool, where: Location, actor: str | None) -> None:
        if self.game.units_by_id[unit].steps < 2:
            return
        if reduced:
            side, by_opponent = self.sided(unit, actor)
            self.physical_entry(step, unit, frozenset({("deplete",)}),
                                Loss(line=step, loss="deplete", unit=unit, side=side, by_opponent=by_opponent),
                                f"{unit} flipped to its reduced side at {where}")
            return
        declared = self.consume(unit, frozenset({("restore",)}))
        text = f"step {step}: {unit} flipped back to full strength at {where}"
        if declared is not None:
            self.comment(step, f"{text} (as declared at step {declared[0]}: {declared[1]})")
            return
        self.comment(step, text)
        self.note(step, f"{unit} flipped back to full strength at {where}: not translated; type what it was in chat "
                        "(e.g. 'Allied: replace UNIT full')")

    def piece_event(self, step: int, event: PieceEvent) -> None:
        piece = event.after or event.before
        assert piece is not None
        unit = self.unit_of(piece)
        before, after = self.locate(event.before), self.locate(event.after)
        if unit is None:
            marker = piece.properties.get("MarkerId")
            name = f"marker {marker}" if marker else f"piece {piece.name!r}"
            if event.before is None:
                self.comment(step, f"step {step}: {name} placed at {after}")
            elif event.after is None:
                self.comment(step, f"step {step}: {name} removed from {before}")
            elif before.name != after.name:
                self.comment(step, f"step {step}: {name} {before} -> {after}")
            elif self.is_reduced(event.before) != self.is_reduced(event.after):
                self.comment(step, f"step {step}: {name} flipped at {after}")
            return
        actor = self.actor_side(event)
        reduced_before, reduced_after = self.is_reduced(event.before), self.is_reduced(event.after)
        if after.kind == "none":
            self.where.pop(unit, None)
        else:
            self.where[unit] = after
        if event.before is None:
            self.relocate(step, unit, NOWHERE, after, reduced_after, actor)
            return
        if before.name != after.name:
            self.relocate(step, unit, before, after, reduced_after, actor)
        if event.after is not None and reduced_before != reduced_after:
            self.flip(step, unit, reduced_after, after, actor)

    def silently(self, events: tuple[object, ...]) -> None:
        """Follow the counters of a step that is undone (or undoes), without translating it."""
        for event in events:
            if isinstance(event, PieceEvent):
                piece = event.after or event.before
                assert piece is not None
                unit = self.unit_of(piece)
                if unit is not None:
                    after = self.locate(event.after)
                    if after.kind == "none":
                        self.where.pop(unit, None)
                    else:
                        self.where[unit] = after

    # -- steps -------------------------------------------------------------------------------------
    def describe(self, step: StepEvents) -> str:
        """What a person saw in VASSAL's chat for a step, or what it did if nothing was said."""
        texts = []
        for event in step.events:
            if isinstance(event, ChatEvent):
                text = one_line(chat_text(event.html))
                dice = DICE.match(text)
                said = PLAYER_CHAT.match(text)
                if dice is not None:
                    texts.append(f"{dice.group('player') or 'someone'} rolls {dice.group('name')} = "
                                 f"{dice.group('result')}")
                elif said is not None:
                    texts.append(f"{said.group('name')}: {said.group('text')}")
                else:
                    texts.append(text.strip("* ").strip())
        texts = [t for t in texts if t]
        if texts:
            return " / ".join(texts)
        kinds = sorted({type(e).__name__ for e in step.events})
        return "no visible effect" if not kinds else "changes " + ", ".join(
            {"PieceEvent": "counters", "PropertyEvent": "properties", "TurnEvent": "the turn tracker"}.get(k, k)
            for k in kinds)

    def translate_step(self, step: StepEvents, undone_by: int | None, undoes: int | None) -> None:
        number = step.step.number
        self.read_reports(step)
        description = self.describe(step)
        self.steps[number] = description
        if undone_by is not None or undoes is not None:
            if undone_by is not None:
                self.comment(number, f"step {number} (undone at step {undone_by}): {description}")
            else:
                self.comment(number, f"step {number}: undo of step {undoes}")
            self.silently(step.events)
            for event in step.events:
                if isinstance(event, PlayerEvent):
                    self.player_event(number, event)  # Undo does not take back a side change
                if isinstance(event, TurnEvent) and event.tracker_id == self.tracker_id:
                    position = self.turn_position(event.new, number)
                    if position is not None and undoes is not None:
                        self.turn_at = position
            return
        reports = [one_line(chat_text(e.html)).strip("* ").strip() for e in step.events
                   if isinstance(e, ChatEvent) and chat_text(e.html).startswith("*") and not DICE.match(
                       chat_text(e.html))]
        if any(isinstance(e, PieceEvent) for e in step.events) or any(isinstance(e, TurnEvent) for e in step.events):
            self.comment(number, f"step {number}: " + (" / ".join(r for r in reports if r) or description))
        for event in step.events:
            if isinstance(event, PieceEvent):
                self.piece_event(number, event)
            elif isinstance(event, TurnEvent):
                if event.tracker_id == self.tracker_id or self.tracker_id is None:
                    position = self.turn_position(event.new, number)
                    if position is not None:
                        self.tracker_id = event.tracker_id
                        self.turn_to(position, number)
            elif isinstance(event, ChatEvent):
                self.chat(number, event.html)
            elif isinstance(event, PlayerEvent):
                self.player_event(number, event)
            elif isinstance(event, PropertyEvent):
                continue

    def chat(self, step: int, html_text: str) -> None:
        text = chat_text(html_text)
        dice = DICE.match(text)
        if dice is not None:
            values = [int(v) for v in re.split(r"\s*,\s*", dice.group("result"))]
            if any(v > MAX_NUMBER for v in values):
                self.comment(step, f"step {step}: {one_line(text)}")  # no die of a wargame: kept as said
                return
            self.dice(step, dice.group("name"), values, dice.group("player"))
            return
        if text.startswith("*"):
            report = text.lstrip("*").strip()
            if is_declaration(report):
                self.clicked(step, None, one_line(report))
            return  # another automatic report: already in the step's comment
        said = PLAYER_CHAT.match(text)
        if said is None:
            self.comment(step, f"step {step}: {text}")
            return
        who, words = said.group("name"), said.group("text").strip()
        for line in words.splitlines():
            line = line.strip()
            if (pasted := RECEIPT_LINE.match(line)) is not None:
                self.receipt(step, who, pasted.group(1))
            elif is_declaration(line):
                self.clicked(step, who, line)
            elif self.looks_declared(line):
                self.declare(step, who, line)
            elif line:
                self.comment(step, f"step {step}: {who}: {line}")

    def finish(self) -> None:
        self.drop_attackers(max(self.steps, default=0), "the end of the log")
        for unit, waiting in sorted(self.expected.items()):
            for key, step, text in waiting:
                self.note(step, f"declared '{text}', but the {unit} counter was never moved so in VASSAL "
                                f"({' '.join(key)}): check the position")


def carries_out(key: Key, keys: frozenset[Key]) -> bool:
    """Whether a counter move (its keys) carries out a declared effect: a stand depletes the unit, or
    eliminates it when it is one-step or already reduced (F&M 8.4, 8.3; Onslaught 7.5), so its counter
    is flipped or goes to the Eliminated box."""
    if key == STAND_KEY:
        return ("deplete",) in keys or ("eliminate",) in keys
    return key in keys


def undo_targets(tracking: Tracking) -> dict[int, int]:
    """Which step each Undo step undoes: the latest earlier step VASSAL can undo, not yet undone (a
    step of chat lines only cannot be; a declaration clicked in our modules can)."""
    undone: dict[int, int] = {}
    done: list[StepEvents] = []
    for step in tracking.steps:
        if step.step.is_undo:
            while done:
                candidate = done.pop()
                if candidate.undoable:
                    undone[candidate.step.number] = step.step.number
                    break
            continue
        done.append(step)
    return undone


def module_phases(game: Game, module: ModuleInfo) -> tuple[list[Phase], str | None]:
    """The module's turn-tracker steps matched to the game's by name (else the game's, and a note)."""
    ours = phases(game)
    if not module.turn_names:
        return ours, None
    by_name = {p.name.lower(): p for p in ours}
    unknown = [n for n in module.turn_names if n.lower() not in by_name]
    if unknown:
        return ours, (f"the module's turn tracker lists steps {game.id} does not have ({', '.join(unknown)}); the "
                      "game's own list of steps is used")
    return [by_name[n.lower()] for n in module.turn_names], None


def translate(recording: Recording, tracking: Tracking, game: Game, module: ModuleInfo | None = None,
              after: Carry | None = None) -> Translation:
    """The recording as entries of the notation, with notes and a description of every step; `after`:
    the recording continues a game whose previous log ended there (its saved position is checked
    against that end by adjudicator.vassal.chain, not against the set-up)."""
    phase_list, phase_note = module_phases(game, module) if module is not None else (phases(game), None)
    start = None if after is None or after.game_state is None else after.game_state()
    t = _Translator(game, recording, tracking, fitted_places(game, module, tracking.initial.values()), phase_list,
                    start)
    if phase_note is not None:
        t.note(0, phase_note)
    scenario = t.initial()
    # Every player of every side the recording saw, a player who changed sides under both.
    seen: set[tuple[str, str | None]] = {(p.name, p.side) for p in (*tracking.initial_players.values(), *tracking.players.values())}
    seen |= {(e.name, e.side) for s in tracking.steps for e in s.events if isinstance(e, PlayerEvent)}
    players = [(side, one_line(", ".join(named))) for side in game.manifest.sides
               if (named := sorted({name for name, taken in seen if taken == side and name}))]
    if after is None:
        t.emit(Header(line=0, key="Game", value=game.id))
        t.emit(Header(line=0, key="Scenario", value=scenario))
        for side, names in players:
            t.emit(Header(line=0, key=side, value=names))
    else:
        # The game goes on: its headers were given by the first log, and the turn, the eliminated
        # units, an open attack and a die waiting for the other side's carry over.
        scenario, t.differences = after.scenario, []
        t.turn_at, t.tracker_id, t.open_attack, t.last_roll = (after.turn_at, after.tracker_id, after.open_attack,
                                                               after.last_roll)
        t.eliminated |= {u for u in after.eliminated if u not in t.where}
    meta = recording.savedata
    saved_with = recording.moduledata
    t.comment(0, f"translated from the VASSAL {'log' if recording.is_log else 'saved game'} "
                 f"{recording.file.rsplit('/', 1)[-1]} (VASSAL {meta.get('VassalVersion', '?')}, module "
                 f"{saved_with.get('name', '?')} {saved_with.get('version', '')}".rstrip() + "); each entry's line "
                 "is its VASSAL step")
    if after is not None and players:
        t.comment(0, "players: " + "; ".join(f"{side} {names}" for side, names in players))
    if module is not None:
        t.comment(0, f"places named with the module {module.file.rsplit('/', 1)[-1]} ({module.name} "
                     f"{module.version})")
        if saved_with.get("name") and saved_with.get("name") != module.name:
            t.note(0, f"the recording was saved with module {saved_with.get('name')!r}, not {module.name!r}")
        elif saved_with.get("version") and saved_with.get("version") != module.version:
            t.note(0, f"the recording was saved with version {saved_with.get('version')} of the module, the "
                      f"module given is version {module.version}")
    if meta.get("description"):
        t.comment(0, f"saved with the comment: {meta['description']}")
    if t.differences:
        t.comment(0, f"the saved position differs from the set-up of scenario {scenario} in "
                     f"{len(t.differences)} place(s):")
        for text in t.differences[:MAX_DIFFERENCES]:
            t.comment(0, f"  {text}")
        if len(t.differences) > MAX_DIFFERENCES:
            t.comment(0, f"  ... and {len(t.differences) - MAX_DIFFERENCES} more")
        t.note(0, f"the recording starts from a position that is not scenario {scenario}'s set-up "
                  f"({len(t.differences)} difference(s)); the adjudicator replays from the set-up, so the verdict "
                  "assumes the earlier moves were legal and may misplace these units: adjudicate the game's earlier "
                  "logs too" + (" (or the module given is not the one the log was played with)" if module else ""))
    if tracking.unknown_traits:
        t.note(0, "piece traits the reader does not know, ignored as VASSAL ignores them: "
                  + ", ".join(sorted(tracking.unknown_traits)))
    for number, message in tracking.notes:
        t.note(number, message)
    t.start_turn(scenario)
    undone = undo_targets(tracking)
    undoes = {undo: target for target, undo in undone.items()}
    for events in tracking.steps:
        number = events.step.number
        if events.step.is_undo and number not in undoes:
            t.note(number, "an Undo with nothing the reader could see to undo")
        t.translate_step(events, undone.get(number), undoes.get(number) if events.step.is_undo else None)
    t.start(max(t.steps, default=0))
    t.finish()
    carry = Carry(scenario, t.turn_at, t.tracker_id, frozenset(t.eliminated), t.open_attack, t.last_roll,
                  t.game_state())
    return Translation(game, recording.file, scenario, t.out, sorted(t.notes, key=lambda n: n.step), t.steps,
                       t.endpoint, undone, carry, tuple(t.differences))
