"""What every rule system does alike: unit lookup, on-map tests, findings with a typed severity,
per-game derived tables, and `check`/`describe` on the engine's contract."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from adjudicator import engine
from adjudicator.contract import (
    CombatAuditor, EngineChecks, KeepsTurn, MovementModel, Outcome, Position, SequencePoint, StepNoun, UnitPlace,
)
from adjudicator.findings import Finding, SectionTable, Severity
from adjudicator.notation.entries import Entry, Header
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Unit

T = TypeVar("T")


class PerGame(Generic[T]):
    """Tables derived from a game's data (supply maps, label indexes, ZOC zones), built once per game
    and owned by the rule system that asks for them; a table dies with its game (never set on `Game`)."""

    def __init__(self, build: Callable[[Game], T]) -> None:
        self._build = build
        self._values: dict[int, tuple[weakref.ref[Game], T]] = {}
        self._last: tuple[weakref.ref[Game], T] | None = None
        """The table last asked for: a replay asks about one game thousands of times."""

    def __call__(self, game: Game) -> T:
        """The table of a game, built on the first request."""
        last = self._last
        if last is not None and last[0]() is game:
            return last[1]
        key = id(game)
        hit = self._values.get(key)
        if hit is None or hit[0]() is not game:
            hit = self._values[key] = (weakref.ref(game, self._forget(key)), self._build(game))
        self._last = hit
        return hit[1]

    def _forget(self, key: int) -> Callable[[weakref.ref[Game]], None]:
        """What to do when a game dies: its table goes with it."""
        def forget(ref: weakref.ref[Game]) -> None:
            self._values.pop(key, None)
            if self._last is not None and self._last[0] is ref:
                self._last = None
        return forget


class Placed(Protocol):
    """A state with a game and every unit's place (hex label, box or track space)."""

    @property
    def game(self) -> Game: ...  # noqa: D102

    @property
    def location(self) -> Mapping[str, str]: ...  # noqa: D102


PlacedT = TypeVar("PlacedT", bound=Placed)


class SystemBase(Generic[PlacedT]):
    """The part of a rule system every system shares; a system subclasses it and adds its rules."""

    name: str
    table: SectionTable
    step_noun: StepNoun
    entry_kinds: frozenset[str]
    foreign_kinds: Mapping[str, str]
    engine_checks: EngineChecks = EngineChecks()

    @property
    def auditor(self) -> CombatAuditor[PlacedT] | None:
        """The combat audit; None unless the system gives one."""
        return None

    @property
    def movement(self) -> MovementModel[PlacedT] | None:
        """The movement model; None unless the system gives one."""
        return None

    @property
    def turn_keeper(self) -> KeepsTurn[PlacedT] | None:
        """How the engine keeps the system's turn; None for a system that keeps its own."""
        return None

    # -- what each system writes (the engine's contract, adjudicator/contract.py) -------------
    def initial_state(self, game: Game, headers: Sequence[Header]) -> PlacedT:
        """The state before the first entry (the scenario's set-up)."""
        raise NotImplementedError

    def check_rules(self, state: PlacedT, entry: Entry, kind_rules: bool = True) -> list[Finding]:
        """The system's own findings for an entry, after the engine's generic checks."""
        raise NotImplementedError

    def misplacement_reported(self, state: PlacedT, entry: Entry) -> str | None:
        """Why a misplaced entry breaks nothing new; None unless the system says (the engine's contract)."""
        return None

    def step_of(self, state: PlacedT, entry: Entry) -> str | None:
        """The step or phase a misplaced entry belongs to where the data cannot tell; None: the data decides."""
        return None

    def apply(self, state: PlacedT, entry: Entry) -> PlacedT:
        """The state after the entry, as the log says."""
        raise NotImplementedError

    def finish(self, state: PlacedT) -> list[Finding]:
        """Findings due at the end of the log."""
        raise NotImplementedError

    def sequence_point(self, state: PlacedT) -> SequencePoint:
        """Turn, step or phase, and player turn."""
        raise NotImplementedError

    def outcome(self, state: PlacedT) -> Outcome | None:
        """The decided game, if it is."""
        raise NotImplementedError

    def acting_side(self, state: PlacedT) -> str | None:
        """The side taking the action or player turn now."""
        raise NotImplementedError

    def position(self, state: PlacedT) -> Position:
        """What the board shows."""
        raise NotImplementedError

    def details(self, state: PlacedT) -> dict[str, object]:
        """The system's own JSON beside the position."""
        return {}

    # -- shared ---------------------------------------------------------------------------------
    def check(self, state: PlacedT, entry: Entry) -> list[Finding]:
        """Every finding for an entry: the engine's generic checks, then the system's rules."""
        return engine.check(self, state, entry)

    def describe(self, state: PlacedT) -> dict[str, object]:
        """The position, then the system's own details, as JSON data."""
        return {**self.position(state).as_dict(), **self.details(state)}

    @staticmethod
    def game_of(state: PlacedT) -> Game:
        """The game a state belongs to."""
        return state.game

    @staticmethod
    def unit(state: PlacedT, unit_id: str) -> Unit:
        """The unit of an id."""
        return state.game.units_by_id[unit_id]

    @staticmethod
    def on_map(state: PlacedT, unit_id: str) -> Hex | None:
        """The map hex a unit is in, None if it is in a box, on a track or out of play."""
        where = state.location.get(unit_id)
        grid = state.game.grid
        return grid.hex_of(where) if where is not None and grid.is_label(where) else None

    @staticmethod
    def units_at(state: PlacedT, label: str, side: str | None = None) -> list[str]:
        """The units in a place (of one side), sorted."""
        units = state.game.units_by_id
        return sorted(u for u, where in state.location.items()
                      if where == label and (side is None or units[u].side == side))

    @staticmethod
    def enemy(state: PlacedT, side: str) -> str:
        """The other side."""
        return next(s for s in state.game.manifest.sides if s != side)

    def finding(self, severity: Severity, section: str, entry: Entry, message: str) -> Finding:
        """A finding on an entry, citing a section of the system's table."""
        return self.table.finding(severity, section, entry.line, entry.column, message)

    def unit_places(self, state: PlacedT, reduced: frozenset[str]) -> dict[str, UnitPlace]:
        """Every unit's place and face, for a `Position`."""
        return {u: UnitPlace(where, u in reduced) for u, where in sorted(state.location.items())}
