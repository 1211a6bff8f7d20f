"""Onslaught, session 24: a stack activated again (5.2) or a paratroop division dropped again (9.2) is one error and
activates or drops nothing, so it spends no supply point, wherever it is written (the German Reserve Step, an action),
and its cost is not judged as well."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from edit_support import EXAMPLES, errors
from play_support import Played, play, position
from wargame.bundled import data_root
from wargame.game import Game, load_game

ONSLAUGHT_LOGS = EXAMPLES / "onslaught"
HEAD = '[Game "onslaught"]\nTurn 1\nStep action\n'
OPEN = {"us-inf-01": "2019", "us-inf-02": "2019", "de-inf-01": "2020", "us-arm-01": "2017"}
"""Open ground: two Allied infantry divisions north of a German one, Allied armor two hexes further."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def replayed(game: Game, text: str, supply: dict[str, int], placed: dict[str, str] | None = None
             ) -> Played[OnslaughtState]:
    """`text` replayed from the set-up (or with only `placed` on the map) with `supply` on the tracks."""
    state = position(ONSLAUGHT, game, placed=placed, over_setup=placed is None, supply=supply)
    return play(ONSLAUGHT, state, text, finish=False)


def test_a_stack_activated_twice_in_the_german_reserve_step_spends_one_point(game: Game) -> None:
    """5.0 likens the step to a Movement action, and 5.2 activates a division once in one: the second activation is
    one error and spends nothing (it spent a second point, 8 to 6)."""
    text = (ONSLAUGHT_LOGS / "breach-reserve-activate-twice.log").read_text(encoding="utf-8")
    played = replayed(game, text, {"Allied": 12, "German": 8})
    assert played.errors() == [("5.2", "German: activate 3303 supply 1")]
    assert played.state.supply["German"] == 7


@pytest.mark.parametrize("reserve", [True, False], ids=["german-reserve-step", "action-step"])
def test_a_stack_activated_twice_on_its_last_point_is_one_error(game: Game, reserve: bool) -> None:
    """5.2: activated again with no point left, the activation's one error is that it was activated already; that it
    costs a point the side has not is not a second error (the activation spends nothing)."""
    if reserve:
        text = (ONSLAUGHT_LOGS / "breach-reserve-activate-twice.log").read_text(encoding="utf-8")
        played = replayed(game, text, {"Allied": 12, "German": 1})
        assert played.errors() == [("5.2", "German: activate 3303 supply 1")]
    else:
        played = replayed(game, HEAD + "Allied: action movement supply 1\nAllied: activate 2017 supply 1\n"
                                       "us-arm-01 2017-2016\nAllied: activate 2016 supply 1\nus-arm-01 2016-2015\n",
                          {"Allied": 1, "German": 1}, OPEN)
        assert played.errors() == [("5.2", "Allied: activate 2016 supply 1")]
    assert "already activated" in next(f.message for f in played.findings if f.severity == "error")


def test_a_paradrop_written_twice_in_an_action_spends_one_point(game: Game) -> None:
    """9.2: the sample game's paradrop written again later in its action is one error (the division is no longer in
    the Paratroop box) and drops nothing, so the action's claim of 4 points still holds (it was a second error:
    'claims 4 supply point(s) but its activations cost 5')."""
    lines = (ONSLAUGHT_LOGS / "legal-sample-game.log").read_text(encoding="utf-8").splitlines(keepends=True)
    drop = next(i for i, line in enumerate(lines) if line.startswith("Allied: paradrop us-para-02 0219"))
    text = "".join(lines[:drop + 4] + ["Allied: paradrop us-para-02 0219 supply 1\n"] + lines[drop + 4:])
    state = position(ONSLAUGHT, game)
    played = play(ONSLAUGHT, state, text, finish=False)
    assert played.errors() == [("9.2", "Allied: paradrop us-para-02 0219 supply 1")]


def written_again_later(log: str, written: str) -> tuple[str, int]:
    """A bundled legal Onslaught log with the line that reads `written` (comments aside) written again after the line
    that follows it, and the copy's line number."""
    lines = (ONSLAUGHT_LOGS / log).read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.split("#")[0].strip() == written)
    return "".join(lines[:at + 2] + [written + "\n"] + lines[at + 2:]), at + 3


@pytest.mark.parametrize(("log", "written", "says"), [
    ("legal-rule-4.1-turn1.log", "Allied: activate 0821 supply 1", "holds no Allied division"),
    ("legal-rule-4.1-turn1.log", "German: activate 1121 supply 1", "holds no German division"),
    ("legal-combat.log", "Allied: activate 0620 supply 1", "already activated"),
    ("legal-results.log", "Allied: activate 0820 supply 1", "already activated"),
    ("legal-sample-game.log", "Allied: activate 0720 br-inf-01 supply 1", "already activated"),
    ("legal-rule-5.6-breakthrough.log", "Allied: activate 0720 br-arm-02 supply 2 move-first", "already activated"),
])
def test_an_activation_written_again_after_its_stack_acted_is_one_error(tmp_path: Path, log: str, written: str,
                                                                        says: str) -> None:
    """5.2: an activation written again once its stack has moved away (the hex empty) or attacked is one error, on
    it. It activates nothing, so it spends nothing (the action's claim was a second error, and the side short of a
    point later a third); it leaves the combat under way open (its result, carried out after it, was 7.2's error
    twice over); that the divisions it names have moved on is that breach, not a second error."""
    text, line = written_again_later(log, written)
    found = errors(tmp_path, text)
    assert [(f.rule, f.line) for f in found] == [("5.2", line)], found
    assert says in found[0].message
