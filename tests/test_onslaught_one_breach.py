"""Onslaught, session 20: a move into an enemy-held hex cites what bars it (6.1, not 6.2's zone), wherever a division
can be moved (movement, breakthrough, retreat); a division activated twice is one breach (5.2), its second move or
attack part of it; a retreat is judged without the attackers the result eliminates, whatever the log's order."""

from __future__ import annotations

import pytest

from adjudicator.notation.entries import Attack
from adjudicator.notation.text import parse_line
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.account import combat_report
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import Played, play as replay
from play_support import position

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\n'


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, placed: dict[str, str], text: str, depleted: tuple[str, ...] = (),
         finish: bool = True) -> Played[OnslaughtState]:
    """Replay `text` after HEAD with only the divisions `placed` says on the map (`depleted` ones depleted)."""
    state = position(ONSLAUGHT, game, placed=placed, over_setup=False, depleted=frozenset(depleted))
    return replay(ONSLAUGHT, state, HEAD + text, finish=finish)


OPEN = {"us-inf-01": "2019", "us-inf-02": "2019", "de-inf-01": "2020", "us-arm-01": "2017"}
"""Open ground: two Allied infantry divisions north of a German one, Allied armor two hexes further."""


def test_a_move_into_an_enemy_held_hex_cites_6_1_once(game: Game) -> None:
    """From the enemy's zone straight into its hex, or on through it: one error, 6.1, naming the enemy-held hex."""
    played = play(game, OPEN, "Allied: action movement\nAllied: activate 2019\nus-inf-01 2019-2020\n")
    assert played.errors() == [("6.1", "us-inf-01 2019-2020")]
    assert "2020, which enemy divisions hold" in next(f.message for f in played.findings if f.severity == "error")
    # On through the enemy's hex: still the one breach, not 6.2's "moved on" from a zone as well.
    played = play(game, OPEN, "Allied: action movement\nAllied: activate 2019\nus-inf-01 2019-2020-2021\n")
    assert played.errors() == [("6.1", "us-inf-01 2019-2020-2021")]


def test_a_breakthrough_move_into_an_enemy_held_hex_cites_6_1(game: Game) -> None:
    """5.5: the movement half of a breakthrough is judged as a move: the enemy-held hex is 6.1's breach."""
    played = play(game, OPEN, "Allied: action breakthrough\nAllied: activate 2017\nus-arm-01 2017-2018-2020\n")
    assert [rule for rule, _ in played.errors()] == ["6.1"]
    played = play(game, OPEN, "Allied: action breakthrough\nAllied: activate 2017\nus-arm-01 2017-2018-2019-2020\n")
    assert played.errors() == [("6.1", "us-arm-01 2017-2018-2019-2020")]


def test_a_retreat_into_an_enemy_held_hex_says_so(game: Game) -> None:
    """7.3: a retreat into a hex enemy divisions hold is refused, the message naming the enemy-held hex."""
    placed = {**OPEN, "us-inf-03": "2022"}
    played = play(game, placed, "Allied: action combat\nAllied: activate 2019\n"
                                "Allied: attack 2020 with us-inf-01 us-inf-02 result DR\n"
                                "German> retreat de-inf-01 2020-2021-2022\n")
    assert [rule for rule, _ in played.errors()] == ["7.3"]
    assert "2022, which enemy divisions hold" in " ".join(f.message for f in played.findings)


def test_a_division_activated_twice_moves_again_as_one_breach(game: Game) -> None:
    """5.2: activated again in one Movement action, and moving again: one error, on the activation."""
    played = play(game, OPEN, "Allied: action movement\nAllied: activate 2017\nus-arm-01 2017-2016\n"
                              "Allied: activate 2016\nus-arm-01 2016-2015\n")
    assert played.errors() == [("5.2", "Allied: activate 2016")]


def test_a_division_activated_twice_attacks_again_as_one_breach(game: Game) -> None:
    """5.2 and 7.0: activated again in one Combat action, and attacking again: one error, on the activation."""
    played = play(game, OPEN, "Allied: action combat\nAllied: activate 2019\n"
                              "Allied: attack 2020 with us-inf-01 us-inf-02 die 3 result -\n"
                              "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 die 3 result -\n")
    assert played.errors() == [("5.2", "Allied: activate 2019")]


def test_a_second_move_without_a_second_activation_is_still_6_1(game: Game) -> None:
    """Ruling 6.1 is unchanged: a division's second path in one activation is refused."""
    played = play(game, OPEN, "Allied: action movement\nAllied: activate 2017\nus-arm-01 2017-2016\n"
                              "us-arm-01 2016-2015\n")
    assert played.errors() == [("6.1", "us-arm-01 2016-2015")]



HH = {"us-arm-01": "2019", "de-inf-01": "2020", "us-inf-05": "0620"}
"""One armor division attacks a German one on open ground; an Allied division far away keeps 13.1 off."""
HH_ATTACK = "Allied: action combat\nAllied: activate 2019\nAllied: attack 2020 with us-arm-01 result HH\n"
HH_DEFENDER = "German> deplete de-inf-01\nGerman> retreat de-inf-01 2020-1920-1919\n"


@pytest.mark.parametrize("allied_first", [True, False])
def test_a_retreat_is_judged_without_the_attackers_the_result_eliminates(game: Game, allied_first: bool) -> None:
    """Ruling 7.2 / 7.3: an HH eliminates the already depleted attacker; the defender's retreat past its hex (its zone,
    ending next to it) is legal whether the log writes the attacker's loss before the retreat or after it."""
    loss = "Allied: eliminate us-arm-01\n"
    played = play(game, HH, HH_ATTACK + (loss + HH_DEFENDER if allied_first else HH_DEFENDER + loss)
                  + "Roll Allied 2 German 5\n", depleted=("us-arm-01",))
    assert played.errors() == []


def test_an_attacker_the_result_only_depletes_still_bars_the_retreat(game: Game) -> None:
    """7.3: at full strength the armor is depleted by the HH and stays: the same retreat, into its zone and ending
    next to it, is one 7.3 error."""
    played = play(game, HH, HH_ATTACK + "Allied: deplete us-arm-01\n" + HH_DEFENDER + "Roll Allied 2 German 5\n")
    assert [rule for rule, _ in played.errors()] == ["7.3"]


def test_the_combat_audit_opens_the_retreats_the_checker_does(game: Game) -> None:
    """Ruling 7.2 / 7.3 in the combat audit too: two depleted armor divisions at 1:1, die 6, HH: both are eliminated,
    so the defender may retreat beside their hex (1919), where a DR (die 5) leaves it closed."""
    played = play(game, {**HH, "us-arm-02": "2019"}, "Allied: action combat\nAllied: activate 2019\n",
                  depleted=("us-arm-01", "us-arm-02"))
    lines = {die: next(line for line in combat_report(played.state, attack(die)) if "7.3 retreat" in line)
             for die in (5, 6)}
    assert "1919" in lines[6] and "1919" not in lines[5]


def attack(die: int) -> Attack:
    """The two armor divisions' attack on 2020 with a die."""
    entry = parse_line(f"Allied: attack 2020 with us-arm-01 us-arm-02 die {die}", 9)
    assert isinstance(entry, Attack)
    return entry


def test_the_movement_model_offers_the_retreats_the_checker_allows(game: Game) -> None:
    """Ruling 7.2 / 7.3 for the VASSAL reader and pictures: before the attacker's elimination is written, the
    retreat past its hex is already offered."""
    played = play(game, HH, HH_ATTACK + "German> deplete de-inf-01\n", depleted=("us-arm-01",), finish=False)
    (option,) = ONSLAUGHT.movement.retreat_options(played.state)
    assert ("2020", "1920", "1919") in option.paths


def test_play_after_the_action_step_ended_is_one_error(game: Game) -> None:
    """5.0: after a tie, a roll-off and an action are one breach (play went on): the roll the error, the action a
    note; a roll-off that does not end it again cannot reopen the step."""
    played = play(game, OPEN, "Allied: pass\nRoll Allied 3 German 3\nRoll Allied 5 German 2\n"
                              "Allied: action movement\nAllied: activate 2019\nus-inf-01 2019-2018\n")
    assert played.errors() == [("5.0", "Roll Allied 5 German 2")]
    assert ("note", "5.0") in played.rules()


def test_a_roll_off_with_no_winner_is_one_error(game: Game) -> None:
    """5.0: a die off the die (0, 7) is the roll's error; the player who acts next is not judged against it."""
    played = play(game, OPEN, "Allied: pass\nRoll Allied 0 German 7\nAllied: pass\n")
    assert played.errors() == [("5.0", "Roll Allied 0 German 7")]


def test_a_division_stopped_in_a_zone_activated_again_and_moving_is_one_breach(game: Game) -> None:
    """5.2 and 6.2: a division that stopped in an enemy zone, activated again and moving on, is the one 5.2 error."""
    played = play(game, OPEN, "Allied: action movement\nAllied: activate 2017\nus-arm-01 2017-2018-2019\n"
                              "Allied: activate 2019 us-arm-01\nus-arm-01 2019-2018\n")
    assert played.errors() == [("5.2", "Allied: activate 2019 us-arm-01")]


def test_infantry_activated_for_a_breakthrough_without_14_3_moving_is_one_breach(game: Game) -> None:
    """5.5: infantry activated in a Breakthrough action is the activation's error; its move is part of it, and 14.3,
    an optional rule not in force, is not cited."""
    played = play(game, {"us-inf-01": "2017", "de-inf-01": "2020"},
                  "Allied: action breakthrough\nAllied: activate 2017 us-inf-01\nus-inf-01 2017-2018\n")
    assert played.errors() == [("5.5", "Allied: activate 2017 us-inf-01")]


def test_a_pickup_depleted_and_in_an_enemy_zone_is_one_error(game: Game) -> None:
    """9.1: a depleted paratroop division picked up in a German zone is one breach: the first fault the error, the
    zone a note on the same line."""
    played = play(game, {"us-para-01": "2019", "de-inf-01": "2020"},
                  "Allied: action movement\nAllied: activate 2019\nAllied: pickup us-para-01\n",
                  depleted=("us-para-01",))
    assert played.errors() == [("9.1", "Allied: pickup us-para-01")]
    assert ("note", "9.1") in played.rules()


def test_a_paradrop_out_of_its_action_and_onto_the_enemy_is_one_error(game: Game) -> None:
    """9.2: a paradrop in a Combat action, from off the box, onto a German-held hex: one breach, one error."""
    played = play(game, {"us-para-01": "2017", "de-inf-01": "2020"},
                  "Allied: action combat\nAllied: paradrop us-para-01 2020\n")
    assert played.errors() == [("9.2", "Allied: paradrop us-para-01 2020")]
    assert [rule for severity, rule in played.rules() if severity == "note"] == ["9.2", "9.2"]


REFUSED = ("Allied: action combat\nAllied: activate 2019\nAllied: activate 2017\n"
           "Allied: attack 2020 with us-inf-01 us-inf-02 us-arm-01 die {die}{claim}\n")
"""us-arm-01 at 2017 cannot reach 2020: 8 against 4 is 2:1, with it 14 against 4 would be 3:1."""


@pytest.mark.parametrize(("die", "claim", "carried_out"), [
    (4, "", "German> retreat de-inf-01 2020-2021-2022\n"),  # 2:1 gives DR (3:1 DH)
    (4, "", "German> deplete de-inf-01\nGerman> retreat de-inf-01 2020-2021-2022\n"),  # as written
    (4, " result DH", "German> retreat de-inf-01 2020-2021-2022\n"),  # the claim (3:1) set aside
    (2, "", "Allied: deplete us-inf-01\nAllied: deplete us-inf-02\n"),  # 2:1 gives AH (3:1 no effect)
])
def test_an_attacker_that_cannot_reach_the_hex_is_one_error(game: Game, die: int, claim: str,
                                                              carried_out: str) -> None:
    """Ruling 7.0: a division named among the attackers that is not adjacent is the attack's one 7.0 error; it adds no
    strength, so the result of the others' odds may be carried out, as may the claim (or the result as written)."""
    played = play(game, OPEN, REFUSED.format(die=die, claim=claim) + carried_out + "Roll Allied 2 German 5\n")
    assert [rule for rule, _ in played.errors()] == ["7.0"]


def test_what_is_owed_after_a_refused_attacker_is_the_others_result(game: Game) -> None:
    """Ruling 7.0: a combat left undone after an attack with a division that cannot reach the hex owes the result of
    the others' odds (DR at 2:1), not the claim's DH."""
    played = play(game, OPEN, REFUSED.format(die=4, claim=" result DH") + "Roll Allied 2 German 5\n")
    owed = [f.message for f in played.findings if f.severity == "error" and f.rule == "7.2"]
    assert len(owed) == 1 and "DR" in owed[0] and "deplete" not in owed[0]


def test_the_combat_audit_shows_the_odds_without_a_refused_attacker(game: Game) -> None:
    """Ruling 7.0 in the combat audit: the report (and the account `adjudicate combat` prints) gives the odds and
    result with the division that cannot reach the hex and without it, the second being what the verdicts rest on."""
    from adjudicator.systems.onslaught.account import combat_account
    played = play(game, OPEN, REFUSED.format(die=4, claim="").splitlines(keepends=True)[0]
                  + "Allied: activate 2019\nAllied: activate 2017\n")
    entry = parse_line("Allied: attack 2020 with us-inf-01 us-inf-02 us-arm-01 die 4", 9)
    assert isinstance(entry, Attack)
    lines = combat_report(played.state, entry)
    with_it = next(line for line in lines if line.strip().startswith("with us-arm-01"))
    without = next(line for line in lines if line.strip().startswith("without us-arm-01"))
    assert "14:4 rounds down to 3:1" in with_it and with_it.endswith("DH")
    assert "8:4 is 2:1" in without and without.endswith("DR") and "the result owed" in without
    assert any("us-arm-01 at 2017 cannot reach 2020" in line for line in lines)
    assert any(line.startswith("without us-arm-01") for line in combat_account(played.state, entry).arithmetic)
    lawful = parse_line("Allied: attack 2020 with us-inf-01 us-inf-02 die 4", 9)
    assert isinstance(lawful, Attack)
    assert not any("without" in line for line in combat_report(played.state, lawful))
