"""A module's art kept between builds: a rebuild of unchanged data reuses the images and their PNG bytes
drawn before, keyed by a hash of everything they depend on (the game's data files, the code that loads and
draws them, the fonts, Pillow's version, the scale), so the module comes out byte for byte as a cold
build's (tests/test_vassal_module.py; figures in bench/README.md)."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import PIL

from builder.vassal.art import Art, draw_art
from wargame.errors import WargameError
from wargame.files import write_atomically
from wargame.game import Game

FORMAT = b"umpire-art-1"
"""Changed whenever what is kept changes shape (the Art's fields)."""
_BUILDER = Path(__file__).resolve().parents[1]
_WARGAME = _BUILDER.parent / "wargame"
ART_INPUTS = (_BUILDER / "render", _BUILDER / "fonts", _BUILDER / "vassal", _WARGAME)
"""Folders whose files the art may depend on: drawing code, fonts, the module's own code (its image names)
and the game's loading and layout. Over-inclusive on purpose: a change anywhere there redraws."""


def art_key(game: Game, scale: float) -> str:
    """A hash of everything the art's pixels and PNG bytes depend on."""
    digest = hashlib.sha256(FORMAT + f"\0{game.id}\0{scale!r}\0{PIL.__version__}\0".encode())
    for name in sorted(game.files):
        # An optional file a game does not have (rules.toml, reinforcements.csv) is hashed as absent.
        path = game.files[name]
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"\1absent") + b"\0")
    for folder in ART_INPUTS:
        for source in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".py", ".ttf", ".otf")):
            digest.update(str(source.relative_to(_BUILDER.parent)).encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def cached_art(game: Game, scale: float, where: Path | None) -> Art:
    """The game's art: from the cache folder when it holds this key's, else drawn and kept there (one entry
    per game and scale: the one before is removed). The cache is the user's own folder (builder.picture's
    cache_dir), read back with pickle as its own files are."""
    if where is None:
        return draw_art(game, scale)
    folder = where / "art"
    stem = f"{game.id}-{scale!r}-"
    path = folder / f"{stem}{art_key(game, scale)}.pickle"
    try:
        kept = pickle.loads(path.read_bytes())
        if isinstance(kept, Art):
            return kept
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError):
        pass  # not cached yet, or a damaged or outdated file: draw it again
    art = draw_art(game, scale)
    try:
        write_atomically(path, pickle.dumps(art, protocol=pickle.HIGHEST_PROTOCOL), force=True)
        for older in folder.glob(f"{stem}*.pickle"):
            if older != path:
                older.unlink(missing_ok=True)
    except (OSError, WargameError):
        pass  # a read-only or full cache only costs the next build the drawing
    return art
