"""Onslaught's arrivals: paratroops (9.1-9.3), reinforcements (10.1-10.3), replacements (11.1-11.4),
the Reinforcement Step's order (4.0) and 6.3's removals.

Each test replays a few entries from a small position on a chosen turn; every division scheduled
before that turn is out of play, so only the turn's own reinforcements are owed.
"""

from __future__ import annotations

import pytest

from adjudicator.engine import advance
from adjudicator.findings import Finding
from adjudicator.notation.text import parse_text
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.arrivals import OUT_OF_PLAY, replacement_cost, replacement_points
from adjudicator.systems.onslaught.losses import apply_loss
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import play as replay
from play_support import position
from play_support import when

LANDINGS = {"us-inf-01": "0620", "us-inf-02": "0720", "br-inf-01": "0820"}
"""One Allied division on each landing hex: the Allies stay on the map (13.1) and hold their sources."""
GERMANS = {"de-inf-01": "2020"}
REINFORCEMENT_STEP = "Allied: pass\nGerman: pass\nStep german_reserve\nStep reinforcement\n"
MOVEMENT = "Allied: action movement\n"


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, turn: int, placed: dict[str, str], text: str,
         depleted: tuple[str, ...] = ()) -> tuple[list[tuple[str, str]], OnslaughtState, list[Finding]]:
    """Replay `Turn N / Step action` and `text` from the position `placed` (reinforcements of
    earlier turns out of play): (rule, entry) of each error, the final state, every finding."""
    earlier = {row.unit: OUT_OF_PLAY for _, row in game.reinforcements if row.turn < turn}
    state = position(ONSLAUGHT, game, placed={**earlier, **placed}, over_setup=False, depleted=frozenset(depleted),
                     turn=turn - 1, step="reinforcement", supply={"Allied": 20, "German": 20})
    played = replay(ONSLAUGHT, state, f'[Game "onslaught"]\nTurn {turn}\nStep action\n{text}')
    return played.errors(), played.state, played.findings


def turn_2_germans() -> str:
    """Turn 2's German reinforcements, legally placed: six from area A, two in Germany (10.2)."""
    return ("German: reinforce ss-pz-03 1530\nGerman: reinforce ss-pz-04 1530\nGerman: reinforce de-inf-25 1530\n"
            "German: reinforce de-inf-26 1630\nGerman: reinforce de-inf-27 1630\nGerman: reinforce de-inf-28 1630\n"
            "German: reinforce ss-pz-05 4510\nGerman: reinforce ss-pz-06 4510\n")


TURN_2_ALLIES = ("us-inf-09", "us-inf-10", "us-arm-02", "br-arm-02", "br-inf-05", "br-inf-06", "br-inf-07",
                 "br-inf-08", "br-arm-03")
"""Turn 2's Allied reinforcements (10.3)."""


def turn_2_allies(delay: str = "") -> str:
    """Turn 2's Allied reinforcements: two on each landing hex, the rest delayed (10.3)."""
    placed = ("Allied: reinforce us-inf-09 0620\nAllied: reinforce us-inf-10 0620\nAllied: reinforce us-arm-02 0720\n"
              "Allied: reinforce br-arm-02 0720\nAllied: reinforce br-inf-05 0820\nAllied: reinforce br-inf-06 0820\n")
    return placed + "".join(f"Allied: delay {u}\n" for u in ("br-inf-07", "br-inf-08", "br-arm-03") if u != delay)


END = "German: income 8\nAllied: income 12\nTurn 3\n"


# -- 10.1-10.3 reinforcements ------------------------------------------------------------------
def test_a_whole_reinforcement_step_is_legal(game: Game) -> None:
    """10.1-10.3: the turn's divisions placed where they may be, the excess delayed."""
    shown, state, _ = play(game, 2, {**LANDINGS, **GERMANS}, REINFORCEMENT_STEP + turn_2_germans() + turn_2_allies()
                           + END)
    assert shown == []
    assert state.location["br-arm-03"] == "delayed_allied" and state.location["ss-pz-03"] == "1530"


def test_every_reinforcement_of_the_turn_is_owed(game: Game) -> None:
    """10.2, 10.3: a division of the turn's schedule neither placed nor delayed is an error as the turn ends."""
    shown, _, _ = play(game, 2, {**LANDINGS, **GERMANS}, REINFORCEMENT_STEP + turn_2_germans()
                       + turn_2_allies(delay="br-arm-03") + END)
    assert shown == [("10.3", "Turn 3")]
    shown, _, findings = play(game, 2, {**LANDINGS, **GERMANS}, REINFORCEMENT_STEP)
    assert shown == [] and sum(f.rule in ("10.2", "10.3") and f.severity == "note" for f in findings) == 17


def test_when_and_which(game: Game) -> None:
    """10.1: only in the Reinforcement Step, only scheduled divisions, not before their turn, not twice."""
    placed = {**LANDINGS, **GERMANS}
    assert play(game, 2, placed, "German: reinforce ss-pz-05 4510\n")[0] == [("10.1", "German: reinforce ss-pz-05 4510")]
    step = REINFORCEMENT_STEP
    assert play(game, 2, placed, step + "German: reinforce de-inf-01 4510\n")[0] == \
        [("10.2", "German: reinforce de-inf-01 4510")]
    assert play(game, 2, placed, step + "German: reinforce de-pz-06 4510\n")[0] == \
        [("10.2", "German: reinforce de-pz-06 4510")]
    assert play(game, 2, placed, step + "Allied: reinforce ss-pz-05 4510\n")[0] == \
        [("10.2", "Allied: reinforce ss-pz-05 4510")]


def test_where_german_reinforcements_go(game: Game) -> None:
    """10.1, 10.2: in Germany, or their entry area; a line to the east edge; no overstacking."""
    placed = {**LANDINGS, **GERMANS}
    step = REINFORCEMENT_STEP
    assert play(game, 2, placed, step + "German: reinforce ss-pz-05 2525\n")[0] == \
        [("10.2", "German: reinforce ss-pz-05 2525")]
    assert play(game, 2, placed, step + "German: reinforce ss-pz-03 4510\n")[0] == \
        [("10.2", "German: reinforce ss-pz-03 4510")]
    full = {**placed, "de-inf-02": "4510", "de-inf-03": "4510", "de-inf-04": "4510"}
    assert play(game, 2, full, step + "German: reinforce ss-pz-05 4510\n")[0] == \
        [("10.1", "German: reinforce ss-pz-05 4510")]  # issue 26: 10.1's "cannot be overstacked anywhere"
    # A Germany hex surrounded by Allied divisions has no line to the east edge.
    ring = {u: label for u, label in zip(("us-inf-03", "us-inf-04", "us-inf-05", "us-inf-06", "us-inf-07",
                                          "us-inf-08"), neighbours(game, "4510"))}
    assert play(game, 2, {**placed, **ring}, step + "German: reinforce ss-pz-05 4510\n")[0] == \
        [("10.2", "German: reinforce ss-pz-05 4510")]


def neighbours(game: Game, label: str) -> list[str]:
    """The labels of a hex's neighbours on the map."""
    return [game.grid.label_of(n) for n in game.grid.neighbours_on_map(game.grid.hex_of(label))]


def test_german_reinforcements_without_supply_are_eliminated(game: Game) -> None:
    """10.2: eliminated for good only when no entry hex can trace a line to the east edge."""
    placed = {**LANDINGS, **GERMANS}
    step = REINFORCEMENT_STEP
    assert play(game, 2, placed, step + "German: eliminate ss-pz-03\n")[0] == [("10.2", "German: eliminate ss-pz-03")]
    edge = game.areas_by_id["east_edge"].hexes
    allies = [u.id for u in game.units_by_id.values() if u.side == "Allied" and u.id not in LANDINGS]
    cut = dict(zip(allies, edge))
    assert len(cut) == len(edge)
    shown, state, _ = play(game, 2, {**placed, **cut}, step + "German: eliminate ss-pz-03\n")
    assert shown == [] and state.location["ss-pz-03"] == OUT_OF_PLAY


def test_the_free_move_of_area_a_and_b(game: Game) -> None:
    """10.2: a German division placed in area A or B moves once, free; no other division moves."""
    placed = {**LANDINGS, **GERMANS}
    step = REINFORCEMENT_STEP + "German: reinforce ss-pz-03 1530\nGerman: reinforce ss-pz-05 4510\n"
    assert play(game, 2, placed, step + "ss-pz-03 1530-1529-1528\n")[0] == []
    assert play(game, 2, placed, step + "ss-pz-05 4510-4509\n")[0] == [("10.2", "ss-pz-05 4510-4509")]
    assert play(game, 2, placed, step + "ss-pz-03 1530-1529\nss-pz-03 1529-1528\n")[0] == \
        [("10.2", "ss-pz-03 1529-1528")]
    assert play(game, 2, placed, step + "de-inf-01 2020-2021\n")[0] == [("10.2", "de-inf-01 2020-2021")]


def test_where_allied_reinforcements_go(game: Game) -> None:
    """10.1, 10.3: at an Allied supply source, area B for its own; delayed only when stacking forbids."""
    placed = {**LANDINGS, **GERMANS}
    step = REINFORCEMENT_STEP
    assert play(game, 2, placed, step + "Allied: reinforce us-inf-09 0520\n")[0] == \
        [("10.3", "Allied: reinforce us-inf-09 0520")]
    # Ruling 10.3: a delay is needless only for room no other reinforcement due this step may still take.
    alone = {**placed, **{u: OUT_OF_PLAY for u in TURN_2_ALLIES if u != "us-inf-09"}}
    assert play(game, 2, alone, step + "Allied: delay us-inf-09\n")[0] == [("10.3", "Allied: delay us-inf-09")]
    assert play(game, 2, placed, step + "Allied: delay us-inf-09\n")[0] == []
    assert play(game, 2, placed, step + "Allied: reinforce us-inf-09 delayed_allied\n")[0] == \
        [("10.3", "Allied: reinforce us-inf-09 delayed_allied")]
    # Cherbourg held by the Allies is a source (8.1, 8.4).
    held = {**placed, "us-inf-03": game.areas_by_id["port_cherbourg"].hexes[0]}
    cherbourg = game.areas_by_id["port_cherbourg"].hexes[0]
    assert play(game, 2, held, step + f"Allied: reinforce us-inf-09 {cherbourg}\n")[0] == []


def test_delayed_reinforcements_come_later(game: Game) -> None:
    """10.3: from the Delayed Reinforcements box on any later turn, under the same restrictions."""
    placed = {**LANDINGS, **GERMANS, "us-inf-05": "delayed_allied"}
    shown, state, _ = play(game, 2, placed, REINFORCEMENT_STEP + "Allied: reinforce us-inf-05 0620\n")
    assert shown == [] and state.location["us-inf-05"] == "0620"


def test_area_b_reinforcements(game: Game) -> None:
    """10.3: a division keyed to area B enters any hex of area B, supplied off the southern edge."""
    rows = [row for _, row in game.reinforcements if row.entry == "entry_b" and
            game.units_by_id[row.unit].side == "Allied"]
    row = rows[0]
    b_hex = game.areas_by_id["entry_b"].hexes[0]
    earlier = {r.unit: OUT_OF_PLAY for _, r in game.reinforcements if r.turn == row.turn and r.unit != row.unit}
    step = REINFORCEMENT_STEP
    shown = play(game, row.turn, {**LANDINGS, **earlier}, step + f"Allied: reinforce {row.unit} {b_hex}\n")[0]
    assert shown == []
    assert play(game, row.turn, {**LANDINGS, **earlier}, step + f"Allied: reinforce {row.unit} 0620\n")[0] == \
        [("10.3", f"Allied: reinforce {row.unit} 0620")]


# -- 9.1-9.3 paratroops -------------------------------------------------------------------
def test_paratroop_reinforcements_go_to_the_box(game: Game) -> None:
    """9.1: a paratroop reinforcement goes to the Paratroop box, not the map."""
    row = next(r for _, r in game.reinforcements if r.entry == "paratroop")
    earlier = {r.unit: OUT_OF_PLAY for _, r in game.reinforcements if r.turn == row.turn and r.unit != row.unit}
    placed = {**LANDINGS, **earlier}
    shown, state, _ = play(game, row.turn, placed, REINFORCEMENT_STEP + f"Allied: reinforce {row.unit}\n")
    assert shown == [] and state.location[row.unit] == "paratroop"
    assert play(game, row.turn, placed, REINFORCEMENT_STEP + f"Allied: reinforce {row.unit} 0620\n")[0] == \
        [("9.1", f"Allied: reinforce {row.unit} 0620")]


def test_picking_up_paratroops(game: Game) -> None:
    """9.1: activated in an Allied Movement action, full strength, not in German ZOC; back in the
    Paratroop box three turns later, by itself."""
    placed = {**LANDINGS, "us-para-01": "1020", **GERMANS}
    pick = MOVEMENT + "Allied: activate 1020\nAllied: pickup us-para-01\n"
    shown, state, _ = play(game, 5, placed, pick)
    assert shown == [] and state.location["us-para-01"] == "turn@8"
    assert play(game, 5, placed, MOVEMENT + "Allied: pickup us-para-01\n")[0] == [("9.1", "Allied: pickup us-para-01")]
    assert play(game, 5, placed, pick, depleted=("us-para-01",))[0] == [("9.1", "Allied: pickup us-para-01")]
    near = {**placed, "de-inf-01": "1021"}
    assert play(game, 5, near, pick)[0] == [("9.1", "Allied: pickup us-para-01")]
    assert play(game, 5, placed, "Allied: action combat\nAllied: activate 1020\nAllied: pickup us-para-01\n")[0] == \
        [("9.1", "Allied: pickup us-para-01")]
    assert play(game, 5, {**placed, "us-inf-09": "1020"}, "Allied: action movement\nAllied: activate 1020\n"
                "Allied: pickup us-inf-09\n")[0] == [("9.1", "Allied: pickup us-inf-09")]
    waiting = when(state, step="reinforcement", turn=7)
    back = advance(ONSLAUGHT, waiting, parse_text('[Game "onslaught"]\nTurn 8\n')[-1])
    assert back.location["us-para-01"] == "paratroop"


def test_paradrops(game: Game) -> None:
    """9.2: from the box, in an Allied Movement action, one supply point each, any hex no German
    holds, and no further move in that action."""
    placed = {**LANDINGS, "us-para-01": "paratroop", **GERMANS}
    shown, state, _ = play(game, 5, placed, "Allied: action movement supply 1\nAllied: paradrop us-para-01 2022 "
                                            "supply 1\nRoll Allied 1 German 1\n")
    assert shown == [] and state.location["us-para-01"] == "2022" and state.supply["Allied"] == 19
    assert play(game, 5, placed, MOVEMENT + "Allied: paradrop us-para-01 2020\n")[0] == \
        [("9.2", "Allied: paradrop us-para-01 2020")]
    assert play(game, 5, placed, MOVEMENT + "Allied: paradrop us-para-01 2022 supply 2\n")[0] == \
        [("9.2", "Allied: paradrop us-para-01 2022 supply 2")]
    assert play(game, 5, placed, "Allied: action combat\nAllied: paradrop us-para-01 2022\n")[0] == \
        [("9.2", "Allied: paradrop us-para-01 2022")]
    assert play(game, 5, {**placed, "us-para-01": "1020"}, MOVEMENT + "Allied: paradrop us-para-01 2022\n")[0] == \
        [("9.2", "Allied: paradrop us-para-01 2022")]
    assert play(game, 5, placed, MOVEMENT + "Allied: paradrop us-para-01 2022\nus-para-01 2022-2023\n")[0] == \
        [("9.2", "us-para-01 2022-2023")]
    assert play(game, 5, placed, MOVEMENT.replace("movement", "movement supply 0")
                + "Allied: paradrop us-para-01 2022\nRoll Allied 1 German 1\n")[0] == \
        [("5.2", "Allied: action movement supply 0")]


def test_eliminated_paratroops_leave_play(game: Game) -> None:
    """9.3: never rebuilt once eliminated; a depleted one is rebuilt for two points."""
    assert replacement_cost(game, "paratroop", "depleted", "full", False) == 2
    placed = {**LANDINGS, **GERMANS, "us-para-01": "eliminated_allied"}
    assert play(game, 5, placed, REINFORCEMENT_STEP + "Allied: replace us-para-01 full 0620\n")[0] == \
        [("9.3", "Allied: replace us-para-01 full 0620")]
    placed = {**LANDINGS, **GERMANS, "us-para-01": "0720"}
    shown, state, _ = play(game, 5, placed, REINFORCEMENT_STEP + "Allied: replace us-para-01 full points 2\n",
                           depleted=("us-para-01",))
    assert shown == [] and "us-para-01" not in state.depleted
    assert apply_loss(state, "us-para-01", "eliminate").location["us-para-01"] == OUT_OF_PLAY


# -- 11.1-11.4 replacements ---------------------------------------------------------------
def test_replacement_points(game: Game) -> None:
    """11.1: two German, four Allied, plus one per three divisions in the Eliminated Units box."""
    base = ONSLAUGHT.initial_state(game, [])
    lost = {f"de-inf-{n:02d}": "eliminated_german" for n in range(1, 8)}
    state = when(base, turn=5, location={**base.location, **lost})
    assert replacement_points(state, "German") == 2 + 2 and replacement_points(state, "Allied") == 4
    placed = {**LANDINGS, **GERMANS, **lost}
    text = REINFORCEMENT_STEP + "German: replace de-inf-02 full 4510 points 2\nGerman: replace de-inf-03 full 4510\n"
    assert play(game, 5, placed, text)[0] == []
    over = text + "German: replace de-inf-04 reduced 4510\n"
    assert play(game, 5, placed, over)[0] == [("11.1", "German: replace de-inf-04 reduced 4510")]
    wrong = REINFORCEMENT_STEP + "German: replace de-inf-02 full 4510 points 1\n"
    assert play(game, 5, placed, wrong)[0] == [("11.1", "German: replace de-inf-02 full 4510 points 1")]


def test_the_replacement_table(game: Game) -> None:
    """11.1: the costs by type, start and end; volksgrenadiers rebuilt cheaply in Germany only."""
    cost = replacement_cost
    assert [cost(game, "infantry", "eliminated", "depleted", False), cost(game, "infantry", "depleted", "full", False),
            cost(game, "infantry", "eliminated", "full", False), cost(game, "armor", "eliminated", "depleted", False),
            cost(game, "armor", "depleted", "full", False), cost(game, "armor", "eliminated", "full", False)] == \
        [1, 1, 2, 2, 2, 4]
    assert cost(game, "volksgrenadier", "eliminated", "full", True) == 1
    assert cost(game, "volksgrenadier", "eliminated", "full", False) == 2
    assert cost(game, "paratroop", "eliminated", "full", False) is None


def test_eligibility(game: Game) -> None:
    """11.2: eliminated divisions, and depleted ones on the map in supply; nothing else."""
    placed = {**LANDINGS, **GERMANS}
    step = REINFORCEMENT_STEP
    assert play(game, 5, placed, step + "German: replace de-inf-01 full\n")[0] == \
        [("11.2", "German: replace de-inf-01 full")]
    assert play(game, 5, placed, step + "German: replace de-inf-01 full\n", depleted=("de-inf-01",))[0] == []
    assert play(game, 5, placed, step + "German: replace de-inf-01 reduced\n", depleted=("de-inf-01",))[0] == \
        [("11.2", "German: replace de-inf-01 reduced")]
    ring = dict(zip(("us-inf-03", "us-inf-04", "us-inf-05", "us-inf-06", "us-inf-07", "us-inf-08"),
                    neighbours(game, "2020")))
    assert play(game, 5, {**placed, **ring}, step + "German: replace de-inf-01 full\n", depleted=("de-inf-01",))[0] \
        == [("11.2", "German: replace de-inf-01 full")]


def test_allied_replacements(game: Game) -> None:
    """11.3: placed like reinforcements, never in area B; delayed only when stacking forbids."""
    placed = {**LANDINGS, **GERMANS, "us-inf-05": "eliminated_allied"}
    step = REINFORCEMENT_STEP
    assert play(game, 9, placed, step + "Allied: replace us-inf-05 full 0620 points 2\n")[0] == []
    b_hex = game.areas_by_id["entry_b"].hexes[0]
    shown, _, findings = play(game, 9, placed, step + f"Allied: replace us-inf-05 full {b_hex}\n")
    assert shown == [("11.3", f"Allied: replace us-inf-05 full {b_hex}")]
    # 11.3's own words, not "not an Allied supply source" (area B is one, for reinforcements keyed to it).
    assert "where Allied replacements are never placed" in next(f.message for f in findings if f.rule == "11.3")
    assert play(game, 9, placed, step + "Allied: replace us-inf-05 full delayed_allied\n")[0] == \
        [("11.3", "Allied: replace us-inf-05 full delayed_allied")]


def test_german_replacements(game: Game) -> None:
    """11.4: anywhere three movement points from Allied divisions and sources, with such a line."""
    placed = {**LANDINGS, **GERMANS, "de-inf-05": "eliminated_german", "vg-01": "eliminated_german"}
    step = REINFORCEMENT_STEP
    assert play(game, 5, placed, step + "German: replace de-inf-05 full 3015\n")[0] == []
    near = {**placed, "us-inf-03": "3017"}
    shown, _, findings = play(game, 5, near, step + "German: replace de-inf-05 full 3015\n")
    assert shown == [("11.4", "German: replace de-inf-05 full 3015")]
    assert "two movement points or less from an Allied division (three or more needed)" in \
        next(f.message for f in findings if f.rule == "11.4")
    assert play(game, 5, placed, step + "German: replace de-inf-05 full 0622\n")[0] == \
        [("11.4", "German: replace de-inf-05 full 0622")]
    assert play(game, 5, placed, step + "German: replace vg-01 full 4510 points 1\n")[0] == []
    assert play(game, 5, placed, step + "German: replace vg-01 full 3015 points 1\n")[0] == \
        [("11.1", "German: replace vg-01 full 3015 points 1")]


def test_german_replacement_line_keeps_away_from_allies(game: Game) -> None:
    """11.4: the line itself may not pass within three movement points of an Allied division,
    even where no Allied ZOC would block an ordinary line (8.3)."""
    placed = {**LANDINGS, **GERMANS, "de-inf-05": "eliminated_german"}
    # An Allied wall down column 38 with a gap of three hexes: the middle one is clear of Allied
    # ZOC, so an ordinary line passes it, but it is two movement points from the wall. Allied
    # divisions also hold the fortified ports, the German sources west of the wall (8.4).
    allies = [u.id for u in game.units_by_id.values() if u.side == "Allied" and u.id not in LANDINGS]
    column = [label for label in game.grid.labels if label.startswith("38") and label not in ("3814", "3815", "3816")]
    column += sorted(game.grid.label_of(h) for h in game.area_hexes("fortified_ports"))
    wall = dict(zip(allies, column))
    assert len(wall) == len(column)
    shown, state, _ = play(game, 5, {**placed, **wall}, REINFORCEMENT_STEP + "German: replace de-inf-05 full 3215\n")
    assert shown == [("11.4", "German: replace de-inf-05 full 3215")]
    assert game.grid.hex_of("3215") in ONSLAUGHT.supplied(state, "German")  # an ordinary line exists


# -- 4.0 the step's order, 6.3 removals -----------------------------------------------------------
def test_one_breach_of_the_steps_order_is_one_error(game: Game) -> None:
    """4.0, one breach one error (audit 18, rf-06): the German reinforcements placed after an Allied entry are one
    error, on the first; the others are notes."""
    placed = {**LANDINGS, **GERMANS}
    shown, _, findings = play(game, 2, placed, REINFORCEMENT_STEP + "Allied: delay br-arm-03\n" + turn_2_germans())
    # (The delay is not judged needless yet: the turn's other Allied reinforcements may still take the room, 10.3.)
    assert [e for e in shown if e[0] == "4.0"] == [("4.0", "German: reinforce ss-pz-03 1530")]
    assert sum(f.rule == "4.0" and f.severity == "note" for f in findings) == 7


def test_needless_delays_are_one_error_a_room(game: Game) -> None:
    """10.3 (audit 18, rf-01): a delay is needless while a hex the division may enter has room, but each room left
    unused is one breach, not one for every delay after it; a hex enemy divisions hold is never open (10.1)."""
    placed = {**LANDINGS, **GERMANS, "us-inf-03": "0620", "us-inf-04": "0620", "br-inf-02": "0820",
              "br-inf-03": "0820", "us-inf-05": "0720"}
    delays = "".join(f"Allied: delay {u}\n" for u in TURN_2_ALLIES)
    shown, _, _ = play(game, 2, placed, REINFORCEMENT_STEP + turn_2_germans() + delays)
    # 0720 has one room: the delay that leaves it unused is the last (ruling 10.3: till then one still due may take it).
    assert shown == [("10.3", "Allied: delay br-arm-03")]
    # A German division in 0720 (the Allies' control of it aside): no room anywhere, no delay refused.
    held = {**placed, "de-inf-02": "0720"}
    assert play(game, 2, held, REINFORCEMENT_STEP + turn_2_germans() + delays)[0] == []
def test_the_reinforcement_steps_order(game: Game) -> None:
    """4.0: German reinforcements, Allied reinforcements, German, then Allied replacements, income."""
    placed = {**LANDINGS, **GERMANS}
    late = REINFORCEMENT_STEP + "Allied: reinforce us-inf-09 0620\nGerman: reinforce ss-pz-05 4510\n"
    assert play(game, 2, placed, late)[0] == [("4.0", "German: reinforce ss-pz-05 4510")]
    income = REINFORCEMENT_STEP + "German: income 8\nGerman: reinforce ss-pz-05 4510\n"
    assert play(game, 2, placed, income)[0] == [("4.0", "German: reinforce ss-pz-05 4510")]
    # 10.2's free move is in the German part of the step, however the move is written: the short form's side is its
    # unit's, as the long form's is.
    free = REINFORCEMENT_STEP + "German: reinforce ss-pz-03 1530\nAllied: reinforce us-inf-09 0620\n"
    for move in ("ss-pz-03 1530-1529-1528", "German: move ss-pz-03 1530-1529-1528"):
        assert play(game, 2, placed, free + move + "\n")[0] == [("4.0", move)]
        assert play(game, 2, placed, free.replace("Allied: reinforce us-inf-09 0620\n", "") + move + "\n")[0] == []


def test_removals_only_from_overstacked_hexes(game: Game) -> None:
    """6.3: the owner removes divisions only from a hex over the limit."""
    placed = {**LANDINGS, **GERMANS}
    assert play(game, 5, placed, "Allied: remove us-inf-01\n")[0] == [("6.3", "Allied: remove us-inf-01")]
    crowded = {**placed, "us-inf-03": "0620", "us-inf-04": "0620", "us-inf-05": "0620"}
    assert play(game, 5, crowded, "Allied: remove us-inf-01\n")[0] == []
    assert play(game, 5, crowded, "German: remove us-inf-01\n")[0] == [("6.3", "German: remove us-inf-01")]


def test_every_arrival_is_held_to_stacking_once(game: Game) -> None:
    """6.3 with 9.2, 10.1, 11.3, 11.4: a division arriving where its side already has a full stack is one error,
    whatever brings it: 10.1 as a reinforcement (from the Delayed Reinforcements box too) or an Allied replacement is
    placed; 6.3 as the action or step ends for a paradrop (9.2 lets it land in any hex without Germans) and a German
    replacement (11.4 says nothing of stacking); never again while the overstack lasts."""
    full = {**LANDINGS, **GERMANS, "us-inf-03": "0620", "us-inf-04": "0620"}
    rest = "Allied: reinforce us-arm-06 0720\nGerman: income 8\nAllied: income 12\nTurn 6\n"
    drop = "Allied: action movement supply 1\nAllied: paradrop us-para-01 0620 supply 1\n"
    ends = "Roll Allied 1 German 1\nStep german_reserve\nStep reinforcement\n" + rest
    box = {**full, "us-para-01": "paratroop"}
    assert play(game, 5, box, drop + ends)[0] == [("6.3", "Roll Allied 1 German 1")]
    assert play(game, 5, box, drop + "Allied: remove us-inf-01\n" + ends)[0] == []
    delayed = {**full, "us-inf-05": "delayed_allied"}
    assert play(game, 5, delayed, REINFORCEMENT_STEP + "Allied: reinforce us-inf-05 0620\n" + rest)[0] == \
        [("10.1", "Allied: reinforce us-inf-05 0620")]
    lost = {**full, "us-inf-05": "eliminated_allied"}
    replaced = REINFORCEMENT_STEP + rest.replace("German:", "Allied: replace us-inf-05 full 0620\nGerman:", 1)
    assert play(game, 5, lost, replaced)[0] == [("10.1", "Allied: replace us-inf-05 full 0620")]
    german = {**full, "de-inf-02": "4510", "de-inf-03": "4510", "de-inf-04": "4510", "de-inf-05": "eliminated_german"}
    replaced = REINFORCEMENT_STEP + rest.replace("German:", "German: replace de-inf-05 full 4510\nGerman:", 1)
    assert play(game, 5, german, replaced)[0] == [("6.3", "Turn 6")]
    # A reinforcement placed before its turn into a full stack: one placement, one error, the overstack a note on it
    # (and not reported again as the step ends).
    early = {**full, "de-inf-02": "4510", "de-inf-03": "4510", "de-inf-04": "4510"}
    shown, _, findings = play(game, 5, early, REINFORCEMENT_STEP + "German: reinforce de-pz-06 4510\n" + rest)
    assert shown == [("10.2", "German: reinforce de-pz-06 4510")]
    assert [(f.severity, f.rule) for f in findings if f.rule in ("10.1", "6.3")] == [("note", "10.1")]


def test_stacking_of_a_log_ending_inside_an_action(game: Game) -> None:
    """6.3 (ruling): a log that ends before the action or step under way does never reaches the point where stacking
    is judged: an overstack is a note on the line of the entry that made it, never an error (the owner's removals
    may still follow); one removed says nothing."""
    full = {**LANDINGS, **GERMANS, "us-inf-03": "0620", "us-inf-04": "0620", "us-para-01": "paratroop"}
    drop = "Allied: action movement supply 1\nAllied: paradrop us-para-01 0620 supply 1\n"
    errors, _, findings = play(game, 5, full, drop)
    assert errors == []
    stacking = [f for f in findings if f.rule == "6.3"]
    assert [(f.severity, f.line) for f in stacking] == [("note", 5)]  # the paradrop's line
    assert "the log ends inside turn 5, Action Step" in stacking[0].message
    assert "Allied has 1 division(s) over the limit of 3 in hex 0620" in stacking[0].message
    assert [f for f in play(game, 5, full, drop + "Allied: remove us-inf-01\n")[2] if f.rule == "6.3"] == []


# -- 3.0 the landing-hex grouping ------------------------------------------------------------
def test_the_landing_hex_grouping(game: Game) -> None:
    """3.0: before turn 1 the Allied player regroups the six landing-hex divisions, two a hex."""
    def run(text: str) -> list[tuple[str, str]]:
        state = ONSLAUGHT.initial_state(game, [])
        source = f'[Game "onslaught"]\n{text}Turn 1\n'
        lines = source.splitlines()
        found = []
        for entry in parse_text(source):
            found += [(f.rule, lines[f.line - 1]) for f in ONSLAUGHT.check(state, entry) if f.severity == "error"]
            state = advance(ONSLAUGHT, state, entry)
        return found
    swap = "Allied: setup us-inf-01 0720\nAllied: setup br-inf-01 0620\n"
    assert run(swap) == []
    assert run("Allied: setup us-inf-01 0720\n") == [("3.0", "Turn 1")]  # one grouping, one breach
    assert run("Allied: setup us-inf-01 0721\n")[0] == ("3.0", "Allied: setup us-inf-01 0721")
    assert run("Allied: setup de-inf-01 0720\n")[0] == ("3.0", "Allied: setup de-inf-01 0720")
    late = advance(ONSLAUGHT, ONSLAUGHT.initial_state(game, []), parse_text('[Game "onslaught"]\nTurn 1\n')[-1])
    entry = parse_text('[Game "onslaught"]\nAllied: setup us-inf-01 0720\n')[-1]
    assert [f.rule for f in ONSLAUGHT.check(late, entry)] == ["3.0"]
