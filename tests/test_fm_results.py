"""Fire & Movement combat results carried out (8.2.4, 8.3, 8.3.1, 8.4, 8.5, 6.2) on the Omaha map.

The position: 914/352 on mixed ground at 2117, the Allied 16/1 at 2217 and 18/1 at 2216 beside it
(their zones of control cover 2116, 2118, 2218, 2316, 2317, 2318 and 2215). Results are claimed
without dice where only their effects matter (the claim itself then draws a warning, filtered out).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.engine import advance
from adjudicator.notation.entries import Retreat
from adjudicator.notation.text import parse_text
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.omaha import OmahaState
from fm_log import SETUP, landed, replay_errors
from wargame.bundled import data_root
from wargame.game import Game, load_game

OPEN = {"914/352": "2117", "16/1": "2217", "18/1": "2216"}
COMBAT = "Phase movement\nPhase bombardment\nPhase combat\n"
END = "Phase mobile_movement\n"


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def errors(game: Game, text: str, placed: dict[str, str] | None = None,
           depleted: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(rule, entry) of each error of GT 1's Allied Combat Phase, then `text`."""
    return replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}{text}", placed or OPEN, depleted)[0]

def attack(result: str, *units: str) -> str:
    """An Allied attack on 2117 claiming `result` (no die)."""
    return f"Allied: attack 2117 with {' '.join(units or ('16/1', '18/1'))} result {result}\n"


def test_defender_retreats_or_resists(game: Game) -> None:
    """8.2.4 D2, 8.3, 8.4: two hexes away, out of every EZOC (6.2 when only an EZOC bars the path), or
    stiff resistance and reduced."""
    assert errors(game, attack("D2") + "German> retreat 914/352 2117-2016-1916\n" + END) == []
    assert errors(game, attack("D2") + END) == [("8.3", "Phase mobile_movement")]
    assert errors(game, attack("D2") + "German> retreat 914/352 2117-2116-2015\n" + END) == \
        [("6.2", "German> retreat 914/352 2117-2116-2015")]
    assert errors(game, attack("D2") + "German> retreat 914/352 2117-2016\n" + END) == \
        [("8.3", "German> retreat 914/352 2117-2016")]
    assert errors(game, attack("D2") + "German> stand 914/352\n" + END) == []
    assert errors(game, attack("D2") + "German> stand 914/352\nGerman> deplete 914/352\n" + END) == \
        [("8.4", "German> deplete 914/352")]
    assert errors(game, attack("D2") + "German> deplete 914/352\n" + END) == [("8.3", "German> deplete 914/352")]


def test_a_unit_that_cannot_retreat(game: Game) -> None:
    """8.3: a unit with no retreat at all is eliminated; a deplete is not enough."""
    boxed = {**OPEN, "26/1": "2016", "115/29": "2017", "116/29": "2116", "175/29": "2118"}
    assert errors(game, attack("D2") + "German> eliminate 914/352\n" + END, boxed) == []
    assert errors(game, attack("D2") + "German> deplete 914/352\n" + END, boxed) == \
        [("8.3", "Phase mobile_movement")]


def test_after_stiff_resistance_nobody_advances(game: Game) -> None:
    """8.4: a reduced (or one-step) unit's stiff resistance eliminates it and prevents any advance
    into its hex; 8.3: a unit eliminated because it could not retreat at all leaves its hex as the
    path of retreat ("this does not nullify the retreat"), so the attackers may advance into it."""
    stood = attack("D2") + "German> stand 914/352\nAllied: advance 16/1 2217-2117\n" + END
    assert errors(game, stood, depleted=("914/352",)) == [("8.4", "Allied: advance 16/1 2217-2117")]
    boxed = {**OPEN, "26/1": "2016", "115/29": "2017", "116/29": "2116", "175/29": "2118"}
    trapped = attack("D2") + "German> eliminate 914/352\nAllied: advance 16/1 2217-2117\n" + END
    assert errors(game, trapped, boxed) == []


def test_an_advanced_unit_does_not_move_on(game: Game) -> None:
    """8.5: after advancing, a unit does nothing more that player turn: a mobile unit that advanced
    in the Combat Phase does not move in the Mobile Movement Phase (one that did not may)."""
    placed = {"914/352": "2117", "CCA/2": "2217", "18/1": "2216"}
    fight = ("Allied: attack 2117 with CCA/2 18/1 result D2\nGerman> retreat 914/352 2117-2016-1916\n"
             "Allied: advance {} 2217-2117\nPhase mobile_movement\n")
    assert errors(game, fight.format("CCA/2") + "CCA/2 2117-2118\n", placed) == [("8.5", "CCA/2 2117-2118")]
    assert errors(game, fight.replace("Allied: advance {} 2217-2117\n", "") + "CCA/2 2217-2118\n", placed) == []


def test_eliminations_and_exchanges(game: Game) -> None:
    """8.2.4: De and Ae eliminate everyone; Ex reduces the defender and one attacker of the
    attacker's choice; (A) one attacker."""
    assert errors(game, attack("De") + "German> eliminate 914/352\n" + END) == []
    assert errors(game, attack("De") + "German> deplete 914/352\n" + END) == [("8.2.4", "Phase mobile_movement")]
    assert errors(game, attack("Ae") + "Allied: eliminate 16/1\nAllied: eliminate 18/1\n" + END) == []
    assert errors(game, attack("Ae") + "Allied: eliminate 16/1\n" + END) == [("8.2.4", "Phase mobile_movement")]
    exchange = attack("Ex") + "German> deplete 914/352\nAllied: deplete 18/1\n"
    assert errors(game, exchange + END) == []
    assert errors(game, exchange + "Allied: deplete 16/1\n" + END) == [("8.2.4", "Allied: deplete 16/1")]
    assert errors(game, attack("Ex") + "Allied: deplete 18/1\n" + END) == [("8.2.4", "Phase mobile_movement")]
    assert errors(game, attack("(A)") + END) == [("8.2.4", "Phase mobile_movement")]
    assert errors(game, attack("(A)") + "Allied: deplete 16/1\n" + END) == []
    assert errors(game, attack("-") + "German> deplete 914/352\n" + END) == [("8.2.4", "German> deplete 914/352")]


def test_one_step_units_are_eliminated(game: Game) -> None:
    """8.3: a reduced or one-step unit that must be reduced is eliminated instead (`deplete` written for it is read
    as the elimination, a note: test_fm_last_step.py)."""
    exchange = attack("Ex") + "German> {} 914/352\nAllied: deplete 18/1\n" + END
    assert errors(game, exchange.format("eliminate"), depleted=("914/352",)) == []
    assert errors(game, exchange.format("deplete"), depleted=("914/352",)) == []


def test_attackers_retreat(game: Game) -> None:
    """8.2.4 A1: every attacker retreats one hex, or resists and is reduced."""
    retreat = attack("A1") + "Allied: retreat 16/1 2217-2318\nAllied: stand 18/1\n" + END
    assert errors(game, retreat) == []
    assert errors(game, attack("A1") + "Allied: retreat 16/1 2217-2318\n" + END) == \
        [("8.3", "Phase mobile_movement")]


def test_advance_after_combat(game: Game) -> None:
    """8.5: after D2 or D3 only, by attackers, along the path of retreat, one unit a hex."""
    retreat = attack("D2") + "German> retreat 914/352 2117-2016-1916\n"
    assert errors(game, retreat + "Allied: advance 16/1 2217-2117-2016\nAllied: advance 18/1 2216-2117\n" + END) == []
    assert errors(game, retreat + "Allied: advance 16/1 2217-2117-2017\n" + END) == \
        [("8.5", "Allied: advance 16/1 2217-2117-2017")]
    assert errors(game, retreat + "Allied: advance 16/1 2217-2117\nAllied: advance 18/1 2216-2117\n" + END)[0] == \
        ("8.5", "Allied: advance 18/1 2216-2117")
    exchange = attack("Ex") + "German> eliminate 914/352\nAllied: deplete 18/1\n"
    assert errors(game, exchange + "Allied: advance 16/1 2217-2117\n" + END, depleted=("914/352",)) == \
        [("8.5", "Allied: advance 16/1 2217-2117")]


def test_displacement(game: Game) -> None:
    """8.3.1: when every hex a retreat may end in holds a friendly unit, the retreat ends on one and
    displaces it one hex; a unit no retreat ended on is not displaced; a vacant end forbids it."""
    friends = {"915/352": "1916", "916/352": "1917", "352/352": "1918", "1Flak": "2015", "Sch/30": "2018"}
    placed = {**OPEN, **friends}
    text = attack("D2") + "German> retreat 914/352 2117-2016-1916\nGerman> retreat 915/352 1916-1815\n" + END
    assert errors(game, text, placed) == []
    stray = attack("D2") + "German> retreat 914/352 2117-2016-1916\nGerman> retreat 916/352 1917-1816\n" + END
    assert ("8.3.1", "German> retreat 916/352 1917-1816") in errors(game, stray, placed)
    vacant = {**OPEN, "915/352": "1916"}
    onto = attack("D2") + "German> retreat 914/352 2117-2016-1916\nGerman> retreat 915/352 1916-1815\n" + END
    assert ("8.3", "German> retreat 914/352 2117-2016-1916") in errors(game, onto, vacant)


def test_a_displaced_attacker_attacks_no_more(game: Game) -> None:
    """8.3.1: an attacker's unit displaced by its own side's retreat attacks no more that player turn;
    a displaced unit never ends on another friendly unit."""
    # 16/1 gets A1; 2317 and 2218 hold other Allied units, so it ends on 18/1 at 2318, which is
    # displaced to 2417, next to the SP anti-tank battalion at 2416 (it exerts no ZOC, 6.0).
    placed = {"914/352": "2117", "16/1": "2217", "18/1": "2318", "26/1": "2317", "115/29": "2218",
              "352/352": "2416"}
    text = ("Allied: attack 2117 with 16/1 result A1\nAllied: retreat 16/1 2217-2318\n"
            "Allied: retreat 18/1 2318-2417\nAllied: attack 2416 with 18/1 result -\n")
    assert errors(game, text + END, placed) == [("8.3.1", "Allied: attack 2416 with 18/1 result -")]
    onto = text.replace("2318-2417", "2318-2317").replace("Allied: attack 2416 with 18/1 result -\n", "")
    assert errors(game, onto + END, placed)[0] == ("8.3.1", "Allied: retreat 18/1 2318-2317")



# 8.3.1's chain: 914/352 at 2215 attacks 26/1 at 2315, whose only retreat runs through 16/1 at 2314 and ends on
# 18/1 at 2313; 18/1's other hexes are 2213 (915/352's zone of control at 2114) and the sea, so it may only be
# displaced onto 115/29 at 2212, which has the vacant 2112 to go to.
CHAIN = {"914/352": "2215", "915/352": "2114", "26/1": "2315", "16/1": "2314", "18/1": "2313", "115/29": "2212"}
GERMAN_COMBAT = "Phase mobile_movement\nPhase mobile_combat\nPhase movement\nPhase bombardment\nPhase combat\n" \
    "German: attack 2315 with 914/352 result D2\n"


def test_a_displaced_unit_displaces_another(game: Game) -> None:
    """8.3.1: a displaced unit with no vacant hex open to it displaces a lone friendly unit by the same
    procedure, and so on until no hex holds two (one error where a step of the chain breaks it); the unit
    displaced in turn is the one it ends on, never itself again."""
    retreat = "Allied> retreat 26/1 2315-2314-2313\n"
    chain = retreat + "Allied> retreat 18/1 2313-2212\nAllied> retreat 115/29 2212-2112\n"
    assert errors(game, GERMAN_COMBAT + chain + END, CHAIN) == []
    # Left unfinished, the hex holding two is 5.3's as the phase ends.
    assert errors(game, GERMAN_COMBAT + chain.replace("Allied> retreat 115/29 2212-2112\n", "") + END, CHAIN) == \
        [("5.3", "Phase mobile_movement")]
    # The unit displaced in turn is 115/29, not 18/1 a second time.
    again = retreat + "Allied> retreat 18/1 2313-2212\nAllied> retreat 18/1 2212-2112\n"
    assert errors(game, GERMAN_COMBAT + again + END, CHAIN)[0] == ("8.3.1", "Allied> retreat 18/1 2212-2112")
    # With 2212 vacant, 18/1 goes there: onto 16/1 it breaks 8.3.1.
    vacant = {**CHAIN, "115/29": "1510"}
    assert errors(game, GERMAN_COMBAT + retreat + "Allied> retreat 18/1 2313-2212\n" + END, vacant) == []
    assert errors(game, GERMAN_COMBAT + retreat + "Allied> retreat 18/1 2313-2314\n" + END, vacant)[0] == \
        ("8.3.1", "Allied> retreat 18/1 2313-2314")
    # Onto two units, displacing one would still leave it stacked.
    crowded = {**CHAIN, "116/29": "2212"}
    assert ("8.3.1", "Allied> retreat 18/1 2313-2212") in errors(game, GERMAN_COMBAT + chain + END, crowded)


# 914/352 at 2218 takes a D2 from 16/1 (2219) and 18/1 (2318), whose zones of control close 2119 and 2217: its
# only first hex is 2118, and every hex two away through it (2017, 2018, 2117) holds a German unit.
HEMMED = {"914/352": "2218", "915/352": "2017", "916/352": "2018", "352/352": "2117", "16/1": "2219", "18/1": "2318"}
HEMMED_ATTACK = "Allied: attack 2218 with 16/1 18/1 result D2\n"


def test_a_unit_may_decline_to_displace(game: Game) -> None:
    """8.3.1, 8.3: displacement is voluntary: a unit that could retreat the full distance only by ending on a
    friendly unit may displace it, or decline and be reduced, where it stands or in the last hex it reaches
    without displacing (then the reduction is owed); stiff resistance stays open (8.4)."""
    displacing = HEMMED_ATTACK + "German> retreat 914/352 2218-2118-2018\nGerman> retreat 916/352 2018-1918\n"
    assert errors(game, displacing + END, HEMMED) == []
    short = HEMMED_ATTACK + "German> retreat 914/352 2218-2118\n"
    assert errors(game, short + "German> deplete 914/352\n" + END, HEMMED) == []
    assert errors(game, short + END, HEMMED) == [("8.3", "Phase mobile_movement")]
    assert errors(game, HEMMED_ATTACK + "German> deplete 914/352\n" + END, HEMMED) == []
    assert errors(game, HEMMED_ATTACK + "German> stand 914/352\n" + END, HEMMED) == []
    assert errors(game, HEMMED_ATTACK + END, HEMMED) == [("8.3", "Phase mobile_movement")]
    # Reduced where it stands, a reduced unit is eliminated; nothing more is owed.
    assert errors(game, HEMMED_ATTACK + "German> eliminate 914/352\n" + END, HEMMED, depleted=("914/352",)) == []
    # The legal retreats the movement model gives are the checker's: the full ones (each ending on a German
    # unit) and, since none is open without displacing, the shorter one.
    state = replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}{HEMMED_ATTACK}", HEMMED)[1]
    (option,) = FM.retreat_options(state)
    assert option.shorter == (("2218", "2118"),) and ("2218", "2118", "2018") in option.paths
    for path in (*option.paths, *option.shorter):
        entry = Retreat(side="German", unit="914/352", path=list(path))
        assert [f for f in FM.check(state, entry) if f.severity == "error"] == [], path


def test_a_unit_is_reduced_in_place_only_when_friends_hold_it_back(game: Game) -> None:
    """8.3: a unit that can retreat part of the way without displacing anybody, and no farther even by
    displacing, retreats as far as it can before it is reduced (or resists, 8.4); 8.3.1: it ends on a
    friendly unit only when no retreat of that length ends in a hex no other friendly unit holds."""
    # 26/1 at 2016 and 115/29 at 1919 put 2017, 2117 and 2018 in Allied zones of control, 2118 not.
    short_only = {"914/352": "2218", "16/1": "2219", "18/1": "2318", "26/1": "2016", "115/29": "1919"}
    assert errors(game, HEMMED_ATTACK + "German> deplete 914/352\n" + END, short_only) == \
        [("8.3", "German> deplete 914/352")]
    assert errors(game, HEMMED_ATTACK + "German> retreat 914/352 2218-2118\nGerman> deplete 914/352\n" + END,
                  short_only) == []
    # 352/352 at 2118 and 2117 vacant: every retreat passes through 352/352, one ends in a vacant hex.
    free_end = {**HEMMED, "352/352": "2118"}
    onto = HEMMED_ATTACK + "German> retreat 914/352 2218-2118-2018\nGerman> retreat 916/352 2018-1918\n"
    assert errors(game, onto + END, free_end) == [("8.3.1", "German> retreat 914/352 2218-2118-2018")]
    assert errors(game, HEMMED_ATTACK + "German> retreat 914/352 2218-2118-2117\n" + END, free_end) == []
    assert errors(game, HEMMED_ATTACK + "German> deplete 914/352\n" + END, free_end)[0] == \
        ("8.3", "German> deplete 914/352")


# 26/1 at 1716, 115/29 at 1718 and 116/29 at 1914 put every hex three away from 2117 in Allied zones of
# control but 1919 and 2019; 915/352 and 916/352 stand there.
THREE_ON_FRIENDS = {"914/352": "2117", "16/1": "2217", "18/1": "2216", "26/1": "1716", "115/29": "1718",
                    "116/29": "1914", "915/352": "1919", "916/352": "2019"}
SHORT_OF_THREE = {**{u: w for u, w in THREE_ON_FRIENDS.items() if u not in ("915/352", "916/352")}, "175/29": "1920"}
"""Without the two German units, and 175/29 at 1920 closing 1919 and 2019 too: no retreat of three hexes at all."""


def test_a_short_retreat_goes_as_far_as_it_can(game: Game) -> None:
    """8.3: a unit that cannot retreat in full is reduced in the last hex it can legally reach, so it retreats as
    far as it can: a shorter retreat while a longer one ends in a hex no friendly unit holds is an error. 8.3.1:
    a longer one ending only on friends does not count (displacement is voluntary), and the unit may still be
    reduced where it stands instead of displacing."""
    one = attack("D3") + "German> retreat 914/352 2117-2016\nGerman> deplete 914/352\n" + END
    two = attack("D3") + "German> retreat 914/352 2117-2017-2018\nGerman> deplete 914/352\n" + END
    for placed in (SHORT_OF_THREE, THREE_ON_FRIENDS):
        assert errors(game, one, placed) == [("8.3", "German> retreat 914/352 2117-2016")], placed
        assert errors(game, two, placed) == [], placed
        assert errors(game, attack("D3") + "German> stand 914/352\n" + END, placed) == []
    assert errors(game, attack("D3") + "German> deplete 914/352\n" + END, SHORT_OF_THREE) == \
        [("8.3", "German> deplete 914/352")]
    assert errors(game, attack("D3") + "German> deplete 914/352\n" + END, THREE_ON_FRIENDS) == []
    displacing = attack("D3") + "German> retreat 914/352 2117-2017-2018-2019\nGerman> retreat 916/352 2019-2020\n"
    assert errors(game, displacing + END, THREE_ON_FRIENDS) == []
    state = replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}" + attack("D3"), SHORT_OF_THREE)[1]
    (finding,) = FM.check(state, Retreat(side="German", unit="914/352", path=["2117", "2016"]))
    assert "though it can retreat 2 (to 1916 or 1917 or 1918)" in finding.message
    # The movement model offers no retreat shorter than the checker accepts.
    for placed in (SHORT_OF_THREE, THREE_ON_FRIENDS):
        state = replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}" + attack("D3"), placed)[1]
        (option,) = FM.retreat_options(state)
        assert option.shorter and all(len(path) == 3 for path in option.shorter), placed


# THREE_ON_FRIENDS with every hex two away from 2117 held by a German unit: 914/352 reaches one hex without
# displacing anybody, two or three only by ending on a friend.
FRIENDS_AT_TWO = {**THREE_ON_FRIENDS, "352/352": "1916", "1Flak": "1917", "Sch/30": "1918", "9/3": "2015",
                  "5/3": "2018"}


def test_a_unit_displaces_only_at_the_end_of_the_longest_retreat(game: Game) -> None:
    """8.3.1, 8.3: displacing a friend completes a retreat; a unit that declines is reduced in the last hex it
    reaches without displacing. Displacing at two hexes of a D3 while three are open by displacing is neither."""
    two = attack("D3") + "German> retreat 914/352 2117-2016-1916\nGerman> retreat 352/352 1916-2016\n"
    assert errors(game, two + "German> deplete 914/352\n" + END, FRIENDS_AT_TWO) == \
        [("8.3.1", "German> retreat 914/352 2117-2016-1916")]
    three = attack("D3") + "German> retreat 914/352 2117-2017-2018-2019\nGerman> retreat 916/352 2019-2020\n"
    assert errors(game, three + END, FRIENDS_AT_TWO) == []
    assert errors(game, attack("D3") + "German> retreat 914/352 2117-2016\nGerman> deplete 914/352\n" + END,
                  FRIENDS_AT_TWO) == []
    # With nobody three hexes away to make way (175/29 closes 1919 and 2019), two by displacing is the longest.
    two_at_most = {**FRIENDS_AT_TWO, "175/29": "1920"}
    del two_at_most["915/352"], two_at_most["916/352"]
    assert errors(game, two + "German> deplete 914/352\n" + END, two_at_most) == []
    state = replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}" + attack("D3"), FRIENDS_AT_TWO)[1]
    (option,) = FM.retreat_options(state)
    assert option.shorter == (("2117", "2016"), ("2117", "2017")), option.shorter


def test_retreat_options_list_the_displacements_owed(game: Game) -> None:
    """8.3.1: once a retreat ends on a friendly unit, the movement model lists that unit's displacement (one hex,
    into a vacant hex when one is open), each passing the checker; none once it has made way."""
    text = f"Turn 1\nPhase support_fire_marker\n{COMBAT}" + attack("D3") + \
        "German> retreat 914/352 2117-2017-2018-2019\n"
    state = replay_errors(game, text, THREE_ON_FRIENDS)[1]
    (option,) = FM.retreat_options(state)
    assert option.unit == "916/352" and option.due == 1 and option.paths and option.shorter == ()
    assert all(path[0] == "2019" and len(path) == 2 for path in option.paths)
    for path in option.paths:
        entry = Retreat(side="German", unit="916/352", path=list(path))
        assert [f for f in FM.check(state, entry) if f.severity == "error"] == [], path
    moved = replay_errors(game, text + f"German> retreat 916/352 {'-'.join(option.paths[0])}\n", THREE_ON_FRIENDS)
    assert FM.retreat_options(moved[1]) == []
    # The attacking side's too: 16/1's A1 retreat ends on 26/1, a unit of no part in the attack (the VASSAL
    # reader reads the drag of a unit listed here as its retreat).
    around = {**OPEN, "26/1": "2318", "115/29": "2317", "116/29": "2218"}
    text = f"Turn 1\nPhase support_fire_marker\n{COMBAT}" + attack("A1", "16/1") + "Allied: retreat 16/1 2217-2318\n"
    found, state = replay_errors(game, text, around)
    (option,) = FM.retreat_options(state)
    assert found == [] and option.unit == "26/1" and option.paths == (("2318", "2417"), ("2318", "2319"))


def test_rangers_retreat_through_enemy_zones_of_control(game: Game) -> None:
    """11.2.3: rangers ignore EZOC for all purposes, so their retreat may enter and cross hexes in
    an enemy ZOC (2218 and 2219 are next to 915/352); any other unit may not (6.2, 8.3)."""
    placed = {"914/352": "2117", "915/352": "2119", "16/1": "1510"}
    german_turn = "Phase mobile_movement\nPhase mobile_combat\nPhase movement\nPhase bombardment\nPhase combat\n"
    text = german_turn + "German: attack 2217 with 914/352 result D2\nAllied> retreat {} 2217-2218-2219\n" + END
    assert errors(game, text.format("2Rgr"), {**placed, "2Rgr": "2217"}) == []
    assert errors(game, text.format("18/1"), {**placed, "18/1": "2217"}) == \
        [("6.2", "Allied> retreat 18/1 2217-2218-2219")]

# -- bombardment (8.1) ---------------------------------------------------------------------------
BOMBARD_AT = {"914/352": "2117", "16/1": "2319", "18/1": "2217"}
"""18/1 next to the target; 16/1 on the beach, three hexes off."""


def bombard_errors(game: Game, text: str, placed: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(rule, entry) of each error of GT 1's Allied Bombardment Phase, then `text`."""
    return replay_errors(game, "Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\n" + text,
                         placed or BOMBARD_AT)[0]

def test_bombardment(game: Game) -> None:
    """8.1, 8.1.2, 8.1.5: markers only, against the target's defence on its hex's line; a retreat
    away from the closest enemy; no advance."""
    # +8 and +10 against a defence of 4: +14, the clear line's last column; a 4 reads D2.
    d2 = "Allied: bombard 2117 diff +14 die 4 result D2 support us_air_8 us_air_10\n"
    assert bombard_errors(game, d2 + "German> retreat 914/352 2117-2016-1916\nPhase combat\n") == []
    # With only 16/1 at 2120, three hexes off, 2017-2018 ends two from it: closer, not farther.
    lone = {"914/352": "2117", "16/1": "2120"}
    assert bombard_errors(game, d2 + "German> retreat 914/352 2117-2017-2018\nPhase combat\n", lone) == \
        [("8.1.5", "German> retreat 914/352 2117-2017-2018")]
    assert bombard_errors(game, d2 + "German> retreat 914/352 2117-2016-1916\nPhase combat\n", lone) == []
    assert ("8.5", "Allied: advance 18/1 2217-2117") in bombard_errors(
        game, d2 + "German> retreat 914/352 2117-2016-1916\nAllied: advance 18/1 2217-2117\nPhase combat\n")
    assert bombard_errors(game, d2.replace("result D2", "result D3") + "Phase combat\n")[0] == \
        ("8.1.2", d2.replace("result D2", "result D3").strip())


def test_bombardment_markers(game: Game) -> None:
    """8.1, 8.1.1, 8.1.2, 11.1.4: two markers a hex a player turn, the side's own (8.1.2), in range, no mines."""
    once = "Allied: bombard 2117 die 6 result - support us_air_8 us_air_10\n"
    # A second bombardment of the unit is 8.0's one error; its third marker on the hex is the same bombardment (a
    # note): 8.1's own error is tests/test_fm_cascades.py's third marker on another unit of a beach stack.
    assert bombard_errors(game, once + "Allied: bombard 2117 die 6 result - support us_air_6\n") == \
        [("8.0", "Allied: bombard 2117 die 6 result - support us_air_6")]
    assert bombard_errors(game, "Allied: bombard 2117 die 6 support de_sf_4\n") == \
        [("8.1.2", "Allied: bombard 2117 die 6 support de_sf_4")]
    far = {"914/352": "2117", "16/1": "2319"}
    assert bombard_errors(game, "Allied: bombard 2117 die 6 support us_sf_6\n", far) == \
        [("11.2.6", "Allied: bombard 2117 die 6 support us_sf_6")]
    assert bombard_errors(game, "Allied: bombard 2117 die 6 result - support us_air_6\nPhase combat\n", far) == []
    assert bombard_errors(game, "Phase combat\nAllied: bombard 2117 die 6 support us_air_6\n")[0][0] == "8.1"


def test_bombardment_results(game: Game) -> None:
    """8.1.3: the attacker's results are no effect; (A) reduces a friendly unit next to the target,
    and only if there is one."""
    # +4 against 4: 0 on the clear line, column c6; a 6 reads (A), a 1 reads Ex.
    friendly_fire = "Allied: bombard 2117 diff +0 die 6 result (A) support us_air_4\n"
    # Audit 18, D6: a bombardment's (A) left undone, or taken by a unit not next to the target, cites 8.1.3.
    assert bombard_errors(game, friendly_fire + "Phase combat\n") == [("8.1.3", "Phase combat")]
    assert bombard_errors(game, friendly_fire + "Allied: deplete 18/1\nPhase combat\n") == []
    assert bombard_errors(game, friendly_fire + "Allied: deplete 16/1\nAllied: deplete 18/1\nPhase combat\n") == \
        [("8.1.3", "Allied: deplete 16/1")]
    assert messages(game, friendly_fire + "Allied: deplete 16/1", BOMBARD_AT) == \
        ["16/1 took no part in the bombardment of 2117 (line 6); (A) reduces a unit of the bombarding side next to "
         "2117 (8.1.3)"]
    alone = {"914/352": "2117", "16/1": "2319"}
    assert bombard_errors(game, friendly_fire + "Phase combat\n", alone) == []
    exchange = "Allied: bombard 2117 diff +0 die 1 result - support us_air_4\nPhase combat\n"
    assert bombard_errors(game, exchange) == []


def messages(game: Game, text: str, placed: dict[str, str]) -> list[str]:
    """Every finding's message for the last entry of `text` in GT 1's Allied Bombardment Phase."""
    base = FM.initial_state(game, [])
    state: OmahaState = replace(base, location={**base.location, **placed})
    entries = parse_text(f'[Game "omaha"]\nTurn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\n'
                         f'{text}')
    for entry in entries[:-1]:
        state = advance(FM, state, entry)
    return [f.message for f in FM.check(state, entries[-1])]


def test_bombardment_wording(game: Game) -> None:
    """8.1.3 and 8.5 say why: (A) with no friendly unit beside the target is no effect; there is no
    advance after a bombardment."""
    alone = {"914/352": "2117", "16/1": "2319"}
    assert any("no effect in a bombardment" in m
               for m in messages(game, "Allied: bombard 2117 die 6 support us_air_4\n", alone))
    d2 = ("Allied: bombard 2117 die 4 result D2 support us_air_8 us_air_10\n"
          "German> retreat 914/352 2117-2016-1916\nAllied: advance 18/1 2217-2117\n")
    assert messages(game, d2, BOMBARD_AT) == ["there is no advance after a bombardment"]


# -- beach assaults (11.2.3, 11.2.7) -------------------------------------------------------------
def assault_errors(game: Game, text: str) -> list[tuple[str, str]]:
    """(rule, entry) of each error of a log that starts with `text` and then GT 1."""
    others = "".join(line + "\n" for line in landed(SETUP).splitlines() if not line.startswith("Allied: attack 2319"))
    return replay_errors(game, f"{others}{text.removeprefix(SETUP)}Turn 1\n")[0]


def test_beach_assaults(game: Game) -> None:
    """11.2.3: before GT 1 every unit on a beach hex assaults it against a defence of zero on the
    beach lines (within a German ZOC or not); a retreat result reduces every assaulting unit;
    11.2.7: naval gunfire supports only those assaults."""
    assault = "Allied: attack 2319 with 16/1 18/1 diff +15 die 4 result D2 support us_naval_7\n"
    assert assault_errors(game, SETUP + assault + "Allied: deplete 16/1\nAllied: deplete 18/1\n") == []
    assert assault_errors(game, SETUP + assault + "Allied: deplete 16/1\n") == [("8.2.4", "Turn 1")]
    assert assault_errors(game, SETUP + assault.replace("16/1 18/1", "16/1").replace("+15", "+11"))[0] == \
        ("11.2.3", "Allied: attack 2319 with 16/1 diff +11 die 4 result D2 support us_naval_7")
    naval = ("Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n"
             "Allied: attack 2117 with 16/1 die 3 support us_naval_7\n")
    assert ("11.2.7", "Allied: attack 2117 with 16/1 die 3 support us_naval_7") in \
        errors(game, naval.split("Phase combat\n", 1)[1], {"914/352": "2117", "16/1": "2217"})


def test_a_short_retreat_owes_its_reduction(game: Game) -> None:
    """8.3 (issue 15): a D2 with only one hex of retreat open, carried out as a one-hex retreat, owes the
    reduction in the last hex; a one-step unit in that case is eliminated, not left on the map."""
    # 26/1 at 1915 and 115/29 at 1918 close every two-hex retreat from 2117 and the one-hex one to 2017.
    boxed = {**OPEN, "26/1": "1915", "115/29": "1918"}
    short = attack("D2") + "German> retreat 914/352 2117-2016\n"
    assert errors(game, short + END, boxed) == [("8.3", "Phase mobile_movement")]
    assert errors(game, short + "German> deplete 914/352\n" + END, boxed) == []
    assert errors(game, short + END, boxed, depleted=("914/352",)) == [("8.3", "Phase mobile_movement")]
    assert errors(game, short + "German> eliminate 914/352\n" + END, boxed, depleted=("914/352",)) == []
    one_step = {**boxed, "1Flak": "2117"}
    del one_step["914/352"]
    text = (attack("D2") + "German> retreat 1Flak 2117-2016\n").replace("914/352", "1Flak")
    assert errors(game, text + END, one_step) == [("8.3", "Phase mobile_movement")]
    assert errors(game, text + "German> eliminate 1Flak\n" + END, one_step) == []
    # The log ends there: a note says what the result still owes.
    state = replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}{short}", boxed)[1]
    assert any(owed.section == "8.3" and "must be reduced in 2016" in owed.message
               for owed in FM.combat_results._outstanding(state, state.combat))  # type: ignore[arg-type]


def test_eliminated_units_go_to_the_units_box(game: Game) -> None:
    """8.2.4 (issue 15): a German unit eliminated goes to "German eliminated units", not to the box of
    eliminated support fire markers (11.1.4), which is of the same kind and listed first; the sample
    game's `state --json` shows it."""
    assert game.manifest.box_of("eliminated", "German").id == "eliminated_german"  # type: ignore[union-attr]
    assert game.manifest.box_of("eliminated", "German", "markers").id == "german_sf_removed"  # type: ignore[union-attr]
    text = attack("D2") + "German> stand 914/352\n"
    state = replay_errors(game, f"Turn 1\nPhase support_fire_marker\n{COMBAT}{text}", OPEN, ("914/352",))[1]
    assert state.location["914/352"] == "eliminated_german"
    from click.testing import CliRunner

    from adjudicator.cli import main
    sample = Path(__file__).resolve().parent.parent / "examples" / "omaha" / "legal-sample-game.log"
    result = CliRunner().invoke(main, ["state", "--json", str(sample)])
    positions = json.loads(result.stdout)["positions"]
    assert "352/352" in positions["eliminated_german"] and "german_sf_removed" not in positions


def test_after_a_wrong_bombardment_claim_either_result_may_be_followed(game: Game) -> None:
    """8.1.2 (the table read, as 8.2.1 d; it cited 8.1.3, what a result does), one breach one error: a claimed
    bombardment result the table contradicts is one error; the
    entries after it may carry out the claim or the table's result, and neither is a second error."""
    # +8 and +10 against 4: +14, the clear line's last column; a 4 reads D2, the log claims D3.
    d3 = "Allied: bombard 2117 diff +14 die 4 result D3 support us_air_8 us_air_10\n"
    line = d3.strip()
    assert bombard_errors(game, d3 + "German> retreat 914/352 2117-2016-1916\nPhase combat\n") == [("8.1.2", line)]
    assert bombard_errors(game, d3 + "German> retreat 914/352 2117-2016-1916-1816\nPhase combat\n") == \
        [("8.1.2", line)]
    # Claimed no effect where the table reads D2: the retreat the table asks for is no error either.
    none = d3.replace("result D3", "result -")
    assert bombard_errors(game, none + "German> retreat 914/352 2117-2016-1916\nPhase combat\n") == \
        [("8.1.2", none.strip())]
    assert bombard_errors(game, none + "Phase combat\n") == [("8.1.2", none.strip())]
    # Following neither is still an error.
    assert ("8.1.2", line) in bombard_errors(game, d3 + "German> stand 914/352\nGerman> deplete 914/352\n"
                                                     "Phase combat\n")
    assert len(bombard_errors(game, d3 + "German> eliminate 914/352\nPhase combat\n")) == 2


def test_a_bombardment_claim_without_a_modifier_cites_its_clause(game: Game) -> None:
    """8.1.4: a bombardment result read on the clear line for a target whose hex puts it on another
    breaks 8.1.4 (the hex's terrain left out); 15.0: an aircraft marker counted whole beside a flak unit
    breaks 15.0; another wrong claim, differential or result, is 8.1.2 (a result: 8.1.3 before session 24)."""
    marsh = {"914/352": "0126", "16/1": "2217"}
    # 0126 is marsh: +14 is the marsh line's last column, c10 (a 1 reads D3); the clear line's c12 reads De.
    bombard = "Allied: bombard 0126 diff +14 die 1 result {} support us_air_8 us_air_10\n"
    assert bombard_errors(game, bombard.format("D3") + "German> stand 914/352\nPhase combat\n", marsh) == []
    assert bombard_errors(game, bombard.format("De") + "German> eliminate 914/352\nPhase combat\n", marsh) == \
        [("8.1.4", bombard.format("De").strip())]
    assert bombard_errors(game, bombard.format("D2") + "German> stand 914/352\nPhase combat\n", marsh) == \
        [("8.1.2", bombard.format("D2").strip())]
    flak = {**BOMBARD_AT, "1Flak": "2116"}
    # Beside 1Flak the +10 counts 5 (15.0): 8 + 5 - 4 = +9, not +14.
    whole = "Allied: bombard 2117 diff +14 support us_air_8 us_air_10\n"
    assert replay_errors(game, "Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\n" + whole,
                         flak, optional=("flak",))[0] == [("15.0", whole.strip())]
    assert bombard_errors(game, whole.replace("+14", "+13"))[0] == ("8.1.2", whole.replace("+14", "+13").strip())


def test_a_bombardments_no_effect_carried_out_cites_8_1_3(game: Game) -> None:
    """Ruling (issue 26): after a bombardment, a loss or a retreat its result does not call for (what the
    table's Ex or A2 would do in ground combat) breaks 8.1.3, the clause on what a bombardment's results do,
    not 8.2.4."""
    # +4 against 4: 0 on the clear line, column c6; a 1 reads Ex, a 4 reads A2: no effect in a bombardment.
    exchange = "Allied: bombard 2117 diff +0 die 1 result - support us_air_4\n"
    assert bombard_errors(game, exchange + "German: deplete 914/352\nPhase combat\n") == \
        [("8.1.3", "German: deplete 914/352")]
    pushed = "Allied: bombard 2117 diff +0 die 4 result - support us_air_4\n"
    assert bombard_errors(game, pushed + "German> retreat 914/352 2117-2016-1916\nPhase combat\n") == \
        [("8.1.3", "German> retreat 914/352 2117-2016-1916")]
    # After ground combat the same entries stay 8.2.4's.
    assert ("8.2.4", "German: deplete 914/352") in errors(
        game, "Allied: attack 2117 with 18/1 die 4 result A2\nGerman: deplete 914/352\n", BOMBARD_AT)
