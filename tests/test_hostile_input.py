"""Hostile and careless input (issue 18): each defect found by the fuzz campaign, with its smallest
reproducing input (generated here when large). No traceback, bounded memory and time, exit codes
0/1/2/3 as documented."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import tempfile
import sys
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main as adjudicate
from builder.cli import main as vmodbuild
from vassal_oracle import VassalHexGrid
from wargame import datafiles
from wargame.datafiles import load_csv, load_toml
from wargame.errors import DataError, WargameError
from wargame.files import write_atomically
from wargame.internal_errors import traceback_path
from wargame.layout import MAX_BOARD_PIXELS, board_too_large
from wargame.grid import GridSpec, LabelFormat
from wargame.models import MapManifest, TerrainChart, Unit
from wargame.toml_lines import TomlLines
from wargame.vassal.buildfile import hex_naming, open_module
from wargame.vassal.commands import command_tree
from wargame.vassal.reader import read_archive

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "onslaught" / "legal-combat.log"


# -- internal errors: exit 3 ----------------------------------------------------------------
def _crash(*_: object, **__: object) -> None:
    raise RuntimeError("planted bug")


def test_an_internal_error_exits_3_with_the_traceback_in_a_file(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    """A crash is not "breaches found" (1): exit 3, one line asking for a report, the traceback kept."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the planted crash's traceback kept out of /tmp
    monkeypatch.setattr("adjudicator.sources.open_logs", _crash)
    result = CliRunner().invoke(adjudicate, ["check", str(SAMPLE)])
    assert result.exit_code == 3
    path = traceback_path("adjudicate")
    assert "internal error" in result.stderr and "report" in result.stderr and str(path) in result.stderr
    assert "Traceback" not in result.stderr
    assert "RuntimeError: planted bug" in path.read_text(encoding="utf-8")


def test_vmodbuild_internal_error_exits_3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The same for vmodbuild."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr("wargame.game.load_game", _crash)
    result = CliRunner().invoke(vmodbuild, ["show", "onslaught"])
    assert result.exit_code == 3
    assert "RuntimeError: planted bug" in traceback_path("vmodbuild").read_text(encoding="utf-8")


@pytest.mark.parametrize("package", ["adjudicator", "builder"])
def test_a_crash_in_a_real_process_exits_3(package: str, tmp_path: Path) -> None:
    """Whole process, as `python -m` runs it: exit 3 and no traceback on stderr."""
    target = "adjudicator.sources.open_logs" if package == "adjudicator" else "wargame.game.load_game"
    module, _, name = target.rpartition(".")
    args = ["check", str(SAMPLE)] if package == "adjudicator" else ["show", "onslaught"]
    code = (f"import runpy, {module} as m\ndef boom(*a, **k): raise KeyError('planted')\nm.{name} = boom\n"
            f"from {package}.cli import main\nimport sys; sys.argv = ['{package}', *{args!r}]\nmain()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)})
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "internal error" in done.stderr
    assert str(tmp_path) in done.stderr  # the traceback kept where TMPDIR says, not in the machine's /tmp


def test_usage_errors_stay_2() -> None:
    """Click's own usage errors keep exit 2."""
    assert CliRunner().invoke(adjudicate, ["check", "--bogus", str(SAMPLE)]).exit_code == 2
    assert CliRunner().invoke(vmodbuild, ["build", "--scale", "nan", "onslaught"]).exit_code == 2
    assert CliRunner().invoke(vmodbuild, ["render", "onslaught", "--out", "x", "--scale", "nan"]).exit_code == 2


# -- output files -----------------------------------------------------------------------------
def test_output_under_a_file_is_a_clear_error(tmp_path: Path) -> None:
    """`-o good.log/x.json` where good.log is a file: says so, exit 2."""
    good = tmp_path / "good.log"
    good.write_text("kept\n", encoding="utf-8")
    result = CliRunner().invoke(adjudicate, ["convert", str(SAMPLE), "-o", str(good / "x.json")])
    assert result.exit_code == 2
    assert "is a file, not a folder" in result.stderr and "File exists" not in result.stderr
    assert good.read_text(encoding="utf-8") == "kept\n"


def test_full_disk_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC names the output, never `None: ...`, and leaves no temporary file."""
    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "x.json"
    result = CliRunner().invoke(adjudicate, ["convert", str(SAMPLE), "-o", str(out)])
    assert result.exit_code == 2
    assert f"cannot write {out}: No space left on device" in result.stderr and "None" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_written_files_are_synced_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync of the data before os.replace."""
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    write_atomically(tmp_path / "a.txt", "x")
    assert calls[:2] == ["fsync", "replace"]


def test_a_killed_writers_temporary_is_cleaned(tmp_path: Path) -> None:
    """A .tmp left by a writer killed before its rename goes at the next write; a live writer's stays."""
    dead = tmp_path / ".a.txt.999999999.k3x_9abc.tmp"
    live = tmp_path / f".a.txt.{os.getppid()}.k3x_9abc.tmp"
    other = tmp_path / ".b.txt.999999999.k3x_9abc.tmp"
    for path in (dead, live, other):
        path.write_text("partial", encoding="utf-8")
    write_atomically(tmp_path / "a.txt", "x")
    assert not dead.exists() and live.exists() and other.exists()
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "x"


def test_kill_between_write_and_rename(tmp_path: Path) -> None:
    """A real SIGKILL between the write and the rename: the old file intact, the .tmp gone next time."""
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    code = ("import os, signal, sys\nfrom pathlib import Path\nfrom wargame import files\n"
            "os.replace = lambda a, b: os.kill(os.getpid(), signal.SIGKILL)\n"
            f"files.write_atomically(Path({str(target)!r}), 'new')\n")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == -9
    assert target.read_text(encoding="utf-8") == "old"
    assert len(list(tmp_path.glob(".out.txt.*.tmp"))) == 1
    write_atomically(target, "newer")
    assert list(tmp_path.glob(".out.txt.*.tmp")) == [] and target.read_text(encoding="utf-8") == "newer"


# -- VASSAL files -------------------------------------------------------------------------------
def _peak(run: object) -> int:
    tracemalloc.start()
    try:
        assert callable(run)
        try:
            run()
        except DataError:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("text", ["'" * 1_000_000, "\\" * 1_000_000 + "\x1b" + "x",
                                  ("\\" * 200 + "\x1b") * 5_000])
def test_the_command_tree_holds_the_text_about_once(text: str) -> None:
    """Nested quotes or backslashes: no copy per nesting level (100 levels made 100 copies)."""
    assert _peak(lambda: command_tree(text, "f")) < 8 * len(text) + 2**20


def test_the_command_tree_still_reads_nesting() -> None:
    """The iterative reader gives the recursive reader's tree."""
    inner = "a\\\x1bb\\\x1b'c'"
    assert command_tree("x\x1b" + inner + "\x1b''", "f") == ["x", ["a", "b", "c"], ""]
    with pytest.raises(DataError, match="nested more than 100"):
        command_tree("'" * 300, "f")


def _module(build_file: bytes, tmp_path: Path) -> Path:
    path = tmp_path / "m.vmod"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("buildFile.xml", build_file)
    return path


@pytest.mark.parametrize("encoding", ["UTF-7", "x-nonsense", "UTF-32"])
def test_build_file_in_an_encoding_we_refuse(encoding: str, tmp_path: Path) -> None:
    """A declared encoding expat or Python cannot read is our DataError."""
    data = f'<?xml version="1.0" encoding="{encoding}"?>\n<VASSAL.build.GameModule name="x"/>'.encode("ascii")
    with pytest.raises(DataError, match="encoding"):
        open_module(_module(data, tmp_path))


def test_doctype_in_utf16_is_refused(tmp_path: Path) -> None:
    """The DOCTYPE ban holds for UTF-16 files, not only for bytes that spell it in ASCII."""
    text = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x [<!ENTITY a "b">]><VASSAL.build.GameModule/>'
    with pytest.raises(DataError, match="DOCTYPE"):
        open_module(_module(text.encode("utf-16"), tmp_path))
    ok = '<?xml version="1.0" encoding="UTF-16"?><VASSAL.build.GameModule name="x"/>'
    assert open_module(_module(ok.encode("utf-16"), tmp_path)).root.get("name") == "x"


def test_savedata_in_utf7_is_not_called_a_broken_zip() -> None:
    """UTF-7 savedata: an encoding error, not "not a readable zip archive"."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("savedGame", "begin_save")
        z.writestr("savedata", '<?xml version="1.0" encoding="UTF-7"?><data/>')
    with pytest.raises(DataError, match="encoding 'UTF-7'") as caught:
        read_archive(buffer.getvalue(), "x.vsav")
    assert "zip" not in str(caught.value)


@pytest.mark.parametrize(("grid", "numbering"), [
    ({"dx": "1e308"}, {}), ({"dy": "1e308"}, {}), ({"dx": "1e-300"}, {}), ({}, {"hLeading": "100000"}),
    ({}, {"hType": "A", "hOff": "999999999"}), ({}, {"vLeading": "-1"}),
])
def test_hostile_hex_grids_are_refused(grid: dict[str, str], numbering: dict[str, str]) -> None:
    """Attributes that made the hex-naming loops unbounded (or overflowed in export) are refused."""
    with pytest.raises(DataError, match="must be between"):
        hex_naming(grid, numbering, (1000, 1000))


def test_alphabetic_names_far_off_the_grid_are_bounded() -> None:
    """A point far off an alphabetic grid is named at once (Java would spell out millions of letters)."""
    naming = hex_naming({"dx": "1", "dy": "1"}, {"hType": "A"}, (1000, 1000))
    assert re.fullmatch(r"[A-Z]x[0-9]+-?[0-9]+", naming.name_at(2**31 - 1, 5))
    oracle = VassalHexGrid({"dx": "1", "dy": "1"}, {"hType": "A", "hLeading": "3"}, (1000, 1000))
    mine = hex_naming({"dx": "1", "dy": "1"}, {"hType": "A", "hLeading": "3"}, (1000, 1000))
    for x, y in [(0, 0), (25, 3), (700, 9), (30, 999)]:
        assert mine.name_at(x, y) == oracle.location_name((x, y))


def test_leading_zeros_in_closed_form_match_the_loop() -> None:
    """The closed form of RegularGridNumbering's leading zeros equals the Java loop."""
    for leading in range(0, 8):
        for n in [0, 1, 5, 9, 10, 99, 100, 12345, 10**7]:
            assert hex_naming({}, {}, (0, 0))._part(n, "N", leading) == VassalHexGrid.part_name(n, "N", leading)


# -- data files -------------------------------------------------------------------------------
def test_toml_nested_500_deep(tmp_path: Path) -> None:
    """A DataError, not a RecursionError."""
    path = tmp_path / "map.toml"
    path.write_text("x = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="nested more than 32 deep"):
        load_toml(path, MapManifest)


def test_csv_cell_over_the_field_limit(tmp_path: Path) -> None:
    """A CSV cell of 131,073 characters: an error on its line."""
    path = tmp_path / "units.csv"
    lines = (ROOT / "counters" / "onslaught" / "units.csv").read_text(encoding="utf-8").splitlines()
    header = next(n for n, line in enumerate(lines) if not line.startswith("#"))
    path.write_text("\n".join(lines[:header + 1]) + "\n\"" + "x" * 131_073 + "\"\n", encoding="utf-8")
    rows, errors = load_csv(path, Unit)
    assert rows == [] and len(errors) == 1
    assert errors[0].place is not None and errors[0].place.line == header + 2 and "131,072" in errors[0].message


def test_data_file_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the data-file limit: refused with the size and the limit."""
    monkeypatch.setattr(datafiles, "MAX_DATA_FILE_BYTES", 100)
    path = tmp_path / "map.toml"
    path.write_text("#" * 101, encoding="utf-8")
    with pytest.raises(DataError, match="at most 100"):
        load_toml(path, MapManifest)


def test_many_invalid_terrain_tables_index_the_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """2,000 invalid [[terrain]] tables: every error on its own line, the file indexed once (not per error)."""
    path = tmp_path / "terrain.toml"
    path.write_text("schema_version = 1\n" + "".join(f"[[terrain]]\nid = \"t{i}\"\nbogus = 1\n" for i in range(2000)),
                    encoding="utf-8")
    built = []
    real = TomlLines.__init__

    def counting(self: TomlLines, text: str) -> None:
        built.append(1)
        real(self, text)

    monkeypatch.setattr(TomlLines, "__init__", counting)
    with pytest.raises(DataError) as caught:
        load_toml(path, TerrainChart)
    assert len(built) == 1
    errors = getattr(caught.value, "errors")
    bogus = [e for e in errors if "bogus" in e.message]
    assert len(bogus) == 2000
    assert [e.place.line for e in bogus[:3]] == [4, 7, 10] and bogus[-1].place.line == 4 + 3 * 1999


def _validate(data: Path, game: str = "onslaught") -> tuple[int, str]:
    result = CliRunner().invoke(vmodbuild, ["validate", game, "--data", str(data)])
    return result.exit_code, result.stdout + result.stderr


@pytest.mark.parametrize("value", ['"50"', "true"])
def test_map_columns_of_the_wrong_type(value: str, data_copy: Path) -> None:
    """`columns = "50"` or `true` is an error, not coerced to 50 or 1."""
    path = data_copy / "maps" / "onslaught" / "map.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("columns = 50", f"columns = {value}"), encoding="utf-8")
    code, out = _validate(data_copy)
    assert code == 1 and "grid.columns" in out and "is not a whole number" in out


def test_game_id_differs_from_its_folder(data_copy: Path) -> None:
    """game.toml's id must be its folder's name."""
    path = data_copy / "counters" / "onslaught" / "game.toml"
    path.write_text(re.sub(r'(?m)^id = "onslaught"', 'id = "onslaughter"', path.read_text(encoding="utf-8")),
                    encoding="utf-8")
    code, out = _validate(data_copy)
    assert code == 1 and "'onslaughter' differs from the game's folder counters/onslaught" in out


def test_a_map_too_large_to_draw(data_copy: Path, tmp_path: Path) -> None:
    """Validates with its pixel size and the limit; build refuses it up front (exit 2), no canvas allocated."""
    path = data_copy / "maps" / "onslaught" / "map.toml"
    text = path.read_text(encoding="utf-8").replace("columns = 50", "columns = 200").replace("rows = 30", "rows = 200")
    text = text.replace("column_digits = 2", "column_digits = 3").replace("row_digits = 2", "row_digits = 3")
    path.write_text(text.replace("hex_size_px = 36.0", "hex_size_px = 400.0").replace("margin_px = 24.0",
                                                                                        "margin_px = 200.0"),
                    encoding="utf-8")
    code, out = _validate(data_copy)
    assert code == 1 and "the board would be" in out and "million Umpire draws" in out
    # Alone, before the checks of every label against the grid (39 unknown labels against 40,000 hexes took
    # 30 s of "did you mean", issue 30).
    assert "onslaught: 1 problem(s)" in out
    built = CliRunner().invoke(vmodbuild, ["build", "onslaught", "--data", str(data_copy), "--out", str(tmp_path)])
    assert built.exit_code == 2 and "the board would be" in built.stderr


def test_did_you_mean_is_bounded_on_a_large_vocabulary(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 40,000-label vocabulary is measured against an unknown word MAX_COMPARED times at most, and the
    labels nearest it alphabetically still give the suggestion."""
    import wargame.errors

    labels = [f"{c:03d}{r:03d}" for c in range(200) for r in range(200)]
    measured = 0
    real = wargame.errors.close_words

    def counting(word: str, choices: list[str], most: int) -> list[tuple[int, str]]:
        nonlocal measured
        measured += len(choices)
        return real(word, choices, most)

    monkeypatch.setattr(wargame.errors, "close_words", counting)
    assert wargame.errors.did_you_mean("10510", labels) == " (did you mean '105010' or '105100' or '105101'?)"
    assert 0 < measured <= wargame.errors.MAX_COMPARED
    assert wargame.errors.did_you_mean("105107x", labels).startswith(" (did you mean '105107' or")


def test_board_limit_at_a_scale() -> None:
    """The limit is on the pixels drawn: a map fine at scale 1 can be too large at scale 4."""
    spec = GridSpec(orientation="flat", columns=100, rows=60, label=LabelFormat(column_digits=3))
    assert board_too_large(spec, 36.0, 24.0) is None
    message = board_too_large(spec, 36.0, 24.0, 4.0)
    assert message is not None and "at scale 4" in message and f"{MAX_BOARD_PIXELS / 1e6:,.0f} million" in message


# -- logs -------------------------------------------------------------------------------------
def test_combat_with_a_unit_on_both_sides() -> None:
    """Refused with exit 2, as is a unit given twice on one side."""
    result = CliRunner().invoke(adjudicate, ["combat", "--game", "onslaught", "--attack", "us-inf-01@2019",
                                             "--defend", "us-inf-01@2019"])
    assert result.exit_code == 2 and "cannot attack and defend in the same combat" in result.stderr
    result = CliRunner().invoke(adjudicate, ["combat", "--game", "onslaught", "--attack", "us-inf-01@2019",
                                             "--attack", "us-inf-01@2019", "--defend", "de-inf-01@2020"])
    assert result.exit_code == 2 and "more than once" in result.stderr


def _json_log(tmp_path: Path, entries: str) -> Path:
    path = tmp_path / "log.json"
    path.write_text('{"format": "umpire-log", "version": 1, "entries": [' + entries + "]}", encoding="utf-8")
    return path


@pytest.mark.parametrize(("entries", "expected"), [
    ('{"kind": "turn", "turn": "1"}', "valid integer"),
    ('{"kind": "turn", "turn": true}', "valid integer"),
    ('{"kind": "turn", "turn": 1' + "0" * 4000 + "}", "too large"),
    ('{"kind": "turn", "turn": 1, "turn": 2}', "appears twice"),
    ('{"kind": "turn", "turn": NaN}', "not a JSON number"),
])
def test_json_log_read_strictly(entries: str, expected: str, tmp_path: Path) -> None:
    """Types, duplicate keys and huge numbers refused (exit 2), for check and convert alike."""
    log = _json_log(tmp_path, entries)
    for args in (["check", str(log)], ["convert", str(log), "-o", str(tmp_path / "out.log")]):
        result = CliRunner().invoke(adjudicate, args)
        assert result.exit_code == 2 and expected in result.stdout + result.stderr, result.output
    assert not (tmp_path / "out.log").exists()


def test_json_to_text_refuses_what_the_text_cannot_say(tmp_path: Path) -> None:
    """A step "action\\nTurn 5" would become an extra Turn line; a unit id with a space another entry."""
    log = _json_log(tmp_path, '{"kind": "header", "key": "Game", "value": "onslaught"}, '
                              '{"kind": "step", "step": "action\\nTurn 5"}, '
                              '{"kind": "loss", "side": "German", "loss": "eliminate", "unit": "a b"}')
    out = tmp_path / "out.log"
    result = CliRunner().invoke(adjudicate, ["convert", str(log), "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert "entries[1]" in result.stderr and "line break" in result.stderr
    assert "entries[2]" in result.stderr


def test_json_to_text_of_a_faithful_log(tmp_path: Path) -> None:
    """Every example log goes text -> JSON -> text unchanged in meaning."""
    from adjudicator.cli import read_log
    from adjudicator.notation.entries import entry_data

    def placeless(e: Entry) -> dict[str, object]:
        return {k: v for k, v in entry_data(e).items() if k not in ("line", "column")}

    for example in sorted((ROOT / "examples").rglob("*.log"))[:8]:
        as_json = tmp_path / (example.stem + ".json")
        back = tmp_path / (example.stem + ".log")
        assert CliRunner().invoke(adjudicate, ["convert", str(example), "-o", str(as_json)]).exit_code == 0
        assert CliRunner().invoke(adjudicate, ["convert", str(as_json), "-o", str(back)]).exit_code == 0
        assert [placeless(e) for e in read_log(back)[0]] == [placeless(e) for e in read_log(example)[0]]


@pytest.mark.slow
def test_a_comment_ending_in_a_backslash_exports_to_the_same_steps(tmp_path: Path, built_module: object) -> None:
    """The encoder quotes a token ending in a backslash as SequenceEncoder does: no step lost, whether the
    backslash ends a comment line at the end or in the middle of the log, an entry's own comment, or a run of two;
    the recording reads back to the same entries."""
    from wargame.vassal.reader import read_recording

    assert callable(built_module)
    module = built_module("onslaught")
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i] and not lines[i].startswith(("#", "[")))
    entry = lines[middle].split("#")[0].rstrip()
    variants = {
        "plain": [*lines, "# a note"], "end": [*lines, "# a note \\"],
        "middle": [*lines[:middle], "# a note \\", *lines[middle:]],
        "two": [*lines[:middle], "# two \\\\", *lines[middle:]],
        "entry": [*lines[:middle], entry + "  # its note\\", *lines[middle + 1:]],
    }
    steps: dict[str, int] = {}
    for name, text in variants.items():
        log = tmp_path / f"{name}.log"
        log.write_text("\n".join(text) + "\n", encoding="utf-8")
        out = log.with_suffix(".vlog")
        result = CliRunner().invoke(adjudicate, ["export", str(log), "--module", str(module), "-o", str(out)])
        assert result.exit_code == 0, result.output
        steps[name] = len(read_recording(out).steps)
        again = CliRunner().invoke(adjudicate, ["check", str(out)])
        assert again.exit_code == 0 and " 0 error(s)" in again.output, (name, again.output[-400:])
    # A comment line of its own is a step of its own; an entry's comment travels with the entry.
    assert steps["end"] == steps["plain"] and steps["middle"] == steps["two"] == steps["plain"]
    assert steps["entry"] == steps["plain"] - 1


def test_a_log_past_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log larger than the limit is refused unread, with its size and the limit (exit 2)."""
    monkeypatch.setattr("adjudicator.sources.MAX_LOG_BYTES", 100)
    log = tmp_path / "big.log"
    log.write_text('[Game "onslaught"]\n' + "# padding\n" * 20, encoding="utf-8")
    result = CliRunner().invoke(adjudicate, ["check", str(log)])
    assert result.exit_code == 2 and "at most 100" in result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("attribute", "value"), [("dx", "1e308"), ("dy", "1e308"), ("hLeading", "100000"),
                                                  ("hOff", "999999999"), ("dx", "1e-300")])
def test_hostile_module_grids_through_the_commands(attribute: str, value: str, tmp_path: Path,
                                                   built_module: object) -> None:
    """`export` and `check --module` with a hostile HexGrid: exit 2 at once (was OverflowError, or forever)."""
    assert callable(built_module)
    source = built_module("onslaught")
    hostile = tmp_path / "hostile.vmod"
    with zipfile.ZipFile(source) as given, zipfile.ZipFile(hostile, "w") as out:
        for info in given.infolist():
            data = given.read(info)
            if info.filename == "buildFile.xml":
                text = data.decode("utf-8")
                tag = "HexGridNumbering " if attribute in ("hLeading", "hOff") else "HexGrid "
                at = text.index(tag)
                end = text.index(">", at)
                end -= text[end - 1] == "/"  # a self-closing element
                element = re.sub(rf' {attribute}="[^"]*"', "", text[at:end]) + f' {attribute}="{value}"'
                data = (text[:at] + element + text[end:]).encode("utf-8")
            out.writestr(info, data)
    exported = CliRunner().invoke(adjudicate, ["export", str(SAMPLE), "--module", str(hostile), "-o",
                                               str(tmp_path / "x.vlog")])
    assert exported.exit_code == 2 and "must be between" in exported.stdout + exported.stderr, exported.output
    checked = CliRunner().invoke(adjudicate, ["check", str(ROOT / "tests" / "data" / "vassal" / "onslaught-zoc.vlog"),
                                              "--module", str(hostile)])
    assert checked.exit_code == 2 and "must be between" in checked.stdout + checked.stderr, checked.output


def test_a_value_of_5000_digits_in_a_csv(tmp_path: Path) -> None:
    """Found by the fuzz campaign: a 5,001-digit number in units.csv's `full` values raised ValueError
    (Python's int() limit); it is our error on its line."""
    lines = (ROOT / "counters" / "onslaught" / "units.csv").read_text(encoding="utf-8").splitlines()
    header = next(n for n, line in enumerate(lines) if not line.startswith("#"))
    columns = lines[header].split(",")
    row = lines[header + 1].split(",")
    row[columns.index("full")] = "1" * 5001 + "-4"
    path = tmp_path / "units.csv"
    path.write_text("\n".join(lines[:header + 1] + [",".join(row)]) + "\n", encoding="utf-8")
    rows, errors = load_csv(path, Unit)
    assert rows == [] and len(errors) == 1 and errors[0].place is not None and errors[0].place.line == header + 2


def test_state_at_a_line_of_5000_digits() -> None:
    """`--at` with a number too long for int(): a usage error (2), not an internal error."""
    result = CliRunner().invoke(adjudicate, ["state", str(SAMPLE), "--at", "9" * 5000])
    assert result.exit_code == 2 and "is not a line or step number" in result.stderr


def test_an_interrupted_command_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C: exit 2 (could not run), never 1 (breaches found), with a message."""
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("adjudicator.sources.open_logs", interrupted)
    result = CliRunner().invoke(adjudicate, ["check", str(SAMPLE)])
    assert result.exit_code == 2 and "interrupted" in result.stderr
    monkeypatch.setattr("wargame.game.load_game", interrupted)
    assert CliRunner().invoke(vmodbuild, ["show", "onslaught"]).exit_code == 2


def test_numbers_of_5000_digits_in_data_files(tmp_path: Path) -> None:
    """Found by the fuzz campaign: tomli's int() of 5,001 digits, and a CSV schema_version as long."""
    toml = tmp_path / "map.toml"
    toml.write_text("schema_version = 1\nx = 1\ny = " + "1" * 5001 + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="too long") as caught:
        load_toml(toml, MapManifest)
    assert caught.value.place is not None and caught.value.place.line == 3
    csv_file = tmp_path / "units.csv"
    csv_file.write_text("# schema_version = " + "1" * 5001 + "\nid\n", encoding="utf-8")
    rows, errors = load_csv(csv_file, Unit)
    assert rows == [] and "is not one this version of Umpire reads" in errors[0].message


def test_a_json_entry_on_line_999_999_999_in_a_chain(tmp_path: Path) -> None:
    """A JSON log whose entry says line 999,999,999 (the most a log may say), then a later exchange: refereed in
    bounded memory (the chain's lines were once a list of every line up to it, 15 GB)."""
    twin = tmp_path / "first.json"
    assert CliRunner().invoke(adjudicate, ["convert", str(ROOT / "examples" / "moscow" / "breach-zoc.log"),
                                           "-o", str(twin)]).exit_code == 0
    document = json.loads(twin.read_text(encoding="utf-8"))
    document["entries"][-1]["line"] = 999_999_999
    twin.write_text(json.dumps(document), encoding="utf-8")
    later = tmp_path / "second.log"
    later.write_text("Step german_movement\n", encoding="utf-8")
    tracemalloc.start()
    try:
        result = CliRunner().invoke(adjudicate, ["check", str(twin), str(later)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 1 and f"{twin}:999999999:1: error [moscow 5.0]" in result.stdout
    assert peak < 200 * 2**20, peak


def test_json_nested_beyond_the_recursion_limit(tmp_path: Path) -> None:
    """A JSON log of 100,000 nested arrays: our error, not a RecursionError."""
    log = tmp_path / "deep.json"
    log.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = CliRunner().invoke(adjudicate, ["check", str(log)])
    assert result.exit_code == 2 and "nested too deep" in result.stdout + result.stderr


@pytest.mark.parametrize("method", [12, 14])
def test_a_damaged_bzip2_or_lzma_member(method: int, tmp_path: Path) -> None:
    """Found by the fuzz campaign: a member whose header says bzip2 over other bytes raised OSError
    ("Invalid data stream"); LZMA's own error is caught too. In a recording and in a module."""
    import struct

    def patched(names: tuple[str, ...]) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            for name in names:
                archive.writestr(name, "begin_save" * 20)
        data = bytearray(buffer.getvalue())
        for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
            at = data.find(signature)
            while at >= 0:
                data[at + offset:at + offset + 2] = struct.pack("<H", method)
                at = data.find(signature, at + 4)
        return bytes(data)

    with pytest.raises(DataError, match="not a readable zip archive"):
        read_archive(patched(("savedGame",)), "x.vlog")
    module = tmp_path / "m.vmod"
    module.write_bytes(patched(("buildFile.xml",)))
    with pytest.raises(DataError, match="not a readable module"):
        open_module(module)
