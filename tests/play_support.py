"""One way to replay a few entries in a test (issue 25): from a position, through the checks and the engine's apply,
with the findings, the final state and each finding's entry text. Every rules test starts here instead of keeping
its own copy of the loop.

`position` starts a test where it needs to be (a set-up overlay: units placed, fields of the state set) instead of
replaying hundreds of lines to get there."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields as dataclass_fields, replace
from typing import Generic, TypeVar, cast

from adjudicator.contract import RuleSystem, TurnContext
from adjudicator.engine import advance
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, Header
from adjudicator.notation.text import parse_text
from wargame.game import Game
from wargame.sequence import turn_sequence

S = TypeVar("S")


System = RuleSystem
"""What a test replays through: a rule system's contract (adjudicator/contract.py)."""


@dataclass(frozen=True)
class Played(Generic[S]):
    """What a replay of a few entries gave: every finding, the state after them, and the source's lines."""

    findings: list[Finding]
    state: S
    lines: list[str]

    def text_of(self, finding: Finding) -> str:
        """The entry a finding is about, as written (its comment left out)."""
        return self.lines[finding.line - 1].split("#")[0].strip() if finding.line else ""

    def errors(self) -> list[tuple[str, str]]:
        """(rule, entry text) of every error."""
        return [(f.rule, self.text_of(f)) for f in self.findings if f.severity == "error"]

    def shown(self, severities: Iterable[str] = ("error", "warning")) -> list[tuple[str, str, str]]:
        """(severity, rule, entry text) of the findings of these severities."""
        wanted = set(severities)
        return [(f.severity, f.rule, self.text_of(f)) for f in self.findings if f.severity in wanted]

    def rules(self) -> list[tuple[str, str]]:
        """(severity, rule) of every finding."""
        return [(f.severity, f.rule) for f in self.findings]


def position(system: System[S], game: Game, headers: Sequence[Header] = (), *, placed: dict[str, str] | None = None,
             over_setup: bool = True, **fields: object) -> S:
    """The scenario's initial state with `placed` units put where it says (over the set-up, or alone when
    `over_setup` is false) and any other fields of the state set."""
    base = system.initial_state(game, headers)
    if placed is not None:
        location = getattr(base, "location")
        fields["location"] = {**location, **placed} if over_setup else dict(placed)
    if isinstance(getattr(base, "at", None), TurnContext):
        # A system whose turn the engine keeps: the turn and step are its context's, the step's records its log's.
        turn = cast(int | None, fields.pop("turn", None))
        return when(base, turn=turn, **fields)
    return replace(base, **fields)  # type: ignore[type-var]  # the systems' states are dataclasses


_KEEP = object()


def when(state: S, *, turn: int | None = None, step: str | None | object = _KEEP,
         player_turn: str | None | object = _KEEP, **fields: object) -> S:
    """A state of a system whose turn the engine keeps, set where a test needs it: its context's turn, step and
    phasing side (kept where not given), the records of the step under way (its `log`) and any other fields named."""
    at: TurnContext = getattr(state, "at")
    context = TurnContext(at.turn if turn is None else turn, at.step if step is _KEEP else cast(str | None, step),
                          at.player_turn if player_turn is _KEEP else cast(str | None, player_turn))
    log = getattr(state, "log", None)
    logged = {k: v for k, v in fields.items() if log is not None and k in {f.name for f in dataclass_fields(log)}}
    others = {k: v for k, v in fields.items() if k not in logged}
    if logged:
        others["log"] = replace(log, **logged)  # type: ignore[type-var]  # the systems' records are dataclasses
    return replace(state, at=context, **others)  # type: ignore[type-var]  # the systems' states are dataclasses


def at_phase(state: S, **fields: object) -> S:
    """A Fire & Movement state set where a test needs it: `turn`, `phase` (an index into the turn's sequence of
    phases, None before the first; the phasing side is that phase's) and any other fields, through `when`."""
    if "phase" in fields:
        index = cast(int | None, fields.pop("phase"))
        slot = None if index is None else turn_sequence(cast(Game, getattr(state, "game")).manifest)[index]
        fields["step"], fields["player_turn"] = (None, None) if slot is None else (slot.id, slot.side)
    turn = cast(int | None, fields.pop("turn", None))
    return when(state, turn=turn, **fields)


def play(system: System[S], state: S, source: str | Sequence[Entry], *, finish: bool = True,
         pure: bool = True) -> Played[S]:
    """Replay a log's text (or parsed entries) from `state`: every finding of each entry, then the end-of-log notes
    when `finish`; `pure` asserts that no check changes the state it is given (checks are read-only)."""
    entries = parse_text(source) if isinstance(source, str) else list(source)
    findings: list[Finding] = []
    for entry in entries:
        before = copy.copy(state.__dict__) if pure else None
        findings += system.check(state, entry)
        if before is not None:
            assert state.__dict__ == before, f"checking line {entry.line} changed the state"
        state = advance(system, state, entry)
    if finish:
        findings += system.finish(state)
    return Played(findings, state, source.splitlines() if isinstance(source, str) else [])


__all__ = ["Played", "play", "position", "when"]
