"""Onslaught 11.1, session 21: one replacement, one error. A replacement bought outside the Reinforcement Step is that
step's error alone (no points are given yet); a replacement the rules refuse spends no point, and a lawful one spends
the Replacement Table's cost whatever the log claims, so the replacements after them are judged on what the lawful
ones spent (as the classic series' ruling 11.0)."""

from __future__ import annotations

import pytest

from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from play_support import Played, play as replay
from play_support import position
from wargame.bundled import data_root
from wargame.game import Game, load_game

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\n'
LOST = {"de-inf-05": "eliminated_german", "de-inf-06": "eliminated_german"}
"""Two German divisions in the Eliminated Units box over the campaign set-up (the German has his 2 replacement points
on turn 1)."""
STEP = "Allied: pass\nGerman> pass\nStep german_reserve\nStep reinforcement\n"


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, text: str) -> Played[OnslaughtState]:
    """Replay `text` after HEAD from the campaign set-up."""
    return replay(ONSLAUGHT, position(ONSLAUGHT, game, placed=LOST), HEAD + text, finish=False)


def test_a_replacement_outside_the_reinforcement_step_is_one_error(game: Game) -> None:
    """11.1: bought in the Action Step, one error (the step's), not a second for points not yet received."""
    played = play(game, "Allied: pass\nGerman: replace de-inf-05 full 3010 points 2\n")
    assert played.errors() == [("11.1", "German: replace de-inf-05 full 3010 points 2")]
    assert "Reinforcement Step" in next(f.message for f in played.findings if f.severity == "error")


def test_a_refused_replacement_spends_no_point(game: Game) -> None:
    """Ruling 11.1: a replacement of a division at full strength on the map is refused (11.2) and spends nothing, so the
    lawful one after it (2 points of the German's 2) is no error."""
    played = play(game, STEP + "German: replace de-inf-04 full 3010 points 2\n"
                               "German: replace de-inf-05 full 3010 points 2\n")
    assert played.errors() == [("11.2", "German: replace de-inf-04 full 3010 points 2")]


def test_a_replacement_spends_the_tables_cost_not_the_claim(game: Game) -> None:
    """11.1: an infantry division rebuilt to depleted strength costs 1 point; claimed as 2 it is one error, and the
    German's second point still rebuilds the other."""
    played = play(game, STEP + "German: replace de-inf-05 reduced 3010 points 2\n"
                               "German: replace de-inf-06 reduced 3110 points 1\n")
    assert [rule for rule, _ in played.errors()] == ["11.1"]
    assert played.errors()[0][1] == "German: replace de-inf-05 reduced 3010 points 2"
