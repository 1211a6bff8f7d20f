"""Onslaught, session 20: a move into an enemy-held hex cites what bars it (6.1, not 6.2's zone), wherever a division
can be moved (movement, breakthrough, retreat); a division activated twice is one breach (5.2), its second move or
attack part of it."""

from __future__ import annotations

import pytest

from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import Played, play as replay
from play_support import position

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\n'


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, placed: dict[str, str], text: str) -> Played[OnslaughtState]:
    """Replay `text` after HEAD with only the divisions `placed` says on the map."""
    return replay(ONSLAUGHT, position(ONSLAUGHT, game, placed=placed, over_setup=False), HEAD + text)


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
