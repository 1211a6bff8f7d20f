"""A game loaded once in a process is reused only while every byte of its data is the same (issue 25: tests and
fuzz campaigns ask for the same games thousands of times; a check must never judge on stale data)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from wargame.errors import DataErrors
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent


def _copy(tmp_path: Path, game_id: str = "moscow") -> Path:
    """A copy of one bundled game's data (maps and counters) in a fresh folder."""
    for kind in ("maps", "counters"):
        shutil.copytree(ROOT / kind / game_id, tmp_path / kind / game_id)
    return tmp_path


def test_the_same_bytes_give_the_same_game(tmp_path: Path) -> None:
    """Loading unchanged data again gives the very game already loaded."""
    root = _copy(tmp_path)
    assert load_game(root, "moscow") is load_game(root, "moscow")


def test_a_changed_byte_is_read_again_at_once(tmp_path: Path) -> None:
    """A one-character change of the same size, made at once (same modification time tick), is seen."""
    root = _copy(tmp_path)
    first = load_game(root, "moscow")
    units = root / "counters" / "moscow" / "units.csv"
    text = units.read_text(encoding="utf-8")
    stat = units.stat()
    unit = next(u for _, u in first.units)
    name = unit.name
    renamed = name[:-1] + ("x" if name[-1] != "x" else "y")
    changed = text.replace(f",{name},", f",{renamed},", 1)
    assert len(changed) == len(text) and changed != text
    units.write_text(changed, encoding="utf-8")
    os.utime(units, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same size and time: only the bytes differ
    second = load_game(root, "moscow")
    assert second is not first
    assert first.units_by_id[unit.id].name == name and second.units_by_id[unit.id].name == renamed


def test_data_with_errors_are_never_kept(tmp_path: Path) -> None:
    """Data that do not load raise every time, and a fix is read at once."""
    root = _copy(tmp_path)
    crt = root / "counters" / "moscow" / "crt.toml"
    good = crt.read_text(encoding="utf-8")
    crt.write_text(good + "\n[[nonsense\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataErrors):
            load_game(root, "moscow")
    crt.write_text(good, encoding="utf-8")
    assert load_game(root, "moscow").crt is not None


def test_a_file_that_is_not_regular_is_not_fingerprinted(tmp_path: Path) -> None:
    """A data file that is a FIFO or device is not read twice to fingerprint it: the game is not kept."""
    from wargame.game import _fingerprint

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert _fingerprint([fifo]) is None
    regular = tmp_path / "a.csv"
    regular.write_text("x", encoding="utf-8")
    assert _fingerprint([regular]) == _fingerprint([regular]) is not None
    assert _fingerprint([regular, tmp_path / "absent.csv"]) != _fingerprint([regular])
