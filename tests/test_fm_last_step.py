"""Fire & Movement, the lead's consistency ruling: a loss written `deplete` for a unit on its last step (reduced, or
a one-step unit) is its elimination, with a note, not an error (8.3; Omaha 12.0 and 11.2.3 the same).

Played from fm_log's OPEN position, results claimed without dice (as in test_fm_cascades.py).
"""

from __future__ import annotations

import pytest

from fm_log import COMBAT, END, OPEN, SETUP, landed, seen
from fm_log import attack_on_2117 as attack
from fm_log import run_open as run
from wargame.bundled import data_root
from wargame.game import Game, load_game


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def test_a_deplete_of_a_reduced_defender_is_its_elimination(game: Game) -> None:
    """8.2.4 Ex, 8.3: the reduced defender written `deplete` is eliminated: a note, the result carried out."""
    played = run(game, COMBAT + attack("Ex") + "German> deplete 914/352\nAllied: deplete 18/1\n" + END,
                 depleted=("914/352",))
    assert seen(played) == [("note", "8.3", "German> deplete 914/352")]
    assert any(f.severity == "note" and "read as its elimination" in f.message for f in played.findings)
    assert played.state.location["914/352"] == "eliminated_german" and "914/352" not in played.state.depleted


def test_a_deplete_of_a_one_step_unit_is_its_elimination(game: Game) -> None:
    """8.2.4 Ex: the one-step 1Flak written `deplete` is eliminated, with a note."""
    placed = {"1Flak": "2117", "16/1": "2217", "18/1": "2216"}
    played = run(game, COMBAT + attack("Ex") + "German> deplete 1Flak\nAllied: deplete 18/1\n" + END, placed)
    assert seen(played) == [("note", "8.3", "German> deplete 1Flak")]
    assert played.state.location["1Flak"] == "eliminated_german"


def test_a_deplete_of_a_last_step_carries_out_an_elimination_result(game: Game) -> None:
    """8.2.4 De and Ae, (A): a reduced unit's `deplete` is the elimination the result owes (nothing left owed); a
    full unit's two depletes are its two steps; one deplete of a full unit still leaves the De owed."""
    assert seen(run(game, COMBAT + attack("De") + "German> deplete 914/352\n" + END, depleted=("914/352",))) == \
        [("note", "8.3", "German> deplete 914/352")]
    twice = run(game, COMBAT + attack("De") + "German> deplete 914/352\nGerman> deplete 914/352\n" + END)
    assert seen(twice) == [("note", "8.3", "German> deplete 914/352")] and twice.findings[-1].line == 9
    assert twice.state.location["914/352"] == "eliminated_german"
    assert seen(run(game, COMBAT + attack("De") + "German> deplete 914/352\n" + END)) == \
        [("error", "8.2.4", "Phase mobile_movement")]
    ae = run(game, COMBAT + attack("Ae") + "Allied: deplete 16/1\nAllied: eliminate 18/1\n" + END, depleted=("16/1",))
    assert seen(ae) == [("note", "8.3", "Allied: deplete 16/1")]
    assert seen(run(game, COMBAT + attack("(A)") + "Allied: deplete 16/1\n" + END, depleted=("16/1",))) == \
        [("note", "8.3", "Allied: deplete 16/1")]


def test_a_deplete_of_a_last_step_after_a_short_retreat(game: Game) -> None:
    """8.3: a reduced unit that could retreat only one hex of a D2 is eliminated in the last hex; `deplete` says so."""
    boxed = {**OPEN, "26/1": "1915", "115/29": "1918"}
    short = COMBAT + attack("D2") + "German> retreat 914/352 2117-2016\n"
    played = run(game, short + "German> deplete 914/352\n" + END, boxed, ("914/352",))
    assert seen(played) == [("note", "8.3", "German> deplete 914/352")]
    assert played.state.location["914/352"] == "eliminated_german"


def test_a_deplete_of_a_last_step_no_result_calls_for_cites_the_result(game: Game) -> None:
    """8.2.4: a reduced unit's `deplete` that no result calls for is the result's error, not 8.3's; after stiff
    resistance (which reduced the unit) a further loss is 8.4's; a unit already eliminated has nothing to lose."""
    assert seen(run(game, COMBAT + attack("-") + "German> deplete 914/352\n" + END, depleted=("914/352",))) == \
        [("error", "8.2.4", "German> deplete 914/352")]
    assert seen(run(game, COMBAT + attack("D2") + "German> stand 914/352\nGerman> deplete 914/352\n" + END)) == \
        [("error", "8.4", "German> deplete 914/352")]
    assert seen(run(game, COMBAT + attack("De") + "German> eliminate 914/352\nGerman> deplete 914/352\n" + END)) == \
        [("error", "8.2.4", "German> deplete 914/352")]


def test_a_supply_loss_written_deplete_for_a_reduced_unit(game: Game) -> None:
    """Omaha 12.0: a reduced unit out of supply as the Allied player turn ends is eliminated; `deplete` says so,
    with a note; 12.0's loss is then taken (nothing owed at the next phase)."""
    ring = dict(zip(["914/352", "915/352", "916/352", "352/352", "1Flak", "Sch/30"],
                    (game.grid.label_of(n) for n in game.grid.neighbours_on_map(game.grid.hex_of("1510")))))
    text = COMBAT + "Phase mobile_movement\nPhase mobile_combat\nAllied: deplete 16/1\nPhase movement\n"
    played = run(game, text, {"16/1": "1510", **ring}, ("16/1",), finish=False)
    assert seen(played) == [("note", "12.0", "Allied: deplete 16/1")]
    assert played.state.location["16/1"] == "eliminated_allied"


def test_the_elimination_counts_as_one(game: Game) -> None:
    """11.2.3, 11.2.5: what an `eliminate` does, a last step's `deplete` does: a beach assault's only unit lost
    that way takes the beachhead marker for good, and the unit is not on the map to be rebuilt."""
    for loss in ("Allied: eliminate 175/29\n", "Allied: deplete 175/29\nAllied: deplete 175/29\n"):
        text = landed(SETUP).replace("Allied: attack 2120 with 175/29\n",
                                     f"Allied: attack 2120 with 175/29 result Ae\n{loss}") + "Turn 1\n"
        played = run(game, text, {}, finish=False)
        assert played.state.wiped_out == frozenset({"2120"}) and "2120" not in played.state.beachheads
    rebuilt = run(game, COMBAT + attack("(A)") + "Allied: deplete 16/1\n" + END + "Phase mobile_combat\n"
                  "Phase movement\nPhase bombardment\nPhase combat\nPhase mobile_movement\nPhase mobile_combat\n"
                  "Phase game_turn_end\nTurn 2\nPhase support_fire_marker\nAllied: replace 16/1 full\n",
                  depleted=("16/1",), finish=False)
    assert [(s, r) for s, r, _ in seen(rebuilt)] == [("note", "8.3"), ("error", "11.2.5")]


def test_the_rangers_loss_at_pointe_du_hoc(game: Game) -> None:
    """11.2.3: a die of 1 eliminates the Rangers: a first `deplete` is the error, a second (their last step) is the
    elimination, a note; a die of 2 reduces them once: a second `deplete` eliminates them, an error."""
    def pdh(die: int, losses: str) -> list[tuple[str, str, str]]:
        assaults = landed(SETUP).removeprefix(SETUP).split("German: lose de_sf_6\n")[1]
        return seen(run(game, f"{SETUP}Roll Allied {die}\n{losses}{assaults}Turn 1\n", {}, finish=False))
    twice = "Allied: deplete 2Rgr\nAllied: deplete 2Rgr\n"
    assert pdh(1, twice) == [("error", "11.2.3", "Allied: deplete 2Rgr"), ("note", "11.2.3", "Allied: deplete 2Rgr")]
    assert [f for f in pdh(2, twice) if f[0] == "error"] == [("error", "11.2.3", "Allied: deplete 2Rgr")]
