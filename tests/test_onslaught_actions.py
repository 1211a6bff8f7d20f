"""Onslaught's Combat action (5.4) and major waterways (6.5), entry by entry on small positions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adjudicator.engine import advance
from adjudicator.notation.entries import Action, Activate, Attack, Entry, Loss, Move, StepMarker, TurnMarker
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.hexes import Hexside
from play_support import play as replay
from play_support import when

ALLIED = {"side": "Allied"}
GERMAN = {"side": "German"}


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def position(game: Game, units: dict[str, str]) -> OnslaughtState:
    """Turn 5's Action Step about to start, with only `units` on the map and 20 points a side."""
    state = ONSLAUGHT.initial_state(game, [])
    state = when(state, turn=4, step="reinforcement", location=dict(units), supply={"Allied": 20, "German": 20})
    return advance(ONSLAUGHT, advance(ONSLAUGHT, state, TurnMarker(turn=5)), StepMarker(step="action"))


def play(state: OnslaughtState, entries: Sequence[Entry]) -> list[tuple[str, str]]:
    """Every finding (severity, rule) of a run of entries."""
    return replay(ONSLAUGHT, state, entries, finish=False).rules()


# -- 6.5 major waterways -------------------------------------------------------------------
# 4208-4209 is a Rhine hexside, 2807-2808 a Scheldt estuary one; 4207-4208, 4209-4210 and
# 2807-2907 (Zuid-Beveland) are plain.
FAR = {"de-inf-20": "4930", "us-inf-20": "0720"}


def test_the_map_has_the_crossings_these_tests_use(game: Game) -> None:
    """The hexsides the tests rely on are what the comments say."""
    def features(a: str, b: str) -> frozenset[str]:
        return game.hexside_features.get(Hexside.between(game.grid.hex_of(a), game.grid.hex_of(b)), frozenset())
    assert "major_waterway" in features("4208", "4209") and "major_waterway" in features("2807", "2808")
    assert not features("4207", "4208") and not features("4209", "4210") and not features("2807", "2907")
    scheldt = {game.grid.parse_hexside(s) for s in game.lines_by_id["scheldt_estuary"].hexsides}
    rhine = Hexside.between(game.grid.hex_of("4208"), game.grid.hex_of("4209"))
    assert rhine not in scheldt and Hexside.between(game.grid.hex_of("2807"), game.grid.hex_of("2808")) in scheldt


def movement(side: dict[str, str], hex_: str, *moves: Move) -> list[Entry]:
    """A Movement action activating the stack in `hex_`, then the moves."""
    return [Action(**side, action="movement"), Activate(**side, hex=hex_), *moves]


def test_crossing_is_the_whole_move(game: Game) -> None:
    """6.5: adjacent at the start, one hex across, then stop."""
    state = position(game, {"us-inf-01": "4208", **FAR})
    assert play(state, movement(ALLIED, "4208", Move(**ALLIED, unit="us-inf-01", path=["4208", "4209"]))) == []
    on = movement(ALLIED, "4208", Move(**ALLIED, unit="us-inf-01", path=["4208", "4209", "4210"]))
    assert play(state, on) == [("error", "6.5")]
    late = position(game, {"us-inf-01": "4207", **FAR})
    assert play(late, movement(ALLIED, "4207", Move(**ALLIED, unit="us-inf-01", path=["4207", "4208", "4209"]))) \
        == [("error", "6.5")]
    strategic = Move(**ALLIED, unit="us-inf-01", path=["4207", "4208", "4209"], strategic=True)
    assert play(late, movement(ALLIED, "4207", strategic)) == [("error", "6.5")]


def test_german_divisions_cross_the_rhine_but_not_the_scheldt(game: Game) -> None:
    """6.5: the Rhine is an ordinary river for German divisions; the Scheldt estuary is not."""
    rhine = when(position(game, {"de-inf-01": "4207", **FAR}), entitled="German")
    path = ["4207", "4208", "4209", "4210"]
    assert play(rhine, movement(GERMAN, "4207", Move(**GERMAN, unit="de-inf-01", path=path))) == []
    scheldt = when(position(game, {"de-inf-01": "2907", **FAR}), entitled="German")
    assert play(scheldt, movement(GERMAN, "2907", Move(**GERMAN, unit="de-inf-01", path=["2907", "2807", "2808"]))) \
        == [("error", "6.5")]
    assert play(scheldt, movement(GERMAN, "2907", Move(**GERMAN, unit="de-inf-01", path=["2907", "2807"]))) == []


def test_allied_divisions_cross_into_a_friendly_hex(game: Game) -> None:
    """6.5: the Rhine is an ordinary river for an Allied division crossing into a hex another
    Allied division holds, but not one of its own stack that crossed first."""
    held = position(game, {"us-inf-01": "4207", "us-inf-02": "4209", **FAR})
    assert play(held, movement(ALLIED, "4207", Move(**ALLIED, unit="us-inf-01", path=["4207", "4208", "4209"]))) == []
    stack = position(game, {"us-inf-01": "4208", "us-inf-02": "4208", **FAR})
    first = Move(**ALLIED, unit="us-inf-01", path=["4208", "4209"])
    second = Move(**ALLIED, unit="us-inf-02", path=["4208", "4209", "4210"])
    assert play(stack, movement(ALLIED, "4208", first, second)) == [("error", "6.5")]
    apart = [Action(**ALLIED, action="movement"), Activate(**ALLIED, hex="4208", units=["us-inf-01"]), first,
             Activate(**ALLIED, hex="4208", units=["us-inf-02"]), second]
    assert play(stack, apart) == []


# -- 5.4 combat actions ---------------------------------------------------------------------
def test_stacks_activated_together_attack_one_hex(game: Game) -> None:
    """5.4: any number of stacks activated at once, all against the same enemy-held hex; a new
    group after an attack may choose another hex; no movement in a Combat action."""
    centre = game.grid.hex_of("2216")
    ring = [n for n in game.grid.neighbours_on_map(centre) if game.hex_terrain[n] == ("clear",)
            and not game.hexside_features.get(Hexside.between(centre, n))]
    x, y, z = (game.grid.label_of(h) for h in ring[:3])
    units = {"us-inf-01": "2216", "us-inf-02": "2216", "de-inf-01": x, "de-inf-02": y, "de-inf-20": "4930"}
    state = position(game, units)
    one, two = Attack(**ALLIED, hex=x, attackers=["us-inf-01"]), Attack(**ALLIED, hex=y, attackers=["us-inf-02"])
    # Ruling 7.0: the divisions of one stack activated alone may attack different hexes.
    alone = [Action(**ALLIED, action="combat"), Activate(**ALLIED, hex="2216"), one, two]
    assert ("error", "5.4") not in play(state, alone)
    # 5.4: stacks activated together (before any of them attacks) all attack one hex.
    w = next(n for n in game.grid.neighbours_on_map(game.grid.hex_of(x)) if n != centre
             and game.grid.label_of(n) not in (y, z) and game.hex_terrain[n] == ("clear",)
             and not game.hexside_features.get(Hexside.between(game.grid.hex_of(x), n)))
    other = game.grid.label_of(w)
    state2 = position(game, {**units, "us-inf-03": other})
    together = [Action(**ALLIED, action="combat"), Activate(**ALLIED, hex="2216"), Activate(**ALLIED, hex=other),
                Attack(**ALLIED, hex=x, attackers=["us-inf-01", "us-inf-03"]), two]
    assert ("error", "5.4") in play(state2, together)
    same_hex = [Action(**ALLIED, action="combat"), Activate(**ALLIED, hex="2216"), one,
                Attack(**ALLIED, hex=x, attackers=["us-inf-02"])]
    assert ("error", "5.4") not in play(state, same_hex)
    regrouped = [Action(**ALLIED, action="combat"), Activate(**ALLIED, hex="2216", units=["us-inf-01"]), one,
                 Activate(**ALLIED, hex="2216", units=["us-inf-02"]), two]
    assert ("error", "5.4") not in play(state, regrouped)
    moving = [Action(**ALLIED, action="combat"), Activate(**ALLIED, hex="2216"),
              Move(**ALLIED, unit="us-inf-01", path=["2216", z])]
    assert ("error", "5.4") in play(state, moving)


# -- who writes an entry ------------------------------------------------------------------------
def test_owners_decide_and_the_mark_names_the_opponent(game: Game) -> None:
    """A division's move, retreat, loss or stand is its owner's decision; `Side>` marks the side
    that is not taking the action, so the acting side never writes it."""
    centre = game.grid.hex_of("2216")
    x = next(game.grid.label_of(n) for n in game.grid.neighbours_on_map(centre) if game.hex_terrain[n] == ("clear",)
             and not game.hexside_features.get(Hexside.between(centre, n)))
    state = position(game, {"us-inf-01": "2216", "de-inf-01": x, "de-inf-20": "4930"})
    attack = [Action(**ALLIED, action="combat"), Activate(**ALLIED, hex="2216"),
              Attack(**ALLIED, hex=x, attackers=["us-inf-01"], result="DE")]
    assert play(state, [*attack, Loss(side="German", by_opponent=True, loss="eliminate", unit="de-inf-01")]) \
        == [("warning", "7.2")]
    assert ("error", "log") in play(state, [*attack, Loss(**ALLIED, loss="eliminate", unit="de-inf-01")])
    marked = [Action(side="Allied", by_opponent=True, action="combat")]
    assert play(state, [Action(**ALLIED, action="movement"),
                        Activate(side="Allied", by_opponent=True, hex="2216")]) == [("error", "log")]
    assert play(state, marked) == [("error", "log")]   # the Allies are entitled to this action
