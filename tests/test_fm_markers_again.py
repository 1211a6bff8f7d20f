"""Fire & Movement, a turn or phase marker written again (adjudicator/markers_again.py): one error of the sequence
(4.1), and every other finding of the log as without it (a phase named again was the next player's, every entry
after it an error of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cli import adjudicate_file
from adjudicator.findings import Finding

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "omaha"
SAMPLE = EXAMPLES / "legal-sample-game.log"
COMBAT = EXAMPLES / "legal-combat.log"


def findings(tmp_path: Path, lines: list[str]) -> list[Finding]:
    """Every finding of a log given as its lines."""
    path = tmp_path / "game.log"
    path.write_text("".join(lines), encoding="utf-8")
    result, _ = adjudicate_file(path, None)
    assert result.stopped is None, result.stopped
    return result.findings


def marker_lines(path: Path) -> list[int]:
    """The indexes of a log's turn and phase markers."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return [i for i, line in enumerate(lines) if line.startswith(("Turn ", "Phase "))]


def edited(path: Path, at: int, insert: str) -> tuple[list[str], int]:
    """A log's lines with `insert` put in after its `at`th (0-based), and the inserted line's number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return lines[:at + 1] + [insert] + lines[at + 1:], at + 2


def shifted(found: list[Finding], after: int) -> list[tuple[str, str, int, str]]:
    """(severity, rule, line, message) of findings, lines after the one inserted at `after` moved back by one."""
    return [(f.severity, f.rule, f.line - (f.line > after), f.message) for f in found]


@pytest.mark.parametrize("at", marker_lines(SAMPLE))
def test_a_marker_written_twice_in_the_sample_game_is_one_error(tmp_path: Path, at: int) -> None:
    """4.1: each turn and phase marker of the sample game written twice is one error, on the copy, and every other
    finding is the log's own; before, a phase named again opened the next player's, and every entry of the player
    turn after it was an error (up to 22 a copy)."""
    lines, line = edited(SAMPLE, at, SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)[at])
    found = findings(tmp_path, lines)
    again = [f for f in found if f.line == line]
    assert [(f.severity, f.rule) for f in again] == [("error", "4.1")], again
    assert "written again" in again[0].message
    assert shifted([f for f in found if f.line != line], line) == shifted(findings(tmp_path, lines[:line - 1]
                                                                                   + lines[line:]), line)


def test_an_earlier_phase_written_again_is_one_error(tmp_path: Path) -> None:
    """4.1: the Movement Phase named in the Allied Combat Phase, the combat going on after it, is one error: the
    marker opens nothing (not the German Movement Phase, where the attack and its retreat were each an error)."""
    lines = COMBAT.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("Phase combat") and i > 40)
    lines, line = edited(COMBAT, at, "Phase movement\n")
    found = [f for f in findings(tmp_path, lines) if f.severity == "error"]
    assert [(f.line, f.rule) for f in found] == [(line, "4.1")], found
    assert "opens nothing" in found[0].message and "'combat'" in found[0].message


def test_a_phase_named_again_by_the_next_player_opens_his(tmp_path: Path) -> None:
    """4.1: the Movement Phase named again with the German reinforcement after it (the rest of the Allied player turn
    left out) opens the German Movement Phase, as before: one error, and the reinforcement judged in it."""
    lines = COMBAT.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("Phase movement"))
    lines = lines[:first + 1] + lines[first + 5:]  # the Allied bombardment to mobile combat phases left out
    found = [f for f in findings(tmp_path, lines) if f.severity == "error"]
    assert [(f.line, f.rule) for f in found] == [(first + 2, "4.1")], found
    assert "written again" not in found[0].message
