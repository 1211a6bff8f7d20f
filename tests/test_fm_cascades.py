"""Fire & Movement, one breach one error (house style 16): mistakes that gave several errors (session 21's audit).

The position is test_fm_results.py's: 914/352 at 2117, the Allied 16/1 at 2217 and 18/1 at 2216 beside it. Results
are claimed without dice where only their effects matter (the warning that draws is left out).
"""

from __future__ import annotations

import pytest

from adjudicator.systems.omaha import OMAHA as FM
from fm_log import COMBAT, END, OPEN, SETUP, landed, seen
from fm_log import run_open as run
from play_support import play
from wargame.bundled import data_root
from wargame.game import Game, load_game


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def test_a_retreat_made_instead_of_the_loss_is_one_error(game: Game) -> None:
    """8.2.4: a De carried out as a retreat is one error, on the retreat; the elimination it replaced is not owed
    again as the combat ends (the players carried on from the retreat, as from a loss taken instead of one, 8.3).
    An Ae carried out as two retreats: the second is the same misreading, a note."""
    de = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result De\nGerman> retreat 914/352 2117-2016-1916\n"
             + END)
    assert seen(de) == [("error", "8.2.4", "German> retreat 914/352 2117-2016-1916")]
    a = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result (A)\nAllied: retreat 16/1 2217-2218\n" + END)
    assert seen(a) == [("error", "8.2.4", "Allied: retreat 16/1 2217-2218")]
    ae = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result Ae\nAllied: retreat 16/1 2217-2218\n"
             "Allied: retreat 18/1 2216-2316\n" + END)
    assert seen(ae) == [("error", "8.2.4", "Allied: retreat 16/1 2217-2218"),
                        ("note", "8.2.4", "Allied: retreat 18/1 2216-2316")]
    # The other side's part of the result is its own: an Ex's attacker still owes its step.
    ex = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result Ex\nGerman> retreat 914/352 2117-2016-1916\n"
             + END)
    assert [(s, r) for s, r, _ in seen(ex)] == [("error", "8.2.4"), ("error", "8.2.4")]


def test_a_unit_that_may_not_attack_for_two_reasons_is_one_error(game: Game) -> None:
    """8.2, 8.5, 8.0: a unit that attacked and advanced, attacking again the unit it drove back, is one breach: the
    second attack (8.2) is the error, its advance (8.5) and the defender's second attack (8.0) notes."""
    text = COMBAT + ("Allied: attack 2117 with 16/1 18/1 result D2\nGerman> retreat 914/352 2117-2016-1916\n"
                     "Allied: advance 16/1 2217-2117-2016\nAllied: attack 1916 with 16/1 result -\n" + END)
    assert seen(run(game, text)) == [("error", "8.2", "Allied: attack 1916 with 16/1 result -"),
                                     ("note", "8.5", "Allied: attack 1916 with 16/1 result -"),
                                     ("note", "8.0", "Allied: attack 1916 with 16/1 result -")]
    # Another unit attacking the unit attacked already is the defender's breach (8.0), an error of its own.
    other = COMBAT + ("Allied: attack 2117 with 16/1 result -\nAllied: attack 2117 with 18/1 result -\n" + END)
    assert seen(run(game, other)) == [("error", "8.0", "Allied: attack 2117 with 18/1 result -")]


def test_a_second_bombardment_of_a_unit_is_one_error(game: Game) -> None:
    """8.0, 8.1: bombarding a unit bombarded already in the phase is the error; that its markers make more than two
    on the hex is the same bombardment, a note."""
    text = ("Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\n"
            "Allied: bombard 2117 support us_air_8 us_air_10\nAllied: bombard 2117 support us_air_6\nPhase combat\n")
    played = run(game, text)
    assert [(s, r) for s, r, _ in seen(played)] == [("error", "8.0"), ("note", "8.1")]


def test_a_third_marker_on_a_beach_stack_is_8_1s_error(game: Game) -> None:
    """8.1, Omaha 11.2.3: a beach landing stack's units may each be bombarded once a phase, but the hex takes two
    markers a player turn: a third, on another unit of the stack, is 8.1's error (no unit is bombarded twice)."""
    setup = landed(SETUP.replace("German: setup 914/352 2117", "German: setup 914/352 2218"))
    turn = ("Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\n"
            "Phase mobile_combat\nPhase movement\nGerman: reinforce Sch/30 1005\nPhase bombardment\n")
    first = "German: bombard 2319 defender 16/1 support de_sf_8 de_sf_9\n"
    played = play(FM, FM.initial_state(game, []), f'[Game "omaha"]\n{setup}{turn}{first}'
                  "German: bombard 2319 defender 18/1 support de_sf_5\nPhase combat\n")
    assert played.errors() == [("8.1", "German: bombard 2319 defender 18/1 support de_sf_5")]


def test_a_hex_beyond_both_markers_range_is_one_error(game: Game) -> None:
    """8.1.1, Omaha 11.1.4 / 11.2.6: a bombardment of a hex beyond its markers' range is one error however many of its
    markers the distance puts out of range (the others notes)."""
    played = run(game, "Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\n"
                       "Allied: bombard 2117 support us_sf_6 us_sf_8\nPhase combat\n", {"914/352": "2117", "16/1": "2319"})
    assert [(s, r) for s, r, _ in seen(played)] == [("error", "11.2.6"), ("note", "11.2.6")]
    assert "3 hexes from the nearest" in played.findings[0].message


def test_a_retreat_across_the_scenario_boundary_cites_10_1(game: Game) -> None:
    """Omaha 10.1, F&M 8.3: a retreat into a hex west of the scenario boundary breaks 10.1 (no unit moves there),
    one error; the series' 8.3 says no more than that (it was the error, 10.1 a note). A retreat that is not open
    says which step is wrong: an enemy unit's hex, prohibited terrain, a step not farther from the combat hex."""
    west = {"914/352": "1907", "16/1": "2007", "18/1": "1908"}
    attack = COMBAT + "Allied: attack 1907 with 16/1 18/1 result D2\n"
    played = run(game, attack + "German> retreat 914/352 1907-1806-1706\n" + END, west)
    assert seen(played) == [("error", "10.1", "German> retreat 914/352 1907-1806-1706")]
    held = {**OPEN, "26/1": "1916"}
    attack = COMBAT + "Allied: attack 2117 with 16/1 18/1 result D2\n"
    played = run(game, attack + "German> retreat 914/352 2117-2016-1916\n" + END, held)
    assert [f.message for f in played.findings if f.severity == "error"] == \
        ["914/352 retreats into 1916, which an enemy unit holds (8.3)"]
    played = run(game, attack + "German> retreat 914/352 2117-2016-2117\n" + END, held)
    assert [f.rule for f in played.findings if f.severity == "error"] == ["8.3"]
    assert "not one hex farther from 2117" in next(f.message for f in played.findings if f.severity == "error")
    sea = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result A2\nAllied: retreat 16/1 2217-2318-2418\n"
                             "Allied: stand 18/1\n" + END)
    assert [(f.rule, "prohibited terrain at 2418" in f.message) for f in sea.findings if f.severity == "error"] == \
        [("8.3", True)]


def test_a_beach_assaults_retreat_result_carried_out_as_a_retreat_cites_11_2_3(game: Game) -> None:
    """Omaha 11.2.3: a beach assault's retreat result reduces every assaulting unit; a retreat or stiff resistance
    written for it breaks 11.2.3 (not 8.2.4 or 8.4), one error, and the reduction it replaced is not owed again."""
    for carried, rule in (("Allied: retreat 26/1 2318-2317-2316\n", "11.2.3"), ("Allied: stand 26/1\n", "11.2.3"),
                          ("Allied: deplete 26/1\n", None)):
        text = landed(SETUP).replace("Allied: attack 2318 with 26/1\n", f"Allied: attack 2318 with 26/1 result D2\n{carried}")
        played = play(FM, FM.initial_state(game, []), f'[Game "omaha"]\n{text}Turn 1\n')
        assert played.errors() == ([(rule, carried.strip())] if rule else [])


def test_what_a_retreat_left_undone_owes_says_which_case(game: Game) -> None:
    """8.3: a D2 left undone by a unit that can retreat only part of the way owes that retreat and its reduction; by
    one that cannot retreat at all, its elimination (the message said both, whichever held)."""
    attack = COMBAT + "Allied: attack 2117 with 16/1 18/1 result D2\n"
    short = run(game, attack + END, {**OPEN, "26/1": "1915", "115/29": "1918"})
    boxed = run(game, attack + END, {**OPEN, "26/1": "2016", "115/29": "2017", "116/29": "2116", "175/29": "2118"})
    assert [f.message.split(": ", 1)[1] for f in short.findings if f.severity == "error"] == \
        ["914/352 cannot retreat 2 hexes, so it retreats as far as it can and is reduced there (or declares stiff "
         "resistance)"]
    assert [f.message.split(": ", 1)[1] for f in boxed.findings if f.severity == "error"] == \
        ["914/352 cannot retreat even one hex, so it is eliminated (or declares stiff resistance)"]


def test_a_combat_without_a_recorded_result_may_be_carried_out(game: Game) -> None:
    """8.2.1 d, 8.3-8.5: an attack written without a die or a result (its warning says it cannot be verified) may be
    carried out as the log writes it: a retreat of one to three hexes, judged only on where it goes; stiff
    resistance; an advance after a defender's retreat. They were errors saying "the result None"."""
    attack = COMBAT + "Allied: attack 2117 with 16/1 18/1\n"
    assert seen(run(game, attack + "German> retreat 914/352 2117-2016-1916\nAllied: advance 16/1 2217-2117-2016\n"
                    + END)) == []
    assert seen(run(game, attack + "German> stand 914/352\n" + END)) == []
    assert seen(run(game, attack + "German> retreat 914/352 2117-2116-2015\n" + END)) == \
        [("error", "6.2", "German> retreat 914/352 2117-2116-2015")]
    advanced = run(game, attack + "Allied: advance 16/1 2217-2117\n" + END)
    assert [(f.rule, "no defender of the attack on 2117" in f.message) for f in advanced.findings
            if f.severity == "error"] == [("8.5", True)]


FRIENDS = {**OPEN, "26/1": "2317", "115/29": "2218", "116/29": "2318"}
"""OPEN with Allied units on 2317, 2218 and 2318: 16/1's one-hex retreats from 2217 all end on a friend."""


def test_displacing_a_unit_no_retreat_ended_on_is_one_error(game: Game) -> None:
    """8.3.1, 5.3: 16/1's retreat ends on 26/1 and the log displaces 115/29, which took no part: one error, there,
    naming the unit to displace; the stack left on 2317 is that breach, not 5.3's as the phase ends."""
    text = COMBAT + ("Allied: attack 2117 with 16/1 result A1\nAllied: retreat 16/1 2217-2317\n"
                     "Allied: retreat 115/29 2218-2118\n" + END)
    played = run(game, text, FRIENDS)
    assert seen(played) == [("error", "8.3.1", "Allied: retreat 115/29 2218-2118")]
    assert "26/1 in 2317, where a retreat ended, is the unit to displace" in played.findings[-1].message
    # With no displacement written at all, the stack is the one breach (5.3, as the phase ends).
    left = run(game, COMBAT + "Allied: attack 2117 with 16/1 result A1\nAllied: retreat 16/1 2217-2317\n" + END,
               FRIENDS)
    assert seen(left) == [("error", "5.3", "Phase mobile_movement")]


def test_a_result_carried_out_on_the_wrong_unit_is_one_error(game: Game) -> None:
    """8.2.4, 8.4 (as the classic series' 8.0 ruling): a loss, stiff resistance or retreat written for a unit that
    owes none of it is one error, there; the same part left owed by the unit it should have touched is a note as
    the combat ends. A part of another kind stays owed (an Ex carried out as the defender's retreat: the attacker's
    step is an error of its own)."""
    de = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result De\nAllied: deplete 16/1\n" + END, FRIENDS)
    assert seen(de) == [("error", "8.2.4", "Allied: deplete 16/1"), ("note", "8.2.4", "Phase mobile_movement")]
    assert "the loss on line 8 carried this part out wrongly" in de.findings[-1].message
    ex = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result Ex\nAllied: deplete 26/1\n"
             "German> deplete 914/352\n" + END, FRIENDS)
    assert seen(ex) == [("error", "8.2.4", "Allied: deplete 26/1"), ("note", "8.2.4", "Phase mobile_movement")]
    stand = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result A1\nGerman> stand 914/352\n" + END)
    assert [(s, r) for s, r, _ in seen(stand)] == [("error", "8.4"), ("note", "8.3"), ("note", "8.3")]
    retreat = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result A1\nGerman> retreat 914/352 2117-2016\n"
                  + END)
    assert [(s, r) for s, r, _ in seen(retreat)] == [("error", "8.2.4"), ("note", "8.3"), ("note", "8.3")]
    other = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result Ex\n"
                "German> retreat 914/352 2117-2016-1916\n" + END)
    assert [(s, r) for s, r, _ in seen(other)] == [("error", "8.2.4"), ("error", "8.2.4")]


def test_one_fault_of_several_attackers_is_one_finding(game: Game) -> None:
    """8.2 (as Onslaught 7.0's register row): two attackers not adjacent to the hex are one error naming both;
    distinct faults stay distinct errors, and a unit refused for two reasons is still one error (the other a note)."""
    two = run(game, COMBAT + "Allied: attack 2117 with 16/1 26/1 115/29 result -\n" + END, FRIENDS)
    assert seen(two) == [("error", "8.2", "Allied: attack 2117 with 16/1 26/1 115/29 result -")]
    assert two.findings[0].message == "26/1 at 2317, 115/29 at 2218 are not adjacent to 2117"
    again = COMBAT + ("Allied: attack 2117 with 16/1 18/1 result D2\nGerman> retreat 914/352 2117-2016-1916\n"
                      "Allied: advance 16/1 2217-2117-2016\nAllied: attack 1916 with 16/1 26/1 115/29 result -\n" + END)
    played = run(game, again, FRIENDS)
    assert [(s, r) for s, r, _ in seen(played)] == [("error", "8.2"), ("note", "8.5"), ("error", "8.2"),
                                                    ("note", "8.0")]
    assert [f.message for f in played.findings if f.severity == "error"] == [
        "16/1 has already attacked in this phase; strengths are unitary",
        "26/1 at 2317, 115/29 at 2218 are not adjacent to 1916"]


def test_an_attack_refused_outright_owes_nothing(game: Game) -> None:
    """8.0, 8.2, 8.2.1 a (as Onslaught 7.0's and the classic series' register rows): an attack the rules refuse
    outright (no attacking unit next to the hex, one attacking again, an attack out of the combat phases or on two
    hexes) is its one error; its result left undone is no second one, and its units and hex may attack and be
    attacked lawfully after it."""
    far = {**OPEN, "26/1": "2317"}
    alone = run(game, COMBAT + "Allied: attack 2117 with 26/1 die 1 result D2\n"
                "Allied: attack 2117 with 16/1 die 1 result Ex\nAllied: deplete 16/1\nGerman> deplete 914/352\n" + END,
                far)
    assert seen(alone) == [("error", "8.2", "Allied: attack 2117 with 26/1 die 1 result D2")]
    again = run(game, COMBAT + "Allied: attack 2117 with 16/1 die 1 result Ex\nAllied: deplete 16/1\n"
                "German> deplete 914/352\nAllied: attack 2117 with 16/1 die 6 result A1\n" + END)
    assert [(s, r) for s, r, _ in seen(again)] == [("error", "8.2"), ("note", "8.0")]
    early = run(game, "Turn 1\nPhase support_fire_marker\nPhase movement\nAllied: attack 2117 with 16/1 die 6 result A1\n"
                "Phase bombardment\n")
    assert [(s, r) for s, r, _ in seen(early)] == [("error", "8.2")]
    two = run(game, COMBAT + "Allied: attack 2117+2118 with 16/1 die 6 result A1\n" + END)
    assert [(s, r) for s, r, _ in seen(two)] == [("error", "8.0")]  # one defending hex an attack (8.2.1 a before)


def test_a_retreat_or_advance_from_the_wrong_hex_is_not_carried_out(game: Game) -> None:
    """8.3, 8.5 (as a move from the wrong hex, 5.1): a retreat or an advance written from a hex the unit is not in is
    one error and is not carried out, so the corrected line is judged as the retreat (or advance) and gives none; left
    uncorrected, the retreat still owed is that error's, a note."""
    attack = COMBAT + "Allied: attack 2117 with 16/1 18/1 result D2\n"
    fixed = run(game, attack + "German> retreat 914/352 2118-2018-1918\nGerman> retreat 914/352 2117-2016-1916\n"
                "Allied: advance 16/1 2216-2117\nAllied: advance 16/1 2217-2117\n" + END)
    assert seen(fixed) == [("error", "8.3", "German> retreat 914/352 2118-2018-1918"),
                           ("error", "8.5", "Allied: advance 16/1 2216-2117")]
    assert fixed.state.location["914/352"] == "1916" and fixed.state.location["16/1"] == "2117"
    left = run(game, attack + "German> retreat 914/352 2118-2018-1918\n" + END)
    assert seen(left) == [("error", "8.3", "German> retreat 914/352 2118-2018-1918"),
                          ("note", "8.3", "Phase mobile_movement")]


def test_a_result_carried_out_with_no_combat_open_is_one_error(game: Game) -> None:
    """8.3, 8.5: a retreat and the advances after it written with no attack before them (the attack line left out) are
    one error, the first entry's; the advances are notes naming it. An advance into the combat hex before the
    defender's retreat is written follows the retreat the players carried out unwritten: a note, its omission the
    one error as the combat ends."""
    orphans = run(game, COMBAT + "German> retreat 914/352 2117-2016-1916\nAllied: advance 16/1 2217-2117-2016\n"
                  "Allied: advance 18/1 2216-2117\n" + END)
    assert seen(orphans) == [("error", "8.3", "German> retreat 914/352 2117-2016-1916"),
                             ("note", "8.5", "Allied: advance 16/1 2217-2117-2016"),
                             ("note", "8.5", "Allied: advance 18/1 2216-2117")]
    early = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result D2\nAllied: advance 16/1 2217-2117\n" + END)
    assert [(s, r) for s, r, _ in seen(early)] == [("note", "8.5"), ("error", "8.3")]


def test_a_result_carried_out_after_a_draw_or_a_phase_marker_is_one_error(game: Game) -> None:
    """8.0, 8.3: a result carried out after another entry ended its combat (a draw for the next one, the next phase's
    marker) is one error, on that entry (the result left undone); the late retreat or loss carries it out, a note
    (it was a second error: no combat result called for it)."""
    drawn = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result D2\nAllied: draw us_sf_6\n"
                "German> retreat 914/352 2117-2016-1916\n" + END)
    assert [(s, r) for s, r, _ in seen(drawn)] == [("error", "8.3"), ("note", "8.0")]
    marker = run(game, COMBAT + "Allied: attack 2117 with 16/1 18/1 result Ex\nAllied: deplete 16/1\n"
                 "Phase mobile_movement\nGerman> deplete 914/352\nPhase mobile_combat\n")
    assert seen(marker) == [("error", "8.2.4", "Phase mobile_movement"), ("note", "8.0", "German> deplete 914/352")]
