"""The replay engine: every entry is checked against the rules, then applied as the log says.

Three tiers (house style 5): a syntax error stops parsing; an entry that cannot be resolved
(unknown unit, hex off the map) stops the replay but keeps every state so far; a broken rule
becomes a finding and the replay goes on from what the players actually did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import Entry, Header
from adjudicator.notation.text import iter_units_and_hexes
from wargame.errors import LogSyntaxError, Place, ReplayError, did_you_mean
from wargame.game import Game


class RuleSystem(Protocol):
    """What a rule system plugs into the engine with (one object per system)."""

    name: str
    table: SectionTable

    def initial_state(self, game: Game, headers: Sequence[Header]) -> Any:
        """The state before the first entry (the scenario's set-up)."""

    def check(self, state: Any, entry: Entry) -> list[Finding]:
        """Findings for an entry in a state; must not change the state."""

    def apply(self, state: Any, entry: Entry) -> Any:
        """The state after the entry, as the log says; never checks; ReplayError if impossible."""

    def finish(self, state: Any) -> list[Finding]:
        """Findings due at the end of the log (e.g. a step left overstacked)."""

    def describe(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON data."""


@dataclass
class Replay:
    """The outcome of a replay: findings, the state after each entry, and where it stopped."""

    game: Game
    system: RuleSystem
    entries: list[Entry]
    findings: list[Finding] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    stopped: ReplayError | None = None

    @property
    def final_state(self) -> Any:
        """The last state reached."""
        return self.states[-1]

    def state_at(self, line: int) -> Any:
        """The state after the last entry on or before a log line."""
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
    for entry in entries:
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


def replay(game: Game, system: RuleSystem, entries: list[Entry]) -> Replay:
    """Check and apply every entry in order."""
    headers = [e for e in entries if isinstance(e, Header)]
    result = Replay(game, system, entries)
    state = system.initial_state(game, headers)
    result.states.append(state)
    for entry in entries:
        result.findings += system.check(state, entry)
        try:
            state = system.apply(state, entry)
        except ReplayError as e:
            result.stopped = e
            return result
        except (ValueError, KeyError, IndexError) as e:
            # An entry the rule system cannot apply: stop, keeping every state so far (tier 2).
            result.stopped = ReplayError(f"line {entry.line}: the entry cannot be applied ({e})")
            return result
        result.states.append(state)
    result.findings += system.finish(state)
    return result
