"""Issue 26 item 5: a later exchange whose header contradicts the game's first file is an error at its file and
line, not silently accepted (the rules read every header from the start); the same within one file."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def verdict(*paths: Path) -> tuple[int, list[str]]:
    """The exit code and the finding lines of `adjudicate` on logs given in order."""
    result = CliRunner().invoke(main, [str(p) for p in paths])
    return result.exit_code, [line for line in result.output.splitlines() if ": error [" in line]


def test_a_later_exchange_contradicting_the_first(tmp_path: Path) -> None:
    """A second exchange naming another scenario, or an optional rule once play has begun:
    one error each at its file and line; repeating the first file's headers is no error."""
    first = tmp_path / "01.log"
    first.write_text((EXAMPLES / "omaha" / "legal-combat.log").read_text(encoding="utf-8"), encoding="utf-8")
    later = tmp_path / "02.log"
    later.write_text('[Scenario "campaign"]\n[Optional "flak"]\n', encoding="utf-8")
    code, errors = verdict(first, later)
    assert code == 1
    assert [e.split(" error ")[0] for e in errors] == [f"{later}:1:1:", f"{later}:2:1:"]
    assert 'contradicts the game\'s [Scenario "beach_to_bocage"]' in errors[0]
    later.write_text('[Scenario "beach_to_bocage"]\n', encoding="utf-8")
    assert verdict(first, later) == (0, [])


def test_one_file_naming_two_scenarios(tmp_path: Path) -> None:
    """Within one file too, a second [Scenario] or [LedgerKey] naming another is an error at its line."""
    log = tmp_path / "game.log"
    log.write_text('[Game "onslaught"]\n[Scenario "campaign"]\n[LedgerKey "56475aa75463474c"]\nTurn 1\n'
                   '[Scenario "bulge"]\n[LedgerKey "0000000000000000"]\n', encoding="utf-8")
    code, errors = verdict(log)
    assert code == 1 and [e.split(" error ")[0] for e in errors] == [f"{log}:5:1:", f"{log}:6:1:"]
