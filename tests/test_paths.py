"""Reachability and cheapest paths: golden hand maps, and properties against a brute-force oracle."""

from __future__ import annotations

from collections.abc import Callable, Collection

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.hexes import Hex, Hexside
from wargame.paths import StepCost, cheapest_path, reachable

ORIGIN = Hex(0, 0)
FAST = settings(max_examples=150, deadline=None)


def uniform(a: Hex, b: Hex) -> float:
    """Every step costs 1."""
    return 1


def on_map(hexes: Collection[Hex], cost: float = 1) -> StepCost:
    """Steps cost `cost` within `hexes` and are forbidden outside them."""
    return lambda a, b: cost if b in hexes else None


def oracle(start: Hex, hexes: Collection[Hex], step_cost: StepCost, stops: Callable[[Hex], bool] | None = None
           ) -> dict[Hex, float]:
    """Cheapest costs by Bellman-Ford relaxation over a finite map (slow, obviously right)."""
    best: dict[Hex, float] = {start: 0}
    changed = True
    while changed:
        changed = False
        for a in list(best):
            if a != start and stops is not None and stops(a):
                continue
            for b in a.neighbours():
                if b not in hexes:
                    continue
                step = step_cost(a, b)
                if step is None:
                    continue
                if best[a] + step < best.get(b, float("inf")):
                    best[b] = best[a] + step
                    changed = True
    return best


def check_path(path: list[Hex], start: Hex, goal: Hex, step_cost: StepCost, cost: float) -> None:
    """The path runs from start to goal through adjacent, allowed steps that add up to `cost`."""
    assert path[0] == start and path[-1] == goal
    total = 0.0
    for a, b in zip(path, path[1:]):
        assert a.is_adjacent(b)
        step = step_cost(a, b)
        assert step is not None
        total += step
    assert total == pytest.approx(cost)


# -- golden hand maps ---------------------------------------------------------------------
def test_uniform_reach_is_the_spiral() -> None:
    """With cost 1 per hex and budget k, exactly the hexes within k are reached, at their distance."""
    for k in range(5):
        reach = reachable(ORIGIN, uniform, budget=k)
        assert set(reach.cost) == set(ORIGIN.spiral(k))
        assert all(cost == ORIGIN.distance(h) for h, cost in reach.cost.items())
    assert set(reachable(ORIGIN, uniform, budget=2.5).cost) == set(ORIGIN.spiral(2))
    assert set(reachable(ORIGIN, lambda a, b: 0.5, budget=1).cost) == set(ORIGIN.spiral(2))
    assert set(reachable(ORIGIN, uniform, budget=0).cost) == {ORIGIN}


def test_unlimited_budget_on_a_bounded_map() -> None:
    """Without a budget the whole connected map is reached."""
    hexes = set(Hex(2, -1).spiral(4))
    reach = reachable(Hex(2, -1), on_map(hexes))
    assert set(reach.cost) == hexes
    assert max(reach.cost.values()) == 4


def test_impassable_hexes_are_avoided() -> None:
    """A wall at (1, 0) and (1, -1) forces the only three-step route, south of it."""
    wall = {Hex(1, 0), Hex(1, -1)}
    hexes = set(ORIGIN.spiral(4)) - wall
    result = cheapest_path(ORIGIN, Hex(2, 0), on_map(hexes))
    assert result == (3, [ORIGIN, Hex(0, 1), Hex(1, 1), Hex(2, 0)])
    reach = reachable(ORIGIN, on_map(hexes))
    assert not wall & set(reach.cost)
    assert not wall & set(reach.came_from.values())


def test_unreachable_gives_none() -> None:
    """A ring of impassable hexes, or too small a budget, leaves the goal unreachable."""
    hexes = set(ORIGIN.spiral(3)) - set(ORIGIN.ring(1))
    assert cheapest_path(ORIGIN, Hex(2, 0), on_map(hexes)) is None
    assert set(reachable(ORIGIN, on_map(hexes)).cost) == {ORIGIN}
    assert cheapest_path(ORIGIN, Hex(3, 0), uniform, budget=2) is None
    assert cheapest_path(ORIGIN, Hex(3, 0), uniform, budget=3) == (3, [ORIGIN, Hex(1, 0), Hex(2, 0), Hex(3, 0)])
    with pytest.raises(KeyError):
        reachable(ORIGIN, uniform, budget=1).path_to(Hex(3, 0))


def test_goal_is_start() -> None:
    """The path from a hex to itself costs nothing."""
    assert cheapest_path(ORIGIN, ORIGIN, uniform) == (0, [ORIGIN])


def test_stops_are_entered_but_not_left() -> None:
    """In a one-hex-wide corridor a stop hex ends the move; the start is always left."""
    corridor = {Hex(q, 0) for q in range(5)}
    reach = reachable(ORIGIN, on_map(corridor), stops=lambda h: h == Hex(2, 0))
    assert reach.cost == {Hex(0, 0): 0, Hex(1, 0): 1, Hex(2, 0): 2}
    assert cheapest_path(ORIGIN, Hex(4, 0), on_map(corridor), stops=lambda h: h == Hex(2, 0)) is None
    assert cheapest_path(ORIGIN, Hex(2, 0), on_map(corridor), stops=lambda h: h == Hex(2, 0)) == (
        2, [ORIGIN, Hex(1, 0), Hex(2, 0)],
    )
    # Every hex is a stop (say, all in enemy zones of control): one step from the start and no more.
    everywhere = reachable(ORIGIN, uniform, budget=5, stops=lambda h: True)
    assert set(everywhere.cost) == set(ORIGIN.spiral(1))


def test_stops_force_a_detour() -> None:
    """A stop hex on the straight route is entered, but the goal beyond is reached around it."""
    hexes = set(ORIGIN.spiral(3))
    zoc = {Hex(1, 0)}
    result = cheapest_path(ORIGIN, Hex(2, 0), on_map(hexes), stops=lambda h: h in zoc)
    assert result is not None
    cost, path = result
    assert cost == 3 and Hex(1, 0) not in path
    assert reachable(ORIGIN, on_map(hexes), stops=lambda h: h in zoc).cost[Hex(1, 0)] == 1


def test_step_cost_is_directional() -> None:
    """step_cost gets (from, to): climbing onto the ridge costs 3, coming down costs 1."""
    ridge = {Hex(1, 0)}

    def climb(a: Hex, b: Hex) -> float:
        return 3 if b in ridge and a not in ridge else 1

    assert cheapest_path(ORIGIN, Hex(1, 0), climb) == (3, [ORIGIN, Hex(1, 0)])
    assert cheapest_path(Hex(1, 0), ORIGIN, climb) == (1, [Hex(1, 0), ORIGIN])


def test_hexside_costs() -> None:
    """A river hexside (cost +2 to cross) is walked around when that is cheaper."""
    river = Hexside.between(ORIGIN, Hex(1, 0))

    def crossing(a: Hex, b: Hex) -> float:
        return 3 if Hexside.between(a, b) == river else 1

    assert cheapest_path(ORIGIN, Hex(1, 0), crossing) == (2, [ORIGIN, Hex(0, 1), Hex(1, 0)])


def test_equal_cost_ties_take_the_smallest_hex() -> None:
    """Of the two two-step paths to (1, 1), the one through (0, 1) < (1, 0) wins."""
    assert cheapest_path(ORIGIN, Hex(1, 1), uniform) == (2, [ORIGIN, Hex(0, 1), Hex(1, 1)])
    assert cheapest_path(Hex(1, 1), ORIGIN, uniform) == (2, [Hex(1, 1), Hex(0, 1), ORIGIN])


def test_deterministic() -> None:
    """The same search twice gives identical costs, predecessors and paths."""
    hexes = set(ORIGIN.spiral(6)) - {Hex(1, 1), Hex(-2, 3), Hex(0, -3)}

    def varied(a: Hex, b: Hex) -> float | None:
        return None if b not in hexes else (2 if (b.q * 7 + b.r * 3) % 4 == 0 else 1)

    first = reachable(ORIGIN, varied, budget=7)
    second = reachable(ORIGIN, varied, budget=7)
    assert first.cost == second.cost
    assert first.came_from == second.came_from
    assert list(first.cost) == list(second.cost)
    assert all(first.path_to(h) == second.path_to(h) for h in first.cost)


# -- properties ---------------------------------------------------------------------------
SMALL_MAP = tuple(ORIGIN.spiral(4))  # 61 hexes


@st.composite
def terrain(draw: st.DrawFn) -> dict[Hex, float | None]:
    """Entry costs for every hex of a radius-4 map: 1, 2, 3 or impassable."""
    costs = draw(st.lists(st.sampled_from([1, 1, 2, 3, None]), min_size=len(SMALL_MAP), max_size=len(SMALL_MAP)))
    return dict(zip(SMALL_MAP, costs))


def entry_cost(costs: dict[Hex, float | None]) -> StepCost:
    """Step cost = the entered hex's cost; off the map forbidden."""
    return lambda a, b: costs.get(b)


@FAST
@given(st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50)), st.integers(0, 6))
def test_uniform_cost_equals_distance(start: Hex, budget: int) -> None:
    """With no obstacles, the cost to every reached hex is its hex distance."""
    reach = reachable(start, uniform, budget=budget)
    assert set(reach.cost) == set(start.spiral(budget))
    assert all(cost == start.distance(h) for h, cost in reach.cost.items())
    assert all(len(reach.path_to(h)) == start.distance(h) + 1 for h in reach.cost)


@FAST
@given(terrain(), st.sampled_from(SMALL_MAP), st.none() | st.integers(0, 8))
def test_costs_match_the_oracle(costs: dict[Hex, float | None], start: Hex, budget: int | None) -> None:
    """Dijkstra's costs equal Bellman-Ford's, cut at the budget, and every path adds up."""
    step_cost = entry_cost(costs)
    expected = oracle(start, set(SMALL_MAP), step_cost)
    if budget is not None:
        expected = {h: c for h, c in expected.items() if c <= budget}
    reach = reachable(start, step_cost, budget)
    assert reach.cost == expected
    for h, cost in reach.cost.items():
        check_path(reach.path_to(h), start, h, step_cost, cost)


@FAST
@given(terrain(), st.sampled_from(SMALL_MAP), st.sets(st.sampled_from(SMALL_MAP), max_size=12))
def test_stops_match_the_oracle(costs: dict[Hex, float | None], start: Hex, stop_hexes: set[Hex]) -> None:
    """With stop hexes, costs equal an oracle that never leaves a stop hex other than the start."""
    step_cost = entry_cost(costs)
    stops = stop_hexes.__contains__
    reach = reachable(start, step_cost, stops=stops)
    assert reach.cost == oracle(start, set(SMALL_MAP), step_cost, stops)
    for h in reach.cost:
        path = reach.path_to(h)
        assert not any(p in stop_hexes for p in path[1:-1])


@FAST
@given(terrain(), st.sampled_from(SMALL_MAP), st.sampled_from(SMALL_MAP), st.none() | st.integers(0, 8))
def test_early_exit_agrees_with_full_search(
    costs: dict[Hex, float | None], start: Hex, goal: Hex, budget: int | None
) -> None:
    """Stopping at the goal gives the same cost as the full search, and None exactly when unreached."""
    step_cost = entry_cost(costs)
    full = reachable(start, step_cost, budget)
    result = cheapest_path(start, goal, step_cost, budget)
    if goal not in full:
        assert result is None
        return
    assert result is not None
    cost, path = result
    assert cost == full.cost[goal]
    check_path(path, start, goal, step_cost, cost)
    assert cheapest_path(start, goal, step_cost, budget) == result


def test_early_exit_keeps_only_settled_hexes() -> None:
    """With a goal, every hex in the result has its true cheapest cost (no provisional ones)."""
    board = set(Hex(0, 0).spiral(3))
    river = Hexside.between(Hex(0, 0), Hex(1, 0))

    def cost(a: Hex, b: Hex) -> float | None:
        if b not in board:
            return None
        return 5 if Hexside.between(a, b) == river else 1

    early = reachable(Hex(0, 0), cost, goal=Hex(0, 1))
    full = reachable(Hex(0, 0), cost)
    assert Hex(0, 1) in early
    for h, c in early.cost.items():
        assert c == full.cost[h], h
    assert Hex(1, 0) not in early  # only reached provisionally (5) before the goal settled
