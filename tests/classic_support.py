"""Logs of Battle for Moscow for the classic series' tests: the phase markers up to a point, and a replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.cli import adjudicate_file
from adjudicator.engine import Replay

PHASES = ("german_replacement", "panzer_movement", "german_combat", "german_movement", "soviet_replacement",
          "rail_movement", "soviet_combat", "soviet_movement")


def upto(turn: int, phase: str) -> str:
    """The markers of every phase from turn 1 up to and including `phase` of `turn`, nothing done in them."""
    lines = ['[Game "moscow"]']
    for t in range(1, turn + 1):
        lines.append(f"Turn {t}")
        for p in PHASES:
            lines.append(f"Phase {p}")
            if t == turn and p == phase:
                return "\n".join(lines) + "\n"
    raise ValueError(phase)


def run(tmp_path: Path, log: str, data: Path | None = None) -> Replay[Any]:
    """The replay of a log written to a file (a game of the `data` folder's, else of the bundled ones)."""
    path = tmp_path / ("moscow.log" if data is None else "game.log")
    path.write_text(log, encoding="utf-8")
    result, _ = adjudicate_file(path, data)
    assert result.stopped is None, result.stopped
    return result


def verdict(tmp_path: Path, log: str, data: Path | None = None) -> list[tuple[int, str, str]]:
    """(line, severity, rule) of every error and warning of a log."""
    return sorted((f.line, f.severity, f.rule) for f in run(tmp_path, log, data).findings if f.severity != "note")


def line_of(log: str, text: str) -> int:
    """The line of a log holding `text`."""
    return next(n for n, line in enumerate(log.splitlines(), 1) if text in line)
