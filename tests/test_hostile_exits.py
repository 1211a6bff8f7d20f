"""Exits that said 3 (an internal error) on a fault of the input or of the machine (issue 28): each is
exit 2 with a message naming what is wrong."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from umpire.cli import main as adjudicate

ROOT = Path(__file__).resolve().parent.parent
ONSLAUGHT = ROOT / "examples" / "onslaught" / "legal-combat.log"
OMAHA = ROOT / "examples" / "omaha" / "legal-combat.log"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(adjudicate, list(args))
    assert "internal error" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(("log", "old", "new"), [
    (ONSLAUGHT, "with us-inf-01 us-inf-02", "with us-inf-01 us-inf-99"),
    (OMAHA, "attack 2319 with 16/1 18/1", "attack 2319 with 16/1 99/9"),
])
def test_combat_with_an_unknown_attacker(log: Path, old: str, new: str, tmp_path: Path) -> None:
    """`combat` of a log whose attack names an unknown unit: exit 2 with the replay's stop (was KeyError, 3)."""
    text = log.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / log.name
    bad.write_text(text.replace(old, new), encoding="utf-8")
    line = next(n for n, row in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1) if new in row)
    for extra in ([], ["--at", str(line)]):
        code, out = _run("combat", str(bad), *extra)
        assert code == 2 and "the replay stops" in out and "unknown unit" in out, out
    assert _run("check", str(bad))[0] == 2


@pytest.mark.parametrize("line", ["Martian: income 5", "Martian: capture 0620", "Martian: pass",
                                  "Roll Allied 3 Martian 4"])
def test_a_side_the_game_lacks(line: str, tmp_path: Path) -> None:
    """A side the game does not have stops the replay like an unknown unit (was KeyError 'martian_supply_max')."""
    log = tmp_path / "side.log"
    log.write_text(f'[Game "onslaught"]\nTurn 1\nStep action\n{line}\n', encoding="utf-8")
    code, out = _run("check", str(log))
    assert code == 2 and "unknown side 'Martian' (the game's: Allied, German)" in out


@pytest.mark.parametrize("rolls", [{}, {"Martian": 3}])
def test_a_json_rolloff_with_no_or_foreign_rolls(rolls: dict[str, int], tmp_path: Path) -> None:
    """`"rolls": {}` (was IndexError, 3) and a foreign side in a JSON roll-off: exit 2."""
    twin = tmp_path / "c.json"
    assert _run("convert", str(ONSLAUGHT), "-o", str(twin))[0] == 0
    doc = json.loads(twin.read_text(encoding="utf-8"))
    for entry in doc["entries"]:
        if entry["kind"] == "rolloff":
            entry["rolls"] = rolls
    twin.write_text(json.dumps(doc), encoding="utf-8")
    code, out = _run("check", str(twin))
    assert code == 2 and ("rolls: Dictionary should have at least 1 item" in out or "unknown side 'Martian'" in out)


def _process(args: list[str], **streams: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], text=True, stderr=subprocess.PIPE, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, **streams)  # type: ignore[call-overload]


@pytest.mark.parametrize("args", [["umpire", "check", str(ONSLAUGHT)], ["umpire", "schema"],
                                  ["builder", "show", "onslaught"]])
def test_standard_output_on_a_full_disk(args: list[str]) -> None:
    """Standard output on a full disk: exit 2 and `could not write its output` (was "internal error", 3)."""
    with open("/dev/full", "w") as full:
        done = _process(args, stdout=full)
    assert done.returncode == 2 and "could not write its output: No space left on device" in done.stderr
    assert "internal error" not in done.stderr


@pytest.mark.parametrize("args", [["umpire", "check", str(ONSLAUGHT)], ["umpire", "schema"],
                                  ["umpire", "state", str(ONSLAUGHT)]])
def test_standard_output_closed(args: list[str]) -> None:
    """`>&-`: exit 2 and why (printed nothing and exited 0)."""
    done = subprocess.run([sys.executable, "-m", *args], text=True, stderr=subprocess.PIPE, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2 and "standard output is closed" in done.stderr


@pytest.mark.parametrize("kind", ["fifo", "folder", "dangling"])
def test_a_game_folder_with_an_exchange_that_is_not_a_file(kind: str, tmp_path: Path) -> None:
    """A FIFO, folder or broken link named like an exchange was left out without a word (exit 0)."""
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "01-start.log").write_bytes(ONSLAUGHT.read_bytes())
    odd = folder / "02-next.log"
    {"fifo": lambda: os.mkfifo(odd), "folder": odd.mkdir, "dangling": lambda: odd.symlink_to("nowhere")}[kind]()
    code, out = _run("check", str(folder))
    assert code == 2 and "02-next.log is named like an exchange but is" in out


def test_a_utf16_exchange_is_named_as_itself(tmp_path: Path) -> None:
    """A UTF-16 second exchange was reported at `01-...log:1:1`; it is its own file, with what to do."""
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "01-start.log").write_bytes(ONSLAUGHT.read_bytes())
    (folder / "02-next.log").write_bytes("Turn 2\n".encode("utf-16"))
    code, out = _run("check", str(folder))
    assert code == 2 and "02-next.log:1:1: error [notation syntax]: UTF-16 text" in out
    assert "01-start.log:1:1" not in out and "save it as UTF-8" in out


def test_combat_with_an_attacker_not_on_the_map(tmp_path: Path) -> None:
    """Found by the `combat` fuzz target: an attacker known to the game but not arrived yet (KeyError, 3);
    `check` gives the breach, `combat` says it cannot audit that combat (exit 2)."""
    bad = tmp_path / "para.log"
    bad.write_text(ONSLAUGHT.read_text(encoding="utf-8").replace("with us-inf-01 us-inf-02", "with us-inf-01 br-para-02"),
                   encoding="utf-8")
    for extra in ([], ["--at", "7"]):
        code, out = _run("combat", str(bad), *extra)
        assert code == 2 and "br-para-02 is not on the map at the combat: it cannot be audited" in out, out
    assert _run("check", str(bad))[0] == 1
