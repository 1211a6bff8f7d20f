"""A game of many exchanges (issue 16 item 1): text logs continuing one another, a game's folder, each
exchange's seal verified by `check`, and a later exchange's dice against the whole game's ledger."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import main as adjudicate

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "examples" / "pbem"
GAME = PBEM / "game"
LEDGER = PBEM / "onslaught-sample.ledger.json"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(adjudicate, [str(a) for a in args])
    # A log that stops the check gets its verdict document on stdout, the reason in it; data errors go to stderr.
    return result.exit_code, result.stdout, result.stdout + result.stderr


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_the_example_game_folder_is_one_clean_game() -> None:
    """The four exchanges, sealed and receipted, checked as one game: every seal and link holds."""
    code, out, err = run("check", f"{GAME}/", "--ledger", LEDGER)
    assert code == 0, out + err
    assert "269 of 269 entries checked over 4 turn(s) from 4 logs" in out and "0 error(s), 0 warning(s)" in out
    # `adjudicate GAME_DIR` means `adjudicate check GAME_DIR`; the files given one by one are the same game.
    assert run(GAME)[0] == 0
    assert run("check", *sorted(GAME.glob("*.log")))[1] == run("check", GAME)[1]


def test_the_changed_die_is_reported_on_its_exchange_and_line() -> None:
    """The raised die is named in its own file, at its own line, with the receipt's roll."""
    code, out, _ = run("check", PBEM / "changed-die", "--ledger", LEDGER)
    assert code == 1
    log = PBEM / "changed-die" / "02-turn-2.log"
    line = line_of(log, "attack 0319")
    ledger_lines = [t for t in out.splitlines() if "[ledger" in t and "[ledger ledger-key]" not in t]
    assert ledger_lines == [
        f"{log}:{line}:1: error [ledger die]: die 5 in the log, but receipt #14 (Allied rolled 1d6 = 4 for "
        "'turn 2 step action: Allied attack 0319' at 2026-01-10T19:41:02.000000Z) rolled 4"]


def test_the_hidden_reroll_is_reported_on_its_exchange_and_line() -> None:
    """The folder's own ledger file is not read as an exchange; the hidden roll is named where it was hidden."""
    folder = PBEM / "hidden-reroll"
    code, out, _ = run("check", folder, "--ledger", folder / LEDGER.name)
    assert code == 1
    log = folder / "02-turn-2.log"
    assert [t for t in out.splitlines() if "[ledger" in t and "[ledger ledger-key]" not in t] == [
        f"{log}:{line_of(log, 'attack 0620')}:1: error [ledger hidden-roll]: roll #13 (Allied rolled 1d6 = 1 for "
        "'turn 2 step action: Allied attack 0620' at 2026-01-10T19:33:49.000000Z) is in the ledger but not in the log (before "
        "the roll of receipt #14 on this line): a roll made and not reported"]
    assert "from 4 logs" in out


def test_a_later_exchange_alone_against_the_whole_ledger() -> None:
    """Alone, a later exchange's dice are checked; rolls of earlier exchanges are not hidden, a reroll of one of
    its own purposes is, and rolls after its last receipt are one warning (the exchanges that follow)."""
    code, out, _ = run("check", GAME / "03-turn-3.log", "--ledger", LEDGER)
    assert code == 0, out
    assert "hidden-roll" not in out and "[ledger later-rolls]" in out and "13 roll(s) of the ledger" in out
    assert "only its dice were checked" in out
    assert run("check", GAME / "04-turn-4.log", "--ledger", LEDGER)[1].count("warning [") == 0
    folder = PBEM / "hidden-reroll"
    code, out, _ = run("check", folder / "02-turn-2.log", "--ledger", folder / LEDGER.name)
    assert code == 1 and "error [ledger hidden-roll]: roll #13" in out
    code, out, _ = run("check", PBEM / "changed-die" / "02-turn-2.log", "--ledger", LEDGER, "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["rules_checked"] is False
    assert [f["rule"] for f in doc["findings"]] == ["ledger-key", "die", "later-rolls"]


def test_a_later_exchange_alone_without_a_ledger_is_refused() -> None:
    code, _, err = run("check", GAME / "02-turn-2.log")
    assert code == 2 and "a later exchange of a game is read after the ones before it" in err


def test_an_exchange_that_does_not_continue_its_predecessor_names_both(tmp_path: Path) -> None:
    first, third = GAME / "01-turn-1.log", GAME / "03-turn-3.log"
    code, _, err = run("check", first, third)
    assert code == 2
    assert f"{third} does not continue {first}: it begins turn 3 (line 1), but {first} ended on turn 1" in err
    code, _, err = run("check", GAME / "02-turn-2.log", first)
    assert code == 2 and "names no game" in err
    # A second game's set-up after the first one's turns (the first exchange, its comment changed).
    again = tmp_path / "again.log"
    again.write_text(first.read_text(encoding="utf-8").replace("# Onslaught", "# Onslaught again"), encoding="utf-8")
    code, _, err = run("check", first, GAME / "02-turn-2.log", again)
    assert code == 2 and f"{again} does not continue {GAME / '02-turn-2.log'}: it sets up a game" in err


def test_headers_repeated_or_not(tmp_path: Path) -> None:
    """A later exchange may repeat the game's headers; another game's is refused."""
    first = GAME / "01-turn-1.log"
    headers = "".join(line + "\n" for line in first.read_text(encoding="utf-8").splitlines() if line.startswith("["))
    second = tmp_path / "02.log"
    second.write_text(headers + (GAME / "02-turn-2.log").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run("check", first, second)
    assert code == 0 and "from 2 logs" in out, out
    second.write_text('[Game "omaha"]\n' + (GAME / "02-turn-2.log").read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run("check", first, second)
    assert code == 2 and "a log of omaha, but" in err


def sealed_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(GAME, folder)
    return folder


def test_check_verifies_each_exchanges_seal(tmp_path: Path) -> None:
    """An entry rewritten after sealing is reported by `check` on the folder, in its file at its line."""
    folder = sealed_copy(tmp_path)
    log = folder / "02-turn-2.log"
    log.write_text(log.read_text(encoding="utf-8").replace("die 4 result DR", "die 4 result DH"), encoding="utf-8")
    code, out, _ = run("check", folder)
    assert code == 1
    line = line_of(log, "attack 0319")
    assert f"{log}:{line}:1: error [seal entry]: this entry was rewritten after sealing (the sealed entry here " \
           f"stood on {log} line {line})" in out
    assert out.count("[seal ") == 1


def test_check_verifies_the_links_between_seals(tmp_path: Path) -> None:
    """An exchange whose seal does not carry the previous exchange's final hash is named."""
    folder = sealed_copy(tmp_path)
    # An exchange left unsealed: the next seal's link is checked against its hashes as made now.
    (folder / "02-turn-2.log.seal").unlink()
    assert run("check", folder)[0] == 0
    seal = folder / "03-turn-3.log.seal"
    doc = seal.read_text(encoding="utf-8")
    previous = json.loads(doc.split(', "entries"')[0] + "}")["previous"]
    seal.write_text(doc.replace(previous, "0" * 64), encoding="utf-8")
    code, out, _ = run("check", folder)
    assert code == 1
    assert f"{folder / '03-turn-3.log'}:1:1: error [seal previous]: the seal carries a previous hash that is not " \
           f"the final hash of {folder / '02-turn-2.log'}" in out


def test_state_and_convert_take_the_folder(tmp_path: Path) -> None:
    code, out, _ = run("state", GAME, "--at", "02-turn-2.log:13")
    assert code == 0 and out.startswith("Turn 2, step action")
    whole = tmp_path / "whole.log"
    assert run("convert", GAME, "-o", whole)[0] == 0
    code, out, _ = run("check", whole)
    assert code == 0 and "269 of 269 entries checked over 4 turn(s)" in out


def test_a_folder_without_logs(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("no logs here\n", encoding="utf-8")
    code, _, err = run("check", tmp_path)
    assert code == 2 and "is a folder with no log in it" in err
