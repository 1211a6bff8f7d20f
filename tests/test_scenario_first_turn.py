"""Turns in order: a scenario that starts later in the war (`first_turn` in game.toml's `[[scenario]]`) is played
from that turn in every rule system (Onslaught and Fire & Movement once asked every log to begin with turn 1, "turn
5 follows turn 0", as only the classic series read it); a turn past the game's end is one error."""

from __future__ import annotations

import dataclasses

import pytest

from adjudicator.contract import next_turn
from adjudicator.systems import system_for
from adjudicator.systems.onslaught import ONSLAUGHT
from play_support import play, position
from wargame.bundled import data_root
from wargame.game import Game, load_game


def _starting_at(game: Game, turn: int) -> Game:
    """The game with its first scenario beginning on `turn`."""
    first, *rest = game.manifest.scenario
    manifest = dataclasses.replace(game.manifest, scenario=[dataclasses.replace(first, first_turn=turn), *rest])
    return dataclasses.replace(game, manifest=manifest)


@pytest.mark.parametrize(("game_id", "marker", "cited"), [("onslaught", "Turn {n}\n", "4.0"),
                                                         ("omaha", "Turn {n}\n", "4.1")])
def test_a_scenario_begins_on_its_first_turn(game_id: str, marker: str, cited: str) -> None:
    """Turn 5 is the first of a scenario beginning on 5, and turn 1 is refused there (naming the turn due); the
    bundled scenario still begins on 1."""
    game = load_game(data_root(), game_id)
    later = _starting_at(game, 5)
    system = system_for(later)
    scenario = later.manifest.scenario[0].id
    assert next_turn(later, scenario, 0) == 5 and next_turn(later, scenario, 5) == 6
    assert next_turn(game, scenario, 0) == 1
    state = system.initial_state(later, [])
    refused = play(system, state, marker.format(n=1), finish=False)
    turn_errors = [f for f in refused.findings if f.rule == cited and "follows the set-up" in f.message]
    assert len(turn_errors) == 1 and "5 comes next" in turn_errors[0].message
    started = play(system, state, marker.format(n=5), finish=False)
    assert not [f for f in started.findings if "follows" in f.message]


@pytest.mark.parametrize(("game_id", "cited"), [("onslaught", "4.0"), ("omaha", "10.2")])
def test_a_turn_past_the_game_s_end_is_one_error(game_id: str, cited: str) -> None:
    """`Turn 99` at the set-up: one error, the game's length (not a second one for the turn's order)."""
    game = load_game(data_root(), game_id)
    system = system_for(game)
    played = play(system, system.initial_state(game, []), "Turn 99\n", finish=False)
    errors = [f for f in played.findings if f.severity == "error"]
    assert [f.rule for f in errors] == [cited] and "follows" not in errors[0].message


def test_a_capture_on_a_later_scenario_s_first_turn_takes_the_turn_before_s_supply() -> None:
    """Onslaught 8.7: the Allied sources count as having yielded all they could on the turn before the first (turn 0
    for the campaign; turn 4 for a scenario beginning on 5), so a capture on the first turn takes half of it."""
    later = _starting_at(load_game(data_root(), "onslaught"), 5)
    state = position(ONSLAUGHT, later, placed={"de-inf-01": "0620", "us-inf-01": "0720"}, over_setup=False)
    played = play(ONSLAUGHT, state, 'Turn 5\nStep action\nAllied: pass\nGerman: pass\nStep german_reserve\n'
                                    'Step reinforcement\nGerman: capture 0620 points 2\n', finish=False)
    assert played.errors() == []
