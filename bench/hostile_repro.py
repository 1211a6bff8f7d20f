"""Issue 28's reproductions, each run as a whole process against a checkout, with what it cost.

Every bullet of issue 28 (Markdown injection, `-o` onto a device, FIFO, symlink, 0600 file, hard link or
VASSAL recording, reads from `/dev/zero` and `yes |`, a `.seal` without cap, an HTML verdict of many
findings, `.vlog` files of 10^6 chat commands and of 60 MB of backslashes, exit 3 on user input, hangs,
silent skips) is one row: `python -m umpire ...` (or `builder`) run with PYTHONPATH set to the checkout,
under `nice -n 10`, an address-space cap (RLIMIT_AS, `--memory-gib`, via prlimit) and a wall-clock
timeout (`--timeout`), so that the code before the issue, which read devices without end and replaced
what `-o` named, can be run safely: every path it is given lives in a scratch folder (a device node made
there with mknod, a FIFO with a reader, a symlink to a scratch file), never /dev/null or /dev/stdout.

Each row records the exit code (or "killed at N s"), wall and CPU time and peak RSS of the process (from
wait4), and whether what the row is about held: the user's file kept, the Markdown inert, the message
naming the right file. Prints a Markdown table; `--json FILE` keeps the figures, and `--merge BEFORE
AFTER` prints the two runs side by side (docs/limits.md holds the table for issue 28).

Run: python bench/hostile_repro.py [--checkout PATH] [--only NAME ...] [--json FILE]
     python bench/hostile_repro.py --merge before.json after.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/ is a folder of scripts, not a package

from hostile_cases import CASES, MODULES, ROOT, Outcome, Run, Skipped  # noqa: E402


@dataclass
class Row:
    """One reproduction's figures, as printed and kept in JSON."""

    name: str
    exit: str
    wall_s: float
    cpu_s: float
    peak_mib: float
    held: str
    message: str


def _stdin(source: str | Path) -> tuple[IO[bytes] | int, subprocess.Popen[bytes] | None]:
    if source == "yes":
        feeder = subprocess.Popen(["yes"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert feeder.stdout is not None
        return feeder.stdout, feeder
    if source == "null":
        return subprocess.DEVNULL, None
    return open(source, "rb"), None


LAUNCHER = """
import json, os, signal, subprocess, sys, threading, time
request = json.loads(sys.argv[1])
killed = []
started = time.perf_counter()
child = subprocess.Popen(request["command"], env=request["env"], cwd=request["cwd"], start_new_session=True)
def kill():
    killed.append(True)
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
timer = threading.Timer(request["timeout"], kill)
timer.start()
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - started
timer.cancel()
child.returncode = os.waitstatus_to_exitcode(status)
with open(request["result"], "w") as result:
    json.dump({"code": None if killed else child.returncode, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
               "peak_kib": usage.ru_maxrss}, result)
"""
"""Runs one reproduction and reports its rusage. On Linux a process starts with the peak RSS of the memory
it was (v)forked from, so the harness, which has held the large inputs it wrote, never starts a measured
process itself: this small launcher does, with its own small peak."""


def run_process(run: Run, checkout: Path, scratch: Path, timeout_s: float, memory_bytes: int) -> Outcome:
    """Run `run` as one process under nice, the memory cap and the timeout; its figures from wait4."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONDONTWRITEBYTECODE": "1"}
    for name, value in run.env.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    command = ["nice", "-n", "10", "prlimit", f"--as={memory_bytes}", "--", sys.executable, "-m", *run.argv]
    if run.stdout == "closed":  # exec keeps the process id, so wait4 still measures Python itself
        command = ["sh", "-c", 'exec "$@" >&-', "sh", *command]
    out_path, err_path, result_path = scratch / "stdout.txt", scratch / "stderr.txt", scratch / "rusage.json"
    request = {"command": command, "env": env, "cwd": str(scratch), "timeout": run.timeout_s or timeout_s,
               "result": str(result_path)}
    stdin, feeder = _stdin(run.stdin)
    with contextlib.ExitStack() as stack:
        if run.beside is not None:
            stack.enter_context(run.beside())
        stdout: IO[bytes] | int = (open("/dev/full", "wb") if run.stdout == "full"
                                   else subprocess.DEVNULL if run.stdout == "closed" else open(out_path, "wb"))
        err = open(err_path, "wb")
        subprocess.run([sys.executable, "-S", "-c", LAUNCHER, json.dumps(request)], stdin=stdin, stdout=stdout,
                       stderr=err, check=True, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        for stream in (stdout, err, stdin):
            if not isinstance(stream, int):
                stream.close()
        if feeder is not None:
            feeder.kill()
            feeder.wait()
    figures = json.loads(result_path.read_text(encoding="utf-8"))
    return Outcome(figures["code"], figures["wall"], figures["cpu"], figures["peak_kib"],
                   out_path.read_text(encoding="utf-8", errors="replace")[:1_000_000] if out_path.exists() else "",
                   err_path.read_text(encoding="utf-8", errors="replace")[-20_000:])


def _exit_text(outcome: Outcome, timeout_s: float, memory_bytes: int) -> str:
    if outcome.code is None:
        return f"killed at {timeout_s:.0f} s"
    if "MemoryError" in outcome.stderr or outcome.peak_kib * 1024 > 0.85 * memory_bytes:
        # The old code's crash handler writes the traceback to a file: the peak tells where it stopped.
        return f"{outcome.code} (out of memory at the {memory_bytes / 2**30:g} GiB cap)"
    if outcome.code < 0:
        return f"signal {signal.Signals(-outcome.code).name}"
    return str(outcome.code)


def _message(outcome: Outcome, scratch: Path) -> str:
    """The first line saying what went wrong (else the last line), the scratch folder shown as TMP, shortened."""
    text = (outcome.stderr + "\n" + outcome.stdout).replace(str(scratch), "TMP")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    wrong = [line for line in lines if re.search(r"rror|refused|Traceback|killed", line)]
    line = (wrong or lines or [""])[0]
    return line if len(line) <= 110 else line[:107] + "..."


def run_case(name: str, checkout: Path, timeout_s: float, memory_bytes: int) -> Row:
    """Set up, run and check one reproduction in a scratch folder of its own."""
    _, setup = CASES[name]
    with tempfile.TemporaryDirectory(prefix=f"umpire-hostile-{name}-") as folder:
        scratch = Path(folder)
        try:
            run = setup(scratch, checkout)
        except Skipped as e:
            return Row(name, "skipped", 0.0, 0.0, 0.0, str(e), "")
        outcome = run_process(run, checkout, scratch, timeout_s, memory_bytes)
        try:
            held = run.check(outcome)
        except OSError as e:  # what the row checks is gone or unreadable: that is the answer
            held = f"cannot check: {e.strerror}"
        return Row(name, _exit_text(outcome, run.timeout_s or timeout_s, memory_bytes), round(outcome.wall_s, 2),
                   round(outcome.cpu_s, 2), round(outcome.peak_kib / 1024, 1), held, _message(outcome, scratch))


def _cell(value: str) -> str:
    return value.replace("|", "\\|").replace("`", "'").replace("<", "&lt;")


def table(rows: list[Row]) -> str:
    """One run's Markdown table."""
    lines = ["| reproduction | exit | wall s | CPU s | peak RSS MiB | held | last message |",
             "|---|---|---:|---:|---:|---|---|"]
    for row in rows:
        lines.append(f"| {row.name} | {row.exit} | {row.wall_s:.1f} | {row.cpu_s:.1f} | {row.peak_mib:,.0f} | "
                     f"{_cell(row.held)} | {_cell(row.message)} |")
    return "\n".join(lines)


def merged_table(before: list[Row], after: list[Row]) -> str:
    """Two runs side by side, `before -> after` in each cell, rows in the order of CASES."""
    old = {row.name: row for row in before}
    new = {row.name: row for row in after}
    lines = ["| reproduction | exit | wall s | CPU s | peak RSS MiB | what held |", "|---|---|---|---|---|---|"]
    for name in [n for n in CASES if n in old or n in new] + sorted((set(old) | set(new)) - set(CASES)):
        a, b = old.get(name), new.get(name)

        def pair(get: Callable[[Row], str]) -> str:
            return f"{get(a) if a else '-'} → {get(b) if b else '-'}"
        what = CASES[name][0] if name in CASES else name
        lines.append(f"| {what.replace('|', chr(92) + '|')} | {pair(lambda r: r.exit)} | "
                     f"{pair(lambda r: f'{r.wall_s:.1f}')} | "
                     f"{pair(lambda r: f'{r.cpu_s:.1f}')} | {pair(lambda r: f'{r.peak_mib:,.0f}')} | "
                     f"{_cell(pair(lambda r: r.held))} |")
    return "\n".join(lines)


def _load(path: Path) -> list[Row]:
    return [Row(**row) for row in json.loads(path.read_text(encoding="utf-8"))["rows"]]


def main(argv: list[str] | None = None) -> int:
    """Run the chosen reproductions against a checkout and print their table, or merge two runs' JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the source tree to run (default: this one)")
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), metavar="NAME", help="these rows only")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a process is killed")
    parser.add_argument("--memory-gib", type=float, default=2.0, help="the address-space cap of each process")
    parser.add_argument("--module", type=Path, help="an Onslaught module for the export row (default: built)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--merge", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                        help="print two runs' JSON side by side")
    args = parser.parse_args(argv)
    if args.merge:
        print(merged_table(_load(args.merge[0]), _load(args.merge[1])))
        return 0
    checkout = args.checkout.resolve()
    if args.module:
        MODULES[checkout] = args.module.resolve()
    memory = int(args.memory_gib * 2**30)
    rows = []
    for name in args.only or list(CASES):
        row = run_case(name, checkout, args.timeout, memory)
        print(f"{name}: exit {row.exit}, {row.wall_s:.1f} s, {row.peak_mib:,.0f} MiB, {row.held}", file=sys.stderr)
        rows.append(row)
    print(table(rows))
    if args.json:
        load = os.getloadavg()
        args.json.write_text(json.dumps({"checkout": str(checkout), "load": [round(x, 1) for x in load],
                                         "rows": [asdict(row) for row in rows]}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
