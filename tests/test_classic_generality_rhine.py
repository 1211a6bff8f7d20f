"""A classic game written from the designer docs alone, shaped unlike Battle for Moscow (tests/data/rhine): pointy
hexes numbered row then column from column 10, attack-defence-movement counters, single-step units, a river with
bridges, fortresses doubling defence, an odds table with AE/AR/DR/DE/EX, a rail net for both sides, a player turn
repeated for each side, reinforcements by turn and victory (or a draw) by cities held at the end."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import adjudicate_file
from adjudicator.findings import Finding
from adjudicator.systems.classic import compulsory
from classic_support import verdict
from data_edits import edit as edit_file
from builder.cli import main as vmodbuild

DATA = Path(__file__).resolve().parent / "data" / "rhine"

TURN_1 = '''[Game "rhine"]
[Scenario "plunder"]
Turn 1
Phase reinforcement
Phase rail
Phase movement
al-gds 0315-0216-0217
Phase combat
Allied: attack 0317 with al-43 al-gds odds 1:1 die 1 result DR
German> eliminate ge-wesel
Allied: advance al-43 0316-0317
Allied: advance al-gds 0217-0317
Allied: attack 0418 with al-6ab odds 1:2 die 1 result AR
Allied: retreat al-6ab 0419-0420
Phase reinforcement
Phase rail
ge-116 0622-0621
Phase movement
ge-15pg 0322-0321-0320
ge-116 0621-0520
Phase combat
German: attack 0420 with ge-15pg ge-116 odds 1:1 die 1 result DR
Allied> eliminate al-6ab
German: advance ge-15pg 0320-0420
German: advance ge-116 0520-0420
'''
"""Turn 1: Wesel's garrison (defence 3, doubled in its fortress) attacked at 10:6 over and beside a bridge."""

TURN_2 = '''Turn 2
Phase reinforcement
Allied: reinforce al-7ar 0610
Phase rail
Phase movement
al-15 0815-0816-0817
Phase combat
Allied: attack 0717 with al-51 al-15 odds 2:1 die 3 result EX
German> eliminate ge-180
Allied: deplete al-51
Allied: deplete al-15
Allied: advance al-15 0817-0717
Phase reinforcement
Phase rail
Phase movement
Phase combat
'''
"""Turn 2: Duisburg taken at the cost of an exchange (the defender's 4 defence against 2 + 2 attack lost)."""

QUIET = "".join(f"Turn {t}\n" + "Phase reinforcement\nPhase rail\nPhase movement\nPhase combat\n" * 2
                for t in range(3, 9))
"""Turns 3 to 8 with nothing done: the Allied player ends holding Wesel and Duisburg, two of the six cities."""


def findings(data: Path, log: str, tmp_path: Path) -> list[tuple[int, str, str]]:
    """(line, severity, rule) of the errors and warnings of a log of the game."""
    return verdict(tmp_path, log, data)


def messages(data: Path, log: str, tmp_path: Path) -> list[str]:
    """The messages of the errors of a log of the game."""
    path = tmp_path / "messages.log"
    path.write_text(log, encoding="utf-8")
    result, _ = adjudicate_file(path, data)
    return [f.message for f in result.findings if f.severity == "error"]


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the game's data to change."""
    shutil.copytree(DATA, tmp_path / "data")
    return tmp_path / "data"


def edit(data: Path, name: str, old: str, new: str) -> None:
    """One change to a file of the copy's counters."""
    edit_file(data / "counters" / "rhine" / name, old, new)


def test_the_game_validates_builds_and_referees_clean(tmp_path: Path) -> None:
    """The designer's data load, the module builds, and two turns of legal play referee clean."""
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(DATA)])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(vmodbuild, ["build", "rhine", "--data", str(DATA), "--out", str(tmp_path / "dist")])
    assert out.exit_code == 0, out.output
    assert findings(DATA, TURN_1 + TURN_2, tmp_path) == []


def test_the_defender_counts_its_defence_value(tmp_path: Path) -> None:
    """7.0 with [combat] defence_value: Wesel's garrison (1-3-0) defends with 3, doubled in its fortress (7.2): 10:6
    is 1:1, not 5:1 as its attack value would make it."""
    log = TURN_1.split("Allied: advance")[0]
    assert findings(DATA, log.replace("odds 1:1 die 1 result DR", "odds 5:1 die 1"), tmp_path) == [(9, "error", "7.0")]
    assert "defence ge-wesel 3 x2 = 6" in messages(DATA, log.replace("odds 1:1 die 1 result DR", "odds 5:1 die 1"),
                                                   tmp_path)[0]


def test_an_exchange_counts_each_sides_own_value(tmp_path: Path) -> None:
    """8.0 EX: the defender lost its defence (4); one attacker's step (4-5-4 to 2-3-4: 2 attack) is not enough."""
    log = TURN_1 + TURN_2.replace("Allied: deplete al-15\n", "")
    assert findings(DATA, log, tmp_path) == [(37, "error", "8.0")]
    assert "lost 2 printed strength of the 4" in messages(DATA, log, tmp_path)[0]


def test_a_game_with_attack_and_defence_values_says_which_is_which(copy: Path) -> None:
    """validate: with more than one value besides the allowance, rules.toml names the attack and defence values."""
    edit(copy, "rules.toml", 'attack_value = "attack"\ndefence_value = "defence"\n', "")
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(copy)])
    assert out.exit_code == 1 and "[combat] attack_value and defence_value" in out.output, out.output
    edit(copy, "rules.toml", "adjacent = true\n", 'adjacent = true\nattack_value = "attack"\ndefence_value = "defense"\n')
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(copy)])
    assert out.exit_code == 1 and "did you mean 'defence'" in out.output, out.output


def test_a_bridge_cancels_the_rivers_doubling(copy: Path, tmp_path: Path) -> None:
    """7.0 with `unless`: al-51 (4) across the river against ge-84 (4) is 4:8, 1:2; across Duisburg's bridge
    against ge-180 (4) it is 4:4, 1:1. Without `unless` the bridge's river doubles the defence too."""
    head = TURN_1.split("Phase movement")[0] + "Phase movement\nPhase combat\n"
    river = head + "Allied: attack 0617 with al-51 odds 1:2 die 1 result AR\nAllied: retreat al-51 0716-0715\n"
    assert findings(DATA, river, tmp_path) == []
    bridge = head + "Allied: attack 0717 with al-51 odds 1:1 die 1 result DR\nGerman> retreat ge-180 0717-0718\n"
    assert findings(DATA, bridge, tmp_path) == []
    edit(copy, "rules.toml", 'unless = ["bridge"]\n', "")
    assert findings(copy, bridge, tmp_path)[0] == (8, "error", "7.0")


def test_a_draw_by_places_counts_the_side_it_names(tmp_path: Path) -> None:
    """12.0: the Allied player holds two of the six cities: a draw (its condition counts the Allied places), so a
    claim of victory by either side is wrong; where the draw's condition named no side, it never held."""
    log = TURN_1 + TURN_2 + QUIET
    end = len(log.splitlines()) + 1
    for side in ("Allied", "German"):
        claim = log + f"{side}: declare victory\n"
        assert findings(DATA, claim, tmp_path) == [(end, "error", "12.0")]
        assert "the result is a draw (Allied controls 2 of Wesel" in messages(DATA, claim, tmp_path)[0]
    assert "Wesel 0317 Allied" in messages(DATA, log + "German: declare victory\n", tmp_path)[0]


def test_a_draw_naming_places_says_whose(copy: Path) -> None:
    """validate: a draw's condition naming places must say whose control counts."""
    edit(copy, "rules.toml", 'winner = "draw"\nside = "Allied"\n', 'winner = "draw"\n')
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(copy)])
    assert out.exit_code == 1 and "says whose they are" in out.output, out.output


def test_a_declaration_not_of_victory_is_one_error(tmp_path: Path) -> None:
    """A `declare truce` is refused as a declaration the game does not have, and not judged again as a claim of
    victory; the message names the claims the game has (a draw among them)."""
    log = TURN_1 + TURN_2 + QUIET + "Allied: declare truce\n"
    assert findings(DATA, log, tmp_path) == [(len(log.splitlines()), "error", "log")]
    assert messages(DATA, log, tmp_path)[0].endswith("write 'declare victory' or 'declare draw'")


def test_a_draw_is_claimed_where_the_rules_give_one(tmp_path: Path) -> None:
    """12.0: with two of the six cities Allied the game is drawn, so either side's `declare draw` in the last phase
    is right; before the last phase it is refused as early, and where the Allied player holds three it is a claim of
    the wrong result."""
    log = TURN_1 + TURN_2 + QUIET
    for side in ("Allied", "German"):
        assert findings(DATA, log + f"{side}: declare draw\n", tmp_path) == []
    early = TURN_1 + TURN_2 + "Allied: declare draw\n"
    assert findings(DATA, early, tmp_path) == [(len(early.splitlines()), "error", "12.0")]
    essen = log.replace("Turn 8\nPhase reinforcement\nPhase rail\nPhase movement\n",
                        "Turn 8\nPhase reinforcement\nPhase rail\nPhase movement\nal-15 0717-0718-0819-0820\n", 1)
    assert essen != log
    claim = essen + "German: declare draw\n"
    assert findings(DATA, claim, tmp_path) == [(len(claim.splitlines()), "error", "12.0")]
    assert "German claims a draw, but at the game's end the result is Allied victory" in \
        messages(DATA, claim, tmp_path)[0]


def test_a_reinforcement_written_at_its_area(tmp_path: Path) -> None:
    """10.0: al-7ar enters on a hex of allied_entry; written at the area itself, the message lists its hexes."""
    log = TURN_1 + TURN_2.replace("al-7ar 0610", "al-7ar allied_entry")
    assert findings(DATA, log, tmp_path) == [(28, "error", "10.0")]
    said = messages(DATA, log, tmp_path)[0]
    assert "a hex of allied_entry (0510, 0610, 0710, 0810)" in said and "not allied_entry" not in said
    wrong = TURN_1 + TURN_2.replace("al-7ar 0610", "al-7ar 0910")
    assert "enters on a hex of allied_entry (0510, 0610, 0710, 0810); not 0910" in messages(DATA, wrong, tmp_path)[0]


def test_a_section_cited_by_a_terrain_effect_is_checked() -> None:
    """`adjudicate rules`: 7.2 (fortresses) is cited only by a combat terrain effect; it is judged with the attacks,
    not listed as data only."""
    from adjudicator.systems.classic.coverage import rows_for
    from wargame.game import load_game
    rows = {row.section: row for row in rows_for(load_game(DATA, "rhine"), None)}
    assert rows["7.2"].status.startswith("checked"), rows["7.2"].status
    assert any("check_attack" in h for h in rows["7.2"].where)


def test_an_enemy_unit_among_the_attackers(tmp_path: Path) -> None:
    """7.0: `Allied: attack` naming a German unit among its attackers is that unit's error; the hex attacked still
    holds the Allied player's enemy (not "no enemy unit in 0418")."""
    log = TURN_1.split("Allied: attack 0418")[0] + "Allied: attack 0418 with ge-84 al-6ab die 1\n"
    said = messages(DATA, log, tmp_path)
    assert said[0] == "ge-84 is a German unit; it cannot attack with the Allied units", said


def test_a_phase_out_of_order_cites_the_sequence_of_play(tmp_path: Path) -> None:
    """3.0: a phase marker out of order cites the sequence of play's section, not the section of the phase it names
    (the Reinforcement Phase's 10.0)."""
    log = TURN_1 + "Phase reinforcement\n"
    assert findings(DATA, log, tmp_path) == [(len(log.splitlines()), "error", "3.0")]


def test_a_set_up_over_the_stacking_limit_is_the_datas_error(copy: Path) -> None:
    """validate: three Allied units set up in 0216 (two a hex, 6.0) is an error at the row that makes three; an entry
    area misspelt is suggested among the areas."""
    edit(copy, "setup.csv", "plunder,al-gds,0315", "plunder,al-gds,0216")
    edit(copy, "setup.csv", "plunder,al-43,0316", "plunder,al-43,0216")
    edit(copy, "setup.csv", "plunder,al-51,0716", "plunder,al-51,0216")
    edit(copy, "reinforcements.csv", "plunder,3,al-30,0910", "plunder,3,al-30,allied_entri")
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(copy)])
    assert out.exit_code == 1, out.output
    assert "setup.csv:6 [location]: scenario 'plunder' sets up 3 units of the Allied side in 0216" in out.output
    assert "(did you mean 'allied_entry'" in out.output


def test_a_reinforcement_due_on_the_last_turn_is_owed_at_the_games_end(copy: Path, tmp_path: Path) -> None:
    """10.0 with `late = "prohibited"`: al-2ar due on turn 8, the last, and never placed is one error when the log ends
    in the game's last phase (the game's end is that turn's end); a log stopping earlier in turn 8 owes nothing yet,
    and with late placement allowed a reinforcement held off the map to the end is the player's choice."""
    edit(copy, "rules.toml", 'late = "allowed"', 'late = "prohibited"')
    edit(copy, "reinforcements.csv", "plunder,3,al-30,", "plunder,2,al-30,")
    edit(copy, "reinforcements.csv", "plunder,4,ge-pzl,", "plunder,2,ge-pzl,")
    edit(copy, "reinforcements.csv", "plunder,5,al-2ar,", "plunder,8,al-2ar,")
    placed = TURN_2.replace("Allied: reinforce al-7ar 0610\n", "Allied: reinforce al-7ar 0610\n"
                            "Allied: reinforce al-30 0910\n", 1)
    placed = placed.replace("Phase reinforcement\nPhase rail\nPhase movement\nPhase combat\n",
                            "Phase reinforcement\nGerman: reinforce ge-pzl 0624\nPhase rail\nPhase movement\n"
                            "Phase combat\n", 1)
    log = TURN_1 + placed + QUIET
    end = len(log.splitlines())
    assert findings(copy, log, tmp_path) == [(end, "error", "10.0")]
    assert messages(copy, log, tmp_path) == ["al-2ar was due on turn 8 and was not placed by the game's end"]
    assert findings(copy, log + "Allied: declare draw\n", tmp_path) == [(end + 1, "error", "10.0")]
    mid_turn = log.rsplit("Phase movement\nPhase combat\n", 1)[0]
    assert findings(copy, mid_turn, tmp_path) == []
    assert findings(DATA, TURN_1 + TURN_2 + QUIET, tmp_path) == []


def test_an_attack_below_the_table_is_not_compulsory(copy: Path, tmp_path: Path) -> None:
    """7.0 with `must_attack` and `below = "prohibited"`: al-6ab (attack 3) alone next to ge-7fj (defence 5, doubled
    in the hills of 0721) could attack only at 3:10, below the table's 1:3, which the rules forbid: neither its attack
    nor ge-7fj's being attacked is owed. With al-17ab next to 0721 too, 6:10 is 1:2: both owe the attack."""
    edit(copy, "rules.toml", "must_attack = false", "must_attack = true")
    edit(copy, "rules.toml", 'below = "lowest"', 'below = "prohibited"')
    (copy / "counters" / "rhine" / "setup.csv").write_text(
        "# schema_version = 1\nscenario,piece,location,source,note\nplunder,turn,turn@1,2.0,\n"
        "plunder,al-6ab,0720,2.0,\nplunder,al-17ab,0315,2.0,\nplunder,ge-7fj,0721,2.0,\n", encoding="utf-8")
    log = '[Game "rhine"]\n[Scenario "plunder"]\nTurn 1\nPhase reinforcement\nPhase rail\nPhase movement\n' \
        "Phase combat\nPhase reinforcement\n"
    assert findings(copy, log, tmp_path) == []
    assert findings(copy, log.replace("Phase combat\n", "Phase combat\nAllied: attack 0721 with al-6ab die 1\n"),
                    tmp_path) == [(8, "error", "7.0")]
    edit(copy, "setup.csv", "plunder,al-17ab,0315", "plunder,al-17ab,0621")
    assert findings(copy, log, tmp_path) == [(8, "error", "7.0")]
    said = messages(copy, log, tmp_path)[0]
    assert "al-17ab, al-6ab did not attack" in said and "the enemy units in 0721 were not attacked" in said, said
    # Judged on the position the phase began with, as one arrangement (session 23): al-17ab, eliminated attacking
    # ge-84 in 0520, stood next to 0721, but one unit attacks once: 0520 or (with al-6ab) 0721, not both, so having
    # met 0520 the player owed nothing more (hex by hex, 0721 and al-6ab were an error).
    edit(copy, "setup.csv", "plunder,ge-7fj,0721,2.0,\n", "plunder,ge-7fj,0721,2.0,\nplunder,ge-84,0520,2.0,\n")
    elsewhere = log.replace("Phase combat\n", "Phase combat\nAllied: attack 0520 with al-17ab odds 1:2 die 3 result AE\n"
                            "Allied: eliminate al-17ab\n")
    assert findings(copy, elsewhere, tmp_path) == []
    # That position: al-17ab back in 0621 on the face it attacked with, ge-84 in 0520.
    path = tmp_path / "began.log"
    path.write_text(elsewhere.rsplit("Phase reinforcement\n", 1)[0], encoding="utf-8")
    result, _ = adjudicate_file(path, copy)
    state = result.final_state
    began = compulsory._as_began(state, state.log)
    assert state.location["al-17ab"] != "0621" and began.location["al-17ab"] == "0621"
    assert began.units_in("0621") == ("al-17ab",) and began.units_in("0520") == ("ge-84",)


def test_a_result_left_undone_by_a_stack_is_one_error(copy: Path, tmp_path: Path) -> None:
    """8.1 (rulings register, as Onslaught 7.2 and F&M 8.2.4): the DR on ge-84 and ge-180, stacked in 0714 and boxed
    in by Allied zones, eliminates both; left undone as the phase ends it is one error, the other unit's part a note
    (it was one error a unit)."""
    (copy / "counters" / "rhine" / "setup.csv").write_text(
        "# schema_version = 1\nscenario,piece,location,source,note\nplunder,turn,turn@1,2.0,\nplunder,ge-84,0714,2.0,\n"
        "plunder,ge-180,0714,2.0,\nplunder,al-gds,0614,2.0,\nplunder,al-17ab,0615,2.0,\nplunder,al-43,0713,2.0,\n"
        "plunder,al-51,0815,2.0,\nplunder,al-15,0814,2.0,\n", encoding="utf-8")
    log = '[Game "rhine"]\n[Scenario "plunder"]\nTurn 1\nPhase reinforcement\nPhase rail\nPhase movement\n' \
        "Phase combat\nAllied: attack 0714 with al-gds al-17ab al-43 al-51 al-15 odds 2:1 die 1 result DR\n" \
        "Phase reinforcement\n"
    assert findings(copy, log, tmp_path) == [(9, "error", "8.1")]
    assert messages(copy, log, tmp_path) == ["ge-180 has no legal retreat of 1 hex(es) after the DR on 0714 (line 8): "
                                             "it is eliminated (write 'eliminate ge-180')"]


def test_reinforcements_left_off_as_a_turn_ends_are_one_error(copy: Path, tmp_path: Path) -> None:
    """10.0 with `late = "prohibited"` (rulings register, as Omaha 11.1.2): al-7ar and al-30, both due on turn 2 and
    left off, are one error as the turn ends, the other unit a note (it was one error a unit)."""
    edit(copy, "rules.toml", 'late = "allowed"', 'late = "prohibited"')
    edit(copy, "reinforcements.csv", "plunder,3,al-30,", "plunder,2,al-30,")
    log = TURN_1 + TURN_2.replace("Allied: reinforce al-7ar 0610\n", "") + "Turn 3\n"
    end = len(log.splitlines())
    assert findings(copy, log, tmp_path) == [(end, "error", "10.0")]
    said = [(f.severity, f.message) for f in run_findings(copy, log, tmp_path) if "due on turn 2" in f.message]
    assert said == [("error", "al-30 was due on turn 2 and was not placed"),
                    ("note", "al-7ar was due on turn 2 and was not placed (more reinforcements left off as the same "
                             "turn ended: one error)")]


def run_findings(data: Path, log: str, tmp_path: Path) -> list[Finding]:
    """Every finding of a log of the game."""
    path = tmp_path / "all.log"
    path.write_text(log, encoding="utf-8")
    result, _ = adjudicate_file(path, data)
    return result.findings
