"""The classic series on games shaped unlike Battle for Moscow: attacks on several hexes at once, units of more
than two steps, allowances that vary by turn (each a temporary data folder, as in test_classic_generality.py)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import adjudicate_file
from adjudicator.systems.classic.base import steps_left, strength, strength_lost, values_of
from adjudicator.systems.classic import Classic
from adjudicator.systems.classic.state import ClassicState
from builder.cli import main as vmodbuild
from wargame.game import load_game
from test_classic_generality import HEAD, findings, other_game, run_messages
from data_edits import edit

__all__ = ["other_game"]  # the fixture, used by the fixtures below


@pytest.fixture
def several(other_game: Path) -> Path:
    """The other game (a differential table) with attacks on several hexes allowed."""
    edit(other_game / "counters" / "steppe" / "rules.toml", "multi_hex = false",
         'multi_hex = true\nmulti_hex_terrain = "best_for_defender"')
    return other_game


COMBAT = HEAD + "Phase german_combat\n"


def test_one_attack_on_two_hexes_applies_its_result_in_both(several: Path, tmp_path: Path) -> None:
    """ge-vi (5, at 0203) and ge-lvi (9, at 0202) attack so-19 (4, 0303) and so-16 (4, 0304) as one: 14 - 8 = +6,
    read on +4; a 1 gives DE there, and both defenders are eliminated."""
    attack = COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi diff +4 die 1 result DE\n"
    both = attack + "Soviet> eliminate so-19\nSoviet> eliminate so-16\nPhase german_movement\n"
    assert findings(several, both, tmp_path) == []
    one = attack + "Soviet> eliminate so-19\nPhase german_movement\n"
    assert findings(several, one, tmp_path) == [(8, "error", "8.0")]
    assert "so-16 still owes" in run_messages(several, one, tmp_path)[0]


def test_each_hex_of_an_attack_on_several_is_next_to_an_attacker(several: Path, tmp_path: Path) -> None:
    """ge-vi at 0203 is next to 0303 but not to so-30's 0302: that hex is not part of its attack."""
    log = COMBAT + "German: attack 0303+0302 with ge-vi die 1\n"
    assert findings(several, log, tmp_path) == [(6, "error", "7.0")]
    assert "no attacker is adjacent to 0302" in run_messages(several, log, tmp_path)[0]
    twice = COMBAT + "German: attack 0303+0303 with ge-vi die 1\n"
    assert "names 0303 twice" in run_messages(several, twice, tmp_path)[0]
    empty = COMBAT + "German: attack 0303+0403 with ge-vi die 1\n"
    assert "no enemy unit in 0403" in run_messages(several, empty, tmp_path)[0]


def test_an_attack_on_several_hexes_reads_the_terrain_best_for_the_defender(several: Path, tmp_path: Path) -> None:
    """ge-xli (12, at 0201) attacks so-30 (4, clear 0302) and so-29 (4, forest 0301) as one: 12 - 8 = +4, and the
    forest's shift (0301's terrain, the defender's best) puts it on +2; claiming +4 is wrong."""
    log = COMBAT + "German: attack 0302+0301 with ge-xli diff +4 die 4\n"
    assert findings(several, log, tmp_path) == [(6, "error", "7.0")]
    message = run_messages(several, log, tmp_path)[0]
    assert "terrain of 0301, the most favourable to the defender of 0302, 0301" in message
    assert "shifted -1 -> +2" in message
    assert findings(several, COMBAT + "German: attack 0302+0301 with ge-xli diff +2 die 4 result NE\n", tmp_path) == []


def test_each_defender_retreats_and_an_attacker_advances_into_either_hex(several: Path, tmp_path: Path) -> None:
    """A DR (a 3 on +4) makes both defenders retreat a hex; then one attacker may advance into a hex left empty."""
    attack = COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi die 3 result DR\n"
    log = attack + "Soviet> retreat so-19 0303-0402\nSoviet> retreat so-16 0304-0403\nGerman: advance ge-vi 0203-0304\n"
    assert findings(several, log, tmp_path) == []
    assert findings(several, attack + "Soviet> retreat so-19 0303-0403\nPhase german_movement\n", tmp_path) == \
        [(8, "error", "8.1")]


def test_a_game_without_attacks_on_several_hexes_refuses_them(other_game: Path, tmp_path: Path) -> None:
    """With `multi_hex = false` (Battle for Moscow's 1986 rules too) an attack naming two hexes is one error."""
    log = COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi die 1 result DE\n" \
        "Soviet> eliminate so-19\nSoviet> eliminate so-16\n"
    assert findings(other_game, log, tmp_path) == [(6, "error", "7.0")]
    assert "one hex" in run_messages(other_game, log, tmp_path)[0]


TURNS = '''
[[turn]]
number = 1
sides = ["German"]
allowance_by_type = { infantry = 2 }
source = "3.0"
note = "Surprise: the German infantry is still crossing the start line."

[[turn]]
number = 2
allowance_factor = 0.5
source = "3.0"
'''


@pytest.fixture
def by_turn(other_game: Path) -> Path:
    """The other game with a turn record: on turn 1 German infantry moves 2 (its counters say 4); on turn 2 every
    unit has half its allowance."""
    rules = other_game / "counters" / "steppe" / "rules.toml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("\n[movement]\n", TURNS + "\n[movement]\n", 1), encoding="utf-8")
    return other_game


MOVE = HEAD + "Phase german_combat\nPhase german_movement\n"


def test_the_turn_record_gives_a_side_its_allowance_on_a_turn(by_turn: Path, tmp_path: Path) -> None:
    """Turn 1: ge-xxvii (infantry, 4 on its counter) moves two hexes, not three; the error cites the turn record."""
    assert findings(by_turn, MOVE + "ge-xxvii 0103-0104-0105\n", tmp_path) == []
    far = MOVE + "ge-xxvii 0103-0104-0105-0106\n"
    assert findings(by_turn, far, tmp_path) == [(7, "error", "3.0")]
    assert "(turn 1: infantry 2)" in run_messages(by_turn, far, tmp_path)[0]
    # A panzer corps is not infantry: its counter's 6 holds.
    assert findings(by_turn, MOVE + "ge-xlvii 0310-0210-0110-0109\n", tmp_path) == []


def test_the_turn_record_halves_every_allowance_on_another_turn(by_turn: Path, tmp_path: Path) -> None:
    """Turn 2: every allowance halved (ge-xxvii's 4 is 2); on turn 3 the counters' allowances hold again."""
    turn_2 = MOVE.replace("Turn 1\n", "Turn 1\nTurn 2\n", 1)
    assert findings(by_turn, turn_2 + "ge-xxvii 0103-0104-0105\n", tmp_path) == []
    assert findings(by_turn, turn_2 + "ge-xxvii 0103-0104-0105-0106\n", tmp_path) == [(8, "error", "3.0")]
    turn_3 = MOVE.replace("Turn 1\n", "Turn 1\nTurn 2\nTurn 3\n", 1)
    # Turn 3 is mud in Battle for Moscow, but the other game has no conditions: the counter's 4.
    assert findings(by_turn, turn_3 + "ge-xxvii 0103-0102-0101-0102\n", tmp_path) == []


@pytest.mark.parametrize(("old", "new", "pattern"), [
    ("number = 2", "number = 9", r"rules\.toml:\d+ \[turn\[1\]\.number\]: turn 9 is past the last turn \(7\)"),
    ('sides = ["German"]', 'sides = ["Germans"]', r"rules\.toml:\d+.*unknown side 'Germans' \(did you mean 'German'\?\)"),
    ("infantry = 2", "infantery = 2", r"rules\.toml:\d+.*unknown unit type 'infantery' \(did you mean 'infantry'\?\)"),
    ("allowance_factor = 0.5", "allowance_factr = 0.5",
     r"rules\.toml:\d+ \[turn\[1\]\.allowance_factr\]: unknown key 'allowance_factr' \(did you mean 'allowance_factor'"),
    ("number = 2", "number = 1", r"rules\.toml:\d+ \[turn\[1\]\.number\]: turn 1 is given twice for the German units"),
])
def test_a_slip_in_the_turn_record_is_a_validate_error(by_turn: Path, old: str, new: str, pattern: str) -> None:
    """Each slip of `[[turn]]` is a `vmodbuild validate` error at its file and line, with a suggestion."""
    rules = by_turn / "counters" / "steppe" / "rules.toml"
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new, 1), encoding="utf-8")
    out = CliRunner().invoke(vmodbuild, ["validate", "steppe", "--data", str(by_turn)])
    assert out.exit_code != 0 and "Traceback" not in out.output, out.output
    assert re.search(pattern, out.output), out.output
    line = int(re.search(r"rules\.toml:(\d+)", re.search(pattern, out.output).group()).group(1))  # type: ignore[union-attr]
    assert text.replace(old, new, 1).splitlines()[line - 1].strip().startswith(("number", "sides", "[[turn]]",
                                                                                 "allowance"))


@pytest.fixture
def tiers(other_game: Path) -> Path:
    """The other game with units of three and four steps (units.csv's further_reduced), eight steps a hex and a D2
    result (the defender loses two steps) on the table's last row: ge-xli has four steps (12, 9, 6, 3), so-30
    four (8, 4, 3, 2; set up on its reduced face), so-5 three (8, 4, 2; set up eliminated)."""
    counters = other_game / "counters" / "steppe"
    faces = {"ge-xli": ("4", "12-6", "9-6", "6-6;3-6"), "so-30": ("4", "8-4", "4-4", "3-4;2-4"),
             "so-5": ("3", "8-4", "4-4", "2-4")}
    rows = []
    for line in (counters / "units.csv").read_text(encoding="utf-8").splitlines():
        if line.startswith("id,"):
            line += ",further_reduced"
        elif line and not line.startswith("#"):
            cells = next(csv.reader([line]))
            if cells[0] in faces:
                cells[7], cells[8], cells[9], more = faces[cells[0]]
            else:
                more = ""
            out = io.StringIO()
            csv.writer(out, lineterminator="").writerow([*cells, more])
            line = out.getvalue()
        rows.append(line)
    (counters / "units.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    crt = (counters / "crt.toml").read_text(encoding="utf-8")
    crt = crt.replace('["AL", "AL", "NE", "NE"],', '["AL", "AL", "D2", "D2"],')
    crt = crt.replace('DE = "Defender eliminated."', 'DE = "Defender eliminated."\nD2 = "Defender loses two steps."')
    (counters / "crt.toml").write_text(crt, encoding="utf-8")
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    rules = rules.replace('limit = 2\ncount = "steps"', 'limit = 8\ncount = "steps"')
    rules = rules.replace('[[combat.results]]\ncode = "NE"', '[[combat.results]]\ncode = "D2"\ndefender_steps = 2\n'
                          'source = "8.0"\n\n[[combat.results]]\ncode = "NE"')
    (counters / "rules.toml").write_text(rules, encoding="utf-8")
    return other_game


def final(data: Path, log: str, tmp_path: Path) -> ClassicState:
    """The state at the end of a log of the other game."""
    path = tmp_path / "final.log"
    path.write_text(log, encoding="utf-8")
    result, _ = adjudicate_file(path, data)
    state = result.final_state
    assert isinstance(state, ClassicState)
    return state


def test_units_of_more_steps_validate_and_build(tiers: Path, tmp_path: Path) -> None:
    """Their data load, validate and build (the module's counters carry every face: test_classic_vassal.py)."""
    out = CliRunner().invoke(vmodbuild, ["build", "steppe", "--data", str(tiers), "--out", str(tmp_path / "d")])
    assert out.exit_code == 0, out.output
    assert load_game(tiers, "steppe").units_by_id["ge-xli"].further_reduced == ((6, 6), (3, 6))


def test_a_result_takes_several_steps_one_face_at_a_time(tiers: Path, tmp_path: Path) -> None:
    """ge-xli (12) and ge-lvi (9) against so-30 on its reduced face (4): +17, read on +4; a 6 gives D2 there. so-30
    has three steps left: it loses two, one face at a time, and shows its last face (2-4); a third is not owed."""
    attack = COMBAT + "German: attack 0302 with ge-xli ge-lvi die 6 result D2\n"
    two = attack + "Soviet> deplete so-30\nSoviet> deplete so-30\nPhase german_movement\n"
    assert findings(tiers, two, tmp_path) == []
    state = final(tiers, two, tmp_path)
    assert values_of(state, "so-30") == (2, 4) and steps_left(state, "so-30") == 1
    one = attack + "Soviet> deplete so-30\nPhase german_movement\n"
    assert findings(tiers, one, tmp_path) == [(8, "error", "8.0")]
    assert "so-30 still owes 1 step loss(es)" in run_messages(tiers, one, tmp_path)[0]
    three = attack + "Soviet> eliminate so-30\n"
    assert findings(tiers, three, tmp_path) == [(7, "error", "8.0")]
    # On its last face it is worth 2; `adjudicate state` shows the steps lost past the reduced face.
    assert strength(state, "so-30", "defence") == 2
    shown = Classic(state.game).describe(state)
    assert shown["further_reduced"] == {"so-30": 2} and "so-30" in shown["depleted"]  # type: ignore[operator]


def test_an_eliminated_unit_of_three_steps_is_rebuilt_one_step_at_a_time(tiers: Path, tmp_path: Path) -> None:
    """so-5 comes back with one step (its 2-4 face); each later point restores one step, never two at once."""
    phases = "Phase german_combat\nPhase german_movement\nPhase soviet_replacement\n"
    turn = "Turn {n}\nPhase german_replacement\nPhase panzer_movement\n" + phases
    rebuilt = '[Game "steppe"]\n' + turn.format(n=1) + "Soviet: replace so-5 reduced 1401\n"
    assert findings(tiers, rebuilt, tmp_path) == []
    state = final(tiers, rebuilt, tmp_path)
    assert values_of(state, "so-5") == (2, 4) and steps_left(state, "so-5") == 1
    second = rebuilt + turn.format(n=2) + "Soviet: replace so-5\n"
    state = final(tiers, second, tmp_path)
    assert findings(tiers, second, tmp_path) == [] and values_of(state, "so-5") == (4, 4)
    third = second + turn.format(n=3) + "Soviet: replace so-5 full\n"
    assert findings(tiers, third, tmp_path) == [] and "so-5" not in final(tiers, third, tmp_path).reduced
    skip = rebuilt + turn.format(n=2) + "Soviet: replace so-5 full\n"
    assert findings(tiers, skip, tmp_path) == [(len(skip.splitlines()), "error", "11.0")]
    assert "a point restores one step: so-5 has 2 of its 3 steps" in run_messages(tiers, skip, tmp_path)[0]


def test_an_exchange_counts_the_printed_strength_of_the_faces_lost(tiers: Path, tmp_path: Path) -> None:
    """What a defender of four steps loses is its face less the face it turns to: so-30 from 4-4 to 3-4 is 1."""
    state = final(tiers, COMBAT, tmp_path)
    assert steps_left(state, "so-30") == 3 and steps_left(state, "ge-xli") == 4
    assert strength_lost(state, "so-30", 1, "defence") == 1 and strength_lost(state, "so-30", 2, "defence") == 2
    assert strength_lost(state, "so-30", 3, "defence") == 4 and strength_lost(state, "ge-xli", 2, "attack") == 6


@pytest.mark.parametrize(("faces", "pattern"), [
    (("4", "12-6", "9-6", "6-6"), r"units\.csv:\d+ \[further_reduced\]: a 4-step unit has 2 further reduced "
                                  r"face\(s\), not 1"),
    (("3", "12-6", "9-6", "6-6-6"), r"units\.csv:\d+ \[further_reduced\]: further_reduced values '6-6-6': expected 2 "
                                    r"whole numbers"),
    (("5", "12-6", "9-6", "6-6;3-6;1-6"), r"units\.csv:\d+:\d+ \[steps\]: Input should be less than or equal to 4"),
])
def test_a_slip_in_the_further_faces_is_a_validate_error(tiers: Path, faces: tuple[str, ...], pattern: str) -> None:
    """A unit's further faces, one a step past two, each with the counter's number of values."""
    units = tiers / "counters" / "steppe" / "units.csv"
    text = units.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("ge-xli,"))
    cells = next(csv.reader([old]))
    cells[7], cells[8], cells[9], cells[-1] = faces
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    units.write_text(text.replace(old, out.getvalue()), encoding="utf-8")
    result = CliRunner().invoke(vmodbuild, ["validate", "steppe", "--data", str(tiers)])
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    assert re.search(pattern, result.output), result.output


def test_the_combat_audit_of_an_attack_on_two_hexes(several: Path, tmp_path: Path) -> None:
    """`adjudicate combat` works an attack on two hexes out like the referee: both defenders, every die face."""
    from adjudicator.cli import main as adjudicate

    log = tmp_path / "two.log"
    log.write_text(COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi diff +4 die 1 result DE\n"
                   "Soviet> eliminate so-19\nSoviet> eliminate so-16\n", encoding="utf-8")
    out = CliRunner().invoke(adjudicate, ["combat", str(log), "--at", "6", "--data", str(several), "--format", "json"])
    assert out.exit_code == 0, out.output
    assert '"0303+0304"' in out.output and "so-16" in out.output and "so-19" in out.output


def test_stacking_by_steps_at_the_end_of_a_phase_counts_every_step(tiers: Path, tmp_path: Path) -> None:
    """6.0 by steps at the end of the phase, five a hex: ge-lvi (2) joining ge-xli (4 steps) makes six, over the
    limit, though two units of two steps each would not be (zones of control that stop, so ge-lvi may leave one)."""
    counters = tiers / "counters" / "steppe"
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    rules = rules.replace('limit = 8\ncount = "steps"\nchecked = "end_of_move"',
                          'limit = 5\ncount = "steps"\nchecked = "end_of_phase"').replace('kind = "lock"', 'kind = "stop"')
    (counters / "rules.toml").write_text(rules, encoding="utf-8")
    log = HEAD + "ge-lvi 0202-0201\nPhase german_combat\n"
    assert findings(tiers, log, tmp_path) == [(6, "error", "6.0")]
