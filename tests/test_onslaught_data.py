"""Onslaught's counters, set-up, schedules and tables agree with what the rulebook states.

One test per stated fact, each citing its section and checked against the loaded data. Values the
rulebook does not give (Allied movement, depleted sides, the Combat Table, the schedules) are
reconstructed and explained in PROVENANCE.md; for them only the properties the rules impose are
checked.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

import pytest

from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.models import Arrival, Unit

ALLIED_NATIONALITIES = {"british", "canadian", "us", "french", "polish"}
GERMAN_NATIONALITIES = {"wehrmacht", "ss", "volksgrenadier"}
RESULT_CODES = {"AE", "AH", "-", "DR", "DH", "HH", "DE"}
# From the attacker's worst to best result (the order the reconstructed table keeps).
ATTACKER_ORDER = ["AE", "AH", "-", "DR", "HH", "DH", "DE"]


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data, loaded and cross-checked once for the module."""
    return load_game(data_root(), "onslaught")


def units(game: Game, side: str | None = None, nationality: str | None = None,
          type_: str | None = None) -> list[Unit]:
    """The game's units, filtered."""
    return [u for _, u in game.units
            if (side is None or u.side == side) and (nationality is None or u.nationality == nationality)
            and (type_ is None or u.type == type_)]


def unit_setup(game: Game) -> dict[str, str]:
    """Campaign set-up location of every unit placed at the start."""
    return {p.piece: p.location for _, p in game.setup if p.scenario == "campaign" and p.piece in game.units_by_id}


def arrivals(game: Game) -> list[Arrival]:
    """The campaign's reinforcement arrivals."""
    return [a for _, a in game.reinforcements if a.scenario == "campaign"]


def odds_column(game: Game, attack: int, defence: int) -> str:
    """The Combat Table column for a battle: the ratio rounded down to a listed column (7.0)."""
    assert game.crt is not None
    ratio = Fraction(attack, defence)
    listed = [(Fraction(*map(int, c.split(":"))), c) for c in game.crt.columns]
    fitting = [c for value, c in listed if value <= ratio]
    return fitting[-1] if fitting else game.crt.columns[0]


def crt_result(game: Game, column: str, die: int) -> str:
    """The Combat Table's result for a column and a (modified) die roll."""
    assert game.crt is not None
    return game.crt.results[game.crt.die_rolls.index(die)][game.crt.columns.index(column)]


# -- counters -------------------------------------------------------------------------------
def test_german_counter_values(game: Game) -> None:
    """8.4 (supply diagram): German infantry 4-4, panzer 6-5, SS panzer 8-5, volksgrenadier 3-3."""
    expected = {("wehrmacht", "infantry"): (4, 4), ("wehrmacht", "armor"): (6, 5),
                ("ss", "armor"): (8, 5), ("volksgrenadier", "volksgrenadier"): (3, 3)}
    german = units(game, side="German")
    assert {(u.nationality, u.type) for u in german} == set(expected)
    for u in german:
        assert u.full == expected[(u.nationality, u.type)], u.id


def test_allied_combat_strengths(game: Game) -> None:
    """7.0 (combat example): Allied infantry divisions have combat strength 4, armor divisions 6."""
    assert units(game, side="Allied", type_="infantry") and units(game, side="Allied", type_="armor")
    for u in units(game, side="Allied", type_="infantry"):
        assert u.full[0] == 4, u.id
    for u in units(game, side="Allied", type_="armor"):
        assert u.full[0] == 6, u.id


def test_combat_example(game: Game) -> None:
    """7.0: two Allied infantry and one armor division (14) against a German infantry division (4)
    attack at 3:1, and a roll of 4 gives DH."""
    inf = units(game, side="Allied", type_="infantry")[0].full[0]
    arm = units(game, side="Allied", type_="armor")[0].full[0]
    defender = units(game, nationality="wehrmacht", type_="infantry")[0].full[0]
    assert inf + inf + arm == 14 and defender == 4
    column = odds_column(game, inf + inf + arm, defender)
    assert column == "3:1"
    assert crt_result(game, column, 4) == "DH"


def test_every_counter_is_two_sided(game: Game) -> None:
    """2.3: every division counter is printed on both sides, full strength in front and depleted on
    the back; 11.1 calls the depleted side half strength (odd strengths round down: reconstructed)."""
    for _, u in game.units:
        assert u.steps == 2 and u.reduced is not None, u.id
        assert u.reduced[0] == u.full[0] // 2, u.id
        assert u.reduced[1] == u.full[1], u.id


def test_one_division_per_counter(game: Game) -> None:
    """1.0: each piece represents one division."""
    assert {u.size for _, u in game.units} == {"division"}


def test_counter_types_and_armies(game: Game) -> None:
    """2.3: infantry, volksgrenadier, paratroop and armor counters; five Allied armies and three
    German ones (Wehrmacht, SS panzer, volksgrenadier), each with counters."""
    assert {u.type for _, u in game.units} == {"infantry", "volksgrenadier", "paratroop", "armor"}
    assert {u.nationality for u in units(game, side="Allied")} == ALLIED_NATIONALITIES
    assert {u.nationality for u in units(game, side="German")} == GERMAN_NATIONALITIES
    assert {u.type for u in units(game, nationality="ss")} == {"armor"}
    assert {u.type for u in units(game, nationality="volksgrenadier")} == {"volksgrenadier"}


def test_paratroops_are_allied(game: Game) -> None:
    """9.0: the Allied player has several paratroop divisions (German paratroops count as infantry)."""
    paratroops = units(game, type_="paratroop")
    assert len(paratroops) >= 3
    assert {u.side for u in paratroops} == {"Allied"}


def test_one_polish_division(game: Game) -> None:
    """14.1: the Allied cooperation rule speaks of "the Polish division": there is exactly one."""
    assert len(units(game, nationality="polish")) == 1


def test_unstated_values_are_marked_reconstructed(game: Game) -> None:
    """6.1 gives no Allied movement allowance and no section prints a depleted side: every unit row
    says so in its `reconstructed` column (README, data files)."""
    for _, u in game.units:
        assert "reduced" in u.reconstructed, u.id
        if u.side == "Allied":
            assert {"full", "full.movement"} & set(u.reconstructed), u.id


# -- tracks, markers, set-up ----------------------------------------------------------------------
def test_supply_tracks(game: Game) -> None:
    """8.2: the Allied track shows 30 points and the German 20; their markers flip to +30 and +20."""
    tracks = {t.id: t for t in game.manifest.track}
    assert (tracks["allied_supply"].first, tracks["allied_supply"].last) == (0, 30)
    assert (tracks["german_supply"].first, tracks["german_supply"].last) == (0, 20)
    assert game.markers_by_id["allied_supply"].text == "+30"
    assert game.markers_by_id["german_supply"].text == "+20"


def test_setup_markers(game: Game) -> None:
    """3.0: Allied supply and supply income markers on 12, German supply on 8, turn marker on turn 1."""
    placed = {p.piece: p.location for _, p in game.setup if p.scenario == "campaign"}
    assert placed["allied_supply"] == "allied_supply@12"
    assert placed["allied_supply_income"] == "allied_supply@12"
    assert placed["german_supply"] == "german_supply@8"
    assert placed["turn"] == "turn@1"


def test_landing_hexes(game: Game) -> None:
    """3.0: two Allied infantry divisions in each of the three landing hexes: one Canadian, two
    American and three British."""
    setup = unit_setup(game)
    infantry = [u for u in units(game, side="Allied", type_="infantry") if u.id in setup]
    assert len(infantry) == 6
    per_hex = Counter(setup[u.id] for u in infantry)
    assert len(per_hex) == 3 and set(per_hex.values()) == {2}
    assert Counter(u.nationality for u in infantry) == {"canadian": 1, "us": 2, "british": 3}
    landing = [a for a in game.areas.area if a.kind == "landing"]
    assert len(landing) == 1 and landing[0].value == 4  # 8.1: four supply points each
    hexes = {game.grid.label_of(h) for h in game.area_hexes(landing[0].id)}
    assert set(per_hex) == hexes


def test_allied_setup_is_infantry_and_paratroops(game: Game) -> None:
    """3.0: the Allies start with the six landing divisions and three paratroop divisions only."""
    setup = unit_setup(game)
    allied = [u for u in units(game, side="Allied") if u.id in setup]
    assert Counter(u.type for u in allied) == {"infantry": 6, "paratroop": 3}


def test_paratroop_setup(game: Game) -> None:
    """3.0: three paratroop set-up hexes, one division each; two are American, the third British."""
    setup = unit_setup(game)
    paratroops = [u for u in units(game, type_="paratroop") if u.id in setup]
    assert Counter(u.nationality for u in paratroops) == {"us": 2, "british": 1}
    assert len({setup[u.id] for u in paratroops}) == 3


def test_other_setup_hexes_hold_one_division(game: Game) -> None:
    """3.0: every set-up hex other than the landing hexes holds one division of its type; German
    set-up types are infantry, volksgrenadier, panzer or SS (3.0); no stack exceeds three (6.3)."""
    setup = unit_setup(game)
    per_hex: dict[str, list[Unit]] = defaultdict(list)
    for piece, location in setup.items():
        per_hex[location].append(game.units_by_id[piece])
    for location, stack in per_hex.items():
        assert len(stack) <= 3, location
        if not all(u.side == "Allied" and u.type == "infantry" for u in stack):
            assert len(stack) == 1, location
        assert game.grid.is_label(location)
    german = [u for u in units(game, side="German") if u.id in setup]
    assert german
    assert {u.type for u in german} <= {"infantry", "volksgrenadier", "armor"}


def test_setup_hexes_are_playable(game: Game) -> None:
    """6.0, 2.2: divisions stand on map land: no set-up hex is a prohibited one."""
    setup = unit_setup(game)
    for piece, location in setup.items():
        terrain = game.hex_terrain[game.grid.hex_of(location)]
        assert not any(game.terrain[t].prohibited for t in terrain), (piece, location, terrain)


# -- Combat Table ---------------------------------------------------------------------------------
def test_crt_die_rolls(game: Game) -> None:
    """7.1: one die; modified rolls below 0 or above 6 count as 0 and 6, so the table has rows 0-6."""
    assert game.crt is not None
    assert game.crt.die_rolls == (0, 1, 2, 3, 4, 5, 6)


def test_crt_odds_columns(game: Game) -> None:
    """7.0: battles are resolved by an attack:defence ratio rounded down to a listed column; the
    3:1 column exists (7.0 example)."""
    assert game.crt is not None and game.crt.kind == "odds"
    values = [Fraction(*map(int, c.split(":"))) for c in game.crt.columns]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert "3:1" in game.crt.columns


def test_crt_result_codes(game: Game) -> None:
    """7.2: the results are AE, AH, -, DR, DH, HH and DE, and no other."""
    assert game.crt is not None
    assert set(game.crt.result_codes) == RESULT_CODES
    used = {cell for row in game.crt.results for cell in row}
    assert used == RESULT_CODES


def test_crt_is_monotone(game: Game) -> None:
    """7.1: raising the die roll favours the attacker, and so do better odds (7.0): the result never
    gets worse for the attacker down a column or along a row."""
    assert game.crt is not None
    rank = {code: i for i, code in enumerate(ATTACKER_ORDER)}
    grid = [[rank[c] for c in row] for row in game.crt.results]
    for row in grid:
        assert row == sorted(row)
    for column in zip(*grid):
        assert list(column) == sorted(column)


# -- charts and replacement points -----------------------------------------------------------------
def test_replacement_table(game: Game) -> None:
    """11.1: the Replacement Table's eight costs."""
    chart = next(c for c in game.charts.chart if c.id == "replacement_table")
    assert chart.source == "11.1"
    rows = {tuple(r) for r in chart.rows}
    assert len(chart.rows) == 8
    assert rows == {
        ("1", "volksgrenadier", "eliminated", "full", "in_germany"),
        ("1", "infantry", "eliminated", "depleted", ""),
        ("1", "infantry", "depleted", "full", ""),
        ("2", "infantry", "eliminated", "full", ""),
        ("2", "armor", "eliminated", "depleted", ""),
        ("2", "armor", "depleted", "full", ""),
        ("2", "paratroop", "depleted", "full", ""),
        ("4", "armor", "eliminated", "full", ""),
    }
    unit_types = {t.id for t in game.manifest.unit_type}
    assert {r[1] for r in chart.rows} <= unit_types


def test_replacement_points(game: Game) -> None:
    """11.1: every Reinforcement Step the German player gets two replacement points and the Allied
    player four (plus one per three eliminated divisions, a rule rather than data)."""
    points = {(r.turn, r.side): r.amount for _, r in game.replacements if r.kind == "points"}
    for turn in range(1, 21):
        assert points[(turn, "German")] == 2
        assert points[(turn, "Allied")] == 4
    assert len(points) == 40


def test_victory_levels(game: Game) -> None:
    """13.3: a difference of 1-12 victory points is marginal, 13-29 decisive, 30 or more strategic."""
    chart = next(c for c in game.charts.chart if c.id == "victory_levels")
    assert chart.source == "13.3"
    assert [tuple(r) for r in chart.rows] == [("1", "12", "marginal"), ("13", "29", "decisive"),
                                              ("30", "", "strategic")]


def test_twenty_turns(game: Game) -> None:
    """1.0, 13.0: the game lasts 20 turns."""
    turn = next(t for t in game.manifest.track if t.id == "turn")
    assert (turn.first, turn.last) == (1, 20)
    campaign = next(s for s in game.manifest.scenario if s.id == "campaign")
    assert (campaign.first_turn, campaign.last_turn) == (1, 20)


def test_optional_rules(game: Game) -> None:
    """14.1-14.4: four optional rules."""
    assert {o.section for o in game.manifest.optional_rule} == {"14.1", "14.2", "14.3", "14.4"}


# -- reinforcements -------------------------------------------------------------------------------
def test_every_counter_enters_play_once(game: Game) -> None:
    """3.0, 10.0: every division counter is either set up or on a reinforcement schedule, once."""
    setup = unit_setup(game)
    arriving = Counter(a.unit for a in arrivals(game))
    assert max(arriving.values()) == 1
    assert not set(setup) & set(arriving)
    assert set(setup) | set(arriving) == set(game.units_by_id)


def test_reinforcements_arrive_in_the_game(game: Game) -> None:
    """13.0: reinforcements arrive on turns 1-20."""
    assert all(1 <= a.turn <= 20 for a in arrivals(game))


def test_turn_1_reinforcements(game: Game) -> None:
    """4.1 (example of turn 1): the German player gets no reinforcements on turn 1; the Allied player does."""
    sides = Counter(game.units_by_id[a.unit].side for a in arrivals(game) if a.turn == 1)
    assert sides["German"] == 0 and sides["Allied"] > 0


def test_reinforcement_entries(game: Game) -> None:
    """10.1-10.3, 9.1: a reinforcement enters by default (Germany or an Allied supply source), in entry
    area A or B, or (paratroops) in the Paratroop box."""
    assert {a.entry for a in arrivals(game)} <= {None, "entry_a", "entry_b", "paratroop"}


def test_southern_france_from_turn_8(game: Game) -> None:
    """8.1, 8.4: southern France is an Allied supply source from turn 8 on, so Allied divisions enter
    through area B (10.3) only from turn 8."""
    allied_b = [a for a in arrivals(game) if a.entry == "entry_b" and game.units_by_id[a.unit].side == "Allied"]
    assert allied_b
    assert min(a.turn for a in allied_b) >= 8


def test_paratroop_reinforcements_go_to_the_box(game: Game) -> None:
    """9.1: paratroop divisions arriving as reinforcements are placed in the Paratroop box."""
    for a in arrivals(game):
        is_para = game.units_by_id[a.unit].type == "paratroop"
        assert (a.entry == "paratroop") == is_para, a.unit
    assert any(a.entry == "paratroop" for a in arrivals(game))


def test_allied_reinforcements_keyed_by_nationality(game: Game) -> None:
    """10.0: Allied reinforcements are keyed by nationality (British, Canadian, US, French, Polish)."""
    allied = [game.units_by_id[a.unit] for a in arrivals(game) if game.units_by_id[a.unit].side == "Allied"]
    assert {u.nationality for u in allied} <= ALLIED_NATIONALITIES


def test_free_french_divisions(game: Game) -> None:
    """14.2: the asterisked (recruited in France) reinforcements are French divisions."""
    tagged = [game.units_by_id[a.unit] for a in arrivals(game) if "free_french" in a.tags]
    assert tagged
    assert {u.nationality for u in tagged} == {"french"}


RULE_NUMBERS = [
    ("stacking_limit", 3, "6.3"), ("activation_cost", 1, "5.2"), ("breakthrough_activation_cost", 2, "5.2"),
    ("strategic_movement_multiplier", 3, "6.4"), ("strategic_movement_min_distance_mp", 3, "6.4"),
    ("retreat_hexes", 2, "7.3"), ("armor_advance_extra_hexes", 1, "7.4"), ("die_min", 0, "7.1"),
    ("die_max", 6, "7.1"), ("allied_supply_max", 60, "8.2"), ("german_supply_max", 40, "8.2"),
    ("german_supply_income", 8, "8.1"), ("landing_hex_supply", 4, "8.1"), ("southern_france_supply", 4, "8.1"),
    ("southern_france_first_turn", 8, "8.1"), ("captured_supply_fraction", 0.5, "8.7"),
    ("paratroop_return_turns", 3, "9.1"), ("paradrop_cost", 1, "9.2"), ("german_replacement_points", 2, "11.1"),
    ("allied_replacement_points", 4, "11.1"), ("eliminated_per_extra_replacement_point", 3, "11.1"),
    ("german_replacement_min_distance_mp", 3, "11.4"), ("bulge_first_turn", 12, "12.0"),
    ("bulge_last_turn", 17, "12.0"), ("bulge_supply", 10, "12.0"), ("allied_automatic_victory_divisions", 15, "13.2"),
    ("gap_bonus_vp", 5, "13.3"), ("wide_gap_bonus_vp", 15, "13.3"), ("wide_gap_min_distance_mp", 3, "13.3"),
    ("emergency_supply_allied", 3, "14.4"), ("emergency_supply_german", 2, "14.4"), ("emergency_supply_turn", 20, "14.4"),
    ("free_french_per_city", 2, "14.2"),
]


@pytest.mark.parametrize("name,value,section", RULE_NUMBERS, ids=[n for n, _, _ in RULE_NUMBERS])
def test_rule_numbers(game: Game, name: str, value: float, section: str) -> None:
    """Each number the rulebook states is in parameters.toml with its section."""
    record = next(p for p in game.parameters.parameter if p.id == name)
    assert (record.value, record.source) == (value, section)


def test_supply_caps_fit_the_tracks(game: Game) -> None:
    """8.2: the tracks (30 and 20 spaces) plus the flipped markers (+30, +20) reach the caps."""
    tracks = {t.id: t for t in game.manifest.track}
    markers = game.markers_by_id
    assert tracks["allied_supply"].last + int(markers["allied_supply"].text) == game.parameter["allied_supply_max"]
    assert tracks["german_supply"].last + int(markers["german_supply"].text) == game.parameter["german_supply_max"]
