"""Onslaught's victory points (13.3): divisions in supply, the gap bonus, the level of victory."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught import victory
from adjudicator.systems.onslaught.victory import GapMap, Score, gap_bonus, score, verdict, victory_level
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.hexes import Hex, Hexside
from play_support import when

WALL = ("3002", "3004", "3006", "3008", "3011", "3014", "3017", "3020", "3023", "3026", "3029")
"""Hexes of column 30 whose zones of control cover the whole column (3001 is sea; 3005, Goeree-Overflakkee,
is an island behind the Haringvliet and the Grevelingen, 6.2's sea hexsides, so 3004 and 3006 are held)."""
NARROW_HOLE = ("3002", "3004", "3006", "3008", "3011", "3015", "3018", "3021", "3024", "3027", "3030")
"""The column covered but for 3013, which is two movement points from 3011 and from 3015."""
WIDE_HOLE = ("3002", "3004", "3006", "3008", "3011", "3017", "3020", "3023", "3026", "3029")
"""The column covered but for 3013-3015; 3014 is three movement points from 3011 and from 3017."""
EDGE_WALL = ("5002", "5005", "5008", "5011", "5014", "5017", "5020", "5023", "5026", "5029")
"""Ten hexes whose zones of control cover every hex of the east edge (column 50)."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


@pytest.fixture(scope="module")
def start(game: Game) -> OnslaughtState:
    """The campaign set-up (3.0)."""
    return ONSLAUGHT.initial_state(game, [])


def side_units(game: Game, side: str) -> list[str]:
    """Unit ids of one side, in data order."""
    return [u.id for u in game.units_by_id.values() if u.side == side]


def placed(state: OnslaughtState, location: dict[str, str]) -> OnslaughtState:
    """The state with exactly these units on the map."""
    return replace(state, location=location)


def line_of(game: Game, side: str, labels: tuple[str, ...], skip: int = 0) -> dict[str, str]:
    """Divisions of `side` (after the first `skip`) one to a hex of `labels`."""
    return dict(zip(side_units(game, side)[skip:], labels))


def surrounding(game: Game, label: str) -> list[str]:
    """Three alternate neighbours of a hex, whose zones of control cover all six neighbours."""
    return [game.grid.label_of(n) for n in game.grid.hex_of(label).neighbours()[::2]]


def is_gap_path(game: Game, state: OnslaughtState, side: str, path: tuple[str, ...], wide: bool) -> bool:
    """Whether `path` is one 13.3 accepts: edge to French coast, adjacent steps, clear of enemy ZOC."""
    hexes = [game.grid.hex_of(label) for label in path]
    gap_map = GapMap.of(game)
    enemy = "Allied" if side == "German" else "German"
    closed = ONSLAUGHT.zoc(state, enemy) | (ONSLAUGHT.near_enemy(state, side) if wide else set())
    return (hexes[0] in game.area_hexes("east_edge") and hexes[-1] in gap_map.french_coast
            and all(b in gap_map.links[a] for a, b in zip(hexes, hexes[1:]))
            and not any(h in closed for h in hexes))


# -- the map: coast of France and the hexes a path may use ------------------------------------

def test_coast_of_france(game: Game) -> None:
    """13.3: French hexes next to the sea or across a sea hexside; not Belgium, not inland, not the map edge."""
    coast = {game.grid.label_of(h) for h in GapMap.of(game).french_coast}
    # The landing hexes, the Cotentin west coast, Le Havre, the last hex before the Belgian border.
    assert {"0620", "0720", "0820", "0323", "1119", "2209"} <= coast
    # 1217 reaches the sea only across the Seine estuary's sea hexside 1118-1217.
    assert "1217" in coast and "sea_side" in game.hexside_features[game.grid.parse_hexside("1118-1217")]
    france = {game.grid.label_of(h) for h in game.area_hexes("france")}
    assert "2408" not in france and "2408" not in coast            # Ostend: Belgian coast
    assert "1519" in france and "1519" not in coast                # inland
    assert "0127" in france and "0127" not in coast                # on the map's west edge, inland
    # 1219 (Tancarville, north bank) faces Honfleur across the Seine estuary's sea hexside.
    assert "1219" in coast and "sea_side" in game.hexside_features[game.grid.parse_hexside("1120-1219")]
    assert len(coast) == 38


def test_coast_across_a_sea_hexside(game: Game) -> None:
    """13.3: a French hex whose only water is across a sea hexside (an estuary) is coast too."""
    estuary = game.grid.hex_of("1217")
    sea = {n for n in estuary.neighbours() if "sea" in game.hex_terrain.get(n, ())}
    assert sea    # on the bundled map 1217 also touches the sea; dry those hexes out
    dry = [(line, replace(record, terrain=("clear",)) if game.grid.hex_of(record.hex) in sea
            else record) for line, record in game.hexes]
    dried = replace(game, hexes=dry)
    assert not any("sea" in dried.hex_terrain[n] for n in estuary.neighbours() if n in dried.hex_terrain)
    assert estuary in GapMap.of(dried).french_coast


def test_path_hexes_and_steps(game: Game) -> None:
    """13.3: the path uses hexes a division may enter, never across a sea hexside."""
    links = GapMap.of(game).links
    for label in ("0113", "0101"):                                  # sea; England (neutral)
        assert game.grid.hex_of(label) not in links
    le_havre, estuary = game.grid.hex_of("1118"), game.grid.hex_of("1217")
    assert le_havre in links and estuary in links and estuary not in links[le_havre]
    impassable = {s for s, fs in game.hexside_features.items() if "sea_side" in fs}
    assert not any(Hexside.between(a, b) in impassable for a, ns in links.items() for b in ns)


# -- division points -------------------------------------------------------------------------

def test_german_divisions_west_of_the_rhine_in_supply(game: Game, start: OnslaughtState) -> None:
    """13.3: a German division west of the Rhine scores if in supply; east of it, or cut off, it does not;
    one in a fortified port scores (13.2's exception for fortified ports is not in 13.3)."""
    german = side_units(game, "German")
    cut_off = "2519"
    state = placed(start, {german[0]: "1519", german[1]: "5010", german[2]: cut_off, german[3]: "1119",
                           **line_of(game, "Allied", tuple(surrounding(game, cut_off)))})
    west = game.area_hexes("west_of_rhine")
    assert game.grid.hex_of("5010") not in west and game.grid.hex_of(cut_off) in west
    assert game.grid.hex_of("1119") in game.area_hexes("fortified_ports") & west      # Le Havre
    assert ONSLAUGHT.is_supplied(state, german[1]) and not ONSLAUGHT.is_supplied(state, german[2])
    side = score(state).of("German")
    assert side.divisions == tuple(sorted((german[0], german[3])))
    assert side.out_of_supply == (german[2],)
    assert side.division_points == 2


def test_allied_divisions_east_of_the_victory_line_in_supply(game: Game, start: OnslaughtState) -> None:
    """13.3: an Allied division east of the Victory Line scores if in supply; west of it, or cut off, it does not."""
    allied = side_units(game, "Allied")
    cut_off = "4108"
    state = placed(start, {allied[0]: "4010", allied[1]: "1519", allied[2]: cut_off,
                           **line_of(game, "German", tuple(surrounding(game, cut_off)))})
    east = game.area_hexes("east_of_victory_line")
    assert game.grid.hex_of("4010") in east and game.grid.hex_of(cut_off) in east
    assert game.grid.hex_of("1519") not in east and ONSLAUGHT.is_supplied(state, allied[1])
    assert not ONSLAUGHT.is_supplied(state, allied[2])
    side = score(state).of("Allied")
    assert side.divisions == (allied[0],) and side.out_of_supply == (allied[2],)
    assert side.division_points == 1


def test_divisions_off_the_map_do_not_score(game: Game, start: OnslaughtState) -> None:
    """13.3 counts divisions on the map only: a box is in no area."""
    german = side_units(game, "German")
    state = placed(start, {german[0]: "eliminated_german", german[1]: "1519"})
    assert score(state).of("German").divisions == (german[1],)


# -- the gap bonus ------------------------------------------------------------------------------

@pytest.mark.parametrize("side", ["German", "Allied"])
def test_enemy_zoc_closes_the_gap(game: Game, start: OnslaughtState, side: str) -> None:
    """13.3: a line of enemy ZOC across the map leaves no path, so no bonus."""
    enemy = "Allied" if side == "German" else "German"
    state = placed(start, line_of(game, enemy, WALL))
    assert gap_bonus(state, side) is None
    result = score(state).of(side)
    assert result.gap is None and result.bonus_points == 0
    assert any(line.startswith(f"{side}: ") and "no gap bonus" in line for line in score(state).lines())


@pytest.mark.parametrize("side", ["German", "Allied"])
def test_path_may_not_start_in_enemy_zoc(game: Game, start: OnslaughtState, side: str) -> None:
    """13.3: the path's first hex counts: enemy ZOC over the whole east edge leaves no gap."""
    enemy = "Allied" if side == "German" else "German"
    state = placed(start, line_of(game, enemy, EDGE_WALL))
    assert GapMap.of(game).east_edge and all(h in ONSLAUGHT.zoc(state, enemy) for h in GapMap.of(game).east_edge)
    assert gap_bonus(state, side) is None


def test_gap_through_a_hole_in_the_line(game: Game, start: OnslaughtState) -> None:
    """13.3: a path clear of enemy ZOC earns 5; through a one-hex hole it passes within two
    movement points of the line (6.4's count), so it is no wide gap."""
    state = placed(start, line_of(game, "Allied", NARROW_HOLE))
    bonus = gap_bonus(state, "German")
    assert bonus is not None and (bonus.points, bonus.wide) == (5, False)
    assert "3013" in bonus.path and is_gap_path(game, state, "German", bonus.path, wide=False)
    assert game.grid.hex_of("3013") in ONSLAUGHT.near_enemy(state, "German")
    assert score(state).of("German").total == 5


def test_wide_gap(game: Game, start: OnslaughtState) -> None:
    """13.3 with 6.4: a path every hex of which is three movement points or more from the enemy earns 15;
    exactly three is enough."""
    state = placed(start, line_of(game, "Allied", WIDE_HOLE))
    bonus = gap_bonus(state, "German")
    assert bonus is not None and (bonus.points, bonus.wide) == (15, True)
    assert "3014" in bonus.path and is_gap_path(game, state, "German", bonus.path, wide=True)
    hole, (north, south) = game.grid.hex_of("3014"), (game.grid.hex_of("3011"), game.grid.hex_of("3017"))
    assert hole.distance(north) == hole.distance(south) == 3


def test_one_bonus_per_side(game: Game, start: OnslaughtState) -> None:
    """13.3: the bonus is earned once: with a wide gap (so also a plain one) and many paths, 15 and no more."""
    german = side_units(game, "German")
    state = placed(start, {german[0]: "1519"})
    gap_map = GapMap.of(game)
    assert victory.gap_path(gap_map.links, gap_map.east_edge, gap_map.french_coast, set()) is not None
    side = score(state).of("German")
    assert side.gap is not None and side.gap.wide
    assert (side.division_points, side.bonus_points, side.total) == (1, 15, 16)


# -- levels of victory --------------------------------------------------------------------------

@pytest.mark.parametrize(("german", "allied", "expected"), [
    (20, 20, (None, None, 0)),
    (21, 20, ("German", "marginal", 1)),
    (32, 20, ("German", "marginal", 12)),
    (33, 20, ("German", "decisive", 13)),
    (20, 49, ("Allied", "decisive", 29)),
    (20, 50, ("Allied", "strategic", 30)),
    (0, 75, ("Allied", "strategic", 75)),
])
def test_levels_of_victory(game: Game, german: int, allied: int, expected: tuple[str | None, str | None, int]) -> None:
    """13.3 chart: 1-12 marginal, 13-29 decisive, 30 or more strategic; equal scores, no winner."""
    assert verdict(game, {"German": german, "Allied": allied}) == expected
    assert victory_level(game, expected[2]) == expected[1]


def test_equal_scores_on_an_empty_map(game: Game, start: OnslaughtState) -> None:
    """13.3: no divisions on the map: each side has a wide gap and 15 points; no winner, no level."""
    result = score(placed(start, {}))
    assert [(s.side, s.total) for s in result.sides] == [("Allied", 15), ("German", 15)]
    assert (result.winner, result.level, result.difference) == (None, None, 0)
    assert result.lines()[-1] == "Equal scores (15 to 15): no winner (13.3)"


# -- the set-up ---------------------------------------------------------------------------------

def test_score_at_set_up(game: Game, start: OnslaughtState) -> None:
    """13.3 at the set-up (3.0): German 27 divisions in supply west of the Rhine plus a wide gap (42); Allied
    no division east of the Victory Line but a wide gap too (15): German decisive victory by 27."""
    result = score(start)
    german, allied = result.of("German"), result.of("Allied")
    # Thirty German divisions set up; the three in the Netherlands north of the Lek are not west of the Rhine.
    on_map = [u for u in side_units(game, "German") if game.grid.is_label(start.location.get(u, ""))]
    assert len(on_map) == 30
    assert sorted(set(on_map) - set(german.divisions)) == ["de-inf-22", "de-inf-23", "de-inf-24"]
    assert (german.division_points, german.out_of_supply, german.bonus_points, german.total) == (27, (), 15, 42)
    # The Allies hold Normandy only; the German divisions leave a path to the Cotentin's west coast.
    assert (allied.division_points, allied.out_of_supply, allied.bonus_points, allied.total) == (0, (), 15, 15)
    assert german.gap is not None and is_gap_path(game, start, "German", german.gap.path, wide=True)
    assert allied.gap is not None and is_gap_path(game, start, "Allied", allied.gap.path, wide=True)
    assert allied.gap.path[-1] == "0323"
    assert (result.winner, result.level, result.difference) == ("German", "decisive", 27)
    assert result.lines()[-1] == "German decisive victory by 27 point(s), 42 to 15 (13.3)"


def test_describe_is_json(start: OnslaughtState) -> None:
    """The score as JSON data, with the same content as the lines."""
    result: Score = score(start)
    data = json.loads(json.dumps(result.describe()))
    assert data["winner"] == "German" and data["level"] == "decisive" and data["difference"] == 27
    assert data["sides"]["German"]["total"] == 42 and data["sides"]["Allied"]["gap"]["wide"] is True
    assert data["sides"]["Allied"]["gap"]["path"][-1] == "0323"
    assert data["lines"] == result.lines() and len(data["lines"]) == 3


def test_no_import_of_the_system() -> None:
    """victory.py asks the rule areas it rests on (supply, zones of control), never system.py, which imports it
    (tests/test_architecture.py checks the whole tree for cycles)."""
    tree = ast.parse(Path(victory.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert "adjudicator.systems.onslaught.system" not in imported
    assert "adjudicator.systems.onslaught.supply" in imported


def test_gap_path_helper_needs_an_open_start() -> None:
    """13.3: the search never starts in a closed hex, and stops at the first end it reaches."""
    a, b, c = Hex(0, 0), Hex(1, 0), Hex(2, 0)
    links = {a: (b,), b: (a, c), c: (b,)}
    assert victory.gap_path(links, [a], frozenset({c}), set()) == (a, b, c)
    assert victory.gap_path(links, [a], frozenset({c}), {a}) is None
    assert victory.gap_path(links, [a], frozenset({c}), {b}) is None


def test_the_score_decides_at_the_end_of_the_last_turn(start: OnslaughtState) -> None:
    """13.3: when the log ends after turn 20's Reinforcement Step with no automatic victory, the
    verdict carries the score; before the last turn it does not; the final state always shows it."""
    arrived = {row.unit: "out_of_play" for _, row in start.game.reinforcements}
    last = when(start, turn=20, step="reinforcement", location={**start.location, **arrived})
    notes = [f for f in ONSLAUGHT.finish(last) if f.rule == "13.3"]
    assert [f.message for f in notes] == score(last).lines()
    assert not [f for f in ONSLAUGHT.finish(when(last, turn=19)) if f.rule == "13.3"]
    assert ONSLAUGHT.describe(last)["victory_points"]["sides"]["German"]["total"] == score(last).of(
        "German").total
