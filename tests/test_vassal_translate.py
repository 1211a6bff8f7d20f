"""The VASSAL translator's messages name no particular game or side (issue 25 items 3 and 6), and the
leftovers of issue 26 item 6: a counter set aside on the map key and brought back, the Activate (this stack)
menu command."""

from __future__ import annotations

from pathlib import Path

from adjudicator.notation.entries import Comment
from adjudicator.notation.text import write_entry
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.board import PARKING
from adjudicator.vassal.translate import Translation
from test_vassal_declare import Clicks
from test_vassal_paths import OmahaSession
from test_vassal_reader import DATA, Session, game, run
from wargame.bundled import data_root
from wargame.game import load_game
from wargame.vassal.declarations import ACTIVATE
from wargame.vassal.places import Places

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "examples" / "pbem" / "game"


def test_a_flip_back_note_names_the_units_own_side(tmp_path: Path) -> None:
    """A counter flipped back to full strength is a note whose example is the unit's own side and id, not a
    side of one game written into the reader."""
    for unit, side in (("de-inf-21", "German"), ("us-inf-01", "Allied")):
        s = Session()
        s.flip(unit, 2)
        s.tracker(1, 1)  # a step ended between: the flip stands (with only chat between, a misclick taken back)
        s.flip(unit, 1)
        translation = translate_file(s.write(tmp_path / f"flip-{unit}.vlog"))
        assert any(f"type what it was in chat (e.g. '{side}: replace {unit} full')" in n.message
                   for n in translation.notes), translation.notes


def test_a_first_log_without_a_game_lists_the_games(tmp_path: Path) -> None:
    """A chain whose first log names no game, and no log after it does: the refusal lists the games there are
    instead of naming one game as the example."""
    later = sorted(PBEM.glob("*.log"))[1]
    code, out, _ = run("check", str(later), str(DATA / "onslaught-zoc.vlog"))
    assert code == 2 and 'with a header [Game "NAME"], NAME one of moscow, omaha, onslaught' in out, out


def set_aside(s: Session, unit: str, spot: tuple[str, int, int]) -> None:
    """A counter dropped on a place of no game: the map key, off the hex grid, a window's free area."""
    s.step(s.move_command(unit, spot), f"CHAT* {unit} moves ... -> Map key *")


def body(translation: Translation) -> list[str]:
    """The entries that are not comments, as `line: text`."""
    return [f"{e.line}: {write_entry(e)}" for e in translation.entries if not isinstance(e, Comment)]


def test_a_counter_set_aside_and_dragged_back_is_a_move(tmp_path: Path) -> None:
    """Issue 26 item 6: a counter dragged from its hex onto the map key (off the hex grid) or another window's
    free area, then onto the map, is a move from the hex it left to the hex it reaches, with its path; brought
    back to its own hex, it is no entry. The reader used to drop both drags with a note each."""
    for spot in (("Main Map", 9000, 9000), ("Boxes and Tracks", 9000, 9000)):
        s = Session()
        s.tracker(1, 1)
        set_aside(s, "us-inf-01", spot)
        s.drag("us-inf-01", "0520")
        set_aside(s, "us-inf-02", spot)
        s.drag("us-inf-02", "0620")
        translation = translate_file(s.write(tmp_path / "aside.vlog"))
        lines = body(translation)
        assert "3: us-inf-01 0620-0520" in lines, lines
        assert not any("us-inf-02" in line for line in lines), lines
        assert not any("moved" in n.message and "not translated;" in n.message and n.step in (3, 5)
                       for n in translation.notes), translation.notes
        assert any(n.step == 2 and "the reader keeps it at 0620 until its counter comes back" in n.message
                   for n in translation.notes), translation.notes
        assert "5: # step 5: us-inf-02 back at 0620, where it was set aside from: no entry" in [
            f"{e.line}: {write_entry(e)}" for e in translation.entries]


def test_a_counter_set_aside_from_its_box_is_set_up_from_there(tmp_path: Path) -> None:
    """Omaha's set-up: a unit taken from its set-up box, dropped beside the map (the map key) and then on its hex is
    set up there, as a drag straight from the box is; the map key is such a place (a zone with no hexes)."""
    s = OmahaSession()
    set_aside(s, "16/1", ("Main Map", 9000, 9000))
    s.drag("16/1", "2319")
    set_aside(s, "914/352", ("Boxes and Tracks", 9000, 9000))
    s.drag("914/352", "2218", "b")
    lines = body(translate_file(s.write(tmp_path / "setup.vlog")))
    assert "2: Allied: setup 16/1 2319" in lines and "4: German: setup 914/352 2218" in lines, lines
    assert Places(game("omaha")).named("Map key").kind in PARKING


def test_activate_this_stack_activates_the_stack(tmp_path: Path) -> None:
    """Issue 26 item 6: Onslaught's "Activate (this stack)" on one counter of a stack activates the stack, as its
    menu says (the reader once activated only the counters clicked): the hex, with no division named, so the rule
    system reads the stack as it stands (a counter dragged out before is not in it); the counters clicked
    together in one hex make one entry."""
    assert "this stack" in load_game(data_root(), "onslaught").manifest.declare.menu_text(ACTIVATE)
    s = Clicks()
    s.toolbar("action movement", "2")
    s.click("activate", "us-inf-02")
    s.click("activate", "br-inf-01", "a", "ca-inf-01", "br-inf-02")
    s.drag("us-inf-02", "0520")
    s.click("activate", "us-inf-02")
    lines = body(translate_file(s.write(tmp_path / "activate.vlog")))
    # The stack is the hex, no division named: the rule system reads it as every division of the side there when
    # the action is judged (Onslaught 8.2; in a Breakthrough, its armor, 5.5).
    assert lines[-6:] == ["1: Allied: action movement supply 2", "2: Allied: activate 0620",
                          "3: Allied: activate 0720", "3: Allied: activate 0820",
                          "4: us-inf-02 0620-0520", "5: Allied: activate 0520"], lines
