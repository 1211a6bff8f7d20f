"""Onslaught combat effects (7.2-7.5): results carried out, retreats, advances, fortifications.

Each test places divisions where it needs them (mostly on the open ground around 2020 and at the
West Wall fortification 3910), then replays a few entries after `Turn 1 / Step action / Allied:
action combat`. Results are claimed without a die where the arithmetic does not matter (the
effects are checked against the claim; the claim itself gets a warning). The golden logs in
examples/onslaught/ cover the same sections from the campaign set-up.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.results import Effect, fate, owed
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import play as replay
from play_support import position

PREFIX = '[Game "onslaught"]\nTurn 1\nStep action\nAllied: action combat\n'


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, placed: dict[str, str], text: str, depleted: tuple[str, ...] = (),
         setup: bool = False) -> tuple[list[tuple[str, str, str]], OnslaughtState, list[Finding]]:
    """Replay `text` after PREFIX with the divisions where `placed` says (plus the campaign set-up
    if `setup`); the (severity, rule, entry text) of every error and warning, the final state and
    every finding (tests/play_support.py checks that check() never changes the state on the way)."""
    state = position(ONSLAUGHT, game, placed=placed, over_setup=setup, depleted=frozenset(depleted))
    played = replay(ONSLAUGHT, state, PREFIX + text)
    return played.shown(), played.state, played.findings


def errors(shown: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(rule, entry text) of the errors only."""
    return [(rule, text) for severity, rule, text in shown if severity == "error"]


OPEN = {"us-inf-01": "2019", "us-inf-02": "2019", "de-inf-01": "2020"}
"""Two Allied infantry divisions north of a German one, on open ground."""


# -- 7.2 results -----------------------------------------------------------------------------
def test_dr_carried_out_and_advance(game: Game) -> None:
    """7.2 DR: the defender retreats two hexes; 7.4: an attacker may then enter the empty hex."""
    shown, state, _ = play(game, OPEN, "Allied: activate 2019\n"
                                       "Allied: attack 2020 with us-inf-01 us-inf-02 result DR\n"
                                       "German> retreat de-inf-01 2020-2021-2022\n"
                                       "Allied: advance us-inf-01 2019-2020\n"
                                       "Roll Allied 2 German 5\n")
    assert errors(shown) == []
    assert ("warning", "7.2", "Allied: attack 2020 with us-inf-01 us-inf-02 result DR") in shown
    assert state.location["de-inf-01"] == "2022" and state.location["us-inf-01"] == "2020"
    assert state.combat is None and state.pending == ()


def test_result_computed_from_the_die_is_carried_out(game: Game) -> None:
    """With a die and no result claimed, the table's result is the one the log must carry out."""
    shown, _, findings = play(game, OPEN, "Allied: activate 2019\n"
                                          "Allied: attack 2020 with us-inf-01 us-inf-02 die 6\n"
                                          "Roll Allied 2 German 5\n")
    assert any(f.severity == "note" and "the result is DH" in f.message for f in findings)
    assert errors(shown) == [("7.2", "Roll Allied 2 German 5")]
    message = next(f.message for f in findings if f.severity == "error")
    assert "de-inf-01 must retreat two hexes (it can reach " in message and message.endswith("and be depleted")


def test_neither_die_nor_result_is_a_warning_and_effects_are_not_checked(game: Game) -> None:
    """7.2: without die and result the effects cannot be verified: a warning; losses pass."""
    shown, _, findings = play(game, OPEN, "Allied: activate 2019\n"
                                          "Allied: attack 2020 with us-inf-01 us-inf-02\n"
                                          "German> deplete de-inf-01\n"
                                          "Roll Allied 2 German 5\n")
    assert shown == [("warning", "7.2", "Allied: attack 2020 with us-inf-01 us-inf-02")]
    assert "neither a die roll nor a result" in next(f.message for f in findings if f.severity == "warning")


def test_a_wrong_claim_is_one_error_and_its_effects_follow_the_claim(game: Game) -> None:
    """Verify, don't correct: a DE claimed where the table gives DH is one error; the log's
    elimination then carries out the result the players used."""
    shown, _, _ = play(game, OPEN, "Allied: activate 2019\n"
                                   "Allied: attack 2020 with us-inf-01 us-inf-02 die 6 result DE\n"
                                   "German> eliminate de-inf-01\n"
                                   "Allied: advance us-inf-01 2019-2020\n"
                                   "Roll Allied 2 German 5\n")
    assert errors(shown) == [("7.2", "Allied: attack 2020 with us-inf-01 us-inf-02 die 6 result DE")]


def test_a_code_not_on_the_table(game: Game) -> None:
    """A result the Combat Table does not have is an error."""
    shown, _, _ = play(game, OPEN, "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result D2\n")
    assert errors(shown) == [("7.2", "Allied: attack 2020 with us-inf-01 result D2")]


def test_ae_eliminates_every_attacker(game: Game) -> None:
    """7.2 AE: every division that attacked is eliminated, whichever stack it came from."""
    placed = {**OPEN, "us-inf-03": "2120"}
    head = "Allied: activate 2019\nAllied: activate 2120\nAllied: attack 2020 with us-inf-01 us-inf-03 result AE\n"
    shown, state, _ = play(game, placed, head + "Allied: eliminate us-inf-01\nAllied: eliminate us-inf-03\n"
                                                "Roll Allied 2 German 5\n")
    assert errors(shown) == [] and state.location["us-inf-03"] == "eliminated_allied"
    shown, _, _ = play(game, placed, head + "Allied: eliminate us-inf-01\nAllied: eliminate us-inf-02\n"
                                            "Roll Allied 2 German 5\n")
    assert errors(shown) == [("7.2", "Allied: eliminate us-inf-02"), ("7.2", "Roll Allied 2 German 5")]


def test_ah_strongest_stack_counts_only_the_attacking_divisions(game: Game) -> None:
    """Ruling 7.2 AH: a stack is the divisions of a hex that took part in this attack. At 2019
    us-inf-01 (4) attacks and us-inf-02 does not; us-arm-01 (6) at 2120 is the strongest stack,
    though the whole hex 2019 holds 8."""
    placed = {**OPEN, "us-arm-01": "2120"}
    head = ("Allied: activate 2019\nAllied: activate 2120\n"
            "Allied: attack 2020 with us-inf-01 us-arm-01 result AH\n")
    shown, state, _ = play(game, placed, head + "Allied: deplete us-arm-01\nRoll Allied 2 German 5\n")
    assert errors(shown) == [] and state.depleted == {"us-arm-01"}
    shown, _, _ = play(game, placed, head + "Allied: deplete us-inf-01\nAllied: deplete us-inf-02\n"
                                            "Roll Allied 2 German 5\n")
    # The wrong stack is the error, us-inf-02 (which did not attack) another; the stack left alone is a note.
    assert errors(shown) == [("7.2", "Allied: deplete us-inf-01"), ("7.2", "Allied: deplete us-inf-02")]


def test_depleting_the_wrong_stack_is_one_error(game: Game) -> None:
    """7.2 AH, one breach one error: depleting both divisions of a weaker stack (2019, 8) instead of the strongest
    (2120, 18) is one error, on its first division; the second division and the stack left alone are notes."""
    placed = {**OPEN, "us-arm-01": "2120", "us-arm-02": "2120", "us-arm-03": "2120"}
    head = ("Allied: activate 2019\nAllied: activate 2120\n"
            "Allied: attack 2020 with us-inf-01 us-inf-02 us-arm-01 us-arm-02 us-arm-03 result AH\n")
    for tail in ("Roll Allied 2 German 5\n",
                 "Allied: deplete us-arm-01\nAllied: deplete us-arm-02\nAllied: deplete us-arm-03\n"
                 "Roll Allied 2 German 5\n"):
        shown, _, findings = play(game, placed, head + "Allied: deplete us-inf-01\nAllied: deplete us-inf-02\n" + tail)
        assert errors(shown) == [("7.2", "Allied: deplete us-inf-01")]
        message = next(f.message for f in findings if f.severity == "error")
        assert message.endswith("2120 (us-arm-01, us-arm-02, us-arm-03), not us-inf-01 at 2019")
        assert any(f.severity == "note" and "us-inf-02 is of the stack at 2019" in f.message for f in findings)


def test_ah_eliminates_the_already_depleted(game: Game) -> None:
    """7.2 AH: every division of the stack is depleted; one already depleted is eliminated."""
    placed = {"us-arm-01": "2019", "us-arm-02": "2019", "de-inf-01": "2020"}
    head = "Allied: activate 2019\nAllied: attack 2020 with us-arm-01 us-arm-02 result AH\n"
    shown, state, _ = play(game, placed, head + "Allied: eliminate us-arm-01\nAllied: deplete us-arm-02\n"
                                                "Roll Allied 2 German 5\n", depleted=("us-arm-01",))
    assert errors(shown) == [] and state.location["us-arm-01"] == "eliminated_allied"
    # Ruling 7.2: `deplete` of the already depleted division is read as its elimination (tests/test_onslaught_last_step).
    shown, state, _ = play(game, placed, head + "Allied: deplete us-arm-01\nAllied: deplete us-arm-02\n"
                                                "Roll Allied 2 German 5\n", depleted=("us-arm-01",))
    assert errors(shown) == [] and state.location["us-arm-01"] == "eliminated_allied"


def test_ah_between_equal_stacks_the_owner_picks_one(game: Game) -> None:
    """7.2 AH: of two equally strong stacks the owner depletes one, either one, not both."""
    placed = {"us-inf-01": "2019", "us-inf-03": "2120", "de-inf-01": "2020"}
    head = ("Allied: activate 2019\nAllied: activate 2120\n"
            "Allied: attack 2020 with us-inf-01 us-inf-03 result AH\n")
    for chosen in ("us-inf-01", "us-inf-03"):
        shown, _, _ = play(game, placed, head + f"Allied: deplete {chosen}\nRoll Allied 2 German 5\n")
        assert errors(shown) == []
    shown, _, _ = play(game, placed, head + "Allied: deplete us-inf-01\nAllied: deplete us-inf-03\n")
    assert errors(shown) == [("7.2", "Allied: deplete us-inf-03")]
    shown, _, _ = play(game, placed, head + "Roll Allied 2 German 5\n")
    assert errors(shown) == [("7.2", "Roll Allied 2 German 5")]


def test_dh_depletes_then_retreats(game: Game) -> None:
    """7.2 DH: depleted, and the survivor retreats two hexes; each half missing is reported."""
    head = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 result DH\n"
    shown, state, _ = play(game, OPEN, head + "German> deplete de-inf-01\nGerman> retreat de-inf-01 2020-2021-2022\n"
                                              "Roll Allied 2 German 5\n")
    assert errors(shown) == [] and state.depleted == {"de-inf-01"}
    shown, _, findings = play(game, OPEN, head + "German> retreat de-inf-01 2020-2021-2022\nRoll Allied 2 German 5\n")
    assert errors(shown) == [("7.2", "Roll Allied 2 German 5")]
    assert "de-inf-01 must be depleted" in next(f.message for f in findings if f.severity == "error")


def test_dh_on_a_depleted_division_eliminates_it(game: Game) -> None:
    """7.2 DH: an already depleted division is eliminated; it has no retreat to make."""
    head = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 result DH\n"
    shown, _, _ = play(game, OPEN, head + "German> eliminate de-inf-01\nRoll Allied 2 German 5\n",
                       depleted=("de-inf-01",))
    assert errors(shown) == []
    shown, _, _ = play(game, OPEN, head + "German> retreat de-inf-01 2020-2021-2022\n", depleted=("de-inf-01",))
    assert errors(shown) == [("7.2", "German> retreat de-inf-01 2020-2021-2022")]


def test_de_and_no_effect(game: Game) -> None:
    """7.2 DE eliminates every defender; '-' affects no division."""
    placed = {**OPEN, "de-inf-02": "2020"}
    head = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 result DE\n"
    shown, _, _ = play(game, placed, head + "German> eliminate de-inf-01\nRoll Allied 2 German 5\n")
    assert errors(shown) == [("7.2", "Roll Allied 2 German 5")]
    shown, _, _ = play(game, placed, "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result -\n"
                                     "German> deplete de-inf-02\nAllied: deplete us-inf-01\n")
    assert errors(shown) == [("7.2", "German> deplete de-inf-02"), ("7.2", "Allied: deplete us-inf-01")]


def test_effects_come_right_after_their_attack(game: Game) -> None:
    """Ruling 7.2: any other entry (here an activation) ends the combat; what it still owed is
    reported there, and a retreat logged afterwards is not due."""
    placed = {**OPEN, "us-inf-03": "1920"}
    shown, _, _ = play(game, placed, "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result DR\n"
                                     "Allied: activate 1920\nGerman> retreat de-inf-01 2020-2021-2022\n")
    assert errors(shown) == [("7.2", "Allied: activate 1920"), ("7.2", "German> retreat de-inf-01 2020-2021-2022")]


def test_losses_outside_combat(game: Game) -> None:
    """A loss in the Action Step with no combat to call for it is an error; a loss that is not
    one of the combat's divisions too; so is one in the Reinforcement Step, where only a
    reinforcement that cannot be supplied is eliminated (10.2)."""
    placed = {**OPEN, "de-inf-02": "2525"}
    shown, _, _ = play(game, placed, "German> eliminate de-inf-01\n")
    assert errors(shown) == [("7.2", "German> eliminate de-inf-01")]
    shown, _, _ = play(game, placed, "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result DR\n"
                                     "German> deplete de-inf-02\nGerman> retreat de-inf-01 2020-2021-2022\n")
    assert errors(shown) == [("7.2", "German> deplete de-inf-02")]
    shown, _, _ = play(game, placed, "Roll Allied 4 German 4\nStep german_reserve\nStep reinforcement\n"
                                            "German> eliminate de-inf-02\n")
    assert errors(shown) == [("7.2", "German> eliminate de-inf-02")]


def test_the_log_ending_mid_combat_gives_a_note(game: Game) -> None:
    """An exchange may stop before the effects are logged: a note, at the attack, says what is due."""
    shown, _, findings = play(game, OPEN, "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result DR\n")
    assert errors(shown) == []
    assert any(f.severity == "note" and f.rule == "7.2" and "must retreat two hexes" in f.message for f in findings)


# -- 7.3 retreat -------------------------------------------------------------------------------
DR = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 result DR\n"


@pytest.mark.parametrize("path, why", [
    ("2020-2120-2220", "into an enemy zone of control at 2120"),
    ("2020-2021-1921", "ends its retreat 1 hex from 2020"),
    ("2020-2021-2022-2023", "retreats 3 hexes"),
    ("2020-2022", "skips from 2020 to 2022"),
    ("2020-2021", "retreats one hex though it can retreat two"),
    ("2020", "does not leave 2020"),
    ("2021-2022", "is in 2020, not 2021"),
])
def test_retreat_restrictions(game: Game, path: str, why: str) -> None:
    """7.3: adjacent steps, two hexes and ending two away, never into enemy ZOC, from its hex."""
    shown, _, findings = play(game, OPEN, DR + f"German> retreat de-inf-01 {path}\n")
    assert errors(shown) == [("7.3", f"German> retreat de-inf-01 {path}")]
    assert why in next(f.message for f in findings if f.severity == "error")


def test_a_stray_one_hex_retreat_is_one_error(game: Game) -> None:
    """Ruling 7.3: a one-hex retreat where two hexes were open is one error; the depletion a
    one-hex retreat costs is then neither required nor refused."""
    for extra in ("", "German> deplete de-inf-01\n"):
        text = DR + "German> retreat de-inf-01 2020-2021\n" + extra + "Roll Allied 2 German 5\n"
        shown, _, _ = play(game, OPEN, text)
        assert errors(shown) == [("7.3", "German> retreat de-inf-01 2020-2021")]


def test_retreat_through_enemy_zoc_held_by_a_friend(game: Game) -> None:
    """7.3: a hex in enemy ZOC may be entered if a friendly division already occupies it."""
    placed = {**OPEN, "de-inf-02": "2120"}
    shown, _, _ = play(game, placed, DR + "German> retreat de-inf-01 2020-2120-2220\nRoll Allied 2 German 5\n")
    assert errors(shown) == []


def test_retreat_cannot_end_next_to_an_attacker(game: Game) -> None:
    """7.3: not ending next to a division that attacked it, even in a hex a friend holds."""
    placed = {**OPEN, "de-inf-02": "2120", "de-inf-03": "2119"}
    shown, _, findings = play(game, placed, DR + "German> retreat de-inf-01 2020-2120-2119\n")
    assert errors(shown) == [("7.3", "German> retreat de-inf-01 2020-2120-2119")]
    assert "next to us-inf-01 at 2019, which attacked it" in next(f.message for f in findings if f.severity == "error")


def test_a_stack_may_retreat_different_ways(game: Game) -> None:
    """7.3: the divisions of a stack may split up and retreat in different directions."""
    placed = {**OPEN, "de-inf-02": "2020"}
    shown, _, _ = play(game, placed, DR + "German> retreat de-inf-01 2020-2021-2022\n"
                                          "German> retreat de-inf-02 2020-2121-2221\nRoll Allied 2 German 5\n")
    assert errors(shown) == []
    shown, _, _ = play(game, placed, DR + "German> retreat de-inf-01 2020-2021-2022\n"
                                          "German> retreat de-inf-01 2022-2023-2024\n")
    assert errors(shown) == [("7.3", "German> retreat de-inf-01 2022-2023-2024")]


SURROUNDED = {"us-inf-01": "2019", "us-inf-02": "2121", "us-inf-03": "1921", "de-inf-01": "2020"}
"""Attackers on three alternate sides of 2020: every neighbour is in their ZOC."""
ALL_THREE = ("Allied: activate 2019\nAllied: activate 2121\nAllied: activate 1921\n"
             "Allied: attack 2020 with us-inf-01 us-inf-02 us-inf-03 result {}\n")


def test_no_retreat_depletes_instead(game: Game) -> None:
    """7.3: a division that cannot retreat is depleted instead; already depleted, eliminated."""
    shown, state, _ = play(game, SURROUNDED, ALL_THREE.format("DR") + "German> deplete de-inf-01\n"
                                                                      "Roll Allied 2 German 5\n")
    assert errors(shown) == [] and state.depleted == {"de-inf-01"}
    shown, _, findings = play(game, SURROUNDED, ALL_THREE.format("DR") + "Roll Allied 2 German 5\n")
    assert errors(shown) == [("7.3", "Roll Allied 2 German 5")]
    assert "must be depleted instead" in next(f.message for f in findings if f.severity == "error")
    shown, _, _ = play(game, SURROUNDED, ALL_THREE.format("DR") + "German> eliminate de-inf-01\n"
                                                                  "Roll Allied 2 German 5\n", depleted=("de-inf-01",))
    assert errors(shown) == []


def test_dh_that_cannot_retreat_is_eliminated(game: Game) -> None:
    """7.3: a division that suffers a DH and cannot retreat is eliminated."""
    shown, _, _ = play(game, SURROUNDED, ALL_THREE.format("DH") + "German> eliminate de-inf-01\n"
                                                                  "Roll Allied 2 German 5\n")
    assert errors(shown) == []
    shown, _, _ = play(game, SURROUNDED, ALL_THREE.format("DH") + "German> deplete de-inf-01\n"
                                                                  "Roll Allied 2 German 5\n")
    assert errors(shown) == [("7.3", "Roll Allied 2 German 5")]


COTENTIN = "Allied: activate 0419 us-para-01\nAllied: attack 0319 with us-para-01 result {}\n"
"""de-inf-02 at 0319, attacked from 0419, can retreat one hex (0218, 0219, or Cherbourg 0318) but not two."""


def test_one_hex_retreat_and_depleted(game: Game) -> None:
    """7.3: a division that can retreat one hex but not two retreats one hex and is depleted;
    a depletion without the retreat is not enough."""
    shown, _, _ = play(game, {}, COTENTIN.format("DR") + "German> deplete de-inf-02\n"
                                                         "German> retreat de-inf-02 0319-0219\n"
                                                         "Roll Allied 2 German 5\n", setup=True)
    assert errors(shown) == []
    shown, _, findings = play(game, {}, COTENTIN.format("DR") + "German> deplete de-inf-02\nRoll Allied 2 German 5\n",
                              setup=True)
    assert errors(shown) == [("7.3", "Roll Allied 2 German 5")]
    assert "retreats one hex (to 0218, 0219, 0318)" in next(f.message for f in findings if f.severity == "error")


def test_dh_with_only_one_hex_is_eliminated(game: Game) -> None:
    """Ruling 7.3: a DH division that can retreat only one hex is depleted a second time, so
    eliminated; stopping in a fortification (7.5) is a full retreat and spares it."""
    shown, _, _ = play(game, {}, COTENTIN.format("DH") + "German> eliminate de-inf-02\nRoll Allied 2 German 5\n",
                       setup=True)
    assert errors(shown) == []
    shown, _, findings = play(game, {}, COTENTIN.format("DH") + "German> deplete de-inf-02\n"
                                                                "German> retreat de-inf-02 0319-0219\n"
                                                                "Roll Allied 2 German 5\n", setup=True)
    assert errors(shown) == [("7.3", "Roll Allied 2 German 5")]
    assert "must be eliminated, as it retreated one hex only" in next(f.message for f in findings
                                                                      if f.severity == "error")
    shown, _, _ = play(game, {}, COTENTIN.format("DH") + "German> deplete de-inf-02\n"
                                                         "German> retreat de-inf-02 0319-0318\n"
                                                         "Roll Allied 2 German 5\n", setup=True)
    assert errors(shown) == []


ONE_OF_THREE = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result {}\n"
"""One of SURROUNDED's attackers attacks; the other two still hold every way out in their ZOC."""


def test_the_combat_audit_says_what_the_checker_applies(game: Game) -> None:
    """7.3 in the combat audit (`adjudicate combat`): what it says of a defender that cannot retreat two hexes is what
    the checker asks (results.owed): depleted instead after a DR, eliminated when already depleted or after a DH, one
    hex and depleted where only one is open; and the checker accepts exactly that."""
    from adjudicator.notation.text import parse_text
    from adjudicator.systems.onslaught.account import combat_report
    from adjudicator.systems.onslaught.combat import combat_audit
    cases = [(SURROUNDED, ALL_THREE, "DR", (), False, "deplete de-inf-01", "de-inf-01 is depleted instead"),
             (SURROUNDED, ONE_OF_THREE, "DR", ("de-inf-01",), False, "eliminate de-inf-01",
              "de-inf-01 is eliminated instead"),
             (SURROUNDED, ALL_THREE, "DH", (), False, "eliminate de-inf-01", "de-inf-01 is eliminated instead"),
             ({}, COTENTIN, "DR", (), True, "deplete de-inf-02\nGerman> retreat de-inf-02 0319-0219",
              "de-inf-02 retreats one hex and is depleted")]
    for placed, text, result, depleted, setup, carried_out, said in cases:
        activations = text.format(result).splitlines(keepends=True)[:-1]
        _, state, _ = play(game, placed, "".join(activations), depleted=depleted, setup=setup)
        attack = parse_text(PREFIX + text.format(result))[-1].as_attack()
        assert attack is not None
        die = next(d for d in range(1, 7) if combat_audit(state, replace(attack, die=d)).result == result)
        line = next(x for x in combat_report(state, replace(attack, die=die)) if "7.3 retreat" in x)
        assert line.endswith(f": {said}"), line
        claimed = text.format(result).replace(f"result {result}", f"die {die} result {result}")
        shown, _, _ = play(game, placed, claimed + f"German> {carried_out}\nRoll Allied 2 German 5\n",
                           depleted=depleted, setup=setup)
        assert errors(shown) == []
    # Without a die the audit gives each result that makes the defender retreat.
    _, state, _ = play(game, SURROUNDED, "".join(ALL_THREE.format("DR").splitlines(keepends=True)[:-1]))
    attack = parse_text(PREFIX + ALL_THREE.format("DR").replace(" result DR", ""))[-1].as_attack()
    assert attack is not None
    assert "after DR, de-inf-01 is depleted instead; after DH, de-inf-01 is eliminated instead" in \
        next(x for x in combat_report(state, attack) if "7.3 retreat" in x)


def test_a_retreated_division_adds_no_strength_later_in_the_action(game: Game) -> None:
    """7.3: a division that retreated into a hex attacked later in the same action adds nothing,
    yet the result applies to it; against a Breakthrough action it defends with its strength."""
    placed = {**OPEN, "de-inf-02": "2022", "us-inf-03": "2023"}
    text = DR + "German> retreat de-inf-01 2020-2021-2022\nAllied: activate 2023\n"
    _, state, _ = play(game, placed, text)
    attack = Attack(hex="2022", attackers=["us-inf-03"], die=3)
    assert ONSLAUGHT.combat_audit(state, attack).defence == 4  # de-inf-02 only
    assert state.action is not None
    breakthrough = replace(state, action=replace(state.action, type="breakthrough"))
    assert ONSLAUGHT.combat_audit(breakthrough, attack).defence == 8
    shown, _, findings = play(game, placed, text + "Allied: attack 2022 with us-inf-03 result DE\n"
                                                   "German> eliminate de-inf-02\nRoll Allied 2 German 5\n")
    assert errors(shown) == [("7.2", "Roll Allied 2 German 5")]
    assert "de-inf-01 must be eliminated" in next(f.message for f in findings if f.severity == "error")


# -- 7.4 advance -------------------------------------------------------------------------------
ARMOR = {"us-arm-01": "2019", "de-inf-01": "2020", "de-inf-02": "2122"}
"""An Allied armor division north of a German division, another German division beyond."""
ARMOR_DE = "Allied: activate 2019\nAllied: attack 2020 with us-arm-01 result DE\nGerman> eliminate de-inf-01\n"


@pytest.mark.parametrize("path, why", [
    ("2019-2020-2021", None),  # into 2021, in the ZOC of de-inf-02: 7.4 ignores ZOC
    ("2019-2020-2021-2022", "one hex further"),
    ("2019-2020-2121", None),
    ("2019-2021", "the vacated hex, first"),
    ("2019-2020-2122", "skips from 2020 to 2122"),
])
def test_armor_advances_one_hex_beyond(game: Game, path: str, why: str | None) -> None:
    """7.4: armor into the vacated hex, then one more hex in any direction; ZOC ignored."""
    shown, _, findings = play(game, ARMOR, ARMOR_DE + f"Allied: advance us-arm-01 {path}\nRoll Allied 2 German 5\n")
    if why is None:
        assert errors(shown) == []
    else:
        assert errors(shown) == [("7.4", f"Allied: advance us-arm-01 {path}")]
        assert why in next(f.message for f in findings if f.severity == "error")


def test_advance_not_into_enemy_divisions(game: Game) -> None:
    """7.4: the extra armor hex cannot hold enemy divisions."""
    placed = {**ARMOR, "de-inf-02": "2021"}
    shown, _, _ = play(game, placed, ARMOR_DE + "Allied: advance us-arm-01 2019-2020-2021\n")
    assert errors(shown) == [("7.4", "Allied: advance us-arm-01 2019-2020-2021")]


def test_advance_only_into_an_empty_hex_and_once(game: Game) -> None:
    """7.4: only when the defender's hex is left empty; each attacker once."""
    shown, _, _ = play(game, ARMOR, "Allied: activate 2019\nAllied: attack 2020 with us-arm-01 result DR\n"
                                    "Allied: advance us-arm-01 2019-2020\n")
    assert errors(shown) == [("7.4", "Allied: advance us-arm-01 2019-2020")]
    shown, _, _ = play(game, ARMOR, ARMOR_DE + "Allied: advance us-arm-01 2019-2020\n"
                                               "Allied: advance us-arm-01 2020-2021\n")
    assert errors(shown) == [("7.4", "Allied: advance us-arm-01 2020-2021")]


# -- 7.5 fortifications ------------------------------------------------------------------------
WEST_WALL = {"us-inf-01": "3810", "de-inf-01": "3910", "de-inf-02": "3910"}
"""Two German divisions in the fortification 3910, an Allied division across its fortified side."""
WALL_DR = "Allied: activate 3810\nAllied: attack 3910 with us-inf-01 result {}\n"


def test_standing_fast_implies_the_depletion(game: Game) -> None:
    """Ruling 7.5: `stand` depletes (an already depleted division is eliminated); no `deplete`
    follows, and one that does is a loss not due."""
    shown, state, _ = play(game, WEST_WALL, WALL_DR.format("DR") + "German> stand de-inf-01 de-inf-02\n"
                                                                   "Roll Allied 2 German 5\n", depleted=("de-inf-02",))
    assert errors(shown) == []
    assert state.depleted == {"de-inf-01"} and state.location["de-inf-02"] == "eliminated_german"
    shown, _, _ = play(game, WEST_WALL, WALL_DR.format("DR") + "German> stand de-inf-01 de-inf-02\n"
                                                               "German> deplete de-inf-01\n")
    assert errors(shown) == [("7.5", "German> deplete de-inf-01")]


def test_every_division_of_the_stack_makes_the_same_choice(game: Game) -> None:
    """7.5: every division in the stack must suffer the same result."""
    shown, _, _ = play(game, WEST_WALL, WALL_DR.format("DR") + "German> stand de-inf-01\n"
                                                               "German> retreat de-inf-02 3910-4010-4110\n"
                                                               "Roll Allied 2 German 5\n")
    assert errors(shown) == [("7.5", "Roll Allied 2 German 5")]
    shown, _, _ = play(game, WEST_WALL, WALL_DR.format("DR") + "German> stand de-inf-01\nGerman> stand de-inf-02\n"
                                                               "Roll Allied 2 German 5\n")
    assert errors(shown) == []


def test_standing_only_against_a_dr(game: Game) -> None:
    """7.5: the option is for a DR result; not for a DH."""
    shown, _, _ = play(game, WEST_WALL, WALL_DR.format("DH") + "German> stand de-inf-01 de-inf-02\n")
    assert errors(shown) == [("7.5", "German> stand de-inf-01 de-inf-02")]


def test_stopping_in_a_fortification(game: Game) -> None:
    """7.5: a German division may stop on entering a fortification (one hex, no depletion); an
    Allied division may not."""
    shown, _, _ = play(game, WEST_WALL, WALL_DR.format("DR") + "German> retreat de-inf-01 3910-3909\n"
                                                               "German> retreat de-inf-02 3910-4009-4109\n"
                                                               "Roll Allied 2 German 5\n")
    assert errors(shown) == []
    placed = {"de-inf-01": "3810", "us-inf-01": "3910"}
    shown, _, _ = play(game, placed, "Roll Allied 1 German 6\nGerman: action combat\n"
                                     "German: activate 3810\nGerman: attack 3910 with de-inf-01 result DR\n"
                                     "Allied> retreat us-inf-01 3910-3909\n")
    assert errors(shown) == [("7.3", "Allied> retreat us-inf-01 3910-3909")]


# -- the accounting ----------------------------------------------------------------------------
def test_owed_in_steps() -> None:
    """The step arithmetic of results.owed: DR with two hexes open, one, none; DH likewise."""
    def dr(steps: int) -> Effect:
        return Effect("u", True, steps, 0, True)

    def dh(steps: int) -> Effect:
        return Effect("u", True, steps, 1, steps > 1)

    assert owed(dr(2), lambda: (["a"], [])) == (0, "two")
    assert owed(dr(2), lambda: ([], ["b"])) == (1, "one")
    assert owed(dr(2), lambda: ([], [])) == (1, None)
    assert owed(dr(1), lambda: ([], [])) == (1, None)
    assert owed(dh(2), lambda: (["a"], [])) == (1, "two")
    assert owed(dh(2), lambda: ([], ["b"])) == (2, None)
    assert owed(dh(1), lambda: (["a"], [])) == (1, None)
    assert [fate(2, n) for n in (0, 1, 2)] == ["untouched", "depleted", "eliminated"]


# -- entries that are not due ------------------------------------------------------------------
@pytest.mark.parametrize("placed, text, rule, why", [
    (OPEN, DR + "Allied: retreat us-inf-01 2019-1919-1819\n", "7.2", "only the defending divisions retreat"),
    (OPEN, DR + "German> deplete de-inf-01\n", "7.3", "can retreat two hexes (to "),
    (OPEN, "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 result DE\nGerman> eliminate de-inf-01\n"
           "German> eliminate de-inf-01\n", "7.2", "is not on the map (eliminated_german)"),
    (WEST_WALL, WALL_DR.format("DR") + "German> stand de-inf-01 de-inf-02\nGerman> retreat de-inf-01 3910-4010-4110\n",
     "7.5", "stood its ground in 3910"),
    ({**WEST_WALL, "de-inf-03": "4110"}, WALL_DR.format("DR") + "German> stand de-inf-03\n", "7.5",
     "de-inf-03 did not defend"),
    (WEST_WALL, "German> stand de-inf-01\n", "7.5", "no combat result to stand against"),
    ({}, COTENTIN.format("DR") + "German> retreat de-inf-02 0319-0219-0220\n", "7.3",
     "retreats from 0219 into 0220, which no division may enter"),
])
def test_effects_not_due_or_not_allowed(game: Game, placed: dict[str, str], text: str, rule: str, why: str) -> None:
    """Retreats by attackers, losses a retreat would have spared, losses of divisions already
    gone, retreats after standing, stands by others than the defenders or without a combat,
    retreats into the sea: one error each, on the entry."""
    shown, _, findings = play(game, placed, text, setup=not placed)
    last = text.strip().splitlines()[-1]
    assert errors(shown) == [(rule, last)]
    assert why in next(f.message for f in findings if f.severity == "error")


def test_only_german_divisions_stand(game: Game) -> None:
    """7.5: an Allied division holding a fortification hex may not stand against a DR."""
    placed = {"de-inf-01": "3810", "us-inf-01": "3910"}
    shown, _, findings = play(game, placed, "Roll Allied 1 German 6\nGerman: action combat\nGerman: activate 3810\n"
                                            "German: attack 3910 with de-inf-01 result DR\nAllied> stand us-inf-01\n")
    assert errors(shown) == [("7.5", "Allied> stand us-inf-01")]
    assert "only German divisions stand" in next(f.message for f in findings if f.severity == "error")
