"""Benchmark of a finding's picture, what a player waits for after `check --format html`.

Per game, the first finding of one of its breach logs, at the default scale (the one whose hex numbers read at
100%, `reading_scale`), against its floor measured in the same run: decoding the whole board from the cache and
encoding the picture as PNG (what any picture costs when the board is at hand).

In process (CPU seconds, `time.process_time`): the picture cold (a new `Painter`, no cache: what a first run
draws) and warm (the whole board in the disk cache, cut from it), beside the floor.

Whole process (CPU seconds of the child, from wait4; peak resident set): `adjudicate check LOG --format html -o`
with a cold cache (UMPIRE_CACHE a new empty folder each run: no board, no loaded game carried over), the same
with `--format markdown --images`, and the same check without a picture (`--format text`: start-up, loading the
game and the replay, which the picture's process pays too), alternated run by run; then `adjudicate --version`
(start-up alone) and a process that does the floor's work alone (start Python, import Pillow, decode, encode).
The processes read cached bytecode (as an installed Umpire does) whatever PYTHONDONTWRITEBYTECODE says.
The machine's load is printed before and after. Medians of --runs runs; compare ratios, not seconds.

Run: python bench/picture.py [--runs N] [--game ID] [--checkout PATH]
(--checkout: measure another tree of Umpire, e.g. `git archive main | tar -x -C /tmp/before`.)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LOGS = {"omaha": Path("examples") / "omaha" / "breach-leg-ezoc.log",
        "onslaught": Path("examples") / "onslaught" / "breach-zoc.log",
        "moscow": Path("examples") / "moscow" / "breach-zoc.log"}

FLOOR_CHILD = """
import io, sys
from PIL import Image
with Image.open(sys.argv[1]) as board:
    board.load()
    board.crop(tuple(int(v) for v in sys.argv[2].split(","))).save(io.BytesIO(), format="PNG", optimize=False)
"""


def _cpu_median(runs: int, work: Callable[[], object]) -> float:
    """Median CPU seconds of `work` in this process."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


# The measured process is started by a small one: a child's peak resident set (ru_maxrss) starts from its
# parent's at fork on Linux, and this benchmark's own process holds boards.
WAITER = """
import json, os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime,
                  "maxrss_kib": usage.ru_maxrss, "stderr": child.stderr.read().decode(errors="replace")}))
"""


def _child(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """CPU seconds and peak MiB of one process (its own figures, from wait4)."""
    done = subprocess.run([sys.executable, "-c", WAITER, *argv], env=env, cwd=cwd, capture_output=True, text=True,
                          check=True)
    figures = json.loads(done.stdout)
    if figures["code"] not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {figures['code']}: {figures['stderr']}")
    return figures["cpu"], figures["maxrss_kib"] / 1024


def _load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", choices=sorted(LOGS), action="append", help="this game only (repeatable)")
    parser.add_argument("--checkout", type=Path, default=HERE, help="the tree of Umpire to measure")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    root = args.checkout.resolve()
    sys.path.insert(0, str(root))
    os.chdir(root)
    from builder.picture import Painter, board_key, cached_board, reading_scale
    from umpire.cli import judge
    from umpire.report import items

    with tempfile.TemporaryDirectory() as tmp:
        pycache = Path(tmp) / "pycache"
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=str(pycache))
        adjudicate = [sys.executable, "-m", "umpire"]
        print(f"finding picture benchmark of {root}, medians of {args.runs} runs, CPU seconds; load {_load()}")
        rows = []
        for game_id in args.game or sorted(LOGS):
            log = LOGS[game_id]
            judged = judge((log,), None, None, None)
            game = judged.result.game
            scale = reading_scale(game)
            first = next(item for item in items(judged, scale, None, max_pictures=1) if item.picture is not None)
            assert first.picture is not None
            line = first.line

            def cold() -> None:
                # What a first run draws: a painter of its own and no cache, the board's part the picture shows.
                item = next(i for i in items(judged, scale, None, max_pictures=1) if i.line == line)
                assert item.picture is not None
                item.picture.image.save(io.BytesIO(), format="PNG", optimize=False)

            cache = Path(tmp) / f"cache-{game_id}"
            cached_board(game, scale, cache)  # the whole board in the disk cache, for the warm run and the floor
            kept = cache / "boards" / f"{game_id}-{board_key(game, scale)}.png"
            picture = first.picture
            box = (*picture.origin, picture.origin[0] + picture.image.width, picture.origin[1] + picture.image.height)

            def warm() -> None:
                item = next(i for i in items(judged, scale, cache, max_pictures=1) if i.line == line)
                assert item.picture is not None
                item.picture.image.save(io.BytesIO(), format="PNG", optimize=False)

            def floor() -> None:
                from PIL import Image
                with Image.open(kept) as board:
                    board.load()
                picture.image.save(io.BytesIO(), format="PNG", optimize=False)

            cold_s = _cpu_median(args.runs, cold)
            warm_s = _cpu_median(args.runs, warm)
            floor_s = _cpu_median(args.runs, floor)

            def fresh(*command: str) -> tuple[float, float]:
                with tempfile.TemporaryDirectory() as empty:
                    return _child([*adjudicate, *command], {**env, "UMPIRE_CACHE": empty}, root)

            html = ["check", str(log), "--format", "html", "-o", str(Path(tmp) / "report.html")]
            images = ["check", str(log), "--format", "markdown", "--images", str(Path(tmp) / "img")]
            text = ["check", str(log), "--format", "text"]
            fresh(*text)  # warm-up: the bytecode
            fresh(*html)
            figures: dict[str, list[tuple[float, float]]] = {"html": [], "images": [], "text": []}
            for _ in range(args.runs):  # alternated, so the load falls alike on each
                figures["html"].append(fresh(*html))
                figures["images"].append(fresh(*images))
                figures["text"].append(fresh(*text))
            start_up = statistics.median(fresh("--version")[0] for _ in range(args.runs))
            floor_process = statistics.median(
                _child([sys.executable, "-c", FLOOR_CHILD, str(kept), ",".join(map(str, box))], env, root)[0]
                for _ in range(args.runs))
            med = {k: statistics.median(cpu for cpu, _ in v) for k, v in figures.items()}
            peak = {k: max(mib for _, mib in v) for k, v in figures.items()}
            rows.append((game_id, scale, picture.image.size, cold_s, warm_s, floor_s, med, peak, start_up,
                         floor_process))
        print(f"{'game':<10} {'scale':>5} {'picture':>9} | {'cold':>6} {'warm':>6} {'floor':>6} {'cold/fl':>7} "
              f"{'warm/fl':>7} | {'html':>6} {'/floor':>6} {'-text':>6} {'/floor':>6} {'text':>6} {'start':>6} "
              f"{'floorP':>6} {'html/P':>6} | {'MiB html':>8} {'images':>6} {'text':>5}")
        for game_id, scale, size, cold_s, warm_s, floor_s, med, peak, start_up, floor_process in rows:
            own = med["html"] - med["text"]
            print(f"{game_id:<10} {scale:5.2f} {size[0]:>4}x{size[1]:<4} | {cold_s:6.3f} {warm_s:6.3f} {floor_s:6.3f} "
                  f"{cold_s / floor_s:7.1f} {warm_s / floor_s:7.1f} | {med['html']:6.3f} {med['html'] / floor_s:6.1f} "
                  f"{own:6.3f} {own / floor_s:6.1f} {med['text']:6.3f} {start_up:6.3f} {floor_process:6.3f} "
                  f"{med['html'] / floor_process:6.1f} | {peak['html']:8.0f} {peak['images']:6.0f} {peak['text']:5.0f}")
        print(f"load after: {_load()}")
        print("cold, warm, floor: in process; html: the whole `check --format html` process, cold cache; -text: html "
              "less the same check without a picture; floorP: a process doing the floor's work alone; MiB: peak RSS")


if __name__ == "__main__":
    main()
