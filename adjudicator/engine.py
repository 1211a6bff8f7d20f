"""The replay engine: every entry is checked against the rules, then applied as the log says.

Three tiers (house style 5): a syntax error stops parsing; an entry that cannot be resolved
(unknown unit, hex off the map) stops the replay but keeps every state so far; a broken rule
becomes a finding and the replay goes on from what the players actually did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic

from adjudicator.contract import RuleSystem, StateT, kind_of
from adjudicator.findings import Finding
from adjudicator.notation.entries import (Advance, Attack, Comment, Entry, Header, Loss, Move, Retreat, StandFast,
                                          StepMarker)
from adjudicator.notation.text import iter_units_and_hexes
from wargame.errors import LogSyntaxError, Place, ReplayError, did_you_mean
from wargame.game import Game
from wargame.models import EntryAllowance
from wargame.sequence import Slot, entry_places, next_slot, slot_index, step_ids, turn_sequence

__all__ = ["Replay", "RuleSystem", "check", "replay", "resolve"]


@dataclass
class Replay(Generic[StateT]):
    """The outcome of a replay: findings, the states kept, and where it stopped.

    With `keep_states=False` (a `check`) only the first and the last state are kept, so memory does
    not grow with the log; `state --at` and `export` replay with every state kept."""

    game: Game
    system: RuleSystem[StateT]
    entries: list[Entry]
    findings: list[Finding] = field(default_factory=list)
    states: list[StateT] = field(default_factory=list)
    stopped: ReplayError | None = None
    applied: int = 0
    """How many entries were applied (the replay stopped before the next one, if it stopped)."""

    @property
    def final_state(self) -> StateT:
        """The last state reached."""
        return self.states[-1]

    def state_at(self, line: int) -> StateT:
        """The state after the last entry on or before a log line (every state kept)."""
        if len(self.states) != self.applied + 1:
            raise ValueError("the replay kept only its first and last states (replay(..., keep_states=True))")
        index = 0
        for i, entry in enumerate(self.entries):
            if entry.line <= line:
                index = i + 1
        return self.states[min(index, len(self.states) - 1)]


def resolve(game: Game, entries: Sequence[Entry], file: str) -> list[LogSyntaxError]:
    """Every unit id and hex label the log names that the game does not know, with suggestions."""
    errors = []
    units = game.units_by_id
    boxes = {b.id for b in game.manifest.box} | set(game.areas_by_id)
    steps = step_ids(turn_sequence(game.manifest))
    for entry in entries:
        if isinstance(entry, StepMarker) and steps and entry.step not in steps:
            errors.append(LogSyntaxError(f"unknown step or phase {entry.step!r}{did_you_mean(entry.step, steps)} "
                                         f"(the turn's: {', '.join(steps)})", Place(file, entry.line, entry.column)))
        for kind, value in iter_units_and_hexes(entry):
            if kind == "unit" and value not in units:
                errors.append(LogSyntaxError(f"unknown unit {value!r}{did_you_mean(value, units)}",
                                             Place(file, entry.line, entry.column)))
            elif kind == "hex" and not game.grid.is_label(value) and value not in boxes:
                try:
                    game.grid.hex_of(value)
                except Exception as e:  # GridError: the message carries the suggestion
                    errors.append(LogSyntaxError(str(getattr(e, "message", e)), Place(file, entry.line, entry.column)))
    return errors


def _sequence_findings(system: RuleSystem[StateT], sequence: tuple[Slot, ...], state: StateT,
                       entry: StepMarker) -> list[Finding]:
    """The step or phase marker names the next one of the turn (4.0 / 4.1: the game's `[[sequence]]`)."""
    noun = system.step_noun
    ids = step_ids(sequence)
    if entry.step not in ids:
        # Not a finding: an unknown step cannot be applied, so the replay stops here (tier 2).
        raise ReplayError(f"line {entry.line}: {entry.step!r} is not a {noun} of the turn"
                          f"{did_you_mean(entry.step, ids)} ({', '.join(ids)})")
    at = system.sequence_point(state)
    section = sequence[0].source
    if at.turn == 0:
        return [system.table.finding("error", section, entry.line, entry.column,
                                     f"a {noun} before the first 'Turn' marker")]
    expected = next_slot(sequence, at.step, at.player_turn)
    if expected is None or entry.step != expected.id:
        after = at.step or "the turn marker"
        then = f"the next {noun} is {expected.id!r}" if expected is not None else f"{after!r} is the turn's last {noun}"
        return [system.table.finding("error", section, entry.line, entry.column,
                                     f"turn {at.turn}: {noun} {entry.step!r} comes after {after!r}; {then}")]
    return []


def _decided_by_owner(entry: Entry) -> list[str]:
    """The units whose owner alone decides an entry: moves, retreats, advances, losses (not 6.3's
    removals, which have their own rule) and standing fast."""
    if isinstance(entry, (Move, Retreat, Advance)):
        return [entry.unit]
    if isinstance(entry, Loss) and entry.loss != "remove":
        return [entry.unit]
    if isinstance(entry, StandFast):
        return list(dict.fromkeys(entry.units))
    return []


def _deciding_side(system: RuleSystem[StateT], state: StateT, entry: Entry) -> str | None:
    """The side an entry is a decision of: the owner of the units it decides for, else its author (an
    attack without one: its first attacker's owner)."""
    units = system.game_of(state).units_by_id
    owned = [u for u in _decided_by_owner(entry) if u in units]
    if owned:
        return units[owned[0]].side
    if entry.side:
        return entry.side
    if isinstance(entry, Attack) and entry.attackers[0] in units:
        return units[entry.attackers[0]].side
    return None


def _entry_place_findings(system: RuleSystem[StateT], sequence: tuple[Slot, ...],
                          places: dict[str, tuple[EntryAllowance, ...]], state: StateT, entry: Entry,
                          kind: str) -> list[Finding]:
    """The step or phase under way allows this kind of entry from this side (`entries` of the game's
    `[[sequence]]`), citing the section the data gives for it."""
    allowed = places.get(kind)
    if allowed is None:
        return []
    at = system.sequence_point(state)
    index = slot_index(sequence, at.step, at.player_turn)
    slot = None if index is None else sequence[index]
    side = _deciding_side(system, state, entry)
    if slot is not None and slot.allows(kind, side):
        return []
    here = [a for a in slot.entries if a.kind == kind] if slot is not None else []
    section = (here or list(allowed))[0].source
    noun = system.step_noun
    where = f"turn {at.turn}, {slot.name}" if slot is not None else f"turn {at.turn}, before its first {noun}"
    homes = [f"{s.name}" + ("" if s.writer(a) is None or a.side == "phasing" else f" (by {s.writer(a)})")
             for s in sequence for a in s.entries if a.kind == kind]
    belongs = "the " + " or the ".join(dict.fromkeys(homes))
    if here:
        return [system.table.finding("error", section, entry.line, entry.column,
                                     f"{where}: {side or 'a side without a name'} may not write a '{kind}' entry "
                                     f"here; it belongs to {belongs}")]
    return [system.table.finding("error", section, entry.line, entry.column,
                                 f"{where}: a '{kind}' entry belongs to {belongs}")]


def _author_findings(system: RuleSystem[StateT], state: StateT, entry: Entry) -> list[Finding]:
    """Who wrote an entry: a unit's decisions are its owner's, and `Side>` marks a decision of the
    side not acting now."""
    if not entry.side:
        return []
    units = system.game_of(state).units_by_id
    table = system.table
    out = [table.finding("error", "log", entry.line, entry.column,
                         f"{u} is a {units[u].side} unit; its owner, not {entry.side}, decides this")
           for u in _decided_by_owner(entry) if u in units and units[u].side != entry.side]
    if entry.by_opponent and entry.side == system.acting_side(state):
        out.append(table.finding("error", "log", entry.line, entry.column,
                                 f"'{entry.side}>' marks a decision of the side not taking the action, but "
                                 f"{entry.side} is taking it: write '{entry.side}:'"))
    return out


def check(system: RuleSystem[StateT], state: StateT, entry: Entry,
          sequence: tuple[Slot, ...] | None = None,
          places: dict[str, tuple[EntryAllowance, ...]] | None = None) -> list[Finding]:
    """Every finding for an entry: the engine's generic checks in a fixed order, then the system's rules.

    1. the game is already decided (nothing follows an automatic victory);
    2. the entry kind is one of the system's;
    3. a step or phase marker names the next step of the game's sequence of play;
    4. the step or phase under way allows this kind of entry from this side (`entries` in `[[sequence]]`);
    5. the author (`Side:` / `Side>`) may write it;
    then the rule system's own checks. 1, 2 and an unknown step stop there; after 4, the system judges
    only what the entry's arrival brings about, not its kind's own rules (one breach, one error).
    ReplayError for a step or phase the game does not have."""
    handed = system.engine_checks
    table = system.table
    if handed.decided and not isinstance(entry, Comment):
        outcome = system.outcome(state)
        if outcome is not None:
            return [table.finding("error", outcome.section, entry.line, entry.column,
                                  f"the game ended at line {outcome.line} with the {outcome.winner} player's "
                                  f"automatic victory ({outcome.reason}); nothing follows it")]
    kind = kind_of(entry)
    if handed.kinds and kind not in system.entry_kinds:
        why = system.foreign_kinds.get(kind, f"is not an entry of the {system.name} rule system")
        return [table.finding("error", "log", entry.line, entry.column, f"'{kind}' {why}")]
    out: list[Finding] = []
    if sequence is None:
        sequence = turn_sequence(system.game_of(state).manifest)
    if handed.sequence and isinstance(entry, StepMarker):
        out += _sequence_findings(system, sequence, state, entry)
    misplaced: list[Finding] = []
    if handed.entries:
        misplaced = _entry_place_findings(system, sequence, entry_places(sequence) if places is None else places,
                                          state, entry, kind)
        out += misplaced
    if handed.author:
        out += _author_findings(system, state, entry)
    return out + system.check_rules(state, entry, kind_rules=not misplaced)


def replay(game: Game, system: RuleSystem[StateT], entries: list[Entry], keep_states: bool = True) -> Replay[StateT]:
    """Check and apply every entry in order.

    Only a ReplayError (an entry of the log that cannot be applied) stops the replay as the log's
    fault; any other exception is a bug in Umpire and propagates as one."""
    headers = [e for e in entries if isinstance(e, Header)]
    result: Replay[StateT] = Replay(game, system, entries)
    sequence = turn_sequence(game.manifest)
    places = entry_places(sequence)
    state = system.initial_state(game, headers)
    result.states.append(state)
    for entry in entries:
        try:
            result.findings += check(system, state, entry, sequence, places)
            state = system.apply(state, entry)
        except ReplayError as e:
            result.stopped = e
            return result
        result.applied += 1
        if keep_states:
            result.states.append(state)
        else:
            result.states[1:] = [state]
    result.findings += system.finish(state)
    return result
