"""What a new user meets first: `vmodbuild new`, validate's messages, help, --version, `-` for standard input."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from adjudicator.cli import main as adjudicate
from builder.cli import main as vmodbuild
from builder.geography import commands as geography_commands
from ledger.cli import main as umpire_ledger
from wargame.bundled import is_checkout
from wargame.errors import WargameError

ROOT = Path(__file__).resolve().parent.parent


def run(cli: click.Group, *args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of a command."""
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("template", ["blank", "moscow", "omaha", "onslaught"])
def test_new_game_validates(template: str, tmp_path: Path) -> None:
    """Each template gives a folder that validates clean under the new id."""
    code, out, err = run(vmodbuild, "new", "mygame", "--from", template, "--data", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "counters" / "mygame" / "game.toml").is_file() and (tmp_path / "maps" / "mygame").is_dir()
    code, out, err = run(vmodbuild, "validate", "mygame", "--data", str(tmp_path))
    assert (code, err) == (0, ""), err
    assert out.startswith("mygame: ok")


def test_new_blank_game_is_classic_and_names_only_its_own(tmp_path: Path) -> None:
    """A blank game is on the classic series, and its rules name no unit or place of the game it came from."""
    code, out, _ = run(vmodbuild, "new", "mygame", "--from", "blank", "--data", str(tmp_path))
    assert code == 0
    sample = tmp_path / "examples" / "mygame" / "sample-game.log"
    assert f"{sample}: a sample game" in out and f"adjudicate --data {tmp_path} {sample}" in out
    counters = tmp_path / "counters" / "mygame"
    assert 'rule_system = "classic"' in (counters / "game.toml").read_text(encoding="utf-8")
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    assert "so-1s" not in rules and "Smolensk" not in rules and 'controls = ["Capital"]' in rules
    for folder in (counters, tmp_path / "maps" / "mygame"):
        for path in folder.iterdir():
            text = path.read_text(encoding="utf-8")
            assert "Smolensk" not in text and "1st Shock" not in text, path


def test_new_blank_games_sample_log_is_clean(tmp_path: Path) -> None:
    """`adjudicate --data DIR` referees the blank game's sample log clean: every kind of entry it shows is legal."""
    run(vmodbuild, "new", "mygame", "--from", "blank", "--data", str(tmp_path))
    sample = tmp_path / "examples" / "mygame" / "sample-game.log"
    code, out, err = run(adjudicate, "--data", str(tmp_path), str(sample))
    assert (code, err) == (0, ""), out
    assert out.splitlines()[-1].endswith("0 error(s), 0 warning(s), 0 note(s)")
    for kind in ("attack 0706 with", "retreat so-inf-01", "advance ge-pz-01", "\nso-inf-01 "):
        assert kind in sample.read_text(encoding="utf-8")


def test_new_blank_games_breach_is_refereed(tmp_path: Path) -> None:
    """A breach in a blank game's log exits 1 and cites the rule (the movement allowance, 4.0), at its line."""
    run(vmodbuild, "new", "mygame", "--from", "blank", "--data", str(tmp_path))
    sample = (tmp_path / "examples" / "mygame" / "sample-game.log").read_text(encoding="utf-8")
    breach = tmp_path / "breach.log"
    breach.write_text(sample.replace("ge-inf-01 0306-0406-0506", "ge-inf-01 0306-0406-0506-0606-0607-0608"),
                      encoding="utf-8")
    code, out, _ = run(adjudicate, "--data", str(tmp_path), str(breach))
    assert code == 1
    line = 1 + sample.splitlines().index("ge-inf-01 0306-0406-0506")
    assert f"breach.log:{line}:1: error [mygame 4.0]: " in out and "ge-inf-01" in out
    assert out.count(" error [") == 1


def test_new_blank_game_builds(tmp_path: Path) -> None:
    """A blank game builds into a module."""
    run(vmodbuild, "new", "mygame", "--from", "blank", "--data", str(tmp_path))
    code, out, err = run(vmodbuild, "build", "mygame", "--data", str(tmp_path), "--out", str(tmp_path / "dist"))
    assert code == 0, err
    assert (tmp_path / "dist" / "mygame.vmod").is_file()


def test_new_never_overwrites_and_checks_its_id(tmp_path: Path) -> None:
    """A game folder that exists is refused; so is an id that is not one."""
    assert run(vmodbuild, "new", "mygame", "--from", "blank", "--data", str(tmp_path))[0] == 0
    code, _, err = run(vmodbuild, "new", "mygame", "--from", "omaha", "--data", str(tmp_path))
    assert code == 2 and "exists already" in err
    code, _, err = run(vmodbuild, "new", "My Game", "--from", "blank", "--data", str(tmp_path))
    assert code == 2 and "is not a game id" in err
    assert "Traceback" not in err


def _break(data: Path, relative: str, old: str, new: str) -> None:
    path = data / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_validate_messages(data_copy: Path) -> None:
    """Values shown as written, a friendly schema_version, no follow-on errors, id checked, sorted by file and line."""
    # de-inf-01's row fails (its values), so setup.csv's placement of de-inf-01 must not be reported too.
    _break(data_copy, "counters/onslaught/units.csv", "de-inf-01,German infantry division,German,wehrmacht,infantry,"
           "leg,division,2,4-4,", "de-inf-01,German infantry division,German,wehrmacht,infantry,leg,division,2,4-x,")
    _break(data_copy, "counters/onslaught/charts.toml", "schema_version = 1", "schema_version = 2")
    _break(data_copy, "counters/onslaught/game.toml", 'id = "onslaught"', 'id = "onslaugth"')
    code, out, err = run(vmodbuild, "validate", "onslaught", "--data", str(data_copy))
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 3, err
    assert "'x' in '4-x' is not a whole number" in lines[2]
    assert "schema_version 2 is not one this version of Umpire reads" in lines[0]
    assert "id 'onslaugth' differs from the game's folder counters/onslaught" in lines[1]
    assert "Input should be" not in err
    files = [line.split(":")[0] for line in lines]
    assert files == sorted(files)


def test_failed_build_hint_carries_data(data_copy: Path, tmp_path: Path) -> None:
    """The hint after a failed build names the same game and --data."""
    _break(data_copy, "counters/onslaught/charts.toml", "schema_version = 1", "schema_version = 2")
    code, _, err = run(vmodbuild, "build", "onslaught", "--data", str(data_copy), "--out", str(tmp_path / "out"))
    assert code == 2
    assert f"run `vmodbuild validate onslaught --data {data_copy}`" in err


def test_empty_data_folder_is_not_clean(tmp_path: Path) -> None:
    """maps/ and counters/ with no game: exit 2 and a way forward, not silence."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "counters").mkdir()
    code, out, err = run(vmodbuild, "validate", "--data", str(tmp_path))
    assert code == 2
    assert "no game under" in err and "vmodbuild new GAME --from blank" in err


def test_build_game_and_all_refused() -> None:
    """`build onslaught --all` is a usage error, not every game built."""
    code, _, err = run(vmodbuild, "build", "onslaught", "--all")
    assert code == 2 and "not both" in err


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    for name, command in sorted(group.commands.items()):
        out.append((f"{prefix}{name}", command))
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix}{name} ")
    return out


@pytest.mark.parametrize("cli", [vmodbuild, adjudicate, umpire_ledger],
                         ids=["vmodbuild", "adjudicate", "umpire-ledger"])
def test_help_is_complete_and_unclipped(cli: click.Group) -> None:
    """Every option has help, --data names UMPIRE_DATA, and no command summary is cut short."""
    for name, command in _commands(cli):
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{name} {param.opts[0]} has no help"
                if "--data" in param.opts:
                    assert "UMPIRE_DATA" in param.help, name
        # What `--help` shows at 80 columns: click cuts a summary taken from a long docstring with "...".
        assert not command.get_short_help_str(limit=80 - 6 - 10).endswith("..."), f"{name}: summary cut"
    for args in (["--help"], ["geography", "--help"]) if cli is vmodbuild else (["--help"],):
        code, out, _ = run(cli, *args)
        listed = out.split("Commands:")[1]
        assert code == 0 and "..." not in listed, listed


@pytest.mark.parametrize("cli", [vmodbuild, adjudicate, umpire_ledger],
                         ids=["vmodbuild", "adjudicate", "umpire-ledger"])
def test_version(cli: click.Group) -> None:
    """Every program says its version, and takes -h."""
    code, out, _ = run(cli, "--version")
    assert code == 0 and re.search(r"\d+\.\d+", out)
    code, out, _ = run(cli, "-h")
    assert code == 0 and "Commands:" in out


def test_log_from_standard_input() -> None:
    """`-` reads a text or JSON log from standard input; the verdict names it <stdin>."""
    text = (ROOT / "examples/onslaught/breach-zoc.log").read_text(encoding="utf-8")
    code, out, _ = run(adjudicate, "-", stdin=text)
    assert code == 1
    assert out.startswith("<stdin>:") and "[onslaught 6.2]" in out
    code, out, _ = run(adjudicate, "check", "-", "--format", "json", stdin=text)
    assert code == 1 and '"rule": "6.2"' in out


def test_json_log_from_standard_input(tmp_path: Path) -> None:
    """A JSON log on standard input is read as JSON."""
    converted = tmp_path / "game.json"
    assert run(adjudicate, "convert", str(ROOT / "examples/onslaught/legal-combat.log"), "-o", str(converted))[0] == 0
    code, out, err = run(adjudicate, "state", "-", stdin=converted.read_text(encoding="utf-8"))
    assert code == 0, err
    assert out.startswith("Turn 1")


def test_standard_input_only_once() -> None:
    """`-` twice in a chain of logs is a usage error."""
    code, _, err = run(adjudicate, "check", "-", "-", stdin="")
    assert code == 2 and "standard input" in err


def test_verdict_summary_names_its_log() -> None:
    """The last line of a verdict names the log, so several verdicts in a row stay apart."""
    log = ROOT / "examples/onslaught/legal-combat.log"
    code, out, _ = run(adjudicate, str(log))
    assert code == 0
    assert out.splitlines()[-1].startswith(f"{log}: ")


def test_geography_never_rewrites_an_installed_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --data, the geography tools write only into a checkout: an installed package's data are refused."""
    assert is_checkout(ROOT)
    monkeypatch.delenv("UMPIRE_DATA", raising=False)
    monkeypatch.setattr(geography_commands, "is_checkout", lambda root: False)
    with pytest.raises(WargameError, match="are not rewritten"):
        geography_commands._writable_root("onslaught", None)
    code, _, err = run(vmodbuild, "geography", "derive", "omaha")
    assert code == 2 and "vmodbuild new omaha --from omaha --data DIR" in err


def test_geography_says_where_it_writes(data_copy: Path) -> None:
    """fit --write names the file it wrote, inside the --data folder."""
    code, out, err = run(vmodbuild, "geography", "fit", "omaha", "--write", "--data", str(data_copy))
    assert code == 0, err
    assert f"written into {data_copy / 'maps' / 'omaha' / 'geography.toml'}" in out
    shutil.rmtree(data_copy)


def test_reader_follows_omahas_cups(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """Our own exported Omaha log reads without a note: the support-fire cups are followed as the decks they are."""
    vlog = tmp_path / "combat.vlog"
    code, _, err = run(adjudicate, "export", str(ROOT / "examples/omaha/legal-combat.log"), "--module",
                       str(built_module("omaha")), "-o", str(vlog))
    assert code == 0, err
    code, out, _ = run(adjudicate, str(vlog))
    assert code == 0
    assert "deck" not in out and "reader's note" not in out
    assert out.splitlines()[-1].endswith("0 error(s), 0 warning(s), 0 note(s)")


def test_state_of_a_saved_game_warns_of_its_tracks(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """A saved position away from the set-up: `state` says the file's tracks differ from the replay shown."""
    end = tmp_path / "end.vsav"
    log = ROOT / "examples/onslaught/legal-sample-game.log"
    assert run(adjudicate, "export", str(log), "--module", str(built_module("onslaught")), "-o", str(end))[0] == 0
    code, out, err = run(adjudicate, "state", str(end))
    assert code == 0
    assert "warning:" in err and "allied_supply allied_supply@12 -> allied_supply@25" in err
    code, out, err = run(adjudicate, "state", str(log))
    assert err == ""


def test_new_blank_games_replacements_spell_every_key(tmp_path: Path) -> None:
    """A blank game's `[replacements]` writes every key of the section (defaults too, `empty_hex` among them), so a
    designer sees each choice the rules data offer."""
    import dataclasses
    import tomllib

    from wargame.rulebook import ReplacementRules

    run(vmodbuild, "new", "mygame", "--from", "blank", "--data", str(tmp_path))
    text = (tmp_path / "counters" / "mygame" / "rules.toml").read_text(encoding="utf-8")
    written = tomllib.loads(text)["replacements"]
    assert {f.name for f in dataclasses.fields(ReplacementRules)} <= set(written), sorted(written)
    assert written["empty_hex"] is False and "the stacking limit alone governs" in text
