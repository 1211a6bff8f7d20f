"""Markers written again or swapped, in a system whose markers may pass over empty phases (the classic series'
Battle for Moscow, markers_again.py): one error of the sequence (3.0), the marker opening nothing (session 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from edit_support import EXAMPLES, edited, errors

MOSCOW = EXAMPLES / "moscow"


@pytest.mark.parametrize(("log", "marker", "nth"), [
    ("legal-replace-empty-city-in-zoc.log", "Phase panzer_movement", 1),
    ("legal-replace-empty-city-in-zoc.log", "Phase german_movement", 1),
    ("legal-sample-game.log", "Phase german_movement", 4),
])
def test_two_phase_markers_swapped_are_one_error(tmp_path: Path, log: str, marker: str, nth: int) -> None:
    """3.0: two markers in each other's place, the first lawful (passing an empty phase), the second naming the phase
    it passed over: one error, on the second, which opens nothing (it went back to that phase, and the next marker
    was an error too)."""
    text, at = edited(MOSCOW / log, "swap", marker, nth)
    found = errors(tmp_path, text)
    assert [(f.line, f.rule) for f in found] == [(at + 1, "3.0")], found
    assert "swapped" in found[0].message and "opens nothing" in found[0].message


def test_an_earlier_phase_written_again_opens_nothing(tmp_path: Path) -> None:
    """3.0: the Panzer Movement Phase named again in the German Combat Phase is one error and opens nothing: the
    combat phase goes on (before, the marker went back to the movement phase)."""
    lines = (MOSCOW / "legal-replace-empty-city-in-zoc.log").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("Phase german_combat"))
    text = "".join(lines[:at + 1] + ["Phase panzer_movement\n"] + lines[at + 1:])
    found = errors(tmp_path, text)
    assert [(f.line, f.rule) for f in found] == [(at + 2, "3.0")], found
    assert "opens nothing" in found[0].message, found


@pytest.mark.parametrize("marker", ["Turn 2", "Turn 3"])
def test_a_turn_marker_left_out_is_one_error(tmp_path: Path, marker: str) -> None:
    """3.0: a `Turn` marker left out is one error (missing_markers.py), its turn's entries judged in it."""
    text, _ = edited(MOSCOW / "legal-sample-game.log", "delete", marker)
    found = errors(tmp_path, text)
    assert [f.rule for f in found] == ["3.0"], found
