"""`adjudicate check` of a text log loads no VASSAL module beyond the file-type test, only its own game's rule
system, and no signature library without a ledger (start-up time: the reader and translator are about a fifth
of a check's imports, each rule system about a tenth of a second; bench/README.md)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from adjudicator.vassal.detect import is_vassal_file

from import_probe import imported_at_start, run_probe

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys
from click.testing import CliRunner
from umpire.cli import main
result = CliRunner().invoke(main, ["check", sys.argv[1]])
prefixes = tuple(sys.argv[2:]) or ("adjudicator.vassal.", "wargame.vassal")
loaded = sorted(m for m in sys.modules if m.startswith(prefixes))
print(result.exit_code, " ".join(loaded))
"""


def _loaded_by_check(log: Path, *prefixes: str) -> list[str]:
    done = run_probe(PROBE, str(log), *prefixes)
    return done.stdout.split()


def test_text_log_check_loads_no_vassal_reader() -> None:
    assert _loaded_by_check(ROOT / "examples" / "omaha" / "legal-sample-game.log") == ["0", "adjudicator.vassal.detect"]


def test_a_check_loads_its_own_rule_system_only_and_no_signatures() -> None:
    """A check of an Onslaught log imports neither the Fire & Movement series nor Omaha, and an Omaha log not
    Onslaught; neither imports the signature library (`cryptography`) when no ledger is given."""
    watched = ("adjudicator.systems.", "cryptography")
    onslaught = _loaded_by_check(ROOT / "examples" / "onslaught" / "legal-sample-game.log", *watched)
    assert onslaught[0] == "0" and any(m.startswith("adjudicator.systems.onslaught") for m in onslaught)
    assert not [m for m in onslaught if m.startswith(("adjudicator.systems.omaha", "adjudicator.systems.fire_and",
                                                       "cryptography"))]
    # Nor the classic series' rules vocabulary and its cross-checks, nor the coverage tables (`adjudicate rules`).
    vocabulary = _loaded_by_check(ROOT / "examples" / "onslaught" / "legal-sample-game.log", "wargame.rule",
                                  "adjudicator.coverage")
    assert vocabulary == ["0"]
    omaha = _loaded_by_check(ROOT / "examples" / "omaha" / "legal-sample-game.log", *watched)
    assert omaha[0] == "0" and any(m.startswith("adjudicator.systems.omaha") for m in omaha)
    assert not [m for m in omaha if m.startswith(("adjudicator.systems.onslaught", "cryptography"))]


def test_vassal_log_check_still_loads_the_reader() -> None:
    loaded = _loaded_by_check(ROOT / "tests" / "data" / "vassal" / "omaha-session.vlog")
    assert "adjudicator.vassal.translate" in loaded and "wargame.vassal.reader" in loaded


def test_a_saved_game_is_told_by_its_content(tmp_path: Path) -> None:
    """A saved game renamed without its suffix is still a VASSAL file; a text log or another zip is not."""
    renamed = tmp_path / "position.bak"
    renamed.write_bytes((ROOT / "tests" / "data" / "vassal" / "omaha-after-moves.vsav").read_bytes())
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("notes.txt", "not a saved game")
    assert is_vassal_file(renamed)
    assert not is_vassal_file(other)
    assert not is_vassal_file(ROOT / "examples" / "omaha" / "legal-sample-game.log")
    assert not is_vassal_file(tmp_path / "missing.log")


HELP_PROBE = """
import sys
from click.testing import CliRunner
from umpire.cli import main
result = CliRunner().invoke(main, sys.argv[1:])
print(result.exit_code, " ".join(sorted(sys.modules)))
"""


def _loaded_by(*args: str) -> tuple[int, set[str]]:
    done = run_probe(HELP_PROBE, *args)
    code, _, modules = done.stdout.strip().partition(" ")
    return int(code), set(modules.split())


def _roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


MAIN_PROBE = """
import sys
from importlib import import_module
group = import_module(sys.argv[1])
sys.argv = [sys.argv[2], *sys.argv[3:]]
try:
    group.main()
finally:
    print("\\nimported:", " ".join(sorted(sys.modules)), file=sys.stderr)
"""


def _loaded_by_program(program: str, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, set[str]]:
    """What `adjudicate ARGS...` (umpire.cli) or `vmodbuild ARGS...` (builder.cli) prints and imports, as the
    console script runs it (no test runner's imports mixed in)."""
    group = {"adjudicate": "umpire.cli", "vmodbuild": "builder.cli"}[program]
    done = run_probe(MAIN_PROBE, group, program, *args, env={**os.environ, **(env or {})}, check=False)
    said, _, imported = done.stderr.rpartition("\nimported: ")
    return done.returncode, done.stdout + said, set(imported.split()) - imported_at_start()


GROUP_MODULES = {"adjudicate": {"umpire", "umpire.cli", "adjudicator", "adjudicator.cli"},
                 "vmodbuild": {"builder", "builder.cli"}}
"""Ours that a group's --help imports: the group, and below it only wargame's lazy group and exit statuses."""
KERNEL = {"wargame", "wargame.lazy_group", "wargame.internal_errors", "wargame.exit_status"}
OURS = ("wargame", "builder", "adjudicator", "umpire", "ledger")
NEVER_FOR_HELP = {"pydantic", "pydantic_core", "annotated_types", "PIL", "shapely", "numpy", "lxml", "cryptography",
                  "json", "dataclasses", "zipfile", "tempfile", "importlib.metadata", "email"}
"""What no --help needs: the models' validation, drawing, geometry, signatures, and the standard library's JSON,
dataclasses, archives, temporary files and package metadata (each imported by a command that uses it)."""


@pytest.mark.parametrize("program", ["adjudicate", "vmodbuild"])
def test_a_groups_help_imports_no_command(program: str) -> None:
    """`adjudicate --help` and `vmodbuild --help` list their commands from the help kept as data: they import no
    command's module, no rule system, no pydantic, only click and the group (issue 30: it was 6x `python -c pass`,
    the aim 5x)."""
    for args in (["--help"], ["-h"], []):
        code, out, loaded = _loaded_by_program(program, *args)
        assert code == (0 if args else 2) and "Commands:" in out, (program, args)
        assert {m for m in loaded if m.startswith(OURS)} <= GROUP_MODULES[program] | KERNEL, (program, args)
        assert not loaded & NEVER_FOR_HELP and not _roots(loaded) & NEVER_FOR_HELP, (program, args)


def test_a_commands_help_imports_its_module_only() -> None:
    """`adjudicate COMMAND --help` (and vmodbuild's) imports that command's module and the shared options, nothing
    a command runs: no model, game, engine, reader, rule system or drawing code."""
    from builder.cli import main as vmodbuild
    from umpire.cli import main as adjudicate

    for program, group, extra in (
            ("adjudicate", adjudicate, {"adjudicator.options", "adjudicator.exits",
                                        "adjudicator.check_commands"}),  # umpire's check is built on the referee's
            # `new` offers the bundled games as templates (builder.scaffold lists them); every command stops on an
            # error as builder.stopping words it.
            ("vmodbuild", vmodbuild, {"builder.scaffold", "builder.blank_game", "builder.stopping", "wargame.bundled",
                                      "wargame.errors",
                                      "wargame.records",  # the frozen records wargame.errors is made of
                                      "wargame.hexes", "builder.geography"})):
        for name, entry in group.lazy.items():
            code, out, loaded = _loaded_by_program(program, name, "--help")
            assert code == 0 and out.startswith(f"Usage: {program} {name} "), (program, name)
            own = entry.where.partition(":")[0]
            assert {m for m in loaded if m.startswith(OURS)} <= GROUP_MODULES[program] | KERNEL | extra | {own}, name
            assert not _roots(loaded) & NEVER_FOR_HELP - {"dataclasses"}, name


def _listing(group: click.Group, args: list[str], width: int) -> tuple[int, str]:
    result = CliRunner().invoke(group, args, terminal_width=width, prog_name="prog")
    return result.exit_code, result.output


@pytest.mark.parametrize("where", ["umpire.cli", "adjudicator.cli", "builder.cli"])
def test_the_help_kept_as_data_is_each_commands_own(where: str) -> None:
    """A lazy group's --help (and its "did you mean" for a wrong name) is byte for byte what click prints for a
    group of the commands themselves, at any width: each line kept as data is its command's own."""
    from importlib import import_module

    from wargame.lazy_group import LazyGroup

    lazy = import_module(where).main.lazy
    for width in (60, 80, 200):
        for args in (["--help"], ["chek"], ["rendr"], ["--nope"]):
            eager = click.Group("prog", {name: entry.load() for name, entry in lazy.items()})
            fresh = LazyGroup("prog", lazy=lazy)
            assert _listing(fresh, args, width) == _listing(eager, args, width), (where, args, width)
            assert not fresh.commands or args[0] != "--help", "the listing imported a command"
    assert "Commands:" in _listing(LazyGroup("prog", lazy=lazy), ["--help"], 80)[1]


def test_a_check_imports_only_what_a_check_uses() -> None:
    """A check of a text log without a ledger, seal or pictures loads no ledger, JSON-log, dispute, VASSAL,
    drawing or ledger-service code, and of the rule systems only its game's."""
    code, loaded = _loaded_by("check", str(ROOT / "examples" / "moscow" / "legal-sample-game.log"))
    assert code == 0
    assert not _roots(loaded) & {"PIL", "shapely", "lxml", "cryptography", "builder", "ledger", "starlette", "uvicorn",
                                 "psycopg", "numpy"}
    needless = {m for m in loaded if m.startswith((
        "adjudicator.dice_ledger", "adjudicator.notation.jsonlog", "adjudicator.dispute", "adjudicator.vassal.",
        "wargame.vassal", "umpire.judged", "umpire.report", "umpire.scenes", "umpire.movement", "wargame.scene",
        "adjudicator.systems.onslaught", "adjudicator.systems.omaha", "adjudicator.systems.fire_and_movement"))}
    assert needless == {"adjudicator.vassal.detect"}


def test_a_check_without_a_seal_or_a_ledger_imports_no_sealing_code(tmp_path: Path) -> None:
    """A check of a text log with no seal beside it, kept game or not, imports neither the receipts' canonical
    form nor difflib (what comparing seals needs), nor zipfile (a text log is told by its first bytes), nor
    tempfile when the game is read back from the cache (issue 30: a check's start-up)."""
    log = str(ROOT / "examples" / "moscow" / "legal-sample-game.log")
    env = {"UMPIRE_CACHE": str(tmp_path)}
    for run in ("first", "warm"):
        code, out, loaded = _loaded_by_program("adjudicate", "check", log, env=env)
        assert code == 0 and "0 error(s)" in out, run
        assert not loaded & {"wargame.receipts", "difflib", "unicodedata"}, run
        ours = {m for m in loaded if m.startswith(OURS)}
        assert "adjudicator.seal" in ours and not ours & {"adjudicator.dice_ledger", "adjudicator.vassal.reader"}
        # No pydantic either, whose plugin loader read package metadata from zip files.
        assert not loaded & {"pydantic", "zipfile"}, run
    assert "tempfile" not in loaded


def test_an_onslaught_check_imports_no_hashlib_tempfile_fractions_or_error_tools(tmp_path: Path) -> None:
    """A check of an Onslaught text log, the game read from its files and kept or read back, imports no hashlib
    (OpenSSL: the cache's digests are blake2b's own module, a seal's chain start is written out), no tempfile (the
    kept game's file is made with os.open) and no fractions or decimal (7.0's odds are compared in whole numbers):
    together about 3% of a cold check's instructions."""
    log = str(ROOT / "examples" / "onslaught" / "legal-sample-game.log")
    for run in ("first", "warm"):
        code, out, loaded = _loaded_by_program("adjudicate", "check", log, env={"UMPIRE_CACHE": str(tmp_path)})
        assert code == 0 and "0 error(s)" in out, run
        assert not loaded & {"hashlib", "_hashlib", "tempfile", "shutil", "random", "fractions", "decimal"}, run
        # Nor what only a problem needs: the TOML key index (placing errors) and rapidfuzz (suggestions).
        assert not loaded & {"wargame.toml_lines", "rapidfuzz"}, run
    assert list((tmp_path / "games").glob("*.pickle")) and not list((tmp_path / "games").glob("*.part"))


def test_the_kinds_of_movement_offered_are_the_contracts() -> None:
    from adjudicator.contract import MOVE_KINDS
    from umpire.commands import MOVE_KINDS as OFFERED

    assert OFFERED == MOVE_KINDS


WARM_PROBE = """
import sys
from click.testing import CliRunner
from umpire.cli import main
result = CliRunner().invoke(main, ["check", sys.argv[1]])
loaded = sorted(m for m in sys.modules if m in ("wargame.consistency", "wargame.datafiles", "tomli", "tomllib", "pydantic"))
print(result.exit_code, " ".join(loaded))
"""


def _warm_runs(tmp_path: Path, probe: str, *args: str) -> list[list[str]]:
    """What two processes in a row print, the game kept in a cache folder of their own by the first."""
    env = {**os.environ, "UMPIRE_CACHE": str(tmp_path)}
    return [run_probe(probe, *args, env=env).stdout.split() for _ in range(2)]


def test_a_check_after_the_first_parses_no_data_and_builds_no_data_model(tmp_path: Path) -> None:
    """With the game kept by an earlier run (wargame/gamecache.py) a check reads it from the cache: it imports
    neither the data parsers nor the cross-checks, whose validators (pydantic's) were about a third of a check's
    start-up (issue 30). The first reads the files without pydantic (wargame/validation.py vouches for them)."""
    runs = _warm_runs(tmp_path, WARM_PROBE, str(ROOT / "examples" / "onslaught" / "legal-turn1.log"))
    assert runs[0][0] == "0" and "wargame.datafiles" in runs[0] and "pydantic" not in runs[0]
    assert runs[1] == ["0"]


GAME_PROBE = """
import sys
from wargame.bundled import data_root
from wargame.game import load_game
game = load_game(data_root(), sys.argv[1])
assert game.grid and game.units_by_id and game.manifest.declare.declarations() and game.hex_terrain
print(" ".join(sorted(m for m in sys.modules if m.startswith(("pydantic", "wargame.datafiles", "wargame.consistency")))))
"""


@pytest.mark.parametrize("game_id", ["onslaught", "omaha", "moscow"])
def test_a_game_loads_without_pydantic_read_or_kept(tmp_path: Path, game_id: str) -> None:
    """The game's data are plain classes: a bundled game's files, being valid, are vouched for without pydantic
    (wargame/validation.py; pydantic only words what it declines), and a game read back from the cache (its models,
    grid, menus and rules) imports none of it either (issue 30, item 1)."""
    first, second = _warm_runs(tmp_path, GAME_PROBE, game_id)
    assert first == ["wargame.consistency", "wargame.datafiles"]
    assert second == []


PARSE_PROBE = """
import sys
import adjudicator.notation.entries
from adjudicator.notation.text import parse_text, write_text
from adjudicator.notation.entries import entry_data
entries = parse_text(open(sys.argv[1], encoding="utf-8").read(), sys.argv[1])
written = write_text(entries)
data = [entry_data(e) for e in entries]
print(len(entries), " ".join(sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core"))))
"""


def test_the_entries_and_a_text_log_parse_import_no_pydantic() -> None:
    """The log's entries are plain dataclasses: importing them, parsing a text log, writing it and taking its
    entries' JSON values import no pydantic (it validates only JSON logs; issue 30, about a tenth of a check's
    start-up)."""
    log = str(ROOT / "examples" / "onslaught" / "legal-sample-game.log")
    done = run_probe(PARSE_PROBE, log)
    count, *pydantic = done.stdout.split()
    assert int(count) > 100 and pydantic == []


def test_a_check_imports_no_pydantic_first_or_after(tmp_path: Path) -> None:
    """A check of a text log imports no pydantic at all, whether it reads the game's files (an empty cache) or the
    game kept by the run before (issue 30, item 1)."""
    env = {**os.environ, "UMPIRE_CACHE": str(tmp_path)}
    log = str(ROOT / "examples" / "onslaught" / "legal-turn1.log")
    runs = [run_probe(HELP_PROBE, "check", log, env=env).stdout for _ in range(2)]
    for run in runs:
        code, _, modules = run.strip().partition(" ")
        assert code == "0" and not _roots(set(modules.split())) & {"pydantic", "pydantic_core"}


def test_a_check_loads_its_game_out_of_the_collectors_sight(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A check of a text log reads it and loads its game with the collector off, then freezes them (and the code
    imported) before the replay, so neither the collections while replaying nor the one at exit walk them again
    (about 6% of a cold check's instructions); the collector is on for the replay, everything is given back after,
    and the verdict is the same. A VASSAL file's translation is read with the collector on."""
    import atexit
    import gc

    import adjudicator.sources as sources
    import wargame.collector as collector
    from umpire.cli import main

    loading: list[bool] = []
    replaying: list[tuple[int, bool]] = []
    real_game_of, real_replay = sources.game_of, sources.LogSource.replay

    def game_of(*args: object) -> object:
        loading.append(gc.isenabled())
        return real_game_of(*args)  # type: ignore[arg-type]

    def replay(self: sources.LogSource, keep_states: bool = True) -> object:
        replaying.append((gc.get_freeze_count(), gc.isenabled()))
        return real_replay(self, keep_states)

    monkeypatch.setattr(sources, "game_of", game_of)
    monkeypatch.setattr(sources.LogSource, "replay", replay)
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path))
    registered: list[object] = []
    monkeypatch.setattr(collector, "_FREEZE_AT_EXIT", False)
    monkeypatch.setattr(atexit, "register", registered.append)
    log = str(ROOT / "examples" / "onslaught" / "legal-turn1.log")
    try:
        result = CliRunner().invoke(main, ["check", log])
        after = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert result.exit_code == 0 and "0 error(s)" in result.output, result.output
    assert loading == [False] and len(replaying) == 1 and replaying[0][0] > 10_000 and replaying[0][1]
    assert gc.isenabled() and after == 0 and registered == [gc.freeze]

    import adjudicator.vassal.load as load

    translating: list[bool] = []
    real_translate = load.translate_file

    def translate_file(*args: object) -> object:
        translating.append(gc.isenabled())
        return real_translate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(load, "translate_file", translate_file)
    try:
        CliRunner().invoke(main, ["check", str(ROOT / "tests" / "data" / "vassal" / "omaha-session.vlog")])
    finally:
        gc.unfreeze()
    assert translating == [True]
