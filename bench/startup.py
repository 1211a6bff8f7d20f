"""Start-up as a user waits for it: whole processes of `adjudicate --help`, `vmodbuild --help` and a check of each
bundled game's sample log, cold (an empty cache folder each run) and warm (the game kept by an earlier run),
against `python -c pass` by the same interpreter in the same rounds (issue 30 item 1).

Each round runs every row once, in a fixed order, each a fresh process (with `--before PATH`, the same row of the
other tree right after it: A B A B), after a warm-up round and with the trees' bytecode compiled. Figures are the
medians over the rounds of wall time and of CPU time (user + sys of the child, from wait4), with min-max beside,
and each row's ratio to `python -c pass` taken round by round (the machine's speed drifts; the ratio of a pair holds
better than either figure). The checks are also set against the aim: 0.25 s whole process. The interpreter is this
one (`sys.executable`, never a version manager's shim, which adds its own start-up to every row), running the tree's
code by PYTHONPATH exactly as the console scripts do.

Run: python bench/startup.py [--rounds 15] [--checkout PATH] [--before PATH] [--only NAME ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AIM_S = 0.25
"""Issue 30's aim for a check of a sample log, whole process."""
PACKAGES = ("wargame", "builder", "adjudicator", "umpire")
SCRIPT = "import sys; from {module} import main; sys.argv[0] = {name!r}; sys.exit(main())"
"""What the console scripts run (pyproject.toml's [project.scripts]), by `python -c`."""


@dataclass(frozen=True)
class Row:
    """One command to time: its name, its arguments after the interpreter's, and how its cache folder is kept."""

    name: str
    args: tuple[str, ...]
    cache: str = "none"
    """none: the default cache; cold: a new empty folder every run; warm: one folder, filled by the warm-up."""


@dataclass
class Figures:
    """One row's runs of one tree."""

    tree: str
    row: str
    wall_s: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)
    exits: list[int] = field(default_factory=list)


def rows(checkout: Path) -> list[Row]:
    """`python -c pass`, both groups' --help, and each bundled game's sample log checked cold and warm."""
    adjudicate = ("-c", SCRIPT.format(module="umpire.cli", name="adjudicate"))
    vmodbuild = ("-c", SCRIPT.format(module="builder.cli", name="vmodbuild"))
    found = [Row("python -c pass", ("-c", "pass")),
             Row("adjudicate --help", (*adjudicate, "--help")),
             Row("adjudicate check --help", (*adjudicate, "check", "--help")),
             Row("vmodbuild --help", (*vmodbuild, "--help"))]
    for log in sorted(checkout.glob("examples/*/legal-sample-game.log")):
        shown = log.relative_to(checkout)
        found.append(Row(f"check {shown.parent.name} (cold)", (*adjudicate, "check", str(shown)), "cold"))
        found.append(Row(f"check {shown.parent.name} (warm)", (*adjudicate, "check", str(shown)), "warm"))
    return found


def run_once(python: str, tree: Path, row: Row, warm_cache: Path) -> tuple[float, float, int]:
    """One whole process of `row` on `tree`: wall seconds, CPU seconds (user + sys, from wait4) and exit code."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "UMPIRE_CACHE")}
    env["PYTHONPATH"] = str(tree)
    cold = None
    if row.cache == "cold":
        cold = Path(tempfile.mkdtemp(prefix="umpire-startup-"))
        env["UMPIRE_CACHE"] = str(cold)
    elif row.cache == "warm":
        env["UMPIRE_CACHE"] = str(warm_cache)
    try:
        began = time.perf_counter()
        child = subprocess.Popen([python, *row.args], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)  # the child's own rusage, which Popen.wait does not give
        wall = time.perf_counter() - began
        child.returncode = code = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait for it again
    finally:
        if cold is not None:
            shutil.rmtree(cold, ignore_errors=True)
    return wall, usage.ru_utime + usage.ru_stime, code


def measure(python: str, trees: dict[str, Path], chosen: list[Row], rounds: int) -> list[Figures]:
    """Every row of every tree, `rounds` times after one warm-up round, in the same order each round."""
    caches = {name: Path(tempfile.mkdtemp(prefix=f"umpire-startup-{name}-")) for name in trees}
    figures = {(tree, row.name): Figures(tree, row.name) for row in chosen for tree in trees}
    try:
        for k in range(rounds + 1):
            for row in chosen:
                for tree, path in trees.items():
                    wall, cpu, code = run_once(python, path, row, caches[tree])
                    if k:
                        kept = figures[(tree, row.name)]
                        kept.wall_s.append(wall)
                        kept.cpu_s.append(cpu)
                        kept.exits.append(code)
    finally:
        for cache in caches.values():
            shutil.rmtree(cache, ignore_errors=True)
    return list(figures.values())


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def _ratio(values: list[float], floor: list[float]) -> str:
    ratios = [v / f for v, f in zip(values, floor) if f > 0]
    return f"{statistics.median(ratios):.2f}x" if ratios else "-"


def report(figures: list[Figures], trees: list[str]) -> str:
    """A Markdown table: each row's wall and CPU medians, their ratios to `python -c pass` round by round, the aim."""
    by = {(f.tree, f.row): f for f in figures}
    lines = ["| tree | command | wall s, median (min-max) | CPU s | wall x pass | CPU x pass | wall, CPU / 0.25 s aim "
             "| exit |", "|---|---|---|---|---|---|---|---|"]
    rows_seen = list(dict.fromkeys(f.row for f in figures))
    for name in rows_seen:
        for tree in trees:
            f = by[(tree, name)]
            floor = by.get((tree, "python -c pass"))
            wall_x = _ratio(f.wall_s, floor.wall_s) if floor and name != floor.row else "-"
            cpu_x = _ratio(f.cpu_s, floor.cpu_s) if floor and name != floor.row else "-"
            aim = (f"{statistics.median(f.wall_s) / AIM_S:.2f}, {statistics.median(f.cpu_s) / AIM_S:.2f}"
                   if name.startswith("check ") else "-")
            lines.append(f"| {tree} | {name} | {_spread(f.wall_s)} | {_spread(f.cpu_s)} | {wall_x} | {cpu_x} | {aim} | "
                         f"{','.join(sorted({str(c) for c in f.exits}))} |")
    if len(trees) == 2:
        # Under 1: the tree under test is the faster, pair by pair.
        lines += ["", f"| command | {trees[1]}/{trees[0]} wall (median of pairs) | CPU |", "|---|---|---|"]
        for name in rows_seen:
            a, b = by[(trees[1], name)], by[(trees[0], name)]
            lines.append(f"| {name} | {_ratio(a.wall_s, b.wall_s)} | {_ratio(a.cpu_s, b.cpu_s)} |")
    return "\n".join(lines)


def compile_tree(python: str, tree: Path) -> None:
    """The tree's bytecode written beforehand, as `pip install` leaves it, so that no row times compiling."""
    subprocess.run([python, "-m", "compileall", "-q", *[str(tree / p) for p in PACKAGES if (tree / p).is_dir()]],
                   check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    """Parse the arguments, measure, print the table (and keep the figures with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="counted rounds, after one warm-up round")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the tree under test (default: this one)")
    parser.add_argument("--before", type=Path, default=None, help="a second tree, each row paired with it")
    parser.add_argument("--only", nargs="+", default=None, metavar="WORD",
                        help="only the rows whose name holds one of these words (`python -c pass` is always run)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures into this file")
    options = parser.parse_args()
    python = sys.executable
    trees = {"after" if options.before else "tree": options.checkout.resolve()}
    if options.before is not None:
        trees = {"before": options.before.resolve(), **trees}
    chosen = [row for row in rows(options.checkout.resolve()) if row.name == "python -c pass" or options.only is None
              or any(word in row.name for word in options.only)]
    for tree in trees.values():
        compile_tree(python, tree)
    load_before = os.getloadavg()
    began = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    figures = measure(python, trees, chosen, options.rounds)
    load_after = os.getloadavg()
    print(f"{began}; {python} (Python {sys.version.split()[0]}); {os.cpu_count()} cores; load average before "
          f"{load_before[0]:.2f} {load_before[1]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f}; "
          f"{options.rounds} rounds after a warm-up; trees: "
          + ", ".join(f"{name} {path}" for name, path in trees.items()))
    print()
    print(report(figures, list(trees)))
    if options.json is not None:
        options.json.write_text(json.dumps({"python": python, "load": [load_before, load_after], "began": began,
                                            "trees": {k: str(v) for k, v in trees.items()},
                                            "figures": [asdict(f) for f in figures]}, indent=2) + "\n",
                                encoding="utf-8")


if __name__ == "__main__":
    main()
