"""Onslaught 5.2 / 8.2, session 21: a supply track never goes below nothing. An activation (or paradrop) the side
cannot pay is its one error and spends only what the side has, so the next shortfall is said of nothing left (not
of "-1 supply point(s)") and the points gained later are added to nothing, not to a debt."""

from __future__ import annotations

import pytest

from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from play_support import Played, play as replay
from play_support import position
from wargame.bundled import data_root
from wargame.game import Game, load_game

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\n'
STACKS = ("0620", "0720", "0820", "0419")
"""Four Allied stacks of the campaign set-up."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, text: str) -> Played[OnslaughtState]:
    """Replay `text` after HEAD from the campaign set-up, the Allies with 2 supply points."""
    return replay(ONSLAUGHT, position(ONSLAUGHT, game, supply={"Allied": 2, "German": 8}), HEAD + text, finish=False)


def test_an_activation_past_the_points_spends_only_what_is_left(game: Game) -> None:
    """5.2: the third and fourth activations are each unpaid: each said of the side's 0 points; the track stays at 0."""
    played = play(game, "Allied: action movement supply 4\n"
                        + "".join(f"Allied: activate {h} supply 1\n" for h in STACKS))
    shortfalls = [f.message for f in played.findings if f.severity == "error" and f.rule == "5.2"]
    assert shortfalls == ["Allied has 0 supply point(s) and the activation costs 1"] * 2
    assert played.state.supply["Allied"] == 0
