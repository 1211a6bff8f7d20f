"""Benchmark of `vmodbuild build`: per game, the time to render the art, to encode the PNGs,
to write the buildFile and zip, and the whole build against the floor (encoding the same
images as PNG, which any build must do). Medians of --runs runs; machines are noisy.

Run: python bench/build.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from builder.vassal.module import build_module, draw_art  # noqa: E402
from wargame.bundled import data_root, game_ids  # noqa: E402
from wargame.game import load_game  # noqa: E402


def _encode_all(art: object) -> float:
    """Seconds to encode every image of the art as PNG (the floor of any build)."""
    images = [art.board, art.holding.image, *art.counters.values(), *art.charts.values()]  # type: ignore[attr-defined]
    start = time.perf_counter()
    for image in images:
        image.save(io.BytesIO(), format="PNG", optimize=False)
    return time.perf_counter() - start


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    root = data_root()
    print(f"vmodbuild build benchmark, median of {args.runs} runs (seconds)")
    print(f"{'game':<10} {'render':>8} {'encode PNG':>11} {'assemble+zip':>13} {'whole':>8} {'floor':>8} {'x floor':>8}")
    for game_id in game_ids(root):
        game = load_game(root, game_id)
        render, encode, assemble, whole = [], [], [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            art = draw_art(game)
            rendered = time.perf_counter()
            built = build_module(game, "bench", art)
            done = time.perf_counter()
            floor = _encode_all(art)
            render.append(rendered - start)
            encode.append(floor)
            assemble.append(max(0.0, done - rendered - floor))
            whole.append(done - start)
            del built
        floor_median = statistics.median(encode)
        print(f"{game_id:<10} {statistics.median(render):>8.2f} {floor_median:>11.2f} {statistics.median(assemble):>13.2f}"
              f" {statistics.median(whole):>8.2f} {floor_median:>8.2f} {statistics.median(whole) / floor_median:>8.1f}")


if __name__ == "__main__":
    main()
