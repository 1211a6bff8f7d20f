"""Where a piece lies in one of our modules, by name: a hex label on the main map, a box or a
track space on the off-map board.

Given the module (`--module`), VASSAL's own grid and zones name the point, exactly as VASSAL
reports it. Without it, the main map's pixels go through the game's one `Layout` (house
style 2), which the module's grid is derived from, and the off-map board is laid out by
wargame/holding.py, the geometry the builder draws the board and its zones with (boxes sized
from the largest set-up stack and the counter size, under bands for their titles). The modules
built before the board had zones (commit 543cd0a, which the recordings tests/data/vassal/
*-session.vlog and *-after-moves.vsav were made with) laid the board out with fixed boxes:
`fitted_places` falls back to that layout, `holding_areas_543cd0a`, for a saved position whose
set-up pieces it, and not today's, puts in their set-up places.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from wargame.game import Game
from wargame.hexes import Hex
from wargame.holding import counter_size_px, holding_geometry
from wargame.records import frozen
from wargame.vassal.buildfile import ModuleInfo
from wargame.vassal.pieces import Piece

MAIN_MAP = "Main Map"
BOXES_MAP = "Boxes and Tracks"

# The off-map board of the modules of commit 543cd0a: fixed boxes under fixed title bands.
OLD_BOX_W, OLD_BOX_H = 260, 150
OLD_SPACE = 64
OLD_MARGIN = 16
OLD_TITLE_H = 30
OLD_BOX_COLUMNS = 4
OLD_SPACES_PER_ROW = 15

Kind = Literal["hex", "box", "track", "off-grid", "map", "none"]


@frozen
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
    """Every box, then every track space (`track@value`), with its rectangle on today's off-map board."""
    geometry = holding_geometry(game, counter_size_px(game.layout))
    return [(area.location, area.rect) for area in geometry.areas]


def holding_areas_543cd0a(game: Game) -> list[tuple[str, Rect]]:
    """The same, on the off-map board of the modules of commit 543cd0a (the oldest recordings')."""
    areas: list[tuple[str, Rect]] = []
    y = OLD_MARGIN
    for index, box in enumerate(game.manifest.box):
        column, row = index % OLD_BOX_COLUMNS, index // OLD_BOX_COLUMNS
        x0 = OLD_MARGIN + column * (OLD_BOX_W + OLD_MARGIN)
        y0 = OLD_MARGIN + row * (OLD_BOX_H + OLD_MARGIN + OLD_TITLE_H)
        areas.append((box.id, (x0, y0 + OLD_TITLE_H, x0 + OLD_BOX_W + 1, y0 + OLD_TITLE_H + OLD_BOX_H + 1)))
        y = y0 + OLD_TITLE_H + OLD_BOX_H + OLD_MARGIN
    for track in game.manifest.track:
        y += OLD_TITLE_H
        for offset, value in enumerate(range(track.first, track.last + 1)):
            column, row = offset % OLD_SPACES_PER_ROW, offset // OLD_SPACES_PER_ROW
            x0, y0 = OLD_MARGIN + column * OLD_SPACE, y + row * OLD_SPACE
            areas.append((f"{track.id}@{value}", (x0, y0, x0 + OLD_SPACE, y0 + OLD_SPACE)))
        y += ((track.last - track.first) // OLD_SPACES_PER_ROW + 1) * OLD_SPACE + OLD_MARGIN
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
                 boxes_map: str = BOXES_MAP, areas: list[tuple[str, Rect]] | None = None) -> None:
        self.game = game
        self.module = module
        self.main_map = main_map
        self.boxes_map = boxes_map
        self.areas = holding_areas(game) if areas is None else areas
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


def fitted_places(game: Game, module: ModuleInfo | None, pieces: Iterable[Piece]) -> Places:
    """The places of a recording: the module's, else today's layout, or that of commit 543cd0a when
    it puts more of the saved position's off-map pieces in a place the set-up gives them."""
    if module is not None:
        return Places(game, module)
    setup: dict[str, set[str]] = {}
    for _, placement in game.setup:
        setup.setdefault(placement.piece, set()).add(placement.location)
    on_board = [p for p in pieces if p.map_name == BOXES_MAP]

    def fit(places: Places) -> int:
        """How many off-map pieces lie in a place the set-up gives them."""
        count = 0
        for piece in on_board:
            key = piece.properties.get("UnitId") or piece.properties.get("MarkerId") or ""
            if places.locate(piece.map_name, piece.x, piece.y).name in setup.get(key, ()):
                count += 1
        return count

    today, old = Places(game), Places(game, areas=holding_areas_543cd0a(game))
    return old if fit(old) > fit(today) else today
