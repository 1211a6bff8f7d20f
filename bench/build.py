"""Benchmark of `vmodbuild build`: per game, the time to draw the art (`draw_art`, which also
encodes the PNGs: the board's in the process drawing it, the others while the board is drawn),
the floor (encoding the same images as PNG once, one after another, which any build must do),
the rest of the build (buildFile, set-ups, zip) and the whole build against the floor.
Medians of --runs runs; machines are noisy, compare ratios measured in the same run.

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
    print(f"{'game':<10} {'draw+PNG':>8} {'encode PNG':>11} {'assemble+zip':>13} {'whole':>8} {'floor':>8} {'x floor':>8}")
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
            assemble.append(done - rendered)
            whole.append(done - start)
            del built
        floor_median = statistics.median(encode)
        print(f"{game_id:<10} {statistics.median(render):>8.2f} {floor_median:>11.2f} {statistics.median(assemble):>13.2f}"
              f" {statistics.median(whole):>8.2f} {floor_median:>8.2f} {statistics.median(whole) / floor_median:>8.1f}")


if __name__ == "__main__":
    main()
