"""Lines typed in chat in the notation itself: each an entry at its step, standing for the counter moves it
describes."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine import resolve
from adjudicator.contract import kind_of
from adjudicator.notation.entries import Entry
from adjudicator.notation.text import SIDE, parse_line, write_entry
from adjudicator.notation.typography import described, retyped
from adjudicator.vassal.board import Board
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.dice import Dice
from adjudicator.vassal.expected import Expectations, declared_keys, in_place
from adjudicator.vassal.output import Output
from adjudicator.vassal.turns import Clock
from wargame.errors import LogSyntaxError, did_you_mean
from wargame.game import Game


DROP_CLICKED_ATTACKERS = frozenset({"action", "pass", "turn", "step", "attack", "bombard"})
"""The kinds of typed entry that drop attackers clicked and waiting for a target (an attack typed stands on its own)."""
CLOSE_COMBAT = frozenset({"action", "pass", "activate", "rolloff", "turn", "step"})
"""The kinds of typed entry after which no attack is open and no declared die waits."""


@dataclass
class Typed:
    """Reads the notation typed in chat into entries."""

    game: Game
    file: str
    sides: set[str]
    output: Output
    combat: Combat
    clock: Clock
    expectations: Expectations
    dice: Dice
    board: Board
    scenario: str | None = None
    """The game's scenario: the one typed in chat, else the one the saved position matches (or a chain's)."""

    def looks_declared(self, text: str) -> bool:
        """Whether a chat line is meant as notation: a side, a marker word, a header or a unit first."""
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

    def near_miss(self, text: str) -> str | None:
        """Why a chat line that is not read as notation was probably meant as some (a misspelt side, marker word
        or unit id before a path), with a "did you mean"; None for a chat line."""
        words = text.split()
        if not words:
            return None
        first = words[0]
        stem = first[:-1] if first[-1:] in (":", ">") else None
        if stem and stem not in self.sides and (hint := did_you_mean(stem, self.sides)):
            return f"{first!r} is no side{hint}"
        second = words[1] if len(words) > 1 else ""
        marker = {"turn": second.isdigit(), "roll": second in self.sides,
                  "step": second in {p.step for p in self.clock.phase_list}}
        marker["phase"] = marker["step"]
        if first != first.capitalize() and marker.get(first.lower(), False):
            return f"{first!r} is written with a capital{did_you_mean(first, ('Turn', 'Step', 'Phase', 'Roll'))}"
        rest = words[1:]
        if rest and rest[0] == "strategic":
            rest = rest[1:]
        path = rest[0].split("-") if rest else []
        if len(path) > 1 and all(self.game.grid.is_label(h) for h in path):
            return f"{first!r} is no unit of {self.game.id}{did_you_mean(first, self.game.units_by_id)}"
        return None

    def declare(self, step: int, who: str, text: str, typed: bool = True) -> None:
        """The entry a line of notation gives, at `step` (a comment and a note if it does not read)."""
        output, combat = self.output, self.combat
        try:
            entry = parse_line(text, step, self.file)
        except LogSyntaxError as e:
            output.comment(step, f"step {step}: {who}: {text}")
            output.note(step, f"chat line {text!r} looks like a declaration but does not read as one: {e.message}")
            return
        if entry is None:
            return
        if (characters := retyped(text)):
            output.note(step, f"chat line {text!r}: {described(characters)}")
        header = entry.as_header()
        if header is not None and header.key == "Game":
            if header.value != self.game.id:
                output.note(step, f"chat names game {header.value!r}, but the recording is of {self.game.id}: ignored")
            return
        if header is not None and header.key in ("Scenario", "Optional"):
            # A scenario or optional rule the game does not have would stop the whole verdict (the rules are read
            # from the headers): typed in chat, it is a line that does not read.
            known = [r.id for r in (self.game.manifest.scenario if header.key == "Scenario"
                                    else self.game.manifest.optional_rule)]
            if header.value not in known:
                what = "scenario" if header.key == "Scenario" else "optional rule"
                output.comment(step, f"step {step}: {who}: {text}")
                output.note(step, f"chat names {what} {header.value!r}, which {self.game.id} does not have"
                                 f"{did_you_mean(header.value, known)}: ignored")
                return
            if header.value == self.scenario:
                # The header at line 0 names it already (translate reads the typed one first): not a second one.
                output.comment(step, f"step {step}: {who}: {text} (the scenario, named in the headers)")
                return
        if header is not None and header.key == "Optional":
            self.dice.optional.add(header.value)
        unresolved = resolve(self.game, [entry], self.file)
        if unresolved:
            output.comment(step, f"step {step}: {who}: {text}")
            output.note(step, f"chat line {text!r} is not translated: " + "; ".join(e.message for e in unresolved))
            return
        if typed:
            output.comment(step, f"step {step}: typed by {who}")
        if kind_of(entry) in DROP_CLICKED_ATTACKERS:
            # A typed attack stands on its own: clicked attackers waiting for a target are dropped.
            combat.drop_attackers(step, f"'{write_entry(entry)}'")
        if self.dice.rolled_just_now(entry):
            # A `Roll` typed for the die just rolled (an opening's roll, weather) writes that die, not a second.
            output.comment(step, f"step {step}: the typed '{write_entry(entry)}' is the die just rolled")
            return
        moved = self.clock.tracker_wrote(entry)
        if moved is not None:
            # The tracker's marker, typed after the player moved it: one marker, not a second breaching the
            # sequence (4.1).
            output.comment(step, f"step {step}: the typed '{write_entry(entry)}' is where the turn tracker " + (
                f"moved at step {moved}" if moved else "stands in the saved position"))
            return
        index = output.emit(entry)
        for unit, key in in_place(entry, declared_keys(entry), self.board.where):
            self.expectations.expect(unit, key, step, write_entry(entry))
        self.waits(entry, index)

    def waits(self, entry: Entry, index: int) -> None:
        """What the entry written at `index` leaves waiting: a die, a result, a retreat; the tracker's place."""
        combat = self.combat
        fought = entry.as_combat()
        if fought is not None:
            combat.last_combat = index
        if fought is not None:
            combat.open_attack = fought
        elif kind_of(entry) in CLOSE_COMBAT:
            combat.open_attack = None
            combat.pending_die = None
        if fought is not None:
            # An attack or a bombardment declared without its die takes the next roll.
            combat.pending_die = index if fought.die is None else None
        self.clock.follow_declared(entry)
        combat.last_roll = None
