"""A bundled log with one line edited (left out, written twice, or swapped with the next), and its errors: the single
slips whose one error the one-breach tests pin down."""

from __future__ import annotations

from pathlib import Path

from adjudicator.cli import adjudicate_file
from adjudicator.findings import Finding

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def errors(tmp_path: Path, text: str) -> list[Finding]:
    """The errors and warnings of a log given as text."""
    path = tmp_path / "game.log"
    path.write_text(text, encoding="utf-8")
    result, _ = adjudicate_file(path, None)
    assert result.stopped is None, result.stopped
    return [f for f in result.findings if f.severity != "note"]


def edited(log: Path, op: str, written: str, nth: int = 1) -> tuple[str, int]:
    """The log with its `nth` line that reads `written` (comments aside) left out (`delete`), written twice
    (`duplicate`) or swapped with the line after it (`swap`), and that line's number."""
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.split("#")[0].strip() == written][nth - 1]
    if op == "delete":
        out = lines[:at] + lines[at + 1:]
    elif op == "duplicate":
        out = lines[:at + 1] + lines[at:]
    else:
        out = lines[:at] + [lines[at + 1], lines[at]] + lines[at + 2:]
    return "".join(out), at + 1
