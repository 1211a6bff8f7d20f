"""The builder's and the kernel's source files and fonts, each read and hashed once a process: the art cache and
the module cache are both keyed by them (reading and hashing their 3 MB twice was about 0.01 s of a build).

A digest once worked out is remembered in the cache folder under the files' signature (each one's path, size,
modification and change times, inode and device), as Python remembers a module's bytecode by its source's time and
size: a later build whose sources have the same signature reads it back instead of reading and hashing 3 MB again
(with hashlib's import, a fifth of a rebuild of unchanged data, issue 30 item 3). An edited file changes its change
time even when its modification time is put back, so its digest is worked out again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from wargame.gamecache import blake2b, cache_dir, is_trusted, keep_file

BUILDER = Path(__file__).resolve().parents[1]
KERNEL = BUILDER.parent / "wargame"
SUFFIXES = (".py", ".ttf", ".otf")
"""The files code and art depend on: source and fonts."""
DIGESTS_KEPT = 32
"""Remembered digests kept in the cache folder (each state of the sources a build has seen makes one)."""
_DIGEST_SIZE = 20


@lru_cache(maxsize=None)
def _sources(folder: Path) -> tuple[Path, ...]:
    found: list[Path] = []
    for parent, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if name != "__pycache__"]  # bytecode only: no source or font there
        found.extend(Path(parent, name) for name in names if Path(name).suffix in SUFFIXES)
    return tuple(sorted(p for p in found if p.is_file()))


@lru_cache(maxsize=None)
def _file_digest(path: Path) -> bytes:
    # SHA-256 rather than BLAKE2b: OpenSSL's runs on the CPU's SHA instructions where it has them, Python's BLAKE2b is
    # its portable C (3 MB of sources and fonts: 3.6 ms -> 1.7 ms for the fonts alone, on every cold build). Imported
    # here: a build that finds its digest remembered never loads OpenSSL.
    import hashlib
    return hashlib.sha256(path.read_bytes()).digest()


def _signature(files: list[tuple[Path, str]]) -> str | None:
    """The files' names and stat results as one name (None: one is gone or unreadable)."""
    signature = blake2b(digest_size=_DIGEST_SIZE)
    for source, name in files:
        try:
            info = source.stat()
        except OSError:
            return None
        signature.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0{info.st_ino}\0"
                         f"{info.st_dev}\0".encode("utf-8", "surrogatepass"))
    return signature.hexdigest()


def _remembered(where: Path) -> bytes | None:
    """A digest remembered under a signature, if one is there and may be trusted."""
    try:
        with where.open("rb") as stream:
            if not is_trusted(os.fstat(stream.fileno())):
                return None
            kept = stream.read(_DIGEST_SIZE + 1)
    except OSError:
        return None
    return kept if len(kept) == _DIGEST_SIZE else None


def _remember(where: Path, digest: bytes) -> None:
    """Keep a digest under its signature (nothing when the cache folder cannot be written: only slower)."""
    try:
        keep_file(where, digest, DIGESTS_KEPT)
    except OSError:
        return


def sources_digest(folders: Iterable[Path], root: Path = BUILDER.parent) -> bytes:
    """A digest of every source file and font under `folders`, each by its path below `root` (Umpire's) and its bytes;
    read back from the cache folder when the files' signature is the one it was worked out for."""
    files = [(source, str(source.relative_to(root))) for folder in folders for source in _sources(folder)]
    folder = cache_dir()
    signature = _signature(files) if folder is not None else None
    where = None if folder is None or signature is None else folder / "sources" / f"{signature}.digest"
    if where is not None and (known := _remembered(where)) is not None:
        return known
    digest = blake2b(digest_size=_DIGEST_SIZE)
    for source, name in files:
        digest.update(name.encode() + b"\0" + _file_digest(source) + b"\0")
    if where is not None:
        _remember(where, digest.digest())
    return digest.digest()
