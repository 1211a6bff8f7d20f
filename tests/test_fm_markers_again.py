"""Fire & Movement, a turn or phase marker written again (adjudicator/markers_again.py): one error of the sequence
(4.1), and every other finding of the log as without it (a phase named again was the next player's, every entry
after it an error of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fm_log import EXAMPLES, LEGAL, lines_of, log_findings, one_slip, written_twice

SAMPLE = EXAMPLES / "legal-sample-game.log"
COMBAT = EXAMPLES / "legal-combat.log"


@pytest.mark.parametrize("at", [i for i, line in enumerate(lines_of(SAMPLE)) if line.startswith(("Turn ", "Phase "))])
def test_a_marker_written_twice_in_the_sample_game_is_one_error(tmp_path: Path, at: int) -> None:
    """4.1: each turn and phase marker of the sample game written twice is one error, on the copy, and every other
    finding is the log's own; before, a phase named again opened the next player's, and every entry of the player
    turn after it was an error (up to 22 a copy)."""
    again = one_slip(tmp_path, *written_twice(SAMPLE, at))
    assert [(f.severity, f.rule) for f in again] == [("error", "4.1")], again
    assert "written again" in again[0].message


def test_an_earlier_phase_written_again_is_one_error(tmp_path: Path) -> None:
    """4.1: the Movement Phase named in the Allied Combat Phase, the combat going on after it, is one error: the
    marker opens nothing (not the German Movement Phase, where the attack and its retreat were each an error)."""
    lines = lines_of(COMBAT)
    at = next(i for i, line in enumerate(lines) if line.startswith("Phase combat") and i > 40)
    lines = lines[:at + 1] + ["Phase movement\n"] + lines[at + 1:]
    found = [f for f in log_findings(tmp_path, lines) if f.severity == "error"]
    assert [(f.line, f.rule) for f in found] == [(at + 2, "4.1")], found
    assert "opens nothing" in found[0].message and "'combat'" in found[0].message


def test_a_phase_named_again_by_the_next_player_opens_his(tmp_path: Path) -> None:
    """4.1: the Movement Phase named again with the German reinforcement after it (the rest of the Allied player turn
    left out) opens the German Movement Phase, as before: one error, and the reinforcement judged in it."""
    lines = lines_of(COMBAT)
    first = next(i for i, line in enumerate(lines) if line.startswith("Phase movement"))
    lines = lines[:first + 1] + lines[first + 5:]  # the Allied bombardment to mobile combat phases left out
    found = [f for f in log_findings(tmp_path, lines) if f.severity == "error"]
    assert [(f.line, f.rule) for f in found] == [(first + 2, "4.1")], found
    assert "written again" not in found[0].message


def pairs(first: str, second: str, but: str | None = None) -> list[tuple[Path, int]]:
    """(log, index) of every line of the legal examples beginning with `first` (and not `but`) followed at once by one
    beginning with `second`."""
    return [(path, i) for path in LEGAL for i, line in enumerate(lines_of(path)[:-1])
            if line.startswith(first) and not (but and line.startswith(but))
            and lines_of(path)[i + 1].startswith(second)]


def errors_swapped(tmp_path: Path, path: Path, at: int) -> list[tuple[int, str]]:
    """(line, rule) of the errors of a log with its `at`th line and the next swapped."""
    lines = lines_of(path)
    lines[at], lines[at + 1] = lines[at + 1], lines[at]
    return [(f.line, f.rule) for f in log_findings(tmp_path, lines) if f.severity == "error"]


def named(value: object) -> str:
    """A test id: a log's file name, an index as it is."""
    return value.name if isinstance(value, Path) else str(value)


@pytest.mark.parametrize(("path", "at"), pairs("Phase ", "Phase ", but="Phase support_fire_marker"), ids=named)
def test_two_phase_markers_swapped_are_one_error(tmp_path: Path, path: Path, at: int) -> None:
    """4.1: two phase markers written in each other's place are one error, on the first (its phase opened early);
    the second, naming the phase passed over, is a note and opens nothing. Where the first is the next player's
    Movement Phase (the entries after the pair are his), it opens it. Before: two errors, and at a player turn's
    end the next player's entries each judged in the wrong phase."""
    assert errors_swapped(tmp_path, path, at) == [(at + 1, "4.1")]


@pytest.mark.parametrize(("path", "at"), pairs("Phase game_turn_end", "Turn "), ids=named)
def test_the_game_turn_end_written_after_the_next_turn_is_one_error(tmp_path: Path, path: Path, at: int) -> None:
    """4.1: the Game Turn End Phase's marker and the next 'Turn' marker swapped are one error, the turn ending before
    its Game Turn End Phase; the phase marker after the new turn's is a note and opens nothing (it opened that
    phase, every phase of the new turn passed over: up to 25 errors)."""
    assert errors_swapped(tmp_path, path, at) == [(at + 1, "4.1")]


@pytest.mark.parametrize(("path", "at"), pairs("Turn ", "Phase support_fire_marker"), ids=named)
def test_a_turns_first_phase_written_before_its_turn_is_one_error(tmp_path: Path, path: Path, at: int) -> None:
    """4.1: a 'Turn' marker and its first phase's swapped are one error, on the phase marker, where the turn begins;
    the 'Turn' marker after it is a note and opens nothing (before: the phase was an error, and the next phase's
    marker a second one, the turn begun again without its first phase)."""
    assert errors_swapped(tmp_path, path, at) == [(at + 1, "4.1")]
