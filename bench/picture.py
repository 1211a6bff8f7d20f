"""Benchmark of a finding's picture, what a player waits for after `check --format html`.

In process, per game: the first breach of the game's example logs drawn as its picture, with the
board cold (rendered) and warm (from the disk cache, as every run after the first finds it),
against a floor that every picture pays anyway: decoding the cached board and encoding the crop
as PNG. Whole process: `adjudicate check LOG --format html -o` (one finding, one picture), cache warm and off,
against `adjudicate --version` (start-up alone). Medians of --runs runs; compare ratios.

Run: python bench/picture.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from builder.picture import board_key  # noqa: E402
from umpire.cli import judge  # noqa: E402
from umpire.report import items  # noqa: E402

LOGS = {"omaha": ROOT / "examples" / "omaha" / "breach-leg-ezoc.log",
        "onslaught": ROOT / "examples" / "onslaught" / "breach-zoc.log"}


def _median(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _process(runs: int, args: list[str], env: dict[str, str]) -> float:
    return _median(runs, lambda: subprocess.run(args, env=env, check=False, capture_output=True))


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    adjudicate = [sys.executable, "-m", "umpire"]
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        print(f"finding picture benchmark, median of {args.runs} runs (seconds)")
        print(f"{'game':<10} {'cold':>7} {'warm':>7} {'floor':>7} {'warm/floor':>10} | "
              f"{'process warm':>12} {'no cache':>9} {'start-up':>9}")
        for game_id, log in LOGS.items():
            judged = judge((log,), None, None, None)
            first = items(judged, 1.0, None)[0]
            assert first.picture is not None

            def picture(where: Path | None) -> bytes:
                found = items(judged, 1.0, where)[0]
                assert found.picture is not None
                buffer = io.BytesIO()
                found.picture.image.save(buffer, format="PNG")
                return buffer.getvalue()

            cold = _median(args.runs, lambda: picture(None))
            picture(cache)  # fills the cache
            warm = _median(args.runs, lambda: picture(cache))
            kept = cache / "boards" / f"{game_id}-{board_key(judged.result.game, 1.0)}.png"

            def floor() -> None:
                with Image.open(kept) as board:
                    board.load()
                first.picture.image.save(io.BytesIO(), format="PNG")  # type: ignore[union-attr]

            floor_s = _median(args.runs, floor)
            out = Path(tmp) / "report.html"
            command = [*adjudicate, "check", str(log), "--format", "html", "-o", str(out)]
            env = {**os.environ, "UMPIRE_CACHE": str(cache)}
            warm_process = _process(args.runs, command, env)
            off = _process(args.runs, command, {**os.environ, "UMPIRE_CACHE": ""})
            start_up = _process(args.runs, [*adjudicate, "--version"], env)
            print(f"{game_id:<10} {cold:7.3f} {warm:7.3f} {floor_s:7.3f} {warm / floor_s:10.1f} | "
                  f"{warm_process:12.3f} {off:9.3f} {start_up:9.3f}")


if __name__ == "__main__":
    main()
