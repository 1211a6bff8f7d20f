"""Timing shared by the benchmarks: medians of repeated runs (machines here are noisy)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(task: Callable[[], object], runs: int) -> float:
    """Median wall time of `runs` calls of `task`, after one untimed warm-up call."""
    task()
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        task()
        times.append(time.perf_counter() - began)
    return statistics.median(times)
