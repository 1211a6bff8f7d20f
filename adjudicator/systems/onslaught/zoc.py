"""Zones of control (6.2) and the distances 6.4 counts from enemy divisions."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.systems.onslaught.state import OnslaughtState, enemy_of, occupants
from adjudicator.systems.onslaught.tables import map_tables, zone_at
from wargame.hexes import Hex


def zone_of_control(state: OnslaughtState, side: str) -> frozenset[Hex]:
    """Hexes in the zone of control of `side`'s divisions (6.2: not across sea hexsides),
    computed once per state and side from each hex's precomputed zone."""
    cached = state._zoc.get(side)
    if cached is None:
        game = state.game
        units = game.units_by_id
        # Each hex's zone once, however many of the side's divisions stand in it.
        held = {where for unit_id, where in state.location.items() if units[unit_id].side == side}
        out: set[Hex] = set()
        for where in held:
            zone = zone_at(game, where)
            if zone is not None:
                out |= zone
        cached = state._zoc[side] = frozenset(out)
    return cached


def near_enemy(state: OnslaughtState, side: str) -> frozenset[Hex]:
    """Hexes within two movement points of an enemy division, counted as 6.4 says: units,
    ZOC, waterways and terrain ignored, but not coastlines and sea or impassable hexsides."""
    enemy = enemy_of(state, side)
    # Once per position and side: the enemy does not move while a side's divisions move (6.4, 5.0).
    cached = state._near.get(enemy)
    if cached is None:
        cached = state._near[enemy] = frozenset(
            within_two(state, (h for h, owner in occupants(state).items() if owner == enemy)))
    return cached


def within_two(state: OnslaughtState, starts: Iterable[Hex]) -> set[Hex]:
    """Hexes at most two movement points from any of `starts`, counted as 6.4 counts (11.4 too):
    the union of each start's own neighbourhood, which the tables keep once computed."""
    tables = map_tables(state.game)
    out: set[Hex] = set()
    for h in starts:
        out |= tables.within_two(h)
    return out
