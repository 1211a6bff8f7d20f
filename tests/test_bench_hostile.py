"""bench/hostile_repro.py (issue 28's reproductions as whole processes) still runs: two cheap rows against this
checkout give exit 2, not 3, and keep the user's file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "hostile_repro.py"


def test_cheap_rows_exit_2_and_keep_the_file(tmp_path: Path) -> None:
    """`convert -o keep.vlog` over a recording and `check /dev/zero`: exit 2, the recording kept, a table printed."""
    figures = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--only", "o-vlog", "zero-log", "--timeout", "60",
                           "--json", str(figures)], capture_output=True, text=True, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(figures.read_text(encoding="utf-8"))["rows"]}
    assert rows["o-vlog"]["exit"] == "2" and rows["o-vlog"]["held"] == "file kept", rows
    assert rows["zero-log"]["exit"] == "2" and rows["zero-log"]["held"] == "refused", rows
    assert all(row["peak_mib"] > 0 and row["wall_s"] > 0 for row in rows.values())
    assert "| o-vlog | 2 |" in done.stdout and "| zero-log | 2 |" in done.stdout


def test_merge_prints_before_and_after(tmp_path: Path) -> None:
    """`--merge` puts two runs' figures side by side, `before → after`, under the issue's words for each row."""
    row = {"name": "o-vlog", "exit": "0", "wall_s": 2.0, "cpu_s": 0.5, "peak_mib": 35.0,
           "held": "RECORDING OVERWRITTEN", "message": ""}
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps({"rows": [row]}), encoding="utf-8")
    after.write_text(json.dumps({"rows": [{**row, "exit": "2", "held": "file kept"}]}), encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--merge", str(before), str(after)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "over a VASSAL recording | 0 → 2 |" in done.stdout and "RECORDING OVERWRITTEN → file kept" in done.stdout
