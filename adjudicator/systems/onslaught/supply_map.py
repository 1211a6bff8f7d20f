"""Onslaught's supply map (8.1, 8.3-8.5): the sources, ports and links supply lines are traced over,
worked out once per game."""

from __future__ import annotations

from collections import deque

from adjudicator.systems.base import PerGame
from adjudicator.systems.onslaught.tables import map_tables
from wargame.game import Game
from wargame.hexes import Hex
from wargame.records import frozen


ALLIED = "Allied"
GERMAN = "German"

@frozen


class Port:
    """A port (8.1): its area id, hex label and hex, printed value, and enclosing port area."""

    id: str
    label: str
    hex: Hex
    value: int
    port_area: frozenset[Hex] | None


@frozen


class SupplyMap:
    """The map facts supply asks about, computed once per game."""

    links: dict[Hex, tuple[Hex, ...]]
    landing: tuple[tuple[str, Hex], ...]
    landing_value: int
    ports: tuple[Port, ...]
    fortified_ports: tuple[tuple[str, Hex], ...]
    east_edge: frozenset[Hex]
    entry_b: frozenset[Hex]

    @staticmethod
    def of(game: Game) -> SupplyMap:
        """The supply facts of a game, built once per game by the rule system (not set on `Game`)."""
        return _supply_maps(game)

    @staticmethod
    def build(game: Game) -> SupplyMap:
        """The supply facts of a game (8.3-8.5)."""
        tables = map_tables(game)
        grid = game.grid
        # 8.3: any traversable terrain, major waterways included; never a prohibited hex (sea,
        # neutral land), an impassable (sea) hexside or off the map: the map's passable links.
        links = tables.links
        areas = game.areas_by_id
        landing_area = areas["landing_hexes"]
        landing = tuple((label, grid.hex_of(label)) for label in landing_area.hexes)
        landing_value = landing_area.value if landing_area.value is not None else \
            int(game.parameter["landing_hex_supply"])
        port_areas = [game.area_hexes(a.id) for a in game.areas.area if a.kind == "port_area"]
        ports = []
        for area in game.areas.area:
            if area.kind != "port":
                continue
            (label,) = area.hexes
            h = grid.hex_of(label)
            enclosing = next((hexes for hexes in port_areas if h in hexes), None)
            ports.append(Port(area.id, label, h, area.value or 0, enclosing))
        fortified = tuple((grid.label_of(h), h) for h in sorted(game.area_hexes("fortified_ports"),
                                                                 key=grid.label_of))
        return SupplyMap(links, landing, landing_value, tuple(ports), fortified,
                         game.area_hexes("east_edge"), game.area_hexes("entry_b"))


_supply_maps = PerGame(SupplyMap.build)
"""Each game's supply facts, owned by the rule system."""


def _slopes(game: Game) -> dict[str, dict[Hex, tuple[Hex, ...]]]:
    """Each side's supply links (8.3) with each hex's neighbours ordered farthest first from the hexes
    that can ever be that side's sources (8.1, 8.4: landing hexes, ports, entry area B; the east edge,
    fortified ports), ties in map order: `supply.traces_to` takes the last pushed, the nearest, first."""
    supply_map = SupplyMap.of(game)
    links = supply_map.links
    possible = {ALLIED: {h for _, h in supply_map.landing} | {p.hex for p in supply_map.ports} | supply_map.entry_b,
                GERMAN: supply_map.east_edge | {h for _, h in supply_map.fortified_ports}}
    out: dict[str, dict[Hex, tuple[Hex, ...]]] = {}
    for side, hexes in possible.items():
        distance = {h: 0 for h in sorted(hexes) if h in links}
        queue = deque(distance)
        while queue:
            h = queue.popleft()
            for n in links[h]:
                if n not in distance:
                    distance[n] = distance[h] + 1
                    queue.append(n)
        far = len(links) + 1
        for h in links:
            distance.setdefault(h, far)  # cut off from every possible source: tried last
        out[side] = _Slope(links, distance)
    return out


class _Slope(dict[Hex, tuple[Hex, ...]]):
    """One side's supply links, each hex's neighbours ordered when the search first steps from it (a game's
    searches step from a part of the map only), farthest first from the side's possible sources."""

    def __init__(self, links: dict[Hex, tuple[Hex, ...]], distance: dict[Hex, int]) -> None:
        super().__init__()
        self._links = links
        self._distance = distance

    def __missing__(self, h: Hex) -> tuple[Hex, ...]:
        # reverse=True keeps ties in map order (the sort stays stable).
        ordered = self[h] = tuple(sorted(self._links[h], key=self._distance.__getitem__, reverse=True))
        return ordered


toward_sources = PerGame(_slopes)
"""Each side's supply links, nearest first to its possible sources (`supply.traces_to` searches them)."""
