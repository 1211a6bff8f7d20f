"""Map facts the Onslaught checks ask thousands of times (6.1-6.5), computed once per game."""

from __future__ import annotations

from collections import deque
from dataclasses import field
from functools import cached_property

from adjudicator.systems.base import PerGame
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.records import frozen


@frozen


class MapTables:
    """Map facts the checks ask thousands of times, computed once per game."""

    passable: frozenset[Hex]
    impassable_sides: frozenset[Hexside]
    zoc_blocked: frozenset[Hexside]
    waterways: frozenset[Hexside]
    scheldt: frozenset[Hexside]
    """6.5: the major waterway hexsides of the Scheldt estuary, which German divisions cannot cross freely."""
    zone: dict[str, frozenset[Hex]]
    """Map hexes' zones of control by label: the hex and its neighbours not across the sea (6.2), filled
    in as they are asked for (`zone_at`)."""
    neighbours: dict[Hex, tuple[Hex, ...]]
    """Each map hex's neighbours on the map (the grid's `neighbour_map`)."""
    near: dict[Hex, frozenset[Hex]] = field(default_factory=dict)
    """Hexes within two movement points of a hex (6.4), filled in as they are asked for."""

    @cached_property
    def links(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each passable hex's neighbours a division or a supply line may step into: passable, not across
        an impassable hexside (6.1, 8.3), in map order."""
        impassable = self.impassable_sides
        passable = self.passable
        around = self.neighbours
        # Only the few hexes along an impassable hexside have a step to leave out.
        bordering = {h for side in impassable for h in side}
        out: dict[Hex, tuple[Hex, ...]] = {}
        for h in sorted(passable):
            near = [n for n in around[h] if n in passable]
            if h in bordering:
                # Neighbours are adjacent by construction: the hexside is the ordered pair (a Hexside equals its tuple).
                near = [n for n in near if ((h, n) if h < n else (n, h)) not in impassable]
            out[h] = tuple(near)
        return out

    def within_two(self, start: Hex) -> frozenset[Hex]:
        """The hexes one or two movement points from `start`, and `start` (6.4: over land, not across
        sea or impassable hexsides; units, ZOC, waterways and other terrain ignored)."""
        cached = self.near.get(start)
        if cached is None and start in self.links:
            # Two rings of the passable links (the same steps as below, without a Hex built per neighbour).
            links = self.links
            ring = links[start]
            seen = {start, *ring}
            for n in ring:
                seen.update(links[n])
            cached = self.near[start] = frozenset(seen)
        elif cached is None:
            frontier = deque([(start, 0)])
            seen = {start}
            while frontier:
                h, d = frontier.popleft()
                if d == 2:
                    continue
                for n in h.neighbours():
                    if n in seen or n not in self.passable or ((h, n) if h < n else (n, h)) in self.impassable_sides:
                        continue
                    seen.add(n)
                    frontier.append((n, d + 1))
            cached = self.near[start] = frozenset(seen)
        return cached


def _build_tables(game: Game) -> MapTables:
    """The map tables of a game, computed once."""
    terrain = game.terrain
    # The terrain ids that prohibit entry or crossing (6.1) or block ZOC (6.2), asked of each hex and hexside.
    prohibited = frozenset(t for t, kind in terrain.items() if kind.prohibited)
    blocks_zoc = frozenset(t for t, kind in terrain.items() if kind.blocks_zoc)
    passable = frozenset(h for h, ts in game.hex_terrain.items() if prohibited.isdisjoint(ts))
    sides = game.hexside_features
    impassable = frozenset(s for s, fs in sides.items() if not prohibited.isdisjoint(fs))
    blocked = frozenset(s for s, fs in sides.items() if not blocks_zoc.isdisjoint(fs))
    waterways = frozenset(s for s, fs in sides.items() if "major_waterway" in fs)
    estuary = game.lines_by_id.get("scheldt_estuary")
    scheldt = frozenset(game.grid.parse_hexside(label) for label in estuary.hexsides) if estuary else frozenset()
    return MapTables(passable, impassable, blocked, waterways, scheldt, {}, game.grid.neighbour_map)


def zone_at(game: Game, label: str) -> frozenset[Hex] | None:
    """The zone of control a division exerts from a place (6.2): the hex and its neighbours not across
    a hexside that blocks ZOC; None for a box or track space. Worked out once per hex, when first asked."""
    tables = map_tables(game)
    zone = tables.zone.get(label)
    if zone is None:
        h = hex_by_label(game).get(label)
        if h is None:
            return None
        blocked = tables.zoc_blocked
        # Neighbours are adjacent by construction: the hexside is the ordered pair (a Hexside equals its tuple).
        zone = tables.zone[label] = frozenset([h, *(n for n in game.grid.neighbours_on_map(h)
                                                    if ((h, n) if h < n else (n, h)) not in blocked)])
    return zone


map_tables = PerGame(_build_tables)
"""The map tables of a game, built on the first request and owned by the rule system (not set on `Game`)."""


def _labels(game: Game) -> dict[str, Hex]:
    """Every map hex by its label."""
    return {game.grid.label_of(h): h for h in game.grid.hexes}


hex_by_label = PerGame(_labels)
"""Every map hex by its label, per game (looked up for every division of every state)."""


def area_of(game: Game, area_id: str) -> frozenset[Hex]:
    """Every hex of an area, members included (`Game.area_hexes`), worked out once per game and area:
    10.2's placements and 13.3's scoring ask for the same areas again and again."""
    areas = _areas(game)
    hexes = areas.get(area_id)
    if hexes is None:
        hexes = areas[area_id] = game.area_hexes(area_id)
    return hexes


_areas: PerGame[dict[str, frozenset[Hex]]] = PerGame(lambda game: {})
"""Each game's areas asked for so far, by id."""
