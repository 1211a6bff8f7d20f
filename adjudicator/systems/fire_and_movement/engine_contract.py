"""Fire & Movement on the engine's contract (adjudicator/contract.py): position, outcome, audit.

The engine makes two of the generic checks for this system (a decided game, an entry kind of
Onslaught's); the system's own `check` still checks the phase order and who writes an entry
(`engine_checks` below says which; the system's phase and author checks go when it hands them over).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from adjudicator.contract import EngineChecks, MarkerUse, Outcome, Position, SequencePoint, StepNoun
from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack, Entry
from adjudicator.systems.base import SystemBase
from adjudicator.systems.fire_and_movement.system import FireAndMovement, FireAndMovementState


class FireAndMovementSystem(FireAndMovement, SystemBase[FireAndMovementState]):
    """The Fire & Movement system object the engine calls."""

    step_noun: StepNoun = "phase"
    entry_kinds = frozenset({"header", "turn", "step", "rolloff", "move", "attack", "bombard", "retreat", "advance",
                             "loss", "stand", "place", "markers", "income", "capture", "comment"})
    foreign_kinds = {kind: "entries are Onslaught's; Fire & Movement has phases, not actions (4.1)"
                     for kind in ("action", "activate", "pass", "declare")}
    engine_checks = EngineChecks(decided=True, kinds=True, sequence=False, author=False)

    @property
    def auditor(self) -> FireAndMovementSystem:
        """Fire & Movement audits a disputed combat (8.0-8.2)."""
        return self

    def check_rules(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """The system's own findings, after the engine's generic checks."""
        return FireAndMovement.check(self, state, entry)

    def check(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """Every finding for an entry: the engine's generic checks, then the system's rules."""
        return SystemBase.check(self, state, entry)

    def describe(self, state: FireAndMovementState) -> dict[str, object]:
        """The position, then the system's own details, as JSON data."""
        return SystemBase.describe(self, state)

    def sequence_point(self, state: FireAndMovementState) -> SequencePoint:
        """Game turn, phase and player turn (4.1)."""
        return SequencePoint(state.turn, self.phase_id(state), self.active(state))

    @staticmethod
    def outcome(state: FireAndMovementState) -> Outcome | None:
        """The sudden death victory that ended the game, if one has (13.0, 14.3)."""
        return None if state.victory is None else Outcome(*state.victory)

    def acting_side(self, state: FireAndMovementState) -> str | None:
        """The player whose player turn it is (4.1)."""
        return self.active(state)

    def position(self, state: FireAndMovementState) -> Position:
        """Units, reduced units, support markers out of their cups (7.2, 11.1.4, 11.2.3, 14.1), beachheads (11.2.1)."""
        used, aside, lost = Counter(state.markers_used), Counter(state.withheld), Counter(state.lost_markers)
        markers = {m: MarkerUse(used[m], aside[m], lost[m]) for m in sorted(set(used) | set(aside) | set(lost))}
        marked = None if state.beachheads is None else {"beachhead": state.beachheads}
        return Position(state.scenario, self.sequence_point(state), "phase", self.unit_places(state, state.depleted),
                        markers=markers, marked_hexes=marked, outcome=self.outcome(state))

    def details(self, state: FireAndMovementState) -> dict[str, object]:
        """The beach landing hexes left (11.2.4, 13.0) and the campaign's last GT once fixed (14.2)."""
        return {"beach_landing_hexes": sorted(self.landing_hexes(state)), "last_turn": state.last_turn}

    def with_units(self, state: FireAndMovementState, placed: Mapping[str, str]) -> FireAndMovementState:
        """The state with only these units, where given (an audit without a log)."""
        return replace(state, location=dict(placed))

    def combat_report(self, state: FireAndMovementState, attack: Attack) -> list[str]:
        """The audit of one attack, in lines for a person (8.0-8.2)."""
        return FireAndMovement.combat_report(self, state, attack)


FIRE_AND_MOVEMENT = FireAndMovementSystem()
