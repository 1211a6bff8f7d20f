"""Memory and time of `adjudicate check` on a VASSAL log of many small steps (issue 28).

A 53 KB .vlog of 10^6 chat commands took 143 s and 1.37 GB: each logged step is translated and
replayed with its state kept. This script writes a .vlog of N chat steps (from the recorded
tests/data/vassal/onslaught-session.vlog's saved position), runs `check` on it in a process of its
own and reports peak memory and time, and the memory a step costs above the empty log's. It exits 1
when a step costs more than PER_STEP_BYTES (the figure docs/limits.md states) or the step cap does
not refuse a log past it.

Run: python bench/vlog_memory.py [--steps N]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wargame.vassal.commands import TreeLimits  # noqa: E402
from wargame.vassal.savefile import deobfuscate, obfuscate  # noqa: E402

PER_STEP_BYTES = 2_500
"""What docs/limits.md promises a logged step costs a `check` (measured about 1.9 KB on chat steps)."""
RECORDED = ROOT / "tests" / "data" / "vassal" / "onslaught-session.vlog"


def chat_vlog(steps: int) -> bytes:
    """The recorded session's saved position followed by `steps` chat lines, as VASSAL writes a log."""
    with zipfile.ZipFile(RECORDED) as recorded:
        plain = deobfuscate(recorded.read("savedGame")).decode("utf-8")
        members = {name: recorded.read(name) for name in ("savedata", "moduledata")}
    head = plain[:plain.index("\x1bLOG\t")]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", obfuscate(head + "\x1bLOG\tCHAT&lt;Tester&gt; - a word" * steps))
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def measure(steps: int, folder: Path) -> tuple[int, float, int]:
    """(exit code, wall seconds, peak RSS in bytes) of `check` on a log of `steps` chat steps."""
    path = folder / f"chat-{steps}.vlog"
    path.write_bytes(chat_vlog(steps))
    code = ("import resource, sys, runpy\nsys.argv = ['adjudicate', 'check', sys.argv[1]]\n"
            "try:\n    runpy.run_module('adjudicator', run_name='__main__')\nexcept SystemExit as e:\n"
            "    code = e.code\nelse:\n    code = 0\n"
            "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(code)\n")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - started
    peak_kib = int(done.stderr.rsplit("PEAK", 1)[1].split()[0])
    return done.returncode, seconds, peak_kib * 1024


def main(argv: list[str] | None = None) -> int:
    """Measure, print, and check the per-step figure and the cap."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=50_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="umpire-vlog-memory-") as scratch:
        folder = Path(scratch)
        _, base_s, base_peak = measure(1, folder)
        code, seconds, peak = measure(args.steps, folder)
        per_step = (peak - base_peak) / args.steps
        print(f"1 step: {base_s:.1f} s, peak {base_peak / 2**20:.0f} MiB")
        print(f"{args.steps:,} steps: exit {code}, {seconds:.1f} s, peak {peak / 2**20:.0f} MiB, "
              f"{per_step:,.0f} bytes a step (promised at most {PER_STEP_BYTES:,})")
        cap = TreeLimits().max_steps
        over, over_s, over_peak = measure(cap + 1, folder)
        print(f"{cap + 1:,} steps (one past the cap): exit {over}, {over_s:.1f} s, peak {over_peak / 2**20:.0f} MiB")
    ok = code in (0, 1) and per_step <= PER_STEP_BYTES and over == 2
    print("ok" if ok else "FAILED: a step costs more than promised, or the cap did not refuse")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
