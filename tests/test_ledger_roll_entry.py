"""`umpire-ledger roll --entry` (issue 27, item 2): the structured purpose is made from the log entry the die is
for, by the checker's own function, so players do not type it and `check --ledger` binds the receipt to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.dice_ledger import check_dice
from adjudicator.notation.text import parse_text
from ledger.cli import main as umpire_ledger
from ledger.client import EntryError, purpose_for_entry
from ledger_support import LedgerProcess, fixed_key, write_test_key
from wargame.receipts import Ledger, public_key_text, receipt_from_token

ALLIED, GERMAN = "allied-token-0123456789", "german-token-0123456789"


@pytest.mark.parametrize(("entry", "turn", "step", "player", "purpose"), [
    ("Allied: attack 1718 with us-inf-01 us-inf-02", 3, "action", "Allied", "turn 3 step action: Allied attack 1718"),
    ("German: bombard 2319 diff +2 support de_sf_6", 2, None, "German", "turn 2: German bombard 2319"),
    ("Roll", 1, None, "German", "turn 1: German roll"),
    ("Roll Allied", 0, "setup", "Allied", "turn 0 step setup: Allied roll"),
])
def test_the_purpose_is_the_entrys(entry: str, turn: int, step: str | None, player: str, purpose: str) -> None:
    assert purpose_for_entry(entry, turn, step, player) == purpose


@pytest.mark.parametrize("entry", ["Allied: attack 1718 with us-inf-01 us-inf-02 odds 2:1 die 4",
                                   "German> attack 0621 with de-inf-04", "German: bombard 2319 diff +2 support de_sf_6",
                                   "Allied: bombard 2319 die 3 result D1 defender 16/1 support us_naval_7"])
def test_the_ledgers_reading_is_the_checkers(entry: str) -> None:
    """The ledger reads an entry's purpose from its words (it may not import the adjudicator); the checker's own
    function gives the same purpose for every rolling entry."""
    from adjudicator.dice_ledger import purpose_of
    checker = purpose_of(parse_text(entry)[0], 0, 5, "combat")
    assert checker is not None and purpose_for_entry(entry, 5, "combat", "nobody") == checker.text()


@pytest.mark.parametrize(("entry", "message"), [
    ("Allied: move us-inf-01 0621-0622", "rolls no die"),
    ("Allied: attack with", "rolls no die"),
    ("Roll Allied\u202e", "rolls no die"),
])
def test_an_entry_that_rolls_no_die_is_refused(entry: str, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        purpose_for_entry(entry, 1, None, "Allied")


def test_roll_with_entry_against_a_served_ledger_binds_the_receipt(tmp_path: Path) -> None:
    """The receipt rolled with --entry carries the entry's purpose; the log's attack checks clean with it, and the
    same receipt used for another attack is the checker's receipt-entry error; misuse is exit 2."""
    runner = CliRunner()
    server = LedgerProcess(f"sqlite:///{tmp_path / 'l.sqlite'}", write_test_key(tmp_path / "key.pem"))
    server.start()
    env = {"ALLIED_TOKEN": ALLIED}
    try:
        opened = runner.invoke(umpire_ledger, ["open", "--db", server.db, "--key", str(server.key), "--rules",
                                               "onslaught", "g1", f"Allied={ALLIED}", f"German={GERMAN}"])
        assert opened.exit_code == 0, opened.output
        rolled = runner.invoke(umpire_ledger, [
            "roll", "--url", server.url, "--token-env", "ALLIED_TOKEN", "--entry",
            "Allied: attack 1718 with us-inf-01 us-inf-02", "--turn", "3", "--step", "action", "g1", "Allied", "1d6"],
            env=env)
        assert rolled.exit_code == 0, rolled.output
        first, line = rolled.output.splitlines()
        assert first.endswith("for 'turn 3 step action: Allied attack 1718'")
        receipt = receipt_from_token(line.removeprefix("receipt "))
        assert receipt.purpose == "turn 3 step action: Allied attack 1718"
        for args, message in [
            (["--entry", "Allied: move us-inf-01 0621-0622", "--turn", "3"], "rolls no die"),
            (["--entry", "Allied: attack 1718 with us-inf-01"], "--entry needs --turn"),
            (["--entry", "Roll", "--turn", "1", "g1", "Allied", "1d6", "roll-off"], "not both"),
            (["--turn", "1", "g1", "Allied", "1d6", "roll-off"], "--turn and --step go with --entry"),
            (["g1", "Allied", "1d6"], "give PURPOSE, or --entry"),
        ]:
            if "g1" not in args:
                args = [*args, "g1", "Allied", "1d6"]
            refused = runner.invoke(umpire_ledger, ["roll", "--url", server.url, "--token-env", "ALLIED_TOKEN", *args],
                                    env=env)
            assert refused.exit_code == 2 and message in refused.output, (args, refused.output)
    finally:
        server.stop()
    ledger = Ledger("g1", public_key_text(fixed_key().public_key()), (receipt,))
    die = receipt.result[0]
    right = f"Turn 3\nStep action\nAllied: attack 1718 with us-inf-01 us-inf-02 die {die} receipt {receipt.token()}"
    assert [f.rule for f in check_dice(parse_text(right), ledger) if f.severity != "note"] == []
    wrong = right.replace("attack 1718", "attack 1817")
    assert [f.rule for f in check_dice(parse_text(wrong), ledger) if f.severity == "error"] == ["receipt-entry"]
