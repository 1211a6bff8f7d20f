"""Logs recorded by real play in VASSAL 3.7.26 with a planted breach each (issue 8): the finding at
its VASSAL step with its rule section, and the same verdict again from the converted text log
(.vlog -> text log -> verdict). The recordings are described in tests/data/vassal/README.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.notation.entries import Advance, Attack, Header, Loss, Move, Place, RollOff, StepMarker, TurnMarker
from adjudicator.vassal.load import translate_file

DATA = Path(__file__).resolve().parent / "data" / "vassal"

# file, game, the one breach (system, rule, VASSAL step, start of the message), what the step says
RECORDED = [
    ("onslaught-zoc.vlog", "onslaught", ("onslaught", "6.2", 3,
                                         "br-inf-01 entered an enemy zone of control at 0721 and moved on to 0722"),
     "VASSAL: Alice: br-inf-01 0720-0721-0722"),
    ("onslaught-result.vlog", "onslaught", ("onslaught", "7.2", 3,
                                            "column 2:1 with a modified roll of 3 gives -, not DE"),
     "VASSAL: Alice: Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 result DE"),
    ("omaha-zoc.vlog", "omaha", ("fire-and-movement", "6.1", 42,
                                 "914/352 entered an enemy zone of control at 2218 and moves on"),
     "VASSAL: Alice: 914/352 2117-2118-2218-2217"),
    ("omaha-result.vlog", "omaha", ("omaha", "11.2.3", 18,
                                    "differential +8 on the beach_no_ezoc line (column c9) with a 6 gives -, not De"),
     "VASSAL: Alice: Allied: attack 2319 with 16/1 18/1 result De"),
    ("moscow-zoc.vlog", "moscow", ("moscow", "5.0", 13,
                                   "ge-ix entered the enemy zone of control at 0404 and moved on to 0403"),
     "VASSAL: Alice: ge-ix 0305-0404-0403"),
]


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The modules as the builder makes them today (the recordings' modules, byte for byte, when
    built from the commit the README names)."""
    from builder.cli import main as vmodbuild

    out = tmp_path_factory.mktemp("dist")
    result = CliRunner().invoke(vmodbuild, ["build", "--all", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def breaches(report: str) -> list[tuple[str, str, int, str]]:
    """(system, rule, line, message) of every error and warning of a JSON report."""
    return [(f["system"], f["rule"], f["line"], f["message"]) for f in json.loads(report)["findings"]
            if f["severity"] != "note"]


@pytest.mark.parametrize("name, game_id, breach, said", RECORDED)
def test_recorded_breach_is_found_at_its_step(modules: Path, name: str, game_id: str,
                                              breach: tuple[str, str, int, str], said: str) -> None:
    """`adjudicate check FILE.vlog --module`: exit 1, one breach, the planted one, at its step,
    with the chat line VASSAL showed there."""
    module = str(modules / f"{game_id}.vmod")
    code, out = run("check", str(DATA / name), "--module", module, "--format", "json")
    assert code == 1, out
    found = breaches(out)
    assert len(found) == 1, found
    system, rule, step, message = breach
    assert found[0][:3] == (system, rule, step) and found[0][3].startswith(message), found
    code, text = run("check", str(DATA / name), "--module", module)
    assert f"{name}: step {step}: error [{system} {rule}]" in text and said in text


@pytest.mark.parametrize("name, game_id, breach, said", RECORDED)
def test_recorded_log_round_trips_through_text(modules: Path, tmp_path: Path, name: str, game_id: str,
                                               breach: tuple[str, str, int, str], said: str) -> None:
    """`adjudicate convert` writes a text log whose verdict is the .vlog's: the same breach, cited
    at the text line of the entry translated from that VASSAL step."""
    module = str(modules / f"{game_id}.vmod")
    log = tmp_path / (name.removesuffix(".vlog") + ".log")
    code, out = run("convert", str(DATA / name), "--module", module, "-o", str(log))
    assert code == 0, out
    code, out = run("check", str(log), "--format", "json")
    assert code == 1, out
    found = breaches(out)
    system, rule, step, message = breach
    assert len(found) == 1 and found[0][:2] == (system, rule) and found[0][3].startswith(message), found
    lines = log.read_text(encoding="utf-8").splitlines()
    typed = said.split(": ", 2)[2]  # the entry as the player typed it in chat
    cited = lines[found[0][2] - 1]
    assert cited.startswith(typed.split(" result ")[0]), (cited, typed)
    assert f"# step {step}: typed by Alice" in lines[found[0][2] - 2]


@pytest.mark.parametrize("name", ["omaha-result.vlog", "omaha-zoc.vlog", "onslaught-result.vlog", "moscow-zoc.vlog"])
def test_recorded_log_reads_the_same_without_the_module(modules: Path, name: str) -> None:
    """Without `--module`, the reader lays the off-map board out with the builder's own geometry
    (wargame/holding.py): the findings are those with the module, and no drop is named from
    VASSAL's chat report because the reader's layout put it elsewhere."""
    module = str(modules / f"{name.split('-')[0]}.vmod")
    code_with, with_module = run("check", str(DATA / name), "--module", module, "--format", "json")
    code_without, without = run("check", str(DATA / name), "--format", "json")
    assert (code_without, json.loads(without)["findings"]) == (code_with, json.loads(with_module)["findings"])
    translation = translate_file(DATA / name)
    assert not [n for n in translation.notes if "the reader's layout says" in n.message
                or "a position that is not scenario" in n.message]


def test_omaha_landing_comes_before_game_turn_1(modules: Path) -> None:
    """The Omaha recordings: the Pointe du Hoc roll, the beach assaults and their losses stay
    before `Turn 1` (11.2.1, 11.2.3); GT 1 begins when the tracker moves, or with the log's end."""
    for name, first_after in (("omaha-zoc.vlog", 29), ("omaha-result.vlog", 27)):
        entries = translate_file(DATA / name, module_path=modules / "omaha.vmod").entries
        turn = next(i for i, e in enumerate(entries) if isinstance(e, TurnMarker))
        before = entries[:turn]
        assert any(isinstance(e, RollOff) for e in before)
        assert sum(isinstance(e, Attack) for e in before) == 4
        assert not any(isinstance(e, (Move, StepMarker)) for e in before)
        assert entries[turn].line == first_after


def test_side_changes_follow_the_retire_button(modules: Path) -> None:
    """One player switching sides with VASSAL's Retire button: each step is the side's taken at
    the time (set-ups, dice for the Allied assaults, the German move), and both sides are named."""
    translation = translate_file(DATA / "omaha-zoc.vlog", module_path=modules / "omaha.vmod")
    setups = {e.unit: (e.side, e.by_opponent) for e in translation.entries
              if isinstance(e, Place) and e.how == "setup"}
    assert setups["16/1"] == ("Allied", False) and setups["914/352"] == ("German", False)
    attacks = [e for e in translation.entries if isinstance(e, Attack)]
    assert [a.die for a in attacks] == [2, 3, 2, 4]
    headers = [e for e in translation.entries if isinstance(e, Header)]
    assert {(h.key, h.value) for h in headers} >= {("Allied", "Alice"), ("German", "Alice")}
    texts = [getattr(e, "text", "") for e in translation.entries]
    assert "step 8: Alice plays German from here" in texts and "step 14: Alice plays Allied from here" in texts


def test_undone_move_keeps_vassal_names_the_right_way_round(modules: Path) -> None:
    """An Undo repeats the report of the move it takes back; the reader reads it backwards and
    notes no disagreement with VASSAL's names (omaha-zoc.vlog steps 37-40)."""
    translation = translate_file(DATA / "omaha-zoc.vlog", module_path=modules / "omaha.vmod")
    assert not any("VASSAL names" in n.message for n in translation.notes)
    assert translation.undone == {38: 39, 37: 40}


@pytest.mark.parametrize("name, game_id", [("onslaught-zoc", "onslaught"), ("omaha-zoc", "omaha"),
                                           ("omaha-result", "omaha"), ("moscow-zoc", "moscow")])
def test_recorded_log_and_its_end_save_join(modules: Path, name: str, game_id: str) -> None:
    """Each recording's save, made in VASSAL when logging ended, begins where the log ends."""
    code, out = run("check", str(DATA / f"{name}.vlog"), str(DATA / f"{name}-end.vsav"),
                    "--module", str(modules / f"{game_id}.vmod"), "--format", "json")
    assert code == 1, out
    assert not any(f["rule"] == "chain" for f in json.loads(out)["findings"])
    assert len(breaches(out)) == 1


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
REPLAYED = [("onslaught/legal-sample-game.log", "exported-onslaught-sample-end.vsav", "onslaught"),
            ("omaha/legal-combat.log", "exported-omaha-combat-end.vsav", "omaha"),
            ("moscow/legal-sample-game.log", "exported-moscow-sample-end.vsav", "moscow")]
"""Text logs exported with `adjudicate export`, stepped through to their end in real VASSAL 3.7.26,
and the position saved there (text log -> .vlog -> VASSAL -> .vsav)."""


@pytest.mark.parametrize("log, save, game_id", REPLAYED)
def test_an_exported_log_replayed_in_vassal_ends_where_the_text_log_ends(modules: Path, log: str, save: str,
                                                                          game_id: str) -> None:
    """VASSAL's save after replaying the export joins the text log with no difference: every unit in
    the text log's final hex or box, reduced or not, markers and turn tracker alike."""
    code, out = run("check", str(EXAMPLES / log), str(DATA / save), "--module", str(modules / f"{game_id}.vmod"),
                    "--format", "json")
    assert code == 0, out
    assert not any(f["rule"] == "chain" for f in json.loads(out)["findings"])


def test_a_save_that_is_not_where_the_text_log_ends_is_told(modules: Path) -> None:
    """The same save after another text log (the first turn only): the chain's differences, as errors."""
    code, out = run("check", str(EXAMPLES / "onslaught" / "legal-turn1.log"),
                    str(DATA / "exported-onslaught-sample-end.vsav"), "--module", str(modules / "onslaught.vmod"),
                    "--format", "json")
    assert code == 1
    assert any(f["rule"] == "chain" and f["severity"] == "error" for f in json.loads(out)["findings"])


def test_moscow_recording_reads_menus_dice_delete_and_advance(modules: Path) -> None:
    """moscow-zoc.vlog: the attack declared with the counters' menus and the Declare menu's claimed result, its
    die from the 1d6 button, the defender deleted (Ctrl+D) as its elimination, the drag into the emptied hex as
    the advance, the steps from the typed markers: the entries a text log of the same play would hold."""
    entries = translate_file(DATA / "moscow-zoc.vlog", module_path=modules / "moscow.vmod").entries
    attack = next(e for e in entries if isinstance(e, Attack))
    assert (attack.hex, attack.attackers, attack.die, attack.result) == ("0302", ["ge-xli", "ge-lvi"], 6, "DE")
    assert [(e.loss, e.unit) for e in entries if isinstance(e, Loss)] == [("eliminate", "so-30")]
    assert [(e.unit, e.path) for e in entries if isinstance(e, Advance)] == [("ge-xli", ["0201", "0302"])]
    assert [e.step for e in entries if isinstance(e, StepMarker)] == ["german_replacement", "panzer_movement",
                                                                      "german_combat", "german_movement"]


def test_a_tracker_left_where_the_log_before_left_it_has_not_gone_back(modules: Path) -> None:
    """moscow-zoc.vlog's phases were typed, the tracker never moved: the save made at its end shows the tracker
    where the log began, which is no step back of the tracker (no note saying it went back)."""
    code, out = run("check", str(DATA / "moscow-zoc.vlog"), str(DATA / "moscow-zoc-end.vsav"),
                    "--module", str(modules / "moscow.vmod"))
    assert code == 1, out
    assert "went back" not in out and "goes back" not in out, out


def test_onslaught_declare_recording_gives_its_planted_breach(modules: Path) -> None:
    """onslaught-declare.vlog, every Onslaught menu item but Stand fast and the Bulge clicked in real VASSAL: one
    breach, the planted capture at an Allied source no German holds (8.7); the notes only say the log stops in the
    Reinforcement Step with the Allied reinforcements still to place."""
    code, out = run("check", str(DATA / "onslaught-declare.vlog"), "--module", str(modules / "onslaught.vmod"),
                    "--format", "json")
    assert code == 1, out
    assert breaches(out) == [("onslaught", "8.7", 35, "no German division occupies 0620")]
    notes = [f["message"] for f in json.loads(out)["findings"] if f["severity"] == "note"]
    assert notes and all(n.startswith("when the log ends, turn 1: the Allied reinforcement") for n in notes), notes


def test_onslaught_declare_recording_reads_every_click(modules: Path, tmp_path: Path) -> None:
    """onslaught-declare.vlog read click by click (docs/vassal-logs.md): the Declare menu's actions with their
    supply, Pass, Reduced collection and Capture; Activate, Activate to move first, Declare attacker and target;
    the dice paired into roll-offs across Alice's side changes; and the German retreat Alice dragged while seated
    as the Allies, who plays the Germans too in this log, as the German's decision (Onslaught 7.3)."""
    log = tmp_path / "declare.log"
    code, out = run("convert", str(DATA / "onslaught-declare.vlog"), "--module", str(modules / "onslaught.vmod"),
                    "-o", str(log))
    assert code == 0, out
    read = [line for line in log.read_text(encoding="utf-8").splitlines() if line and line[0] not in "#["]
    assert read == [
        "Turn 1", "Step action",
        "Allied: action combat supply 1", "Allied: activate 0620",
        "Allied: attack 0621 with us-inf-02 us-inf-01 die 5 result DR",
        "German> retreat de-inf-04 0621-0622-0623", "Allied: advance us-inf-01 0620-0621",
        "Roll Allied 4 German 5",
        "German: action breakthrough supply 2", "German: activate 0922 move-first", "de-pz-01 0922-0923-1023",
        "Roll German 6 Allied 4",
        "German: pass",
        "Roll German 3 Allied 6",
        "Allied: action movement supply 1", "Allied: activate 0720", "ca-inf-01 0720-0620",
        "Roll Allied 2 German 2",
        "Step german_reserve", "Step reinforcement",
        "Allied: income reduce 0620 2", "German: capture 0620",
    ]


def test_omaha_declare_recording_gives_its_planted_breach(modules: Path) -> None:
    """omaha-declare.vlog, Omaha's piece menus and Claim result clicked in real VASSAL, played on from the position
    examples/omaha/legal-combat.log ends at (its text log first in the chain, its end save last): one breach, the
    planted leg unit moved in the Mobile Movement Phase (Fire & Movement 5.5), and no note (the joins agree)."""
    code, out = run("check", str(EXAMPLES / "omaha" / "legal-combat.log"), str(DATA / "omaha-declare.vlog"),
                    str(DATA / "omaha-declare-end.vsav"), "--module", str(modules / "omaha.vmod"), "--format", "json")
    assert code == 1, out
    assert breaches(out) == [("fire-and-movement", "5.5", 25,
                              "915/352 is a leg unit; leg units never move in the Mobile Movement Phase")]
    assert not [f for f in json.loads(out)["findings"] if f["severity"] == "note"], out


def test_omaha_declare_recording_reads_every_click(modules: Path, tmp_path: Path) -> None:
    """omaha-declare.vlog read click by click (docs/vassal-logs.md): Declare support fire on face-down markers drawn
    from both cups (a mines marker among them), Bombard this hex and Defends its stack on a beach landing stack
    (11.2.3), Declare attacker and Declare defender, the dice, Claim result, Stand (stiff resistance, 8.4) with its
    flip, across Alice's side changes."""
    log = tmp_path / "declare.log"
    code, out = run("convert", str(EXAMPLES / "omaha" / "legal-combat.log"), str(DATA / "omaha-declare.vlog"),
                    "--module", str(modules / "omaha.vmod"), "-o", str(log))
    assert code == 0, out
    lines = log.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("# translated from the VASSAL log"))
    read = [line for line in lines[start:] if line and line[0] not in "#["]
    assert read == [
        "Step mobile_combat", "Step movement", "916/352 2022-1922",
        "Step bombardment", "German: bombard 2120 die 5 result Ex defender CCB/2 support de_sf_8",
        "Step combat", "German: attack 2016 with 914/352 die 5 result A3 support de_mines us_sf_2",
        "German: stand 914/352",
        "Step mobile_movement", "915/352 2021-1921",
    ]


def test_onslaught_declare_end_save_joins_its_log(modules: Path) -> None:
    """onslaught-declare-end.vsav, the log loaded again in VASSAL, stepped through to its end and saved there:
    the chain of the log and the save has no join error and the log's own findings only (the planted 8.7)."""
    code, out = run("check", str(DATA / "onslaught-declare.vlog"), str(DATA / "onslaught-declare-end.vsav"),
                    "--module", str(modules / "onslaught.vmod"), "--format", "json")
    assert code == 1, out
    assert breaches(out) == [("onslaught", "8.7", 35, "no German division occupies 0620")]
    assert all(f["rule"] == "10.3" for f in json.loads(out)["findings"] if f["severity"] == "note"), out


def test_onslaught_stand_fast_recording_gives_its_planted_breach(modules: Path, tmp_path: Path) -> None:
    """onslaught-standfast.vlog, played on in real VASSAL from where the first 184 lines of
    examples/onslaught/legal-sample-game.log leave turn 3 (that text log first in the chain): Stand fast
    (fortification) clicked on de-inf-02 in Cherbourg after an AE, the planted breach (7.5 answers only a DR); the
    notes only say what follows from it. The clicks read as the entries a text log of the same play would hold."""
    prefix = tmp_path / "turn3.log"
    lines = (EXAMPLES / "onslaught" / "legal-sample-game.log").read_text(encoding="utf-8").splitlines()
    prefix.write_text("\n".join(lines[:184]) + "\n", encoding="utf-8")
    code, out = run("check", str(prefix), str(DATA / "onslaught-standfast.vlog"),
                    str(DATA / "onslaught-standfast-end.vsav"), "--module", str(modules / "onslaught.vmod"),
                    "--format", "json")
    assert code == 1, out
    (found,) = breaches(out)
    assert found[:3] == ("onslaught", "7.5", 9), found
    assert found[3].startswith("divisions in a fortification stand against a DR result, not AE (the attack on "
                               "0318 ("), found
    assert found[3].endswith("onslaught-standfast.vlog step 5))"), found
    log = tmp_path / "standfast.log"
    code, out = run("convert", str(prefix), str(DATA / "onslaught-standfast.vlog"), "--module",
                    str(modules / "onslaught.vmod"), "-o", str(log))
    assert code == 0, out
    read = log.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(read) if line.startswith("# translated from the VASSAL log"))
    assert [line for line in read[start:] if line and line[0] not in "#["] == [
        "Allied: action combat supply 2", "Allied: activate 0319", "Allied: activate 0418",
        "Allied: attack 0318 with us-inf-01 us-inf-02 us-inf-06 us-inf-04 us-inf-05 us-para-01 die 1 result AE",
        "German: stand de-inf-02",
        *[f"Allied: eliminate {unit}" for unit in ("us-inf-01", "us-inf-02", "us-inf-06", "us-inf-04", "us-inf-05",
                                                   "us-para-01")],
    ]


def test_omaha_naval_recording_reads_its_undos_and_its_three_naval_markers(modules: Path, tmp_path: Path) -> None:
    """omaha-naval.vlog (real VASSAL, played on from the landing of examples/omaha/legal-sample-game.log): an
    attacker clicked on the wrong unit and undone, three naval gunfire markers dropped on the wrong hex, each
    declared, and all six steps undone, then three dropped and declared on 2318. VASSAL undoes a click (its chat
    line alone) and walks back one step an Undo; the three markers of one id are three counters, the planted
    breach of 8.2.1 b (two a combat)."""
    translation = translate_file(DATA / "omaha-naval.vlog", module_path=modules / "omaha.vmod")
    assert translation.undone == {8: 9, 22: 23, 21: 24, 20: 25, 19: 26, 18: 27, 17: 28}
    prefix = tmp_path / "landing.log"
    lines = (EXAMPLES / "omaha" / "legal-sample-game.log").read_text(encoding="utf-8").splitlines()
    prefix.write_text("\n".join(lines[:33]) + "\n", encoding="utf-8")
    code, out = run("check", str(prefix), str(DATA / "omaha-naval.vlog"), str(DATA / "omaha-naval-end.vsav"),
                    "--module", str(modules / "omaha.vmod"), "--format", "json")
    assert code == 1, out
    assert ("fire-and-movement", "8.2.1b", 36, "Allied places 3 support markers on one combat; at most two (8.2.1 b)"
            ) in breaches(out)
    log = tmp_path / "naval.log"
    code, out = run("convert", str(prefix), str(DATA / "omaha-naval.vlog"), "--module", str(modules / "omaha.vmod"),
                    "-o", str(log))
    assert code == 0, out
    read = log.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(read) if line.startswith("# translated from the VASSAL log"))
    assert [line for line in read[start:] if line and line[0] not in "#["][:5] == [
        "Allied: attack 2319 with 16/1 18/1 die 1 result D2 support us_naval_7 de_sf_2",
        "Allied: deplete 18/1", "Allied: deplete 16/1",
        "Allied: attack 2318 with 26/1 die 3 result D3 support us_naval_7 us_naval_7 us_naval_7",
        "Allied: deplete 26/1",
    ]
