"""Declarations and counter moves matched: a declaration stands for the counter moves it describes, so that
they are not translated twice, whichever comes first."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from adjudicator.notation.entries import Comment, Entry
from adjudicator.notation.text import write_entry
from adjudicator.vassal.chat import one_line
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.output import Output
from wargame.vassal.places import Location

Key = tuple[str, ...]
"""A counter move's effect on its unit: ("at", place), ("deplete",), ("eliminate",), ("restore",)..."""
STAND_KEY: Key = ("stand",)
"""A stand's effect on its counter: flipped, or eliminated (see `carries_out`)."""
DEPLETE: frozenset[Key] = frozenset({("deplete",)})
"""The effects of a counter flipped down a face."""


def carries_out(key: Key, keys: frozenset[Key]) -> bool:
    """Whether a counter move (its keys) carries out a declared effect: a stand depletes the unit, or
    eliminates it when it is one-step or already reduced (F&M 8.4, 8.3; Onslaught 7.5), so its counter
    is flipped or goes to the Eliminated box."""
    if key == STAND_KEY:
        return ("deplete",) in keys or ("eliminate",) in keys
    return key in keys


def declared_keys(entry: Entry) -> list[tuple[str, Key]]:
    """(unit, effect) of the counter moves a declared entry stands for (its kind's `counter_effects`)."""
    return entry.counter_effects()


def in_place(entry: Entry, keys: list[tuple[str, Key]], where: dict[str, Location]) -> list[tuple[str, Key]]:
    """A replacement restoring a reduced unit where it stands (a classic game's 11.0, Onslaught's in-place
    rebuild) is carried out by flipping its counter, not by moving it to the hex it is in."""
    restored = entry.restored_in_place()
    if restored is None:
        return keys
    unit, hex_label = restored
    here = where.get(unit)
    if here is None or not here.is_hex or here.name != hex_label:
        return keys
    return [(u, ("restore",) if key == ("at", hex_label) else key) for u, key in keys]


@dataclass
class Expectations:
    """Declarations waiting for their counter moves, and the entries written for counter moves."""

    output: Output
    combat: Combat
    expected: dict[str, list[tuple[Key, int, str]]] = field(default_factory=lambda: defaultdict(list))
    """By unit: the effect declared, its step and its text."""
    physical: dict[str, list[tuple[int, frozenset[Key], int, int | None]]] = field(
        default_factory=lambda: defaultdict(list))
    """By unit: the entry (index) written for a counter move, its effects, the step or phase it was made in
    (`Output.phase`) and the attack or bombardment declared last when it was made (`Combat.last_combat`).
    A unit's entries are written in order, so its list is in the order of their indices."""
    flips: set[int] = field(default_factory=set)
    """The entries (indices) written for counters flipped down, neither taken back nor replaced by a declaration."""

    def expect(self, unit: str, key: Key, step: int, text: str) -> None:
        """A declaration typed after its counter moved replaces that move's entry; else it waits for the move."""
        if not self.retract(unit, key, step):
            self.expected[unit].append((key, step, text))

    def retract(self, unit: str, key: Key, step: int) -> bool:
        """A declaration typed after its counter moved replaces the reader's entry for that move, made in the same
        step or phase of the turn."""
        entries = self.output.entries
        for k in range(len(self.physical[unit]) - 1, -1, -1):
            index, keys, phase, fought = self.physical[unit][k]
            if phase != self.output.phase or fought != self.combat.last_combat:
                # A counter move of an earlier step or phase is not what this declaration describes: a replacement
                # typed turns after the unit was flipped in combat would otherwise swallow that flip, and its own
                # flip then read as a loss no result calls for. Nor is a counter move made before the combat now
                # being resolved was declared: a unit flipped by one attack's result and depleted again by the next
                # attack's, in the same step, has lost two steps (the flip is the first attack's loss).
                break
            if carries_out(key, keys):
                old = entries[index]
                entries[index] = Comment(line=old.line, text=one_line(
                    f"step {old.line}: {write_entry(old)} -- as declared in chat at step {step}"))
                self.output.endpoint.pop(index, None)
                del self.physical[unit][k]
                self.flips.discard(index)
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

    def as_declared(self, step: int, unit: str, keys: frozenset[Key], what: str) -> bool:
        """Whether a declaration stands for the counter move (then said in a comment)."""
        declared = self.consume(unit, keys)
        if declared is None:
            return False
        self.output.comment(step, f"step {step}: {what} (as declared at step {declared[0]}: {declared[1]})")
        return True

    def physical_entry(self, step: int, unit: str, keys: frozenset[Key], entry: Entry, what: str) -> None:
        """Emit the entry for a counter move unless a declaration already stands for it."""
        if self.as_declared(step, unit, keys, what):
            return
        self.moved(unit, self.output.emit(entry), keys)

    def moved(self, unit: str, index: int, keys: frozenset[Key]) -> None:
        """The entry (index) written for a counter move, which a later declaration may replace."""
        self.physical[unit].append((index, keys, self.output.phase, self.combat.last_combat))
        if keys == DEPLETE:
            self.flips.add(index)
        self.combat.last_roll = None

    def forget(self, unit: str, index: int) -> None:
        """The counter move written at `index` was taken back: no declaration stands for it any more."""
        # Searched from the end, where the move taken back nearly always is: a cost that does not grow with the
        # unit's history (all of it was copied at each flip taken back, quadratic in a long log of flips).
        records = self.physical[unit]
        k = len(records) - 1
        while k >= 0 and records[k][0] >= index:
            if records[k][0] == index:
                del records[k]
            k -= 1
        self.flips.discard(index)

    def unmet(self) -> list[tuple[str, Key, int, str]]:
        """Declarations whose counter move never came: unit, effect, step, text."""
        return [(unit, key, step, text) for unit, waiting in sorted(self.expected.items())
                for key, step, text in waiting]
