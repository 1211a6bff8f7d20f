"""Fire & Movement on the Omaha map: the sequence (4.1), movement (5.1-5.5), stacking (5.3) and
zones of control in movement (6.0, 6.1), entry by entry on small positions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.engine import advance
from adjudicator.notation.text import parse_text
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.omaha import OmahaState
from fm_log import SETUP, landed, replay_errors
from wargame.bundled import data_root
from wargame.errors import ReplayError
from wargame.game import Game, load_game
from wargame.hexes import Hexside
from play_support import at_phase
from play_support import play as play_log

PHASES = FM.phases(load_game(data_root(), "omaha"))
"""4.1: the phases of a game turn, from the game's [[sequence]]."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def play(game: Game, placed: dict[str, str], text: str,
         depleted: tuple[str, ...] = ()) -> tuple[list[tuple[str, str]], OmahaState]:
    """Replay GT 1 from its first phase with `placed` on the map: (rule, entry) of each error."""
    return replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{text}", placed, depleted)

def cost(game: Game, a: str, b: str) -> float | None:
    """The MP to step from `a` into `b`."""
    return FM.step_cost(game, game.grid.hex_of(a), game.grid.hex_of(b))


def test_terrain_costs(game: Game) -> None:
    """5.4: the hex's costliest terrain; roads 1/2 and trails 1 whatever else; sea prohibited."""
    assert cost(game, "2319", "2318") == 1.0                   # clear
    assert cost(game, "2319", "2218") == 2.0                   # mixed
    assert cost(game, "2219", "2218") == 0.5                   # road hexside between road hexes (5.4.1)
    trail = next(s for s, fs in game.hexside_features.items() if "trail" in fs and "road" not in fs)
    assert FM.step_cost(game, trail.a, trail.b) == 1.0        # 5.4.2
    river = next(s for s, fs in game.hexside_features.items() if fs == frozenset({"river"})
                 and game.hex_terrain.get(s.b) == ("broken",))
    assert FM.step_cost(game, river.a, river.b) == 2.0 + 2.0  # broken, and the river's cost added
    assert cost(game, "2319", "2419") is None                  # all-sea hex (5.2 e)


def test_phases_in_order(game: Game) -> None:
    """4.1: the five phases of each player turn, then the Game Turn End Phase."""
    turn = ("Phase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\n") * 2
    assert play(game, {}, turn + "Phase game_turn_end\nTurn 2\n")[0] == []
    assert play(game, {}, "Phase movement\nPhase combat\n")[0] == [("4.1", "Phase combat")]
    assert play(game, {}, turn + "Turn 2\n")[0] == [("4.1", "Turn 2")]
    # An unknown phase is not a breach but an entry that cannot be applied (the engine, wargame/sequence.py).
    with pytest.raises(ReplayError, match="did you mean 'movement'"):
        play(game, {}, "Phase movemnt\n")


def test_who_moves_when(game: Game) -> None:
    """5.2: the active player moves in his Movement Phase; 5.5: mobile units only, and not again."""
    placed = {"16/1": "2319", "CCA/2": "2121", "914/352": "1510"}
    assert play(game, placed, "Phase movement\n914/352 1510-1511\n")[0] == [("5.2", "914/352 1510-1511")]
    mobile = "Phase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\n"
    assert play(game, placed, mobile + "CCA/2 2121-2120\n")[0] == []
    assert play(game, placed, mobile + "16/1 2319-2318\n")[0] == [("5.5", "16/1 2319-2318")]
    twice = "Phase movement\nCCA/2 2121-2120\nPhase bombardment\nPhase combat\nPhase mobile_movement\n" \
            "CCA/2 2120-2121\n"
    assert play(game, placed, twice)[0] == [("5.5", "CCA/2 2120-2121")]
    again = "Phase movement\n16/1 2319-2318\n16/1 2318-2317\n"
    assert play(game, placed, again)[0] == [("5.2", "16/1 2318-2317")]


def test_movement_restrictions(game: Game) -> None:
    """5.1, 5.2: contiguous hexes, never into an enemy unit or the sea, never over the allowance."""
    placed = {"16/1": "2319", "914/352": "1510"}
    assert play(game, placed, "Phase movement\n16/1 2319-2217\n")[0] == [("5.1", "16/1 2319-2217")]
    assert play(game, placed, "Phase movement\n16/1 2319-2419\n")[0] == [("5.2e", "16/1 2319-2419")]
    assert play(game, {**placed, "915/352": "2318"}, "Phase movement\n16/1 2319-2318\n")[0] == \
        [("5.2d", "16/1 2319-2318")]
    assert play(game, placed, "Phase movement\n16/1 2319-2318-2317-2217-2216-2215\n")[0] == \
        [("5.2c", "16/1 2319-2318-2317-2217-2216-2215")]
    assert play(game, placed, "Phase movement\n16/1 2319-2318-2317-2217-2216\n")[0] == []


def test_stacking(game: Game) -> None:
    """5.3: one unit a hex at the end of a phase; moving through is free; 11.2.4: three on the beach."""
    placed = {"16/1": "2319", "18/1": "2319", "26/1": "2319", "914/352": "1510"}
    assert play(game, placed, "Phase movement\nPhase bombardment\n")[0] == []
    through = "Phase movement\n16/1 2319-2218-2217\n18/1 2319-2218\nPhase bombardment\n"
    assert play(game, placed, through)[0] == []
    # A unit never ends its movement stacked: the move's error, which the phase's end does not repeat; nor does
    # the other unit's leaving before the phase ends undo it.
    ending = "Phase movement\n16/1 2319-2218\n18/1 2319-2218\nPhase bombardment\n"
    assert play(game, placed, ending)[0] == [("5.3", "18/1 2319-2218")]
    assert play(game, {"16/1": "2217", "18/1": "2218", "914/352": "1510"},
                "Phase movement\n18/1 2218-2217\n16/1 2217-2216\nPhase bombardment\n")[0] == [("5.3", "18/1 2218-2217")]
    # The beach landing hexes take three (11.2.4): the Rangers, who never left one (11.2.1), may end their move on
    # 2318 beside 26/1.
    assert play(game, {**placed, "26/1": "2318", "2Rgr": "2417"}, "Phase movement\n2Rgr 2417-2318\n"
                "Phase bombardment\n")[0] == []


def test_stacking_of_a_log_ending_inside_a_phase(game: Game) -> None:
    """5.3 (ruling): a log that ends inside a phase never reaches its end, where stacking is judged: an overstack is
    a note on the line of the last entry that made it, never an error; one already reported, or undone, says
    nothing. 914/352's D2 retreat can end only on 916/352 (2018), which has yet to make way (8.3.1)."""
    placed = {"914/352": "2218", "915/352": "2017", "916/352": "2018", "352/352": "2117", "16/1": "2219",
              "18/1": "2318"}
    ending = ("Phase movement\nPhase bombardment\nPhase combat\nAllied: attack 2218 with 16/1 18/1 result D2\n"
              "German> retreat 914/352 2218-2118-2018\n")
    errors, state = play(game, placed, ending)
    assert [e for e in errors if e[0] != "8.2.1d"] == []
    found = [(f.severity, f.rule, f.line) for f in FM.finish(state)]
    assert found == [("note", "5.3", 8)]  # the retreat's line: after the header, the turn, four markers, the attack
    assert "the log ends inside GT 1, combat phase (Allied player turn)" in FM.finish(state)[0].message
    assert "hex 2018 holds 2 units (914/352, 916/352) and 1 may stay there" in FM.finish(state)[0].message
    assert FM.finish(play(game, placed, ending + "German> retreat 916/352 2018-1918\n")[1]) == []
    # Reported as the phase ended: not again at the log's end.
    errors, state = play(game, placed, ending + "Phase mobile_movement\n")
    assert [e for e in errors if e[0] != "8.2.1d"] == [("5.3", "Phase mobile_movement")] and FM.finish(state) == []
    # A move ending stacked is its own error as it is written, never a note.
    errors, state = play(game, {"16/1": "2218", "18/1": "2217", "914/352": "1510"}, "Phase movement\n16/1 2218-2217\n")
    assert errors == [("5.3", "16/1 2218-2217")] and FM.finish(state) == []


def test_an_overstack_standing_as_the_phase_began_is_not_noted_at_the_logs_end(tmp_path: Path) -> None:
    """A landing hex crowded before GT 1 is the set-up's breach (11.2.1, on each line over three); a log ending in
    GT 1's first phase does not note the same stack again under 5.3, and never at line 0 (no unit entered it then)."""
    from click.testing import CliRunner

    from adjudicator.cli import main
    units = ["16/1", "18/1", "26/1", "115/29", "116/29"]
    log = tmp_path / "crowded.log"
    log.write_text('[Game "omaha"]\n[Scenario "beach_to_bocage"]\n'
                   + "".join(f"Allied: setup {u} 2121\n" for u in units)
                   + "Turn 1\nStep support_fire_marker\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["check", str(log)]).stdout
    assert out.count("error [omaha 11.2.1]") == 2
    assert "5.3" not in out and ":0:" not in out


def test_zones_of_control(game: Game) -> None:
    """6.0, 6.1: leg units stop on entering an EZOC; from one EZOC straight into another only as
    the whole move; mobile units pay half their allowance to enter; no-ZOC units exert none;
    rangers ignore EZOC."""
    german = {"914/352": "2117"}
    assert play(game, {**german, "16/1": "2319"}, "Phase movement\n16/1 2319-2218-2217\n")[0] == []
    assert play(game, {**german, "16/1": "2319"}, "Phase movement\n16/1 2319-2218-2217-2216\n")[0] == \
        [("6.1", "16/1 2319-2218-2217-2216")]
    # 2217 and 2216 are both next to 2117: one step from one into the other is a whole move.
    assert play(game, {**german, "16/1": "2217"}, "Phase movement\n16/1 2217-2216\n")[0] == []
    assert play(game, {**german, "16/1": "2217"}, "Phase movement\n16/1 2217-2216-2215\n")[0] == \
        [("6.1", "16/1 2217-2216-2215")]
    # A mobile unit (allowance 10) pays 5 more to enter: 2 + 2 + (2 + 5) = 11 > 10.
    assert play(game, {**german, "CCA/2": "2319"}, "Phase movement\nCCA/2 2319-2218-2118-2017\n")[0] == \
        [("6.1", "CCA/2 2319-2218-2118-2017")]
    assert play(game, {**german, "CCA/2": "2319"}, "Phase movement\nCCA/2 2319-2218-2217\n")[0] == []
    # The SP anti-tank battalion exerts no ZOC (6.0: the black hexagon).
    assert play(game, {"352/352": "2117", "16/1": "2319"}, "Phase movement\n16/1 2319-2218-2217-2216\n")[0] == []
    # Rangers ignore EZOC (11.2.3).
    assert play(game, {**german, "2Rgr": "2319"}, "Phase movement\n2Rgr 2319-2218-2217-2216\n")[0] == []
    assert all(Hexside.between(game.grid.hex_of("2117"), game.grid.hex_of(h)) for h in ("2217", "2216"))


def test_coverage_page_lists_the_checked_sections() -> None:
    """docs/rules-coverage.md's Fire & Movement totals name exactly the sections the system checks."""
    import re

    from adjudicator.systems.fire_and_movement import sections as series
    from adjudicator.systems.omaha import sections as folio

    CHECKED, SECTIONS = series.CHECKED + folio.CHECKED, {**series.SECTIONS, **folio.SECTIONS}

    text = (Path(__file__).resolve().parent.parent / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    m = re.search(r"Totals: (\d+) sections checked \(([^)]*)\); the others unchecked", text)
    assert m is not None
    assert tuple(s.strip() for s in m.group(2).split(",")) == CHECKED and int(m.group(1)) == len(CHECKED)
    assert set(CHECKED) <= set(SECTIONS)


def test_state_and_combat_commands_on_an_omaha_log(tmp_path: Path) -> None:
    """`adjudicate state` shows phases and player turns; `adjudicate combat` gives the system's
    own account of an attack (8.2.1-8.2.2)."""
    from pathlib import Path

    from click.testing import CliRunner

    from adjudicator.cli import main

    log = Path(__file__).resolve().parent.parent / "examples" / "omaha" / "legal-first-turns.log"
    done = CliRunner().invoke(main, ["state", str(log), "--at", "42"])
    assert done.exit_code == 0 and done.output.startswith("Turn 2, phase movement (Allied player turn)")
    attack = tmp_path / "attack.log"
    attack.write_text('[Game "omaha"]\nGerman: setup 914/352 2117\nAllied: setup 16/1 2217\nTurn 1\n'
                      'Phase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n'
                      'Allied: attack 2117 with 16/1 die 3\n', encoding="utf-8")
    done = CliRunner().invoke(main, ["combat", str(attack), "--at", "9"])
    # The attack breaks 11.2.1 (a unit that landed on GT 1 does nothing else): its claims do not hold, exit 1.
    assert done.exit_code == 1 and "differential +0" in done.output and "die 3: result -" in done.output



def setup_errors(game: Game, text: str) -> list[tuple[str, str]]:
    """(rule, entry) of each error of a log that starts with `text` and then GT 1."""
    return replay_errors(game, f"{landed(text)}Turn 1\n")[0]

def test_the_set_up(game: Game) -> None:
    """11.0, 11.2.1, 11.2.3: Germans off the beach and Pointe du Hoc, two of them next to the beach;
    the assault regiments on the beach hexes, three a hex; the Rangers at Pointe du Hoc; all placed
    before GT 1."""
    assert setup_errors(game, SETUP) == []
    assert setup_errors(game, SETUP.replace("914/352 2117", "914/352 2120")) == \
        [("11.0", "German: setup 914/352 2120")]
    assert setup_errors(game, SETUP.replace("352/352 1510", "352/352 2417")) == \
        [("11.0", "German: setup 352/352 2417")]
    assert setup_errors(game, SETUP.replace("16/1 2319", "16/1 2217")) == [("11.2.1", "Allied: setup 16/1 2217")]
    assert setup_errors(game, SETUP.replace("2Rgr 2417", "2Rgr 2319")) == [("11.2.3", "Allied: setup 2Rgr 2319")]
    crowded = SETUP.replace("26/1 2318", "26/1 2319").replace("115/29 2219", "115/29 2319")
    assert setup_errors(game, crowded) == [("11.2.1", "Allied: setup 115/29 2319")]
    assert setup_errors(game, SETUP.replace("Allied: setup 175/29 2120\n", "")) == [("11.0", "Turn 1")]
    inland = SETUP.replace("915/352 2021", "915/352 1810").replace("916/352 2022", "916/352 1811")
    assert setup_errors(game, inland) == [("11.0", "Turn 1")]
    # Audit 18, D6: the message says what is wrong and which unit met the condition.
    played = play_log(FM, FM.initial_state(game, []), f'[Game "omaha"]\n{landed(inland)}Turn 1\n', finish=False)
    assert [f.message for f in played.findings if f.rule == "11.0"] == \
        ["GT 1 begins with fewer than two German at-start units set up next to an Omaha Beach hex (none "
         "does); at least two must be (11.0)"]
    assert setup_errors(game, SETUP + "Allied: setup CCA/2 2319\n")[0] == ("11.0", "Allied: setup CCA/2 2319")
    late = advance(FM, FM.initial_state(game, []), parse_text('[Game "omaha"]\nTurn 1\n')[-1])
    assert [f.rule for f in FM.check(late, parse_text('[Game "omaha"]\nAllied: setup 16/1 2319\n')[-1])] == ["11.0"]


GT1_TO_GERMAN = ("Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n"
                 "Phase mobile_movement\nPhase mobile_combat\nPhase movement\n")
GT1_REST = "Phase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\n"
GT2_LANDINGS = ("Allied: reinforce 9/2 2319\nAllied: reinforce 23/2 2318\nAllied: reinforce 38/2 2318\n"
                "Allied: reinforce CCA/2 2219\nAllied: reinforce CCB/2 2120\nAllied: reinforce CCR/2 2120\n")


def log_errors(game: Game, text: str) -> list[tuple[str, str]]:
    """(rule, entry) of each error of an Omaha log made of `text`."""
    return replay_errors(game, text)[0]

def test_german_reinforcements(game: Game) -> None:
    """11.1.2: in the German Movement Phase, at the scheduled hex or edge, then moving with what is
    left after paying for the first hex; a reinforcement that could arrive and does not is an error."""
    arrive = landed(SETUP) + GT1_TO_GERMAN + "German: reinforce Sch/30 1005\n"
    assert log_errors(game, arrive + GT1_REST) == []
    assert log_errors(game, landed(SETUP) + GT1_TO_GERMAN + GT1_REST) == [("11.1.2", "Phase bombardment")]
    assert log_errors(game, arrive.replace("Sch/30 1005", "Sch/30 1006") + GT1_REST)[0] == \
        ("11.1.2", "German: reinforce Sch/30 1006")
    early = landed(SETUP) + "Turn 1\nPhase support_fire_marker\nPhase movement\nGerman: reinforce Sch/30 1005\n"
    assert log_errors(game, early)[0] == ("4.1", "German: reinforce Sch/30 1005")
    # Sch/30 (allowance 8) paid 2 for broken 1005: three broken hexes more (6) fit, but broken,
    # broken and marsh (7) do not, though 7 alone would.
    assert log_errors(game, arrive + "Sch/30 1005-1106-1107-1108\n") == []
    far = arrive + "Sch/30 1005-1106-1206-1306\n"
    assert log_errors(game, far) == [("5.2c", "Sch/30 1005-1106-1206-1306")]


def test_allied_reinforcements(game: Game) -> None:
    """11.2.4: after GT 1, on beach landing hexes with room, not in an unheld EZOC; they move no
    further in that Movement Phase, but mobile ones move in the Mobile Movement Phase."""
    gt2 = landed(SETUP) + GT1_TO_GERMAN + "German: reinforce Sch/30 1005\n" + GT1_REST + \
        "Turn 2\nPhase support_fire_marker\nPhase movement\n"
    assert log_errors(game, gt2 + GT2_LANDINGS + "Phase bombardment\n") == []
    assert log_errors(game, gt2 + GT2_LANDINGS.replace("9/2 2319", "9/2 2218")) == \
        [("11.2.4", "Allied: reinforce 9/2 2218")]
    # Four units on 2219 as the phase ends, where reinforcements are placed: 5.3's three a beach landing hex.
    assert ("5.3", "Phase bombardment") in \
        log_errors(game, gt2 + "Allied: reinforce 9/2 2219\nAllied: reinforce 23/2 2219\nPhase bombardment\n")
    # ... and none if one of the two landed there leaves before the phase ends (the order in the phase is no matter).
    assert ("5.3", "Phase bombardment") not in \
        log_errors(game, gt2 + "Allied: reinforce 9/2 2219\nAllied: reinforce 23/2 2219\n115/29 2219-2218\n"
                              "Phase bombardment\n")
    # No assault unit landed on 2121: it has no beachhead marker (11.2.1).
    assert log_errors(game, gt2 + "Allied: reinforce 9/2 2121\n") == [("11.2.1", "Allied: reinforce 9/2 2121")]
    assert ("11.2.4", "Phase bombardment") in log_errors(game, gt2 + "Phase bombardment\n")
    assert ("11.2.4", "9/2 2319-2218") in log_errors(game, gt2 + GT2_LANDINGS + "9/2 2319-2218\n")
    mobile = gt2 + GT2_LANDINGS + "Phase bombardment\nPhase combat\nPhase mobile_movement\nCCA/2 2219-2218\n"
    assert log_errors(game, mobile) == []
    assert log_errors(game, gt2 + "Allied: reinforce 117/30 2319\n")[0] == ("11.2.4", "Allied: reinforce 117/30 2319")
    assert log_errors(game, landed(SETUP) + "Turn 1\nPhase support_fire_marker\nPhase movement\n"
                            "Allied: reinforce 9/2 2319\n")[0] == ("11.2.4", "Allied: reinforce 9/2 2319")


def test_landings_are_judged_as_the_movement_phase_ends(game: Game) -> None:
    """11.2.4 (audit 18): reinforcements are placed as the Allied Movement Phase ends, so a beach landing hex in an
    enemy zone of control takes them only if an Allied unit that did not land this phase stands there then, however
    the phase's entries are ordered; the units landing there together hold it for none of them."""
    # 915/352 at 2019 puts 2120, where 175/29 landed, in a German zone of control.
    setup = SETUP.replace("German: setup 915/352 2021", "German: setup 915/352 2019")
    gt2 = landed(setup) + GT1_TO_GERMAN + "German: reinforce Sch/30 1005\n" + GT1_REST + \
        "Turn 2\nPhase support_fire_marker\nPhase movement\n"
    assert log_errors(game, gt2 + GT2_LANDINGS + "Phase bombardment\n") == []
    assert log_errors(game, gt2 + GT2_LANDINGS + "175/29 2120-2121\nPhase bombardment\n") == \
        [("11.2.4", "Phase bombardment")]
    assert log_errors(game, gt2 + "175/29 2120-2121\n" + GT2_LANDINGS + "Phase bombardment\n") == \
        [("11.2.4", "Phase bombardment")]
    # A landing that is an error on its own line (no beachhead marker) is not judged again as the phase ends.
    away = gt2 + GT2_LANDINGS.replace("CCR/2 2120", "CCR/2 2121") + "175/29 2120-2119\nPhase bombardment\n"
    assert log_errors(game, away) == [("11.2.1", "Allied: reinforce CCR/2 2121"), ("11.2.4", "Phase bombardment")]


def test_landings_of_a_log_ending_inside_the_movement_phase(game: Game) -> None:
    """11.2.4 (ruling): a log that ends inside the Allied Movement Phase never reaches its end, where landings are
    placed; they are judged where they stand, each landing that could not stay a note on its hex's last landing
    line (the phase is still open), never an error; the 5.3 room, 11.2.1 and EZOC conditions are the phase end's."""
    setup = SETUP.replace("German: setup 915/352 2021", "German: setup 915/352 2019")
    gt2 = landed(setup) + GT1_TO_GERMAN + "German: reinforce Sch/30 1005\n" + GT1_REST + \
        "Turn 2\nPhase support_fire_marker\nPhase movement\n"
    crowded = GT2_LANDINGS.replace("CCA/2 2219", "CCA/2 2318")
    for text, rule, hexes, last in ((GT2_LANDINGS + "175/29 2120-2121\n", "11.2.4", "CCB/2, CCR/2 landed on 2120",
                                     "Allied: reinforce CCR/2 2120"),
                                    (crowded, "5.3", "23/2, 38/2, CCA/2 landed on 2318", "Allied: reinforce CCA/2 2318")):
        errors, state = replay_errors(game, gt2 + text)
        assert errors == []
        line = f'[Game "omaha"]\n{gt2}{text}'.splitlines().index(last) + 1
        assert [(f.severity, f.rule, f.line) for f in FM.finish(state)] == [("note", rule, line)]
        assert "the log ends inside GT 2, movement phase (Allied player turn)" in FM.finish(state)[0].message
        assert hexes in FM.finish(state)[0].message
        # The phase ended, the same landing is the phase end's error.
        assert log_errors(game, gt2 + text + "Phase bombardment\n") == [(rule, "Phase bombardment")]
    assert FM.finish(replay_errors(game, gt2 + GT2_LANDINGS)[1]) == []


def test_a_refused_landing_names_its_reason(game: Game) -> None:
    """11.2.1, 11.2.3 (audit 18): a landing on a beach hex without a beachhead marker cites the clause that took
    the marker away and says why: every unit of the hex's beach assault eliminated (11.2.3, for good), a German
    unit entered it, or no assault unit landed there (11.2.1); it names the hexes with a marker left."""
    gt2 = landed(SETUP) + GT1_TO_GERMAN + "German: reinforce Sch/30 1005\n" + GT1_REST + \
        "Turn 2\nPhase support_fire_marker\nPhase movement\n"
    state = replay_errors(game, gt2)[1]
    entry = parse_text('[Game "omaha"]\nAllied: reinforce CCB/2 2120')[-1]
    assert state.beachheads is not None
    lost = replace(state, beachheads=state.beachheads - {"2120"},
                   location={**state.location, "175/29": "eliminated_allied"})
    for changed, rule, why in ((replace(lost, wiped_out=frozenset({"2120"})), "11.2.3", "removed for good"),
                               (lost, "11.2.1", "a German unit entered it"),
                               (state, "", "")):
        found = [(f.rule, f.message) for f in FM.check(changed, entry) if f.severity == "error"]
        if not rule:
            assert found == []
            continue
        assert [r for r, _ in found] == [rule] and why in found[0][1], found
        assert "markers remain on 2219, 2318, 2319" in found[0][1]
    never = FM.check(state, parse_text('[Game "omaha"]\nAllied: reinforce CCB/2 2121')[-1])
    assert [f.rule for f in never] == ["11.2.1"] and "no assault unit landed there" in never[0].message


# -- 12.0 supply, 13.0 victory, beachheads (11.2.1) --------------------------------------------
TO_ALLIED_END = "Phase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\n"


def surrounded(game: Game, label: str) -> dict[str, str]:
    """German units on every hex around `label`."""
    germans = ["914/352", "915/352", "916/352", "352/352", "1Flak", "Sch/30"]
    return dict(zip(germans, (game.grid.label_of(n) for n in game.grid.neighbours_on_map(game.grid.hex_of(label)))))


def test_beachheads_follow_the_landing(game: Game) -> None:
    """11.2.1: markers stay on the beach hexes the assault landed on; a German unit entering one
    removes it; Allied reinforcements land only where one is (11.2.4)."""
    state = FM.initial_state(game, [])
    for entry in parse_text(f'[Game "omaha"]\n{landed(SETUP)}Turn 1\n'):
        state = advance(FM, state, entry)
    assert state.beachheads == frozenset({"2319", "2318", "2219", "2120"})
    taken = replace(state, location={**state.location, "175/29": "eliminated_allied"})
    taken = advance(FM, at_phase(taken, phase=6), parse_text('[Game "omaha"]\n915/352 2021-2120\n')[-1])
    assert "2120" not in FM.landing_hexes(taken) and taken.controlled["2120"] == "German"


def test_allied_supply(game: Game) -> None:
    """12.0: an Allied unit that cannot trace supply as its player turn ends is reduced (eliminated
    if reduced); a supplied one is not; rangers and units on a beach landing hex are exempt."""
    cut = {"16/1": "1510", **surrounded(game, "1510")}
    turn = "Turn 1\nPhase support_fire_marker\n" + TO_ALLIED_END
    assert log_errors_at(game, cut, turn + "Allied: deplete 16/1\nPhase movement\n") == []
    assert log_errors_at(game, cut, turn + "Phase movement\n") == [("12.0", "Phase movement")]
    assert log_errors_at(game, cut, turn + "Allied: eliminate 16/1\nPhase movement\n")[0] == \
        ("12.0", "Allied: eliminate 16/1")
    free = {"16/1": "2218", "914/352": "1510"}
    assert log_errors_at(game, free, turn + "Allied: deplete 16/1\n")[0][0] == "8.2.4"
    # German units on every other hex around 1510: the hexes between them are free but in their ZOC,
    # and a supply path may not pass through an EZOC hex (enter and leave it).
    ring = [game.grid.label_of(n) for n in game.grid.neighbours_on_map(game.grid.hex_of("1510"))]
    gaps = {"16/1": "1510", "914/352": ring[0], "915/352": ring[2], "916/352": ring[4]}
    assert log_errors_at(game, gaps, turn + "Phase movement\n") == [("12.0", "Phase movement")]
    ranger = {"2Rgr": "1510", **surrounded(game, "1510")}
    assert log_errors_at(game, ranger, turn + "Phase movement\n") == []


def test_a_supply_loss_after_the_last_combat(game: Game) -> None:
    """12.0: the supply loss written right after the Allied player turn's last combat ends that
    combat and is the loss 12.0 calls for, not a loss of the combat."""
    cut = {"16/1": "1510", **surrounded(game, "1510"), "CCA/2": "2217", "5/3": "2117"}
    turn = "Turn 1\nPhase support_fire_marker\n" + TO_ALLIED_END + "Allied: attack 2117 with CCA/2 result -\n"
    assert log_errors_at(game, cut, turn + "Allied: deplete 16/1\nPhase movement\n") == []
    # A unit in supply still has no loss to take there.
    free = {**cut, "16/1": "2319"}
    assert log_errors_at(game, free, turn + "Allied: deplete 16/1\nPhase movement\n") == \
        [("8.2.4", "Allied: deplete 16/1")]


def log_errors_at(game: Game, placed: dict[str, str], text: str) -> list[tuple[str, str]]:
    """(rule, entry) of each error of `text` from the set-up with `placed` on the map (no set-up entries)."""
    return replay_errors(game, text, placed)[0]

def test_victory(game: Game) -> None:
    """13.0: no beach landing hex at a game turn's end is a German victory at once; after GT 17 the
    Allies win with Treviers, Isigny and Caumont captured in supply and two units next to St-Lô."""
    base = FM.initial_state(game, [])
    lost = at_phase(base, turn=1, phase=len(PHASES) - 1, beachheads=frozenset())
    after = advance(FM, lost, parse_text('[Game "omaha"]\nTurn 2\n')[-1])
    assert after.victory is not None and (after.victory.winner, after.victory.section) == ("German", "13.0")
    assert [f.rule for f in FM.check(after, parse_text('[Game "omaha"]\nPhase support_fire_marker\n')[-1])] == \
        ["13.0"]
    held = {"16/1": "1718", "18/1": "1811", "26/1": "1911", "115/29": "0421", "116/29": "0607", "175/29": "0508",
            "914/352": "1505"}
    won = at_phase(base, turn=17, phase=len(PHASES) - 1, location={**base.location, **held})
    assert FM.victory.verdict(won)[0] == "Allied"
    assert [(f.rule, "Allied" in f.message) for f in FM.finish(won)] == [("13.0", True)]
    short = replace(won, location={**won.location, "175/29": "eliminated_allied"})
    assert FM.victory.verdict(short)[0] == "German"


def test_allied_replacements(game: Game) -> None:
    """11.2.5: one leg replacement a GT from GT 2, one mobile on odd GTs from GT 3, each rebuilding
    a reduced unit of its kind on the map in supply (one error a replacement); 11.1.3: no German replacements."""
    placed = {"16/1": "2218", "18/1": "2217", "CCA/2": "2219", "914/352": "1510"}
    base = FM.initial_state(game, [])

    def run(turn: int, text: str, depleted: tuple[str, ...] = ("16/1", "18/1", "CCA/2")) -> list[tuple[str, str]]:
        state = at_phase(base, turn=turn, phase=0, location={**base.location, **placed}, depleted=frozenset(depleted))
        lines = f'[Game "omaha"]\n{text}'.splitlines()
        out: list[tuple[str, str]] = []
        for entry in parse_text(f'[Game "omaha"]\n{text}'):
            out += [(f.rule, lines[f.line - 1]) for f in FM.check(state, entry) if f.severity == "error"]
            state = advance(FM, state, entry)
        return out
    assert run(2, "Allied: replace 16/1 full\n") == []
    assert run(2, "Allied: replace 16/1 full\nAllied: replace 18/1 full\n") == [("11.2.5", "Allied: replace 18/1 full")]
    assert run(1, "Allied: replace 16/1 full\n") == [("11.2.5", "Allied: replace 16/1 full")]
    assert run(3, "Allied: replace CCA/2 full\n") == []
    assert run(4, "Allied: replace CCA/2 full\n") == [("11.2.5", "Allied: replace CCA/2 full")]
    assert run(2, "Allied: replace 16/1 full\n", depleted=()) == [("11.2.5", "Allied: replace 16/1 full")]
    # One replacement is one decision: a full unit rebuilt with no point of its kind left is one error, on what bars
    # it first (the unit is not reduced), the missing point a note.
    assert run(2, "Allied: replace CCA/2 full\n", depleted=()) == [("11.2.5", "Allied: replace CCA/2 full")]
    assert run(2, "German: replace 914/352 full\n", depleted=("914/352",)) == [("11.1.3", "German: replace 914/352 full")]
    placed.clear()
    placed.update({"16/1": "1510", **surrounded(game, "1510")})
    assert run(2, "Allied: replace 16/1 full\n") == [("11.2.5", "Allied: replace 16/1 full")]
