"""Onslaught supply (7.5, 8.1-8.5, 10.2) on the bundled map: sources, lines, income and caps."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.engine import advance
from adjudicator.notation.entries import Capture, Income
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.supply import (
    SOUTHERN_FRANCE, allied_income, allied_sources, capped, german_sources, hexes_tracing_to, in_supply,
    supplied_hexes,
)
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.hexes import Hex, Hexside
from play_support import when

NONE: frozenset[str] = frozenset()
LOST = {"0620": "German", "0720": "German", "0820": "German"}
"""Every landing hex last entered by German divisions: no Allied source left but those a test adds."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


@pytest.fixture(scope="module")
def start(game: Game) -> OnslaughtState:
    """The campaign set-up (3.0)."""
    return ONSLAUGHT.initial_state(game, [])


def at(state: OnslaughtState, **moves: str) -> OnslaughtState:
    """The state with units moved (keyword names use _ for -); an empty string takes a unit off."""
    location = dict(state.location)
    for name, where in moves.items():
        unit_id = name.replace("_", "-")
        if where:
            location[unit_id] = where
        else:
            del location[unit_id]
    return replace(state, location=location)


def only(state: OnslaughtState, **placed: str) -> OnslaughtState:
    """The state with exactly these units on the map (keyword names use _ for -)."""
    return replace(state, location={name.replace("_", "-"): where for name, where in placed.items()})


def hexes(game: Game, *labels: str) -> set[Hex]:
    """Hexes by label."""
    return {game.grid.hex_of(label) for label in labels}


def test_supply_diagram(game: Game, start: OnslaughtState) -> None:
    """8.4 supply diagram (with 7.5 and 8.3), rebuilt in Germany by the east edge."""
    allied = ["4719", "4817", "4917", "4920", "4518", "4620", "4622", "4420", "4822"]
    state = only(start, **{f"us_inf_0{i + 1}": label for i, label in enumerate(allied)},
                 de_inf_01="4521", de_inf_02="4621", de_inf_03="4721", de_inf_04="4922",
                 de_pz_01="4619", ss_pz_01="4919", vg_01="4818")
    units = game.units_by_id
    assert [units[u].full for u in ("de-inf-01", "de-pz-01", "ss-pz-01", "vg-01")] == [(4, 4), (6, 5), (8, 5), (3, 3)]
    supplied = supplied_hexes(state, "German", {}, NONE)
    zoc = ONSLAUGHT.zoc(state, "Allied")
    # Four 4-4s in fortification hexes are in supply; three of them only because of 7.5.
    for unit_id in ("de-inf-01", "de-inf-02", "de-inf-03", "de-inf-04"):
        assert "fortification" in game.hex_terrain[game.grid.hex_of(state.location[unit_id])]
        assert in_supply(state, unit_id, supplied)
    assert not hexes(game, "4521", "4621", "4721") & supplied
    # The 6-5 panzer is cut off from the edge by Allied ZOC.
    assert all(n in zoc for n in game.grid.neighbours_on_map(game.grid.hex_of("4619")))
    assert not in_supply(state, "de-pz-01", supplied)
    # The 8-5 SS panzer has a path to the edge (it stands in Allied ZOC: its own hex never blocks).
    assert game.grid.hex_of("4919") in zoc
    assert in_supply(state, "ss-pz-01", supplied)
    # The 3-3 volksgrenadiers, surrounded by Allied ZOC, trace through the SS panzer's hex.
    assert all(n in zoc for n in game.grid.neighbours_on_map(game.grid.hex_of("4818")))
    assert in_supply(state, "vg-01", supplied)
    without_ss = at(state, ss_pz_01="")
    assert not in_supply(without_ss, "vg-01", supplied_hexes(without_ss, "German", {}, NONE))


def test_friendly_division_opens_a_hex_in_enemy_zoc(game: Game, start: OnslaughtState) -> None:
    """8.3: a line passes a hex in enemy ZOC only if a friendly division occupies it."""
    state = only(start, us_inf_01="4717", us_inf_02="5015", us_inf_03="5018", de_inf_01="4917")
    zoc = ONSLAUGHT.zoc(state, "Allied")
    assert all(n in zoc for n in game.grid.neighbours_on_map(game.grid.hex_of("4917")))
    assert not in_supply(state, "de-inf-01", supplied_hexes(state, "German", {}, NONE))
    # A German division in 4918 (in Allied ZOC) opens the way west, around the Allied line.
    held = at(state, de_inf_02="4918")
    supplied = supplied_hexes(held, "German", {}, NONE)
    assert in_supply(held, "de-inf-01", supplied) and in_supply(held, "de-inf-02", supplied)


def test_east_edge_hex_in_allied_zoc(game: Game, start: OnslaughtState) -> None:
    """8.4 (ruling revisited, issue 15): an edge hex in Allied ZOC is no source, even when a German
    division holds it; 8.3's exception lets a line pass such a hex, not end there."""
    state = only(start, us_inf_01="4717", us_inf_02="5015", us_inf_03="5018", de_inf_01="4917")
    edge = game.area_hexes("east_edge")
    assert game.grid.hex_of("5016") in edge and game.grid.hex_of("5016") in ONSLAUGHT.zoc(state, "Allied")
    assert not in_supply(state, "de-inf-01", supplied_hexes(state, "German", {}, NONE))
    held = at(state, de_inf_02="5016")
    supplied = supplied_hexes(held, "German", {}, NONE)
    assert not in_supply(held, "de-inf-02", supplied) and not in_supply(held, "de-inf-01", supplied)
    # An edge hex an Allied division occupies is never a German source.
    assert not hexes(game, "5015", "5018") & supplied


def test_sea_hexside_blocks(game: Game, start: OnslaughtState) -> None:
    """8.3: a supply line never crosses an impassable (sea) hexside."""
    state = only(start, br_inf_01="2408", de_inf_01="2410", de_inf_02="2210")
    ostend, west, south = (game.grid.hex_of(label) for label in ("2408", "2309", "2409"))
    assert "sea_side" in game.hexside_features[Hexside.between(ostend, west)]
    supplied = supplied_hexes(state, "Allied", LOST, NONE)
    assert set(allied_sources(state, LOST)) == {"2408"}
    # 2309's other land neighbours are in German ZOC, and so is 2409: 2409 reaches Ostend
    # across a land hexside and is supplied (its own hex never blocks), 2309 is not.
    zoc = ONSLAUGHT.zoc(state, "German")
    assert south in zoc and all(n in zoc for n in game.grid.neighbours_on_map(west)
                                if n != ostend and game.hex_terrain[n] != ("sea",))
    assert south in supplied and west not in supplied
    cut_off = at(state, br_inf_02="2309")
    assert not in_supply(cut_off, "br-inf-02", supplied_hexes(cut_off, "Allied", LOST, NONE))


def test_allied_supply_at_start(game: Game, start: OnslaughtState) -> None:
    """3.0, 8.4: the Allies start with the three landing hexes as sources; every division is in supply."""
    assert set(allied_sources(start, {})) == {"0620", "0720", "0820"}
    for side in ("Allied", "German"):
        supplied = supplied_hexes(start, side, {}, NONE)
        out = [u for u, where in start.location.items()
               if game.units_by_id[u].side == side and game.grid.is_label(where)
               and not in_supply(start, u, supplied)]
        assert out == [], side
    assert hexes(game, "0620", "0720", "0820") <= supplied_hexes(start, "Allied", {}, NONE)


def test_income_at_start(start: OnslaughtState) -> None:
    """4.1: 12 supply points, 'he still holds all three landing hexes'; a declined source gives none (8.1)."""
    assert allied_income(start, {}, []) == {"0620": 4, "0720": 4, "0820": 4}
    assert sum(allied_income(start, {}, ["0620"]).values()) == 8


def test_german_division_on_a_landing_hex(game: Game, start: OnslaughtState) -> None:
    """8.4: a source last occupied by a German division is no Allied source until recaptured."""
    taken = at(start, us_inf_01="0520", us_inf_02="0520", de_inf_04="0620")
    assert set(allied_sources(taken, {})) == {"0720", "0820"}
    assert sum(allied_income(taken, {}, []).values()) == 8
    assert game.grid.hex_of("0620") not in supplied_hexes(taken, "Allied", {}, NONE)
    # The German division has left, but was the last to enter.
    left = at(start, us_inf_01="0520", us_inf_02="0520")
    assert "0620" not in allied_sources(left, {"0620": "German"})
    assert "0620" in allied_sources(left, {"0620": "Allied"})
    assert "0620" in allied_sources(start, {"0620": "German"})  # Allied divisions stand in it again


def test_southern_france_from_turn_8(game: Game, start: OnslaughtState) -> None:
    """8.1, 8.4: from turn 8 an Allied line traced to entry area B reaches southern France."""
    state = only(start, us_inf_17="3830", us_inf_01="3810")
    for turn, expected in ((7, False), (8, True)):
        now = when(state, turn=turn)
        supplied = supplied_hexes(now, "Allied", LOST, NONE)
        assert in_supply(now, "us-inf-17", supplied) is expected
        assert in_supply(now, "us-inf-01", supplied) is expected
    assert allied_sources(when(state, turn=8), LOST) == {SOUTHERN_FRANCE: game.area_hexes("entry_b")}
    assert allied_income(when(start, turn=7), {}, []).get(SOUTHERN_FRANCE) is None
    assert sum(allied_income(when(start, turn=8), {}, []).values()) == 16
    assert SOUTHERN_FRANCE not in allied_income(when(start, turn=8), {}, [SOUTHERN_FRANCE])


def test_le_havre_port_area(game: Game, start: OnslaughtState) -> None:
    """8.5: Le Havre and Rouen serve only with the whole port area clear; Rouen only with Le Havre."""
    assert {"1119", "1520"} <= {game.grid.label_of(h) for h in game.area_hexes("le_havre_port_area")}
    # de-inf-09 stays in 1218, outside the area: German ZOC does not matter (8.5).
    clear = at(start, de_inf_08="", br_inf_01="1119")
    assert game.grid.hex_of("1119") in ONSLAUGHT.zoc(clear, "German")
    rouen = {"1520": "Allied"}
    assert {"1119", "1520"} <= set(allied_sources(clear, rouen))
    assert {k: v for k, v in allied_income(clear, rouen, []).items() if k in ("1119", "1520")} == {"1119": 3, "1520": 2}
    blocked = at(clear, de_inf_08="1319")
    assert not {"1119", "1520"} & set(allied_sources(blocked, rouen))
    # Le Havre without Rouen is fine; Rouen without Le Havre is not.
    assert "1119" in allied_sources(clear, {}) and "1520" not in allied_sources(clear, {})
    no_le_havre = at(start, de_inf_08="")
    assert "1520" not in allied_sources(no_le_havre, {"1520": "Allied", "1119": "German"})


def test_antwerp_port_area(game: Game, start: OnslaughtState) -> None:
    """8.5: Antwerp and Ghent serve only with their port area clear; Ghent does not need Antwerp (ruling)."""
    clear = at(start, de_inf_21="", br_inf_01="2809")
    assert "2809" in allied_sources(clear, {}) and "3109" not in allied_sources(clear, {})
    assert "2809" not in allied_sources(at(clear, de_inf_21="2907"), {})
    both = at(clear, br_inf_02="3109")
    assert allied_income(both, {}, [])["3109"] == 10


def test_fortified_ports(game: Game, start: OnslaughtState) -> None:
    """8.4: fortified ports are German sources until the Allies capture them, even if retaken."""
    assert hexes(game, "0318", "1119", "2110") <= german_sources(start, {}, NONE)
    state = only(start, de_inf_02="0319", us_inf_01="0420", us_inf_02="0321")
    assert in_supply(state, "de-inf-02", supplied_hexes(state, "German", {}, NONE))
    assert not in_supply(state, "de-inf-02", supplied_hexes(state, "German", {}, frozenset({"0318"})))
    # Retaken: the division inside is supplied by its fortification (7.5), not its neighbour.
    retaken = at(state, de_inf_01="0318")
    supplied = supplied_hexes(retaken, "German", {"0318": "German"}, frozenset({"0318"}))
    assert in_supply(retaken, "de-inf-01", supplied) and not in_supply(retaken, "de-inf-02", supplied)
    # Allied control means it was captured.
    assert game.grid.hex_of("0318") not in german_sources(state, {"0318": "Allied"}, NONE)


def test_reinforcements_trace_to_the_east_edge(game: Game, start: OnslaughtState) -> None:
    """10.2: German reinforcements trace to the east edge; a pocket held by a fortified port does not."""
    state = only(start, de_inf_02="0319", us_inf_01="0420", us_inf_02="0321")
    edge = hexes_tracing_to(state, "German", game.area_hexes("east_edge"))
    assert game.grid.hex_of("0319") in supplied_hexes(state, "German", {}, NONE)
    assert game.grid.hex_of("0319") not in edge and game.grid.hex_of("0318") not in edge


def test_off_map_unit_is_not_in_supply(start: OnslaughtState) -> None:
    """8.3: a supply line runs from a division on the map; one in a box has none."""
    boxed = at(start, br_inf_01="eliminated_allied")
    assert not in_supply(boxed, "br-inf-01", supplied_hexes(boxed, "Allied", {}, NONE))


def test_caps(game: Game) -> None:
    """8.2: never more than 60 Allied or 40 German supply points; 60 and 40 themselves are legal."""
    assert [capped(n, "Allied", game) for n in (12, 60, 61, 75)] == [12, 60, 60, 60]
    assert [capped(n, "German", game) for n in (8, 40, 41, 50)] == [8, 40, 40, 40]


def captured(state: OnslaughtState, label: str, points: int | None = None,
             side: str = "German") -> tuple[list[tuple[str, str]], OnslaughtState]:
    """Findings (severity, section) of a capture entry, and the state after it."""
    entry = Capture(side=side, hex=label, points=points)
    findings = ONSLAUGHT.check(state, entry)
    return [(f.severity, f.rule) for f in findings], advance(ONSLAUGHT, state, entry)


def test_capture_on_turn_1(start: OnslaughtState) -> None:
    """8.7: turn 1 counts a turn 0 on which every landing hex gave all 4; half is 2."""
    state = when(at(start, us_inf_01="0520", us_inf_02="0520", de_inf_04="0620"),
                 turn=1, step="reinforcement")
    findings, after = captured(state, "0620", 2)
    assert findings == []
    assert after.supply["German"] == state.supply["German"] + 2
    # Without a stated number, the points are worked out; a wrong number is a breach.
    assert captured(state, "0620")[1].supply["German"] == state.supply["German"] + 2
    assert captured(state, "0620", 4)[0] == [("error", "8.7")]
    # Once a turn per source.
    assert ONSLAUGHT.check(after, Capture(side="German", hex="0620")) != []


def test_capture_conditions(start: OnslaughtState) -> None:
    """8.7: a German division occupies the source in the Reinforcement Step; only the German captures."""
    state = when(start, turn=1, step="reinforcement")
    assert captured(state, "0620")[0] == [("error", "8.7")]            # no German division there
    held = at(state, us_inf_01="0520", us_inf_02="0520", de_inf_04="0620")
    assert captured(when(held, step="action"), "0620")[0] == [("error", "8.7")]
    assert captured(held, "0620", side="Allied")[0] == [("error", "8.7")]
    assert captured(held, "0520")[0] == [("error", "8.7")]             # not a source
    assert captured(held, "0620")[0] == []


def test_capture_takes_half_of_last_turns_collection(start: OnslaughtState) -> None:
    """8.7, 8.1: half of what the Allies collected there last turn, rounded up; none if declined."""
    held = when(at(start, us_inf_01="0520", us_inf_02="0520", de_inf_04="0620"), turn=3, step="reinforcement")
    assert captured(replace(held, collected={2: {"0620": 3}}), "0620", 2)[0] == []
    assert captured(replace(held, collected={2: {"0620": 3}}), "0620")[1].supply["German"] == held.supply["German"] + 2
    assert captured(replace(held, collected={2: {"0720": 4}}), "0620")[0] == [("error", "8.7")]
    # Allied income records what each source gave; a declined source gave nothing.
    turn2 = when(start, turn=2, step="reinforcement")
    after = advance(ONSLAUGHT, turn2, Income(side="Allied", declined=["0620"]))
    assert after.collected[2] == {"0720": 4, "0820": 4}


def test_capture_respects_the_cap(start: OnslaughtState) -> None:
    """8.2: captured points count toward the German limit of 40."""
    state = when(at(start, us_inf_01="0520", us_inf_02="0520", de_inf_04="0620"), turn=1, step="reinforcement",
                 supply={"Allied": 0, "German": 39})
    assert captured(state, "0620")[1].supply["German"] == 40


def test_one_hexs_searches_answer_as_the_whole_maps_flood() -> None:
    """11.4's search from one hex (`traces_avoiding`), 10.3's open entry hexes (`open_hexes`, a search from each)
    and 13.3's divisions in supply (`is_supplied`, a search from each) answer exactly as the flood of the whole map
    from the sources (`hexes_tracing_to`) they replace, at positions of played games, with and without hexes to
    avoid."""
    from pathlib import Path

    from adjudicator.sources import adjudicate_file
    from adjudicator.systems.onslaught.placement import entry_hexes, full_hexes, open_hexes, placement_sources
    from adjudicator.systems.onslaught.supply import german_sources, hexes_tracing_to, is_supplied, traces_avoiding
    from adjudicator.systems.onslaught.supply_map import SupplyMap
    from adjudicator.systems.onslaught.zoc import within_two

    examples = Path(__file__).resolve().parents[1] / "examples" / "onslaught"
    compared = 0
    for log in ("legal-sample-game.log", "breach-german-replacement-near.log", "legal-turn1.log"):
        result = adjudicate_file(examples / log, None)[0]
        for state in result.states[1::9]:
            links = SupplyMap.of(state.game).links
            allied = [state.game.grid.hex_of(w) for u, w in state.location.items()
                      if state.game.units_by_id[u].side == "Allied" and state.game.grid.is_label(w)]
            german = german_sources(state, state.controlled, state.captured_ports)
            for avoid in (frozenset(), frozenset(within_two(state, allied))):
                flood = hexes_tracing_to(state, "German", german, avoid=avoid)
                assert {h for h in links if traces_avoiding(state, "German", h, german, avoid)} == flood & links.keys()
                compared += 1
            for unit in ("us-inf-01", "de-inf-01"):
                side = state.game.units_by_id[unit].side
                supplied = hexes_tracing_to(state, side, placement_sources(state, side, None))
                full = full_hexes(state, side)
                assert open_hexes(state, unit, None, replacing=True) == sorted(
                    (h for h in entry_hexes(state, unit, None, True) if h in supplied and h not in full),
                    key=state.game.grid.label_of)
            for unit, where in state.location.items():  # 13.3's count asks each division in its area
                side = state.game.units_by_id[unit].side
                flooded = in_supply(state, unit, hexes_tracing_to(state, side, german if side == "German" else (
                    h for hexes in allied_sources(state, state.controlled).values() for h in hexes)))
                assert is_supplied(replace(state), unit) == flooded, (unit, where)  # a copy: no flood known
    assert compared > 20
