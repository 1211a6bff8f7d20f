"""The rulebooks' own numbers and words, read from the data (issue 19): scales, table names, the
stated cell of a reconstructed table, 11.1.4's cities, 11.2.6's pool, 14.0's and 11.2.5's rates."""

from __future__ import annotations

from collections import Counter

import pytest

from builder.geography.config import GeographySpec
from builder.render.counters.symbols import SIZE_GLYPHS
from wargame.bundled import data_root
from wargame.datafiles import load_toml
from wargame.game import Game, load_game
from wargame.models import is_reconstructed


@pytest.fixture(scope="module")
def onslaught() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


@pytest.fixture(scope="module")
def omaha() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def test_onslaught_scale_is_stated(onslaught: Game) -> None:
    """1.0: eleven miles a hex, cited as stated although the grid is reconstructed."""
    assert onslaught.map.miles_per_hex == 11 and onslaught.map.scale_source == "1.0"
    assert onslaught.map.drawn_miles_per_hex is None


def test_omaha_scale_shows_the_rule_and_the_reconstruction(omaha: Game) -> None:
    """10.0: 2.5 miles a hex is printed; the map is drawn at the fitted hex, given beside it."""
    assert omaha.map.miles_per_hex == 2.5 and omaha.map.scale_source == "10.0"
    spec = load_toml(data_root() / "maps" / "omaha" / "geography.toml", GeographySpec)
    assert omaha.map.drawn_miles_per_hex == pytest.approx(spec.grid.hex_across_km / 1.609344, abs=0.01)


def test_onslaught_combat_table(onslaught: Game) -> None:
    """1.0, 7.0: the 'Combat Table'; the 7.0 example's 3:1 with a 4 is DH, stated inside a reconstructed table."""
    crt = onslaught.crt
    assert crt is not None and crt.name == "Combat Table" and is_reconstructed(crt.source)
    assert [(c.column, c.die, c.result, c.source) for c in crt.stated] == [("3:1", 4, "DH", "7.0")]
    assert crt.results[crt.die_rolls.index(4)][crt.columns.index("3:1")] == "DH"


def test_onslaught_terrain_chart_effects(onslaught: Game) -> None:
    """6.5 and 7.5: effects no number expresses are printed, not a dash."""
    waterway, fort = onslaught.terrain["major_waterway"], onslaught.terrain["fortification"]
    assert waterway.source == "6.5" and "whole allowance" in waterway.movement_effect.lower()
    assert waterway.combat_die_modifier == -2  # 7.1
    assert fort.source == "7.5" and "x2" in fort.combat_effect and "supply" in fort.combat_effect


def test_omaha_marker_loss_places_are_cities(omaha: Game) -> None:
    """11.1.4 calls Trévières (1718), Isigny (1811/1911) and Caumont (0421) city hexes."""
    kinds = {(p.name, p.hex): (p.kind, p.source) for _, p in omaha.places}
    for name, label in (("Trévières", "1718"), ("Isigny", "1811"), ("Isigny", "1911"), ("Caumont", "0421")):
        assert kinds[(name, label)] == ("city", "11.1.4")
        assert omaha.hex_terrain[omaha.grid.hex_of(label)] == ("city",)
        assert omaha.terrain["city"].crt_line == "city"


def test_omaha_seven_named_cities(omaha: Game) -> None:
    """14.2: seven cities on the US map, St-Lô and 11.1.4's three among them; 14.3 counts their hexes."""
    cities = {p.name for _, p in omaha.places if p.kind == "city"}
    assert len(cities) == omaha.parameter["campaign_cities_us"] == 7
    assert {"St-Lô", "Trévières", "Isigny", "Caumont"} <= cities
    hexes = [p.hex for _, p in omaha.places if p.kind == "city"]
    assert omaha.parameter["campaign_one_map_city_hexes_to_win"] == 7 and len(hexes) == 10


def test_omaha_allied_support_pool_is_stated(omaha: Game) -> None:
    """11.2.6: 25 markers, +2 x3, +3 x3, +4 x2, +5 x1, +6 x6, +7 x3, +8 x4, +9 x2, +10 x1 (stated);
    which carry the aircraft icon is the reconstruction."""
    allied = [m for m in omaha.markers.marker if m.side == "Allied" and m.kind == "support_fire"]
    pool: Counter[int] = Counter()
    for m in allied:
        assert m.value is not None
        pool[m.value] += m.count
        assert m.source == "11.2.6" and m.icon_source is not None and is_reconstructed(m.icon_source)
    assert pool == Counter({2: 3, 3: 3, 4: 2, 5: 1, 6: 6, 7: 3, 8: 4, 9: 2, 10: 1})


def test_omaha_replacement_rates_by_section(omaha: Game) -> None:
    """14.0 (US campaign): 2 leg every GT from GT 2, 1 mobile on GT 3, 2 mobile every odd GT from 5;
    11.2.5: 1 leg every GT from GT 2, 1 mobile every odd GT from 3; kept apart, by section."""
    rows = [r for _, r in omaha.replacements if r.scenario == "campaign"]
    rate = {(r.source, r.kind, r.turn): r.amount for r in rows}
    for turn in range(2, 26):
        assert rate[("14.0", "leg", turn)] == 2 and rate[("11.2.5", "leg", turn)] == 1
    assert rate[("14.0", "mobile", 3)] == 1
    for turn in range(5, 26, 2):
        assert rate[("14.0", "mobile", turn)] == 2
    for turn in range(3, 26, 2):
        assert rate[("11.2.5", "mobile", turn)] == 1
    assert not any(k[1] == "mobile" and k[2] % 2 == 0 for k in rate)


def test_omaha_combat_commands_are_regiments(omaha: Game) -> None:
    """11.2.4 calls CCA/2 to CCR/3 mechanized regiments: their counters carry the regiment's III."""
    commands = [u for _, u in omaha.units if u.id.startswith("CC")]
    assert len(commands) == 6 and {u.source for u in commands} == {"11.2.4"}
    assert {SIZE_GLYPHS[u.size] for u in commands} == {SIZE_GLYPHS["regiment"]} == {"III"}


def test_omaha_terrain_chart_names_the_bocage_as_the_map_does(omaha: Game) -> None:
    """The TEC's notes match the map: the bocage is Broken ground, Mixed is the open country."""
    spec = load_toml(data_root() / "maps" / "omaha" / "geography.toml", GeographySpec)
    bocage = {a.terrain for a in spec.terrain_area if "bocage" in a.name.lower()}
    assert bocage == {"broken"}
    assert "bocage" in omaha.terrain["broken"].note and "is Broken" in omaha.terrain["mixed"].note
