"""Onslaught's German Reserve Step (4.0, 5.0), session 21: written as German movement actions (the engine allows
them; 5.0 likens the step to a Movement action), its activations count for the moves after them; an Allied stack
activated in the step is one error, its move part of it."""

from __future__ import annotations

import pytest

from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from play_support import Played, play as replay
from play_support import position
from wargame.bundled import data_root
from wargame.game import Game, load_game

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\nAllied: pass\nGerman> pass\nStep german_reserve\n'


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, text: str) -> Played[OnslaughtState]:
    """Replay `text` after HEAD from the campaign set-up."""
    return replay(ONSLAUGHT, position(ONSLAUGHT, game), HEAD + text, finish=False)


def test_a_reserve_step_written_as_a_movement_action(game: Game) -> None:
    """5.0: `German: action movement` in the step, then a stack activated and moved strategically: no error (the
    move was refused as "not activated in this German Reserve Step")."""
    played = play(game, "German: action movement supply 1\nGerman: activate 3103 supply 1\n"
                        "de-inf-23 strategic 3103-3203-3303\nStep reinforcement\n")
    assert played.errors() == []


def test_a_reserve_step_action_still_moves_strategically_only(game: Game) -> None:
    """5.0: in the step divisions move strategically only, written as an action or not."""
    played = play(game, "German: action movement supply 1\nGerman: activate 3103 supply 1\nde-inf-23 3103-3203\n")
    assert [rule for rule, _ in played.errors()] == ["5.0"]


def test_an_allied_stack_activated_in_the_reserve_step_is_one_error(game: Game) -> None:
    """5.2: the activation's error; the move it makes is a note."""
    played = play(game, "Allied: activate 0620 supply 1\nus-inf-01 0620-0520\n")
    assert played.errors() == [("5.2", "Allied: activate 0620 supply 1")]
    assert ("note", "5.2", "us-inf-01 0620-0520") in played.shown(("note",))
