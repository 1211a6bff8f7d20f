"""The movement model of each rule system (adjudicator/contract.py `MovementModel`): reach, zones of control,
retreat options and supply lines, each checked against the rule it models and against the checker's own verdicts
(one model, many askers: a hex the model says is reachable is a move the checker finds nothing wrong with)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from adjudicator.cli import adjudicate_file
from adjudicator.contract import MovementModel, Reach
from adjudicator.engine import Replay, advance
from adjudicator.notation.entries import Action, Activate, Move, Retreat
from adjudicator.systems.fire_and_movement.state import FireAndMovementState
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.combat import retreat_options_of
from adjudicator.systems.onslaught.movement import move_rule
from adjudicator.systems.onslaught.state import movement_allowance
from adjudicator.systems.onslaught.supply import is_supplied
from adjudicator.systems.onslaught.zoc import near_enemy, zone_of_control
from adjudicator.systems.omaha.state import OmahaState
from adjudicator.systems.omaha.system import OMAHA
from wargame.bundled import data_root
from wargame.errors import WargameError
from wargame.game import Game, load_game
from play_support import when

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ALLIED = {"side": "Allied"}
GERMAN = {"side": "German"}
FAR = {"de-inf-20": "4930", "us-inf-20": "0720"}
"""A division of each side far from the hexes the tests use (a side with none on the map is not a game)."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def _typed() -> None:
    """Both systems give the contract's movement model (mypy checks these assignments)."""
    onslaught: MovementModel[OnslaughtState] | None = ONSLAUGHT.movement
    omaha: MovementModel[OmahaState] | None = OMAHA.movement
    assert onslaught is not None and omaha is not None


def test_both_systems_give_a_movement_model() -> None:
    """RuleSystem.movement is set for Onslaught and for Fire & Movement's folio."""
    _typed()


def position(game: Game, units: dict[str, str]) -> OnslaughtState:
    """Turn 5's Action Step under way, with only `units` on the map and 20 points a side."""
    state = ONSLAUGHT.initial_state(game, [])
    state = when(state, turn=5, step="action", location=dict(units), supply={"Allied": 20, "German": 20},
                 entitled="Allied")
    return state


def activated(state: OnslaughtState, hex_: str, side: dict[str, str] = ALLIED) -> OnslaughtState:
    """The state after a Movement action activating the stack in `hex_`."""
    state = when(state, entitled=side["side"])
    for entry in (Action(**side, action="movement"), Activate(**side, hex=hex_)):
        state = advance(ONSLAUGHT, state, entry)
    return state


def reach_of(state: OnslaughtState, unit: str, kind: str = "move") -> Reach:
    """The model's reach of a unit."""
    model = ONSLAUGHT.movement
    return model.reach(state, unit, kind)


def judged_legal(state: OnslaughtState, unit: str, kind: str = "move") -> Iterator[tuple[str, list[str]]]:
    """Each hex the model says the unit reaches, with the checker's errors on a move along the model's path."""
    rule = move_rule(state, unit, kind == "strategic")
    from wargame.paths import reachable
    walked = reachable(rule.start, rule.cost, rule.budget, stops=rule.stops)
    label = state.game.grid.label_of
    for h in sorted(walked.cost):
        if h == rule.start:
            continue
        path = [label(x) for x in walked.path_to(h)]
        entry = Move(side=rule.side, unit=unit, path=path, strategic=kind == "strategic")
        yield label(h), [f"{f.rule}: {f.message}" for f in ONSLAUGHT.check(state, entry) if f.severity == "error"]


def test_open_country_reach_is_the_allowance(game: Game) -> None:
    """6.1: a division enters as many hexes as its movement allowance, one hex each."""
    state = activated(position(game, {"us-inf-01": "2216", **FAR}), "2216")
    reach = reach_of(state, "us-inf-01")
    allowance = movement_allowance(state, "us-inf-01")
    assert reach.bars == () and max(reach.hexes.values()) == allowance
    start = game.grid.hex_of("2216")
    for label, cost in reach.hexes.items():
        assert cost >= game.grid.hex_of(label).distance(start)
    assert all(reach.hexes[game.grid.label_of(n)] == 1 for n in game.grid.neighbours_on_map(start)
               if game.grid.label_of(n) in reach.hexes)


def test_a_depleted_division_moves_its_reduced_allowance(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """6.1 with 7.2: a depleted division's allowance is its reduced face's (every Onslaught counter prints the
    same allowance on both faces, so one is given a smaller one here)."""
    unit = game.units_by_id["de-inf-01"]
    slower = replace(unit, reduced=(unit.reduced[0], unit.full[1] - 2))
    monkeypatch.setitem(game.units_by_id, "de-inf-01", slower)
    state = activated(when(position(game, {"de-inf-01": "3010", **FAR}), entitled="German"), "3010", GERMAN)
    full = max(reach_of(state, "de-inf-01").hexes.values())
    depleted = replace(state, depleted=frozenset({"de-inf-01"}))
    assert max(reach_of(depleted, "de-inf-01").hexes.values()) == unit.full[1] - 2 == full - 2


def test_entering_an_enemy_zone_of_control_stops_the_move(game: Game) -> None:
    """6.2: the zone's hexes are reached, never passed through; an enemy-held hex is never a place to go."""
    state = activated(position(game, {"us-inf-01": "2216", "de-inf-01": "2413", **FAR}), "2216")
    reach = reach_of(state, "us-inf-01")
    zone = zone_of_control(state, "German")
    label = game.grid.label_of
    assert "2413" not in reach.hexes
    assert {label(h) for h in zone} & set(reach.hexes)
    rule = move_rule(state, "us-inf-01")
    from wargame.paths import reachable
    walked = reachable(rule.start, rule.cost, rule.budget, stops=rule.stops)
    for h in walked.cost:
        assert not any(x in zone for x in walked.path_to(h)[1:-1]), label(h)
    # Without 6.2 the hexes behind the zone would be reached through it.
    free = reachable(rule.start, rule.cost, rule.budget)
    assert set(free.cost) > set(walked.cost)


def test_from_one_zone_not_directly_into_another(game: Game) -> None:
    """6.2: a division starting in an enemy ZOC moves into a hex clear of it first."""
    state = activated(position(game, {"us-inf-01": "2216", "de-inf-01": "2316", **FAR}), "2216")
    zone = {game.grid.label_of(h) for h in zone_of_control(state, "German")}
    start = game.grid.hex_of("2216")
    next_door = {game.grid.label_of(n) for n in game.grid.neighbours_on_map(start)}
    reach = reach_of(state, "us-inf-01")
    # Never straight in: a zone hex next door is reached, if at all, by way of a hex clear of it.
    assert next_door & zone and all(reach.hexes.get(label, 2) >= 2 for label in next_door & zone)
    assert all(reach.hexes[label] == 1 for label in next_door - zone)


def test_crossing_a_major_waterway_takes_the_whole_allowance(game: Game) -> None:
    """6.5: adjacent at the start, one hex across; not after moving; German divisions cross the Rhine freely."""
    state = activated(position(game, {"us-inf-01": "4208", **FAR}), "4208")
    allowance = movement_allowance(state, "us-inf-01")
    assert reach_of(state, "us-inf-01").hexes["4209"] == allowance
    later = activated(position(game, {"us-inf-01": "4207", **FAR}), "4207")
    assert reach_of(later, "us-inf-01").hexes.get("4209", allowance + 1) > 2
    german = activated(when(position(game, {"de-inf-01": "4207", **FAR}), entitled="German"), "4207", GERMAN)
    assert reach_of(german, "de-inf-01").hexes["4209"] == 2
    bridged = activated(position(game, {"us-inf-01": "4207", "us-inf-02": "4209", **FAR}), "4207")
    assert reach_of(bridged, "us-inf-01").hexes["4209"] == 2
    scheldt = activated(when(position(game, {"de-inf-01": "2807", **FAR}), entitled="German"), "2807", GERMAN)
    assert reach_of(scheldt, "de-inf-01").hexes["2808"] == movement_allowance(scheldt, "de-inf-01")


def test_strategic_movement_triples_and_keeps_away(game: Game) -> None:
    """6.4: three times the allowance, never within two movement points of an enemy division; barred near one."""
    state = activated(position(game, {"us-inf-01": "2216", "de-inf-01": "2211", **FAR}), "2216")
    allowance = movement_allowance(state, "us-inf-01")
    reach = reach_of(state, "us-inf-01", "strategic")
    assert max(reach.hexes.values()) == 3 * allowance
    near = {game.grid.label_of(h) for h in near_enemy(state, "Allied")}
    assert near and not near & set(reach.hexes)
    close = activated(position(game, {"us-inf-01": "2216", "de-inf-01": "2214", **FAR}), "2216")
    assert reach_of(close, "us-inf-01", "strategic").hexes == {}
    assert any(b.startswith("6.4:") for b in reach_of(close, "us-inf-01", "strategic").bars)


def test_an_unsupplied_stack_moves_one_hex(game: Game) -> None:
    """8.6: a stack out of supply when activated moves one hex."""
    state = activated(position(game, {"us-inf-01": "2216", **FAR}), "2216")
    assert state.action is not None
    cut = replace(state, action=replace(state.action, unsupplied=frozenset({"us-inf-01"})))
    assert max(reach_of(cut, "us-inf-01").hexes.values()) == 1
    assert max(reach_of(cut, "us-inf-01", "strategic").hexes.values()) == 1


def test_what_bars_a_move(game: Game) -> None:
    """5.2, 6.1, 6.2, 5.0: no action, not activated, already moved or stopped in a ZOC, the Reserve Step (its stack
    activated, ruling 5.2, or not)."""
    state = position(game, {"us-inf-01": "2216", "us-inf-02": "2010", **FAR})
    assert any(b.startswith("5.2:") for b in reach_of(state, "us-inf-01").bars)
    on = activated(state, "2216")
    assert any(b.startswith("6.1:") for b in reach_of(on, "us-inf-02").bars)
    moved = advance(ONSLAUGHT, on, Move(**ALLIED, unit="us-inf-01", path=["2216", "2217"]))
    assert any("already moved" in b for b in reach_of(moved, "us-inf-01").bars)
    stopped = replace(on, action_log=replace(on.action_log, stopped=frozenset({"us-inf-01"})))
    assert any(b.startswith("6.2:") for b in reach_of(stopped, "us-inf-01").bars)
    unactivated = when(position(game, {"de-inf-01": "3010", **FAR}), step="german_reserve", entitled=None)
    assert any(b.startswith("6.1:") and "Reserve Step" in b for b in reach_of(unactivated, "de-inf-01").bars)
    reserve = when(unactivated, reserve_stacks=(frozenset({"de-inf-01"}),))
    assert any(b.startswith("5.0:") for b in reach_of(reserve, "de-inf-01").bars)
    assert reach_of(reserve, "de-inf-01", "strategic").hexes
    with pytest.raises(WargameError, match="did you mean"):
        reach_of(state, "us-inf-1")
    with pytest.raises(WargameError, match="kind"):
        reach_of(state, "us-inf-01", "rail")


@pytest.mark.parametrize("units,hex_,kind", [
    ({"us-inf-01": "2216", "de-inf-01": "2413"}, "2216", "move"),
    ({"us-inf-01": "2216", "de-inf-01": "2316"}, "2216", "move"),
    ({"us-inf-01": "4207", "us-inf-02": "4209"}, "4207", "move"),
    ({"us-inf-01": "4208"}, "4208", "move"),
    ({"us-inf-01": "2216", "de-inf-01": "2211"}, "2216", "strategic"),
])
def test_every_hex_in_reach_is_a_move_the_checker_accepts(game: Game, units: dict[str, str], hex_: str,
                                                         kind: str) -> None:
    """One model, two askers: the path to each reachable hex is judged legal, and each neighbour left out is not."""
    state = activated(position(game, {**units, **FAR}), hex_)
    reached = dict(judged_legal(state, "us-inf-01", kind))
    assert reached and all(errors == [] for errors in reached.values()), reached
    start = game.grid.hex_of(hex_)
    for n in game.grid.neighbours_on_map(start):
        label = game.grid.label_of(n)
        if label in reached:
            continue
        entry = Move(**ALLIED, unit="us-inf-01", path=[hex_, label], strategic=kind == "strategic")
        enemy = any(w == label for u, w in state.location.items() if game.units_by_id[u].side == "German")
        errors = [f for f in ONSLAUGHT.check(state, entry) if f.severity == "error"]
        assert errors or enemy, label


def _replay(log: str) -> Replay[Any]:
    return adjudicate_file(EXAMPLES / log, None)[0]


def test_onslaught_retreat_options_are_the_checkers() -> None:
    """7.3: each legal path passes `check_retreat`, and the two-hex ends are the checker's own options."""
    result = _replay("onslaught/legal-results.log")
    seen = 0
    for line in (10, 17, 22):
        state = result.state_at(line)
        options = ONSLAUGHT.movement.retreat_options(state)
        assert options and state.combat is not None
        two, _ = retreat_options_of(state, state.combat)
        for option in options:
            assert option.due == 2 and option.paths and not option.shorter
            assert sorted({p[-1] for p in option.paths}) == two
            for path in option.paths:
                entry = Retreat(side="German", unit=option.unit, path=list(path))
                assert [f for f in ONSLAUGHT.check(state, entry) if f.severity == "error"] == [], path
                seen += 1
    assert seen
    assert ONSLAUGHT.movement.retreat_options(result.state_at(12)) == []


def test_omaha_retreat_options_are_the_checkers() -> None:
    """8.3: the log's own retreat is among the legal paths, and each passes the checker."""
    result = _replay("omaha/legal-combat.log")
    state = result.state_at(54)
    (option,) = OMAHA.movement.retreat_options(state)
    assert option.unit == "914/352" and option.due == 2 and ("2117", "2016", "1916") in option.paths
    for path in option.paths:
        entry = Retreat(side="German", unit=option.unit, path=list(path))
        assert [f for f in OMAHA.check(state, entry) if f.severity == "error"] == [], path
    assert OMAHA.movement.retreat_options(result.state_at(56)) == []


def test_onslaught_supply_lines_agree_with_the_checker() -> None:
    """8.3-8.5: a line is found exactly when the division is in supply; it runs hex to adjacent hex from the
    division, through no hex in enemy ZOC that no friendly division holds."""
    result = _replay("onslaught/legal-sample-game.log")
    checked = 0
    for state in result.states[1::7]:
        grid = state.game.grid
        for unit in sorted(state.location):
            if not grid.is_label(state.location[unit]):
                continue
            line = ONSLAUGHT.movement.supply_line(state, unit)
            assert (line is not None) == is_supplied(state, unit), (unit, state.at.turn)
            if line is None:
                continue
            hexes = [grid.hex_of(label) for label in line]
            assert line[0] == state.location[unit]
            assert all(a.is_adjacent(b) for a, b in zip(hexes, hexes[1:]))
            side = state.game.units_by_id[unit].side
            zone = zone_of_control(state, next(s for s in ("Allied", "German") if s != side))
            friends = {w for u, w in state.location.items() if state.game.units_by_id[u].side == side}
            assert all(h not in zone or line[i + 1] in friends for i, h in enumerate(hexes[1:-1]))
            checked += 1
    assert checked > 100


def test_omaha_supply_lines_agree_with_the_checker() -> None:
    """12.0: an Allied unit has a line exactly when it is not out of supply; German units need none (9.0)."""
    result = _replay("omaha/legal-sample-game.log")
    for state in result.states[1::5]:
        out = set(OMAHA.out_of_supply(state))
        for unit in sorted(state.location):
            if not state.game.grid.is_label(state.location[unit]):
                continue
            line = OMAHA.movement.supply_line(state, unit)
            assert (line is None) == (unit in out), unit
            if line is not None:
                hexes = [state.game.grid.hex_of(label) for label in line]
                assert line[0] == state.location[unit]
                assert all(a.is_adjacent(b) for a, b in zip(hexes, hexes[1:]))


def test_omaha_reach_is_what_the_checker_accepts() -> None:
    """5.1-5.4, 6.1: each reachable hex is a legal move; leg units stop in EZOC; the reach costs MP."""
    result = _replay("omaha/legal-combat.log")
    state: FireAndMovementState = result.state_at(46)
    reach = OMAHA.movement.reach(state, "16/1")
    assert reach.bars == () and max(reach.hexes.values()) <= OMAHA.allowance(state, "16/1")
    rule = OMAHA.move_rule(state, "16/1")
    from wargame.paths import reachable
    start = state.game.grid.hex_of(state.location["16/1"])
    walked = reachable(start, rule.cost, rule.budget, stops=rule.stops)
    label = state.game.grid.label_of
    ezoc = OMAHA.ezoc(state, "Allied")
    for h in walked.cost:
        if h == start:
            continue
        if label(h) not in reach.hexes:
            # 5.3: a hex the unit could walk to but not end its movement in, stacked beyond what it takes.
            assert any(w == label(h) and u != "16/1" for u, w in state.location.items()), label(h)
            continue
        path = walked.path_to(h)
        assert not any(x in ezoc for x in path[1:-1])
        entry = Move(side="Allied", unit="16/1", path=[label(x) for x in path])
        assert [f for f in OMAHA.check(state, entry) if f.severity == "error"] == [], path
    assert any(label(h) in {label(x) for x in ezoc} for h in walked.cost)
    assert OMAHA.movement.reach(state, "16/1", "strategic").bars
    assert OMAHA.movement.reach(state, "CCA/2").bars[0].startswith("11.2.4:")
    assert OMAHA.movement.reach(result.state_at(47), "16/1").bars[0].startswith("5.2:")


def test_zones_of_control_are_the_sides_own() -> None:
    """6.2 (Onslaught) and 6.0 (Fire & Movement): each side's zones, as the checkers see them."""
    onslaught = _replay("onslaught/legal-results.log").state_at(10)
    for side, other in (("Allied", "German"), ("German", "Allied")):
        zone = ONSLAUGHT.movement.zones_of_control(onslaught, side)
        assert zone == {onslaught.game.grid.label_of(h) for h in zone_of_control(onslaught, side)} and zone
    omaha = _replay("omaha/legal-combat.log").state_at(46)
    german = OMAHA.movement.zones_of_control(omaha, "German")
    assert german == {omaha.game.grid.label_of(h) for h in OMAHA.ezoc(omaha, "Allied")}
    assert "2217" in german and "2117" not in german
