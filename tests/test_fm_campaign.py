"""The Omaha campaign game (14.0, 14.2, 14.3 with 14.1 and 11.1.2) as `[Scenario "campaign"]`: the
US one-map campaign with this folio's forces, and another folio's forces added as data only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from adjudicator.contract import TurnContext
from adjudicator.notation.entries import Header
from adjudicator.notation.text import parse_text
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.omaha import OmahaState
from fm_log import SETUP, landed, replay_errors, replay_from
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import at_phase

PHASES = FM.phases(load_game(data_root(), "omaha"))
"""4.1: the phases of a game turn, from the game's [[sequence]]."""

GT_END = len(PHASES) - 1
GERMAN_MOVEMENT = PHASES.index("movement", 2)
CITY_HEXES = {"Bayeux": ("1425",), "Carentan": ("1906",), "Caumont": ("0421",), "Isigny": ("1811", "1911"),
              "Le Molay-Littry": ("1319",), "St-Lô": ("0608", "0609", "0709"), "Trévières": ("1718",)}
"""The seven cities of the US map (14.2) and their ten hexes (14.3), from maps/omaha/places.csv; Trévières,
Isigny and Caumont are cities because 11.1.4 calls them city hexes (PROVENANCE.md)."""
OCCUPIERS = ("9/2", "23/2", "38/2", "117/30", "119/30", "120/30", "331/83", "330/83", "329/83")
GT1 = ("Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\n"
       "Phase mobile_combat\nPhase movement\nGerman: reinforce Sch/30 1005\nPhase bombardment\nPhase combat\n"
       "Phase mobile_movement\nPhase mobile_combat\nPhase game_turn_end\n")


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def start(game: Game, scenario: str = "campaign", optional: tuple[str, ...] = (), **state: Any) -> OmahaState:
    """A state of `scenario` (the log's headers) with fields replaced."""
    headers = [Header(key="Scenario", value=scenario), *(Header(key="Optional", value=o) for o in optional)]
    return at_phase(FM.initial_state(game, headers), **state)


def replay(state: OmahaState, text: str) -> tuple[list[tuple[str, str]], OmahaState]:
    """Replay `text` from `state`: (rule, entry) of every error, and the final state."""
    return replay_from(state, text)


def gt_end(game: Game, turn: int, cities: tuple[str, ...] = (), hexes: tuple[str, ...] = (),
           **state: Any) -> OmahaState:
    """The campaign as GT `turn` ends: 16/1 on the beachhead of 2319, an Allied unit on every hex of
    the named cities and on the extra hexes, no German unit on the map."""
    labels = [h for c in cities for h in CITY_HEXES[c]] + list(hexes)
    base = FM.initial_state(game, [Header(key="Scenario", value="campaign")])
    location = {**base.location, "16/1": "2319", **dict(zip(OCCUPIERS, labels))}
    return at_phase(base, **{"turn": turn, "phase": GT_END, "location": location, "beachheads": frozenset({"2319"}),
                            **state})


def notes(state: OmahaState) -> list[tuple[str, str]]:
    """(rule, message) of the notes the log's end gives."""
    return [(f.rule, f.message) for f in FM.finish(state) if f.severity == "note"]


# -- the scenario header and the data ----------------------------------------------------------
def test_the_campaign_is_a_scenario_of_the_log_header(game: Game) -> None:
    """14.0: `[Scenario "campaign"]` selects the campaign; the cities 14.2 counts are the map's."""
    state = start(game)
    assert state.scenario == "campaign" and FM.sequence_point(state) == TurnContext()
    assert FM.campaign.cities(state) == CITY_HEXES
    assert game.parameter["campaign_cities_us"] == len(CITY_HEXES)
    assert start(game, optional=("weather",)).optional == frozenset({"weather"})  # redundant, accepted


# -- 14.0 a: no scenario boundary ----------------------------------------------------------------
def test_no_scenario_boundary(game: Game) -> None:
    """14.0 a: in the campaign units set up and move west of the Douve and Taute (10.1 is off)."""
    move = "Phase support_fire_marker\nRoll German 2\nPhase movement\nAllied: move 16/1 1907-1906\n"
    placed = {"16/1": "1907"}
    assert replay(start(game, location={**start(game).location, **placed}, turn=2), move)[0] == []
    scenario = start(game, "beach_to_bocage", location={**start(game, "beach_to_bocage").location, **placed}, turn=2)
    assert replay(scenario, move.replace("Roll German 2\n", ""))[0] == [("10.1", "Allied: move 16/1 1907-1906")]
    carentan = SETUP.replace("1Flak 1610", "1Flak 1906")
    assert replay_errors(game, carentan, scenario="campaign")[0] == []
    assert replay_errors(game, carentan)[0] == [("10.1", "German: setup 1Flak 1906")]


# -- 14.1 in force, 11.1.2 ------------------------------------------------------------------------
def test_weather_is_part_of_the_campaign(game: Game) -> None:
    """14.1: optional in a single scenario, always in force in the campaign, without a header."""
    text = "Phase support_fire_marker\nPhase movement\n"
    assert replay(start(game, turn=2, phase=GT_END), "Turn 3\n" + text)[0] == [("14.1", "Phase movement")]
    assert replay(start(game, "beach_to_bocage", turn=2, phase=GT_END), "Turn 3\n" + text)[0] == []


def test_german_arrivals_keep_their_full_allowance_outside_the_campaign(game: Game) -> None:
    """11.1.2: a German reinforcement moves its full MA on its GT of arrival, unless in the campaign
    game in inclement weather (14.1 halves it): 9/3 (MA 6, 3 when halved) pays 2 for 0115 and 2 more."""
    text = "German: reinforce 9/3 0115\nGerman: move 9/3 0115-0215\n"
    at: dict[str, Any] = {"turn": 3, "phase": GERMAN_MOVEMENT, "weather": "inclement"}
    assert replay(start(game, "beach_to_bocage", ("weather",), **at), text)[0] == []
    # 4 MP fits the printed MA (6), not the halved one: the halving misread, 14.1 (issue 26's ruling).
    assert replay(start(game, **at), text)[0] == [("14.1", "German: move 9/3 0115-0215")]
    assert replay(start(game, **{**at, "weather": "fair"}), text)[0] == []


# -- 14.0 replacement rates and 14.0 g ----------------------------------------------------------
def test_campaign_replacement_rates(game: Game) -> None:
    """14.0 with 14.0 g: three leg points a GT from GT 2 (14.0's two and 11.2.5's one), two mobile
    points on GT 3, three on each odd GT from GT 5; the scenario has one of each."""
    leg = ("16/1", "18/1", "26/1", "115/29")
    mobile = ("CCA/2", "CCB/2", "CCR/2", "CCA/3")
    placed = dict(zip(leg + mobile, ("2319", "2319", "2318", "2219", "2120", "2120", "2121", "2122")))

    def rebuild(scenario: str, turn: int, units: tuple[str, ...]) -> list[tuple[str, str]]:
        state = start(game, scenario, location={**start(game, scenario).location, **placed}, depleted=frozenset(placed),
                      turn=turn - 1, phase=GT_END, beachheads=frozenset(placed.values()))
        return replay(state, f"Turn {turn}\nPhase support_fire_marker\n"
                      + "".join(f"Allied: replace {u}\n" for u in units))[0]
    assert rebuild("campaign", 2, leg) == [("14.0g", "Allied: replace 115/29")]
    assert rebuild("beach_to_bocage", 2, leg[:2]) == [("11.2.5", "Allied: replace 18/1")]
    assert rebuild("campaign", 3, mobile[:3]) == [("14.0g", "Allied: replace CCR/2")]
    assert rebuild("campaign", 5, mobile) == [("14.0g", "Allied: replace CCA/3")]
    assert rebuild("campaign", 4, mobile[:1]) == [("14.0g", "Allied: replace CCA/2")]
    assert rebuild("campaign", 24, leg[:3]) == []


# -- 14.0 b: landing beaches ----------------------------------------------------------------------
def test_assault_units_land_on_their_designated_beach(game: Game) -> None:
    """14.0 b: the GT 1 assault units land on their own beach (Omaha for this folio's six)."""
    off = SETUP.replace("175/29 2120", "175/29 2220")
    assert replay_errors(game, off, scenario="campaign")[0] == [("14.0b", "Allied: setup 175/29 2220")]
    assert replay_errors(game, off)[0] == [("11.2.1", "Allied: setup 175/29 2220")]
    assert replay_errors(game, landed(SETUP) + GT1, scenario="campaign")[0] == []


@pytest.fixture
def utah(data_copy: Path) -> Game:
    """The Omaha data with a Utah folio's forces added as data only (PROVENANCE.md, campaign game):
    a beach area, its assault box, an assault regiment, a GT 2 reinforcement, a replacement point and
    a German support fire marker, all in the campaign's rows."""
    maps, counters = data_copy / "maps" / "omaha", data_copy / "counters" / "omaha"
    with open(maps / "areas.toml", "a", encoding="utf-8") as f:
        f.write('\n[[area]]\nid = "utah_beach"\nname = "Utah beach hexes"\nkind = "beach"\nhexes = ["2402", "2403"]\n'
                'side = "Allied"\nsource = "reconstructed"\n')
    with open(counters / "game.toml", "a", encoding="utf-8") as f:
        f.write('\n[[box]]\nid = "utah_assault"\nname = "Utah assault units"\nkind = "holding"\nside = "Allied"\n'
                'area = "utah_beach"\nsource = "reconstructed"\n')
    with open(counters / "markers.toml", "a", encoding="utf-8") as f:
        f.write('\n[[marker]]\nid = "de_sf_7"\nname = "German support +7"\nkind = "support_fire"\nside = "German"\n'
                'count = 1\nvalue = 7\nrange_hexes = 2\nsource = "reconstructed"\n')
    rows = {"units.csv": ["8/4,8th Infantry Regiment / 4th Infantry Division,Allied,us,infantry,leg,regiment,2,4-4-6,"
                          "2-2-6,yes,reconstructed,full;reduced;steps;zoc,test",
                          "12/4,12th Infantry Regiment / 4th Infantry Division,Allied,us,infantry,leg,regiment,2,"
                          "4-4-6,2-2-6,yes,reconstructed,full;reduced;steps;zoc,test"],
            "setup.csv": ["campaign,8/4,utah_assault,1,reconstructed,", "campaign,de_sf_7,german_cup,1,reconstructed,"],
            "reinforcements.csv": ["campaign,2,12/4,utah_beach,,reconstructed,"],
            "replacements.csv": ["campaign,2,Allied,leg,1,reconstructed,"]}
    for name, lines in rows.items():
        with open(counters / name, "a", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
    return load_game(data_copy, "omaha")


def test_another_folio_added_as_data(utah: Game) -> None:
    """14.0 b, e, g with another folio's data: its assault unit lands on its own beach only, every
    reinforcement lands on any beach landing hex with a marker, its replacement rows add up, its
    German marker joins the one German cup; the scenario sees none of it."""
    setup = SETUP + "Allied: setup 8/4 2402\n"
    assaults = landed(SETUP) + "Allied: attack 2402 with 8/4\n"
    gt2 = "Turn 2\nPhase support_fire_marker\nRoll German 3\nPhase movement\n"
    errors, state = replay_errors(utah, setup + assaults[len(SETUP):] + GT1
                                  + gt2 + "Allied: reinforce 9/2 2402\nAllied: reinforce 12/4 2319\n",
                                  scenario="campaign")
    assert errors == [] and {"2402", "2319"} <= state.beachheads  # type: ignore[operator]
    assert replay_errors(utah, SETUP + "Allied: setup 8/4 2319\n", scenario="campaign")[0] == \
        [("14.0b", "Allied: setup 8/4 2319")]
    assert replay_errors(utah, SETUP.replace("16/1 2319", "16/1 2402"), scenario="campaign")[0] == \
        [("14.0b", "Allied: setup 16/1 2402")]
    assert replay_errors(utah, setup + assaults[len(SETUP):] + "Turn 1\n", scenario="campaign")[0] == []
    assert replay_errors(utah, setup + landed(SETUP)[len(SETUP):] + "Turn 1\n", scenario="campaign")[0] == \
        [("11.2.3", "Turn 1")]  # the beach assault of 2402 is missing (11.2.3)
    german = "".join(line + "\n" for line in SETUP.splitlines() if line.startswith("German"))
    regiments = ("16/1", "18/1", "26/1", "115/29", "116/29", "175/29")
    full = german + "".join(f"Allied: setup {u} {h}\n" for u, h in zip(regiments, ("2319",) * 3 + ("2219",) * 3))
    full += "Allied: setup 2Rgr 2417\n"
    # 11.2.1 with 14.0 b: a full Omaha beach does not excuse a unit of another beach from landing.
    assert replay_errors(utah, landed(full) + "Turn 1\n", scenario="campaign")[0] == [("11.0", "Turn 1")]
    assert replay_errors(utah, landed(full + "Allied: setup 8/4 2402\n") + "Allied: attack 2402 with 8/4\nTurn 1\n",
                         scenario="campaign")[0] == []
    points = sum(r.amount for _, r in utah.replacements if r.scenario == "campaign" and r.turn == 2 and r.kind == "leg")
    assert points == 4
    campaign, scenario = start(utah), start(utah, "beach_to_bocage")
    assert FM.pool(campaign, "German")["de_sf_7"] == 1 and sum(FM.pool(campaign, "German").values()) == 18
    assert "de_sf_7" not in FM.pool(scenario, "German") and sum(FM.pool(scenario, "German").values()) == 17
    assert set(replay_errors(utah, SETUP + "Allied: setup 8/4 2402\n")[0]) == \
        {("11.0", "Allied: setup 8/4 2402"), ("10.1", "Allied: setup 8/4 2402")}  # west of 10.1's boundary too


# -- 14.0 e, f: the cups --------------------------------------------------------------------------
def test_cups_hold_every_marker_of_the_campaign(game: Game, data_copy: Path) -> None:
    """14.0 e, f: one German cup with all the German markers (not capped by the scenario's
    allotment of 15), the US aircraft cup and the other, as the campaign's set-up fills them."""
    campaign = start(game)
    assert sum(FM.pool(campaign, "German").values()) == 17
    allied = FM.pool(campaign, "Allied")
    aircraft = {m.id for m in game.markers.marker if m.icon == "aircraft"}
    assert sum(allied.values()) == 25 and sum(n for m, n in allied.items() if m in aircraft) == 7
    counters = data_copy / "counters" / "omaha"
    with open(counters / "markers.toml", "a", encoding="utf-8") as f:
        f.write('\n[[marker]]\nid = "de_sf_7"\nname = "German support +7"\nkind = "support_fire"\nside = "German"\n'
                'count = 1\nvalue = 7\nrange_hexes = 2\nsource = "reconstructed"\n')
    with open(counters / "setup.csv", "a", encoding="utf-8") as f:
        f.write("campaign,de_sf_7,german_cup,1,reconstructed,\nbeach_to_bocage,de_sf_7,german_cup,1,reconstructed,\n")
    more = load_game(data_copy, "omaha")
    assert sum(FM.pool(start(more), "German").values()) == 18
    capped = FM.pool(start(more, "beach_to_bocage"), "German")
    assert sum(capped.values()) == 17 and "de_sf_9" not in capped  # 7.1: the scenario's 15, lowest first


# -- 14.2: length -------------------------------------------------------------------------------
def test_length_is_extended_by_the_cities_not_captured(game: Game) -> None:
    """14.2: GT 17, then one GT more per city of the map not captured; the extension is fixed as
    GT 17 ends and a later game turn is an error."""
    assert FM.campaign.campaign_last_turn(gt_end(game, 17))[0] == 24
    errors, state = replay(gt_end(game, 17), "Turn 18\n")
    assert errors == [] and state.last_turn == 24 and FM.describe(state)["last_turn"] == 24
    assert replay(gt_end(game, 24, last_turn=24), "Turn 25\n")[0] == [("14.2", "Turn 25")]
    two = gt_end(game, 17, ("Bayeux", "Trévières"))
    assert FM.campaign.campaign_last_turn(two)[0] == 22 and replay(two, "Turn 18\n")[1].last_turn == 22
    assert replay(gt_end(game, 22, last_turn=22), "Turn 23\n")[0] == [("14.2", "Turn 23")]
    assert replay(gt_end(game, 16), "Turn 17\n")[0] == []
    last_occupied = gt_end(game, 17, controlled={"1425": "Allied"})
    assert FM.campaign.campaign_last_turn(last_occupied)[0] == 23


def test_a_city_counts_once_and_only_whole(game: Game) -> None:
    """14.2: St-Lô's three hexes make one city, captured when all three are."""
    assert FM.campaign.campaign_last_turn(gt_end(game, 17, hexes=("0608", "0609")))[0] == 24
    assert FM.campaign.campaign_last_turn(gt_end(game, 17, ("St-Lô",)))[0] == 23


def test_a_city_is_captured_only_in_supply(game: Game) -> None:
    """14.2, 14.3 with 12.0: a city hex cut off from every beach landing hex is not captured."""
    state = gt_end(game, 17, ("Bayeux",))
    grid = game.grid
    ring = [grid.label_of(h) for h in grid.neighbours_on_map(grid.hex_of("1425"))]
    opposite = next(label for label in ring
                    if all(min(grid.hex_of(r).distance(grid.hex_of(g)) for g in (ring[0], label)) <= 1 for r in ring))
    cut = replace(state, location={**state.location, "914/352": ring[0], "915/352": opposite})
    assert FM.campaign.campaign_last_turn(state)[0] == 23 and FM.campaign.campaign_last_turn(cut)[0] == 24


def test_never_beyond_gt_25(data_copy: Path) -> None:
    """14.2: whatever the count, the campaign ends by GT 25 (10 cities on the map here)."""
    path = data_copy / "counters" / "omaha" / "parameters.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('id = "campaign_cities_us"\nvalue = 7', 'id = "campaign_cities_us"\nvalue = 10'),
                    encoding="utf-8")
    more = load_game(data_copy, "omaha")
    assert FM.campaign.campaign_last_turn(gt_end(more, 17))[0] == 25
    assert replay(gt_end(more, 25, last_turn=25), "Turn 26\n")[0] == [("14.2", "Turn 26")]  # not 10.2's too


def test_gt_24_reinforcements(game: Game) -> None:
    """14.2: the 28th Division's three regiments land on GT 24 when the game lasts that long."""
    base = start(game)
    gone = {r.unit: "eliminated_allied" for _, r in game.reinforcements
            if r.scenario == "campaign" and game.units_by_id[r.unit].side == "Allied" and r.turn < 24}
    gone.update({u: "eliminated_allied" for u, where in base.location.items() if where == "allied_assault"})
    state = at_phase(base, location={**base.location, **gone, "16/1": "2219"}, turn=24, phase=PHASES.index("movement"),
                    set_up=True, beachheads=frozenset({"2319", "2219"}), last_turn=24)
    errors = replay(state, "Phase bombardment\n")[0]
    assert errors == [("11.2.4", "Phase bombardment")]  # the three left off: one error, two notes (issue 26)
    land = "Allied: reinforce 112/28 2319\nAllied: reinforce 110/28 2319\nAllied: reinforce 109/28 2219\n"
    assert replay(state, land + "Phase bombardment\n")[0] == []
    off_beach = FM.check(state, list(parse_text('[Game "omaha"]\nAllied: reinforce 112/28 2217'))[-1])
    assert [f.rule for f in off_beach] == ["11.2.4"]
    assert "any beach landing hex with a beachhead marker" in off_beach[0].message
    assert replay_errors(game, "Allied: reinforce 112/28 2319\n")[0] != []  # not in the scenario


# -- 14.3: victory --------------------------------------------------------------------------------
def test_allied_victory_at_gt_17(game: Game) -> None:
    """14.3 a: any seven city hexes captured as GT 17 ends win for the Allies (each hex counts), and
    the game does not go on (14.2)."""
    seven = gt_end(game, 17, ("St-Lô", "Bayeux", "Carentan", "Trévières", "Caumont"))
    assert FM.campaign.campaign_verdict(seven)[0] == "Allied" and FM.campaign.campaign_last_turn(seven)[0] == 17
    assert [rule for rule, _ in notes(seven)] == ["14.3"] and "Allied player wins" in notes(seven)[0][1]
    assert replay(seven, "Turn 18\n")[0] == [("14.2", "Turn 18")]
    six = gt_end(game, 17, ("Bayeux", "Carentan", "Le Molay-Littry", "Trévières", "Isigny"))  # 6 hexes
    assert FM.campaign.campaign_verdict(six)[0] == "German" and FM.campaign.campaign_last_turn(six)[0] == 19
    assert notes(six) == [("14.2", "at the end of GT 17 the campaign game goes on: 7 cities on the map less 5 "
                                  "captured (Bayeux, Carentan, Isigny, Le Molay-Littry, Trévières) "
                                  "extend it by 2 GT(s) to GT 19")]


def test_verdict_at_the_end_of_the_extended_game(game: Game) -> None:
    """14.3: as the last GT ends the Allies win with seven city hexes, else the German player wins
    an operational victory; no verdict before."""
    six = ("Bayeux", "Carentan", "Le Molay-Littry", "Trévières", "Isigny")
    assert notes(gt_end(game, 18, six, last_turn=18)) == [
        ("14.3", "at the end of GT 18 the German player wins the campaign game: operational victory: 6 city hex(es) "
                 "captured and in supply (1319, 1425, 1718, 1811, 1906, 1911), not 7")]
    assert "Allied player wins" in notes(gt_end(game, 18, (*six, "St-Lô"), last_turn=18))[0][1]
    assert notes(gt_end(game, 18, six, last_turn=20)) == []


def test_scenario_victory_conditions_not_used(game: Game) -> None:
    """14.0 c: 13.0's verdict is not given in the campaign, even with its places taken."""
    taken = {"1718": "Allied", "1811": "Allied", "1911": "Allied", "0421": "Allied"}
    next_to_st_lo = ("0508", "0710")
    campaign = gt_end(game, 17, hexes=next_to_st_lo, controlled=taken)
    scenario = replace(campaign, scenario="beach_to_bocage", location={**campaign.location, "16/1": "2319"})
    assert "13.0" not in [rule for rule, _ in notes(campaign)]
    assert [rule for rule, _ in notes(scenario)] == ["13.0"]


def test_german_sudden_death(game: Game) -> None:
    """14.3: no beach landing hex left at the end of a GT: the German strategic victory at once."""
    state = gt_end(game, 3, beachheads=frozenset())
    errors, after = replay(state, "Turn 4\nPhase support_fire_marker\n")
    assert after.victory is not None and after.victory.section == "14.3"
    assert errors == [("14.3", "Phase support_fire_marker")]
    assert [rule for rule, _ in notes(state)] == ["14.3"] and "strategic victory" in notes(state)[0][1]
    scenario = replace(state, scenario="beach_to_bocage")
    assert replay(scenario, "Turn 4\n")[1].victory.section == "13.0"  # type: ignore[union-attr]

