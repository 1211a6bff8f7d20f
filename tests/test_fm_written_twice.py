"""Fire & Movement, a combat's line written twice in Omaha's legal examples: the copy is one error, citing the
clause it breaks, and every other finding is the log's own (the result's lines after it carry out the combat under
way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fm_log import LEGAL, lines_of, one_slip, written_twice


def lines_starting(prefixes: tuple[str, ...]) -> list[tuple[Path, int]]:
    """(log, index) of every line of the legal examples whose entry (after its side) begins with one of `prefixes`."""
    return [(path, i) for path in LEGAL for i, line in enumerate(lines_of(path))
            if line.split("#")[0].split(":", 1)[-1].strip().startswith(prefixes)]


@pytest.mark.parametrize(("path", "at"), lines_starting(("attack ", "bombard ")),
                         ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_combat_written_twice_is_one_error(tmp_path: Path, path: Path, at: int) -> None:
    """8.2 (an attack: its units attack once a phase, their strength unitary) and 8.0 (a bombardment: its target
    suffers one attack a phase): the copy is one error and is not carried out; before, it also left the first
    combat's result undone (8.0), used its markers again (7.2) and attacked its defender again."""
    again = one_slip(tmp_path, *written_twice(path, at))
    rule = "8.2" if " attack " in lines_of(path)[at] else "8.0"
    errors = [f for f in again if f.severity == "error"]
    assert [f.rule for f in errors] == [rule], again
    assert "written again" in errors[0].message
