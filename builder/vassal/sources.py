"""The builder's and the kernel's source files and fonts, each read and hashed once a process: the art cache and
the module cache are both keyed by them (reading and hashing their 3 MB twice was about 0.01 s of a build)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

BUILDER = Path(__file__).resolve().parents[1]
KERNEL = BUILDER.parent / "wargame"
SUFFIXES = (".py", ".ttf", ".otf")
"""The files code and art depend on: source and fonts."""


@lru_cache(maxsize=None)
def _sources(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file()))


@lru_cache(maxsize=None)
def _file_digest(path: Path) -> bytes:
    # SHA-256 rather than BLAKE2b: OpenSSL's runs on the CPU's SHA instructions where it has them, Python's BLAKE2b is
    # its portable C (3 MB of sources and fonts: 3.6 ms -> 1.7 ms for the fonts alone, on every cold build).
    return hashlib.sha256(path.read_bytes()).digest()


def sources_digest(folders: Iterable[Path]) -> bytes:
    """A digest of every source file and font under `folders`, each by its path below Umpire's root and its bytes."""
    digest = hashlib.blake2b(digest_size=20)
    for folder in folders:
        for source in _sources(folder):
            digest.update(str(source.relative_to(BUILDER.parent)).encode() + b"\0" + _file_digest(source) + b"\0")
    return digest.digest()
