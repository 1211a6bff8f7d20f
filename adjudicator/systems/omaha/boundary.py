"""The scenario's playable area (10.1): the hexes a unit may stand on, bounded by the
boundary lines of the map's data."""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import Advance, Move, Place, Retreat
from adjudicator.systems.fire_and_movement.movement import BARRED
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import Beyond, OmahaState
from wargame.game import Game
from wargame.hexes import Hex


def out_of_play(game: Game, seed_area: str = "omaha_beach") -> frozenset[Hex]:
    """The land hexes beyond the scenario's boundary (10.1): none when the map sets no boundary."""
    region = playable(game, seed_area)
    if region is None:
        return frozenset()
    barred = BARRED(game)
    hex_of = game.grid.hex_of
    return frozenset(h for h in (hex_of(r.hex) for _, r in game.hexes) if h not in region and h not in barred)


def beyond(game: Game) -> Beyond:
    """The hexes beyond the scenario's boundary (10.1) with their labels."""
    hexes = out_of_play(game)
    label = game.grid.label_of
    return Beyond(hexes, frozenset(label(h) for h in hexes))


def playable(game: Game, seed_area: str = "omaha_beach") -> frozenset[Hex] | None:
    """The land hexes reachable from the seed area without crossing a boundary line: a line of
    hexsides (a river) is never crossed; a line of hexes is the last playable hex of its column,
    so the way never leads on out of one of them. None when the map has no boundary."""
    lines = [line for line in game.areas.line if line.kind == "boundary"]
    area = game.areas_by_id.get(seed_area)
    if not lines or area is None:
        return None
    grid = game.grid
    # Walls as each of their hexes' closed neighbours, and the hexes no unit stands on found once:
    # the search asks of thousands of steps, without a Hexside built for each.
    walled: dict[Hex, set[Hex]] = {}
    for line in lines:
        for side in line.hexsides:
            a, b = (grid.hex_of(label) for label in side.split("-"))
            walled.setdefault(a, set()).add(b)
            walled.setdefault(b, set()).add(a)
    edge = {grid.hex_of(label) for line in lines for label in line.hexes}
    barred = BARRED(game)
    around = game.grid.neighbour_map
    none: set[Hex] = set()

    seen = {grid.hex_of(label) for label in area.hexes}
    todo = [h for h in seen if h not in edge]
    while todo:
        h = todo.pop()
        walls = walled.get(h, none)
        for n in around[h]:
            if n in seen or n in barred or n in walls:
                continue
            seen.add(n)
            if n not in edge:  # the boundary's hexes are played on, never passed beyond
                todo.append(n)
    return frozenset(seen)


class ScenarioBoundary(Area):
    """10.1: no unit west of the scenario boundary (not in the campaign game, 14.0 a)."""

    def off_limits(self, state: OmahaState) -> frozenset[Hex]:
        """10.1: retreats never count a hex beyond the boundary as open."""
        return state.beyond.hexes

    def _check_boundary(self, state: OmahaState, entry: Move | Retreat | Advance | Place) -> list[Finding]:
        """10.1: no unit sets up, arrives or moves (retreats and advances too) west of the Douve and
        Taute or of the boundary's line of hexes."""
        labels = list(entry.path) if isinstance(entry, (Move, Retreat, Advance)) else \
            [entry.hex] if entry.hex is not None else []
        if state.beyond.labels.isdisjoint(labels):
            return []
        west = [label for label in labels if self.rules._out_of_play(state, label)]
        if not west:
            return []
        unit = getattr(entry, "unit", "")
        return [self._f("error", "10.1", entry, f"{unit} enters {west[0]}, west of the scenario boundary (the "
                                                "Douve and Taute from 2108 to 0805, and the hexes 0705 to 0104)")]
