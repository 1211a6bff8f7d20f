"""Session 22's hand-made hostile inputs (docs/fuzzing.md): outputs that are an input, a symlink loop or in a
folder that does not exist, JSON nested past the parser's stack where a ledger or a receipt is read, an empty
log given to convert. Each is exit 2 with what is wrong, the user's files as they were."""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from umpire.cli import main as adjudicate

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "onslaught" / "legal-combat.log"
RETREAT = ROOT / "examples" / "onslaught" / "legal-retreat-one-hex.log"
PBEM = ROOT / "examples" / "pbem"


def _run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(adjudicate, [str(a) for a in args])
    assert "internal error" not in result.output and result.exception is None or isinstance(
        result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _writers(log: Path, output: Path, module: Path) -> dict[str, list[str | Path]]:
    """Every command that writes a file named by -o, writing `output` from `log`, with --force (export's module a
    stand-in: the output is refused before it is read)."""
    module.write_bytes(b"PK\x05\x06" + bytes(18))
    return {
        "convert": ["convert", log, "-o", output, "--force"],
        "export": ["export", log, "--module", module, "-o", output, "--force"],
        "picture": ["picture", log, "-o", output, "--force"],
        "reach": ["reach", log, "us-inf-01", "-o", output, "--force"],
        "retreats": ["retreats", log, "-o", output, "--force"],
        "check-html": ["check", log, "--format", "html", "-o", output, "--force"],
    }


COMMANDS = ["convert", "export", "picture", "reach", "retreats", "check-html"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("how", ["same", "hard link", "symlink"])
def test_an_output_that_is_the_input_is_refused(command: str, how: str, tmp_path: Path) -> None:
    """`-o` naming the log read (itself, another hard link of it, a symlink to it), even with --force: exit 2 and
    the log as it was. Only `convert` and `export` compared names, and `picture -o LOG --force` wrote a PNG over the
    log; a hard link passed convert's check too."""
    log = tmp_path / "game.log"
    log.write_bytes(SAMPLE.read_bytes())
    output = {"same": log, "hard link": tmp_path / "other.log", "symlink": tmp_path / "link.log"}[how]
    if how == "hard link":
        os.link(log, output)
    elif how == "symlink":
        output.symlink_to(log.name)
    code, out = _run(*_writers(log, output, tmp_path / "game.vmod")[command])
    assert code == 2 and "the output would overwrite an input" in out, out
    assert log.read_bytes() == SAMPLE.read_bytes()


@pytest.mark.parametrize("command", COMMANDS)
def test_an_output_that_is_a_symlink_loop(command: str, tmp_path: Path) -> None:
    """`-o LOOP` (a symlink to a symlink to it): exit 2 naming it (convert and export raised RuntimeError from
    Path.resolve, exit 3)."""
    loop, back = tmp_path / "loop.out", tmp_path / "back.out"
    loop.symlink_to(back.name)
    back.symlink_to(loop.name)
    code, out = _run(*_writers(SAMPLE, loop, tmp_path / "game.vmod")[command])
    assert code == 2 and f"cannot write {loop}: Too many levels of symbolic links" in out, out


@pytest.mark.parametrize("command", COMMANDS)
def test_an_output_in_a_folder_that_does_not_exist(command: str, tmp_path: Path) -> None:
    """`-o typo/out`: exit 2 before any work, no folder made (the folders were made, and the output written)."""
    output = tmp_path / "typo" / "deeper" / "out.png"
    code, out = _run(*_writers(SAMPLE, output, tmp_path / "game.vmod")[command])
    assert code == 2 and f"the folder {output.parent} does not exist" in out, out
    assert not (tmp_path / "typo").exists()


def test_an_output_under_a_file_names_the_file(tmp_path: Path) -> None:
    """`-o FILE/out`: the file in the way is named before any work."""
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    code, out = _run("picture", SAMPLE, "-o", tmp_path / "afile" / "out.png")
    assert code == 2 and f"the folder {tmp_path / 'afile'} is a file, not a folder" in out


def test_an_output_that_is_the_module_is_refused(tmp_path: Path) -> None:
    """`convert REC.vlog --module M.vmod -o M.vmod --force`: the module is an input too."""
    module = tmp_path / "game.vmod"
    module.write_bytes(b"PK\x05\x06" + bytes(18))
    code, out = _run("convert", ROOT / "tests" / "data" / "vassal" / "onslaught-zoc.vlog", "--module", module,
                     "-o", module, "--force")
    assert code == 2 and "the output would overwrite an input" in out
    assert module.read_bytes() == b"PK\x05\x06" + bytes(18)


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def test_a_ledger_nested_deep(tmp_path: Path) -> None:
    """`check --ledger` of arrays nested 200,000 deep: exit 2 (RecursionError, exit 3)."""
    ledger = tmp_path / "deep.ledger.json"
    ledger.write_bytes(_nested(200_000))
    code, out = _run("check", SAMPLE, "--ledger", ledger)
    assert code == 2 and "not a ledger file (JSON): arrays or objects nested too deep" in out, out


def test_a_receipt_nested_deep_in_a_log(tmp_path: Path) -> None:
    """A die's receipt in a log whose JSON is arrays nested 1,530 deep (4,088 characters: a log allows 4,096) was
    a RecursionError (exit 3) under `check --ledger`; it is a damaged receipt, an error of the log."""
    game = PBEM / "game" / "01-turn-1.log"
    token = "umpire1." + base64.urlsafe_b64encode(_nested(1530)).decode().rstrip("=")
    log = tmp_path / game.name
    log.write_text(re.sub(r"umpire1\.[A-Za-z0-9_-]+", token, game.read_text(encoding="utf-8"), count=1),
                   encoding="utf-8")
    code, out = _run("check", log, "--ledger", PBEM / "onslaught-sample.ledger.json")
    # Python 3.11 and 3.12 stop decoding at this depth (the damaged receipt); 3.13's decoder goes deeper and reads
    # arrays, which are no receipt either: an error of the log's either way, never exit 3.
    assert code == 1 and "error [ledger receipt]" in out and (
        "the receipt is damaged: its text does not decode" in out or "receipt: expected a JSON object" in out), out


def test_a_geography_extract_nested_deep(tmp_path: Path) -> None:
    """An extract of arrays nested 200,000 deep is not an extract (RecursionError)."""
    from builder.geography.geojson import read_features
    from wargame.errors import DataError

    extract = tmp_path / "extract.geojson"
    extract.write_bytes(_nested(200_000))
    with pytest.raises(DataError, match="nested too deep"):
        read_features(extract)


@pytest.mark.parametrize(("name", "content"), [
    ("empty.log", b""), ("blank.log", b"\n  \n\n"),
    ("empty.json", json.dumps({"format": "umpire-log", "version": 1, "entries": []}).encode()),
])
def test_convert_of_a_log_without_entries(name: str, content: bytes, tmp_path: Path) -> None:
    """An empty file converted: exit 2, nothing written (an empty log was written, exit 0)."""
    log, output = tmp_path / name, tmp_path / "out.json"
    log.write_bytes(content)
    code, out = _run("convert", log, "-o", output)
    assert code == 2 and "the log holds no entry" in out and not output.exists()


UNREADABLE = Path("/proc/sys/vm/compact_memory")
"""A file no one may read, root included (write-only): a data file linked to it is one we may not read."""


def _unreadable() -> Path:
    try:
        UNREADABLE.open("rb").close()
    except PermissionError:
        return UNREADABLE
    except OSError:
        pass
    pytest.skip("no file here that even this user may not read")


@pytest.mark.parametrize("name", ["maps/onslaught/map.toml", "counters/onslaught/units.csv"])
def test_a_data_file_we_may_not_read(name: str, data_copy: Path) -> None:
    """A game's data file we may not read: `validate` listed nothing and exited 3 (the game cache's fingerprint
    read it unguarded), `show` and `preview` blamed the output folder (`cannot write into None`); each names the
    file now."""
    from builder.cli import main as vmodbuild

    (data_copy / name).unlink()
    (data_copy / name).symlink_to(_unreadable())
    for args, code in ((["validate"], (1, 2)), (["show"], (2,)), (["preview", "--out", str(data_copy / "pv")], (2,))):
        result = CliRunner().invoke(vmodbuild, [args[0], "onslaught", "--data", str(data_copy), *args[1:]])
        assert result.exit_code in code and f"{name}: cannot read: Permission denied" in result.output, result.output
        assert "cannot write" not in result.output and "internal error" not in result.output


def test_an_error_reading_a_file_names_it_not_the_output() -> None:
    """vmodbuild's last resort for an OSError names the file it is about (it said `cannot write into None`)."""
    from builder.stopping import stopping_on_errors

    runner = CliRunner()

    @__import__("click").command()
    def failing() -> None:
        with stopping_on_errors(writing_to=None):
            raise PermissionError(13, "Permission denied", "data/map.toml")

    result = runner.invoke(failing, [])
    assert result.exit_code == 2 and "Error: data/map.toml: Permission denied" in result.output


@pytest.mark.parametrize("how", ["loop", "dangling"])
def test_an_optional_data_file_that_is_a_broken_link(how: str, data_copy: Path) -> None:
    """units.csv a symlink loop (or a link to nothing) was taken for no file: 165 `unknown unit` errors of the
    set-up and nothing about units.csv; it is read, and its error given."""
    from builder.cli import main as vmodbuild

    units = data_copy / "counters" / "onslaught" / "units.csv"
    units.unlink()
    if how == "loop":
        units.symlink_to("units.csv.2")
        units.with_name("units.csv.2").symlink_to("units.csv")
    else:
        units.symlink_to("nowhere.csv")
    result = CliRunner().invoke(vmodbuild, ["validate", "onslaught", "--data", str(data_copy)])
    said = {"loop": "units.csv: cannot read: Too many levels of symbolic links", "dangling": "units.csv: file not found"}
    assert result.exit_code == 2 and said[how] in result.output, result.output
    assert "unknown unit" not in result.output


def test_seal_verify_of_a_seal_that_is_a_symlink_loop(tmp_path: Path) -> None:
    """`seal --verify` of a log whose .seal is a symlink loop said `0 sealed: 0 problem(s)`, exit 0."""
    log = tmp_path / "01-turn-1.log"
    log.write_bytes((PBEM / "game" / "01-turn-1.log").read_bytes())
    (tmp_path / "01-turn-1.log.seal").symlink_to("x.seal")
    (tmp_path / "x.seal").symlink_to("01-turn-1.log.seal")
    code, out = _run("seal", "--verify", log)
    assert code == 2 and "01-turn-1.log.seal: not a seal" in out and "Too many levels of symbolic links" in out


def test_a_log_given_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    """A log that is a symbolic link loop was said not to exist (click's word for any failed stat); a link to
    nothing, a missing folder and a misspelt name are each said as such, the last with the nearest name."""
    (tmp_path / "loop.log").symlink_to("back.log")
    (tmp_path / "back.log").symlink_to("loop.log")
    (tmp_path / "dangling.log").symlink_to("nowhere.log")
    (tmp_path / "legal-combat.log").write_bytes(SAMPLE.read_bytes())
    for given, said in (("loop.log", "is a symbolic link loop"),
                        ("dangling.log", "is a symbolic link to 'nowhere.log', which does not exist"),
                        ("typo/x.log", "does not exist (nor does its folder"),
                        ("legal-combt.log", "does not exist (did you mean 'legal-combat.log'?)")):
        for args in (["check", tmp_path / given], ["combat", tmp_path / given],
                     ["export", SAMPLE, "--module", tmp_path / given, "-o", tmp_path / "x.vlog"]):
            code, out = _run(*args)
            assert code == 2 and said in out, out
    code, out = _run("check", SAMPLE, "--data", tmp_path / "loop.log")
    assert code == 2 and "'--data'" in out and "is a symbolic link loop" in out
