"""Slips in an attack's writing, judged alike by every rule system: an attacker written twice is refused in the
system's combat section and never counted twice (Onslaught once summed such a division's strength twice, 1:1 read
as 2:1; so did Omaha's beach assault); a result the table has no code for is said to be one, with the code meant."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main as adjudicate

ROOT = Path(__file__).resolve().parent.parent
ONSLAUGHT = """[Game "onslaught"]
[Scenario "campaign"]
Turn 1
Step action
Allied: action combat supply 1
Allied: activate 0620 us-inf-01 supply 1
Allied: attack 0621 with us-inf-01 us-inf-01 odds 2:1 die 6 result HH
"""


def _moscow() -> str:
    text = (ROOT / "examples" / "moscow" / "breach-odds.log").read_text(encoding="utf-8")
    return text.replace("German: attack 0405 with ge-xl ge-xlvi odds 2:1 die 1 result DR  # expect: error 7.0",
                        "German: attack 0405 with ge-xl ge-xl ge-xlvi die 1")


def _omaha() -> str:
    text = (ROOT / "examples" / "omaha" / "legal-combat.log").read_text(encoding="utf-8")
    return text.replace("Allied: attack 2319 with 16/1 18/1 die 6 result -", "Allied: attack 2319 with 16/1 18/1 16/1 "
                                                                          "die 6 result -")


@pytest.mark.parametrize(("log", "cited", "unit"), [
    (lambda: ONSLAUGHT, "onslaught 7.0", "us-inf-01"),
    (_moscow, "moscow 7.0", "ge-xl"),
    (_omaha, "fire-and-movement 8.2", "16/1"),
])
def test_an_attacker_named_twice_is_one_error(tmp_path: Path, log: Callable[[], str], cited: str, unit: str) -> None:
    """One error on the attack, naming the unit, in the system's own combat section; the odds are not worked out
    from a strength counted twice (no second error for the claim)."""
    path = tmp_path / "twice.log"
    text = log()
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(adjudicate, ["check", str(path), "--format", "json"])
    findings = [f for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"]
    twice = [f for f in findings if "named twice among the attackers" in f["message"]]
    assert len(twice) == 1 and f"{twice[0]['system']} {twice[0]['rule']}" == cited and unit in twice[0]["message"]
    assert not [f for f in findings if "odds" in f["message"] and f["line"] == twice[0]["line"]]


@pytest.mark.parametrize(("line", "written", "meant"), [
    ("Allied: attack 2218 with 16/1 26/1 115/29 diff +10 die 4 result D2", "d2", "D2"),
    ("Allied: attack 2319 with 16/1 18/1 diff +12 die 3 result Ex support us_naval_7 de_sf_3", "ex", "Ex"),
])
def test_a_result_the_table_lacks_is_said_to_be_one(tmp_path: Path, line: str, written: str, meant: str) -> None:
    """F&M 8.2.1 d (and Omaha's beach assault, 11.2.3): a claimed result the table has no such code for is one
    error saying so, with the code meant, beside the result the table gives."""
    sample = (ROOT / "examples" / "omaha" / "legal-sample-game.log").read_text(encoding="utf-8")
    assert line in sample
    bad = tmp_path / "typo.log"
    bad.write_text(sample.replace(line, line.replace(f"result {meant}", f"result {written}")), encoding="utf-8")
    result = CliRunner().invoke(adjudicate, ["check", str(bad), "--format", "json"])
    errors = [f for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"]
    assert len(errors) == 1
    assert f"not {written}; {written} is no result of the table (did you mean '{meant}'?)" in errors[0]["message"]
