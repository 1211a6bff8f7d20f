"""Sealed logs (issue 16): `adjudicate seal` writes LOG.seal; an entry rewritten, added or removed after
sealing is reported with its line; each exchange's seal carries the previous exchange's final hash."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main as adjudicate

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "pbem" / "game"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(adjudicate, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def sealed_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example game's exchanges, each sealed by its sender in turn (once for the module)."""
    folder = tmp_path_factory.mktemp("sealed")
    logs: list[Path] = []
    for source in sorted(GAME.glob("*.log")):
        logs.append(Path(shutil.copy(source, folder / source.name)))
        code, output = run("seal", *map(str, logs))
        assert code == 0, output
        assert output.strip() == f"{logs[-1]}.seal"
    return folder


@pytest.fixture
def sealed(sealed_once: Path, tmp_path: Path) -> list[Path]:
    """A copy of the sealed exchanges to break."""
    for path in sealed_once.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return sorted(tmp_path.glob("*.log"))


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first line holding `old`; its line number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines) if old in line)
    lines[number] = lines[number].replace(old, new)
    path.write_text("".join(lines), encoding="utf-8")
    return number + 1


def test_sealed_exchanges_verify_and_seals_are_deterministic(sealed: list[Path], tmp_path: Path) -> None:
    """Four sealed exchanges verify; sealing the same logs again gives the same bytes; a log is sealed once."""
    code, output = run("seal", "--verify", *map(str, sealed))
    assert (code, output) == (0, "4 log(s), 4 sealed: 0 problem(s)\n")
    # The example game's committed seals are what the senders' `adjudicate seal` makes.
    assert all(Path(f"{log}.seal").read_bytes() == (GAME / f"{log.name}.seal").read_bytes() for log in sealed)
    first = Path(f"{sealed[0]}.seal").read_bytes()
    again = tmp_path / "again"
    again.mkdir()
    copy = Path(shutil.copy(sealed[0], again / sealed[0].name))
    assert run("seal", str(copy))[0] == 0
    assert Path(f"{copy}.seal").read_bytes() == first
    code, output = run("seal", str(copy))
    assert code == 2 and "a log is sealed once" in output
    assert run("check", str(sealed[0]))[0] == 0


def test_a_rewritten_entry_is_reported_with_its_line(sealed: list[Path]) -> None:
    """A die changed in the first exchange: `seal --verify` and `check` both name the line, once."""
    line = edit(sealed[0], "odds 2:1 die 5 result DR", "odds 2:1 die 6 result DR")
    code, output = run("seal", "--verify", *map(str, sealed))
    assert code == 1
    assert output.splitlines() == [
        f"{sealed[0]}:{line}:1: error [seal entry]: this entry was rewritten after sealing (the sealed entry here "
        f"stood on line {line})", "4 log(s), 4 sealed: 1 problem(s)"]
    code, output = run("check", str(sealed[0]))
    assert code == 1 and f"{sealed[0]}:{line}:1: error [seal entry]: this entry was rewritten" in output


def test_added_and_removed_entries_are_reported(sealed: list[Path]) -> None:
    """A line removed and a line added in a later exchange: each reported, no cascade over the positions."""
    log = sealed[1]
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    removed = next(n for n, text in enumerate(lines, 1) if text.startswith("Allied: activate 0419"))
    del lines[removed - 1]
    lines.insert(2, "# the German player agreed to this\n")
    log.write_text("".join(lines), encoding="utf-8")
    code, output = run("seal", "--verify", *map(str, sealed))
    assert code == 1
    problems = output.splitlines()[:-1]
    assert problems == [
        f"{log}:3:1: error [seal entry]: this entry was added after sealing",
        f"{log}:{removed + 1}:1: error [seal entry]: 1 entry sealed on line {removed} was removed after sealing "
        f"(before this line)"]


def test_a_resealed_exchange_breaks_the_link_to_the_next(sealed: list[Path]) -> None:
    """Rewriting an exchange and sealing it anew is seen by the next exchange's seal, which carries the old hash."""
    edit(sealed[0], "odds 2:1 die 5 result DR", "odds 2:1 die 6 result DR")
    Path(f"{sealed[0]}.seal").unlink()
    assert run("seal", str(sealed[0]))[0] == 0
    code, output = run("seal", "--verify", *map(str, sealed))
    assert code == 1
    assert output.splitlines()[0] == (
        f"{sealed[1]}:1:1: error [seal previous]: the seal carries a previous hash that is not the final hash of "
        f"{sealed[0].name}")


def test_an_edited_seal_proves_nothing(sealed: list[Path]) -> None:
    """A hash changed in the sidecar breaks its own chain; a damaged sidecar is exit 2 with the reason."""
    seal = Path(f"{sealed[0]}.seal")
    text = seal.read_text(encoding="utf-8")
    at = text.index('"position": "') + len('"position": "')
    seal.write_text(text[:at] + ("1" if text[at] != "1" else "2") + text[at + 1:], encoding="utf-8")
    code, output = run("seal", "--verify", str(sealed[0]))
    assert code == 1 and "error [seal seal]: the seal's hash for line" in output
    seal.write_text("{", encoding="utf-8")
    code, output = run("check", str(sealed[0]))
    assert code == 2 and "not a seal" in output and "Traceback" not in output


def test_a_sealed_json_twin(tmp_path: Path) -> None:
    """A JSON log is sealed the same way; an entry rewritten in it is named by its line in the JSON twin's
    numbering (the text log's lines, which the twin keeps)."""
    twin = tmp_path / "01-turn-1.json"
    assert run("convert", str(GAME / "01-turn-1.log"), "-o", str(twin))[0] == 0
    assert run("seal", str(twin))[0] == 0
    assert run("check", str(twin))[0] == 0
    document = json.loads(twin.read_text(encoding="utf-8"))
    attack = next(e for e in document["entries"] if e["kind"] == "attack")
    attack["die"] = 6 if attack["die"] != 6 else 5
    twin.write_text(json.dumps(document), encoding="utf-8")
    code, output = run("seal", "--verify", str(twin))
    assert code == 1
    assert output.splitlines()[0] == (f"{twin}:{attack['line']}:1: error [seal entry]: this entry was rewritten "
                                      f"after sealing (the sealed entry here stood on line {attack['line']})")


def test_the_chains_first_link_is_the_hash_it_names() -> None:
    """START is written out (a check imports no hashlib for it): it is the SHA-256 of b"umpire-seal-v1"."""
    import hashlib

    from adjudicator.seal import START

    assert START == hashlib.sha256(b"umpire-seal-v1").hexdigest()
