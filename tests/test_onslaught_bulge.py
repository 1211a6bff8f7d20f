"""Onslaught's counteroffensive (12.0): when it may be launched, its supply, and the first action and tie."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adjudicator.notation.entries import Action, Declare, Entry, Pass, RollOff, StepMarker, TurnMarker
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.arrivals import box_of
from wargame.bundled import data_root
from wargame.game import load_game
from play_support import play as replay
from play_support import when

ALLIED = {"side": "Allied"}
GERMAN = {"side": "German"}
BULGE = Declare(**GERMAN, what="bulge")


@pytest.fixture(scope="module")
def start() -> OnslaughtState:
    """The campaign set-up (3.0), moved on to turn 12's Reinforcement Step with 10 German points,
    every reinforcement of the game already arrived (and eliminated), so that none is owed."""
    state = ONSLAUGHT.initial_state(load_game(data_root(), "onslaught"), [])
    arrived = {row.unit: box_of(state.game, "eliminated", state.game.units_by_id[row.unit].side)
               for _, row in state.game.reinforcements}
    return when(state, turn=12, step="reinforcement", supply={"Allied": 20, "German": 10},
                location={**state.location, **arrived})


def play(state: OnslaughtState, entries: Sequence[Entry]) -> tuple[list[tuple[str, str]], OnslaughtState]:
    """Every finding (severity, rule) of a run of entries, and the state after them."""
    played = replay(ONSLAUGHT, state, entries, finish=False)
    return played.rules(), played.state


def turn(n: int) -> list[Entry]:
    """A turn marker and its Action Step marker."""
    return [TurnMarker(turn=n), StepMarker(step="action")]


def test_launch_gives_supply_and_the_first_action(start: OnslaughtState) -> None:
    """12.0: +10 supply at once; the German player, not the Allied, takes the first action."""
    found, state = play(when(start, turn=11), [*turn(12), BULGE])
    assert found == []
    assert state.supply["German"] == 20 and state.bulge_turn == 12
    assert play(state, [Action(**GERMAN, action="movement")])[0] == []
    assert play(state, [Action(**ALLIED, action="movement")])[0] == [("error", "5.0")]
    # Announced at the turn's start, before the Action Step marker, it has the same effect.
    found, early = play(when(start, turn=11), [TurnMarker(turn=12), BULGE, StepMarker(step="action")])
    assert found == [] and early.log.entitled == "German"


def test_the_cap_takes_what_the_counteroffensive_gives_beyond_it(start: OnslaughtState) -> None:
    """8.2 with 12.0: the +10 at 35 points makes 40, not 45; the five lost are said in a note, as for an income."""
    found, state = play(when(start, turn=11, supply={"Allied": 20, "German": 35}), [*turn(12), BULGE])
    assert found == [("note", "8.2")] and state.supply["German"] == 40 and state.capped_away["German"] == 5
    assert play(when(start, turn=11, supply={"Allied": 20, "German": 30}), [*turn(12), BULGE])[0] == []


def test_launch_window_and_once(start: OnslaughtState) -> None:
    """12.0: turns 12-17 only, German only, once a game, before the turn's first action."""
    assert play(when(start, turn=10), [*turn(11), BULGE])[0] == [("error", "12.0")]
    assert play(when(start, turn=17), [*turn(18), BULGE])[0] == [("error", "12.0")]
    assert play(when(start, turn=16), [*turn(17), BULGE])[0] == []
    assert play(when(start, turn=11), [*turn(12), Declare(**ALLIED, what="bulge")])[0] == [("error", "12.0")]
    _, launched = play(when(start, turn=11), [*turn(12), BULGE])
    again = when(launched, step="reinforcement")
    assert play(again, [*turn(13), BULGE])[0] == [("error", "12.0")]
    late = [*turn(12), Action(**ALLIED, action="movement"), RollOff(rolls={"Allied": 2, "German": 5}), BULGE]
    assert play(when(start, turn=11), late)[0] == [("error", "12.0")]
    assert play(when(start, turn=11), [*turn(12), Declare(**GERMAN, what="bulg")])[0] == [("error", "log")]


def test_cap(start: OnslaughtState) -> None:
    """8.2: the counteroffensive's points count toward the German limit of 40."""
    _, state = play(when(start, turn=11, supply={"Allied": 0, "German": 35}), [*turn(12), BULGE])
    assert state.supply["German"] == 40


def test_first_tie_lets_the_german_act(start: OnslaughtState) -> None:
    """12.0: the first tie of that turn is the German's choice to act; a second tie ends the turn."""
    tie = RollOff(rolls={"Allied": 3, "German": 3})
    opening = [*turn(12), BULGE, Action(**GERMAN, action="movement"), tie]
    found, state = play(when(start, turn=11), opening)
    assert found == [] and not state.log.step_over and state.log.entitled == "German"
    found, state = play(state, [Action(**GERMAN, action="movement"), tie])
    assert found == [] and state.log.step_over
    # A German pass declines the extra action: the step is over.
    _, declined = play(when(start, turn=11), [*opening, Pass(**GERMAN)])
    assert declined.log.step_over
    # Without the counteroffensive a tie ends the turn at once.
    _, plain = play(when(start, turn=11), [*turn(12), Action(**ALLIED, action="movement"), tie])
    assert plain.log.step_over
    # Only in the counteroffensive's own turn.
    _, launched = play(when(start, turn=11), [*turn(12), BULGE])
    _, later = play(when(launched, step="reinforcement"), [*turn(13), Action(**ALLIED, action="movement"), tie])
    assert later.log.step_over


def test_moving_on_after_the_first_tie_declines_the_extra_action(start: OnslaughtState) -> None:
    """12.0: after the turn's first tie the German "can elect" to act; a log that goes on to the German Reserve Step
    without his action has him decline it (no pass need be written), as a refused declaration's turn does too."""
    tie = RollOff(rolls={"Allied": 3, "German": 3})
    found, _ = play(when(start, turn=11), [*turn(12), BULGE, Action(**GERMAN, action="movement"), tie,
                                           StepMarker(step="german_reserve")])
    assert found == []
    # Declared on turn 11 (one 12.0 error): the tie that follows it is no second error.
    found, _ = play(when(start, turn=10), [*turn(11), BULGE, Pass(**GERMAN), tie, StepMarker(step="german_reserve")])
    assert found == [("error", "12.0")]


def test_a_late_declaration_takes_no_action_from_its_winner(start: OnslaughtState) -> None:
    """12.0: announced after the Allied first action (one error), the counteroffensive does not also make the German
    the next to act: the players roll as after any action."""
    found, _ = play(when(start, turn=11), [*turn(12), Pass(**ALLIED), BULGE, RollOff(rolls={"Allied": 5, "German": 2}),
                                           Pass(**ALLIED)])
    assert found == [("error", "12.0")]
