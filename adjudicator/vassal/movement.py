"""A path for a move VASSAL recorded only by its end points: the cheapest one the terrain chart
allows, kept out of enemy zones of control the way most hex wargames ask.

VASSAL logs a drag as where the counter was picked up and where it was dropped. The reader
hands the rule system a whole path so the move can be checked at all; this module chooses it
from the game's own data (terrain movement costs, prohibited hexes and hexsides, zones of
control), never from one rule system's code, and says so in the translated log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.paths import cheapest_path

ZocRule = Literal["stop", "avoid", "ignore"]
"""`stop`: a unit entering an enemy zone of control stops there and may not move from one
into another (a move); `avoid`: it may not enter one at all (a retreat); `ignore` (an advance)."""


def _entry_cost(game: Game, a: Hex, b: Hex) -> float | None:
    """Movement points to step from a into adjacent b as the terrain chart reads; None if forbidden."""
    # A hex costs its dearest terrain's mp_cost (1 when none says) plus every mp_add; a hexside
    # feature with an mp_cost of its own (a road, a trail) is a route whose rate replaces all that
    # (the charts' notes: "whatever the other terrain"), the cheapest route when several.
    terrain = game.terrain
    kinds = game.hex_terrain.get(b)
    features = game.hexside_features.get(Hexside.between(a, b), frozenset())
    if kinds is None or any(terrain[t].prohibited for t in (*kinds, *features)):
        return None
    routes = [rate for f in features if (rate := terrain[f].mp_cost) is not None]
    if routes:
        return float(min(routes))
    cost = max((float(c) for t in kinds if (c := terrain[t].mp_cost) is not None), default=1.0)
    return cost + sum(float(terrain[t].mp_add or 0) for t in (*kinds, *features))


def enemy_zone(game: Game, enemy_hexes: Iterable[Hex]) -> frozenset[Hex]:
    """Each enemy hex and its neighbours not across a hexside that blocks zones of control."""
    terrain = game.terrain
    features = game.hexside_features
    out: set[Hex] = set()
    for h in enemy_hexes:
        out.add(h)
        for n in game.grid.neighbours_on_map(h):
            if not any(terrain[f].blocks_zoc for f in features.get(Hexside.between(h, n), frozenset())):
                out.add(n)
    return frozenset(out)


def cheapest_route(game: Game, start: Hex, goal: Hex, side: str, positions: dict[str, Hex],
                   zoc: ZocRule = "stop") -> list[Hex] | None:
    """The cheapest path from start to goal for a unit of `side` among the units at `positions`, or None."""
    units = game.units_by_id
    enemy = {h for u, h in positions.items() if u in units and units[u].side != side}
    zone = enemy_zone(game, (h for u, h in positions.items() if u in units and units[u].side != side
                             and units[u].zoc)) if zoc != "ignore" else frozenset()

    def step(a: Hex, b: Hex) -> float | None:
        if b in enemy or b not in game.grid:
            return None
        if zoc == "avoid" and b in zone:
            return None
        if zoc == "stop" and a == start and a in zone and b in zone:
            return None
        return _entry_cost(game, a, b)

    found = cheapest_path(start, goal, step, stops=(lambda h: h in zone) if zoc == "stop" else None)
    return None if found is None else found[1]
