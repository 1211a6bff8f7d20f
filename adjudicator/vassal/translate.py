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

The work is shared by one module a concern: `output` (the entries and notes written), `board` (where
the counters are), `seats` (who plays which side), `turns` (the turn tracker), `combat` and `dice` (what
a combat or a roll leaves waiting), `expected` (declarations matched with counter moves), `typed` (the
notation typed in chat), `clicks` (the modules' declaration menus), `counters` (counter events as
entries), `chat` (reading the chat) and `result` (what a translation gives). This module reads each step
with them and re-exports their public names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.contract import RuleSystem
from adjudicator.notation.entries import Header
from adjudicator.notation.text import HEADER as TYPED_HEADER
from adjudicator.systems import system_for
from adjudicator.vassal.board import STEP_LAYER, Board, face_of, is_reduced
from adjudicator.vassal.chat import (
    DICE, LINE_BREAKS, MAX_NUMBER, MOVE_REPORT, PLAYER_CHAT, RECEIPT_LINE, automatic_reports, chat_text, describe,
    one_line,
)
from adjudicator.vassal.clicks import Clicks
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.counters import Counters
from adjudicator.vassal.dice import Dice
from adjudicator.vassal.expected import STAND_KEY, Expectations, Key, carries_out, declared_keys
from adjudicator.vassal.movement import Followed, Follower, Lost
from adjudicator.vassal.output import OPENING_RESULTS, Output
from adjudicator.vassal.reroll import Rerolls
from adjudicator.vassal.result import MAX_DIFFERENCES, Carry, Note, Phase, Translation, module_phases, phases
from adjudicator.vassal.seats import Seats
from adjudicator.vassal.turns import Clock
from adjudicator.vassal.typed import Typed
from wargame.errors import WargameError
from wargame.game import Game
from wargame.sequence import opening_slot
from wargame.vassal.buildfile import ModuleInfo
from wargame.vassal.declarations import is_declaration
from wargame.vassal.places import Places, fitted_places
from wargame.vassal.reader import Recording
from wargame.vassal.tracking import ChatEvent, PieceEvent, PlayerEvent, PropertyEvent, StepEvents, Tracking, TurnEvent

__all__ = [
    "DICE", "LINE_BREAKS", "MAX_DIFFERENCES", "MAX_NUMBER", "MOVE_REPORT", "OPENING_RESULTS", "PLAYER_CHAT",
    "RECEIPT_LINE", "STAND_KEY", "STEP_LAYER", "Carry", "Key", "Note", "Phase", "Translation", "carries_out",
    "chat_text", "declared_keys", "describe", "face_of", "is_reduced", "module_phases", "one_line", "phases", "translate",
    "typed_scenario", "undo_targets",
]


@dataclass
class _Reader:
    """One translation's parts, each owning its own state, and the reading of a step with them."""

    output: Output
    board: Board
    seats: Seats
    combat: Combat
    clock: Clock
    dice: Dice
    expectations: Expectations
    follower: Follower[object] | None
    counters: Counters
    typed: Typed
    clicks: Clicks

    def translate_step(self, step: StepEvents, undone_by: int | None, undoes: int | None) -> None:
        """One VASSAL step: its description, and its events as entries (an undone step or an undo as comments)."""
        number, output = step.step.number, self.output
        self.board.read_reports(step)
        description = describe(step)
        output.steps[number] = description
        if undone_by is not None or undoes is not None:
            if undone_by is not None:
                output.comment(number, f"step {number} (undone at step {undone_by}): {description}")
            else:
                output.comment(number, f"step {number}: undo of step {undoes}")
            self.counters.silently(step.events)
            for event in step.events:
                if isinstance(event, PlayerEvent):
                    self.seats.player_event(number, event)  # Undo does not take back a side change
                if undone_by is not None and isinstance(event, ChatEvent) and \
                        (dice := DICE.match(chat_text(event.html))) is not None:
                    self.dice.undone(number, dice.group("player"), dice.group("result"))
                if isinstance(event, TurnEvent) and event.tracker_id == self.clock.tracker_id:
                    position = self.clock.turn_position(event.new, number)
                    if position is not None and undoes is not None:
                        self.clock.turn_at = self.clock.tracker_at = position
            return
        reports = automatic_reports(step)
        if any(isinstance(e, PieceEvent) for e in step.events) or any(isinstance(e, TurnEvent) for e in step.events):
            output.comment(number, f"step {number}: " + (" / ".join(r for r in reports if r) or description))
        for event in step.events:
            if isinstance(event, PieceEvent):
                self.counters.piece_event(number, event)
            elif isinstance(event, TurnEvent):
                if event.tracker_id == self.clock.tracker_id or self.clock.tracker_id is None:
                    position = self.clock.turn_position(event.new, number)
                    if position is not None:
                        self.clock.tracker_id = event.tracker_id
                        self.clock.advance(position, number)
            elif isinstance(event, ChatEvent):
                self.chat(number, event.html)
            elif isinstance(event, PlayerEvent):
                self.seats.player_event(number, event)
            elif isinstance(event, PropertyEvent):
                continue
        self.dice.rerolls.read()

    def chat(self, step: int, html_text: str) -> None:
        """A chat line: a die roll, a clicked declaration, a pasted receipt, typed notation, or a comment."""
        text = chat_text(html_text)
        dice = DICE.match(text)
        if dice is not None:
            values = [int(v) for v in re.split(r"\s*,\s*", dice.group("result"))]
            if any(v > MAX_NUMBER for v in values):
                self.output.comment(step, f"step {step}: {one_line(text)}")  # no die of a wargame: kept as said
                return
            self.dice.roll(step, dice.group("name"), values, dice.group("player"))
            return
        if text.startswith("*"):
            report = text.lstrip("*").strip()
            if is_declaration(report):
                self.clicks.clicked(step, None, one_line(report))
            return  # another automatic report: already in the step's comment
        said = PLAYER_CHAT.match(text)
        if said is None:
            self.output.comment(step, f"step {step}: {text}")
            return
        who, words = said.group("name"), said.group("text").strip()
        for line in words.splitlines():
            line = line.strip()
            if (pasted := RECEIPT_LINE.match(line)) is not None:
                self.dice.receipt(step, who, pasted.group(1))
            elif is_declaration(line):
                self.clicks.clicked(step, who, line)
            elif self.typed.looks_declared(line):
                self.typed.declare(step, who, line)
            elif line:
                self.output.comment(step, f"step {step}: {who}: {line}")
                if (miss := self.typed.near_miss(line)) is not None:
                    self.output.note(step, f"chat line {line!r} reads as chat, not as a declaration: {miss}; "
                                           "type it again as notation")

    def finish(self) -> None:
        """The end of the log: attackers with no target, and declarations never carried out, noted."""
        self.combat.drop_attackers(max(self.output.steps, default=0), "the end of the log")
        self.dice.rerolls.read(end=True)
        for unit, key, step, text in self.expectations.unmet():
            self.output.note(step, f"declared '{text}', but the {unit} counter was never moved so in VASSAL "
                                   f"({' '.join(key)}): check the position")

    def game_state(self) -> Callable[[], Followed[object] | Lost | None]:
        """The state where the translation ends, for the next log of a chain: worked out now when the
        translation has followed the game already (little is left to apply), else when asked."""
        follower, entries = self.follower, list(self.output.entries)
        if follower is None:
            return lambda: None
        if follower.states:
            done = follower.settle(entries)
            return lambda: done
        found: list[Followed[object] | Lost | None] = []

        def final() -> Followed[object] | Lost | None:
            if not found:
                found.append(follower.settle(entries))
            return found[0]
        return final


def _reader(game: Game, recording: Recording, tracking: Tracking, places: Places, phase_list: list[Phase],
            start: Followed[object] | Lost | None) -> _Reader:
    """The parts of one translation, wired to each other."""
    try:
        system: RuleSystem[object] | None = system_for(game)
    except WargameError:
        system = None
    follower: Follower[object] | None = None if system is None else Follower(game, system, recording.file, start)
    sides = set(game.manifest.sides)
    output = Output(opening_slot(game.manifest))
    board = Board(game, places, output)
    seats = Seats(sides, dict(tracking.initial_players or tracking.players), output)
    seats.played = sides_played(tracking)
    combat = Combat(output)
    clock = Clock(game, phase_list, output, combat)
    dice = Dice(game, output, seats, combat, clock, Rerolls(output, system, follower))
    expectations = Expectations(output, combat)
    counters = Counters(game, system, follower, output, board, expectations, combat, seats)
    typed = Typed(game, recording.file, sides, output, combat, clock, expectations, dice, board)
    clicks = Clicks(game, sides, output, combat, expectations, board, seats, typed)
    return _Reader(output, board, seats, combat, clock, dice, expectations, follower, counters, typed, clicks)


def sides_played(tracking: Tracking) -> dict[str, frozenset[str]]:
    """Every side each player (by password) takes in the recording: at its start, at its end, and by Retire."""
    seated = (*tracking.initial_players.values(), *tracking.players.values())
    taken: list[tuple[str, str | None]] = [(p.password, p.side) for p in seated]
    taken += [(e.password, e.side) for s in tracking.steps for e in s.events if isinstance(e, PlayerEvent)]
    played: dict[str, set[str]] = {}
    for password, side in taken:
        if side is not None:
            played.setdefault(password, set()).add(side)
    return {password: frozenset(sides) for password, sides in sorted(played.items())}


def undo_targets(tracking: Tracking) -> dict[int, int]:
    """Which step each Undo step undoes, as VASSAL 3.7's BasicLogger picks it: the first Undo takes back the latest
    step with an undo (a chat line has one, so a click's report and a typed line are such steps); each Undo right
    after it takes back the step before the one it undid, whatever that step holds (BasicLogger.undo steps back
    one logged command at a time)."""
    undone: dict[int, int] = {}
    logged: list[StepEvents] = []
    point = -1
    for step in tracking.steps:
        if step.step.is_undo:
            if point >= 0:
                undone[logged[point].step.number] = step.step.number
                point -= 1
            logged.append(step)
            continue
        logged.append(step)
        if step.undoable:
            point = len(logged) - 1
    return undone


def typed_scenario(tracking: Tracking, game: Game) -> str | None:
    """The scenario the players named with a `[Scenario "ID"]` typed in chat (the first of the game's ids), if any."""
    known = {s.id for s in game.manifest.scenario}
    for events in tracking.steps:
        for event in events.events:
            said = PLAYER_CHAT.match(chat_text(event.html)) if isinstance(event, ChatEvent) else None
            for line in said.group("text").splitlines() if said is not None else ():
                header = TYPED_HEADER.match(line.strip())
                if header is not None and header.group(1) == "Scenario" and header.group(2) in known:
                    return header.group(2)
    return None


def translate(recording: Recording, tracking: Tracking, game: Game, module: ModuleInfo | None = None,
              after: Carry | None = None, declared: str | None = None) -> Translation:
    """The recording as entries of the notation, with notes and a description of every step; `after`:
    the recording continues a game whose previous log ended there (its saved position is checked
    against that end by adjudicator.vassal.chain, not against the set-up); `declared`: the scenario a later log
    of its chain names in chat, when this one names none."""
    phase_list, phase_note = module_phases(game, module) if module is not None else (phases(game), None)
    start = None if after is None or after.game_state is None else after.game_state()
    t = _reader(game, recording, tracking, fitted_places(game, module, tracking.initial.values()), phase_list, start)
    out = t.output
    if phase_note is not None:
        out.note(0, phase_note)
    # A `[Scenario]` typed in chat names the scenario as a text log's header does, wherever it was typed: the
    # scenario decides the dice from the first step (its in_force rules) and the set-up the position is compared with.
    t.typed.scenario = typed_scenario(tracking, game) or declared
    scenario, differences = t.board.read_saved(tracking, recording.savedata.get("description", ""),
                                               t.counters.system, t.typed.scenario)
    # Every player of every side the recording saw, a player who changed sides under both.
    seen: set[tuple[str, str | None]] = {(p.name, p.side) for p in (*tracking.initial_players.values(),
                                                                    *tracking.players.values())}
    seen |= {(e.name, e.side) for s in tracking.steps for e in s.events if isinstance(e, PlayerEvent)}
    players = [(side, one_line(", ".join(named))) for side in game.manifest.sides
               if (named := sorted({name for name, taken in seen if taken == side and name}))]
    if after is None:
        out.emit(Header(line=0, key="Game", value=game.id))
        out.emit(Header(line=0, key="Scenario", value=scenario))
        for side, names in players:
            out.emit(Header(line=0, key=side, value=names))
    else:
        # The game goes on: its headers were given by the first log, and the turn, the eliminated
        # units, an open attack and a die waiting for the other side's carry over.
        scenario, differences = after.scenario, []
        t.clock.turn_at, t.clock.tracker_id, t.clock.tracker_at = after.turn_at, after.tracker_id, after.tracker_at
        t.clock.saved_at(after.turn_at)
        out.turned = after.turn_at is not None
        t.combat.open_attack, t.combat.last_roll = after.open_attack, after.last_roll
        t.board.eliminated |= {u for u in after.eliminated if u not in t.board.where}
        t.dice.optional |= after.optional  # typed in an earlier log, in force for the whole game
    t.typed.scenario = scenario
    meta = recording.savedata
    saved_with = recording.moduledata
    out.comment(0, f"translated from the VASSAL {'log' if recording.is_log else 'saved game'} "
                   f"{recording.file.rsplit('/', 1)[-1]} (VASSAL {meta.get('VassalVersion', '?')}, module "
                   f"{saved_with.get('name', '?')} {saved_with.get('version', '')}".rstrip() + "); each entry's line "
                   "is its VASSAL step")
    if after is not None and players:
        out.comment(0, "players: " + "; ".join(f"{side} {names}" for side, names in players))
    if module is not None:
        out.comment(0, f"places named with the module {module.file.rsplit('/', 1)[-1]} ({module.name} "
                       f"{module.version})")
        if saved_with.get("name") and saved_with.get("name") != module.name:
            out.note(0, f"the recording was saved with module {saved_with.get('name')!r}, not {module.name!r}")
        elif saved_with.get("version") and saved_with.get("version") != module.version:
            out.note(0, f"the recording was saved with version {saved_with.get('version')} of the module, the "
                        f"module given is version {module.version}")
    if meta.get("description"):
        out.comment(0, f"saved with the comment: {meta['description']}")
    if differences:
        out.comment(0, f"the saved position differs from the set-up of scenario {scenario} in "
                       f"{len(differences)} place(s):")
        for text in differences[:MAX_DIFFERENCES]:
            out.comment(0, f"  {text}")
        if len(differences) > MAX_DIFFERENCES:
            out.comment(0, f"  ... and {len(differences) - MAX_DIFFERENCES} more")
        out.note(0, f"the recording starts from a position that is not scenario {scenario}'s set-up "
                    f"({len(differences)} difference(s)); the adjudicator replays from the set-up, so the verdict "
                    "assumes the earlier moves were legal and may misplace these units: adjudicate the game's earlier "
                    "logs too" + (" (or the module given is not the one the log was played with)" if module else ""))
    if tracking.unknown_traits:
        out.note(0, "piece traits the reader does not know, ignored as VASSAL ignores them: "
                    + ", ".join(sorted(tracking.unknown_traits)))
    for number, message in tracking.notes:
        out.note(number, message)
    # A rule the scenario's own rules put in force (game.toml's in_force: the dice it rolls) needs no typed header.
    t.dice.optional |= {f.rule for s in game.manifest.scenario if s.id == scenario for f in s.in_force}
    t.clock.start_turn(scenario, tracking.initial_turns, bool(differences))
    undone = undo_targets(tracking)
    undoes = {undo: target for target, undo in undone.items()}
    for events in tracking.steps:
        number = events.step.number
        if events.step.is_undo and number not in undoes:
            out.note(number, "an Undo with nothing the reader could see to undo")
        t.translate_step(events, undone.get(number), undoes.get(number) if events.step.is_undo else None)
    out.start(max(out.steps, default=0))
    t.finish()
    carry = Carry(scenario, t.clock.turn_at, t.clock.tracker_id, frozenset(t.board.eliminated), t.combat.open_attack,
                  t.combat.last_roll, t.game_state(), frozenset(t.dice.optional), t.clock.tracker_at)
    return Translation(game, recording.file, scenario, out.entries, sorted(out.notes, key=lambda n: n.step),
                       out.steps, out.endpoint, undone, carry, tuple(differences), dict(out.remarks))
