"""One breach, one error (issue 15) for Fire & Movement and Omaha: a lasting condition is reported once
where it arises, a move from the wrong hex is one error, and after a wrongly claimed combat result the
log may follow the claim or the table. Every breach log gives exactly one error, at its marked line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.cli import adjudicate_file
from fm_log import SETUP, landed, lines_of, log_findings, replay_errors
from wargame.bundled import data_root
from wargame.game import Game, load_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "omaha"
BREACHES = sorted(EXAMPLES.glob("breach-*.log"))
LEGAL = sorted(EXAMPLES.glob("legal-*.log"))
EXPECT = re.compile(r"#\s*expect:\s*error\s+(\S+)")
GT1 = "Turn 1\nPhase support_fire_marker\n"
REST_OF_GT1 = "Phase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\n"
TO_GT2 = (f"{GT1}Phase movement\n{REST_OF_GT1}Phase movement\n{REST_OF_GT1}Phase game_turn_end\nTurn 2\n"
          "Phase support_fire_marker\nPhase movement\n")
"""GT 1 without an entry, to GT 2's Allied Movement Phase."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


@pytest.mark.parametrize("path", BREACHES, ids=[p.name for p in BREACHES])
def test_a_breach_log_gives_exactly_one_error(path: Path) -> None:
    """Exactly one error (counted, not a set), at the line marked `# expect: error X`, citing X."""
    marked = [(n, m.group(1)) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              for m in [EXPECT.search(line)] if m]
    assert len(marked) == 1, path.name
    result, _ = adjudicate_file(path, None)
    errors = [(f.line, f.rule) for f in result.findings if f.severity == "error"]
    assert errors == marked, path.name


@pytest.mark.parametrize("path", LEGAL, ids=[p.name for p in LEGAL])
def test_a_legal_log_gives_no_error(path: Path) -> None:
    """The legal examples stay clean."""
    result, _ = adjudicate_file(path, None)
    assert [f for f in result.findings if f.severity == "error"] == [], path.name


def test_an_overstack_is_one_error_until_resolved(game: Game) -> None:
    """5.3: two units left in one hex are reported once (on the move that ended stacked), not at every phase end;
    a unit joining the hex is a new breach; once resolved, a new overstack is reported again."""
    over = TO_GT2 + "16/1 2319-2218\n18/1 2319-2218\n"
    later = REST_OF_GT1 + "Phase movement\n" + REST_OF_GT1 + "Phase game_turn_end\n"
    errors = [e for e in replay_errors(game, landed(SETUP) + over + later)[0] if e[0] == "5.3"]
    assert errors == [("5.3", "18/1 2319-2218")]  # the move that ended stacked; no phase end reports it again
    joined = over + ("Allied: reinforce CCA/2 2219\nPhase bombardment\nPhase combat\nPhase mobile_movement\n"
                     "CCA/2 2219-2218\nPhase mobile_combat\n")
    assert [e for e in replay_errors(game, landed(SETUP) + joined)[0] if e[0] == "5.3"] == [
        ("5.3", "18/1 2319-2218"), ("5.3", "CCA/2 2219-2218")]


def test_a_german_set_up_on_a_beach_hex_is_one_error(game: Game) -> None:
    """11.0: a German unit set up on an Omaha beach hex is one error, however long the log runs."""
    setup = SETUP.replace("German: setup 914/352 2117", "German: setup 914/352 2122")
    text = landed(setup) + GT1 + "Phase movement\n" + REST_OF_GT1 + "Phase movement\nPhase bombardment\n" \
        "Phase combat\nPhase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\nTurn 2\n" \
        "Phase support_fire_marker\nPhase movement\n"
    errors = [e for e in replay_errors(game, text)[0] if not e[1].startswith("Phase")]
    assert errors == [("11.0", "German: setup 914/352 2122")]


def test_a_move_from_the_wrong_hex_is_one_error(game: Game) -> None:
    """5.1: a move written from a hex the unit is not in is one error and is not carried out, so the
    corrected line after it is no error."""
    text = TO_GT2 + "16/1 2318-2218\n16/1 2319-2218\n"
    errors, state = replay_errors(game, landed(SETUP) + text)
    assert [e for e in errors if e[0] != "11.1.2"] == [("5.1", "16/1 2318-2218")]  # Sch/30 is not brought on
    assert state.location["16/1"] == "2218"


def test_after_a_wrong_claim_either_result_may_be_followed(game: Game) -> None:
    """8.2.1 d: a claimed result the table contradicts is one error; the entries after it may carry out
    the claim or the table's result, and neither is a second error."""
    placed = {"914/352": "2117", "16/1": "2217", "18/1": "2216"}
    combat = f"{GT1}Phase movement\nPhase bombardment\nPhase combat\n"
    # +6 on the clear line with a 3 reads D2; the log claims Ex.
    attack = "Allied: attack 2117 with 16/1 18/1 diff +6 die 3 result Ex support us_sf_6 de_sf_4\n"
    end = "Phase mobile_movement\n"
    table = replay_errors(game, combat + attack + "German> retreat 914/352 2117-2016-1916\n" + end, placed)[0]
    claim = replay_errors(game, combat + attack + "German> deplete 914/352\nAllied: deplete 16/1\n" + end, placed)[0]
    line = attack.strip()
    assert claim == [("8.2.1d", line)] and table == [("8.2.1d", line)]
    neither = replay_errors(game, combat + attack + end, placed)[0]
    assert neither[0] == ("8.2.1d", line) and len(neither) >= 2


def test_a_move_into_an_enemy_hex_is_one_error(game: Game) -> None:
    """5.2 d: a unit written into an enemy-held hex is one error on its move; the two sides' units in
    that hex as the phase ends are not a second one (5.3 limits a side's own units)."""
    placed = {"914/352": "2117", "CCA/2": "2218"}
    move = "CCA/2 2218-2118-2117"
    errors = replay_errors(game, f"{GT1}Phase movement\n{move}\nPhase bombardment\n", placed)[0]
    assert errors == [("5.2d", move)]
    # Two of a side's own units in a hex are still over the limit there.
    both = {**placed, "16/1": "2216"}
    errors = replay_errors(game, f"{GT1}Phase movement\n{move}\n16/1 2216-2117\nPhase bombardment\n", both)[0]
    assert ("5.3", "Phase bombardment") in errors


def test_three_markers_of_a_side_are_one_error(game: Game) -> None:
    """8.2.1 b: three markers of one side on a combat are one error (the count), not a second one for
    the order they cannot be placed in; markers out of order alone are still an error."""
    placed = {"914/352": "2117", "16/1": "2217"}
    combat = f"{GT1}Phase movement\nPhase bombardment\nPhase combat\n"
    three = "Allied: attack 2117 with 16/1 die 6 result Ex support us_sf_2 us_sf_3 us_sf_5"
    errors = replay_errors(game, f"{combat}{three}\nAllied: deplete 16/1\nGerman> deplete 914/352\n", placed)[0]
    assert errors == [("8.2.1b", three)]
    order = "Allied: attack 2117 with 16/1 die 6 result Ex support de_sf_2 de_sf_3 us_sf_3"
    errors = replay_errors(game, f"{combat}{order}\nAllied: deplete 16/1\nGerman> deplete 914/352\n", placed)[0]
    assert errors == [("8.2.1b", order)]


def test_reinforcements_left_off_are_one_error_once(game: Game) -> None:
    """11.1.2, 11.2.4 (issue 26): the reinforcements a Movement Phase ends without are one error for the phase
    (each other unit a note), and a unit left off is not reported again at every later Movement Phase."""
    later = REST_OF_GT1 + "Phase movement\n" + REST_OF_GT1 + "Phase game_turn_end\nTurn 3\nPhase support_fire_marker\n" \
        "Phase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\nPhase movement\n" \
        "Phase bombardment\n"
    errors = [e for e in replay_errors(game, landed(SETUP) + TO_GT2 + later)[0] if e[0] in ("11.1.2", "11.2.4")]
    # Sch/30 on GT 1 only; the six Allied units due on GT 2 once; GT 3's own Allied, then German, arrivals.
    assert errors == [("11.1.2", "Phase bombardment"), ("11.2.4", "Phase bombardment"), ("11.2.4", "Phase bombardment"),
                      ("11.1.2", "Phase bombardment")]


def test_a_late_reinforcement_placed_later_is_one_error(game: Game) -> None:
    """11.1.2, 11.2.4 with 4.1: a reinforcement reported late as its Movement Phase ended, placed later in its side's
    player turn, is that one error (the placement a note), still refused where its entry bars it; placed in the
    enemy's player turn, a breach of its own."""
    to_mobile = landed(SETUP) + f"{GT1}Phase movement\n{REST_OF_GT1}Phase movement\nPhase bombardment\nPhase combat\n" \
        "Phase mobile_movement\n"
    late = to_mobile + "German: reinforce Sch/30 1005\nPhase mobile_combat\n"
    assert replay_errors(game, late)[0] == [("11.1.2", "Phase bombardment")]
    wrong = late.replace("Sch/30 1005", "Sch/30 1006")
    assert replay_errors(game, wrong)[0] == [("11.1.2", "Phase bombardment"), ("11.1.2", "German: reinforce Sch/30 1006")]
    enemy = to_mobile + "Phase mobile_combat\nPhase game_turn_end\nTurn 2\nPhase support_fire_marker\nPhase movement\n" \
        "German: reinforce Sch/30 1005\n"
    assert replay_errors(game, enemy)[0] == [("11.1.2", "Phase bombardment"), ("4.1", "German: reinforce Sch/30 1005")]
    landings = "".join(f"Allied: reinforce {u}\n" for u in ("9/2 2319", "23/2 2318", "38/2 2318", "CCA/2 2219",
                                                             "CCB/2 2120", "CCR/2 2120"))
    gt2 = landed(SETUP) + TO_GT2 + "Phase bombardment\nPhase combat\nPhase mobile_movement\n"
    assert [e for e in replay_errors(game, gt2 + landings)[0] if e[0] != "11.1.2"] == [("11.2.4", "Phase bombardment")]


def test_a_reinforcement_onto_a_friend_off_the_beach_is_one_error(game: Game) -> None:
    """11.1.2, 11.2.4 with 5.3: a reinforcement placed onto a friend off a beach landing hex is refused there, one
    error; the phase's end does not report the stack again (5.3)."""
    german = landed(SETUP.replace("352/352 1510", "352/352 1005")) + f"{GT1}Phase movement\n{REST_OF_GT1}" \
        "Phase movement\nGerman: reinforce Sch/30 1005\nPhase bombardment\n"
    assert replay_errors(game, german)[0] == [("11.1.2", "German: reinforce Sch/30 1005")]
    allied = landed(SETUP) + TO_GT2 + "16/1 2319-2218\nAllied: reinforce 9/2 2218\nPhase bombardment\n"
    assert [e for e in replay_errors(game, allied)[0] if e[0] in ("5.3", "11.2.4")] == \
        [("11.2.4", "Allied: reinforce 9/2 2218"), ("11.2.4", "Phase bombardment")]


@pytest.mark.parametrize("dropped", ["Allied: setup 18/1 2319", "German: setup 915/352 2021"])
def test_a_unit_left_out_of_the_set_up_is_one_error(dropped: str, tmp_path: Path) -> None:
    """11.0, 11.2.1, 11.2.3, 11.2.4: an assault regiment (or a German at-start unit) whose set-up line is left out is
    11.0's one error as GT 1 begins; its beach's assault naming it, the German count of units next to the beach, and
    its arrival owed on GT 2 (11.2.1's reinforcement) are notes (they were three errors)."""
    lines = (EXAMPLES / "legal-combat.log").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "dropped.log"
    log.write_text("\n".join(line for line in lines if not line.startswith(dropped)) + "\n", encoding="utf-8")
    result, _ = adjudicate_file(log, None)
    assert [f.rule for f in result.findings if f.severity == "error"] == ["11.0"]


def test_a_beach_assault_of_units_never_landed_is_no_error_of_its_own(tmp_path: Path) -> None:
    """11.2.3, 8.2: the assault on 2120 naming only 175/29, whose set-up line is left out, is a note: 11.0's error as
    GT 1 begins is the breach (it was also 8.2's 'attacks wait for a Combat Phase')."""
    lines = (EXAMPLES / "legal-combat.log").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "dropped.log"
    log.write_text("\n".join(line for line in lines if not line.startswith("Allied: setup 175/29")) + "\n",
                   encoding="utf-8")
    result, _ = adjudicate_file(log, None)
    assert "8.2" not in [f.rule for f in result.findings if f.severity == "error"]
    assert [f.rule for f in result.findings if f.severity == "error"][0] == "11.0"


def test_a_unit_never_landed_moved_and_attacking_is_one_error(tmp_path: Path) -> None:
    """11.0 (house style 16): 16/1's set-up line left out, the log moves it, attacks and advances with it as if it had
    landed: 11.0's error as GT 1 begins is the one breach; its move (5.2), attack (8.2) and advance (8.5) are notes."""
    lines = (EXAMPLES / "legal-combat.log").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "dropped.log"
    log.write_text("\n".join(line for line in lines if not line.startswith("Allied: setup 16/1")) + "\n",
                   encoding="utf-8")
    result, _ = adjudicate_file(log, None)
    assert [f.rule for f in result.findings if f.severity == "error"] == ["11.0"]
    assert {f.rule for f in result.findings if f.severity == "note" and "was never set up" in f.message} == \
        {"5.2", "8.2", "8.5"}


@pytest.mark.parametrize("entry", ["German: reinforce 3/3 0113", "Allied: reinforce CCA/2 2318",
                                   "German: reinforce 5/3 0116"])
def test_a_reinforcement_left_out_is_one_error(tmp_path: Path, entry: str) -> None:
    """11.1.2, 11.2.4: a reinforcement's placement left out of the sample game is one error, as its side's Movement
    Phase ends; the unit's moves and attacks after it are notes (the players acted as if it were placed; each was an
    error: up to 6)."""
    path = EXAMPLES / "legal-sample-game.log"
    lines = lines_of(path)
    at = next(i for i, text in enumerate(lines) if text.split("#")[0].strip() == entry)
    errors = [f for f in log_findings(tmp_path, lines[:at] + lines[at + 1:]) if f.severity == "error"]
    assert [f.rule for f in errors] == ["11.1.2" if entry.startswith("German") else "11.2.4"], errors
