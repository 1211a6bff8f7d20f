"""Onslaught, session 21: a loss written `deplete` for a division already depleted is its elimination (ruling 7.2 in
the register): a note, not an error, and the position, the result owed, 9.3 and 11.2 as after an `eliminate`."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.contract import OUT_OF_PLAY
from adjudicator.notation.entries import Loss, Place
from adjudicator.notation.text import parse_line, write_entry
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.arrivals import check_replace
from adjudicator.vassal.load import translate_file
from play_support import Played, play as replay
from play_support import position, when
from test_vassal_reader import Session
from wargame.bundled import data_root
from wargame.game import Game, load_game

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\nAllied: action combat\n'
OPEN = {"us-inf-01": "2019", "us-inf-02": "2019", "de-inf-01": "2020"}
"""Two Allied infantry divisions north of a German one, on open ground."""
ARMOR = {"us-arm-01": "2019", "us-arm-02": "2019", "de-inf-01": "2020"}
"""Two Allied armor divisions north of a German one."""
DH = "Allied: activate 2019\nAllied: attack 2020 with us-inf-01 us-inf-02 result DH\n"
AH = "Allied: activate 2019\nAllied: attack 2020 with us-arm-01 us-arm-02 result AH\n"
END = "Roll Allied 2 German 5\n"


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, placed: dict[str, str], text: str, depleted: tuple[str, ...]) -> Played[OnslaughtState]:
    """Replay `text` after HEAD with only the divisions `placed` says on the map (`depleted` ones depleted)."""
    state = position(ONSLAUGHT, game, placed=placed, over_setup=False, depleted=frozenset(depleted))
    return replay(ONSLAUGHT, state, HEAD + text)


def notes(played: Played[OnslaughtState]) -> list[tuple[str, str]]:
    """(rule, entry text) of every note."""
    return [(rule, text) for severity, rule, text in played.shown(("note",)) if severity == "note"]


@pytest.mark.parametrize(("placed", "attack", "loss", "unit", "box"), [
    (OPEN, DH, "German> deplete de-inf-01\n", "de-inf-01", "eliminated_german"),  # DH: no retreat left to make
    (ARMOR, AH, "Allied: deplete us-arm-01\nAllied: deplete us-arm-02\n", "us-arm-01", "eliminated_allied"),
])
def test_a_deplete_of_a_depleted_division_is_its_elimination(game: Game, placed: dict[str, str], attack: str,
                                                             loss: str, unit: str, box: str) -> None:
    """Ruling 7.2: the division goes to its side's Eliminated Units box, the result counts as carried out (nothing
    owed when the action ends) and the entry has one note saying how it was read; the position is the one
    `eliminate` gives."""
    played = play(game, placed, attack + loss + END, (unit,))
    assert played.errors() == []
    assert notes(played) == [("7.2", loss.splitlines()[0])]
    assert played.state.location[unit] == box and unit not in played.state.depleted
    written = play(game, placed, attack + loss.replace(f"deplete {unit}", f"eliminate {unit}") + END, (unit,))
    assert written.errors() == [] and notes(written) == []
    assert played.state == written.state


def test_a_depleted_paratroop_division_depleted_again_leaves_play(game: Game) -> None:
    """9.3 after ruling 7.2: an eliminated paratroop division is removed from play, however the loss is written."""
    placed = {"us-para-01": "2019", "us-para-02": "2019", "de-inf-01": "2020"}
    played = play(game, placed, "Allied: activate 2019\nAllied: attack 2020 with us-para-01 us-para-02 result AH\n"
                                "Allied: deplete us-para-01\nAllied: deplete us-para-02\n" + END, ("us-para-01",))
    assert played.errors() == [] and played.state.location["us-para-01"] == OUT_OF_PLAY


def test_a_division_eliminated_so_is_rebuilt_from_the_box(game: Game) -> None:
    """11.2 after ruling 7.2: the division is an eliminated one, which may come back depleted (a depleted one on the
    map may only be rebuilt to full strength)."""
    played = play(game, OPEN, DH + "German> deplete de-inf-01\n" + END, ("de-inf-01",))
    state = when(played.state, turn=2, step="reinforcement", player_turn=None)
    entry = parse_line("German: replace de-inf-01 reduced 3010", 20)
    assert isinstance(entry, Place)
    assert [f.message for f in check_replace(state, entry) if f.rule == "11.2"] == []


def test_a_second_deplete_the_result_does_not_call_for_is_one_error(game: Game) -> None:
    """7.2, 7.3: a DH depletes a full-strength division once, and it can retreat; a second `deplete` is the same loss
    written twice: one error, on that entry (7.3's, the retreat open), no note beside it, and nothing changed, so the
    retreat after it is no second error ("not on the map")."""
    played = play(game, OPEN, DH + "German> deplete de-inf-01\nGerman> deplete de-inf-01\n"
                                   "German> retreat de-inf-01 2020-2021-2022\n" + END, ())
    assert played.errors() == [("7.3", "German> deplete de-inf-01")]
    assert notes(played) == [] and played.state.location["de-inf-01"] == "2022"
    assert played.state.depleted == {"de-inf-01"}


def test_a_deplete_after_standing_fast_is_one_error_and_changes_nothing(game: Game) -> None:
    """7.5: `stand` depletes the division (ruling 7.5); a `deplete` after it is that depletion written again."""
    placed = {"us-inf-01": "3810", "us-inf-02": "3810", "de-inf-01": "3910"}
    played = play(game, placed, "Allied: activate 3810\nAllied: attack 3910 with us-inf-01 us-inf-02 result DR\n"
                                "German> stand de-inf-01\nGerman> deplete de-inf-01\n" + END, ())
    assert played.errors() == [("7.5", "German> deplete de-inf-01")]
    assert played.state.location["de-inf-01"] == "3910" and played.state.depleted == {"de-inf-01"}


def test_a_deplete_of_a_depleted_division_no_result_calls_for_is_still_an_error(game: Game) -> None:
    """7.2: read as an elimination or not, a loss with no combat before it is refused."""
    played = play(game, OPEN, "German> deplete de-inf-01\n", ("de-inf-01",))
    assert [rule for rule, _ in played.errors()] == ["7.2"]


@pytest.mark.parametrize("typed_first", [True, False])
def test_the_vassal_reader_reads_the_typed_deplete_as_the_counters_elimination(tmp_path: Path,
                                                                               typed_first: bool) -> None:
    """Ruling 7.2 in the VASSAL reader: a depleted counter dragged to the Eliminated Units box carries out the
    `deplete` its owner typed for it, before or after the drag: one loss, not a `deplete` and an `eliminate` (which
    the checker would refuse as a loss of a division no longer on the map)."""
    s = Session()
    s.flip("de-inf-04", 2)  # depleted in an earlier turn
    s.chat("a", "Turn 2")
    s.chat("a", "Step action")
    s.chat("a", "Allied: action combat supply 1")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.chat("a", "Allied: attack 0621 with us-inf-01 us-inf-02")
    s.roll("a", 6)  # HH
    s.flip("us-inf-01", 2)
    s.flip("us-inf-02", 2)
    if typed_first:
        s.chat("b", "German> deplete de-inf-04")
    s.drag_to_box("de-inf-04", "eliminated_german", "b")
    if not typed_first:
        s.chat("b", "German> deplete de-inf-04")
    translation = translate_file(s.write(tmp_path / "last-step.vlog"))
    losses = [write_entry(e) for e in translation.entries if isinstance(e, Loss) and e.unit == "de-inf-04"]
    assert losses == ["German: deplete de-inf-04", "German> deplete de-inf-04"]  # the turn 1 flip, then the HH
    assert not any("de-inf-04" in n.message for n in translation.notes)
