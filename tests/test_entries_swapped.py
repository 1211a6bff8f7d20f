"""Two entries written in each other's place (entries_swapped.py): one error. A combat result written right before
the attack it carries out cites the system's clause for results carried out with their combat; the attack is judged on
the position before it and the result carried out after it (session 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from edit_support import EXAMPLES, edited, errors


def assert_one_swap_error(tmp_path: Path, game: str, log: str, line: str, rule: str) -> None:
    """A bundled legal log with `line` swapped with the next has one error, on it, citing `rule`, read as the two in
    each other's place."""
    text, at = edited(EXAMPLES / game / log, "swap", line)
    found = errors(tmp_path, text)
    assert len(found) == 1, found
    assert (found[0].line, found[0].rule) == (at, rule), found[0]
    assert "in each other's place" in found[0].message, found[0]


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
    assert_one_swap_error(tmp_path, game, log, line, rule)


def test_a_result_the_attack_after_it_does_not_call_for_stays_its_own_error(tmp_path: Path) -> None:
    """A loss of the defender written before an attack whose result (DR) calls for its retreat is not read as swapped
    with it: 7.2's error of a result with no combat, as before."""
    lines = (EXAMPLES / "onslaught" / "legal-combat.log").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, s in enumerate(lines) if s.startswith("Allied: attack 0621"))
    text = "".join(lines[:at] + ["German> deplete de-inf-04\n"] + lines[at:at + 1])
    found = errors(tmp_path, text)
    assert found and found[0].line == at + 1 and "no combat result calls for" in found[0].message, found


@pytest.mark.parametrize(("game", "log", "line", "rule"), [
    ("onslaught", "legal-attacker-halved.log", "Allied: deplete br-inf-03", "7.2"),
    ("onslaught", "legal-sample-game.log", "Allied: activate 0420 supply 1", "9.1"),
    ("onslaught", "legal-turn1.log", "Roll Allied 6 German 2", "5.0"),
    ("omaha", "legal-combat.log", "Roll Allied 5", "11.1.4"),
])
def test_two_entries_swapped_are_one_error(tmp_path: Path, game: str, log: str, line: str, rule: str) -> None:
    """Any entry and the next swapped, each lawful in the order meant: the first's own error, saying so, and nothing
    more (a roll written before the last loss of its combat, an action before its activation, a roll-off before the
    marker it rolls for: each was two errors)."""
    assert_one_swap_error(tmp_path, game, log, line, rule)


def test_entries_after_the_two_tell_the_order_meant(tmp_path: Path) -> None:
    """A retreat written after the next attack, with its advances after it, is the attack declared early (8.0's one
    error, the bundled breach example), not the retreat and the attack swapped: read so, each advance would follow
    the wrong combat."""
    found = errors(tmp_path, (EXAMPLES / "omaha" / "breach-combat-order.log").read_text(encoding="utf-8"))
    assert [f.rule for f in found] == ["8.0"] and "each other's place" not in found[0].message, found


@pytest.mark.parametrize(("game", "log", "line", "rule"), [
    ("onslaught", "legal-sample-game.log", "Roll Allied 4 German 4", "5.0"),
    ("onslaught", "legal-sample-game.log", "German: pass", "5.0"),
    ("omaha", "legal-combat.log", "Allied: attack 2120 with 175/29 die 3 result -", "11.2.3"),
    ("omaha", "legal-displacement-chain.log", "Allied> retreat 115/29 2212-2112", "5.3"),
])
def test_an_entry_written_after_the_next_marker_is_one_error(tmp_path: Path, game: str, log: str, line: str,
                                                             rule: str) -> None:
    """The last entry of a step or phase swapped with the marker after it: the marker's one error (the step ended
    before it), the entry judged before the marker, where it belongs (it was a second error, out of its phase)."""
    text, at = edited(EXAMPLES / game / log, "swap", line)
    found = errors(tmp_path, text)
    assert [(f.line, f.rule) for f in found] == [(at, rule)], found

