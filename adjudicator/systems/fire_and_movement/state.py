"""The Fire & Movement series' state: the position and the sequence of play after an entry (4.1-8.5).

A folio's exclusive rules keep their own fields in a subclass (Omaha: `omaha/state.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from adjudicator.contract import SequencePoint
from adjudicator.systems.base import PerGame
from adjudicator.systems.fire_and_movement.results import FmCombat
from wargame.game import Game
from wargame.sequence import Slot, turn_sequence

SEQUENCE: PerGame[tuple[Slot, ...]] = PerGame(lambda game: turn_sequence(game.manifest))
"""4.1: a game turn's phases in order, from the game's `[[sequence]]` (the player turn's five once
for each player); a state's `phase` is an index into it."""


class GameTables:
    """What a game's data fixes for a whole replay, found once per game and carried by each of its
    states (`state.tables`): the rules ask for them at every entry, without a per-game look-up each time."""

    def __init__(self, game: Game) -> None:
        self.sequence = SEQUENCE(game)
        self.phase_ids = tuple(slot.id for slot in self.sequence)
        """4.1: the ids of a game turn's phases in order."""
        self.sides = tuple(slot.side for slot in self.sequence)
        """Whose player turn each phase is of, as the sequence lists it (None outside the player turns)."""
        self.first_side = next((side for side in self.sides if side), None)
        """The side whose player turn the sequence lists first."""
        self.points: dict[tuple[int, int | None, str], SequencePoint] = {}
        """4.1's sequence points by game turn, phase and first player, as they are asked for."""
        self.labels = frozenset(game.grid.labels)
        """The map's hex labels (whether a place is a map hex is asked of every unit's place, often)."""
        names = list(game.manifest.value_names)
        self.movement_index = names.index("movement") if "movement" in names else None
        """Where the movement allowance stands in a unit's printed values (asked for every step priced)."""


TABLES: PerGame[GameTables] = PerGame(GameTables)
"""Each game's tables, built with its first state."""


@dataclass(frozen=True)
class FireAndMovementState:
    """The position and the sequence of play after an entry."""

    game: Game = field(repr=False, compare=False)
    scenario: str
    first_player: str
    turn: int
    phase: int | None
    location: dict[str, str]
    depleted: frozenset[str] = frozenset()
    moved: frozenset[str] = frozenset()
    """Units that have moved in this player turn (5.2, 5.5)."""
    moved_in_movement: frozenset[str] = frozenset()
    """Mobile units that moved in this player turn's Movement Phase (4.1, 5.5)."""
    attacked: frozenset[str] = frozenset()
    """Units that have attacked in this phase (8.2: strengths are unitary)."""
    defended: frozenset[str] = frozenset()
    """Units that have been attacked in this phase (8.0: one attack per phase)."""
    attacked_in_combat: frozenset[str] = frozenset()
    """Mobile units that attacked in this player turn's Combat Phase (4.1, 8.2)."""
    advanced: frozenset[str] = frozenset()
    """Units that advanced after combat this player turn and do nothing more in it (8.5)."""
    displaced: frozenset[str] = frozenset()
    """Units displaced this player turn (8.3.1: an attacker's displaced unit attacks no more)."""
    markers_used: tuple[str, ...] = ()
    """Support markers placed on combats this game turn, one entry per use (7.2)."""
    combat: FmCombat | None = None
    """The combat whose results the entries after its attack carry out (8.2.4-8.5)."""
    undone: FmCombat | None = None
    """A combat whose result was left undone when the next attack or bombardment was declared (8.0: one combat
    resolved before the next): its one error is on that entry, so its result carried out late, in the same phase,
    is judged against it (one breach, one error)."""
    bombarded: tuple[str, ...] = ()
    """The hex of every marker that has bombarded in this player turn (8.1: two a hex at most)."""
    overstacked: tuple[tuple[str, frozenset[str]], ...] = ()
    """Hexes over the stacking limit already reported (5.3), with their units: a lasting condition is
    one error, where it arises, until it is resolved (or another unit joins it)."""
    noted: frozenset[str] = frozenset()
    """Entry kinds already given the note that they are applied but not checked."""
    optional: frozenset[str] = frozenset()
    """Optional rules in force, from the log's `Optional` headers."""
    drawn: tuple[tuple[str, str], ...] = ()
    """(side, marker) drawn from a pool for the next combat or bombardment and not yet placed (7.2)."""
    tables: GameTables = field(init=False, repr=False, compare=False)
    """The game's tables (the same for every state of a game; `evolve` carries them)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", TABLES(self.game))


S = TypeVar("S", bound=FireAndMovementState)


def evolve(state: S, **changes: object) -> S:
    """The state with some fields changed: `dataclasses.replace` without re-running `__init__` over
    every field (a state changes with every entry, and the folio states have many fields)."""
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new
