"""Loaded games kept between runs: a game that loaded and cross-checked without a problem is pickled in the cache
folder, and a later process takes it from there when every data file and the loading code read the same, so a
check parses no data file and builds none of the data models' validators (issue 30: start-up)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

try:
    # hashlib's own blake2b, without hashlib: importing it loads OpenSSL (_hashlib), ~1% of a check's instructions,
    # for digests a check of a text log never asks of it.
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib's
    from hashlib import blake2b

from wargame.files import create_temporary

if TYPE_CHECKING:
    from wargame.gamedata import Game

GAMES_KEPT = 32
"""Pickled games kept in the cache folder (the newest; a test run loads many copies of the bundled games)."""

_FINGERPRINT_CAP = 64 * 1024 * 1024
"""Data above this size in all (or a file that is not a regular file) is loaded again each time, not fingerprinted."""


def fingerprint(files: Iterable[Path]) -> bytes | None:
    """A digest of the data files' names and bytes (None: one is not a regular file, or they are too big to read
    twice): a game is reused only when every byte it was loaded from is the same."""
    digest = blake2b(digest_size=20)
    total = 0
    for path in files:
        digest.update(str(path).encode("utf-8", "surrogatepass") + b"\0")
        try:
            info = path.stat()
        except OSError:
            digest.update(b"absent\0")
            continue
        total += info.st_size
        if not stat.S_ISREG(info.st_mode) or total > _FINGERPRINT_CAP:
            return None
        try:
            digest.update(path.read_bytes() + b"\0")
        except OSError:
            return None  # a file we may not read: the loader reports it on its own line, nothing is kept
    return digest.digest()


def cache_dir() -> Path | None:
    """Where results are kept between runs: $UMPIRE_CACHE, else $XDG_CACHE_HOME/umpire or ~/.cache/umpire; None
    when UMPIRE_CACHE is empty or there is no home folder (no cache)."""
    chosen = os.environ.get("UMPIRE_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "umpire"
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return None  # no home to keep a cache in
    # A home that does not exist is not ours to create (a service account, HOME=/nonexistent): no cache.
    return home / ".cache" / "umpire" if home.is_dir() else None


def _pydantic_version() -> str:
    """The installed pydantic's version file (its version and the pydantic-core it needs), read without importing
    pydantic: a check of a kept game imports none, and reading the packages' metadata costs 20-130 ms."""
    from importlib.util import find_spec
    spec = find_spec("pydantic")
    if spec is None or spec.origin is None:
        return "none"
    try:
        return Path(spec.origin).with_name("version.py").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return "unreadable"


@lru_cache(maxsize=1)
def code_stamp() -> bytes:
    """A digest of what a pickled game's meaning depends on besides its data: the interpreter, pydantic (which
    validated it) and the source of every module of `wargame` (the game's classes, loading and cross-checking)."""
    digest = blake2b(f"{sys.version}\0{_pydantic_version()}\0".encode(), digest_size=20)
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.digest()


def _entry(root: Path, game_id: str) -> Path | None:
    """The cache file of a game of a data folder (named as given: paths in reports are printed as given)."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = blake2b(code_stamp() + f"\0{root}\0{game_id}".encode("utf-8", "surrogatepass"), digest_size=20)
    return folder / "games" / f"{digest.hexdigest()}.pickle"


def is_trusted(info: os.stat_result) -> bool:
    """A pickle runs code when read: only a regular file of this user that nobody else may write is read."""
    if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def cached_game(root: Path, game_id: str) -> tuple[bytes, Game] | None:
    """A game pickled by an earlier run, with its files' fingerprint, when they still read the same; else None."""
    # Imported here: the cache folder is asked for by commands that load no game (a rebuild kept whole).
    import pickle

    from wargame.gamedata import Game

    path = _entry(root, game_id)
    if path is None:
        return None
    try:
        with path.open("rb") as stream:
            if not is_trusted(os.fstat(stream.fileno())):
                return None
            # Two pickles, each read with its own memo: the files and their fingerprint, then the game.
            files, stamp = pickle.load(stream)
            if not stamp or fingerprint(files) != stamp:
                return None
            game = pickle.load(stream)
    except Exception:  # a file cut short, of other code or unreadable is a miss: a cache never fails a run
        return None
    return (stamp, game) if isinstance(game, Game) and isinstance(stamp, bytes) else None


def keep_game(root: Path, game_id: str, files: Sequence[Path], stamp: bytes, game: Game) -> None:
    """Pickle a game just loaded for later runs (nothing when there is no cache folder or it cannot be written)."""
    path = _entry(root, game_id)
    if path is None:
        return
    import pickle
    try:
        payload = pickle.dumps((list(files), stamp), pickle.HIGHEST_PROTOCOL) + pickle.dumps(
            game, pickle.HIGHEST_PROTOCOL)
        keep_file(path, payload, GAMES_KEPT)
    # Not kept is only slower: a full disk, a read-only home or an object that does not pickle never fails a run.
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return


def keep_file(path: Path, payload: bytes, newest: int) -> None:
    """Write a file of the cache folder whole (a new file renamed over it, its folder made for its owner alone), then
    remove all but the `newest` files of its suffix there; OSError where it cannot."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    handle, temporary = create_temporary(path.parent, f"{path.stem}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    kept = sorted(path.parent.glob(f"*{path.suffix}"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in kept[newest:]:
        old.unlink(missing_ok=True)


__all__ = ["blake2b", "cache_dir", "cached_game", "code_stamp", "fingerprint", "is_trusted", "keep_file", "keep_game"]
