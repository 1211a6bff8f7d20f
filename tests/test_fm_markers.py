"""Support fire marker pools and the exclusive rules' dice (Fire & Movement 7.1, 7.2, 8.2.1 b; Omaha
11.1.4, 11.2.3, 11.2.6, 11.2.7, 14.1): draws, placement order, markers put aside and lost, the
Pointe du Hoc roll, the beach assaults' obligation and the weather."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from adjudicator.notation.text import parse_text
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.omaha import OmahaState
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.onslaught import ONSLAUGHT
from fm_log import SETUP, landed, replay_errors, replay_from
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import at_phase

PHASES = FM.phases(load_game(data_root(), "omaha"))
"""4.1: the phases of a game turn, from the game's [[sequence]]."""

COMBAT = "Phase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n"
OPEN = {"914/352": "2117", "16/1": "2217", "18/1": "2216"}
"""914/352 on mixed ground at 2117 with two Allied regiments beside it."""
ATTACK = "Allied: attack 2117 with 16/1 18/1 die 3 support {}\n"
REST_OF_GT = ("Phase mobile_movement\nPhase mobile_combat\nPhase movement\nPhase bombardment\nPhase combat\n"
              "Phase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\n")


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def run(game: Game, text: str, placed: dict[str, str] | None = None, turn: int = 1, optional: tuple[str, ...] = (),
        **state: Any) -> tuple[list[tuple[str, str]], OmahaState]:
    """Replay `text` from the end of GT `turn - 1` (`Turn N` is prepended) with `placed` on the map:
    (rule, entry) of every error, and the final state."""
    base = FM.initial_state(game, [])
    start = at_phase(base, location={**base.location, **(placed or {})}, turn=turn - 1,
                    phase=None if turn == 1 else len(PHASES) - 1, optional=frozenset(optional), **state)
    return replay_from(start, f"Turn {turn}\n{text}")


# -- 7.1, 11.1.4, 11.2.6: the pools ------------------------------------------------------------
def test_the_allotments_are_the_whole_sets(game: Game) -> None:
    """11.1.4 and 11.2.6: 15 German markers (plus the two Achtung Minen) and 25 Allied ones each GT."""
    german = pools.in_cups(game, "German", (), (), (), False)
    allied = pools.in_cups(game, "Allied", (), (), (), False)
    assert sum(german.values()) == 17 and german["de_mines"] == 2 and german["de_sf_6"] == 3
    assert sum(allied.values()) == 25 and "us_naval_7" not in allied
    assert "us_air_8" not in pools.in_cups(game, "Allied", (), (), (), True)  # 14.1


def test_a_smaller_allotment_takes_the_lowest_markers(game: Game) -> None:
    """7.1: with an allotment below the pool, the lowest-valued markers are taken first."""
    small = copy.copy(load_game(data_root(), "omaha"))  # its own: load_game's games are shared in a process
    small.parameters = replace(small.parameters, parameter=[
        p if p.id != "german_support_allotment" else replace(p, value=4)
        for p in small.parameters.parameter])
    small.__dict__.pop("parameter", None)  # the cached index of parameters
    left = pools.in_cups(small, "German", (), (), (), False)
    assert left == {"de_sf_1": 1, "de_sf_2": 2, "de_sf_3": 1, "de_mines": 2}
    # After a +1 is lost for good, the fourth lowest is another +3.
    assert pools.in_cups(small, "German", ("de_sf_1",), (), (), False) == {"de_sf_2": 2, "de_sf_3": 2, "de_mines": 2}


# -- 7.2 and 8.2.1 b: draws and placements ------------------------------------------------------
def test_drawn_markers_are_placed_as_drawn(game: Game) -> None:
    """7.2: a marker drawn for a combat is the one placed on it; every drawn one is placed."""
    assert run(game, COMBAT + "Allied: draw us_sf_6\nGerman: draw de_sf_4\n" + ATTACK.format("us_sf_6 de_sf_4"),
               OPEN)[0] == []
    wrong = ATTACK.format("us_sf_7")
    assert run(game, COMBAT + "Allied: draw us_sf_6\n" + wrong, OPEN)[0] == [("7.2", wrong.strip())]
    kept = ATTACK.format("de_sf_4")
    assert run(game, COMBAT + "Allied: draw us_sf_6\nGerman: draw de_sf_4\n" + kept, OPEN)[0] == [("7.2", kept.strip())]
    # Without draws, the markers placed are taken as drawn then.
    assert run(game, COMBAT + ATTACK.format("us_sf_6 de_sf_4"), OPEN)[0] == []


def test_draws_come_from_what_is_left(game: Game) -> None:
    """7.2: drawn in a Bombardment or Combat Phase, from the side's own cup, while any is left; never
    a naval gunfire marker (11.2.7); at most two a side a combat (8.2.1 b)."""
    early = "Phase support_fire_marker\nPhase movement\nAllied: draw us_sf_6\n"
    assert run(game, early, OPEN)[0] == [("7.2", "Allied: draw us_sf_6")]
    assert run(game, COMBAT + "Allied: draw de_sf_6\n", OPEN)[0] == [("7.1", "Allied: draw de_sf_6")]
    assert run(game, COMBAT + "Allied: draw us_naval_7\n", OPEN)[0] == [("11.2.7", "Allied: draw us_naval_7")]
    assert run(game, COMBAT + "Allied: draw us_sf_2 us_sf_3 us_sf_5\n", OPEN)[0] == \
        [("8.2.1b", "Allied: draw us_sf_2 us_sf_3 us_sf_5")]
    # One +10 in the Allied cups: the second draw of it in the game turn finds none.
    twice = COMBAT + ("Allied: draw us_air_10\n" + ATTACK.format("us_air_10")
                      + "Allied: attack 2017 with 18/1 die 3\nAllied: draw us_air_10\n")
    errors, _ = run(game, twice, {**OPEN, "915/352": "2017"})
    assert ("7.2", "Allied: draw us_air_10") in errors
    # ... and the next game turn it is back in the cup.
    _, after = run(game, COMBAT + "Allied: draw us_air_10\n" + ATTACK.format("us_air_10") + REST_OF_GT, OPEN)
    assert run(game, COMBAT + "Allied: draw us_air_10\n", OPEN, turn=2, markers_used=after.markers_used)[0] == []
    assert run(game, COMBAT + "Allied: draw us_air_10\n", OPEN, turn=1, markers_used=pools.Tally.of("us_air_10"))[0] == \
        [("7.2", "Allied: draw us_air_10")]


def test_placements_alternate(game: Game) -> None:
    """8.2.1 b: attacker, defender, attacker, defender, one at a time: the list is placement order."""
    legal = ATTACK.format("us_sf_6 de_sf_4 us_sf_2 de_sf_2")
    assert run(game, COMBAT + legal, OPEN)[0] == []
    assert run(game, COMBAT + ATTACK.format("de_sf_4 us_sf_6 de_sf_2"), OPEN)[0] == []
    late = ATTACK.format("us_sf_6 us_sf_2 de_sf_4 de_sf_2")
    assert run(game, COMBAT + late, OPEN)[0] == [("8.2.1b", late.strip())]


def test_achtung_minen_may_be_kept(game: Game) -> None:
    """11.1.4: a drawn Achtung Minen may be put aside for a later combat of the game turn; no other
    drawn marker may."""
    two = {**OPEN, "915/352": "2017", "26/1": "2018"}
    later = ("Allied: attack 2017 with 26/1 die 3 support de_mines\n")
    text = COMBAT + "German: draw de_mines de_sf_4\n" + ATTACK.format("de_sf_4") + later
    assert run(game, text, two)[0] == []
    assert run(game, COMBAT + "German: draw de_mines\nGerman: aside de_mines\n" + ATTACK.format("de_sf_4") + later,
               two)[0] == []
    assert run(game, COMBAT + "German: aside de_sf_4\n", two)[0] == [("11.2.3", "German: aside de_sf_4")]


# -- 11.1.4: markers lost after captures ------------------------------------------------------
def test_a_capture_costs_a_marker_the_next_game_turn(game: Game) -> None:
    """11.1.4: the German eliminates one marker, picked at random, in the game turn after the Allied
    capture of Caumont; by the end of its Support Fire Marker Phase; once per place."""
    held = {"0421": "Allied"}
    due = "Phase support_fire_marker\nPhase movement\n"
    errors, state = run(game, due, turn=2, controlled=held)
    assert errors == [("11.1.4", "Phase movement")] and "Caumont" in state.captured
    errors, state = run(game, "Phase support_fire_marker\nGerman: lose de_sf_4\nPhase movement\n", turn=2,
                        controlled=held)
    assert errors == [] and state.lost_markers == pools.Tally.of("de_sf_4")
    # Once paid for, Caumont costs nothing more.
    assert run(game, due, turn=3, controlled=held, captured=frozenset({"Caumont"}))[0] == []
    # Isigny needs both hexes.
    assert run(game, due, turn=2, controlled={"1811": "Allied"})[0] == []
    assert run(game, due, turn=2, controlled={"1811": "Allied", "1911": "Allied"})[0] == [("11.1.4", "Phase movement")]
    assert run(game, "Phase support_fire_marker\nGerman: lose de_sf_4\n", turn=2)[0] == \
        [("11.1.4", "German: lose de_sf_4")]
    assert run(game, "Phase support_fire_marker\nGerman: lose de_mines\n", turn=2, controlled=held)[0] == \
        [("11.1.4", "German: lose de_mines")]
    # The lost marker is gone from the cup: the +9 was the only one.
    gone = COMBAT + "German: draw de_sf_9\n"
    assert run(game, gone, OPEN, turn=3, lost_markers=pools.Tally.of("de_sf_9"))[0] == [("7.2", "German: draw de_sf_9")]


# -- 11.2.3: Pointe du Hoc and the beach assaults -----------------------------------------------
def pdh(game: Game, after_roll: str, die: int, then: str = "") -> list[tuple[str, str]]:
    """Errors of the set-up, a Pointe du Hoc roll of `die`, `after_roll`, the beach assaults, GT 1
    up to its Movement Phase and `then`."""
    assaults = landed(SETUP).removeprefix(SETUP).split("German: lose de_sf_6\n")[1]
    text = f"{SETUP}Roll Allied {die}\n{after_roll}{assaults}Turn 1\nPhase support_fire_marker\nPhase movement\n{then}"
    return replay_errors(game, text)[0]


def test_pointe_du_hoc(game: Game) -> None:
    """11.2.3: the roll once the Rangers have landed; each die's loss of the Rangers and of a German
    +6 marker, and how far the Rangers may move up to the end of GT 1."""
    assert pdh(game, "Allied: eliminate 2Rgr\n", 1) == []
    assert pdh(game, "", 1) == [("11.2.3", "Turn 1")]
    # One breach, one error (issue 26): a wrong loss is its own line's error, not again as GT 1 begins.
    assert pdh(game, "Allied: deplete 2Rgr\n", 1) == [("11.2.3", "Allied: deplete 2Rgr")]
    assert pdh(game, "Allied: eliminate 2Rgr\n", 2) == [("11.2.3", "Allied: eliminate 2Rgr")]
    assert pdh(game, "Allied: deplete 2Rgr\n", 2) == []
    assert pdh(game, "Allied: deplete 2Rgr\n", 2, "2Rgr 2417-2416\n") == [("11.2.3", "2Rgr 2417-2416")]
    assert pdh(game, "Allied: deplete 2Rgr\n2Rgr 2417-2416\n", 3) == []
    assert pdh(game, "Allied: deplete 2Rgr\n", 3, "2Rgr 2417-2416\n") == []
    assert pdh(game, "Allied: deplete 2Rgr\n2Rgr 2417-2416\n", 3, "2Rgr 2416-2415\n") == [("11.2.3", "2Rgr 2416-2415")]
    assert pdh(game, "Allied: deplete 2Rgr\n2Rgr 2417-2416-2415\n", 3) == [("11.2.3", "2Rgr 2417-2416-2415")]
    # A 4: a +6 put aside for GT 1; a 5 or 6: one eliminated for good (by the end of GT 1's first phase).
    assert pdh(game, "Allied: deplete 2Rgr\nGerman: aside de_sf_6\n", 4) == []
    assert pdh(game, "Allied: deplete 2Rgr\n", 4) == [("11.2.3", "Phase movement")]
    assert pdh(game, "German: lose de_sf_6\n", 6) == []
    assert pdh(game, "", 5) == [("11.2.3", "Phase movement")]
    assert pdh(game, "German: lose de_sf_5\n", 5) == [("11.2.3", "German: lose de_sf_5")]
    assert pdh(game, "German: lose de_sf_6\nRoll Allied 3\n", 5) == [("11.2.3", "Roll Allied 3")]
    # Before the Rangers land there is nothing to roll.
    early = SETUP.replace("Allied: setup 2Rgr 2417\n", "Roll Allied 5\nAllied: setup 2Rgr 2417\n")
    assert ("11.2.3", "Roll Allied 5") in replay_errors(game, early)[0]


def test_every_beach_landing_hex_assaults_and_the_landed_stay_put(game: Game) -> None:
    """11.2.3: each beach landing hex with Allied units makes its beach assault before GT 1; 11.2.1:
    the units landed do not move on GT 1."""
    without = "".join(line + "\n" for line in landed(SETUP).splitlines() if not line.startswith("Allied: attack 2120"))
    assert replay_errors(game, without + "Turn 1\n")[0] == [("11.2.3", "Turn 1")]
    move = "Phase support_fire_marker\nPhase movement\n175/29 2120-2020\n"
    assert replay_errors(game, landed(SETUP) + "Turn 1\n" + move)[0] == [("11.2.1", "175/29 2120-2020")]



def test_the_landed_do_not_attack_on_gt_1(game: Game) -> None:
    """11.2.1: the beach assault is the landed units' only action of GT 1, so they do not attack in
    its Combat Phase; on GT 2 the same attack is legal."""
    # 175/29 (2120) against 5/3 put at 2019 (mixed): 4 against 5, column c5; a 2 reads no effect.
    attack = "Allied: attack 2019 with 175/29 die 2 result -\n"
    placed = {"5/3": "2019"}
    gt1 = landed(SETUP) + "Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n"
    assert replay_errors(game, gt1 + attack, placed)[0] == [("11.2.1", "Allied: attack 2019 with 175/29 die 2 result -")]
    gt2 = gt1 + "Phase mobile_movement\nPhase mobile_combat\nPhase movement\nGerman: reinforce Sch/30 1005\n" + \
        REST_OF_GT.split("Phase movement\n", 1)[1] + "Turn 2\nPhase support_fire_marker\nPhase movement\n"
    gt2 += "Allied: reinforce 9/2 2319\nAllied: reinforce 23/2 2318\nAllied: reinforce 38/2 2318\n" \
           "Allied: reinforce CCA/2 2219\nAllied: reinforce CCB/2 2120\nAllied: reinforce CCR/2 2120\n"
    assert replay_errors(game, gt2 + "Phase bombardment\nPhase combat\n" + attack, placed)[0] == []

# -- 14.1 weather ------------------------------------------------------------------------------
def test_weather(game: Game) -> None:
    """14.1 (optional): the German weather die as each GT from GT 2 begins; on a 6 allowances are
    halved (rounded up), no aircraft markers, and each side puts aside a die's worth of markers."""
    fair = "Roll German 3\nPhase support_fire_marker\nPhase movement\n"
    assert run(game, fair, turn=2, optional=("weather",))[0] == []
    assert run(game, "Phase support_fire_marker\nPhase movement\n", turn=2, optional=("weather",))[0] == \
        [("14.1", "Phase movement")]
    assert run(game, "Phase support_fire_marker\nPhase movement\n", turn=1, optional=("weather",))[0] == []
    assert run(game, fair, turn=2)[0] == [("log", "Roll German 3")]
    assert run(game, "Roll Allied 3\n", turn=2, optional=("weather",))[0] == [("14.1", "Roll Allied 3")]
    bad = "Roll German 6\nPhase support_fire_marker\nRoll Allied 2 German 1\nAllied: aside us_sf_3\nPhase movement\n"
    assert run(game, bad, turn=2, optional=("weather",))[0] == [("14.1", "Phase movement")] * 2
    good = ("Roll German 6\nPhase support_fire_marker\nRoll Allied 2 German 1\nAllied: aside us_sf_3 us_sf_7\n"
            "German: aside de_sf_2\nPhase movement\n")
    errors, state = run(game, good, turn=2, optional=("weather",))
    assert errors == [] and state.weather == "inclement" and state.withheld.elements() == ["de_sf_2", "us_sf_3", "us_sf_7"]
    assert run(game, good.replace("us_sf_7", "us_air_4"), turn=2, optional=("weather",))[0] == \
        [("14.1", "Allied: aside us_sf_3 us_air_4")]
    # Inclement: 16/1 (allowance 6) has 3; mixed then marsh (5 MP) is too much, mixed alone (2 MP) is not.
    placed = {"16/1": "2014"}
    assert run(game, good + "16/1 2014-1914\n", placed, turn=2, optional=("weather",))[0] == []
    assert run(game, good + "16/1 2014-1914-1814\n", placed, turn=2, optional=("weather",))[0] == \
        [("14.1", "16/1 2014-1914-1814")]  # issue 26: within the printed 6, so the halving is misread
    assert run(game, good.replace("Roll German 6", "Roll German 5").replace(
        "Roll Allied 2 German 1\nAllied: aside us_sf_3 us_sf_7\nGerman: aside de_sf_2\n", "")
        + "16/1 2014-1914-1814\n", placed, turn=2, optional=("weather",))[0] == []
    # 6.1 with 14.1: a mobile unit pays half its halved MA to enter an EZOC (CCA/2: 10, halved 5, pays 2 more), as
    # 5.2 a's printed MA is the halved one; half the printed 10 would bar every EZOC to it in inclement weather.
    closing = {"914/352": "2117", "CCA/2": "2317"}
    assert run(game, good + "CCA/2 2317-2217\n", closing, turn=2, optional=("weather",))[0] == []
    assert run(game, good + "CCA/2 2317-2316-2216\n", closing, turn=2, optional=("weather",))[0] == []
    assert run(game, good + "CCA/2 2317-2316-2215-2216\n", closing, turn=2, optional=("weather",))[0] == \
        [("6.1", "CCA/2 2317-2316-2215-2216")]
    aircraft = good + "Phase bombardment\nPhase combat\nAllied: draw us_air_8\n"
    assert run(game, aircraft, OPEN, turn=2, optional=("weather",))[0] == [("14.1", "Allied: draw us_air_8")]


def test_onslaught_has_no_support_markers() -> None:
    """The marker entries are Fire & Movement's: Onslaught refuses them."""
    game = load_game(data_root(), "onslaught")
    state = ONSLAUGHT.initial_state(game, [])
    entry = parse_text('[Game "onslaught"]\nGerman: draw de_sf_6\n')[-1]
    assert [f.rule for f in ONSLAUGHT.check(state, entry)] == ["log"]


def test_beach_stacks(game: Game) -> None:
    """11.2.4: outside a beach assault one unit of a beach landing stack attacks a given hex (others
    may attack other hexes); 11.2.1: a unit that has left a beach landing hex never stacks again."""
    stack = {"914/352": "2218", "915/352": "2418", "16/1": "2319", "18/1": "2319"}
    both = "Allied: attack 2218 with 16/1 18/1\n"
    errors, _ = run(game, COMBAT + both, stack, turn=2)
    assert errors == [("11.2.4", both.strip())]
    split = "Allied: attack 2218 with 16/1\nAllied: attack 2418 with 18/1\n"
    assert run(game, COMBAT + split, stack, turn=2)[0] == []
    back = ("Phase support_fire_marker\nPhase movement\n16/1 2319-2318\nPhase bombardment\nPhase combat\n"
            "Phase mobile_movement\nPhase mobile_combat\nPhase movement\nPhase bombardment\nPhase combat\n"
            "Phase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\nTurn 3\nPhase support_fire_marker\n"
            "Phase movement\n16/1 2318-2319\nPhase bombardment\n")
    errors, _ = run(game, back, {"16/1": "2319", "18/1": "2319"}, turn=2, beachheads=frozenset({"2319", "2318"}))
    assert errors == [("11.2.1", "Phase bombardment")]


def test_a_beach_restack_of_a_log_ending_inside_the_phase_is_noted(game: Game) -> None:
    """11.2.1 (ruling, as 5.3 and 11.2.4's landings): a log ending inside a phase never reaches its end, where a
    unit that left a beach landing hex and stands with another is judged: a note on the line of the entry that made
    the stack, never an error; nothing once the phase ended (its error) or the stack is undone."""
    back = ("Phase support_fire_marker\nPhase movement\n16/1 2319-2318\nPhase bombardment\nPhase combat\n"
            "Phase mobile_movement\nPhase mobile_combat\nPhase movement\nPhase bombardment\nPhase combat\n"
            "Phase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\nTurn 3\nPhase support_fire_marker\n"
            "Phase movement\n16/1 2318-2319\n")
    placed, beachheads = {"16/1": "2319", "18/1": "2319"}, frozenset({"2319", "2318"})
    errors, state = run(game, back, placed, turn=2, beachheads=beachheads)
    notes = FM.finish(state)
    assert errors == [] and [(f.severity, f.rule, f.line) for f in notes] == [("note", "11.2.1", 19)]
    assert "the log ends inside GT 3, movement phase (Allied player turn)" in notes[0].message
    assert "16/1 stacked in 2319 with 18/1" in notes[0].message and "an error if the phase ended now" in notes[0].message
    assert FM.finish(run(game, back + "16/1 2319-2318\n", placed, turn=2, beachheads=beachheads)[1]) == []
    errors, state = run(game, back + "Phase bombardment\n", placed, turn=2, beachheads=beachheads)
    assert errors == [("11.2.1", "Phase bombardment")] and FM.finish(state) == []


def test_assault_units_without_room_land_on_gt_2(game: Game) -> None:
    """11.2.1: with the beach landing hexes chosen full, the other assault units arrive on GT 2 as
    reinforcements on a beach landing hex; with room left, every one lands before GT 1."""
    one = ("German: setup 914/352 2117\nGerman: setup 915/352 2021\nGerman: setup 916/352 2022\n"
           "German: setup 352/352 1510\nGerman: setup 1Flak 1610\n"
           "Allied: setup 16/1 2319\nAllied: setup 18/1 2319\nAllied: setup 26/1 2319\nAllied: setup 2Rgr 2417\n")
    assert replay_errors(game, landed(one) + "Turn 1\n")[0] == []
    assert replay_errors(game, landed(one.replace("Allied: setup 26/1 2319\n", "")) + "Turn 1\n")[0] == \
        [("11.0", "Turn 1")]
    gt2 = ("Phase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\n"
           "Phase mobile_combat\nPhase movement\nGerman: reinforce Sch/30 1005\nPhase bombardment\nPhase combat\n"
           "Phase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\nTurn 2\nPhase support_fire_marker\n"
           "Phase movement\n16/1 2319-2318\n")
    errors = replay_errors(game, landed(one) + "Turn 1\n" + gt2 + "Allied: reinforce 115/29 2319\nPhase bombardment\n")[0]
    assert not any("115/29" in e or e == "Phase bombardment" for _, e in errors), errors
    assert ("11.2.4", "Phase bombardment") in replay_errors(game, landed(one) + "Turn 1\n" + gt2 + "Phase bombardment\n")[0]


# -- 10.1 scenario boundary ----------------------------------------------------------------------
def test_the_scenario_boundary(game: Game) -> None:
    """10.1: no unit west of the Douve and Taute (2108 to 0805) or of the hexes 0705-0104: not set up,
    moved, retreated or advanced there."""
    from adjudicator.systems.omaha.boundary import playable
    region = playable(game)
    assert region is not None
    label = game.grid.label_of
    out = {label(h) for _, r in game.hexes for h in [game.grid.hex_of(r.hex)]} - {label(h) for h in region}
    assert {"0104", "0705", "0805", "2109", "1907"}.isdisjoint(out)      # the boundary's own hexes are in play
    assert {"0103", "0704", "0804", "1906", "2108"} <= out               # west of the line or the rivers
    move = "Phase support_fire_marker\nPhase movement\n16/1 0905-0904\n"
    assert run(game, move, {"16/1": "0905"}, turn=2)[0] == [("10.1", "16/1 0905-0904")]
    assert run(game, move.replace("0905-0904", "0905-1005"), {"16/1": "0905"}, turn=2)[0] == []
    setup = SETUP.replace("German: setup 352/352 1510", "German: setup 352/352 1906")
    assert ("10.1", "German: setup 352/352 1906") in replay_errors(game, setup)[0]
    # A retreat cannot go west: with the only open hexes out of play, the unit cannot retreat.
    state = run(game, "", {"914/352": "0705"}, turn=2)[1]
    assert all(label(h) not in out for path in FM.retreat_paths(state, "914/352", 1) for h in path)
