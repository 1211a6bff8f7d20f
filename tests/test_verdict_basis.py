"""Verdicts state their basis (issue 15 item 5): findings name the data records their arithmetic read,
the text marks the reconstructed ones, the summary counts findings resting on reconstructed data; the
JSON carries the top-level section beside the clause."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from adjudicator.basis import crt_cell
from adjudicator.cli import main
from adjudicator.findings import Basis, Finding, top_section
from wargame.bundled import data_root
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str]:
    """adjudicate in-process: exit code and stdout."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def test_top_section_is_the_tables_top_level_name() -> None:
    """`8.2.1` groups under `8.0`, `7.1` under `7.0`, `11.2.3` under `11.0`; `log` and `syntax` stand alone."""
    assert [top_section(r) for r in ("8.2.1", "7.1", "7.0", "11.2.3", "log", "syntax")] == \
        ["8.0", "7.0", "7.0", "11.0", "log", "syntax"]


def test_a_basis_tag_names_only_reconstructed_values() -> None:
    """The text tag is short: the reconstructed records only; a finding on stated values has none."""
    stated = Basis("counters/x/crt.toml", "results 3:1/4", "7.0", "crt 3:1/4")
    guessed = Basis("counters/x/crt.toml", "results 2:1/3", "reconstructed", "crt 2:1/3")
    finding = Finding("error", "onslaught", "7.2", 1, 1, "m")
    assert finding.with_basis(stated).basis_tag() == "" and not finding.with_basis(stated).is_reconstructed
    assert finding.with_basis(stated, guessed, guessed).basis_tag() == "basis: reconstructed crt 2:1/3"


def test_onslaught_result_names_the_crt_cell_and_strengths() -> None:
    """A wrong claimed result (7.2) rests on the table's cell, the divisions' strengths and the hex's terrain."""
    log = ROOT / "examples/onslaught/breach-result.log"
    code, out = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    error = next(f for f in doc["findings"] if f["severity"] == "error")
    assert code == 1 and error["rule"] == "7.2" and error["section"] == "7.0"
    keys = {(b["file"], b["key"]): b for b in error["basis"]}
    cell = keys[("counters/onslaught/crt.toml", "results 2:1/4")]
    assert cell["source"] == "reconstructed" and cell["reconstructed"] is True
    assert ("counters/onslaught/units.csv", "us-inf-01 full.combat") in keys
    assert any(file == "maps/onslaught/hexes.csv" and key.startswith("0621") for file, key in keys)
    assert doc["summary"]["reconstructed"] == 1
    code, out = run("check", str(log))
    assert "    basis: " in out and "reconstructed crt 2:1/4" in out
    assert "1 finding(s) rest on reconstructed data" in out
    code, out = run("check", "--format", "markdown", str(log))
    assert "(basis: " in out and "reconstructed crt 2:1/4" in out


def test_onslaught_stated_cell_is_not_reconstructed() -> None:
    """The one cell the rulebook states (7.0 example: 3:1, 4 = DH) is cited with its section, not as reconstructed."""
    game = load_game(data_root(None), "onslaught")
    assert crt_cell(game, "3:1", 4).source == "7.0" and crt_cell(game, "2:1", 4).is_reconstructed


def test_fire_and_movement_result_names_the_line_cell_and_markers(tmp_path: Path) -> None:
    """An Omaha ground attack's wrong result (8.2) rests on the line's cell, the units' attack and defence
    values, the hex's terrain and the support markers."""
    text = (ROOT / "examples/omaha/legal-combat.log").read_text(encoding="utf-8")
    wrong = "die 3 result De support us_sf_6 de_sf_4"
    log = tmp_path / "wrong.log"
    log.write_text(text.replace("die 3 result D2 support us_sf_6 de_sf_4", wrong), encoding="utf-8")
    code, out = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    error = next(f for f in doc["findings"] if f["rule"] in ("8.2.1d", "8.2.2") and "gives D2" in f["message"])
    keys = {b["key"]: b for b in error["basis"]}
    assert keys["results line clear c10/3"]["file"] == "counters/omaha/crt.toml"
    assert {"16/1 full.attack", "26/1 full.attack", "914/352 full.defence", "us_sf_6", "de_sf_4"} <= set(keys)
    assert error["section"] == "8.0" and doc["summary"]["reconstructed"] >= 1


def test_a_beach_assault_rests_on_the_reconstructed_beach_line(tmp_path: Path) -> None:
    """Omaha 11.2: the beach-assault lines are the project's reconstruction, and the finding says so."""
    text = (ROOT / "examples/omaha/legal-combat.log").read_text(encoding="utf-8")
    log = tmp_path / "beach.log"
    log.write_text(text.replace("Allied: attack 2319 with 16/1 18/1 die 6 result -",
                                "Allied: attack 2319 with 16/1 18/1 die 6 result De"), encoding="utf-8")
    code, out = run("check", str(log))
    assert code == 1 and "error [omaha 11.2.3]" in out
    assert "reconstructed crt line beach_no_ezoc c9/6" in out
