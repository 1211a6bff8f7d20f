"""A VASSAL recording's cost is bounded by its size: no recorded number drives a loop, and following the game
as the translation goes costs each step once (fuzz seed 1901 found a 4 KB log that ran for minutes)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator import verdict
from adjudicator.notation.entries import Comment, Entry, Loss, Move
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.result import Translation
from adjudicator.vassal.written import Written
from adjudicator.cli import main
from click.testing import CliRunner
from wargame.vassal.savefile import deobfuscate, obfuscate

SESSION = Path(__file__).resolve().parent / "data" / "vassal" / "onslaught-session.vlog"
ESC_LOG = "\x1bLOG\t"
Edit = Callable[[str, list[str]], str]
"""An edit of a recording's command text: (head, steps) -> text."""


def _recording(path: Path, edit: Edit) -> Path:
    """The recorded Onslaught session with its command text edited (head, steps) -> text."""
    with zipfile.ZipFile(SESSION) as recorded:
        plain = deobfuscate(recorded.read("savedGame")).decode("utf-8")
        members = {name: recorded.read(name) for name in ("savedata", "moduledata")}
    head, *steps = plain.split(ESC_LOG)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", obfuscate(edit(head, steps)))
        for name, data in members.items():
            archive.writestr(name, data)
    path.write_bytes(buffer.getvalue())
    return path


def test_a_step_level_past_the_counters_faces_is_read_as_its_last_face(tmp_path: Path) -> None:
    """A flip recorded to level 2**31 - 1 of the Step layer (a damaged file) is one depletion and a reader's note,
    not two billion depletions."""
    flipped = "\t2" + "\\" * 4 + "\tMain Map;1464;492"

    def hostile(head: str, steps: list[str]) -> str:
        assert flipped in steps[12]
        steps[12] = steps[12].replace(flipped, "\t2147483647" + "\\" * 4 + "\tMain Map;1464;492", 1)
        return ESC_LOG.join([head, *steps])
    translation = translate_file(_recording(tmp_path / "hostile.vlog", hostile))
    losses = [(e.unit, e.loss) for e in translation.entries if isinstance(e, Loss)]
    assert losses == [("de-inf-21", "deplete")]
    assert any("level past 1,000,000 of its Step layer, but de-inf-21 has 2 steps" in n.message
               for n in translation.notes)


def _drags(count: int) -> Edit:
    """`count` drags round three hexes (paths the reader chooses by following the game), de-inf-21's and
    de-inf-22's in turn (a counter dragged on right after its own drag continues that move; one dragged back
    where its drag began takes it back, so each goes round three hexes, never back)."""
    def edit(head: str, steps: list[str]) -> str:
        rounds = {"campaign-39-0": ("1464/430", "1464/616", "1464/802"),
                  "campaign-40-0": ("1680/243", "1680/429", "1680/615")}
        drags = []
        for i in range(count):
            piece = "campaign-39-0" if i % 2 == 0 else "campaign-40-0"
            here, there = rounds[piece][i // 2 % 3], rounds[piece][(i // 2 + 1) % 3]
            drags.append(f"M/{piece}/Main Map/{there}/null/Main Map/{here}/null/pw")
        return ESC_LOG.join([head, *drags])
    return edit


def test_following_the_game_reads_each_entry_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each drag asks the game where it stands; the entries written before it are not searched again (they
    were, for headers and for changes, at every drag: quadratic in the log's length)."""
    asked = 0
    original = Entry.as_header

    def counted(self: Entry) -> object:
        nonlocal asked
        asked += 1
        return original(self)
    monkeypatch.setattr(Entry, "as_header", counted)
    translation = translate_file(_recording(tmp_path / "drags.vlog", _drags(300)))
    moves = [e for e in translation.entries if isinstance(e, Move)]
    assert len(moves) == 300
    assert asked < 4 * len(translation.entries)


def test_endpoint_steps_are_worked_out_once_a_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every drag is an error here (no action), and each finding once worked out the whole set of drags again."""
    calls = 0
    original = verdict.endpoint_steps

    def counted(translation: Translation) -> frozenset[int]:
        nonlocal calls
        calls += 1
        return original(translation)
    monkeypatch.setattr(verdict, "endpoint_steps", counted)
    result = CliRunner().invoke(main, ["check", str(_recording(tmp_path / "drags.vlog", _drags(40)))])
    assert result.exit_code == 1
    assert result.stdout.count("moves without an action") == 40
    assert calls == 1


def test_written_entries_keep_count_of_their_unchanged_beginning() -> None:
    """Appending keeps the beginning; writing over, inserting or taking out at an index shortens it to there."""
    entries = Written(Comment(line=n, text=str(n)) for n in range(6))
    entries.unchanged = entries.scanned_unchanged = 6
    entries.append(Comment(line=6, text="6"))
    assert entries.unchanged == entries.scanned_unchanged == 6
    entries[4] = Comment(line=4, text="four")
    assert entries.unchanged == entries.scanned_unchanged == 4
    entries[2:2] = [Comment(line=2, text="two")]
    assert entries.unchanged == 2
    entries.unchanged = len(entries)
    del entries[-1]
    assert entries.unchanged == len(entries)
    entries.insert(1, Comment(line=1, text="one"))
    assert entries.unchanged == 1
    entries.unchanged = len(entries)
    entries.pop(0)
    assert entries.unchanged == 0


def test_a_counter_dragged_to_and_fro_is_moves_of_bounded_length(tmp_path: Path) -> None:
    """Drags of one counter with nothing between are joined into one move, but never past twice across the map:
    each drag costs the same however long the recording (joined without end, each drag re-read a path one drag
    longer: 2,000 drags of one counter took 43 s, 500 took 3.7 s). The counter leaves its first hex for good and
    goes to and fro between two others: one move up to the limit, then drags of their own, each dragged back at
    once and so taken back."""
    def one_counter(head: str, steps: list[str]) -> str:
        a, b, c = "1464/430", "1464/616", "1464/802"
        return ESC_LOG.join([head, f"M/campaign-39-0/Main Map/{b}/null/Main Map/{a}/null/pw",
                             *(f"M/campaign-39-0/Main Map/{c if i % 2 == 0 else b}/null/Main Map/"
                               f"{b if i % 2 == 0 else c}/null/pw" for i in range(600))])
    translation = translate_file(_recording(tmp_path / "to-and-fro.vlog", one_counter))
    moves = [e for e in translation.entries if isinstance(e, Move)]
    spec = translation.game.grid.spec
    limit = 2 * (spec.columns + spec.rows)
    assert all(len(m.path) <= limit for m in moves) and len(moves[0].path) > limit - 4  # legs of three hexes
    # Every drag is a leg of a move or half of a pair taken back.
    legs = sum(1 for e in translation.entries if isinstance(e, Comment) and "dragged on from" in e.text)
    taken_back = [e for e in translation.entries if isinstance(e, Comment) and "taken back, no move" in e.text]
    assert len(moves) + legs + 2 * len(taken_back) == 601
