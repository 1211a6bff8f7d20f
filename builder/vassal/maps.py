"""The module's two maps in the buildFile: the board with its hex grid and map key, the boxes and tracks with zones."""

from __future__ import annotations

import math

from lxml import etree

from builder.render.holding import STACK_OFFSET_PX, HoldingLayout
from builder.vassal.build_file import P, el
from wargame.game import Game
from wargame.layout import Layout, vassal_grid

MAIN_MAP = "Main Map"
BOXES_MAP = "Boxes and Tracks"
HOLDING_BOARD = "Boxes and tracks"
MAP_HANDLERS = ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Zoomer")
HANDLER_ATTRIBUTES: dict[str, dict[str, str]] = {
    # CounterDetailViewer's default minDisplayPieces is 2: no mouse-over for a lone counter. Its text
    # is off by default (showtext): on, it names the hex (our label, LocationName) and each counter,
    # which the pictures alone do not (checked in VASSAL 3.7.26).
    "CounterDetailViewer": {"minDisplayPieces": "1", "showtext": "true", "summaryReportFormat": "$LocationName$",
                            "counterReportFormat": "$PieceName$"},
}


def add_map(root: etree._Element, name: str, board: str, image: str, launch: bool) -> etree._Element:
    """A map of one board with its picker, stack metrics and mouse and key handlers."""
    m = el(root, "module.Map", mapName=name, markMoved="Always", edgeWidth="0", edgeHeight="0",
           backgroundcolor="255,255,255", allowMultiple="false", launch="true" if launch else "false",
           buttonName=name if launch else "", icon="", hotkey="", color="255,0,0", thickness="3",
           moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
           moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
           createFormat="$pieceName$ created in $location$ *", changeFormat="$message$")
    picker = el(m, "module.map.BoardPicker", title="Choose Boards", addColumnText="Add column",
                addRowText="Add row", boardPrompt="Select board", slotHeight="125", slotScale="0.2",
                slotWidth="350")
    el(picker, "module.map.boardPicker.Board", image=image, name=board, reversible="false")
    el(m, "module.map.StackMetrics", bottom="40,0", color="255,255,255", disabled="false", down="37,0",
       exSepX="6", exSepY="18", top="38,0", unexSepX=str(STACK_OFFSET_PX), unexSepY=str(STACK_OFFSET_PX),
       up="39,0")
    for handler in MAP_HANDLERS:
        el(m, "module.map." + handler, **HANDLER_ATTRIBUTES.get(handler, {}))
    return m


MAP_KEY = "Map key"
"""The zone of the board's title and legend strip (no hexes there)."""


def strip_rects(layout: Layout, game: Game, image_size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The parts of the board image beyond the map (the strip of title and legend, right or below)."""
    scale = layout.size_px / game.map.layout.hex_size_px
    map_w, map_h = layout.board_size(game.grid, game.map.layout.margin_px * scale)
    width, height = image_size
    rects = []
    if width > map_w:
        rects.append((math.ceil(map_w), 0, width, height))
    if height > map_h:
        rects.append((0, math.ceil(map_h), min(width, math.ceil(map_w)) if width > map_w else width, height))
    return rects


def add_zones(board: etree._Element, layout: HoldingLayout) -> None:
    """A ZonedGrid with one Zone per box and track space, so the chat names where a piece went."""
    # Without a grid, Map.locationName reports every point of the board as "offboard".
    grid = el(board, "module.map.boardPicker.board.ZonedGrid")
    spaces = set(layout.spaces)
    for area in layout.areas:
        x0, y0, x1, y1 = area.rect
        # Zone.locationName: locationFormat "$name$" gives the zone's own name, grid or not.
        zone = el(grid, "module.map.boardPicker.board.mapgrid.Zone", name=area.name,
                  path=f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}", locationFormat="$name$",
                  useParentGrid="false", useHighlight="false", highlightProperty="")
        if area in spaces:
            # A track space snaps a dropped marker to its seat below the number (Zone.snapTo ->
            # RegionGrid.doSnap, the nearest Region); boxes keep no grid, so pieces lie where dropped.
            regions = el(zone, "module.map.boardPicker.board.RegionGrid", snapto="true", visible="false",
                         fontsize="9")
            el(regions, "module.map.boardPicker.board.Region", name=area.name, originx=str(area.seat[0]),
               originy=str(area.seat[1]))


def add_main_map(root: etree._Element, game: Game, layout: Layout, image_size: tuple[int, int]) -> etree._Element:
    """The main map with the board and the grid derived from the board's own layout."""
    main = add_map(root, MAIN_MAP, game.map.name, "board.png", launch=False)
    board_el = main.find(f"{P}module.map.BoardPicker/{P}module.map.boardPicker.Board")
    assert board_el is not None
    grid_attrs = vassal_grid(layout, game.grid, image_size)
    # The hex grid is the ZonedGrid's background; the title and legend strip beside the map is a
    # zone of its own with no grid, so a counter dropped there is "Map key", not a hex off the map.
    zoned = el(board_el, "module.map.boardPicker.board.ZonedGrid")
    grid_el = etree.SubElement(zoned, P + "module.map.boardPicker.board.HexGrid", grid_attrs.hex_grid)
    etree.SubElement(grid_el, P + "module.map.boardPicker.board.mapgrid.HexGridNumbering", grid_attrs.numbering)
    for x0, y0, x1, y1 in strip_rects(layout, game, image_size):
        el(zoned, "module.map.boardPicker.board.mapgrid.Zone", name=MAP_KEY,
           path=f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}", locationFormat="$name$",
           useParentGrid="false", useHighlight="false", highlightProperty="")
    return main


def add_holding_map(root: etree._Element, layout: HoldingLayout) -> etree._Element:
    """The boxes and tracks map, a zone for each box and track space."""
    holding = add_map(root, BOXES_MAP, HOLDING_BOARD, "holding.png", launch=True)
    holding_board = holding.find(f"{P}module.map.BoardPicker/{P}module.map.boardPicker.Board")
    assert holding_board is not None
    add_zones(holding_board, layout)
    return holding
