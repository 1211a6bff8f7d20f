"""Omaha Beach's counters, markers, schedules and tables agree with what the rulebook states.

One test per stated fact, each citing its section and checked against the loaded data. Values the
rulebook does not give (unit values, most step counts and ZOC marks, the aircraft split of the Allied
markers, the mines' value, the number of beachhead markers, the beach-assault CRT lines, most
movement costs) are reconstructed and explained in PROVENANCE.md; for them only the properties the
rules impose are checked. The CRT is checked cell by cell against the project's reading of the
printed table (reference note "Reading the Fire & Movement CRT in the Omaha Beach rulebook").
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from wargame.bundled import data_root
from wargame.datafiles import load_toml
from wargame.errors import DataError
from wargame.game import Game, load_game
from wargame.models import Arrival, GameManifest, Marker, Unit, is_reconstructed

SCENARIO = "beach_to_bocage"
CAMPAIGN = "campaign"


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data, loaded and cross-checked once for the module."""
    return load_game(data_root(), "omaha")


def unit(game: Game, unit_id: str) -> Unit:
    """A unit by id; fails the test with the id if it is missing."""
    assert unit_id in game.units_by_id, f"no unit {unit_id!r}"
    return game.units_by_id[unit_id]


def arrivals(game: Game, scenario: str = SCENARIO) -> dict[str, Arrival]:
    """A scenario's reinforcements by unit id."""
    return {a.unit: a for _, a in game.reinforcements if a.scenario == scenario}


def setup_of(game: Game, scenario: str = SCENARIO) -> dict[str, str]:
    """Set-up location of every unit placed at the start of a scenario."""
    return {p.piece: p.location for _, p in game.setup
            if p.scenario == scenario and p.piece in game.units_by_id}


def marker_setup(game: Game, scenario: str = SCENARIO) -> list[tuple[Marker, str, int]]:
    """(marker, location, count) of every marker placed at the start of a scenario."""
    return [(game.markers_by_id[p.piece], p.location, p.count) for _, p in game.setup
            if p.scenario == scenario and p.piece in game.markers_by_id]


def values_in(game: Game, location: str, scenario: str = SCENARIO, kind: str = "support_fire") -> Counter[int]:
    """How many markers of a kind and of each + value start in a box."""
    out: Counter[int] = Counter()
    for marker, where, count in marker_setup(game, scenario):
        if where == location and marker.kind == kind and marker.value is not None:
            out[marker.value] += count
    return out


def crt_line(game: Game, line_id: str) -> list[str]:
    """A CRT line's cells."""
    assert game.crt is not None
    return list(next(line for line in game.crt.line if line.id == line_id).cells)


def column_of(game: Game, line_id: str, differential: int) -> int:
    """The 1-based CRT column of a differential on a line: below the lowest use the first column,
    above the highest the last filled column (the printed table's notes)."""
    cells = crt_line(game, line_id)
    filled = [(i, [int(v) for v in cell.split(",")]) for i, cell in enumerate(cells, 1) if cell]
    for i, values in filled:
        if differential in values:
            return i
    lowest, highest = filled[0][1][0], filled[-1][1][-1]
    assert differential < lowest or differential > highest, f"{differential} falls in no cell of {line_id}"
    return filled[0][0] if differential < lowest else filled[-1][0]


def result(game: Game, line_id: str, differential: int, die: int) -> str:
    """The CRT result for a differential on a terrain line and a die roll."""
    assert game.crt is not None
    return game.crt.results[game.crt.die_rolls.index(die)][column_of(game, line_id, differential) - 1]


# -- units ----------------------------------------------------------------------------------
GERMAN_AT_START = {"352/352": "antitank", "914/352": "infantry", "915/352": "infantry",
                   "916/352": "infantry", "1Flak": "antiaircraft"}
GERMAN_REINFORCEMENTS = {
    1: {"Sch/30": "infantry"},
    3: {"3/3": "antitank", "9/3": "infantry", "5/3": "infantry", "8/3": "infantry",
        "894/265": "infantry", "895/265": "infantry", "896/265": "infantry"},
    4: {"983/275": "infantry", "984/275": "infantry", "985/275": "infantry", "709/275": "antitank"},
    7: {"353/353": "antitank", "941/353": "infantry", "942/353": "infantry", "943/353": "infantry"},
}
ALLIED_ASSAULT = {"16/1", "18/1", "26/1", "115/29", "116/29", "175/29"}
ALLIED_REINFORCEMENTS = {
    2: {"9/2": "infantry", "23/2": "infantry", "38/2": "infantry",
        "CCA/2": "mechanized", "CCB/2": "mechanized", "CCR/2": "mechanized"},
    3: {"117/30": "infantry", "119/30": "infantry", "120/30": "infantry"},
    7: {"331/83": "infantry", "330/83": "infantry", "329/83": "infantry"},
    10: {"CCA/3": "mechanized", "CCB/3": "mechanized", "CCR/3": "mechanized"},
    16: {"134/35": "infantry", "137/35": "infantry", "320/35": "infantry"},
}
CAMPAIGN_REINFORCEMENTS = {24: {"112/28": "infantry", "110/28": "infantry", "109/28": "infantry"}}


def test_german_at_start_units(game: Game) -> None:
    """11.1.1 and 11.0: five German at-start units (the 352nd's SP AT battalion and three infantry
    regiments, the 1st motorized AA regiment), set up by the German player."""
    for unit_id, unit_type in GERMAN_AT_START.items():
        u = unit(game, unit_id)
        assert (u.side, u.type, u.source) == ("German", unit_type, "11.1.1"), unit_id
    for scenario in (SCENARIO, CAMPAIGN):
        german = {u for u, where in setup_of(game, scenario).items() if game.units_by_id[u].side == "German"}
        assert german == set(GERMAN_AT_START), scenario
        assert {setup_of(game, scenario)[u] for u in german} == {"german_setup"}
    assert game.parameter["german_setup_units"] == len(GERMAN_AT_START)


def test_german_reinforcements(game: Game) -> None:
    """11.1.2: German reinforcements by GT and type; all through the south edge except Sch/30,
    which arrives on hex 1005 on GT 1."""
    for scenario in (SCENARIO, CAMPAIGN):
        schedule = arrivals(game, scenario)
        german = {u for u in schedule if game.units_by_id[u].side == "German"}
        assert german == {u for units in GERMAN_REINFORCEMENTS.values() for u in units}, scenario
        for turn, units in GERMAN_REINFORCEMENTS.items():
            for unit_id, unit_type in units.items():
                assert unit(game, unit_id).type == unit_type, unit_id
                assert schedule[unit_id].turn == turn, unit_id
                assert schedule[unit_id].entry == ("1005" if unit_id == "Sch/30" else "south_edge"), unit_id


def test_allied_assault_units(game: Game) -> None:
    """11.2.1: the six units of the US 1st and 29th Infantry Divisions land before GT 1."""
    for unit_id in ALLIED_ASSAULT:
        u = unit(game, unit_id)
        assert (u.side, u.nationality, u.type) == ("Allied", "us", "infantry"), unit_id
        assert unit_id.split("/")[1] in {"1", "29"}
    for scenario in (SCENARIO, CAMPAIGN):
        placed = setup_of(game, scenario)
        assert {u for u, where in placed.items() if where == "allied_assault"} == ALLIED_ASSAULT | {"2Rgr"}
    assert game.parameter["allied_assault_units"] == len(ALLIED_ASSAULT)


def test_ranger_battalion(game: Game) -> None:
    """11.2.3: the 2nd Ranger Battalion lands with the assault (Pointe du Hoc); it can be reduced,
    so it has two steps."""
    ranger = unit(game, "2Rgr")
    assert (ranger.side, ranger.type, ranger.mobility, ranger.steps) == ("Allied", "ranger", "leg", 2)
    assert ranger.reduced is not None
    assert "steps" not in ranger.reconstructed
    assert setup_of(game)["2Rgr"] == "allied_assault"


def test_allied_reinforcements(game: Game) -> None:
    """11.2.4: Allied reinforcements by GT and type, placed on beach landing hexes that hold a
    beachhead marker."""
    schedule = arrivals(game)
    allied = {u for u in schedule if game.units_by_id[u].side == "Allied"}
    assert allied == {u for units in ALLIED_REINFORCEMENTS.values() for u in units}
    for turn, units in ALLIED_REINFORCEMENTS.items():
        for unit_id, unit_type in units.items():
            assert unit(game, unit_id).type == unit_type, unit_id
            assert (schedule[unit_id].turn, schedule[unit_id].entry) == (turn, "omaha_beach"), unit_id


def test_campaign_reinforcements(game: Game) -> None:
    """14.2 and 14.0: the campaign keeps the scenario's schedule and adds the 28th Infantry
    Division's three regiments on GT 24; they never appear in the scenario."""
    campaign, scenario = arrivals(game, CAMPAIGN), arrivals(game, SCENARIO)
    for turn, units in CAMPAIGN_REINFORCEMENTS.items():
        for unit_id, unit_type in units.items():
            assert unit(game, unit_id).type == unit_type
            assert (campaign[unit_id].turn, campaign[unit_id].entry) == (turn, "omaha_beach")
            assert unit_id not in scenario
    for unit_id, a in scenario.items():
        assert (campaign[unit_id].turn, campaign[unit_id].entry) == (a.turn, a.entry), unit_id


def test_every_unit_is_named_by_a_section(game: Game) -> None:
    """10.0-14.2: the game has exactly the units the exclusive rules name, each once."""
    named = (set(GERMAN_AT_START) | ALLIED_ASSAULT | {"2Rgr"}
             | {u for units in GERMAN_REINFORCEMENTS.values() for u in units}
             | {u for units in ALLIED_REINFORCEMENTS.values() for u in units}
             | {u for units in CAMPAIGN_REINFORCEMENTS.values() for u in units})
    assert set(game.units_by_id) == named
    assert len(game.units) == len(named) == 49


def test_mobility_follows_type(game: Game) -> None:
    """2.3.2 and 10.3: mechanized, self-propelled anti-tank and motorized AA units are mobile;
    infantry and rangers are leg units."""
    mobile_types = {"mechanized", "antitank", "antiaircraft", "tank"}
    for _, u in game.units:
        assert u.mobility == ("mobile" if u.type in mobile_types else "leg"), u.id


def test_counter_abbreviations(game: Game) -> None:
    """10.4: Sch (Schütze), CC (Combat Command) and Rgr (Ranger) appear in designations."""
    assert {"Sch/30", "CCA/2", "2Rgr"} <= set(game.units_by_id)
    for _, u in game.units:
        if u.id.startswith("CC"):
            assert u.size == "combat_command", u.id


def test_unit_values_have_the_counter_shape(game: Game) -> None:
    """2.3: a counter shows attack, defence and movement; one-step units have no back; the
    values are not in the rulebook, so every unit marks them reconstructed."""
    assert game.manifest.value_names == ("attack", "defence", "movement")
    for _, u in game.units:
        assert len(u.full) == 3 and all(v >= 1 for v in u.full), u.id
        assert (u.reduced is not None) == (u.steps == 2), u.id
        if u.reduced is not None:
            assert u.reduced[2] == u.full[2], u.id
            assert all(r <= f for r, f in zip(u.reduced, u.full)), u.id
            assert "reduced" in u.reconstructed, u.id
        assert "full" in u.reconstructed and "zoc" in u.reconstructed, u.id


def test_nationalities_and_sides(game: Game) -> None:
    """10.0/11.0: the Allied units are American, the Axis units German."""
    for _, u in game.units:
        assert (u.side, u.nationality) in {("Allied", "us"), ("German", "german")}, u.id


# -- markers --------------------------------------------------------------------------------
def test_german_support_fire_pool(game: Game) -> None:
    """11.1.4: fifteen German markers (+1, +2 x2, +3 x2, +4 x2, +5 x2, +6 x3, +8 x2, +9), in one
    draw cup, each with a bombardment range of two."""
    expected = Counter({1: 1, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2, 9: 1})
    pool = [m for m in game.markers.marker if m.side == "German" and m.kind == "support_fire"]
    assert Counter({m.value: m.count for m in pool}) == expected
    assert sum(m.count for m in pool) == 15 == game.parameter["german_support_allotment"]
    assert all(m.range_hexes == 2 and m.source == "11.1.4" for m in pool)
    for scenario in (SCENARIO, CAMPAIGN):
        assert values_in(game, "german_cup", scenario) == expected, scenario
    assert game.parameter["german_bombardment_range_hexes"] == 2


def test_achtung_minen(game: Game) -> None:
    """11.1.4: two Achtung! Minen markers in the German cup, usable in ground combat only (no
    bombardment range); their value is not stated."""
    mines = [m for m in game.markers.marker if m.kind == "mines"]
    assert len(mines) == 1
    m = mines[0]
    assert (m.side, m.count, m.icon, m.range_hexes) == ("German", 2, "mines", None)
    assert m.value is not None and is_reconstructed(m.source)
    for scenario in (SCENARIO, CAMPAIGN):
        assert [(where, n) for mk, where, n in marker_setup(game, scenario) if mk.id == m.id] == [("german_cup", 2)]


def test_allied_support_fire_pool(game: Game) -> None:
    """11.2.6: 25 Allied markers (+2 x3, +3 x3, +4 x2, +5, +6 x6, +7 x3, +8 x4, +9 x2, +10) in
    two cups: aircraft-icon markers (unlimited range) in one, the others (range two) in the other."""
    expected = Counter({2: 3, 3: 3, 4: 2, 5: 1, 6: 6, 7: 3, 8: 4, 9: 2, 10: 1})
    pool = [m for m in game.markers.marker if m.side == "Allied" and m.kind == "support_fire"]
    total: Counter[int] = Counter()
    for m in pool:
        total[m.value or 0] += m.count
        if m.icon == "aircraft":
            assert m.range_hexes is None, m.id
        else:
            assert (m.icon, m.range_hexes) == ("none", 2), m.id
    assert total == expected
    assert sum(total.values()) == 25 == game.parameter["allied_support_allotment"]
    for scenario in (SCENARIO, CAMPAIGN):
        air = values_in(game, "allied_air_cup", scenario)
        other = values_in(game, "allied_cup", scenario)
        assert air + other == expected, scenario
        assert air and other
        for mk, where, _ in marker_setup(game, scenario):
            if mk.side == "Allied" and mk.kind == "support_fire":
                assert where == ("allied_air_cup" if mk.icon == "aircraft" else "allied_cup"), mk.id
    assert {b.id: b.kind for b in game.manifest.box if b.id in ("allied_cup", "allied_air_cup")} == \
        {"allied_cup": "draw_cup", "allied_air_cup": "draw_cup"}
    assert game.parameter["allied_bombardment_range_hexes"] == 2


def test_naval_gunfire(game: Game) -> None:
    """11.2.7: four +7 naval gunfire markers with a turret icon, kept out of the draw cups, for
    GT 1 only."""
    naval = [m for m in game.markers.marker if m.kind == "naval_gunfire"]
    assert [(m.side, m.count, m.value, m.icon) for m in naval] == [("Allied", 4, 7, "turret")]
    for scenario in (SCENARIO, CAMPAIGN):
        places = {where for mk, where, _ in marker_setup(game, scenario) if mk.kind == "naval_gunfire"}
        assert places == {"allied_naval_gunfire"}
        assert not any(b.id in places and b.kind == "draw_cup" for b in game.manifest.box)
    assert game.parameter["naval_gunfire_last_turn"] == 1


def test_beachhead_markers(game: Game) -> None:
    """11.2.1: Omaha Beachhead markers, at most one per Omaha beach hex, so never more than the
    six beach hexes can use; their number is not stated."""
    beachheads = [m for m in game.markers.marker if m.kind == "beachhead"]
    assert len(beachheads) == 1
    m = beachheads[0]
    assert m.side == "Allied" and 1 <= m.count <= len(game.area_hexes("omaha_beach")) == 6
    assert game.parameter["beachhead_markers_per_hex"] == 1
    assert [(where, n) for mk, where, n in marker_setup(game) if mk.id == m.id] == [("beachhead_markers", m.count)]


def test_turn_marker_starts_on_gt1(game: Game) -> None:
    """10.2: the game begins on GT 1."""
    for scenario in (SCENARIO, CAMPAIGN):
        assert ("turn", "turn@1") in {(p.piece, p.location) for _, p in game.setup if p.scenario == scenario}


# -- schedules ------------------------------------------------------------------------------
def test_allied_replacements(game: Game) -> None:
    """11.2.5: one leg replacement point every GT from GT 2; one mobile point every odd GT from
    GT 3."""
    rows = [r for _, r in game.replacements if r.scenario == SCENARIO]
    assert all(r.side == "Allied" for r in rows)
    leg = {r.turn: r.amount for r in rows if r.kind == "leg"}
    mobile = {r.turn: r.amount for r in rows if r.kind == "mobile"}
    assert leg == {t: 1 for t in range(2, 18)}
    assert mobile == {t: 1 for t in range(3, 18, 2)}
    assert {r.kind for r in rows} == {"leg", "mobile"}


def test_no_german_replacements(game: Game) -> None:
    """11.1.3: the German side receives no replacements."""
    assert not [r for _, r in game.replacements if r.side == "German" and r.amount > 0]


def test_campaign_replacements(game: Game) -> None:
    """14.0: US campaign: two leg points every GT from GT 2; one mobile point on GT 3, then two
    every odd GT from GT 5; 14.0 g: the scenario's own points (11.2.5) on top, in rows of their own."""
    rows = [r for _, r in game.replacements if r.scenario == CAMPAIGN]
    assert all(r.side == "Allied" for r in rows)
    campaign = [r for r in rows if r.source == "14.0"]
    assert {r.turn: r.amount for r in campaign if r.kind == "leg"} == {t: 2 for t in range(2, 26)}
    assert {r.turn: r.amount for r in campaign if r.kind == "mobile"} == {3: 1, **{t: 2 for t in range(5, 26, 2)}}
    scenario = [r for r in rows if r.source == "11.2.5"]
    assert {r.turn: r.amount for r in scenario if r.kind == "leg"} == {t: 1 for t in range(2, 26)}
    assert {r.turn: r.amount for r in scenario if r.kind == "mobile"} == {t: 1 for t in range(3, 26, 2)}
    assert {r.source for r in rows} == {"14.0", "11.2.5"}


def test_scenario_length_and_first_player(game: Game) -> None:
    """10.2: GT 1 to GT 17, the Allied player first."""
    s = next(s for s in game.manifest.scenario if s.id == SCENARIO)
    assert (s.first_turn, s.last_turn, s.first_player) == (1, 17, "Allied")


def test_campaign_length(game: Game) -> None:
    """14.2: 17 GTs, extended by the cities not captured, never beyond GT 25; the Allies first (10.2)."""
    s = next(s for s in game.manifest.scenario if s.id == CAMPAIGN)
    assert (s.first_turn, s.last_turn, s.first_player) == (1, 25, "Allied")
    assert game.parameter["campaign_base_last_turn"] == 17
    assert game.parameter["campaign_max_last_turn"] == 25
    turn = next(t for t in game.manifest.track if t.id == "turn")
    assert (turn.kind, turn.first, turn.last) == ("turn", 1, 25)


def test_sequence_of_play(game: Game) -> None:
    """4.1: Support Fire Marker Phase; then each player turn: Movement, Bombardment, Combat, Mobile
    Movement, Mobile Combat; then the Game Turn End Phase."""
    turn = [item for item in game.manifest.sequence if not item.before_first_turn]
    assert [item.id for item in turn] == ["support_fire_marker", "player_turn", "game_turn_end"]
    assert all(item.source == "4.1" for item in turn)
    player_turn = next(item for item in game.manifest.sequence if item.id == "player_turn")
    assert player_turn.player == "each"
    phases = [item.id for item in player_turn.items if item.source == "4.1"]
    assert phases == ["movement", "bombardment", "combat", "mobile_movement", "mobile_combat"]
    # 5.2, 8.1, 8.2: each phase's own entries, the phasing side's.
    allowed = {(item.id, a.kind, tuple(a.how), a.side, a.source) for item in player_turn.items for a in item.entries}
    assert allowed == {("movement", "move", (), "phasing", "5.2"), ("mobile_movement", "move", (), "phasing", "5.2"),
                       ("movement", "place", ("reinforce",), "phasing", "4.1"),
                       ("bombardment", "bombard", (), "phasing", "8.1"), ("combat", "attack", (), "phasing", "8.2"),
                       ("mobile_combat", "attack", (), "phasing", "8.2")}


def test_the_landing_comes_once_before_gt_1(game: Game) -> None:
    """11.2: before GT 1, once, the set-up (11.0) and the amphibious landing sequence (11.2.1, 11.2.3), which
    allows the set-up placements, the Allied beach assaults and the Rangers' move after the Pointe du Hoc roll
    (11.2.3)."""
    first = game.manifest.sequence[0]
    assert (first.id, first.before_first_turn, first.source) == ("landing", True, "11.2")
    assert [item.source for item in first.items] == ["11.0", "11.2.1", "11.2.3"]
    assert {(a.kind, tuple(a.how), a.side, tuple(a.unit_types), a.source) for a in first.entries} == {
        ("place", ("setup",), "any", (), "11.0"), ("attack", (), "Allied", (), "11.2.3"),
        ("move", (), "Allied", ("ranger",), "11.2.3")}
    assert not any(item.before_first_turn for item in game.manifest.sequence[1:])


def test_optional_rules(game: Game) -> None:
    """15.0 and 14.1: German AA/Flak is optional; weather may be used in a single scenario."""
    assert {(o.id, o.section) for o in game.manifest.optional_rule} == {("flak", "15.0"), ("weather", "14.1")}


def test_boxes_have_sections(game: Game) -> None:
    """11.0, 11.1.4, 11.2.1, 11.2.6, 11.2.7: the set-up boxes and cups exist with their kinds."""
    kinds = {b.id: (b.kind, b.side) for b in game.manifest.box}
    assert kinds["german_cup"] == ("draw_cup", "German")
    assert kinds["german_setup"] == ("holding", "German")
    assert kinds["allied_assault"] == ("holding", "Allied")
    assert kinds["beachhead_markers"] == ("available", "Allied")
    assert kinds["allied_naval_gunfire"] == ("available", "Allied")


# -- combat results table -------------------------------------------------------------------
CRT_RESULTS = [
    ["(A)", "A3", "A2", "-", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
    ["(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
    ["(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2", "D3"],
    ["(A)", "(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2"],
    ["Ae", "(A)", "(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2"],
    ["Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "(A)", "A1", "-", "Ex", "Ex", "Ex"],
]
CRT_LINES = {
    "clear": ("Mixed, Clear, Desert, Stream",
              ["-5", "-4", "-3", "-2", "-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]),
    "woods": ("Woods, Bridge, Canal, Ditch",
              ["-4", "-3", "-2", "-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10", ""]),
    "marsh": ("Marsh/swamp, Town, Broken",
              ["-3", "-2", "-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10", "", ""]),
    "city": ("City, Rough, River",
             ["-2", "-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10", "", "", ""]),
    "mountain": ("Mountain",
                 ["0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10", "", "", "", "", ""]),
}


def test_crt_shape(game: Game) -> None:
    """8.2.1 d: a differential table, one six-sided die, twelve columns."""
    assert game.crt is not None
    assert game.crt.kind == "differential"
    assert game.crt.die_rolls == (1, 2, 3, 4, 5, 6)
    assert game.crt.columns == tuple(f"c{i}" for i in range(1, 13))
    assert game.parameter["die_sides"] == 6


def test_crt_results_every_cell(game: Game) -> None:
    """CRT (8.2.4): all 72 results as the project reads the printed table."""
    assert game.crt is not None
    cells = 0
    for die, row in zip(game.crt.die_rolls, CRT_RESULTS):
        for column, expected in zip(game.crt.columns, row):
            got = game.crt.results[die - 1][game.crt.columns.index(column)]
            assert got == expected, f"die {die}, {column}: {got!r}, expected {expected!r}"
            cells += 1
    assert cells == 72


def test_crt_result_codes(game: Game) -> None:
    """8.2.4: the ten results: De, D3, D2, Ex, A1, A2, A3, (A), Ae and no effect."""
    assert game.crt is not None
    assert set(game.crt.result_codes) == {"De", "D3", "D2", "Ex", "A1", "A2", "A3", "(A)", "Ae", "-"}
    assert {c for row in game.crt.results for c in row} == set(game.crt.result_codes)


def test_crt_printed_lines(game: Game) -> None:
    """8.2.2 and the CRT: the five printed terrain lines, their names and every cell."""
    assert game.crt is not None
    for line_id, (name, cells) in CRT_LINES.items():
        line = next(line for line in game.crt.line if line.id == line_id)
        assert (line.name, list(line.cells)) == (name, cells), line_id
        assert not is_reconstructed(line.source), line_id


def test_crt_bounds(game: Game) -> None:
    """CRT notes: below a line's lowest differential use its lowest column; above +10 use the +10
    column."""
    assert game.parameter["crt_highest_differential"] == 10
    assert column_of(game, "clear", -9) == 1 and column_of(game, "mountain", -3) == 1
    assert column_of(game, "clear", 15) == 12
    assert column_of(game, "city", 25) == column_of(game, "city", 10) == 9
    assert result(game, "clear", 0, 3) == "-"
    assert result(game, "woods", 0, 1) == "Ex"


def test_crt_beach_assault_lines(game: Game) -> None:
    """11.2.3: two beach-assault lines; the differential uses a defence strength of zero, so both
    reach well above +10, and within an EZOC the same differential never lands in a column better
    for the attacker than outside one. Reconstructed lines."""
    assert game.crt is not None
    lines = {line.id: line for line in game.crt.line}
    assert lines["beach_ezoc"].name == "Beach Assault within EZOC"
    assert lines["beach_no_ezoc"].name == "Beach Assault not in EZOC"
    assert all(is_reconstructed(lines[i].source) for i in ("beach_ezoc", "beach_no_ezoc"))
    assert game.parameter["beach_assault_defence_strength"] == 0
    for line_id in ("beach_ezoc", "beach_no_ezoc"):
        values = [int(v) for cell in crt_line(game, line_id) if cell for v in cell.split(",")]
        assert values == list(range(values[0], values[-1] + 1)), line_id  # contiguous, rising
        assert values[-1] > 10
    for differential in range(-10, 31):
        ezoc, clear_of = column_of(game, "beach_ezoc", differential), column_of(game, "beach_no_ezoc", differential)
        assert ezoc <= clear_of, differential
        assert clear_of <= column_of(game, "clear", differential), differential


def test_terrain_crt_lines(game: Game) -> None:
    """CRT line names and 8.2.2: each hex terrain and hexside feature uses the line naming it."""
    expected = {"clear": "clear", "mixed": "clear", "stream": "clear", "woods": "woods", "bridge": "woods",
                "canal": "woods", "ditch": "woods", "marsh": "marsh", "town": "marsh", "broken": "marsh",
                "city": "city", "rough": "city", "river": "city"}
    assert {t: game.terrain[t].crt_line for t in expected} == expected


def test_terrain_stated_costs(game: Game) -> None:
    """5.4: clear costs 1 MP; 5.4.1: road to road 1/2 MP; 5.4.2: trail to trail 1 MP; 8.3: all-sea
    hexes are prohibited."""
    t = game.terrain
    assert (t["clear"].kind, t["clear"].mp_cost) == ("hex", 1)
    assert (t["road"].kind, t["road"].mp_cost, t["road"].source) == ("hexside", 0.5, "5.4.1")
    assert (t["trail"].kind, t["trail"].mp_cost, t["trail"].source) == ("hexside", 1, "5.4.2")
    assert t["sea"].prohibited and t["sea"].kind == "hex"


def test_terrain_chart_is_complete(game: Game) -> None:
    """5.4: other hexes cost more than clear; hexside features add MP; ZOCs cross all terrain (6.0);
    every entry has a distinct colour."""
    t = game.terrain
    hexes = {"clear", "mixed", "woods", "marsh", "town", "broken", "city", "rough", "sea"}
    sides = {"river", "stream", "bridge", "canal", "ditch", "road", "trail"}
    assert {i for i, x in t.items() if x.kind == "hex"} == hexes
    assert {i for i, x in t.items() if x.kind == "hexside"} == sides
    for i in hexes - {"sea"}:
        cost = t[i].mp_cost
        assert cost is not None and cost >= 1 and not t[i].prohibited, i
    for i in sides - {"road", "trail"}:
        assert t[i].mp_add is not None and t[i].mp_cost is None, i
    assert not any(x.blocks_zoc for x in t.values())
    colours = [x.colour for x in t.values()]
    assert None not in colours and len(set(colours)) == len(colours)


# -- charts and parameters -------------------------------------------------------------------
def test_pointe_du_hoc_chart(game: Game) -> None:
    """11.2.3: 1 eliminated; 2 reduced, no move; 3 reduced, one hex; 4 reduced, one hex, a German +6
    marker eliminated; 5-6 full strength, one hex, a German +6 marker eliminated permanently."""
    chart = next(c for c in game.charts.chart if c.id == "pointe_du_hoc")
    assert chart.source == "11.2.3"
    rows = {r[0]: r[1:] for r in chart.rows}
    assert chart.columns == ("die", "ranger", "move_hexes", "german_plus6")
    assert rows == {
        "1": ("eliminated", "", "none"),
        "2": ("reduced", "0", "none"),
        "3": ("reduced", "1", "none"),
        "4": ("reduced", "1", "eliminate"),
        "5": ("none", "1", "eliminate_permanently"),
        "6": ("none", "1", "eliminate_permanently"),
    }
    assert any(m.side == "German" and m.value == 6 for m in game.markers.marker)


@pytest.mark.parametrize(("parameter", "value", "section"), [
    ("stacking_limit", 1, "5.3"),
    ("beach_landing_stacking_limit", 3, "11.2.1"),
    ("beach_landing_attackers_per_hex", 1, "11.2.4"),
    ("support_markers_per_side_per_combat", 2, "8.2.1"),
    ("bombardment_markers_per_bombardment", 2, "8.1.2"),
    ("bombardment_markers_per_hex_per_player_turn", 2, "8.1"),
    ("german_bombardment_range_hexes", 2, "11.1.4"),
    ("allied_bombardment_range_hexes", 2, "11.2.6"),
    ("german_markers_lost_per_capture", 1, "11.1.4"),
    ("mobile_ezoc_entry_ma_fraction", 0.5, "6.1"),
    ("mobile_ezoc_entry_rounding", "down", "6.1"),
    ("fortification_defence_multiplier", 2, "8.2.3"),
    ("fortification_attacker_support_fraction", 0.5, "8.2.3"),
    ("fortification_attacker_support_rounding", "down", "8.2.3"),
    ("german_setup_min_adjacent_to_beach", 2, "11.0"),
    ("st_lo_adjacent_units_for_victory", 2, "13.0"),
    ("weather_first_turn", 2, "14.1"),
    ("weather_inclement_roll", 6, "14.1"),
    ("inclement_ma_fraction", 0.5, "14.1"),
    ("inclement_ma_rounding", "up", "14.1"),
    ("flak_aircraft_support_fraction", 0.5, "15.0"),
    ("flak_aircraft_support_rounding", "up", "15.0"),
    ("campaign_cities_us", 7, "14.2"),
    ("campaign_cities_uk", 10, "14.2"),
    ("campaign_cities_combined", 17, "14.2"),
    ("campaign_one_map_city_hexes_to_win", 7, "14.3"),
    ("campaign_two_map_city_hexes_to_win", 21, "14.3"),
])
def test_parameter(game: Game, parameter: str, value: object, section: str) -> None:
    """Each number the rules state, with the section stating it (listed in the parameters)."""
    record = next(p for p in game.parameters.parameter if p.id == parameter)
    assert (record.value, record.source) == (value, section)


def test_every_parameter_is_stated(game: Game) -> None:
    """parameters.toml holds only numbers the rules state: none is reconstructed."""
    assert not [p.id for p in game.parameters.parameter if is_reconstructed(p.source)]


def test_the_campaign_puts_weather_in_force_as_data(tmp_path: Path) -> None:
    """14.1: the campaign game's weather is its scenario's `in_force` (read by the rule system and the VASSAL
    reader alike), with its section; a rule not among the game's optional rules is refused where it is written."""
    game = load_game(data_root(None), "omaha")
    forced = {s.id: [(f.rule, f.source) for f in s.in_force] for s in game.manifest.scenario}
    assert forced == {"beach_to_bocage": [], "campaign": [("weather", "14.1")]}
    path = tmp_path / "game.toml"
    text = (data_root(None) / "counters" / "omaha" / "game.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('rule = "weather"', 'rule = "wether"'), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_toml(path, GameManifest)
    assert str(caught.value).endswith("[scenario[1].in_force[0].rule]: scenario 'campaign': in_force rule 'wether' "
                                      "is not one of the game's optional rules (flak, weather) (did you mean "
                                      "'weather'?)")
