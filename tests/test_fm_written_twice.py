"""Fire & Movement, a combat's line written twice in Omaha's legal examples: the copy is one error, citing the
clause it breaks, and every other finding is the log's own (the result's lines after it carry out the combat under
way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fm_log import LEGAL, lines_of, log_findings, one_slip, written_twice


def lines_starting(prefixes: tuple[str, ...]) -> list[tuple[Path, int]]:
    """(log, index) of every line of the legal examples whose entry (after its side) begins with one of `prefixes`."""
    return [(path, i) for path in LEGAL for i, line in enumerate(lines_of(path))
            if line.split("#")[0].split(":", 1)[-1].strip().startswith(prefixes)]


@pytest.mark.parametrize(("path", "at"), lines_starting(("attack ", "bombard ")),
                         ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_combat_written_twice_is_one_error(tmp_path: Path, path: Path, at: int) -> None:
    """8.2 (an attack: its units attack once a phase, their strength unitary), 8.0 (a bombardment: its target
    suffers one attack a phase) and 11.2.3 (a beach assault, before GT 1: one a beach landing hex; it cited 8.2): the
    copy is one error and is not carried out; before, it also left the first combat's result undone (8.0), used its
    markers again (7.2) and attacked its defender again."""
    again = one_slip(tmp_path, *written_twice(path, at))
    rule = "8.0" if " bombard " in lines_of(path)[at] else "11.2.3" if before_gt1(path, at) else "8.2"
    errors = [f for f in again if f.severity == "error"]
    assert [f.rule for f in errors] == [rule], again
    assert "written again" in errors[0].message


def before_gt1(path: Path, at: int) -> bool:
    """Whether a log's `at`th line comes before its first turn marker (Omaha's landing: its attacks are the beach
    assaults, 11.2.3)."""
    return not any(line.startswith("Turn ") for line in lines_of(path)[:at])


BEACH_ASSAULTS = [(path, at) for path, at in lines_starting(("attack ",)) if before_gt1(path, at)]


@pytest.mark.parametrize(("path", "at"), BEACH_ASSAULTS, ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_beach_assault_written_again_later_is_one_error_of_11_2_3(tmp_path: Path, path: Path, at: int) -> None:
    """11.2.3: each beach landing hex makes one beach assault; one written again after the next hex's (or after
    the last) is that clause's one error, and nothing of its result is owed. It was accepted (no error) or, with a
    result to carry out, an error of the result left undone (8.0)."""
    lines = lines_of(path)
    first_turn = next(i for i, line in enumerate(lines) if line.startswith("Turn "))
    again = one_slip(tmp_path, lines[:first_turn] + [lines[at].split("#")[0].rstrip() + "\n"] + lines[first_turn:],
                     first_turn + 1)
    assert [(f.severity, f.rule) for f in again] == [("error", "11.2.3")], again
    assert "made a beach assault already" in again[0].message


CARRYING_OUT = ("deplete ", "eliminate ", "stand ", "retreat ", "advance ", "draw ", "reinforce ", "replace ", "aside ",
                "lose ")


@pytest.mark.parametrize(("path", "at"), lines_starting(CARRYING_OUT),
                         ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_line_written_twice_word_for_word_is_one_error(tmp_path: Path, path: Path, at: int) -> None:
    """The engine (every system): an entry written again word for word right after itself, breaking a rule, is one
    error and is not carried out; before, a loss or stiff resistance written twice took a second step (the unit
    eliminated, and every later entry naming it an error: up to 13), a draw's markers were drawn twice."""
    lines, line = written_twice(path, at)
    found = log_findings(tmp_path, lines)
    errors = [f for f in found if f.severity == "error"]
    assert len(errors) <= 1, errors
    if errors and errors[0].line == line:
        one_slip(tmp_path, lines, line)  # every other finding is the log's own


@pytest.mark.parametrize(("game", "entry"), [("onslaught", "German> stand de-inf-01 de-inf-02"),
                                             ("moscow", "German: deplete ge-xxiv")])
def test_other_systems_copies_are_one_error(tmp_path: Path, game: str, entry: str) -> None:
    """The engine's rule holds in Onslaught and the classic series too (5 and 3 errors before)."""
    path = LEGAL[0].parent.parent / game / "legal-sample-game.log"
    at = next(i for i, text in enumerate(lines_of(path)) if text.split("#")[0].strip() == entry)
    errors = [f for f in log_findings(tmp_path, written_twice(path, at)[0]) if f.severity == "error"]
    assert [f.line for f in errors] == [at + 2], errors
    assert "written again" in errors[0].message

