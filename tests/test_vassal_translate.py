"""The VASSAL translator's messages name no particular game or side (issue 25 items 3 and 6), and the
leftovers of issue 26 item 6: a counter set aside on the map key and brought back, the Activate (this stack)
menu command."""

from __future__ import annotations

from pathlib import Path

from adjudicator.vassal.load import translate_file
from test_vassal_reader import DATA, Session, run

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "examples" / "pbem" / "game"


def test_a_flip_back_note_names_the_units_own_side(tmp_path: Path) -> None:
    """A counter flipped back to full strength is a note whose example is the unit's own side and id, not a
    side of one game written into the reader."""
    for unit, side in (("de-inf-21", "German"), ("us-inf-01", "Allied")):
        s = Session()
        s.flip(unit, 2)
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
