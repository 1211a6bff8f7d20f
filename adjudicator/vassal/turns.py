"""The turn tracker read as turn and step markers, the first turn's held back while the set-up goes on."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.notation.entries import Entry, StepMarker, TurnMarker
from adjudicator.vassal.chat import MAX_NUMBER
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.output import Output
from adjudicator.vassal.result import Phase
from wargame.errors import listed
from wargame.game import Game
from wargame.vassal.turns import tracker_position


@dataclass
class Clock:
    """Where the turn tracker is: the turn and the index of the step in its list."""

    game: Game
    phase_list: list[Phase]
    output: Output
    combat: Combat
    turn_at: tuple[int, int] | None = None
    tracker_id: str | None = None
    tracker_turn: tuple[int, int] | None = None
    """The turn whose marker the tracker wrote, and the log step it moved in, while no typed `Turn` has said it."""
    tracker_step: tuple[str, int] | None = None
    """The step or phase whose marker the tracker wrote, and the log step it moved in, while none typed has."""
    typed_turn: tuple[int, int] | None = None
    """The turn a typed `Turn` began, and the log step it was typed in."""
    tracker_at: tuple[int, int] | None = None
    """Where the tracker itself was last seen (saved or moved), typed markers aside: a log after it that begins with
    the tracker there begins where the tracker was left, not a step back."""

    def turn_position(self, state: str, step: int) -> tuple[int, int] | None:
        """The turn and step index a tracker state shows, or None (and a note) for one that is not ours."""
        position = tracker_position(state)
        if position is None or len(position) < 2:
            self.output.note(step, "a turn tracker state the reader does not know; turn and step not translated")
            return None
        turn, index = position[0], position[1]
        if not 0 <= turn <= MAX_NUMBER:
            self.output.note(step, f"turn tracker at turn {turn}: not a turn; not translated")
            return None
        if not 0 <= index < len(self.phase_list):
            self.output.note(step, f"turn tracker at step {index + 1} of a list of {len(self.phase_list)}: not one "
                                   f"of {self.game.id}'s steps; not translated")
            return None
        return turn, index

    def advance(self, position: tuple[int, int], step: int) -> None:
        """The tracker's button pressed in a log step: a step or phase begun ends the combat being resolved, as a
        typed `Step` does (a drag in it is no retreat or advance of the last attack, a die no attack's)."""
        came_from, self.tracker_at = self.tracker_at, position
        if self.turn_at is None or position > self.turn_at:
            self.combat.open_attack, self.combat.pending_die = None, None
        if self.typed_turn == (position[0], step) and self.turn_at == (position[0], -1):
            # Moved in the step its `Turn` was typed in (what `adjudicate export` writes for a turn whose entries
            # come before its first step line, or that has none): VASSAL's tracker has no turn without a step, so
            # it shows the turn begun, not a step begun. The step's marker is the one typed, or skipped (4.1).
            return
        at = len(self.output.entries)
        self.turn_to(position, step, came_from)
        for entry in self.output.entries[at:]:
            turn_marker, step_marker = entry.as_turn_marker(), entry.as_step_marker()
            if turn_marker is not None:
                self.tracker_turn = (turn_marker.turn, step)
            if step_marker is not None:
                self.tracker_step = (step_marker.step, step)

    def turn_to(self, position: tuple[int, int], step: int, came_from: tuple[int, int] | None = None) -> None:
        """The tracker moved to `position` (from `came_from`): the markers of a later turn or step; a step back is a
        note, and so is a tracker moved on that stays behind the steps typed."""
        turn, index = position
        phase = self.phase_list[index]
        if self.turn_at is not None and position > self.turn_at:
            self.combat.drop_attackers(step, f"the turn tracker's turn {turn}, {phase.name}")
        if self.turn_at is not None and position <= self.turn_at:
            if position < self.turn_at and came_from is not None and came_from < position:
                # The players typed their steps ahead of the tracker and then moved it on: it catches up, it
                # does not go back (the typed markers stand).
                ahead = self.phase_list[self.turn_at[1]].name if self.turn_at[1] >= 0 else "its start"
                self.output.comment(step, f"the turn tracker moves on to turn {turn}, {phase.name}, behind the "
                                          "steps typed: not translated")
                self.output.note(step, f"the turn tracker moved on to turn {turn}, {phase.name}, still behind the "
                                       f"steps typed (turn {self.turn_at[0]}, {ahead}); the log goes on from "
                                       "the typed ones")
            elif position < self.turn_at:
                self.output.comment(step, f"the turn tracker goes back to turn {turn}, {phase.name}: not translated")
                self.output.note(step, f"the turn tracker went back to turn {turn}, {phase.name}; the log goes on "
                                       "from where it was")
            return
        if self.turn_at is None or turn != self.turn_at[0]:
            if self.turn_at is not None and turn > self.turn_at[0] + 1:
                # A jump over whole turns (VASSAL's "Set turn", or turns passed with nothing played): each turn
                # passed is written, as a text log writes empty turns, so that no sequence breach (a turn that
                # does not follow the last) is found where the players only skipped them.
                passed = range(self.turn_at[0] + 1, turn)
                self.output.note(step, f"the turn tracker jumps from turn {self.turn_at[0]} to turn {turn}: the "
                                       f"reader takes turn(s) {listed([str(t) for t in passed])} as passed with nothing "
                                       "played in them")
                for skipped in passed:
                    self.output.emit(TurnMarker(line=step, turn=skipped))
            self.output.emit(TurnMarker(line=step, turn=turn))
        self.output.emit(StepMarker(line=step, step=phase.step))
        self.turn_at = position

    def start_turn(self, scenario: str, initial_turns: dict[str, str], differs: bool) -> None:
        """The turn and step the saved position is at (held back over the set-up at the scenario's start)."""
        # Set-up comes before turn 1: the markers wait for something other than a set-up placement.
        for tracker_id in sorted(initial_turns):
            position = self.turn_position(initial_turns[tracker_id], 0)
            if position is not None:
                self.tracker_id = tracker_id
                if position == self.tracker_at:
                    # The log before left the tracker here and the players went on with typed markers (Turn,
                    # Step): the tracker was not used, and the game goes on from the typed markers.
                    return
                self.tracker_at = position
                first = next(s.first_turn for s in self.game.manifest.scenario if s.id == scenario)
                at = len(self.output.entries)
                if self.turn_at is None and position > (first, 0):
                    # A game saved after its start, read on its own: the replay goes from the set-up, and
                    # markers jumping to the saved turn would breach the sequence of play (4.1: "GT 2 follows
                    # GT 0") where the players did not. The tracker is where it is; what follows is judged.
                    turn, index = position
                    self.output.comment(0, f"the saved game is at turn {turn}, {self.phase_list[index].name}")
                    self.output.note(0, f"the saved game is at turn {turn}, {self.phase_list[index].name}, not at "
                                        "the scenario's start: its turn is not judged (adjudicate the game's earlier "
                                        "logs with it to judge the turns that led there)")
                    self.turn_at = position
                    self.output.turned = True
                    self.saved_at(position)
                    return
                self.turn_to(position, 0)
                self.saved_at(position)
                if position == (first, 0) and not differs:
                    self.output.held = self.output.entries[at:]
                    del self.output.entries[at:]
                return

    def saved_at(self, position: tuple[int, int] | None) -> None:
        """The tracker's place in the saved position (step 0), which a `Turn` or `Step` typed for it repeats: players
        type the turn and step they begin the log in, as a text log begins (none of them a second marker, 4.1)."""
        if position is None:
            return
        self.tracker_turn = (position[0], 0)
        self.tracker_step = (self.phase_list[position[1]].step, 0) if 0 <= position[1] < len(self.phase_list) else None

    def tracker_wrote(self, entry: Entry) -> int | None:
        """The log step the tracker wrote this typed turn or step marker in (the player moved the tracker and then
        typed where it is), or None: the typed marker is a marker of its own."""
        turn_marker, step_marker = entry.as_turn_marker(), entry.as_step_marker()
        if turn_marker is not None and self.tracker_turn is not None and self.tracker_turn[0] == turn_marker.turn:
            moved, self.tracker_turn = self.tracker_turn[1], None
            return moved
        if step_marker is not None and self.tracker_step is not None and self.tracker_step[0] == step_marker.step:
            moved, self.tracker_step, self.tracker_turn = self.tracker_step[1], None, None
            return moved
        return None

    def follow_declared(self, entry: Entry) -> None:
        """A turn or step marker typed in chat: the tracker's place in the log follows it (no other entry moves it)."""
        turn_marker = entry.as_turn_marker()
        if turn_marker is not None or entry.as_step_marker() is not None:
            self.tracker_turn, self.tracker_step = None, None
        if turn_marker is not None:
            self.turn_at = (turn_marker.turn, -1)
            self.typed_turn = (turn_marker.turn, entry.line)
            return
        step = entry.as_step_marker()
        if step is None:
            return
        turn = self.turn_at[0] if self.turn_at else 0
        after = self.turn_at[1] if self.turn_at else -1
        index_of = next((i for i, p in enumerate(self.phase_list) if p.step == step.step and i > after), None)
        if index_of is not None:
            self.turn_at = (turn, index_of)
