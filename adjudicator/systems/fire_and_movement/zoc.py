"""Zones of control (6.0, 6.1 exceptions): where a side's enemies exert one, and the terrain a unit
never moves across from one enemy zone into another."""

from __future__ import annotations

import weakref

from adjudicator.findings import Finding
from adjudicator.notation.entries import Move
from adjudicator.systems.fire_and_movement.base import EnemyTables, SeriesArea, SeriesRules
from adjudicator.systems.fire_and_movement.state import FireAndMovementState, S
from wargame.game import Game
from wargame.hexes import Hex, Hexside

IGNORE_EZOC = frozenset({"ranger", "commando"})
"""6.1 exception (and Omaha 11.2.3): unit types that pay nothing extra for EZOC and are never stopped by it."""


class ZonesOfControl(SeriesArea[S]):
    """6.0: the six hexes around each unit that exerts a zone, across every terrain."""

    def __init__(self, rules: SeriesRules[S]) -> None:
        super().__init__(rules)
        self._enemies: dict[str, EnemyTables] = {}
        """Each side's enemy zones of control and the hexes its enemies hold, with the location mapping and
        game they were worked out for."""

    def ezoc(self, state: S, side: str) -> frozenset[Hex]:
        """Hexes in the zone of control of the enemies of `side` (6.0): the six hexes around each
        enemy unit that exerts one, across every terrain."""
        # The zones are worked out once for a location mapping, and kept while only `side`'s units move.
        tables = self._enemy_tables(state, side)
        if tables.zone is not None:
            return tables.zone
        grid = state.game.grid
        units = state.game.units_by_id
        out: set[Hex] = set()
        around = state.game.grid.neighbour_map
        labels = state.tables.labels
        for unit_id, where in state.location.items():
            unit = units[unit_id]
            if unit.side != side and unit.zoc and where in labels:
                out.update(around[grid.hex_of(where)])
        tables.zone = frozenset(out)
        return tables.zone

    def _enemy_tables(self, state: S, side: str) -> EnemyTables:
        """The tables of `side`'s enemies' places for this state: the last ones while only `side`'s units
        have moved since, else empty ones to fill."""
        cached = self._enemies.get(side)
        if cached is not None and _enemies_stayed(cached, state, side):
            cached.location = state.location
            return cached
        fresh = self._enemies[side] = EnemyTables(state.location, weakref.ref(state.game))
        return fresh

    def zones_of_control(self, state: S, side: str) -> frozenset[str]:
        """The hexes in the zones of control `side`'s units exert (6.0): the enemy zones of its enemies."""
        label = state.game.grid.label_of
        return frozenset(label(h) for h in self.ezoc(state, self.rules.enemy(state, side)))

    @staticmethod
    def is_ezoc_barrier(game: Game, a: Hex, b: Hex) -> bool:
        """6.1 exception: a minefield hexside or a fortification, never crossed from one EZOC into another."""
        return "minefield" in game.hexside_features.get(Hexside.between(a, b), frozenset()) or \
            "fortification" in game.hex_terrain.get(b, ())

    def enemy_hexes(self, state: S, side: str) -> frozenset[Hex]:
        """The map hexes units of `side`'s enemies hold (kept, like the zones, for the location mapping)."""
        tables = self._enemy_tables(state, side)
        if tables.held is not None:
            return tables.held
        grid = state.game.grid
        units = state.game.units_by_id
        labels = state.tables.labels
        tables.held = frozenset([grid.hex_of(w) for u, w in state.location.items()
                                 if units[u].side != side and w in labels])
        return tables.held

    def _fortified_ezoc(self, state: S, entry: Move, a: Hex, b: Hex) -> list[Finding]:
        """6.1 exception: never EZOC to EZOC across a minefield hexside or into a fortification."""
        game = state.game
        if self.is_ezoc_barrier(game, a, b):
            return [self._f("error", "6.1", entry, f"{entry.unit} moves from one enemy zone of control into another "
                                                   f"across a minefield or into a fortification at "
                                                   f"{game.grid.label_of(b)}")]
        return []


def _enemies_stayed(cached: EnemyTables, state: FireAndMovementState, side: str) -> bool:
    """Whether a table of `side`'s enemies, worked out for a location mapping of the same game, still
    holds: only units of `side` have changed place since (a move changes its own side's places only)."""
    before = cached.location
    if before is state.location:
        return True
    if cached.game() is not state.game:
        return False
    units = state.game.units_by_id
    return all(units[unit_id].side == side for unit_id, _ in before.items() ^ state.location.items())
