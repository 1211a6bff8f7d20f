"""A game loaded once in a process is reused only while every byte of its data is the same (issue 25: tests and
fuzz campaigns ask for the same games thousands of times; a check must never judge on stale data)."""

from __future__ import annotations

import os
import shutil
from collections import OrderedDict
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
    from wargame.game import fingerprint

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert fingerprint([fifo]) is None
    regular = tmp_path / "a.csv"
    regular.write_text("x", encoding="utf-8")
    assert fingerprint([regular]) == fingerprint([regular]) is not None
    assert fingerprint([regular, tmp_path / "absent.csv"]) != fingerprint([regular])


# -- between runs (wargame/gamecache.py, issue 30: a check's start-up) ----------------------------------------------

def _next_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Forget the games of this process, as a new run would, and record every load from the data files."""
    import wargame.game as game_module

    monkeypatch.setattr(game_module, "_LOADED", OrderedDict())
    loads: list[str] = []
    real = game_module._load_game

    def counted(root: Path, game_id: str) -> tuple[object, bytes | None]:
        loads.append(game_id)
        return real(root, game_id)

    monkeypatch.setattr(game_module, "_load_game", counted)
    return loads


def test_a_later_run_takes_the_game_kept_by_an_earlier_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game loaded without a problem is kept in the cache folder; a later run with the same bytes and code takes
    it from there (equal, its data models' validators never built), and a changed byte is loaded afresh."""
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    root = _copy(tmp_path / "data")
    first = load_game(root, "moscow")
    assert list((tmp_path / "cache" / "games").glob("*.pickle"))
    loads = _next_run(monkeypatch)
    second = load_game(root, "moscow")
    assert loads == [] and second is not first and second == first
    assert second.units_by_id.keys() == first.units_by_id.keys() and second.grid.spec == first.grid.spec
    units = root / "counters" / "moscow" / "units.csv"
    units.write_text(units.read_text(encoding="utf-8") + "# one more comment\n", encoding="utf-8")
    loads = _next_run(monkeypatch)
    load_game(root, "moscow")
    assert loads == ["moscow"]


def test_a_kept_game_is_read_only_when_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache file cut short, written by other code, or writable by other users is not read: the game is loaded
    from its files; with UMPIRE_CACHE empty nothing is kept."""
    import wargame.gamecache as gamecache

    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    root = _copy(tmp_path / "data")
    load_game(root, "moscow")
    (kept,) = (tmp_path / "cache" / "games").glob("*.pickle")
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2])
    loads = _next_run(monkeypatch)
    assert load_game(root, "moscow").id == "moscow" and loads == ["moscow"]
    kept.chmod(0o666)  # rewritten whole by the load above, then opened to others
    loads = _next_run(monkeypatch)
    load_game(root, "moscow")
    assert loads == ["moscow"]
    kept.chmod(0o600)
    monkeypatch.setattr(gamecache, "code_stamp", lambda: b"other code")
    loads = _next_run(monkeypatch)
    load_game(root, "moscow")
    assert loads == ["moscow"]
    monkeypatch.setenv("UMPIRE_CACHE", "")
    shutil.rmtree(tmp_path / "cache")
    load_game(_copy(tmp_path / "other"), "moscow")
    assert not (tmp_path / "cache").exists()


def test_the_cache_folder_keeps_the_newest_games_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most GAMES_KEPT games are kept (a test run loads hundreds of copies)."""
    import wargame.gamecache as gamecache

    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(gamecache, "GAMES_KEPT", 2)
    for n in range(3):
        load_game(_copy(tmp_path / str(n)), "moscow")
    assert len(list((tmp_path / "cache" / "games").glob("*.pickle"))) == 2


def test_a_cache_file_is_written_whole_and_the_oldest_pruned(tmp_path: Path) -> None:
    """keep_file writes a file whole, for its owner alone, and keeps the `newest` files of its suffix in the folder,
    other files left alone (the kept games: 32; the remembered sources' digests: 32)."""
    import os
    import stat

    from wargame.gamecache import keep_file

    folder = tmp_path / "kept"
    for n in range(5):
        keep_file(folder / f"{n}.digest", bytes([n]) * 3, 3)
        os.utime(folder / f"{n}.digest", ns=(n * 10**9, n * 10**9))
    (folder / "other.txt").write_text("mine", encoding="utf-8")
    keep_file(folder / "5.digest", b"new", 3)
    assert sorted(p.name for p in folder.iterdir()) == ["3.digest", "4.digest", "5.digest", "other.txt"]
    assert (folder / "5.digest").read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(folder / "5.digest").st_mode) == 0o600 and stat.S_IMODE(os.stat(folder).st_mode) == 0o700
