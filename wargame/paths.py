"""Reachability and cheapest paths over hexes under a cost function (Dijkstra, early exit).

The rule systems use it for movement, retreat and supply paths: the cost function says what
entering a hex across a hexside costs (None when it is forbidden), `stops` says where a unit
must end its move (e.g. on entering an enemy zone of control).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from wargame.hexes import DIRECTIONS, Hex
from wargame.records import frozen

StepCost = Callable[[Hex, Hex], float | None]
"""Cost of stepping from the first hex into the adjacent second one; None = not allowed."""


@frozen
class Reach:
    """The result of a search: cheapest cost to every hex reached and how it was reached."""

    start: Hex
    cost: dict[Hex, float]
    came_from: dict[Hex, Hex]

    def __contains__(self, h: object) -> bool:
        return h in self.cost

    def path_to(self, goal: Hex) -> list[Hex]:
        """Cheapest path from start to goal, both included; KeyError if goal was not reached."""
        if goal not in self.cost:
            raise KeyError(goal)
        path = [goal]
        while path[-1] != self.start:
            path.append(self.came_from[path[-1]])
        path.reverse()
        return path


def reachable(
    start: Hex,
    step_cost: StepCost,
    budget: float | None = None,
    *,
    goal: Hex | None = None,
    stops: Callable[[Hex], bool] | None = None,
) -> Reach:
    """Every hex reachable from `start` within `budget` (None = unlimited).

    With `goal`, the search ends as soon as the goal's cheapest cost is known, and the result
    holds only the hexes settled by then (each with its cheapest cost). Hexes for which
    `stops` is true are entered but never left (the start hex is always left). Ties between
    paths of equal cost are settled by the order hexes leave the queue (cost, then q, then
    r), so results are deterministic.
    """
    cost: dict[Hex, float] = {start: 0}
    came_from: dict[Hex, Hex] = {}
    frontier: list[tuple[float, int, int]] = [(0, start.q, start.r)]
    done: set[Hex] = set()
    while frontier:
        spent, q, r = heapq.heappop(frontier)
        current = Hex(q, r)
        if current in done:
            continue
        done.add(current)
        if current == goal:
            # Only settled hexes have their cheapest cost; drop the provisional ones.
            cost = {h: c for h, c in cost.items() if h in done}
            came_from = {h: f for h, f in came_from.items() if h in done}
            break
        if stops is not None and current != start and stops(current):
            continue
        for dq, dr in DIRECTIONS:
            nxt = Hex(q + dq, r + dr)
            if nxt in done:
                continue
            step = step_cost(current, nxt)
            if step is None:
                continue
            total = spent + step
            if budget is not None and total > budget:
                continue
            known = cost.get(nxt)
            if known is None or total < known:
                cost[nxt] = total
                came_from[nxt] = current
                heapq.heappush(frontier, (total, nxt.q, nxt.r))
    return Reach(start, cost, came_from)


def cheapest_path(
    start: Hex,
    goal: Hex,
    step_cost: StepCost,
    budget: float | None = None,
    *,
    stops: Callable[[Hex], bool] | None = None,
) -> tuple[float, list[Hex]] | None:
    """Cost and hexes of the cheapest path from start to goal, or None if there is none."""
    reach = reachable(start, step_cost, budget, goal=goal, stops=stops)
    if goal not in reach.cost:
        return None
    return reach.cost[goal], reach.path_to(goal)
