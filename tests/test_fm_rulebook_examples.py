"""The Fire & Movement rulebook's worked examples, driven through the adjudicator on Omaha's data:
5.4's movement costs, 6.1's zones of control in movement, 7.1's allotment, 7.2's support fire and
the Pointe du Hoc chart of 11.2.3 (the results tests/test_fm_markers.py does not already cover).

Where Omaha's data cannot show an example as printed, a copy of the data is changed in the one
value the example needs, and the test says why.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.notation.entries import Attack
from adjudicator.notation.text import parse_text
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.fire_and_movement import markers as pools
from fm_log import SETUP, landed, replay_errors
from wargame.bundled import data_root
from wargame.game import Game, load_game

ALLIED_TURN = "Phase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\n"
GT1 = "Turn 1\nPhase support_fire_marker\n"
GT2_LANDINGS = ("Allied: reinforce 9/2 2319\nAllied: reinforce 23/2 2318\nAllied: reinforce 38/2 2318\n"
                "Allied: reinforce CCA/2 2219\nAllied: reinforce CCB/2 2120\nAllied: reinforce CCR/2 2120\n")


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def cost(game: Game, a: str, b: str) -> float | None:
    """The adjudicator's MP for stepping from `a` into the adjacent `b` (5.4)."""
    return FM.step_cost(game, game.grid.hex_of(a), game.grid.hex_of(b))


def with_terrain(game: Game, **changes: dict[str, float | None]) -> Game:
    """A copy of the game whose terrain chart has the given costs changed."""
    terrain = {**game.terrain, **{t: replace(game.terrain[t], **c) for t, c in changes.items()}}
    return replace(game, terrain=terrain)


# -- 5.4 -----------------------------------------------------------------------------------------
def test_5_4_a_hexside_cost_is_added_to_the_hex_cost(game: Game) -> None:
    """5.4, first example: a river (+1) crossed into clear (1) costs 2. No clear hex of the Omaha
    map borders a river or a stream (its eight clear hexes lie on the beach), so a town, which
    costs 1 like clear ground in our chart, stands in for it: Airel (1311) entered from 1411 across
    the Vire; a stream adds its +1 the same way into the Forêt de Cerisy's woods (1117, from 1216)."""
    clear = [h for h, kinds in game.hex_terrain.items() if kinds == ("clear",)]
    assert not any(features & {"river", "stream"} for side, features in game.hexside_features.items()
                   if side.a in clear or side.b in clear)
    assert game.hex_terrain[game.grid.hex_of("1311")] == ("town",) and cost(game, "1411", "1311") == 1 + 2
    woods = game.terrain["woods"].mp_cost
    assert game.hex_terrain[game.grid.hex_of("1117")] == ("woods",) and woods is not None
    assert cost(game, "1216", "1117") == woods + 1   # a stream (+1, reconstructed)
    # With the example's river (+1) the same crossing costs the example's 2 MP.
    assert cost(with_terrain(game, river={"mp_add": 1}), "1411", "1311") == 2


def test_5_4_a_plus_terrain_adds_to_the_hex_and_hexside(game: Game) -> None:
    """5.4, second example: clear (1) with a village (+1) entered across a river (+1) costs 3.
    Omaha's reconstructed chart has no "+" hex terrain (a town costs 1 outright), so the example
    runs on a copy whose town is "+1" and whose river is +1, at Airel (1311, entered from 1411)."""
    plus = with_terrain(game, town={"mp_cost": None, "mp_add": 1}, river={"mp_add": 1})
    assert cost(plus, "1411", "1311") == 3
    # Without a hexside feature the village still adds its +1 to the clear ground beneath it; the
    # cost is the hex entered, whatever the hex left (broken at 1211).
    assert cost(plus, "1211", "1311") == 1 + 1
    assert cost(plus, "1310", "1311") == 0.5          # the road bridge: the road rate replaces all (5.4.1)


# -- 6.1 -----------------------------------------------------------------------------------------
def leg_moves(game: Game, placed: dict[str, str], move: str) -> list[tuple[str, str]]:
    """The errors of an Allied move in GT 1's Movement Phase."""
    return replay_errors(game, GT1 + "Phase movement\n" + move + "\n", placed)[0]


def test_6_1_leg_units_in_enemy_zones_of_control(game: Game) -> None:
    """6.1, example 1: a leg unit starting in an EZOC may step straight into another EZOC hex by
    spending its whole printed allowance, so that step is all its move; it may instead leave for a
    hex out of every EZOC and go on normally, and it halts again on entering an EZOC. 914/352 at
    2117 puts 2217 and 2216 in its ZOC; 2318 and 2317 are free of it."""
    placed = {"914/352": "2117", "16/1": "2217"}
    assert leg_moves(game, placed, "16/1 2217-2216") == []
    assert leg_moves(game, placed, "16/1 2217-2216-2316") == [("6.1", "16/1 2217-2216-2316")]
    assert leg_moves(game, placed, "16/1 2217-2318-2319") == []
    assert leg_moves(game, placed, "16/1 2217-2317-2216") == []
    assert leg_moves(game, placed, "16/1 2217-2317-2216-2215") == [("6.1", "16/1 2217-2317-2216-2215")]


def test_6_1_the_allowance_must_cover_the_hex(game: Game) -> None:
    """6.1: the step from one EZOC into another needs an allowance that covers the hex's and the
    hexside's cost. In inclement weather (14.1) a leg allowance of 6 is 3: 16/1 at 0210, next to
    914/352 at 0311, cannot cross the river into 0211 (broken 2 + river 2), but may enter 0310 (2)."""
    gt1 = GT1 + ALLIED_TURN * 2 + "Phase game_turn_end\n"
    gt2 = ("Turn 2\nRoll German 6\nRoll Allied 1 German 1\nAllied: aside us_sf_2\nGerman: aside de_sf_1\n"
           "Phase support_fire_marker\nPhase movement\n")
    placed = {"914/352": "0311", "16/1": "0210"}
    assert cost(game, "0210", "0211") == 4 and cost(game, "0210", "0310") == 2
    assert replay_errors(game, gt1 + gt2 + "16/1 0210-0310\n", placed, optional=("weather",))[0] == []
    assert replay_errors(game, gt1 + gt2 + "16/1 0210-0211\n", placed, optional=("weather",))[0] == \
        [("6.1", "16/1 0210-0211")]


def test_6_1_mobile_units_pay_half_their_allowance(game: Game) -> None:
    """6.1, the mobile rule: entering an EZOC costs half the printed allowance, rounded down, on top
    of the terrain. Omaha's combat commands have 10 (5 more) and its SP anti-tank battalions 8 (4
    more); no Omaha unit has the example's 7, so a copy of the data gives CCA/2 an allowance of 7,
    and it pays the example's 3."""
    german = {"914/352": "2117"}
    # CCA/2, allowance 10: 2 + (2 + 5) = 9 into 2217; 1 + (2 + 5) + (2 + 5) = 15 on to 2216.
    assert leg_moves(game, {**german, "CCA/2": "2319"}, "CCA/2 2319-2218-2217") == []
    assert leg_moves(game, {**german, "CCA/2": "2319"}, "CCA/2 2319-2318-2217-2216") == \
        [("6.1", "CCA/2 2319-2318-2217-2216")]
    # 352/352, allowance 8, in the German player turn against 16/1 at 2217: 2 + (2 + 4) = 8 exactly.
    placed = {"16/1": "2217", "352/352": "2016"}
    german_turn = GT1 + ALLIED_TURN + "Phase movement\n"
    assert replay_errors(game, german_turn + "352/352 2016-2116-2216\n", placed)[0] == []
    assert replay_errors(game, german_turn + "352/352 2016-2116-2216-2316\n", placed)[0] == \
        [("6.1", "352/352 2016-2116-2216-2316")]
    # The example's allowance of 7: 2 + (2 + 3) = 7 is legal (it would not be with 4 more); two
    # EZOC hexes cost 1 + (2 + 3) + (2 + 3) = 11 (only 5 without the extra cost).
    units = [(n, replace(u, full=(4, 4, 7), reduced=(2, 2, 7)) if u.id == "CCA/2" else u)
             for n, u in game.units]
    seven = replace(game, units=units)
    assert leg_moves(seven, {**german, "CCA/2": "2319"}, "CCA/2 2319-2218-2217") == []
    assert leg_moves(seven, {**german, "CCA/2": "2319"}, "CCA/2 2319-2318-2217-2216") == \
        [("6.1", "CCA/2 2319-2318-2217-2216")]


# -- 7.1 and 7.2 ---------------------------------------------------------------------------------
def test_7_1_the_allotment_example(game: Game) -> None:
    """7.1: "8/9" gives the first player 8 markers and the second 9, the lowest-valued first. Omaha's
    track prints no allotment: the exclusive rules give each side its whole set every game turn
    (11.1.4, 11.2.6). So the example runs on a copy of the data whose allotments are 8 for the
    Allies (the first player, 10.2) and 9 for the Germans; a marker beyond them cannot be drawn."""
    numbers = {"allied_support_allotment": 8, "german_support_allotment": 9}
    small = replace(game, parameters=replace(game.parameters, parameter=[
        replace(p, value=numbers[p.id]) if p.id in numbers else p for p in game.parameters.parameter]))
    assert pools.in_cups(small, "Allied", (), (), (), False) == {"us_sf_2": 3, "us_sf_3": 3, "us_air_4": 2}
    german = pools.in_cups(small, "German", (), (), (), False)
    assert german == {"de_sf_1": 1, "de_sf_2": 2, "de_sf_3": 2, "de_sf_4": 2, "de_sf_5": 2, "de_mines": 2}
    bombard = GT1 + "Phase movement\nPhase bombardment\nAllied: draw {}\n"
    assert replay_errors(small, bombard.format("us_air_4"), {"914/352": "2117"})[0] == []
    assert replay_errors(small, bombard.format("us_sf_5"), {"914/352": "2117"})[0] == \
        [("7.2", "Allied: draw us_sf_5")]
    assert replay_errors(game, bombard.format("us_sf_5"), {"914/352": "2117"})[0] == []


def test_7_2_the_support_fire_example(game: Game) -> None:
    """7.2: two 4-4-10 units attack a 2-3-8, 8 points; two +2 markers make 12; the defender's +6
    makes his 3 a 9. Omaha has these very units (values reconstructed so): CCA/2 and CCB/2 are
    4-4-10, Sch/30 a 2-3-8. The attack is made in the Mobile Combat Phase, the markers placed in the
    order of 8.2.1 b; +3 on the clear line (mixed ground) is column c8."""
    placed = {"CCA/2": "2217", "CCB/2": "2216", "Sch/30": "2117"}
    before = GT1 + ALLIED_TURN + "Allied: draw us_sf_2 us_sf_2\nGerman> draw de_sf_6\n"
    attack = "Allied: attack 2117 with CCA/2 CCB/2 diff {} die 2 result Ex support us_sf_2 de_sf_6 us_sf_2\n"
    errors, state = replay_errors(game, before, placed)
    assert errors == []
    entry = parse_text('[Game "omaha"]\n' + attack.format("+3"))[-1]
    assert isinstance(entry, Attack)
    audit = FM.combat_audit(state, entry)
    assert (audit.attack, audit.defence, audit.differential, audit.line, audit.column, audit.result) == \
        (12, 9, 3, "clear", "c8", "Ex")
    carried = "German> deplete Sch/30\nAllied: deplete CCB/2\n"
    assert replay_errors(game, before + attack.format("+3") + carried, placed)[0] == []
    wrong = attack.format("+9")  # the defender's +6 left out: 12 - 3
    assert replay_errors(game, before + wrong + carried, placed)[0] == [("8.2.1d", wrong.strip())]


# -- 11.2.3 Pointe du Hoc ------------------------------------------------------------------------
# tests/test_fm_markers.py::test_pointe_du_hoc covers the 2 and the 3 whole, the 1's and 4's losses and
# the marker entries each die calls for; these add what it leaves out.
def pointe_du_hoc(game: Game, die: int, after_roll: str, move: str = "", gt1: str = "",
                  gt2: str | None = None) -> list[tuple[str, str]]:
    """Errors of a log from the set-up with the Pointe du Hoc `die`, `after_roll` written before the
    beach assaults, `move` in GT 1's Allied Movement Phase, `gt1` in its German Bombardment Phase,
    and, when given, `gt2` in GT 2's."""
    assaults = landed(SETUP).removeprefix(SETUP).split("German: lose de_sf_6\n")[1]
    allied = "Phase movement\n" + move + ALLIED_TURN.removeprefix("Phase movement\n")
    text = f"{SETUP}Roll Allied {die}\n{after_roll}{assaults}{GT1}{allied}Phase movement\n" \
           f"German: reinforce Sch/30 1005\nPhase bombardment\n{gt1}Phase combat\nPhase mobile_movement\n" \
           "Phase mobile_combat\nPhase game_turn_end\n"
    if gt2 is not None:
        text += f"Turn 2\nPhase support_fire_marker\nPhase movement\n{GT2_LANDINGS}" + \
                ALLIED_TURN.removeprefix("Phase movement\n") + f"Phase movement\nPhase bombardment\n{gt2}"
    return replay_errors(game, text)[0]


SIXES = "German: draw de_sf_6 de_sf_6\nGerman: bombard 2120 support de_sf_6 de_sf_6\n"
"""Two German +6 drawn and fired at 175/29 on the beach (two hexes from 915/352 at 2021)."""
THIRD = "German: draw de_sf_6\n"


def test_pointe_du_hoc_a_1(game: Game) -> None:
    """11.2.3, a 1: the Rangers are eliminated (a reduction is not enough) and so never move."""
    assert pointe_du_hoc(game, 1, "Allied: eliminate 2Rgr\n") == []
    assert ("11.2.3", "Allied: deplete 2Rgr") in pointe_du_hoc(game, 1, "Allied: deplete 2Rgr\n")
    assert pointe_du_hoc(game, 1, "Allied: eliminate 2Rgr\n", "2Rgr 2417-2416\n") == [("11.2.3", "2Rgr 2417-2416")]


def test_pointe_du_hoc_a_4(game: Game) -> None:
    """11.2.3, a 4: reduced, one hex of movement, and one German +6 out for GT 1 only: two are left
    to draw on GT 1, all three on GT 2."""
    four = "Allied: deplete 2Rgr\nGerman: aside de_sf_6\n"
    assert pointe_du_hoc(game, 4, four, "2Rgr 2417-2416\n") == []
    assert pointe_du_hoc(game, 4, four, "2Rgr 2417-2416-2316\n") == [("11.2.3", "2Rgr 2417-2416-2316")]
    assert pointe_du_hoc(game, 4, four, gt1=SIXES) == []
    assert pointe_du_hoc(game, 4, four, gt1=SIXES + THIRD) == [("7.2", THIRD.strip())]
    assert pointe_du_hoc(game, 4, four, gt2=SIXES + THIRD) == []


@pytest.mark.parametrize("die", [5, 6])
def test_pointe_du_hoc_a_5_or_6(game: Game, die: int) -> None:
    """11.2.3, a 5 or a 6: the Rangers keep full strength and may move one hex; one German +6 is
    eliminated for good, so only two are left on GT 2 as well."""
    lose = "German: lose de_sf_6\n"
    assert pointe_du_hoc(game, die, lose, "2Rgr 2417-2416\n") == []
    assert ("11.2.3", "Allied: deplete 2Rgr") in pointe_du_hoc(game, die, lose + "Allied: deplete 2Rgr\n")
    assert pointe_du_hoc(game, die, lose, "2Rgr 2417-2416-2316\n") == [("11.2.3", "2Rgr 2417-2416-2316")]
    assert pointe_du_hoc(game, die, lose, gt2=SIXES) == []
    assert pointe_du_hoc(game, die, lose, gt2=SIXES + THIRD) == [("7.2", THIRD.strip())]
