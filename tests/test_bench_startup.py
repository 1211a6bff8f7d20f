"""bench/startup.py (issue 30's start-up figures) still runs: one round of `python -c pass` and the two groups'
--help against this checkout, paired with itself as "before", gives every row, its ratios and exit 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "startup.py"


def test_one_round_of_the_help_rows(tmp_path: Path) -> None:
    figures = tmp_path / "startup.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "1", "--only", "help", "--before", str(ROOT),
                           "--json", str(figures)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    kept = json.loads(figures.read_text(encoding="utf-8"))
    rows = {(f["tree"], f["row"]): f for f in kept["figures"]}
    for tree in ("before", "after"):
        for row in ("python -c pass", "adjudicate --help", "adjudicate check --help", "vmodbuild --help"):
            assert rows[(tree, row)]["exits"] == [0] and rows[(tree, row)]["cpu_s"][0] > 0, (tree, row)
    assert not any(row.startswith("check ") for _, row in rows)
    assert "| after | adjudicate --help |" in done.stdout and "| vmodbuild --help |" in done.stdout
    assert "| command | after/before wall (median of pairs) | CPU |" in done.stdout
    assert "load average" in done.stdout and kept["python"] == sys.executable
