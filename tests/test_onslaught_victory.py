"""Onslaught's automatic victories (13.0-13.2): when they happen, the note, and the game's end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.engine import advance
from adjudicator.notation.entries import Activate, Comment, Loss, Pass, StepMarker, TurnMarker
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.system import ActionState
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import when

EAST = ("4005", "4006", "4007", "4008", "4009", "4010", "4011", "4012", "4013", "4014", "4015", "4016", "4106",
        "4107", "4108")
"""Fifteen hexes east of the Victory Line."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


@pytest.fixture(scope="module")
def start(game: Game) -> OnslaughtState:
    """The campaign set-up (3.0) at turn 5's Reinforcement Step."""
    return when(ONSLAUGHT.initial_state(game, []), turn=5, step="reinforcement")


def side_units(game: Game, side: str) -> list[str]:
    """Unit ids of one side, in data order."""
    return [u.id for u in game.units_by_id.values() if u.side == side]


def rules(state: OnslaughtState, entry: TurnMarker | StepMarker | Pass | Comment) -> list[tuple[str, str]]:
    """Findings (severity, rule) of one entry."""
    return [(f.severity, f.rule) for f in ONSLAUGHT.check(state, entry)]


@pytest.fixture(scope="module")
def breakout(game: Game, start: OnslaughtState) -> OnslaughtState:
    """Fifteen Allied divisions east of the Victory Line, the landing hexes held, no Germans on the map."""
    allied = side_units(game, "Allied")
    location = {unit: label for unit, label in zip(allied, EAST)}
    location.update({allied[15]: "0620", allied[16]: "0720", allied[17]: "0820"})
    return replace(start, location=location)


def test_allied_automatic_victory(game: Game, breakout: OnslaughtState) -> None:
    """13.2: at a turn's end, no German in supply west of the Rhine and 15 Allied in supply east of the line."""
    assert ONSLAUGHT.automatic_victory(breakout, turn_over=True) is not None
    assert ONSLAUGHT.automatic_victory(breakout, turn_over=False) is None    # only as a turn ends
    assert rules(breakout, TurnMarker(turn=6, line=40)) == [("error", "13.2")]
    after = advance(ONSLAUGHT, breakout, TurnMarker(turn=6, line=40))
    assert after.victory is not None
    assert (after.victory.winner, after.victory.section, after.victory.line) == ("Allied", "13.2", 40)
    assert rules(after, StepMarker(step="action")) == [("error", "13.2")]   # nothing follows the end
    assert rules(after, Comment(text="gg")) == []
    assert [(f.severity, f.rule) for f in ONSLAUGHT.finish(after)] == [("note", "13.2")]
    # A log that stops in the Reinforcement Step is told what the turn's end will bring.
    assert [(f.severity, f.rule) for f in ONSLAUGHT.finish(breakout) if f.rule.startswith("13")] == [("note", "13.2")]


def test_allied_victory_conditions(game: Game, breakout: OnslaughtState) -> None:
    """13.2: a German division in supply west of the Rhine prevents it, one in a fortified port does not;
    fourteen divisions are not enough; not at the end of the last turn."""
    german = side_units(game, "German")
    west = replace(breakout, location={**breakout.location, german[0]: "1519"})
    assert ONSLAUGHT.automatic_victory(west, turn_over=True) is None
    port = replace(breakout, location={**breakout.location, german[0]: "1119"})   # Le Havre, fortified
    assert ONSLAUGHT.automatic_victory(port, turn_over=True) is not None
    fourteen = dict(breakout.location)
    del fourteen[side_units(game, "Allied")[0]]
    assert ONSLAUGHT.automatic_victory(replace(breakout, location=fourteen), turn_over=True) is None
    assert ONSLAUGHT.automatic_victory(when(breakout, turn=20), turn_over=True) is None


def test_german_automatic_victory(game: Game, start: OnslaughtState) -> None:
    """13.1: at any time, no Allied units on the map, or no Allied supply points and no sources."""
    german = side_units(game, "German")
    allied = side_units(game, "Allied")
    last = replace(start, location={german[0]: "4010", allied[0]: "0620"})
    assert ONSLAUGHT.automatic_victory(last, turn_over=False) is None
    after = advance(ONSLAUGHT, last, Loss(side="Allied", loss="remove", unit=allied[0], line=12))
    assert after.victory is not None
    assert (after.victory.winner, after.victory.section, after.victory.line) == ("German", "13.1", 12)
    # An entry that moves nothing cannot end the game (the position it finds was judged already).
    assert advance(ONSLAUGHT, last, Pass(side="German", line=12)).victory is None
    # Allied divisions on the map, but every landing hex retaken and no points left.
    cut = when(start, step="action", location={allied[0]: "0520", german[0]: "4010"},
               controlled={"0620": "German", "0720": "German", "0820": "German"}, supply={"Allied": 0, "German": 5})
    assert ONSLAUGHT.automatic_victory(cut, turn_over=False) is not None
    assert ONSLAUGHT.automatic_victory(replace(cut, supply={"Allied": 1, "German": 5}), turn_over=False) is None
    assert ONSLAUGHT.automatic_victory(replace(cut, controlled={}), turn_over=False) is None


def test_spending_the_last_point_without_sources(game: Game, start: OnslaughtState) -> None:
    """13.1: activating a stack with the last Allied point, every source lost, ends the game."""
    allied, german = side_units(game, "Allied"), side_units(game, "German")
    cut = when(start, step="action", location={allied[0]: "0520", german[0]: "4010"},
               controlled={"0620": "German", "0720": "German", "0820": "German"}, supply={"Allied": 1, "German": 5},
               action=ActionState("Allied", "movement", None, 10, 1))
    after = advance(ONSLAUGHT, cut, Activate(side="Allied", hex="0520", line=11))
    assert after.supply["Allied"] == 0
    assert after.victory is not None
    assert (after.victory.winner, after.victory.section, after.victory.line) == ("German", "13.1", 11)
