"""Benchmark of `vmodbuild build` as a user waits for it, against a floor measured in the same run.

Per game:
- whole: a cold `python -m builder build GAME` in a new process (start-up, imports, loading the
  data, drawing, encoding, assembling, writing the .vmod) with an empty cache folder of its own,
  wall time; median of --runs runs;
- cpu: the CPU seconds (user + system) of that process and the one it forks, the figure that
  holds when the machine is shared (wall time then depends on the other load);
- peak: the largest resident set of that process or the one it forks to draw the board (MiB), the build started
  by a small waiter process (a child's ru_maxrss starts from its parent's at fork, and this benchmark's own
  process holds the art it draws in process: its size was counted in the figures of every game after the first);
- floor: PNG-encoding the module's own images one after another, their pixels already decoded
  (what any build must at least do), at Pillow's default level (6, the floor of the first
  measurements) and at the build's own level; CPU seconds of this process, median of --runs;
- floor, whole process (pfloor): a new process doing the floor's work at the build's level and nothing else
  (starting Python, importing Pillow, encoding the images), CPU seconds from wait4 as for the build, less what
  reading the images' raw pixels from a file cost it (the process measures that itself: a build does not spend it);
  the figure beside which a whole build's fixed costs show (the issue's first ratios were to the floor above, in
  this process);
- in-process: `draw_art` (drawing, with the PNGs it encodes meanwhile) and `build_module`
  (buildFile, set-ups, zip) in this process, data loaded and modules imported already;
- fixed: a new process that starts Python, imports what a build imports before it draws (the command line, the art,
  module and cache code, Pillow, lxml) and loads the game from its files with an empty cache folder, and does nothing
  else: CPU seconds from wait4 as for the build. What a build spends beyond `fixed` and the floor (`rest`: drawing,
  encoding's own overhead, the fork, assembling and writing the module) is `cpu - fixed - floor`; fixed/f and rest/f
  say where a build's multiple of its floor goes;
- cpu/f pairs, cpu/pf pairs: each run's build CPU over the floor (in this process; in a process of its own)
  measured right after it, median (min-max): the machine's speed drifts over a minute, and a ratio of two medians
  taken at different moments drifted with it.

With --rebuild, rebuilds instead, whole process, each beside a cold build run just before it (pairs A B
A B...): "same", a build of unchanged data with a warm cache folder (the module kept whole); "touched",
a build after units.csv changed in a way no image shows (a comment appended, in a copy of the data),
so the module is assembled again from the art kept per image, and only the charts that read units.csv
are drawn again.

Modules run with their bytecode cached, as after `pip install`, whatever PYTHONDONTWRITEBYTECODE says.

With --checkout TREE, the whole-process builds run TREE's code (a checkout of another commit, for figures before
and after a change in one run, A B A B...); the in-process columns are left out then.

Run: python bench/build.py [--runs N] [--rebuild] [--checkout TREE] [GAME...]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from builder.vassal.module import PNG_COMPRESS_LEVEL, build_module, draw_art  # noqa: E402
from wargame.bundled import data_root, game_ids  # noqa: E402
from wargame.game import load_game  # noqa: E402


def cold_build(game_id: str, out: Path, cache: Path | None = None, data: Path | None = None,
               tree: Path = ROOT) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak MiB of one `python -m builder build GAME` in a new process, with a
    cache folder (a fresh empty one when None), running a tree's code."""
    with tempfile.TemporaryDirectory() as fresh:
        return _build(game_id, out, cache or Path(fresh), data, tree)


WAITER = """
import json, os, subprocess, sys
import tempfile
with tempfile.TemporaryFile() as err:
    child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=err)
    out = child.stdout.read()  # the child is reaped by wait4 alone, for its rusage
    _, status, usage = os.wait4(child.pid, 0)
    err.seek(0)
    print(json.dumps({"code": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime,
                      "maxrss_kib": usage.ru_maxrss, "stdout": out.decode(errors="replace"),
                      "stderr": err.read().decode(errors="replace")}))
"""
"""Starts the measured build and reports its figures: wait4 gives the build's own CPU and the largest resident set
of it and the processes it waited for, which on Linux starts from its parent's at fork (so not from ours)."""


def _build(game_id: str, out: Path, cache: Path, data: Path | None, tree: Path = ROOT) -> tuple[float, float, float]:
    """The figures of one build with a cache folder."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(tree), "UMPIRE_CACHE": str(cache)}
    extra = ["--data", str(data)] if data else []
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", WAITER, sys.executable, "-m", "builder", "build", game_id,
                           "--out", str(out), *extra], env=env, cwd=tree, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    figures = json.loads(done.stdout)
    if figures["code"] != 0:
        raise SystemExit(f"vmodbuild build {game_id} failed: {figures['stderr']}")
    return seconds, figures["cpu"], figures["maxrss_kib"] / 1024


def module_images(vmod: Path) -> list[Image.Image]:
    """The module's own images, decoded."""
    with zipfile.ZipFile(vmod) as archive:
        images = []
        for name in sorted(archive.namelist()):
            if name.startswith("images/") and name.endswith(".png"):
                image = Image.open(io.BytesIO(archive.read(name)))
                image.load()
                images.append(image)
    return images


FLOOR = """
import io, pickle, sys, time
from PIL import Image
start = time.process_time()
with open(sys.argv[1], "rb") as stream:
    raw = pickle.load(stream)
images = [Image.frombytes(mode, size, pixels) for mode, size, pixels in raw]
print(time.process_time() - start)
for image in images:
    image.save(io.BytesIO(), format="PNG", optimize=False, compress_level=int(sys.argv[2]))
"""
"""The floor's work alone in a process of its own: start Python, import Pillow, take the pixels, encode them; it
prints the CPU seconds taking the pixels cost, which a build does not spend."""


FIXED = """
import sys
from builder.cli import main
from builder.vassal.art_cache import cached_art
from builder.vassal.module import write_module
from builder.vassal.module_cache import kept_module
from PIL import PngImagePlugin
from wargame.bundled import data_root
from wargame.game import load_game
load_game(data_root(), sys.argv[1])
"""
"""What every cold build does before it draws: start, import, load the game from its files."""


def fixed_cost(game_id: str, tree: Path) -> float:
    """CPU seconds of a new process doing a cold build's fixed work alone (FIXED), with an empty cache folder."""
    with tempfile.TemporaryDirectory() as fresh:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env |= {"PYTHONPATH": str(tree), "UMPIRE_CACHE": fresh}
        done = subprocess.run([sys.executable, "-c", WAITER, sys.executable, "-c", FIXED, game_id], env=env, cwd=tree,
                              capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    if figures["code"] != 0:
        raise SystemExit(f"the fixed work's process failed: {figures['stderr']}")
    return float(figures["cpu"])


def process_floor(images: list[Image.Image], level: int, scratch: Path) -> float:
    """CPU seconds of a new process that encodes the images as PNG at a level and does nothing else (taking the
    pixels from a file, which a build does not do, left out)."""
    raw = scratch / "pixels.pickle"
    raw.write_bytes(pickle.dumps([(i.mode, i.size, i.tobytes()) for i in images], pickle.HIGHEST_PROTOCOL))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", WAITER, sys.executable, "-c", FLOOR, str(raw), str(level)], env=env,
                          capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    if figures["code"] != 0:
        raise SystemExit(f"the floor's process failed: {figures['stderr']}")
    return float(figures["cpu"]) - float(figures["stdout"])


def encode_floor(images: list[Image.Image], level: int) -> float:
    """CPU seconds to encode the images as PNG, one after another, at a zlib level."""
    start = time.process_time()
    for image in images:
        image.save(io.BytesIO(), format="PNG", optimize=False, compress_level=level)
    return time.process_time() - start


def rebuilds(games: list[str], runs: int) -> None:
    """Print rebuilds beside cold builds, pair by pair."""
    print(f"vmodbuild build, whole process, CPU seconds (user + system), median (min-max) of {runs} pairs "
          f"rebuild/cold; load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'game':<10} {'kind':<8} {'rebuild':>18} {'cold':>18} {'ratio':>18} {'peak MiB':>12}")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for name in ("maps", "counters"):
            shutil.copytree(data_root() / name, work / "data" / name)
        for game_id in games:
            for kind in ("same", "touched"):
                cache = work / f"cache-{game_id}-{kind}"
                data = work / "data" if kind == "touched" else None
                _build(game_id, work, cache, data)  # fills the cache
                units = work / "data" / "counters" / game_id / "units.csv"
                warm, cold, ratios, peaks = [], [], [], []
                for run in range(runs):
                    if kind == "touched":
                        with units.open("a", encoding="utf-8") as stream:
                            stream.write(f"# touched {run}\n")
                    b = cold_build(game_id, work, None, data)
                    a = _build(game_id, work, cache, data)
                    warm.append(a[1])
                    cold.append(b[1])
                    ratios.append(a[1] / b[1])
                    peaks.append((a[2], b[2]))
                print(f"{game_id:<10} {kind:<8} {_spread(warm):>18} {_spread(cold):>18} {_spread(ratios):>18} "
                      f"{max(p[0] for p in peaks):>5.0f} / {max(p[1] for p in peaks):<4.0f}")


def _spread(values: list[float]) -> str:
    """Median (min-max)."""
    return f"{statistics.median(values):.3f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true", help="rebuilds beside cold builds")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the tree whose code the whole builds run")
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    root = data_root()
    games = args.games or game_ids(root)
    if args.rebuild:
        rebuilds(games, args.runs)
        return
    tree = args.checkout.resolve()
    print(f"load average {os.getloadavg()[0]:.1f} at the start; whole builds of {tree}")
    print(f"vmodbuild build, median of {args.runs} runs: cold whole process against the PNG floor of the same run "
          f"(floor at level 6 / at the build's level {PNG_COMPRESS_LEVEL}; seconds)")
    print(f"{'game':<10} {'wall':>6} {'cpu':>6} {'floor6':>7} {'floor' + str(PNG_COMPRESS_LEVEL):>7} "
          f"{'wall/f6':>8} {'cpu/f6':>7} {'wall/f':>7} {'cpu/f':>6} {'pfloor':>7} {'cpu/pf':>7} {'peak MiB':>9} "
          f"{'draw':>6} {'assemble':>9} {'cpu/f pairs':>17} {'cpu/pf pairs':>17} {'fixed':>6} {'fixed/f':>8} "
          f"{'rest/f':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        for game_id in games:
            whole, cpu, peaks, floors, floors6, pfloors, fixed = [], [], [], [], [], [], []
            for _ in range(args.runs):
                seconds, cpu_seconds, peak = cold_build(game_id, out, tree=tree)
                whole.append(seconds)
                cpu.append(cpu_seconds)
                peaks.append(peak)
                images = module_images(out / f"{game_id}.vmod")
                floors6.append(encode_floor(images, 6))
                floors.append(encode_floor(images, PNG_COMPRESS_LEVEL))
                pfloors.append(process_floor(images, PNG_COMPRESS_LEVEL, out))
                fixed.append(fixed_cost(game_id, tree))
            game = load_game(root, game_id)
            draw, assemble = [float("nan")], [float("nan")]
            for _ in range(args.runs if tree == ROOT else 0):
                start = time.perf_counter()
                art = draw_art(game)
                drawn = time.perf_counter()
                build_module(game, "bench", art)
                draw.append(drawn - start)
                assemble.append(time.perf_counter() - drawn)
            draw, assemble = draw[1:] or draw, assemble[1:] or assemble
            w, c = statistics.median(whole), statistics.median(cpu)
            f6, f, pf = statistics.median(floors6), statistics.median(floors), statistics.median(pfloors)
            print(f"{game_id:<10} {w:>6.2f} {c:>6.2f} {f6:>7.2f} {f:>7.2f} {w / f6:>8.2f} {c / f6:>7.2f} "
                  f"{w / f:>7.2f} {c / f:>6.2f} {pf:>7.2f} {c / pf:>7.2f} {max(peaks):>9.0f} "
                  f"{statistics.median(draw):>6.2f} {statistics.median(assemble):>9.2f} "
                  f"{_spread([b / fl for b, fl in zip(cpu, floors)]):>17} "
                  f"{_spread([b / fl for b, fl in zip(cpu, pfloors)]):>17} {statistics.median(fixed):>6.2f} "
                  f"{_spread([x / fl for x, fl in zip(fixed, floors)]):>8} "
                  f"{_spread([(b - x - fl) / fl for b, x, fl in zip(cpu, fixed, floors)]):>7}")


if __name__ == "__main__":
    main()
