"""Modules kept between builds: a build whose every input reads as before (the game's data files, the code of
`builder` and `wargame`, the fonts, the versions of Python, Umpire, Pillow, lxml and pydantic, the scale) writes the
module built before, byte for byte, without importing the drawing, loading the game or drawing (issue 30: rebuilds).

Nothing here imports Pillow, lxml or pydantic: a rebuild of unchanged data costs hashing its inputs and copying."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from builder.vassal.sources import sources_digest
from wargame.errors import WargameError
from wargame.files import write_atomically
from wargame.gamecache import blake2b, fingerprint, is_trusted
from wargame.records import frozen

FORMAT = b"umpire-module-1"
"""Changed whenever what an entry holds changes shape."""
MODULES_KEPT = 8
"""Modules kept in the cache folder (the newest)."""
_BUILDER = Path(__file__).resolve().parents[1]
_CODE = (_BUILDER, _BUILDER.parent / "wargame")
_LIBRARIES = ("umpire", "pillow", "lxml", "pydantic", "pydantic-core")


@frozen
class KeptModule:
    """A module built before from the same inputs: its bytes and how many images it holds."""

    data: bytes
    images: int


def installed_version(name: str) -> str | None:
    """An installed distribution's version, as `importlib.metadata.version` gives it, read from the name of its
    `NAME-VERSION.dist-info` folder on sys.path (the first found, as importlib.metadata finds it); None where there is
    none, for importlib.metadata to answer. Importing importlib.metadata (email, zipfile, csv) and its search cost a
    build some 120M instructions, more than the 3x aim of issue 30's item 2 had left."""
    wanted = _normalized(name)
    for folder in sys.path:
        for entry in _listing(folder or "."):
            if entry.endswith(".dist-info"):
                project, _, found = entry[: -len(".dist-info")].partition("-")
                if found and _normalized(project) == wanted:
                    return found
    return None


def package_version(name: str) -> str:
    """An installed distribution's version; PackageNotFoundError (importlib.metadata's) where none is installed."""
    found = installed_version(name)
    if found is not None:
        return found
    from importlib.metadata import version
    return version(name)


def _metadata_version(name: str) -> str | None:
    """importlib.metadata's version of a distribution no dist-info folder names (an egg-info install, as some system
    packages are), None where none is installed: without it the key would serve a module built by another Pillow."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _normalized(name: str) -> str:
    """A distribution's name as packaging compares names: case, and runs of `-`, `_` and `.`, aside."""
    return re.sub(r"[-_.]+", "_", name).lower()


@lru_cache(maxsize=64)
def _listing(folder: str) -> tuple[str, ...]:
    """The names in a folder of sys.path (none for a zip file or a missing folder)."""
    try:
        return tuple(sorted(os.listdir(folder)))
    except OSError:
        return ()


@lru_cache(maxsize=1)
def code_stamp() -> bytes:
    """A digest of the code and fonts a module is built by and of the libraries' versions."""
    digest = blake2b(FORMAT + f"\0{sys.version}\0".encode(), digest_size=20)
    for name in _LIBRARIES:
        found = installed_version(name) or _metadata_version(name)
        digest.update(f"{name} absent\0".encode() if found is None else f"{name}={found}\0".encode())
    digest.update(sources_digest(_CODE))
    return digest.digest()


def _entry(where: Path, root: Path, game_id: str, scale: float, umpire_version: str) -> Path:
    """The cache file of a game's module built from a data folder at a scale."""
    digest = blake2b(code_stamp() + f"\0{root.resolve()}\0{game_id}\0{scale!r}\0{umpire_version}".encode(
        "utf-8", "surrogatepass"), digest_size=20)
    return where / "modules" / f"{digest.hexdigest()}.vmod"


def _fingerprint(files: Sequence[str]) -> str | None:
    """The data files' fingerprint as the game cache takes it (None: one is not a regular file, or too big)."""
    stamp = fingerprint(Path(name) for name in files)
    return None if stamp is None else stamp.hex()


def kept_module(where: Path | None, root: Path, game_id: str, scale: float, umpire_version: str) -> KeptModule | None:
    """The module an earlier build made from the same inputs, when every data file it read reads the same."""
    if where is None:
        return None
    try:
        with _entry(where, root, game_id, scale, umpire_version).open("rb") as stream:
            if not is_trusted(os.fstat(stream.fileno())):
                return None
            header = json.loads(stream.readline())
            files, stamp, images = header["files"], header["fingerprint"], header["images"]
            if not (isinstance(files, list) and all(isinstance(f, str) for f in files) and isinstance(images, int)):
                return None
            if stamp is None or _fingerprint(files) != stamp:
                return None
            return KeptModule(stream.read(), images)
    except (OSError, ValueError, KeyError, TypeError, RecursionError):  # not kept yet, or a damaged entry: build it
        return None


def keep_module(where: Path | None, root: Path, game_id: str, scale: float, umpire_version: str,
                files: Sequence[Path], data: bytes, images: int, built_from: Callable[[], bool]) -> None:
    """Keep a module just built for later builds (nothing when there is no cache folder or it cannot be written);
    `built_from` says whether the data files still read as the module was built from them."""
    if where is None:
        return
    names = [str(path) for path in files]
    stamp = _fingerprint(names)
    # Taken before asking: a file changed while the game loaded or the module was built is never kept under the
    # new bytes' fingerprint (the next build would take a module of the old ones for the new).
    if stamp is None or not built_from():
        return
    header = json.dumps({"files": names, "fingerprint": stamp, "images": images})
    path = _entry(where, root, game_id, scale, umpire_version)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomically(path, header.encode() + b"\n" + data, force=True)
        os.chmod(path, 0o600)
        kept = sorted(path.parent.glob("*.vmod"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[MODULES_KEPT:]:
            old.unlink(missing_ok=True)
    except (OSError, WargameError):
        pass  # not kept is only slower next time


__all__ = ["KeptModule", "code_stamp", "keep_module", "kept_module"]
