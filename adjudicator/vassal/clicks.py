"""Declarations clicked in our modules' piece menus and Declare toolbar (wargame.vassal.declarations): the lines
they write to the chat, read as entries."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from adjudicator.notation.entries import Activate, ActivationOrder, Attack, Bombard, StandFast
from adjudicator.vassal.board import Board
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.expected import STAND_KEY, Expectations
from adjudicator.vassal.output import Output
from adjudicator.vassal.seats import Seats, sided
from adjudicator.vassal.typed import Typed
from wargame.errors import did_you_mean
from wargame.game import Game
from wargame.vassal.declarations import (
    ACTION, ACTIVATE, ALSO, ATTACKER, BOMBARD, CAPTURE, DECLARE, DEFENDER, INCOME, MOVE_FIRST, PASS, PREFIX, RESULT,
    STAND, SUPPORT, TARGET, Declaration, NotADeclaration, read_declaration,
)

Handler = Callable[[int, "str | None", Declaration, str], None]
"""A declaration word's reading: (step, side, declaration, line)."""


@dataclass
class Clicks:
    """Reads the lines our modules' menus write (or a player typed in their form)."""

    game: Game
    sides: set[str]
    output: Output
    combat: Combat
    expectations: Expectations
    board: Board
    seats: Seats
    typed: Typed

    def clicked(self, step: int, who: str | None, text: str) -> None:
        """A declaration line our modules' menus write (or a player typed in their form): its entry."""
        by = f" by {who}" if who else ""
        try:
            declared = read_declaration(text)
        except NotADeclaration as e:
            self.output.comment(step, f"step {step}: {who + ': ' if who else ''}{text}")
            self.output.note(step, f"chat line {text!r} starts with {PREFIX} but does not read as a declaration: {e}")
            return
        if declared.side is not None and declared.side not in self.sides:
            self.output.note(step, f"{text!r}: {declared.side!r} is not a side of {self.game.id}"
                                   + did_you_mean(declared.side, self.sides) + "; the side is ignored")
        side = declared.side if declared.side in self.sides else None
        self.output.comment(step, f"step {step}: declared{by}: {text}")
        handlers: dict[str, Handler] = {
            ACTION: self.notation, PASS: self.notation, DECLARE: self.notation, INCOME: self.notation,
            CAPTURE: self.notation, RESULT: self.result, ATTACKER: self.attacker, TARGET: self.target, ALSO: self.also,
            BOMBARD: self.bombard, SUPPORT: self.support, STAND: self.stand, ACTIVATE: self.activate,
            MOVE_FIRST: self.activate, DEFENDER: self.defender,
        }
        handlers[declared.word](step, side, declared, text)

    def notation(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """`action`, `pass`, `declare`, `income`, `capture`: the notation's own words after the side."""
        side = side or self.seats.recorder
        if side is None:
            example = f"{self.game.manifest.sides[0]}: {declared.word} {declared.subject}".rstrip()
            self.output.note(step, f"{text!r} names no side of {self.game.id} (the player had not taken one in "
                                   f"VASSAL), and the log has players of more than one side: not translated; type it "
                                   f"with its side, e.g. '{example}'")
            return
        words = f"{declared.word} {declared.subject}".strip()
        # '-' (or nothing) as the answer to the supply prompt: the claim is left to the referee.
        words = re.sub(r"\s+supply\s*-?\s*$", "", words)
        # The same for the supply income's prompt (8.7): `income -` is `income`, the referee's count.
        words = re.sub(r"^income\s+-\s*$", "income", words)
        self.typed.declare(step, "the module", f"{side}: {words}", typed=False)

    def unit_named(self, step: int, declared: Declaration, text: str) -> str | None:
        """The unit a piece declaration names, or None (and a note) if the game has none of that id."""
        unit = declared.subject
        if unit in self.game.units_by_id:
            return unit
        self.output.note(step, f"{text!r} names unit {unit!r}, which {self.game.id} does not have"
                               + did_you_mean(unit, self.game.units_by_id) + ": not translated")
        return None

    def hex_named(self, step: int, declared: Declaration, text: str) -> str | None:
        """The hex a piece declaration names (where the counter lies), or None and a note."""
        if self.game.grid.is_label(declared.where):
            return declared.where
        self.output.note(step, f"{text!r}: the counter is at {declared.where or 'no place VASSAL names'!s}, not on "
                               "a hex of the map: not translated")
        return None

    def attacker(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A unit declared attacker: it waits for the next target."""
        unit = self.unit_named(step, declared, text)
        if unit is None or self.hex_named(step, declared, text) is None:
            return
        if unit not in [u for u, _ in self.combat.attackers]:
            self.combat.attackers.append((unit, step))

    def target(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """The attack: the attackers declared since the last one, on the target's hex; its die comes next."""
        combat = self.combat
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        last = self.output.last_entry(step)
        if not combat.attackers:
            attacked = last.as_attack() if last is not None else None
            if not (attacked is not None and where in attacked.defending_hexes()):  # else another counter there
                self.output.note(step, f"{text!r}: a target, but no attacker was declared since the last attack: "
                                       "not translated (declare the attackers first)")
            return
        attackers = [u for u, _ in combat.attackers]
        sides = sorted({self.game.units_by_id[u].side for u in attackers})
        if len(sides) > 1:
            self.output.note(step, f"the attackers declared for {where} ({' '.join(attackers)}) are of both sides; "
                                   "the attack is written for the side of the first")
        attacking = self.game.units_by_id[attackers[0]].side
        if self.game.units_by_id[unit].side == attacking and unit not in attackers:
            # One of the attackers as the target is an attack on their own hex (Omaha's beach assaults, 11.2.3).
            self.output.note(step, f"{text!r}: the target {unit} is a unit of the attacking side ({attacking})")
        entry = Attack(line=step, side=attacking, hex=where, attackers=attackers, support=combat.supports)
        combat.attackers, combat.supports = [], []
        index = self.output.emit(entry)
        combat.open_attack, combat.pending_die, combat.last_combat, combat.last_roll = entry, index, index, None
        if combat.early_die is not None:
            rolled_at, die, who = combat.early_die
            combat.early_die, combat.pending_die = None, None
            self.output.entries[index] = replace(entry, die=die)
            self.output.note(step, f"{who} rolled {die} at step {rolled_at}, after the attackers were declared and "
                                   f"before their target: read as the die of the attack on {where} (roll after "
                                   "declaring the target; if that die was for something else, type the attack's)")

    def also(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """Another hex of the attack just declared (one attack on several hexes): its target's hex added to it."""
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        combat, index = self.combat, self.combat.last_combat
        fought = self.output.entries[index].as_attack() if index is not None else None
        if index is None or fought is None or combat.attackers:
            why = "attackers were declared since" if combat.attackers else "no attack was declared"
            self.output.note(step, f"{text!r}: another hex of an attack, but {why}: not translated (declare the "
                                   "attackers, the target, then each other hex)")
            return
        if where in fought.defending_hexes():
            return  # another counter of a hex of the attack
        grown = replace(fought, more_hexes=[*fought.more_hexes, where])
        self.output.entries[index] = grown
        if combat.open_attack is fought:
            combat.open_attack = grown

    def bombard(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A bombardment (Fire & Movement 8.1) of the target's hex by the markers declared just before."""
        combat = self.combat
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        last = self.output.last_entry(step)
        shelled = last.as_combat() if last is not None else None
        if shelled is not None and shelled.kind == "bombard" and shelled.hex == where:
            return  # another counter of the bombarded stack
        if not combat.supports:
            self.output.note(step, f"{text!r}: a bombardment, but no support fire marker was declared for it: not "
                                   "translated (declare the markers first)")
            return
        target_side = self.game.units_by_id[unit].side
        bombarding = side or next((s for s in self.game.manifest.sides if s != target_side), target_side)
        entry = Bombard(line=step, side=bombarding, hex=where, support=combat.supports)
        combat.supports = []
        index = self.output.emit(entry)
        combat.open_attack, combat.pending_die, combat.last_combat, combat.last_roll = entry, index, index, None

    def support(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A support fire marker: on the combat whose die is still to come, else on the next one declared."""
        combat = self.combat
        marker = declared.subject
        if marker not in self.game.markers_by_id:
            self.output.note(step, f"{text!r} names marker {marker!r}, which {self.game.id} does not have"
                                   + did_you_mean(marker, self.game.markers_by_id) + ": not translated")
            return
        # The line names the marker's id, not its counter: of a marker the game has several of (Omaha's four naval
        # gunfire markers), each click up to that many is another counter; beyond it, or of a single marker, the
        # same counter clicked again.
        copies = self.game.markers_by_id[marker].count
        if combat.last_combat is not None and combat.pending_die == combat.last_combat:
            fought = self.output.entries[combat.last_combat].as_combat()
            assert fought is not None
            if fought.support.count(marker) < copies:
                self.output.entries[combat.last_combat] = replace(fought, support=[*fought.support, marker])
        elif combat.supports.count(marker) < copies:
            combat.supports.append(marker)

    def result(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """The result claimed: on the last attack or bombardment declared, checked against its die."""
        code = declared.subject
        codes = list(self.game.crt.result_codes) if self.game.crt is not None else []
        if not code or (codes and code not in codes):
            self.output.note(step, f"{text!r}: {code or 'no result'!s} is not a result of the combat table ("
                                   f"{', '.join(codes)})" + did_you_mean(code, codes) + ": not translated")
            return
        last_combat = self.combat.last_combat
        if last_combat is None:
            self.output.note(step, f"{text!r}: a result claimed, but no attack was declared: not translated")
            return
        fought = self.output.entries[last_combat].as_combat()
        assert fought is not None
        if fought.result is not None and fought.result != code:
            self.output.note(step, f"result {code} claimed for the {fought.kind} on {fought.hex} (step "
                                   f"{fought.line}), which had result {fought.result}: the later claim is kept")
        self.output.entries[last_combat] = replace(fought, result=code)

    def defender(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """The unit that defends a stack (Omaha 11.2.3, 11.2.4): the `defender` of the last attack or
        bombardment declared, on that unit's hex."""
        unit = self.unit_named(step, declared, text)
        if unit is None:
            return
        last_combat = self.combat.last_combat
        fought = self.output.entries[last_combat].as_combat() if last_combat is not None else None
        if last_combat is None or fought is None:
            self.output.note(step, f"{text!r}: a defender, but no attack or bombardment was declared: not translated")
            return
        self.output.entries[last_combat] = replace(fought, defender=unit)

    def stand(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """A stand (stiff resistance, a fortification): it stands for the counter's flip."""
        unit = self.unit_named(step, declared, text)
        if unit is None:
            return
        owner, by_opponent = sided(self.game, unit, side)
        last = self.output.last_entry(step)
        if isinstance(last, StandFast) and last.side == owner and last.by_opponent == by_opponent:
            self.output.replace(last, replace(last, units=[*last.units, unit]))
        else:
            self.output.emit(StandFast(line=step, side=owner, by_opponent=by_opponent, units=[unit]))
        self.expectations.expect(unit, STAND_KEY, step, f"{owner}{'>' if by_opponent else ':'} stand {unit}")

    def activate(self, step: int, side: str | None, declared: Declaration, text: str) -> None:
        """An activation of the unit's stack, as the menu command says ("Activate (this stack)"): the hex, with no
        division named, which the notation reads as the stack, so that the rule system says which of it the action
        activates (Onslaught 5.5: a Breakthrough, only its armor); one entry for the counters clicked together in
        a hex. Its `move-first` command declares the Breakthrough order (5.5), `activate HEX move-first`."""
        unit, where = self.unit_named(step, declared, text), self.hex_named(step, declared, text)
        if unit is None or where is None:
            return
        owner = self.game.units_by_id[unit].side
        order: ActivationOrder | None = "move-first" if declared.word == MOVE_FIRST else None
        last = self.output.last_entry(step)
        if isinstance(last, Activate) and last.hex == where and last.side == owner and last.order == order:
            return
        self.output.emit(Activate(line=step, side=owner, hex=where, units=[], order=order))
        self.combat.open_attack, self.combat.pending_die, self.combat.last_roll = None, None, None
