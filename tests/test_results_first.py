"""A combat result written right before the attack it carries out (the two lines swapped) is one error of the order
of the log, citing the system's clause for results carried out with their combat (results_first.py); the attack is
judged on the position before it and the result carried out after it (session 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from edit_support import EXAMPLES, edited, errors


@pytest.mark.parametrize(("game", "log", "line", "rule"), [
    ("onslaught", "legal-combat.log", "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DR", "7.2"),
    ("onslaught", "legal-attacker-halved.log",
     "Allied: attack 0821 with br-inf-02 br-inf-03 br-para-01 odds 3:1 die 1 result AH", "7.2"),
    ("onslaught", "legal-results.log",
     "Allied: attack 0821 with br-inf-02 br-inf-03 odds 2:1 die 6 result DH", "7.2"),
    ("omaha", "legal-combat.log",
     "Allied: attack 2117 with 16/1 26/1 diff +6 die 3 result D2 support us_sf_6 de_sf_4", "8.2"),
    ("omaha", "legal-displacement-declined.log",
     "Allied: attack 2218 with 16/1 26/1 115/29 diff +8 die 3 result D2", "8.2"),
])
def test_a_result_written_before_its_attack_is_one_error(tmp_path: Path, game: str, log: str, line: str,
                                                         rule: str) -> None:
    """The attack and the result after it swapped: one error, on the result, citing the clause that carries a result
    out with its combat; the odds were judged on the position the result then changed (more errors before)."""
    text, at = edited(EXAMPLES / game / log, "swap", line)
    found = errors(tmp_path, text)
    assert len(found) == 1, found
    assert (found[0].line, found[0].rule) == (at, rule), found[0]
    assert "in each other's place" in found[0].message, found[0]


def test_a_result_the_attack_after_it_does_not_call_for_stays_its_own_error(tmp_path: Path) -> None:
    """A loss of the defender written before an attack whose result (DR) calls for its retreat is not read as swapped
    with it: 7.2's error of a result with no combat, as before."""
    lines = (EXAMPLES / "onslaught" / "legal-combat.log").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, s in enumerate(lines) if s.startswith("Allied: attack 0621"))
    text = "".join(lines[:at] + ["German> deplete de-inf-04\n"] + lines[at:at + 1])
    found = errors(tmp_path, text)
    assert found and found[0].line == at + 1 and "no combat result calls for" in found[0].message, found
