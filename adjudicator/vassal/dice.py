"""Dice rolled with the module's buttons and ledger receipts pasted in chat: the die of the declaration waiting
for one, a roll-off, a weather die, or a single die the game's opening rolls."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from adjudicator.notation.entries import Entry, RollOff, amended, logged_dice
from adjudicator.vassal.chat import one_line
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.output import Output
from adjudicator.vassal.reroll import Reroll, Rerolls
from adjudicator.vassal.result import Note
from adjudicator.vassal.seats import Seats
from adjudicator.vassal.turns import Clock
from wargame.game import Game
from wargame.receipts import ReceiptError, receipt_from_token


@dataclass
class Dice:
    """The dice rolled so far that later dice depend on."""

    game: Game
    output: Output
    seats: Seats
    combat: Combat
    clock: Clock
    rerolls: Rerolls
    optional: set[str] = field(default_factory=set)
    """Optional rules put in force by `[Optional "..."]` lines typed in chat."""
    weather: dict[int, int] = field(default_factory=dict)
    """The weather die by game turn (a `roll` of the game's data switched on by an optional rule)."""
    aside_rolls: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    """The sides that rolled for the markers put aside in a game turn's inclement weather."""
    die_rolls: set[int] = field(default_factory=set)
    """The ids of the single-die `Roll` entries translated from dice (a typed one may repeat them)."""
    given: tuple[int, int, int] | None = None
    """The declaration last given its die from the dice button (its index), that die's step and value (a die right
    after it by the same side is a reroll)."""
    taken_back: dict[str, tuple[int, str]] = field(default_factory=dict)
    """By player: the step and result of a die roll of his that VASSAL's Undo took back, not yet rolled again."""
    reroll: Note | None = None
    """The note on the last die read as a reroll (withdrawn if the other side's die makes it a roll-off's)."""

    def rolled_just_now(self, entry: Entry) -> bool:
        """Whether the entry is a roll-off, and the last entry written (comments aside) the same roll, translated from
        a die."""
        last = self.output.last_written()
        roll, last_roll = entry.as_roll_off(), last.as_roll_off() if last is not None else None
        return roll is not None and last_roll is not None and last_roll.rolls == roll.rolls and \
            id(last) in self.die_rolls

    def roll(self, step: int, name: str, values: list[int], player: str | None) -> None:
        """A roll of the module's dice by a player."""
        combat, output = self.combat, self.output
        side = self.seats.side_of_name.get(player or "")
        who = f"{player} ({side})" if side else (player or "someone")
        rolled = ", ".join(map(str, values))
        undone = self.taken_back.pop(player or "", None)
        if undone is not None:
            # VASSAL's Undo takes a roll back, so the die rolled again is the one read; but a die undone and rolled
            # again is what a referee looks at first (VASSAL shows it, a reload hides it).
            output.note(step, f"{who} rolls {name} = {rolled} after undoing the roll of step {undone[0]} ({undone[1]}): "
                              "the die rolled again is the one read; a roll undone and rolled again is the referee's "
                              "to accept")
        if combat.pending_die is not None and len(values) == 1:
            declared = output.entries[combat.pending_die]
            if side is None or declared.side is None or side == declared.side:
                # The die the declaration left out (an attack, a bombardment...): the next one its side rolls.
                output.entries[combat.pending_die] = amended(declared, die=values[0])
                self.given = (combat.pending_die, step, values[0])
                kind = getattr(declared, "kind", "declaration")
                output.comment(step, f"step {step}: {who} rolls {name} = {rolled}, the die of the {kind} on "
                                     f"{getattr(declared, 'hex', '?')} (step {declared.line})")
                combat.pending_die = None
                return
        single = [k for k in self.game.manifest.roll if k.entry == "roll" and k.by == "one"]
        # A die of the game's own (the opening's, Omaha 11.2.3; the weather's, 14.1) is that die first.
        own = side is not None and bool(single) and (
            (output.before_turns() and any(k.opening for k in single)) or self.weather_die(side))
        attacking = self.game.units_by_id[combat.attackers[0][0]].side if combat.attackers else None
        if attacking is not None and combat.early_die is None and len(values) == 1 and side in (None, attacking) \
                and not own:
            # Attackers declared, their target not yet: players roll before clicking the target, and the die is
            # the attack's (no roll-off comes between the attackers and their target).
            combat.early_die = (step, values[0], who)
            output.comment(step, f"step {step}: {who} rolls {name} = {rolled}, after the attackers were declared and "
                                 "before their target: the die of that attack")
            return
        output.comment(step, f"step {step}: {who} rolls {name} = {rolled}")
        before, self.reroll = self.reroll, None  # the note on the die before this one, if it read as a reroll
        self.rerolled(step, who, side, values)
        if len(values) == 1 and side is not None and single:
            if output.before_turns() and any(k.opening for k in single):
                # Before the first turn the one die is the opening's roll (Omaha 11.2.3), written `Roll SIDE N`.
                self.die_rolls.add(id(output.entries[output.emit(RollOff(line=step, rolls={side: values[0]}))]))
                return
            turn = self.clock.turn_at[0] if self.clock.turn_at else 0
            if self.weather_die(side):
                if turn in self.weather:
                    self.aside_rolls[turn].add(side)
                else:
                    self.weather[turn] = values[0]
                self.die_rolls.add(id(output.entries[output.emit(RollOff(line=step, rolls={side: values[0]}))]))
                combat.last_roll = None
                return
        if len(values) == 1 and side is not None:
            if combat.last_roll is not None and combat.last_roll[0] != side:
                # One die each, one side after the other: a roll-off, which ends the combat being resolved as a
                # typed `Roll` does (Onslaught 5.0: the next action is rolled for).
                output.emit(RollOff(line=step, rolls={combat.last_roll[0]: combat.last_roll[1], side: values[0]}))
                at = None if before is None or before is self.rerolls.replaced else output.note_at(before)
                if at is not None:
                    del output.notes[at]  # the die after the combat's was the roll-off's (Onslaught 5.0)
                    self.rerolls.waiting = None
                combat.open_attack, combat.pending_die = None, None
                combat.last_roll = None
                return
            combat.last_roll = (side, values[0])

    def undone(self, step: int, player: str | None, rolled: str) -> None:
        """A die roll that VASSAL's Undo took back (its step, the player, the result)."""
        self.taken_back[player or ""] = (step, rolled)

    def rerolled(self, step: int, who: str, side: str | None, values: list[int]) -> None:
        """A note when the die is its side's second for the declaration just given one, nothing written between:
        a reroll, which the die rolled first stands against (dice are recorded outcomes)."""
        given, self.given = self.given, None
        entries = self.output.entries
        if given is None or len(values) != 1 or any(not e.is_comment for e in entries[given[0] + 1:]):
            return
        index, first_step, first = given
        declared = entries[index]
        if side is not None and declared.side is not None and side != declared.side:
            return
        self.reroll = Note(step, f"{who} rolls again ({values[0]}) for the {getattr(declared, 'kind', 'declaration')} "
                                 f"on {getattr(declared, 'hex', '?')} (step {declared.line}), whose die was rolled at "
                                 f"step {first_step} ({first}): a reroll; the first die is the one judged (dice are "
                                 "recorded outcomes), and findings on the result carried out may follow from it; a "
                                 "reroll both players agreed to is the referee's to accept")
        self.output.notes.append(self.reroll)
        self.rerolls.waiting = Reroll(index, first_step, first, step, values[0], who, self.reroll, len(entries))

    def receipt(self, step: int, who: str, token: str) -> None:
        """A dice receipt of the ledger pasted into the chat: the die of the entry waiting for one, else the
        receipt of the latest die roll that has none (adjudicate check --ledger then verifies it)."""
        combat, output = self.combat, self.output
        try:
            receipt = receipt_from_token(token)
        except ReceiptError as e:
            output.comment(step, f"step {step}: {who}: {one_line(token)[:80]}")
            output.note(step, f"{who} pasted a dice receipt that does not read: {e.message}")
            return
        if combat.pending_die is not None and len(receipt.result) == 1:
            declared = output.entries[combat.pending_die]
            output.entries[combat.pending_die] = amended(declared, die=receipt.total, receipts=[token])
            output.comment(step, f"step {step}: {who} pastes ledger receipt #{receipt.seq}: {receipt.dice} = "
                                 f"{receipt.total}, the die of the {getattr(declared, 'kind', 'entry')} on "
                                 f"{getattr(declared, 'hex', '?')} (step {declared.line})")
            combat.pending_die = None
            return
        for index in range(len(output.entries) - 1, -1, -1):
            entry = output.entries[index]
            has = list(getattr(entry, "receipts", []))
            if len(logged_dice(entry)) > len(has):
                output.entries[index] = amended(entry, receipts=[*has, token])
                output.comment(step, f"step {step}: {who} pastes ledger receipt #{receipt.seq} ({receipt.dice} = "
                                     f"{receipt.total}) for the die roll of step {entry.line}")
                return
        output.comment(step, f"step {step}: {who} pastes ledger receipt #{receipt.seq}")
        output.note(step, f"{who} pasted ledger receipt #{receipt.seq} ({receipt.purpose!r}), but no die roll before "
                          "it is waiting for a receipt")

    def weather_die(self, side: str) -> bool:
        """Whether a die `side` rolls now is a weather die (Omaha 14.1, `[Optional "weather"]` or a scenario's in_force): in a
        game turn's first step from the first weather turn, the die of the side the game's data names,
        then, when it gives inclement weather, each side's die for the markers put aside."""
        kind = next((k for k in self.game.manifest.roll if k.entry == "roll" and k.optional is not None
                     and k.optional in self.optional), None)
        turn_at = self.clock.turn_at
        if kind is None or turn_at is None or turn_at[1] != 0:
            return False
        first = self.game.parameter.get("weather_first_turn", 2)
        inclement = self.game.parameter.get("weather_inclement_roll", 6)
        turn = turn_at[0]
        if not isinstance(first, int) or turn < first:
            return False
        if turn not in self.weather:
            return kind.roller is None or side == kind.roller
        return self.weather[turn] == inclement and side not in self.aside_rolls[turn]
