"""Where a piece lies in one of our modules, by name: a hex label on the main map, a box or a
track space on the off-map board, from the game's own data.

The main map's pixels go through the game's one `Layout` (house style 2), so a hex is named
here as the builder drew it and as the module's grid numbers it. The off-map board is laid out
from `game.toml`'s boxes and tracks in the order and sizes the builder draws it
(builder/render/holding.py `holding_layout`; tests/test_vassal_reader.py checks that the two agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from wargame.game import Game
from wargame.hexes import Hex

MAIN_MAP = "Main Map"
BOXES_MAP = "Boxes and Tracks"

# The off-map board's geometry, as builder/render/holding.py draws it.
BOX_W, BOX_H = 260, 150
SPACE = 64
MARGIN = 16
TITLE_H = 30
BOX_COLUMNS = 4
SPACES_PER_ROW = 15

Kind = Literal["hex", "box", "track", "off-grid", "map", "none"]


@dataclass(frozen=True)
class Location:
    """A named place: a hex label, a box id, a `track@value` space, or a raw map position."""

    kind: Kind
    name: str
    hex: Hex | None = None

    @property
    def is_hex(self) -> bool:
        """True for a hex of the map."""
        return self.kind == "hex"

    def __str__(self) -> str:
        return self.name


NOWHERE = Location("none", "out of play")


Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in board pixels, x1 and y1 just outside (half-open, as java.awt.Polygon counts)."""


def holding_areas(game: Game) -> list[tuple[str, Rect]]:
    """Every box, then every track space (`track@value`), with its rectangle on the off-map board."""
    areas: list[tuple[str, Rect]] = []
    y = MARGIN
    for index, box in enumerate(game.manifest.box):
        column, row = index % BOX_COLUMNS, index // BOX_COLUMNS
        x0 = MARGIN + column * (BOX_W + MARGIN)
        y0 = MARGIN + row * (BOX_H + MARGIN + TITLE_H)
        areas.append((box.id, (x0, y0 + TITLE_H, x0 + BOX_W + 1, y0 + TITLE_H + BOX_H + 1)))
        y = y0 + TITLE_H + BOX_H + MARGIN
    for track in game.manifest.track:
        y += TITLE_H
        for offset, value in enumerate(range(track.first, track.last + 1)):
            column, row = offset % SPACES_PER_ROW, offset // SPACES_PER_ROW
            x0, y0 = MARGIN + column * SPACE, y + row * SPACE
            areas.append((f"{track.id}@{value}", (x0, y0, x0 + SPACE, y0 + SPACE)))
        y += ((track.last - track.first) // SPACES_PER_ROW + 1) * SPACE + MARGIN
    return areas


class Places:
    """Names of map positions in one of our modules."""

    def __init__(self, game: Game, main_map: str = MAIN_MAP, boxes_map: str = BOXES_MAP) -> None:
        self.game = game
        self.main_map = main_map
        self.boxes_map = boxes_map
        self.areas = holding_areas(game)
        self.box_ids = {b.id for b in game.manifest.box}

    def locate(self, map_name: str | None, x: int, y: int) -> Location:
        """The place a piece at (x, y) on a map is in."""
        if map_name is None:
            return NOWHERE
        if map_name == self.main_map:
            h = self.game.layout.pixel_to_hex(x, y)
            if h in self.game.grid:
                return Location("hex", self.game.grid.label_of(h), h)
            return Location("off-grid", f"{map_name} ({x}, {y}), off the hex grid")
        if map_name == self.boxes_map:
            for name, (x0, y0, x1, y1) in self.areas:
                if x0 <= x < x1 and y0 <= y < y1:
                    return Location("box" if name in self.box_ids else "track", name)
        return Location("map", f"{map_name} ({x}, {y})")
