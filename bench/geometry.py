"""Benchmark of hex geometry on a 40x50 flat grid (2,000 hexes).

Measures, as the median of `--runs` runs timed with time.perf_counter:
- conversions per second over every hex of the grid: label -> hex (`Grid.hex_of`),
  hex -> label (`Grid.label_of`), hex -> pixel (`Layout.centre`), pixel -> hex
  (`Layout.pixel_to_hex`) at hex centres and at points near a corner (the slow path that
  checks the neighbours);
- a full-map reachability sweep (`paths.reachable` from the centre hex, unlimited budget,
  some hexes costing 2, a few forbidden, nothing off the map), in ms.
Machines are noisy, so each figure comes with a baseline measured in the same run and the
ratio to it: hashing every hex into a dict for the conversions, a plain breadth-first search
over the same map for the sweep.

Run: python bench/geometry.py [--runs N]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

# Run as a script from a checkout: put the project root (not bench/) on the import path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from wargame.grid import Grid, GridSpec  # noqa: E402
from wargame.hexes import Hex  # noqa: E402
from wargame.layout import Layout  # noqa: E402
from wargame.paths import reachable  # noqa: E402
from timing import median_seconds  # noqa: E402

COLUMNS, ROWS = 40, 50
SIZE_PX, MARGIN_PX = 32.0, 12.0
PASSES = 5  # passes over the whole grid in one timed run of a conversion


def make_costs(grid: Grid) -> dict[Hex, float | None]:
    """Entry cost of every map hex: mostly 1, about a quarter 2, about 3% forbidden."""
    costs: dict[Hex, float | None] = {}
    for column, row in (grid.numbers_of(h) for h in grid.hexes):
        h = grid.hex_at(column, row)
        if (column * 7 + row * 11) % 31 == 0:
            costs[h] = None
        elif (column * 3 + row * 5) % 4 == 0:
            costs[h] = 2
        else:
            costs[h] = 1
    return costs


def breadth_first(start: Hex, costs: dict[Hex, float | None]) -> dict[Hex, int]:
    """Steps to every hex reachable over passable map hexes (the sweep's baseline)."""
    steps = {start: 0}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for n in current.neighbours():
            if n not in steps and costs.get(n) is not None:
                steps[n] = steps[current] + 1
                queue.append(n)
    return steps


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median reported)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    runs: int = args.runs

    grid = Grid(GridSpec(orientation="flat", columns=COLUMNS, rows=ROWS))
    layout = Layout.for_grid(grid, SIZE_PX, MARGIN_PX)
    hexes = grid.hexes
    labels = grid.labels
    centres = [layout.centre(h) for h in hexes]
    # 0.95 of the way to a corner: outside the inner circle, so the neighbours are checked.
    near_corners = [
        (cx + 0.95 * (x - cx), cy + 0.95 * (y - cy))
        for (cx, cy), (x, y) in zip(centres, (layout.corners(h)[k % 6] for k, h in enumerate(hexes)))
    ]
    assert [layout.pixel_to_hex(x, y) for x, y in near_corners] == list(hexes)
    n = len(hexes)

    def hash_all() -> None:
        for _ in range(PASSES):
            {h: i for i, h in enumerate(hexes)}

    def labels_to_hexes() -> None:
        for _ in range(PASSES):
            for label in labels:
                grid.hex_of(label)

    def hexes_to_labels() -> None:
        for _ in range(PASSES):
            for h in hexes:
                grid.label_of(h)

    def hexes_to_pixels() -> None:
        for _ in range(PASSES):
            for h in hexes:
                layout.centre(h)

    def pixels_to_hexes(points: list[tuple[float, float]]) -> Callable[[], None]:
        def convert() -> None:
            for _ in range(PASSES):
                for x, y in points:
                    layout.pixel_to_hex(x, y)
        return convert

    costs = make_costs(grid)
    start = grid.hex_at(COLUMNS // 2, ROWS // 2)
    assert costs[start] is not None

    def sweep() -> None:
        reachable(start, lambda a, b: costs.get(b))

    def baseline_search() -> None:
        breadth_first(start, costs)

    reach = reachable(start, lambda a, b: costs.get(b))
    assert set(reach.cost) == set(breadth_first(start, costs))

    print(f"hex geometry benchmark: {COLUMNS}x{ROWS} flat grid, {n} hexes, median of {runs} runs")
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print()
    base = median_seconds(hash_all, runs)
    base_rate = PASSES * n / base
    print(f"{'conversion':<28} {'per second':>12} {'us each':>9} {'x baseline':>11}")
    print(f"{'baseline: hash hex into dict':<28} {base_rate:>12,.0f} {1e6 / base_rate:>9.3f} {1.0:>11.1f}")
    for name, task in [
        ("label -> hex", labels_to_hexes),
        ("hex -> label", hexes_to_labels),
        ("hex -> pixel", hexes_to_pixels),
        ("pixel -> hex (centres)", pixels_to_hexes(centres)),
        ("pixel -> hex (near corners)", pixels_to_hexes(near_corners)),
    ]:
        rate = PASSES * n / median_seconds(task, runs)
        print(f"{name:<28} {rate:>12,.0f} {1e6 / rate:>9.3f} {base_rate / rate:>11.1f}")
    print()
    forbidden = sum(1 for c in costs.values() if c is None)
    doubled = sum(1 for c in costs.values() if c == 2)
    sweep_ms = median_seconds(sweep, runs) * 1e3
    bfs_ms = median_seconds(baseline_search, runs) * 1e3
    print(f"reachability sweep from {grid.label_of(start)}: {len(reach.cost)} hexes reached "
          f"({doubled} cost 2, {forbidden} forbidden), max cost {max(reach.cost.values()):g}")
    print(f"{'search':<28} {'ms':>12} {'x baseline':>11}")
    print(f"{'baseline: breadth-first':<28} {bfs_ms:>12.2f} {1.0:>11.1f}")
    print(f"{'reachable (Dijkstra)':<28} {sweep_ms:>12.2f} {sweep_ms / bfs_ms:>11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
