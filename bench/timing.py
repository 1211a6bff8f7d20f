"""Timing shared by the benchmarks: medians of repeated runs (machines here are noisy)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(task: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median time of `runs` calls of `task` by `clock` (wall by default, `time.process_time` for CPU),
    after one untimed warm-up call."""
    task()
    times = []
    for _ in range(runs):
        began = clock()
        task()
        times.append(clock() - began)
    return statistics.median(times)
