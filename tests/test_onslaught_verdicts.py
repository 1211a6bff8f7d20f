"""Issue 15, Onslaught: findings cite the clause broken (7.1, 7.5), the wrong verdicts fixed, and
one breach gives one error. Each case has a short log here or in examples/onslaught/."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_onslaught_arrivals import LANDINGS, REINFORCEMENT_STEP, play as play_turn
from test_onslaught_optional import FAR_GERMAN, play as play_optional
from test_onslaught_results import OPEN, errors, play

from adjudicator.findings import Finding
from adjudicator.systems.onslaught import ONSLAUGHT
from adjudicator.systems.onslaught.combat import audit, misread_clause
from adjudicator.systems.onslaught.arrivals import OUT_OF_PLAY, box_of, recruitment_problem, replacement_points
from adjudicator.systems.onslaught.supply import captured_points
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.hexes import Hexside
from wargame.models import Box
from play_support import play as replay_from
from play_support import position, when


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


# -- 1. the clause broken ----------------------------------------------------------------------
def test_a_modifier_left_out_cites_7_1(game: Game) -> None:
    """7.1: 2:1 against bocage, die 5: the result claimed without the -1 (HH) breaks 7.1, not 7.2."""
    placed = {"us-inf-01": "0620", "us-inf-02": "0620", "de-inf-04": "0621"}
    shown, _, findings = play(game, placed, "Allied: activate 0620\n"
                                            "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result HH\n")
    assert errors(shown) == [("7.1", "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result HH")]
    assert "left out: -1 because defending stack in Bocage" in next(f.message for f in findings
                                                                   if f.severity == "error")
    # A result no misreading of a modifier gives stays a 7.2 error.
    shown, _, _ = play(game, placed, "Allied: activate 0620\n"
                                     "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DE\n")
    assert errors(shown) == [("7.2", "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DE")]


def wall_sides(game: Game) -> tuple[str, str, str]:
    """3910 and two neighbours: one across a fortified hexside, one across a plain one."""
    grid = game.grid
    wall = grid.hex_of("3910")
    fortified = plain = None
    for n in wall.neighbours():
        if n not in grid or "sea" in game.hex_terrain.get(n, ()):
            continue
        features = game.hexside_features.get(Hexside.between(n, wall), frozenset())
        if "fortified" in features and fortified is None:
            fortified = grid.label_of(n)
        elif not features and plain is None:
            plain = grid.label_of(n)
    assert fortified is not None and plain is not None
    return "3910", fortified, plain


def test_doubling_across_a_mix_of_hexsides_cites_7_5(game: Game) -> None:
    """7.5: 4 + 4 attack two 4s in a fortification, one across a plain hexside: no doubling, 1:1;
    the odds claimed with the doubling (1:2) break 7.5, and the result read on that column is
    the same misreading, not a second error."""
    wall, fortified, plain = wall_sides(game)
    placed = {"us-inf-01": fortified, "us-inf-02": plain, "de-inf-01": wall, "de-inf-02": wall}
    text = (f"Allied: activate {fortified}\nAllied: activate {plain}\n"
            f"Allied: attack {wall} with us-inf-01 us-inf-02 odds 1:2 die 4 result AH\n")
    shown, _, _ = play(game, placed, text)
    assert errors(shown) == [("7.5", text.splitlines()[-1])]
    # Without an odds claim, a result read on the doubled column is the same 7.5 breach.
    text = text.replace(" odds 1:2", "")
    shown, _, _ = play(game, placed, text)
    assert errors(shown) == [("7.5", text.splitlines()[-1])]


def test_misread_clause_both_ways(game: Game) -> None:
    """7.5 the other way round: every attacker across a fortified side, the doubling left out."""
    grid = game.grid
    wall, fortified, plain = wall_sides(game)
    doubled = audit(game, grid.hex_of(wall), [("d", 4)], [("a", grid.hex_of(fortified), 8)], 4,
                    defender_in_fortification=True)
    assert doubled.doubled and doubled.column == "1:1"
    assert misread_clause(game, doubled, "2:1", None) is not None
    assert misread_clause(game, doubled, "2:1", None)[0] == "7.5"  # type: ignore[index]
    assert misread_clause(game, doubled, "3:1", None) is None
    mixed = audit(game, grid.hex_of(wall), [("d", 4)], [("a", grid.hex_of(fortified), 4),
                                                          ("b", grid.hex_of(plain), 4)], 4,
                  defender_in_fortification=True)
    assert not mixed.doubled and mixed.column == "2:1"
    assert misread_clause(game, mixed, "1:1", None) == ("7.5", "not every attacker is across a fortified "
                                                              "hexside, so the defence is not doubled")


def test_a_wrong_odds_claim_is_one_error_not_two(game: Game) -> None:
    """One breach, one error: a result read correctly on a wrongly claimed column is not a
    second error (the odds' 7.0 finding covers it)."""
    shown, _, _ = play(game, OPEN, "Allied: activate 2019\n"
                                   "Allied: attack 2020 with us-inf-01 us-inf-02 odds 3:1 die 3 result DR\n")
    assert errors(shown) == [("7.0", "Allied: attack 2020 with us-inf-01 us-inf-02 odds 3:1 die 3 result DR")]


# -- 2. wrong verdicts ---------------------------------------------------------------------------
def test_a_roll_off_between_two_passes_does_not_reset_them(game: Game) -> None:
    """5.0 (ruling: only an action resets the count): pass, roll-off, pass ends the Action Step."""
    shown, state, _ = play_turn(game, 5, LANDINGS, "Allied: pass\nRoll Allied 2 German 5\nGerman: pass\n")
    assert shown == [] and state.log.step_over
    shown, state, _ = play_turn(game, 5, LANDINGS, "Allied: pass\nRoll Allied 2 German 5\nGerman: pass\n"
                                                   "Roll Allied 4 German 1\n")
    assert shown == [("5.0", "Roll Allied 4 German 1")]
    shown, state, _ = play_turn(game, 5, LANDINGS, "Allied: pass\nRoll Allied 2 German 5\n"
                                                   "German: action movement\n")
    assert shown == [] and not state.log.step_over


RHYTHM = [
    # (the Action Step's entries, the entry refused or None) -- 5.0: the Allied player acts first, the players roll
    # after each action or pass, the winner acts or passes, and only a tie, two passes or both players out of supply
    # points end the step.
    ("Allied: pass\nGerman: action movement\n", "German: action movement"),
    ("Allied: action movement\nGerman: pass\n", "German: pass"),
    ("Roll Allied 2 German 5\nGerman: pass\n", "Roll Allied 2 German 5"),
    ("Allied: pass\nRoll Allied 5 German 2\nRoll Allied 1 German 6\n", "Roll Allied 1 German 6"),
    ("Allied: action movement\nStep german_reserve\n", "Step german_reserve"),
    ("Allied: pass\nRoll Allied 1 German 6\nStep german_reserve\n", "Step german_reserve"),
    ("Step german_reserve\n", "Step german_reserve"),
    # Legal: a pass answered at once by the other player's (both pass), the step ended by a tie, a winner who
    # cannot act rolled past (4.1, below with no Allied points).
    ("Allied: pass\nGerman: pass\nStep german_reserve\n", None),
    ("Allied: action movement\nRoll Allied 3 German 3\nStep german_reserve\n", None),
    ("Allied: pass\nRoll Allied 5 German 2\nAllied: action movement\nRoll Allied 2 German 5\nGerman: pass\n"
     "Roll Allied 4 German 1\nAllied: pass\nStep german_reserve\n", None),
]


@pytest.mark.parametrize(("text", "refused"), RHYTHM)
def test_the_action_step_s_rhythm(game: Game, text: str, refused: str | None) -> None:
    """5.0: who acts next and when the Action Step ends; each breach is one 5.0 error on the entry that makes it."""
    shown, _, _ = play_turn(game, 5, LANDINGS, text)
    assert shown == ([] if refused is None else [("5.0", refused)])


def test_a_winner_without_supply_points_is_rolled_past(game: Game) -> None:
    """4.1's example: the winner has no supply points and cannot act, so the dice are rolled again; with points,
    the re-roll takes his action away (5.0)."""
    earlier = {row.unit: OUT_OF_PLAY for _, row in game.reinforcements if row.turn < 5}
    for allied, refused in ((0, []), (3, [("5.0", "Roll Allied 2 German 6")])):
        state = position(ONSLAUGHT, game, placed={**earlier, **LANDINGS}, over_setup=False, depleted=frozenset(),
                         turn=4, step="reinforcement", supply={"Allied": allied, "German": 20})
        played = replay_from(ONSLAUGHT, state, '[Game "onslaught"]\nTurn 5\nStep action\nAllied: pass\n'
                                               'Roll Allied 5 German 2\nRoll Allied 2 German 6\nGerman: pass\n')
        assert played.errors() == refused


RESERVE = "Allied: pass\nGerman: pass\nStep german_reserve\n"
"""The Action Step passed, the German Reserve Step begun."""


@pytest.mark.parametrize(("text", "refused"), [
    # Ruling 5.2 (5.0 likens the step to a Movement action): each stack that moves is activated, for a point.
    ("de-inf-01 strategic 2020-2120-2220\n", ("6.1", "de-inf-01 strategic 2020-2120-2220")),
    ("German: activate 3010\nde-inf-01 strategic 2020-2120-2220\n", ("6.1", "de-inf-01 strategic 2020-2120-2220")),
    ("German: activate 0620\n", ("5.2", "German: activate 0620")),
    ("German: activate 2020 de-inf-02\n", ("5.2", "German: activate 2020 de-inf-02")),
    ("German: activate 2020 supply 2\n", ("5.2", "German: activate 2020 supply 2")),
    ("German: activate 2020\nde-inf-01 strategic 2020-2120\nGerman: activate 2120\n",
     ("5.2", "German: activate 2120")),
    ("German: activate 2020 supply 1\nde-inf-01 strategic 2020-2120-2220\n", None),
])
def test_the_german_reserve_step_is_judged_as_a_movement_action(game: Game, text: str,
                                                                refused: tuple[str, str] | None) -> None:
    """5.0, 5.2: the Reserve Step's activations are a Movement action's: German divisions in the hex, the named
    ones there, once each, their cost claimed right; a division moves only once its stack is activated."""
    placed = {**LANDINGS, "de-inf-01": "2020", "de-inf-03": "3010"}
    shown, state, _ = play_turn(game, 5, placed, RESERVE + text)
    assert shown == ([] if refused is None else [refused])
    if refused is None:
        assert state.supply["German"] == 19


def test_a_stack_out_of_supply_moves_one_hex_in_the_german_reserve_step(game: Game) -> None:
    """8.6 in the Reserve Step (5.0: like a Movement action): a German stack cut off by Allied zones of control
    when activated moves one hex; a stack in supply moves its strategic allowance."""
    walled = {**LANDINGS, "us-para-01": "0424", "us-para-02": "0427", "br-para-02": "0430",
              "ss-pz-03": "0130", "de-inf-01": "2020"}
    shown, _, findings = play_turn(game, 7, walled, RESERVE + "German: activate 0130\n"
                                                              "ss-pz-03 strategic 0130-0129-0128-0127-0126\n")
    assert shown == [("8.6", "ss-pz-03 strategic 0130-0129-0128-0127-0126")]
    assert "out of supply when activated and may move one hex, not 4" in findings[-1].message
    shown, _, _ = play_turn(game, 7, walled, RESERVE + "German: activate 0130\nss-pz-03 strategic 0130-0129\n")
    assert shown == []
    shown, _, _ = play_turn(game, 7, walled, RESERVE + "German: activate 2020\n"
                                                       "de-inf-01 strategic 2020-2120-2220-2320\n")
    assert shown == []


def test_removing_an_overstack_after_a_german_replacement(game: Game) -> None:
    """6.3 with 4.0: a German replacement that overstacks a hex is resolved by `remove`, whatever
    part of the Reinforcement Step has begun; the removal is no order error."""
    here = {f"de-inf-0{n}": "4510" for n in (1, 2, 3)}
    placed = {**LANDINGS, **here, "de-inf-05": "eliminated_german"}
    shown, state, _ = play_turn(game, 5, placed, REINFORCEMENT_STEP + "German: replace de-inf-05 full 4510\n"
                                                                       "German: remove de-inf-01\n"
                                                                       "German: income 8\n")
    assert shown == [] and state.location["de-inf-01"] == "eliminated_german"


def test_a_claim_of_nothing_captured(game: Game) -> None:
    """8.7: `capture HEX points 0` where the Allies collected nothing is a correct claim."""
    placed = {"us-inf-02": "0720", "br-inf-01": "0820", "de-inf-01": "0620"}
    text = REINFORCEMENT_STEP + "German: capture 0620 points 0\n"
    base_state = play_turn(game, 5, placed, text)
    assert base_state[0] == []
    assert play_turn(game, 5, placed, REINFORCEMENT_STEP + "German: capture 0620 points 1\n")[0] == \
        [("8.7", "German: capture 0620 points 1")]


def test_set_up_divisions_have_occupied_their_hexes(game: Game) -> None:
    """8.1 / 8.4: a division set up in a port (a custom scenario) has occupied it: the port is the
    Allies' once it leaves, as if it had entered it."""
    base = ONSLAUGHT.initial_state(game, [])
    assert base.controlled.get("0318") == "German"  # Cherbourg, German at set-up
    allied = next(u for u, where in sorted(base.location.items()) if where == "0620")
    assert base.controlled.get("0620") == "Allied"
    # A custom set-up: an Allied division in a French city at the start, gone later, last occupied it.
    france = game.area_hexes("france")
    city = next(game.grid.label_of(h) for h in sorted(france, key=lambda h: (h.q, h.r))
                if "city" in game.hex_terrain.get(h, ()) and game.grid.label_of(h) not in base.location.values())
    setup = tuple((row, replace(placement, location=city) if placement.piece == allied else placement)
                  for row, placement in game.setup)
    state = ONSLAUGHT.initial_state(replace(game, setup=setup), [])
    assert state.controlled.get(city) == "Allied"
    left = replace(state, location={**state.location, allied: "0620"})
    problem = recruitment_problem(left, "fr-inf-01", city) or ""
    assert "last to occupy" not in problem


def test_retreat_options_count_earlier_retreats_of_the_result(game: Game) -> None:
    """7.3 with 6.3: a hex filled by the stack-mates' retreats is no longer open; the division
    that can then only retreat one hex does so and is depleted (no 'can retreat two' error)."""
    placed = {"us-inf-01": "2019", "us-inf-02": "2019", "de-inf-01": "2020", "de-inf-02": "2020",
              "de-inf-03": "2020", "de-inf-04": "2022", "de-inf-05": "2022"}
    # 2022 holds two; de-inf-01 fills it; de-inf-02 and -03 must find other hexes two away.
    dr = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 result DR\n"
    shown, state, _ = play(game, placed, dr + "German> retreat de-inf-01 2020-2021-2022\n")
    from adjudicator.systems.onslaught.combat import retreat_options_of
    assert state.combat is not None
    two, _ = retreat_options_of(state, state.combat)
    assert "2022" not in two


def test_a_reduced_collection_announced_for_one_source(game: Game) -> None:
    """8.7: `reduce SOURCE N` collects N from that source (8.1's income less the rest), and a
    capture next turn takes half of N, rounded up; more than the source yields is an error."""
    placed = dict(LANDINGS)
    shown, state, _ = play_turn(game, 5, placed, REINFORCEMENT_STEP + "German: income 8\n"
                                                                       "Allied: income 10 reduce 0620 2\n")
    assert shown == [] and state.collected[5]["0620"] == 2
    assert captured_points(when(state, turn=6), "0620") == 1
    shown, _, _ = play_turn(game, 5, placed, REINFORCEMENT_STEP + "German: income 8\nAllied: income 12\n")
    assert shown == []
    assert play_turn(game, 5, placed, REINFORCEMENT_STEP + "German: income 8\nAllied: income 12 reduce 0620 9\n")[0] \
        == [("8.7", "Allied: income 12 reduce 0620 9")]
    assert play_turn(game, 5, placed, REINFORCEMENT_STEP + "German: income 8\nAllied: income 12 reduce 9999 0\n")[0] \
        == [("8.7", "Allied: income 12 reduce 9999 0")]


# -- 4. one breach, one error ------------------------------------------------------------------
def test_after_a_wrong_claim_either_result_may_be_carried_out(game: Game) -> None:
    """A claimed DR where the table gives '-' (2:1, die 3) is one 7.2 error, whether the players
    then carry out their claim (a retreat) or the table's result (nothing)."""
    attack = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 die 3 result DR\n"
    wrong = ("7.2", "Allied: attack 2020 with us-inf-01 us-inf-02 die 3 result DR")
    shown, _, _ = play(game, OPEN, attack + "Roll Allied 2 German 5\n")
    assert errors(shown) == [wrong]
    shown, _, _ = play(game, OPEN, attack + "German> retreat de-inf-01 2020-2021-2022\nRoll Allied 2 German 5\n")
    assert errors(shown) == [wrong]
    # DE claimed where the table gives DH (die 6): the players deplete and retreat, as the table says.
    attack = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 die 6 result DE\n"
    shown, state, _ = play(game, OPEN, attack + "German> deplete de-inf-01\nGerman> retreat de-inf-01 2020-2021-2022\n"
                                                "Roll Allied 2 German 5\n")
    assert [r for r, _ in errors(shown)] == ["7.2"] and state.location["de-inf-01"] == "2022"
    # Following neither is still an error of its own.
    shown, _, _ = play(game, OPEN, attack + "German> retreat de-inf-01 2020-2019\n")
    assert len(errors(shown)) >= 2


def test_a_move_from_the_wrong_hex_then_corrected(game: Game) -> None:
    """One breach, one error: the correction of a move written from the wrong hex is its move."""
    shown, state, _ = play_turn(game, 1, {**LANDINGS, "de-inf-01": "2020"},
                                "Allied: action movement\nAllied: activate 0620\nus-inf-01 0720-0719\n"
                                "us-inf-01 0620-0720\n")
    assert shown == [("6.1", "us-inf-01 0720-0719")] and state.location["us-inf-01"] == "0720"


# -- 1. citations corrected in the audit ------------------------------------------------------------
FIELD = {**OPEN, "br-inf-01": "0820", "us-arm-01": "2119", "br-arm-01": "1919"}
"""OPEN's divisions, an Allied one on a landing hex, two armor divisions by the German one."""


def test_an_attack_in_a_movement_action_cites_5_3(game: Game) -> None:
    """5.3: "No enemy divisions can be attacked" in a Movement action (was 5.1)."""
    shown, _, _ = play_turn(game, 5, FIELD, "Allied: action movement\nAllied: activate 2019\n"
                                            "Allied: attack 2020 with us-inf-01 us-inf-02\n")
    assert shown == [("5.3", "Allied: attack 2020 with us-inf-01 us-inf-02")]


def test_an_attacker_not_activated_cites_5_4(game: Game) -> None:
    """5.4: "All attacking divisions must be activated" (was 5.2)."""
    shown, _, _ = play(game, OPEN, "Allied: activate 2019 us-inf-01\n"
                                   "Allied: attack 2020 with us-inf-01 us-inf-02 result DR\n")
    assert [r for r, _ in errors(shown)] == ["5.4"]


def test_a_move_without_activation_cites_6_1(game: Game) -> None:
    """6.1: "A division must be activated in order to move" (was 5.2)."""
    shown, _, _ = play_turn(game, 5, FIELD, "Allied: action movement\nAllied: activate 2019 us-inf-01\n"
                                            "us-inf-02 2019-2018\n")
    assert shown == [("6.1", "us-inf-02 2019-2018")]


def test_a_breakthrough_activation_cost_cites_5_5(game: Game) -> None:
    """5.5: a breakthrough stack costs two points (was 5.2)."""
    shown, _, _ = play_turn(game, 5, FIELD, "Allied: action breakthrough\nAllied: activate 2119 supply 1\n")
    assert shown == [("5.5", "Allied: activate 2119 supply 1")]


def test_a_move_in_two_parts_is_refused_as_the_register_rules(game: Game) -> None:
    """Ruling 6.1 (audit 18, mv-09): a division's move of one action is one path; a second part is refused, its
    message saying why."""
    text = ("Allied: action movement\nAllied: activate 2019\nus-inf-01 2019-2018\nus-inf-02 2019-2018\n"
            "us-inf-01 2018-2017\n")
    shown, _, findings = play_turn(game, 5, FIELD, text)
    assert shown == [("6.1", "us-inf-01 2018-2017")]
    assert "written as one path" in next(f.message for f in findings if f.severity == "error")


def test_an_unnamed_breakthrough_activation_activates_the_armor(game: Game) -> None:
    """Ruling 5.5 (audit 18): `activate HEX` in a Breakthrough action activates the hex's armor (5.6: the infantry
    stacked with it "is not activated"), not a 5.5 breach for the infantry; the infantry then may not move. With 14.3
    in force the infantry is activated with the armor, to join its attack."""
    placed = {**FIELD, "us-inf-03": "2119", "us-inf-04": "2119"}
    head = "Allied: action breakthrough\nAllied: activate 2119 supply 2 move-first\n"
    shown, state, _ = play_turn(game, 5, placed, head + "us-arm-01 2119-2219\n")
    assert shown == []
    assert state.action is not None and state.action.activated == {"us-arm-01"}
    assert play_turn(game, 5, placed, head + "us-inf-03 2119-2219\n")[0] == [("6.1", "us-inf-03 2119-2219")]
    _, state, _ = play_optional(game, 5, placed, head.replace("move-first", "attack-first"), ("infantry_breakthrough",))
    assert state.action is not None and state.action.activated == {"us-arm-01", "us-inf-03", "us-inf-04"}
    # Named, the infantry is still refused (5.5); a hex with no armor has nothing to infer.
    named = "Allied: action breakthrough\nAllied: activate 2119 us-arm-01 us-inf-03 supply 2\n"
    assert play_turn(game, 5, placed, named)[0] == [("5.5", "Allied: activate 2119 us-arm-01 us-inf-03 supply 2")]
    assert play_turn(game, 5, placed, "Allied: action breakthrough\nAllied: activate 2019 supply 2\n")[0] == \
        [("5.5", "Allied: activate 2019 supply 2")]


# -- 5. coverage: 8.6 ---------------------------------------------------------------------------
CUT_OFF = {"de-inf-01": "0620", "de-inf-02": "0720", "de-inf-03": "0820", "us-inf-01": "2019", "us-inf-02": "2019",
           "de-inf-04": "2020"}
"""German divisions on the three landing hexes: the Allies have no supply source (8.4), so the
stack at 2019 is out of supply when activated."""


def test_an_unsupplied_stack_moves_one_hex(game: Game) -> None:
    """8.6: a stack out of supply when activated moves only one hex in a Movement action."""
    text = "Allied: action movement\nAllied: activate 2019\nus-inf-01 2019-2018-2017\n"
    assert play_turn(game, 5, CUT_OFF, text)[0] == [("8.6", "us-inf-01 2019-2018-2017")]
    assert play_turn(game, 5, CUT_OFF, text.replace("2019-2018-2017", "2019-2018"))[0] == []
    # In supply (a landing hex left to the Allies), the same two hexes are legal.
    supplied = {u: h for u, h in CUT_OFF.items() if h not in ("0620", "0720", "0820")}
    assert play_turn(game, 5, supplied, text)[0] == []


def test_an_unsupplied_stack_attacks_with_minus_one(game: Game) -> None:
    """8.6 (with 7.1): out of supply when activated, the stack attacks with -1 for that action:
    8 against 4 on clear ground is 2:1; die 5 gives HH, less one gives DR."""
    text = "Allied: action combat\nAllied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 die 5 result {}\n"
    assert play_turn(game, 5, CUT_OFF, text.format("DR"))[0] == []
    assert play_turn(game, 5, CUT_OFF, text.format("HH"))[0] == \
        [("7.1", "Allied: attack 2020 with us-inf-01 us-inf-02 die 5 result HH")]


# -- 6. boxes chosen exactly ----------------------------------------------------------------------
def test_boxes_are_chosen_by_kind_side_and_what_they_hold(game: Game) -> None:
    """6.3, 10.3, 11.1: an eliminated division goes to its side's Eliminated Units box for units, a
    delayed one to the Delayed Reinforcements box, even when a box of the same kind and side for
    markers comes first in game.toml (the old look-up took the first box of the kind and side)."""
    decoys = [Box(id=f"lost_markers_{side.lower()}", name=f"{side} markers lost", kind=kind, side=side,
                  holds="markers", source="reconstructed")
              for side in ("Allied", "German") for kind in ("eliminated", "delayed")]
    boxed = replace(game, manifest=replace(game.manifest, box=[*decoys, *game.manifest.box]))
    assert box_of(boxed, "eliminated", "Allied") == "eliminated_allied"
    assert box_of(boxed, "eliminated", "German") == "eliminated_german"
    assert box_of(boxed, "delayed", "Allied") == "delayed_allied"
    text = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 odds 1:1 die 1 result AE\n"
    _, state, _ = play(boxed, OPEN, text + "Allied: eliminate us-inf-01\n")
    assert state.location["us-inf-01"] == "eliminated_allied"
    # 11.1: the extra replacement points count the divisions in the units box.
    lost = {**{f"de-inf-{n:02d}": "eliminated_german" for n in range(1, 4)}, **LANDINGS}
    assert replacement_points(when(ONSLAUGHT.initial_state(boxed, []), location=lost, turn=1), "German") == 3


# -- 7. 14.4: the emergency points are the clause that runs out ---------------------------------
def test_spending_beyond_the_emergency_points_cites_14_4(game: Game) -> None:
    """14.4: the Allied winner of a turn-20 roll with no points acts on three emergency points; a
    fourth activation (or a paradrop beyond them) breaks 14.4, not 5.2 (was 5.2 / 9.2)."""
    placed = {**LANDINGS, **FAR_GERMAN, "us-inf-03": "0621", "us-para-01": "paratroop"}
    won = "Allied: pass\nRoll Allied 5 German 2\nAllied: action movement\n"
    text = won + "".join(f"Allied: activate {h}\n" for h in ("0620", "0720", "0820", "0621"))
    shown, _, findings = play_optional(game, 20, placed, text, ("emergency_supplies",), supply=(0, 0))
    assert shown == [("14.4", "Allied: activate 0621")]
    assert "3 emergency supply point(s), 0 left" in next(f.message for f in findings if f.severity == "error")
    drop = won + "".join(f"Allied: activate {h}\n" for h in ("0620", "0720", "0820"))
    drop += "Allied: paradrop us-para-01 2525\n"
    assert play_optional(game, 20, placed, drop, ("emergency_supplies",), supply=(0, 0))[0] == \
        [("14.4", "Allied: paradrop us-para-01 2525")]
    # Out of points without the rule in force (or on the turn's first action, not won by a roll): 5.2.
    assert play_optional(game, 20, placed, text, supply=(0, 0))[0][0] == ("5.0", "Roll Allied 5 German 2")
    first = "Allied: action movement\nAllied: activate 0620\n"
    assert play_optional(game, 20, placed, first, ("emergency_supplies",), supply=(0, 0))[0] == \
        [("5.2", "Allied: activate 0620")]


# -- 8. 8.2: points the cap took are not there to spend -------------------------------------------
def test_spending_points_lost_to_the_cap_cites_5_2(game: Game) -> None:
    """8.2: 38 German points and an income of 8 make 40, not 46; the six lost are not spent later. The 41st point
    breaks 5.2 (points "not available"), the clause of spending, with the cap named as the reason (was 8.2: a player
    who had simply spent all 40 was told the cap was at fault)."""
    # 47 German divisions far east, one a hex: 47 stacks, each activated once in the German Reserve Step for a point
    # (the same stack activated again spends nothing, 5.2).
    hexes = [f"{column}{row:02d}" for column in (49, 48) for row in range(1, 31)][:47]
    far = {f"de-inf-{k + 1:02d}": where for k, where in enumerate(hexes)}
    placed = {**LANDINGS, **far}
    reserve = (REINFORCEMENT_STEP + "German: income 8\nTurn 20\nStep action\nAllied: pass\nRoll Allied 2 German 2\n"
               "Step german_reserve\n")

    def spending(findings: list[Finding]) -> list[tuple[str, str]]:
        return [(f.rule, f.message) for f in findings if f.severity == "error"]

    def activations(n: int) -> str:
        return "".join(f"German: activate {where}\n" for where in hexes[:n])

    _, state, findings = play_optional(game, 19, placed, reserve + activations(41), supply=(20, 38))
    (rule, message), = spending(findings)
    assert rule == "5.2" and message == ("German has 0 supply point(s) and the activation costs 1 (the 6 point(s) "
                                         "above the limit of 40 were lost when gained, 8.2, and never on the track)")
    assert state.capped_away == {"German": 6}
    # Beyond the 46 the uncapped track would have held: 5.2, the cap no longer named.
    _, _, findings = play_optional(game, 19, placed, reserve + activations(47), supply=(20, 38))
    assert [rule for rule, _ in spending(findings)] == ["5.2"] * 7
    assert "limit" not in spending(findings)[-1][1]
    # An income within the limit loses nothing: the next gain resets what the cap took.
    _, state, _ = play_optional(game, 19, placed, REINFORCEMENT_STEP + "German: income 8\n", supply=(20, 8))
    assert state.capped_away == {"German": 0}


# -- 9. 8.4, 8.5: an income claim that counts a source the rules take away -------------------------
def test_an_income_counting_a_lost_source_cites_the_clause(game: Game) -> None:
    """8.4: a landing hex a German division entered last is no source; 8.5: Rouen, held by the
    Allies, is none while Le Havre's port area holds Germans. An income claim that counts either
    breaks that clause (was 8.1); any other wrong claim stays 8.1."""
    lost = {"us-inf-02": "0720", "br-inf-01": "0820", "de-inf-04": "0620", **FAR_GERMAN}
    shown, _, findings = play_turn(game, 5, lost, REINFORCEMENT_STEP + "Allied: income 12\n")
    assert shown == [("8.4", "Allied: income 12")]
    assert "0620 is no supply source" in next(f.message for f in findings if f.severity == "error")
    assert play_turn(game, 5, lost, REINFORCEMENT_STEP + "Allied: income 10\n")[0] == [("8.1", "Allied: income 10")]
    rouen = {**LANDINGS, "us-inf-03": "1520", "de-inf-08": "1119"}
    shown, _, findings = play_turn(game, 5, rouen, REINFORCEMENT_STEP + "Allied: income 14\n")
    assert shown == [("8.5", "Allied: income 14")]
    assert "1520 is no supply source: German divisions are in its port area" in \
        next(f.message for f in findings if f.severity == "error")
    assert play_turn(game, 5, rouen, REINFORCEMENT_STEP + "Allied: income 12\n")[0] == []


# -- 10. 8.3: a rebuild out of supply only because enemy ZOC cuts the line ------------------------
def test_a_rebuild_cut_off_by_enemy_zoc_cites_8_3(game: Game) -> None:
    """8.3 (with 11.2): depleted us-para-01 at 0419, every neighbour German or in German ZOC with no
    Allied division in it, is out of supply only because the line may not pass enemy ZOC: its rebuild
    breaks 8.3 (was 11.2). With 0520 held by an Allied division the line passes and the rebuild is
    legal; surrounded by German divisions (no line even without ZOC) it stays 11.2."""
    cut = {**LANDINGS, "us-para-01": "0419", "de-inf-01": "0318", "de-inf-02": "0319", "de-inf-03": "0420"}
    rebuild = REINFORCEMENT_STEP + "Allied: replace us-para-01 full points 2\n"
    shown, _, findings = play_turn(game, 5, cut, rebuild, depleted=("us-para-01",))
    assert shown == [("8.3", "Allied: replace us-para-01 full points 2")]
    assert "enemy zone of control" in next(f.message for f in findings if f.severity == "error")
    assert play_turn(game, 5, {**cut, "us-inf-03": "0520"}, rebuild, depleted=("us-para-01",))[0] == []
    ringed = {**cut, "de-inf-04": "0520", "de-inf-05": "0418", "de-inf-06": "0320"}
    assert play_turn(game, 5, ringed, rebuild, depleted=("us-para-01",))[0] == \
        [("11.2", "Allied: replace us-para-01 full points 2")]


def test_a_division_moves_once_in_a_breakthrough_too(tmp_path: Path) -> None:
    """5.5, 6.1: a breakthrough stack makes one Movement action's move (before or after its attack); a
    second move of a division that has moved is an error, as in a Movement action."""
    from adjudicator.cli import adjudicate_file

    example = Path(__file__).resolve().parent.parent / "examples" / "onslaught" / "legal-rule-5.6-breakthrough.log"
    lines = example.read_text(encoding="utf-8").splitlines()
    cut = lines.index("us-arm-02 0620-0621-0622") + 1
    log = tmp_path / "breakthrough.log"
    log.write_text("\n".join([*lines[:cut], "us-arm-01 0622-0623"]) + "\n", encoding="utf-8")
    result, _ = adjudicate_file(log, None)
    found = [(f.line, f.rule) for f in result.findings if f.severity == "error"]
    assert found == [(cut + 1, "6.1")], result.findings


def test_distances_are_said_as_the_rules_count_them() -> None:
    """6.4 ("at least three movement points away"): the message says two are too near and three would do, never
    "within 3", which reads as if three were too near."""
    from click.testing import CliRunner

    from adjudicator.cli import main as adjudicate
    log = Path(__file__).resolve().parent.parent / "examples" / "onslaught" / "breach-strategic.log"
    result = CliRunner().invoke(adjudicate, ["check", str(log)])
    assert "moves strategically 2 movement points or less from an enemy division at 0720 (3 or more needed)" in \
        result.stdout


def test_a_misspelt_action_type_is_suggested(game: Game) -> None:
    """5.1: an action type that is none of the three names the nearest one."""
    _, _, findings = play_turn(game, 5, LANDINGS, "Allied: action movment\n")
    assert [(f.rule, f.message) for f in findings if f.severity == "error"] == \
        [("5.1", "'movment' is not an action (did you mean 'movement'?): an action is a movement, combat or "
                 "breakthrough action")]
