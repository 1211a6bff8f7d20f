"""The Fire & Movement series' state: the position after an entry (4.1-8.5), with the engine's turn context and the
record of the phase under way, which the engine replaces at each marker (house style 19).

A folio's exclusive rules keep their own fields in a subclass (Omaha: `omaha/state.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TypeVar

from adjudicator.contract import TurnContext, TurnKeeper
from adjudicator.notation.entries import StepMarker, TurnMarker
from adjudicator.systems.base import PerGame
from adjudicator.systems.fire_and_movement.markers import NONE, Tally
from adjudicator.systems.fire_and_movement.results import FmCombat
from wargame.game import Game
from wargame.records import frozen
from wargame.sequence import Slot, turn_sequence

SEQUENCE: PerGame[tuple[Slot, ...]] = PerGame(lambda game: turn_sequence(game.manifest))
"""4.1: a game turn's phases in order, from the game's `[[sequence]]` (the player turn's five once
for each player), whose slots the engine's context (`at`) names."""


class GameTables:
    """What a game's data fixes for a whole replay, found once per game and carried by each of its
    states (`state.tables`): the rules ask for them at every entry, without a per-game look-up each time."""

    def __init__(self, game: Game) -> None:
        self.labels = frozenset(game.grid.labels)
        """The map's hex labels (whether a place is a map hex is asked of every unit's place, often)."""
        names = list(game.manifest.value_names)
        self.movement_index = names.index("movement") if "movement" in names else None
        """Where the movement allowance stands in a unit's printed values (asked for every step priced)."""


TABLES: PerGame[GameTables] = PerGame(GameTables)
"""Each game's tables, built with its first state."""


@frozen
class PhaseLog:
    """What has happened in the phase under way (house style 19: the engine starts a new one at each marker)."""

    attacked: frozenset[str] = frozenset()
    """Units that have attacked in this phase (8.2: strengths are unitary)."""
    defended: frozenset[str] = frozenset()
    """Units that have been attacked in this phase (8.0: one attack per phase)."""
    engaged: frozenset[tuple[str, str]] = frozenset()
    """(attacking unit, defending unit) of each attack in this phase: the same pair again is one breach, the
    attacker's (8.2), not a second of the defender's (8.0)."""
    drawn: tuple[tuple[str, str], ...] = ()
    """(side, marker) drawn from a pool for the next combat or bombardment and not yet placed (7.2)."""
    undone: FmCombat | None = None
    """A combat whose result was left undone when another entry ended it (8.0: the next attack or bombardment
    declared, one combat resolved before the next; a draw, a phase marker): its one error is on that entry, so its
    result carried out late, in that phase or the one that marker opened, is judged against it (one breach, one
    error)."""
    # What happened in the player turn under way: the next phase's record keeps it until a player turn begins.
    moved: frozenset[str] = frozenset()
    """Units that have moved in this player turn (5.2, 5.5)."""
    moved_in_movement: frozenset[str] = frozenset()
    """Mobile units that moved in this player turn's Movement Phase (4.1, 5.5)."""
    attacked_in_combat: frozenset[str] = frozenset()
    """Mobile units that attacked in this player turn's Combat Phase (4.1, 8.2)."""
    advanced: frozenset[str] = frozenset()
    """Units that advanced after combat this player turn and do nothing more in it (8.5)."""
    displaced: frozenset[str] = frozenset()
    """Units displaced this player turn (8.3.1: an attacker's displaced unit attacks no more)."""
    bombarded: tuple[str, ...] = ()
    """The hex of every marker that has bombarded in this player turn (8.1: two a hex at most)."""
    orphaned: int | None = None
    """The line of the first of the entries just written that carry out a combat result with no combat open (a loss,
    retreat, stiff resistance or advance; its one error): the others right after it are the same missing combat."""
    arrived: Mapping[str, int] = field(default_factory=dict)
    """The line of the last entry that put each unit in its hex this phase (5.3: a log ending inside the phase
    has an overstack noted on the entry that made it)."""


@frozen
class FireAndMovementState:
    """The position and the sequence of play after an entry."""

    game: Game = field(repr=False, compare=False)
    scenario: str
    at: TurnContext
    """Game turn, phase and whose player turn it is (None outside the player turns): the engine's, set at each
    marker (house style 19)."""
    location: dict[str, str]
    depleted: frozenset[str] = frozenset()
    markers_used: Tally = NONE
    """Support markers drawn or placed on combats this game turn, a count a marker (7.2)."""
    combat: FmCombat | None = None
    """The combat whose results the entries after its attack carry out (8.2.4-8.5)."""
    overstacked: tuple[tuple[str, frozenset[str]], ...] = ()
    """Hexes over the stacking limit already reported (5.3), with their units: a lasting condition is
    one error, where it arises, until it is resolved (or another unit joins it)."""
    noted: frozenset[str] = frozenset()
    """Entry kinds already given the note that they are applied but not checked."""
    optional: frozenset[str] = frozenset()
    """Optional rules in force, from the log's `Optional` headers."""
    log: PhaseLog = PhaseLog()
    """What has happened in the phase under way: the engine's, a new one at each marker."""
    tables: GameTables = field(init=False, repr=False, compare=False)
    """The game's tables (the same for every state of a game; `evolve` carries them)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", TABLES(self.game))


S = TypeVar("S", bound=FireAndMovementState)
T = TypeVar("T")


def evolve(state: T, **changes: object) -> T:
    """A state or record with some fields changed: `dataclasses.replace` without re-running `__init__` over
    every field (a state and its phase's record change with every entry)."""
    # A field left behind by a rename (`turn=`) is refused, never set beside the state's own.
    assert changes.keys() <= state.__dict__.keys(), f"no field {sorted(changes.keys() - state.__dict__.keys())}"
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def stack_reported(state: S, label: str, units: frozenset[str]) -> S:
    """5.3: a stack an entry's own error reported, which the phase's end does not report again."""
    known = dict(state.overstacked)
    known[label] = known.get(label, frozenset()) | units
    return evolve(state, overstacked=tuple(sorted(known.items(), key=lambda item: item[0])))


def _install(state: S, at: TurnContext, log: PhaseLog) -> S:
    """The state with the engine's new context and phase record."""
    return evolve(state, at=at, log=log)


def _carried(state: S, fresh: PhaseLog) -> PhaseLog:
    """A phase's fresh record with what happened in the player turn it goes on with (4.1)."""
    log = state.log
    return evolve(fresh, moved=log.moved, moved_in_movement=log.moved_in_movement,
                  attacked_in_combat=log.attacked_in_combat, advanced=log.advanced, displaced=log.displaced,
                  bombarded=log.bombarded)


def _context(state: S) -> TurnContext:
    return state.at


def _scenario(state: S) -> str:
    return state.scenario


def keeper(turn_ends: Callable[[S, TurnMarker], S], step_ends: Callable[[S, StepMarker], S],
           phase_log: type[PhaseLog], turn_carry: Callable[[S, PhaseLog], PhaseLog]) -> TurnKeeper[S, PhaseLog]:
    """Where the engine keeps a game's turn: the state's `at` and `log`; a phase marker opens only a later phase
    (a player turn's phase again is the next player's); a phase that goes on with the player turn keeps what
    happened in it, and every phase what happened in the game turn (`turn_carry`: a folio's)."""
    return TurnKeeper(_context, _install, phase_log, _scenario, turn_ends, step_ends, _carried, turn_carry,
                      later_only=True)
