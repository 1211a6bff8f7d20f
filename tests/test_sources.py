"""One way in, one way out (issue 25 item 5): every command reads its logs through adjudicator.sources and replays
them once; one exit-status enum; `umpire` built on the adjudicator's public API, whatever the import order."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from adjudicator import engine
from adjudicator.cli import main as referee
from adjudicator.exits import could_not_run, status_of
from wargame.errors import WargameError
from wargame.exit_status import ExitStatus

ROOT = Path(__file__).resolve().parent.parent
COMBAT = ROOT / "examples" / "onslaught" / "legal-combat.log"


@pytest.fixture
def vlog(tmp_path: Path, built_module: Callable[[str], Path]) -> Path:
    """A VASSAL log of an Onslaught game with combats."""
    out = tmp_path / "game.vlog"
    done = CliRunner().invoke(referee, ["export", str(COMBAT), "--module", str(built_module("onslaught")),
                                        "-o", str(out)])
    assert done.exit_code == 0, done.output
    return out


def _counting(monkeypatch: pytest.MonkeyPatch, name: str = "replay") -> list[int]:
    """Count the calls of the engine's function `name` from now on: its replays, or (`check`) the entries judged."""
    calls: list[int] = []
    original = getattr(engine, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, name, counted)
    return calls


@pytest.mark.parametrize(("args", "replays"), [
    (["check"], 1), (["check", "--format", "json"], 1), (["check", "--format", "markdown"], 1),
    (["state"], 1), (["combat"], 1), (["convert", "-o", "{out}"], 0)])
def test_a_vassal_log_is_replayed_once_per_command(args: list[str], replays: int, vlog: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command reads, translates and replays a .vlog once (a conversion never replays it)."""
    from umpire.cli import main
    calls = _counting(monkeypatch)
    command = [a.replace("{out}", str(tmp_path / "out.log")) for a in args]
    done = CliRunner().invoke(main, [command[0], str(vlog), *command[1:]])
    assert done.exit_code in (0, 1), done.output
    assert len(calls) == replays


def test_a_text_log_is_replayed_once_by_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for a text log's check."""
    calls = _counting(monkeypatch)
    assert CliRunner().invoke(referee, ["check", str(COMBAT)]).exit_code == 0
    assert len(calls) == 1


def test_importing_umpire_changes_nothing_of_the_referee() -> None:
    """`umpire` builds a group of its own: the referee's commands are the same whether or not it was imported."""
    before = dict(referee.lazy)
    import umpire.cli
    assert referee.lazy == before and "picture" not in referee.names()
    assert umpire.cli.main is not referee
    assert {"picture", "reach", "retreats"} <= set(umpire.cli.main.names())
    ctx = click.Context(referee)
    assert umpire.cli.main.get_command(ctx, "check") is not referee.get_command(ctx, "check")
    for name in referee.names():
        if name != "check":
            assert umpire.cli.main.get_command(ctx, name) is referee.get_command(ctx, name), name


def test_the_referee_alone_has_no_picture_commands_in_a_fresh_process() -> None:
    """Imported first, or alone, the referee's group is the same (no import rewires it)."""
    code = ("import adjudicator.cli as a; first = a.main.names(); import umpire.cli; "
            "print(first == a.main.names(), 'picture' in first)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == ["True", "False"]


def test_umpire_imports_no_private_name_of_the_adjudicator() -> None:
    """umpire/ uses the adjudicator's public API only."""
    private = []
    for path in sorted((ROOT / "umpire").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("adjudicator"):
                private += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert private == []


def test_the_command_line_modules_fit_in_one_sitting() -> None:
    """No file of the referee's and umpire's command lines, sources and verdicts is over 600 lines."""
    files = [ROOT / "adjudicator" / f"{name}.py" for name in ("cli", "check_commands", "log_commands",
                                                              "combat_command", "options", "sources", "verdict",
                                                              "exits")]
    files += sorted((ROOT / "umpire").glob("*.py"))
    assert {p.name: n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600} == {}


def test_only_the_sources_layer_tells_logs_apart() -> None:
    """No command module reads a VASSAL file, a chain or a text log by itself: adjudicator.sources does."""
    told = []
    for name in ("cli", "check_commands", "log_commands", "combat_command"):
        text = (ROOT / "adjudicator" / f"{name}.py").read_text(encoding="utf-8")
        told += [f"{name}: {word}" for word in ("read_chain", "replay_chain", "translate_file", "read_log_partly")
                 if word in text]
    text = (ROOT / "umpire" / "cli.py").read_text(encoding="utf-8") + (ROOT / "umpire" / "movement.py").read_text()
    told += [f"umpire: {word}" for word in ("read_chain", "replay_chain", "translate_file", "is_vassal_file")
             if word in text]
    assert told == []


def test_exit_statuses() -> None:
    """0 clean, 1 breaches, 2 could not run, 3 internal error; a verdict's status from its replay."""
    assert [int(s) for s in ExitStatus] == [0, 1, 2, 3]

    class Result:
        stopped: object = None
        findings: list[Any] = []

    assert status_of(Result()) is ExitStatus.CLEAN  # type: ignore[arg-type]
    stopped = Result()
    stopped.stopped = "an unknown unit"
    assert status_of(stopped) is ExitStatus.COULD_NOT_RUN  # type: ignore[arg-type]


def test_a_refusal_exits_2_with_its_message(capsys: pytest.CaptureFixture[str]) -> None:
    """The one mapping of exceptions: a WargameError is `Error: ...` on stderr and exit 2."""
    with pytest.raises(SystemExit) as stop:
        with could_not_run():
            raise WargameError("no such thing")
    assert stop.value.code == ExitStatus.COULD_NOT_RUN
    assert capsys.readouterr().err == "Error: no such thing\n"


@pytest.mark.parametrize("game", ["changed-die", "game"])
@pytest.mark.parametrize(("args", "replays"), [
    (["check"], 1), (["check", "--format", "json"], 1), (["state"], 1), (["combat"], 1),
    (["convert", "-o", "{out}"], 1), (["seal", "--verify"], 1)])
def test_a_chain_of_text_exchanges_is_replayed_once_per_command(args: list[str], replays: int, game: str,
                                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of four text exchanges, sealed (`game`) or not, is replayed once by each command, its joins checked
    on the way (it was replayed once more for each join, everything before it again, then judged) and its seals'
    positions taken from that replay (a check replayed a sealed game once more to hash them); a conversion
    replays it once to check the joins."""
    from adjudicator.vassal import chain
    from umpire.cli import main
    calls = _counting(monkeypatch)
    monkeypatch.setattr(chain, "replay", engine.replay)
    folder = ROOT / "examples" / "pbem" / game
    command = [a.replace("{out}", str(tmp_path / "game.log")) for a in args]
    done = CliRunner().invoke(main, [command[0], str(folder), *command[1:]])
    assert done.exit_code in (0, 1), done.output
    assert len(calls) == replays


def test_a_sealed_chain_decided_in_a_later_exchange_holds_its_seals(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The positions a check of a sealed chain hashes come from its one replay, which numbers the entries in the
    chain: a game decided in the second exchange is hashed with the line of its own file, as `seal` made it."""
    log = (ROOT / "examples" / "onslaught" / "breach-play-after-german-victory.log").read_text(encoding="utf-8")
    lines = log.splitlines(keepends=True)
    first, second = tmp_path / "01.log", tmp_path / "02.log"
    first.write_text("".join(lines[:10]), encoding="utf-8")
    second.write_text("".join(lines[10:]), encoding="utf-8")
    for logs in ([first], [first, second]):
        assert CliRunner().invoke(referee, ["seal", *map(str, logs)]).exit_code == 0
    from adjudicator.vassal import chain
    calls = _counting(monkeypatch)
    monkeypatch.setattr(chain, "replay", engine.replay)
    done = CliRunner().invoke(referee, ["check", "--format", "json", str(tmp_path)])
    assert done.exit_code == 1, done.output
    assert [(f["system"], f["rule"], f["line"]) for f in json.loads(done.stdout)["findings"]] == [
        ("onslaught", "13.1", 25), ("onslaught", "13.1", 26)]
    assert len(calls) == 1


VASSAL_DATA = ROOT / "tests" / "data" / "vassal"


def _text_then_vassal(kind: str, tmp_path: Path) -> list[Path]:
    """A game begun in a text log and gone on in VASSAL: the recorded session converted, then the save made at its
    end (`session`); that text log in two exchanges, then the save (`split`); a text log of the set-up, then a
    VASSAL log of play from it (`setup`)."""
    if kind == "setup":
        text = tmp_path / "setup.log"
        text.write_text('[Game "onslaught"]\n[Scenario "campaign"]\n', encoding="utf-8")
        return [text, VASSAL_DATA / "onslaught-zoc.vlog"]
    text = tmp_path / "session.log"
    assert CliRunner().invoke(referee, ["convert", str(VASSAL_DATA / "onslaught-session.vlog"), "-o",
                                        str(text)]).exit_code == 0
    saved = VASSAL_DATA / "onslaught-after-moves.vsav"
    if kind == "session":
        return [text, saved]
    lines = text.read_text(encoding="utf-8").splitlines(keepends=True)
    head, tail = tmp_path / "01.log", tmp_path / "02.log"
    head.write_text("".join(lines[:13]), encoding="utf-8")
    tail.write_text("".join(lines[13:]), encoding="utf-8")
    return [head, tail, saved]


@pytest.mark.parametrize("kind", ["session", "split", "setup"])
@pytest.mark.parametrize("args", [["check"], ["check", "--format", "json"], ["state"], ["combat"],
                                  ["convert", "-o", "{out}"]])
def test_a_vassal_log_after_a_text_log_is_replayed_once_per_command(args: list[str], kind: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A VASSAL log after a text log goes on from where the text log's replay ends: it is translated when the
    chain's one replay gets there, which goes on through it (the text log was replayed once more from the set-up
    first), so every command judges each entry once; a conversion needs that replay to translate it."""
    from adjudicator.sources import open_logs
    from adjudicator.vassal import chain
    from umpire.cli import main
    logs = _text_then_vassal(kind, tmp_path)
    entries = open_logs(tuple(logs), None).replay().applied
    assert entries > 2
    replays, checked = _counting(monkeypatch), _counting(monkeypatch, "check")
    monkeypatch.setattr(chain, "replay", engine.replay)
    command = [a.replace("{out}", str(tmp_path / "game.log")) for a in args]
    done = CliRunner().invoke(main, [command[0], *map(str, logs), *command[1:]])
    assert done.exit_code in (0, 1) or "Error: no attack or bombardment in" in done.output, done.output
    assert (len(replays), len(checked)) == (1, entries)


def test_a_chain_out_of_order_is_refused_by_its_one_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The joins checked in the command's replay still refuse exchanges out of order, naming the one that comes
    next, before anything after the bad join is judged."""
    from adjudicator.vassal import chain
    calls = _counting(monkeypatch)
    monkeypatch.setattr(chain, "replay", engine.replay)
    game = ROOT / "examples" / "pbem" / "changed-die"
    logs = [game / "01-turn-1.log", game / "03-turn-3.log", game / "02-turn-2.log", game / "04-turn-4.log"]
    for command in (["check"], ["convert", "-o", str(tmp_path / "game.log")]):
        done = CliRunner().invoke(referee, [command[0], *map(str, logs), *command[1:]])
        assert done.exit_code == 2, done.output
        assert f"the logs are out of order: {logs[1]} does not continue {logs[0]}" in done.output
        assert f"and {logs[2]}, given after it, continues {logs[0]}" in done.output
    assert len(calls) == 2
