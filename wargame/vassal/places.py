"""Where a piece lies in one of our modules, by name: a hex label on the main map, a box or a
track space on the off-map board.

Given the module (`--module`), VASSAL's own grid and zones name the point, exactly as VASSAL
reports it. Without it, the main map's pixels go through the game's one `Layout` (house
style 2), which the module's grid is derived from; the off-map board is laid out from
`game.toml`'s boxes and tracks as the modules built before the board had zones (commit
543cd0a, which the recordings in tests/data/vassal were made with) drew it. Later modules size
their boxes from the counters and fonts, which only the module itself records, so for them the
reader takes box names from VASSAL's own chat reports or from the module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from wargame.game import Game
from wargame.hexes import Hex
from wargame.vassal.buildfile import ModuleInfo

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


def area_id(game: Game, name: str) -> str | None:
    """The box id or `track@value` a zone name of our modules stands for, if any."""
    # Zones are named after a box, or a track (without a last word "track"; "Turn" for the turn
    # track) and a value, as builder/render/holding.py names them.
    for box in game.manifest.box:
        if box.name == name:
            return box.id
    m = re.fullmatch(r"(.*\S)\s+(-?[0-9]{1,6})", name.strip())
    if m is None:
        return None
    prefix, value = m.group(1).lower(), int(m.group(2))
    for track in game.manifest.track:
        words = track.name.lower().split()
        names = {track.name.lower(), " ".join(words[:-1]) if words[-1:] == ["track"] else ""}
        if track.kind == "turn":
            names.add("turn")
        if prefix in names and track.first <= value <= track.last:
            return f"{track.id}@{value}"
    return None


class Places:
    """Names of map positions in one of our modules."""

    def __init__(self, game: Game, module: ModuleInfo | None = None, main_map: str = MAIN_MAP,
                 boxes_map: str = BOXES_MAP) -> None:
        self.game = game
        self.module = module
        self.main_map = main_map
        self.boxes_map = boxes_map
        self.areas = holding_areas(game)
        self.box_ids = {b.id for b in game.manifest.box}

    def named(self, name: str) -> Location:
        """The place a VASSAL location name (a hex label or a zone's name) stands for."""
        if self.game.grid.is_label(name):
            return Location("hex", name, self.game.grid.hex_of(name))
        area = area_id(self.game, name)
        if area is not None:
            return Location("box" if area in self.box_ids else "track", area)
        return Location("map", name)

    def _from_module(self, module: ModuleInfo, map_name: str, x: int, y: int) -> Location | None:
        info = module.maps.get(map_name)
        if info is None or not info.boards:
            return None
        # A single board at the map's edge offset (Map.setBoardBoundaries); ours have one each.
        board = info.boards[0]
        bx, by = x - info.origin[0], y - info.origin[1]
        for zone in board.zones:
            if zone.contains(bx, by):
                return self.named(zone.name)
        if board.hexes is not None:
            label = board.hexes.name_at(bx, by)
            found = self.named(label)
            return found if found.kind == "hex" else Location("off-grid", f"{map_name} {label}, off our map")
        return Location("map", f"{map_name} ({x}, {y})")

    def locate(self, map_name: str | None, x: int, y: int) -> Location:
        """The place a piece at (x, y) on a map is in."""
        if map_name is None:
            return NOWHERE
        if self.module is not None:
            found = self._from_module(self.module, map_name, x, y)
            if found is not None:
                return found
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
