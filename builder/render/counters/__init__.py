"""Unit counters and markers drawn as vectors from the game data, both faces of each."""

# A unit counter shows what its rule system prints (Onslaught 2.3: symbol and combat-movement;
# Fire & Movement 2.3: unit id, type and size symbols, attack-defence-movement, the leg or mobile
# box and the no-ZOC hexagon of 6.0) in its nationality's colours. Shapes are drawn at three times
# the size and reduced by a box filter, so lines are smooth at any counter size; a unit's texts are
# printed at the size shown (FreeType antialiases them); the bytes are the same on every run.

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image

from builder.render.counters.face import image_name, marker_image_name, unit_faces
from builder.render.counters.markers import marker_back, marker_faces, render_marker, side_colours
from builder.render.counters.units import render_unit
from builder.render.png import png_bytes
from wargame.errors import DataError
from wargame.files import write_atomically
from wargame.game import Game
from wargame.holding import COUNTER_ACROSS_FLATS, counter_size_px


def counter_images(game: Game) -> list[tuple[str, str, Callable[[int], Image.Image]]]:
    """Every counter face of a game: (file name, piece id, renderer by size), units then markers."""
    faces: list[tuple[str, str, Callable[[int], Image.Image]]] = []
    for _, unit in game.units:
        for face in unit_faces(unit):
            faces.append((image_name(unit.id, face), unit.id, partial(render_unit, game, unit, face)))
    for marker in game.markers.marker:
        for n in range(marker_faces(marker)):
            faces.append((marker_image_name(marker.id, n), marker.id, partial(render_marker, game, marker, n)))
    return faces


def write_counters(game: Game, out_dir: Path, size_px: int = 75) -> list[Path]:
    """Write every face of every unit and marker as PNG files; the paths written, in order."""
    faces = counter_images(game)
    seen: dict[str, str] = {}
    for name, piece_id, _ in faces:
        # Case too: a module unpacked on a case-insensitive disk must not lose a picture.
        other = seen.setdefault(name.casefold(), piece_id)
        if other != piece_id:
            raise DataError(f"{game.id}: pieces {other!r} and {piece_id!r} would share the image {name}")
    paths: list[Path] = []
    for name, _, draw in faces:
        path = out_dir / name
        write_atomically(path, png_bytes(draw(size_px)))
        paths.append(path)
    return paths


__all__ = [
    "COUNTER_ACROSS_FLATS", "counter_images", "counter_size_px",
    "image_name", "marker_back", "marker_faces",
    "marker_image_name", "render_marker", "render_unit", "side_colours", "unit_faces", "write_counters",
]
