"""A module's art kept between builds: every image's PNG bytes, keyed by a hash of exactly what it is drawn from
(its data row, the data files it reads, the drawing code, the fonts, Pillow's version, the scale), so a rebuild
draws only the images whose inputs changed and the module comes out byte for byte as a cold build's
(tests/test_vassal_module.py; figures in bench/README.md)."""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from pathlib import Path

import PIL

from builder.vassal.art import ModuleArt, Picture, draw_pngs, plan_art
from builder.vassal.sources import sources_digest
from wargame.errors import WargameError
from wargame.files import write_atomically
from wargame.game import Game, unchanged_since_loaded

FORMAT = b"umpire-art-2"
"""Changed whenever what a key covers or what is kept changes."""
STORE_MAGIC = b"umpire-pngs-1\n"
_ENTRY = struct.Struct(">32sI")
"""An entry of the store: the image's key (32 hex digits), the length of its PNG bytes, then the bytes."""
_BUILDER = Path(__file__).resolve().parents[1]
_WARGAME = _BUILDER.parent / "wargame"
ART_INPUTS = (_BUILDER / "render", _BUILDER / "fonts", _BUILDER / "vassal", _WARGAME)
"""Folders whose files the art may depend on: drawing code, fonts, the module's own code (its image names)
and the game's loading and layout. Over-inclusive on purpose: a change anywhere there redraws."""


@lru_cache(maxsize=1)
def code_digest() -> bytes:
    """A digest of the code, fonts and Pillow version every image depends on."""
    digest = hashlib.sha256(FORMAT + f"\0{PIL.__version__}\0".encode())
    digest.update(sources_digest(ART_INPUTS))
    return digest.digest()


def file_digests(game: Game) -> dict[str, bytes]:
    """A digest of each of the game's data files by its name in `game.files` (an optional file the game does
    not have, such as rules.toml, hashed as absent)."""
    digests = {}
    for name, path in game.files.items():
        digests[name] = hashlib.sha256(path.read_bytes() if path.is_file() else b"\1absent").digest()
    return digests


def picture_key(picture: Picture, files: dict[str, bytes], scale: float) -> str:
    """A hash of exactly what one image is drawn from: its row, the data files it reads, the code, the scale."""
    digest = hashlib.sha256(code_digest() + f"\0{scale!r}\0{picture.name}\0{picture.row}\0".encode())
    for name in picture.reads:
        digest.update(name.encode() + b"\0" + files.get(name, b"\1unknown") + b"\0")
    return digest.hexdigest()[:32]


def art_keys(game: Game, scale: float) -> dict[str, str]:
    """Each image's key by archive name (for tests: which images a change of data touches)."""
    files = file_digests(game)
    return {p.name: picture_key(p, files, scale) for p in plan_art(game, scale)[1]}


def read_store(path: Path) -> dict[str, bytes]:
    """The PNG bytes kept in a store file by key; nothing for a missing or damaged file."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(STORE_MAGIC):
        return {}
    kept: dict[str, bytes] = {}
    at = len(STORE_MAGIC)
    while at < len(data):
        if at + _ENTRY.size > len(data):
            return {}  # cut short: written by a build that did not finish (never: writes are atomic) or damaged
        key, length = _ENTRY.unpack_from(data, at)
        at += _ENTRY.size
        if at + length > len(data):
            return {}
        kept[key.decode("ascii", "replace")] = data[at:at + length]
        at += length
    return kept


def store_bytes(pngs: dict[str, bytes]) -> bytes:
    """A store file holding PNG bytes by key."""
    parts = [STORE_MAGIC]
    for key, png in pngs.items():
        parts += [_ENTRY.pack(key.encode("ascii"), len(png)), png]
    return b"".join(parts)


def cached_art(game: Game, scale: float, where: Path | None) -> ModuleArt:
    """The game's art for a module: each image from the cache folder when it holds that image's key, else drawn,
    and the store rewritten with exactly this build's images (one store per game and scale, shared by every data
    folder of that game id, so a copy of a game reuses what it has in common)."""
    frame, pictures = plan_art(game, scale)
    if where is None:
        return ModuleArt(frame, draw_pngs(game, scale, pictures))
    files = file_digests(game)
    keys = {p.name: picture_key(p, files, scale) for p in pictures}
    path = where / "art" / f"{game.id}-{scale!r}.pngs"
    kept = read_store(path)
    missing = [p for p in pictures if keys[p.name] not in kept]
    drawn = draw_pngs(game, scale, missing) if missing else {}
    pngs = {p.name: drawn[p.name] if p.name in drawn else kept[keys[p.name]] for p in pictures}
    # Kept only when the data still read as the game was loaded: art drawn from a file edited meanwhile is never
    # stored under the edited bytes' key.
    if (missing or len(kept) != len(set(keys.values()))) and unchanged_since_loaded(game):
        try:
            write_atomically(path, store_bytes({keys[name]: png for name, png in pngs.items()}), force=True)
            for older in path.parent.glob(f"{game.id}-{scale!r}-*.pickle"):
                older.unlink(missing_ok=True)  # the whole-art pickles kept before per-image keys
        except (OSError, WargameError):
            pass  # a read-only or full cache only costs the next build the drawing
    return ModuleArt(frame, pngs)
