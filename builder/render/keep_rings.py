"""Writes the kept outlines (builder/render/kept_rings.json) from shapely: `python -m builder.render.keep_rings` after
a change to a bundled game's areas or grid (tests/test_picture_shapes.py says when)."""

from __future__ import annotations

import json
from pathlib import Path

from builder.picture import reading_scale
from builder.render.board import _frame
from builder.render.board_areas import INSETS, inset_areas
from builder.render.board_canvas import shapely_inset_rings
from builder.render.insets import KEPT_RINGS, Ring, kept, ring_key
from wargame.bundled import data_root, game_ids
from wargame.game import load_game

BUILD_SCALE = 1.0
"""`vmodbuild build`'s default scale, whose board's outlines are kept too."""


def keep_rings() -> Path:
    """Work out and write the kept outlines: every bundled game's areas outlined inside their hexes, at the scale of
    its pictures (`reading_scale`) and of its module's default build, by shapely; the file's path."""
    rings: dict[str, list[Ring]] = {}
    root = data_root()
    for game_id in game_ids(root):
        game = load_game(root, game_id)
        for scale in sorted({reading_scale(game), BUILD_SCALE}):
            fine = _frame(game, scale).fine
            for kind, hexes in inset_areas(game):
                polygons = [fine.corners(h) for h in hexes]
                inset = INSETS[kind] * fine.size_px
                rings[ring_key(polygons, inset, fine.size_px)] = shapely_inset_rings(polygons, inset, fine.size_px)
    # A key and its rings a line (floats written as repr: read back exactly).
    lines = [f"{json.dumps(key)}: {json.dumps(value)}" for key, value in sorted(rings.items())]
    KEPT_RINGS.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    kept.cache_clear()
    return KEPT_RINGS


if __name__ == "__main__":
    print(f"wrote {keep_rings()}")
