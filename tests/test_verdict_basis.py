"""Verdicts state their basis (issue 15 item 5): findings name the data records their arithmetic read,
the text marks the reconstructed ones, the summary counts findings resting on reconstructed data; the
JSON carries the top-level section beside the clause."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


# -- findings other than combat: the data their section reads, named by their facts ----------------------
def errors_of(log: Path, *more: str) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    """`check --format json` of a log: exit code, its error findings and its summary."""
    code, out = run("check", "--format", "json", *more, str(log))
    doc = json.loads(out)
    return code, [f for f in doc["findings"] if f["severity"] == "error"], doc["summary"]


def keyed(finding: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """A finding's basis by (file, key)."""
    return {(b["file"], b["key"]): b for b in finding["basis"]}


def test_a_movement_finding_rests_on_the_terrain_entered_and_the_allowance() -> None:
    """F&M 5.2c: an overspent allowance rests on the terrain of every hex entered up to where it was
    overspent (reconstructed: the map is), the terrain chart's costs and the unit's movement allowance."""
    code, (error,), summary = errors_of(ROOT / "examples/omaha/breach-allowance.log")
    assert error["rule"] == "5.2c" and "by 2213" in error["message"]
    keys = keyed(error)
    row = next(b for (file, key), b in keys.items() if file == "maps/omaha/hexes.csv" and key.startswith("2213 "))
    assert row["reconstructed"] is True and row["source"].startswith("reconstructed")
    assert ("counters/omaha/units.csv", "26/1 full.movement") in keys
    assert any(file == "maps/omaha/terrain.toml" for file, _ in keys)
    assert summary["reconstructed"] == 1
    code, out = run("check", str(ROOT / "examples/omaha/breach-allowance.log"))
    assert "    basis: " in out and "reconstructed terrain 2213" in out and "reconstructed 26/1 full movement" in out


def test_a_movement_finding_that_reads_no_data_names_none() -> None:
    """A move written from the wrong hex (Onslaught 6.1, F&M 5.1) is judged on the log, not on the map: no
    basis, and so not counted as resting on reconstructed data."""
    for log in ("examples/onslaught/breach-move-wrong-hex.log", "examples/omaha/breach-move-wrong-hex.log"):
        code, (error,), summary = errors_of(ROOT / log)
        assert " is in " in error["message"] and error["basis"] == [] and summary["reconstructed"] == 0, log


def test_a_path_that_skips_a_hex_rests_on_no_terrain(tmp_path: Path) -> None:
    """A move or retreat that skips a hex (Onslaught 6.1, F&M 5.1) breaks the map's geometry, not a terrain
    cost: the hex it skips to is entered, yet its terrain is no basis of the verdict."""
    logs = {"onslaught": '[Game "onslaught"]\nTurn 1\nStep action\nAllied: pass\nGerman: action movement supply 1\n'
                         "German: activate 2608 supply 1\nde-inf-20 2608-2808\n",
            "omaha": (ROOT / "examples/omaha/breach-move-wrong-hex.log").read_text(encoding="utf-8")}
    log = tmp_path / "onslaught.log"
    log.write_text(logs["onslaught"], encoding="utf-8")
    code, errors, summary = errors_of(log)
    (error,) = [e for e in errors if e["rule"] == "6.1"]
    assert "skips from 2608 to 2808" in error["message"] and error["basis"] == [] and summary["reconstructed"] == 0
    lines = logs["omaha"].splitlines()
    wrong = next(i for i, line in enumerate(lines) if line.startswith("16/1 2318-2218"))
    omaha_log = tmp_path / "omaha.log"
    omaha_log.write_text("\n".join([*lines[:wrong], "16/1 2319-2119"]) + "\n", encoding="utf-8")
    code, errors, summary = errors_of(omaha_log)
    skips = [e for e in errors if "skips from" in e["message"]]
    assert skips and all(e["basis"] == [] for e in skips), errors


def test_a_zoc_finding_names_the_zoc_of_the_enemy_unit() -> None:
    """F&M 6.1: a leg unit moving on from an enemy ZOC rests on that hex's terrain and on the enemy unit's
    `zoc` value (units.csv, reconstructed for Omaha's German regiments)."""
    code, (error,), _ = errors_of(ROOT / "examples/omaha/breach-leg-ezoc.log")
    zoc = keyed(error)[("counters/omaha/units.csv", "914/352 zoc")]
    assert error["rule"] == "6.1" and zoc["reconstructed"] is True
    code, (error,), summary = errors_of(ROOT / "examples/onslaught/breach-zoc.log")
    hexes = {key.split()[0] for file, key in keyed(error) if file == "maps/onslaught/hexes.csv"}
    # The hexes the message names and those of the enemy divisions next to them (0821, 0621).
    assert hexes == {"0820", "0721", "0821", "0621"} and summary["reconstructed"] == 1


def test_a_supply_finding_rests_on_the_supply_sources() -> None:
    """Onslaught 8.1: a wrong income rests on the supply sources it counts (the landing hexes' area, stated
    in 8.1) and the hexes named (reconstructed map hexes); 8.7 a capture likewise."""
    code, errors, summary = errors_of(ROOT / "examples/onslaught/breach-income.log")
    (error,) = errors
    keys = keyed(error)
    assert error["rule"] == "8.1" and keys[("maps/onslaught/areas.toml", "area landing_hexes")]["source"] == "8.1"
    assert {key.split()[0] for file, key in keys if file == "maps/onslaught/hexes.csv"} == {"0620", "0720", "0820"}
    assert error in [f for f in errors if any(b["reconstructed"] for b in f["basis"])]
    code, (capture,), _ = errors_of(ROOT / "examples/onslaught/breach-capture-nothing-there.log")
    assert capture["rule"] == "8.7" and ("maps/onslaught/areas.toml", "area landing_hexes") in keyed(capture)


def test_a_reinforcement_finding_names_its_schedule_row() -> None:
    """Onslaught 10.2: a reinforcement placed early rests on its row of the (reconstructed) schedule and its
    entry area."""
    code, (error,), summary = errors_of(ROOT / "examples/onslaught/breach-german-reinforcement-early.log")
    keys = keyed(error)
    row = next(b for (file, key), b in keys.items() if file == "counters/onslaught/reinforcements.csv")
    assert row["key"].startswith("campaign ss-pz-03 turn 2 (line ") and row["source"] == "reconstructed:history"
    assert ("maps/onslaught/areas.toml", "area entry_a") in keys and summary["reconstructed"] >= 1


def test_the_summary_counts_findings_resting_on_reconstructed_data() -> None:
    """`summary.reconstructed` counts each finding resting on at least one reconstructed record, once."""
    code, out = run("check", "--format", "json", str(ROOT / "examples/onslaught/breach-income.log"))
    doc = json.loads(out)
    resting = [f for f in doc["findings"] if any(b["reconstructed"] for b in f["basis"])]
    # The wrong income and the nine reinforcements not placed when the log ends (their schedule is reconstructed).
    assert len(resting) == doc["summary"]["reconstructed"] == 10


def corrected_data(tmp_path: Path, edit: Callable[[str], str], file: str = "maps/onslaught/hexes.csv") -> Path:
    """A copy of the bundled data folder with one file corrected by a player (the original is untouched)."""
    copy = tmp_path / "data"
    for folder in ("maps", "counters"):
        shutil.copytree(data_root(None) / folder, copy / folder)
    path = copy / file
    text = path.read_text(encoding="utf-8")
    path.write_text(edit(text), encoding="utf-8")
    assert path.read_text(encoding="utf-8") != text
    return copy


def test_corrected_data_change_the_verdict_and_its_basis(tmp_path: Path) -> None:
    """End to end: a player who owns the printed map corrects one reconstructed hex (0521, bocage in the
    reconstruction) to the all-sea hex it shows, marking the row with the map's section; `check --data` then
    judges the move through it on that value (6.1: no division enters it), and the basis names the corrected
    row with its new source, no longer reconstructed."""
    log = ROOT / "examples/onslaught/legal-rule-4.1-turn1.log"
    assert "us-inf-02 0620-0521-0522" in log.read_text(encoding="utf-8")
    code, errors, _ = errors_of(log)
    assert code == 0 and errors == []
    data = corrected_data(tmp_path, lambda text: re.sub(r"(?m)^0521,bocage,reconstructed:authored,",
                                                        "0521,sea,2.2,", text))
    code, (error,), summary = errors_of(log, "--data", str(data))
    assert code == 1 and error["rule"] == "6.1" and error["message"] == "us-inf-02 enters 0521, which no division may enter"
    row = next(b for b in error["basis"] if b["file"] == "maps/onslaught/hexes.csv" and b["key"].startswith("0521 "))
    assert row == {"file": "maps/onslaught/hexes.csv", "key": row["key"], "source": "2.2", "reconstructed": False}
    code, out = run("check", "--data", str(data), str(log))
    assert "error [onslaught 6.1]: us-inf-02 enters 0521" in out and "reconstructed terrain 0521" not in out


def test_a_corrected_movement_allowance_changes_the_verdict(tmp_path: Path) -> None:
    """End to end on a unit's value: the Allied infantry's movement allowance is reconstructed (5); a player
    whose counter prints 1 for us-inf-02 corrects its row and marks the value stated (out of the
    `reconstructed` column): its move of two hexes becomes a 6.1 error resting on that row, with its source."""
    log = ROOT / "examples/onslaught/legal-rule-4.1-turn1.log"
    before = "us-inf-02,US infantry division,Allied,us,infantry,leg,division,2,4-5,2-5,7.0,full.movement;reduced,"
    after = "us-inf-02,US infantry division,Allied,us,infantry,leg,division,2,4-1,2-5,7.0,reduced,"
    data = corrected_data(tmp_path, lambda t: t.replace(before, after), "counters/onslaught/units.csv")
    code, errors, _ = errors_of(log, "--data", str(data))
    (error,) = errors
    assert code == 1 and error["message"] == "us-inf-02 enters 2 hexes with a movement allowance of 1"
    unit = keyed(error)[("counters/onslaught/units.csv", "us-inf-02 full.movement")]
    assert error["rule"] == "6.1" and unit["source"] == "7.0" and unit["reconstructed"] is False


def test_a_range_finding_names_the_markers_values() -> None:
    """Omaha 11.1.4: a bombardment beyond a support marker's range rests on the marker's record, and 7.5 (a
    stand outside a fortification) on the hex's terrain."""
    code, (error,), _ = errors_of(ROOT / "examples/omaha/breach-bombard-range.log")
    assert error["rule"] == "11.1.4" and ("counters/omaha/markers.toml", "de_sf_5") in keyed(error)
    code, (error,), _ = errors_of(ROOT / "examples/onslaught/breach-stand.log")
    assert error["rule"] == "7.5" and sorted(key.split()[0] for _, key in keyed(error)) == ["0621", "bocage"]
