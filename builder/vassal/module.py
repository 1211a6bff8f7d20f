"""Assemble a playable VASSAL 3.7 module (.vmod) for a game: art, buildFile, set-ups, zip.

The module's hex grid is derived from the same `Layout` the board was drawn with, every unit
is a two-sided piece carrying its unit id as a property (the log reader's stable mapping), and
the whole archive is deterministic (sorted entries, fixed times, stable ids).
"""

from __future__ import annotations

import html
import io
import math
import mmap
import multiprocessing
import os
from collections import Counter, defaultdict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from lxml import etree
from PIL import Image

from builder.render.board import board_image_size, board_layout, render_board
from builder.render.charts import chart_sheets, render_charts
from builder.render.counters import (
    counter_size_px, image_name, marker_back, marker_faces, marker_image_name, render_marker, render_unit,
)
from builder.render.holding import STACK_OFFSET_PX, HoldingBoard, HoldingLayout, render_holding_board
from builder.vassal.declare import add_toolbar, help_html, marker_traits, unit_traits
from builder.vassal.decks import DECK_DRAWN_PX, DECK_MAX_DRAWN, Cup, add_decks, draw_pile_attributes
from builder.vassal.traits import mask
from wargame.vassal.archive import zip_bytes
from wargame.vassal.encoding import (
    Trait, add_piece, basic_piece, basic_state, chain, delete, layer_two_sided, properties, report_flip,
    use_prototype,
)
from wargame.vassal.savefile import PlacedPiece, command_tree, save_archive
from wargame.game import Game
from wargame.errors import DataError, Place
from wargame.sequence import turn_sequence
from wargame.layout import Layout, board_too_large, vassal_grid
from wargame.models import Marker, Placement, Unit

P = "VASSAL.build."
MAIN_MAP = "Main Map"
BOXES_MAP = "Boxes and Tracks"
HOLDING_BOARD = "Boxes and tracks"
VASSAL_VERSION = "3.7.0"
DOCKED_PALETTE_PX = 500
"""Least width of the palette docked into the main window (PieceWindow defaultWidth)."""
DOCKED_PALETTE_MAX_PX = 800
TURN_LIST_PX = 110
"""Room for the list of turns beside one turn's reinforcements (ListWidget), and a margin."""
UNIT_COLUMNS = 10
MARKER_COLUMNS = 8


@dataclass(frozen=True)
class Art:
    """Every picture a module needs, by archive name (without the images/ prefix)."""

    board: Image.Image
    layout: Layout
    counter_px: int
    holding: HoldingBoard
    counters: dict[str, Image.Image]
    charts: dict[str, Image.Image]
    chart_names: dict[str, str]
    encoded: dict[str, tuple[Image.Image, bytes]] = field(default_factory=dict)
    """PNG bytes made while the board was drawn, by archive name (images/...), with the image
    they encode (used only while the Art still holds that very image)."""


@dataclass
class PieceDef:
    """A piece definition: its traits (outermost first) and what it stands for."""

    name: str
    traits: list[Trait]
    slot_px: int
    gpids: list[str] = field(default_factory=list)


PNG_COMPRESS_LEVEL = 3
"""zlib level of the module's PNGs: a third less encoding time than Pillow's default 6 for files
about 4% larger (bench/build.py)."""


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def encode_pngs(images: dict[str, Image.Image]) -> dict[str, bytes]:
    """Every image as PNG bytes, in the same order; encoded on worker threads, largest first.

    Pillow releases the GIL while zlib compresses, and each encoding is independent of the
    others, so the bytes are those of encoding one image after another.
    """
    largest_first = sorted(images, key=lambda name: -images[name].width * images[name].height)
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        encoded = dict(zip(largest_first, pool.map(lambda name: _png(images[name]), largest_first)))
    return {name: encoded[name] for name in images}


def unit_image(unit_id: str, face: str) -> str:
    """Archive image name of a unit face (ids may hold '/')."""
    return image_name(unit_id, face)


def draw_art(game: Game, scale: float = 1.0) -> Art:
    """Render board, holding board, counters and charts for a game."""
    too_large = board_too_large(game.map.grid, game.map.layout.hex_size_px, game.map.layout.margin_px, scale)
    if too_large is not None:
        raise DataError(too_large, Place(game.files["map"], key="grid"))
    layout = board_layout(game, scale)
    size_px = counter_size_px(layout)
    # The board takes longest: it is drawn (and encoded) elsewhere while the rest is drawn here.
    board = _BoardDrawing(game, scale)
    try:
        return _draw_the_rest(game, layout, size_px, board)
    finally:
        board.close()


def _board_and_png(game: Game, scale: float) -> tuple[Image.Image, bytes]:
    """The board and its PNG bytes."""
    image = render_board(game, scale)
    return image, _png(image)


def _draw_board_child(send: Connection, pixels: mmap.mmap, game: Game, scale: float) -> None:
    """In a forked process: the board's pixels into the shared buffer and its PNG bytes sent,
    or the error drawing it."""
    try:
        image, png = _board_and_png(game, scale)
        if image.mode != "RGB" or len(pixels) != image.width * image.height * 3:
            raise RuntimeError(f"the board came out {image.mode} {image.size}, not as board_image_size says")
        pixels[:] = image.tobytes()
        send.send(("board", image.size, png))
    except Exception as error:  # every failure goes back to the parent, to be raised there
        try:
            send.send(("error", error))
        except Exception:  # an error that does not pickle goes back as its text
            send.send(("error", RuntimeError(f"drawing the board failed: {error!r}")))
    finally:
        send.close()


class _BoardDrawing:
    """The board drawn and encoded in a forked process, where its Python does not wait for
    the GIL that drawing the counters and charts holds (a worker thread overlapped only
    Pillow's own loops); in a thread where the platform cannot fork. The pixels come back
    through memory shared with the child (a pipe took a quarter of a second for them)."""

    def __init__(self, game: Game, scale: float) -> None:
        self._thread: ThreadPoolExecutor | None = None
        self._future: Future[tuple[Image.Image, bytes]] | None = None
        if "fork" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("fork")
            width, height = board_image_size(game, scale)
            self._received = False
            self._pixels = mmap.mmap(-1, width * height * 3)
            self._receive, send = context.Pipe(duplex=False)
            self._process = context.Process(target=_draw_board_child, args=(send, self._pixels, game, scale),
                                            daemon=True)
            self._process.start()
            send.close()
        else:
            self._thread = ThreadPoolExecutor(1)
            self._future = self._thread.submit(_board_and_png, game, scale)

    def result(self) -> tuple[Image.Image, bytes]:
        """The board and its PNG bytes, once they are ready; the drawing's error if it failed."""
        if self._future is not None and self._thread is not None:
            try:
                return self._future.result()
            finally:
                self._thread.shutdown()
        try:
            message = self._receive.recv()
            self._received = True
        except EOFError:
            self._process.join()
            message = ("error", RuntimeError(f"the process drawing the board died (exit code {self._process.exitcode})"))
        if message[0] == "error":
            raise message[1]
        _, size, png = message
        return Image.frombytes("RGB", size, bytes(self._pixels)), png

    def close(self) -> None:
        """Stop a drawing nobody waits for any more (the rest failed) and free what it holds."""
        if self._thread is not None:
            self._thread.shutdown(cancel_futures=True)
            return
        if not self._received and self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._receive.close()
        self._pixels.close()


def _draw_the_rest(game: Game, layout: Layout, size_px: int, board: _BoardDrawing) -> Art:
    """Counters, holding board and charts, then the Art with the board when it is done."""
    counters: dict[str, Image.Image] = {}
    for _, unit in game.units:
        counters[unit_image(unit.id, "full")] = render_unit(game, unit, "full", size_px)
        if unit.steps >= 2:
            counters[unit_image(unit.id, "reduced")] = render_unit(game, unit, "reduced", size_px)
    for marker in game.markers.marker:
        for face in range(marker_faces(marker)):
            counters[marker_image_name(marker.id, face)] = render_marker(game, marker, face, size_px)
    for side in sorted({s or "" for s in cup_markers(game).values()}):
        counters[mask_image(side)] = marker_back(game, side or None, size_px)
    sheets = chart_sheets(game)
    holding = render_holding_board(game, size_px)
    charts = render_charts(game)
    # The board is still being drawn: encode the rest meanwhile.
    pictures = _pictures(counters, None, holding.image, charts)
    encoded = {name: (pictures[name], data) for name, data in encode_pngs(pictures).items()}
    image, png = board.result()
    encoded["images/board.png"] = (image, png)
    return Art(image, layout, size_px, holding, counters, charts,
               {chart_id: sheet.title for chart_id, sheet in sheets.items()}, encoded)


def _pictures(counters: dict[str, Image.Image], board: Image.Image | None, holding: Image.Image,
              charts: dict[str, Image.Image]) -> dict[str, Image.Image]:
    """Images by archive name, in archive order (the board left out when None)."""
    pictures = {f"images/{name}": img for name, img in counters.items()}
    if board is not None:
        pictures["images/board.png"] = board
    pictures["images/holding.png"] = holding
    for chart_id, img in charts.items():
        pictures[f"images/chart-{chart_id}.png"] = img
    return pictures


# -- draw cups ------------------------------------------------------------------------------
def cup_markers(game: Game) -> dict[str, str | None]:
    """Markers some scenario puts in a draw cup, with their side: they are drawn unseen."""
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    sides = {mk.id: mk.side for mk in game.markers.marker}
    return {p.piece: sides[p.piece] for _, p in game.setup if p.location in cups and p.piece in sides}


def mask_image(side: str) -> str:
    """Archive image name of the face-down side of a side's cup markers."""
    return image_name(f"cup-{side or 'neutral'}", "back")


def cup_of(game: Game, art: Art, box_id: str, pieces: int) -> Cup:
    """Where a cup's deck lies: centred in its box, allowing for the cards Deck.draw shows under the top one."""
    box = next(a for a in art.holding.layout.boxes if a.location == box_id)
    x0, y0, x1, y1 = box.rect
    climb = (min(pieces, DECK_MAX_DRAWN) - 1) * DECK_DRAWN_PX
    name = next(b.name for b in game.manifest.box if b.id == box_id)
    return Cup(name, BOXES_MAP, HOLDING_BOARD, (x0 + x1 - climb) // 2, (y0 + y1 + climb) // 2, art.counter_px)


# -- pieces ---------------------------------------------------------------------------------
def unit_prototype_name(game: Game, unit: Unit) -> str:
    """The prototype of a unit's type (traits shared by every unit of the type)."""
    return f"{game.manifest.id} {unit.type}"


def prototypes(game: Game) -> dict[str, list[Trait]]:
    """Prototype traits by name: one per unit type, one for markers."""
    names = {t.id: t.name for t in game.manifest.unit_type}
    out: dict[str, list[Trait]] = {}
    for type_id in sorted(names):
        out[f"{game.manifest.id} {type_id}"] = [
            properties({"Type": names[type_id], "Game": game.manifest.id}),
            *unit_traits(game),
            report_flip("$oldPieceName$ flipped to $newPieceName$ at $location$ *"),
            delete(),
            basic_piece(""),
        ]
    out[f"{game.manifest.id} marker"] = [properties({"Game": game.manifest.id}), delete(), basic_piece("")]
    return out


def starting_face(game: Game, placement: Placement, piece: PieceDef) -> PieceDef:
    """The piece as set up: a two-step unit of a side whose rules set it up reduced (rules.toml's start_reduced)
    shows its reduced face (the layer's second level), sharing the definition's slots."""
    unit = game.units_by_id.get(placement.piece)
    if unit is None or unit.steps < 2 or game.rules is None or unit.side not in game.rules.start_reduced \
            or not game.grid.is_label(placement.location):
        return piece
    return PieceDef(piece.name, [Trait(t.type, "2") if t.type.startswith("emb2;") else t for t in piece.traits],
                    piece.slot_px, piece.gpids)


def unit_piece(game: Game, unit: Unit, size_px: int) -> PieceDef:
    """A unit as a piece: properties, its type's prototype, the two-sided layer."""
    values = "-".join(map(str, unit.full))
    props = {
        "UnitId": unit.id, "Side": unit.side, "Nationality": unit.nationality, "UnitType": unit.type,
        "Mobility": unit.mobility, "Size": unit.size, "Steps": str(unit.steps), "Values": values,
        "Reduced": "-".join(map(str, unit.reduced)) if unit.reduced else "", "ZOC": "yes" if unit.zoc else "no",
    }
    traits = [properties(props), use_prototype(unit_prototype_name(game, unit))]
    if unit.steps >= 2:
        traits.append(layer_two_sided([unit_image(unit.id, "full"), unit_image(unit.id, "reduced")],
                                      ["", "+ (reduced)"]))
        traits.append(basic_piece(unit.id, ""))
    else:
        traits.append(basic_piece(unit.id, unit_image(unit.id, "full")))
    return PieceDef(unit.id, traits, size_px)


def marker_piece(game: Game, marker: Marker, faces: int, size_px: int, masked: bool = False) -> PieceDef:
    """A marker as a piece (two-sided when it has a flip side; masked when it is drawn from a cup)."""
    props = {"MarkerId": marker.id, "Kind": marker.kind, "Side": marker.side or "",
             "Value": "" if marker.value is None else str(marker.value)}
    traits = [properties(props), *marker_traits(game, marker.kind), use_prototype(f"{game.manifest.id} marker")]
    if masked:
        # Outermost, so a face-down deck (Properties.OBSCURED_BY) hides every face of the marker.
        traits.insert(0, mask(mask_image(marker.side or ""), f"{marker.side or 'A'} marker (face down)"))
    if faces > 1:
        # 8.2: a supply marker flips to its +30/+20 side above the track's last space; say so in the chat.
        traits.insert(1, report_flip("$oldPieceName$ flipped to $newPieceName$ at $location$ *"))
        # Embellishment.getName splits a level name at '+' (SequenceEncoder): "+x" is a suffix, and
        # a '+' of the text itself ("+30") must be escaped, or the name reads "Allied supply (".
        texts = [(marker.text or str(f + 1)).replace("+", "\\+") for f in range(1, faces)]
        suffixes = [f"+ ({text})" for text in texts]
        traits.append(layer_two_sided([marker_image_name(marker.id, f) for f in range(faces)], ["", *suffixes]))
        traits.append(basic_piece(marker.name, ""))
    else:
        traits.append(basic_piece(marker.name, marker_image_name(marker.id, 0)))
    return PieceDef(marker.name, traits, size_px)


def expanded(traits: list[Trait], protos: dict[str, list[Trait]]) -> list[Trait]:
    """Traits with prototypes replaced by their own traits, as VASSAL keeps pieces in play."""
    out: list[Trait] = []
    for trait in traits:
        if trait.type.startswith("prototype;"):
            out += protos[trait.type.removeprefix("prototype;")][:-1]
        else:
            out.append(trait)
    return out


# -- the buildFile ------------------------------------------------------------------------------
class SlotIds:
    """Hands out PieceSlot gpids in build order (stable for the same data)."""

    def __init__(self) -> None:
        self.next = 1

    def take(self) -> str:
        """A new gpid."""
        gpid = str(self.next)
        self.next += 1
        return gpid


def _el(parent: etree._Element, tag: str, **attrs: str) -> etree._Element:
    return etree.SubElement(parent, P + tag, {k: v for k, v in attrs.items()})


def _slot(parent: etree._Element, piece: PieceDef, ids: SlotIds, tag: str = "widget.PieceSlot") -> str:
    gpid = ids.take()
    slot = _el(parent, tag, entryName=piece.name, gpid=gpid,
               width=str(piece.slot_px), height=str(piece.slot_px))
    slot.text = add_piece(piece.traits, gpid)
    piece.gpids.append(gpid)
    return gpid


MAP_HANDLERS = ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Zoomer")
HANDLER_ATTRIBUTES: dict[str, dict[str, str]] = {
    # CounterDetailViewer's default minDisplayPieces is 2: no mouse-over for a lone counter. Its text
    # is off by default (showtext): on, it names the hex (our label, LocationName) and each counter,
    # which the pictures alone do not (checked in VASSAL 3.7.26).
    "CounterDetailViewer": {"minDisplayPieces": "1", "showtext": "true", "summaryReportFormat": "$LocationName$",
                            "counterReportFormat": "$PieceName$"},
}


def _map(root: etree._Element, name: str, board: str, image: str, launch: bool) -> etree._Element:
    m = _el(root, "module.Map", mapName=name, markMoved="Always", edgeWidth="0", edgeHeight="0",
            backgroundcolor="255,255,255", allowMultiple="false", launch="true" if launch else "false",
            buttonName=name if launch else "", icon="", hotkey="", color="255,0,0", thickness="3",
            moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
            moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
            createFormat="$pieceName$ created in $location$ *", changeFormat="$message$")
    picker = _el(m, "module.map.BoardPicker", title="Choose Boards", addColumnText="Add column",
                 addRowText="Add row", boardPrompt="Select board", slotHeight="125", slotScale="0.2",
                 slotWidth="350")
    _el(picker, "module.map.boardPicker.Board", image=image, name=board, reversible="false")
    _el(m, "module.map.StackMetrics", bottom="40,0", color="255,255,255", disabled="false", down="37,0",
        exSepX="6", exSepY="18", top="38,0", unexSepX=str(STACK_OFFSET_PX), unexSepY=str(STACK_OFFSET_PX),
        up="39,0")
    for handler in MAP_HANDLERS:
        _el(m, "module.map." + handler, **HANDLER_ATTRIBUTES.get(handler, {}))
    return m


MAP_KEY = "Map key"
"""The zone of the board's title and legend strip (no hexes there)."""


def _strip_rects(layout: Layout, game: Game, image_size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
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


def _zones(board: etree._Element, layout: HoldingLayout) -> None:
    """A ZonedGrid with one Zone per box and track space, so the chat names where a piece went."""
    # Without a grid, Map.locationName reports every point of the board as "offboard".
    grid = _el(board, "module.map.boardPicker.board.ZonedGrid")
    spaces = set(layout.spaces)
    for area in layout.areas:
        x0, y0, x1, y1 = area.rect
        # Zone.locationName: locationFormat "$name$" gives the zone's own name, grid or not.
        zone = _el(grid, "module.map.boardPicker.board.mapgrid.Zone", name=area.name,
                   path=f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}", locationFormat="$name$",
                   useParentGrid="false", useHighlight="false", highlightProperty="")
        if area in spaces:
            # A track space snaps a dropped marker to its seat below the number (Zone.snapTo ->
            # RegionGrid.doSnap, the nearest Region); boxes keep no grid, so pieces lie where dropped.
            regions = _el(zone, "module.map.boardPicker.board.RegionGrid", snapto="true", visible="false",
                          fontsize="9")
            _el(regions, "module.map.boardPicker.board.Region", name=area.name, originx=str(area.seat[0]),
                originy=str(area.seat[1]))


def _turn_levels(game: Game) -> list[str]:
    """The steps or phases a turn runs through, for the turn tracker (4.0 / 4.1), from the game's sequence.

    The opening played once before the first turn (Omaha's set-up and landing, 11.2) is not a level: a
    tracker's list repeats every turn and starts at turn 1, so the players play the opening before they
    first step the tracker (the VASSAL reader reads what comes before as the opening, docs/vassal-logs.md)."""
    return [slot.name for slot in turn_sequence(game.manifest)] or ["Turn"]


def _help_html(game: Game) -> str:
    """The module's help page: provenance notice and how to play with it."""
    m = game.manifest
    rows = "".join(f"<li>{html.escape(t.name)}</li>" for t in m.unit_type)
    cups = ("<li>A draw cup is a face-down deck: a drag from it draws one marker at random, which only you see\n"
            "until you reveal it (Mask, Ctrl+M); a marker dropped on a cup goes back into it.</li>\n"
            if any(b.kind == "draw_cup" for b in m.box) else "")
    return f"""<html><head><meta charset="utf-8"><title>{html.escape(m.title)}</title></head><body>
<h1>{html.escape(m.title)}</h1>
<p>Built by Umpire from the game's data files. <b>Reconstructed data:</b> the rulebook does not give
the map, the counter values, the schedules or (for some games) the combat table; those values are
reconstructed from history and geography and marked <i>reconstructed</i> in the data. See
PROVENANCE.md in the Umpire project for every reconstruction; a player who owns the printed game
can correct any value in one data file and rebuild the module.</p>
<h2>Playing</h2>
<ul><li>Drag counters; moves are reported in the chat with hex labels as printed, and with box
names or track spaces (<i>Turn 3</i>) in the <i>{BOXES_MAP}</i> window.</li>
<li>Ctrl+F flips a unit to its depleted side and back; Ctrl+D deletes a piece.</li>
{cups}<li>The <i>{BOXES_MAP}</i> window holds the boxes and tracks; palettes hold reinforcements by turn,
every unit and every marker.</li>
<li>Each unit carries the property <i>UnitId</i>, which the Umpire referee reads from saved logs.</li></ul>
{help_html(game)}<h2>Unit types</h2><ul>{rows}</ul></body></html>
"""


@dataclass
class BuiltModule:
    """The archive bytes and what went into it (for tests and the benchmark)."""

    data: bytes
    build_file: bytes
    images: dict[str, bytes]


def build_module(game: Game, version: str, art: Art) -> BuiltModule:
    """The .vmod archive for a game."""
    m = game.manifest
    board_name = game.map.name
    root = etree.Element(P + "GameModule", ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION,
                         description=f"{m.title}: built by Umpire; much of its data is reconstructed (see Help).",
                         name=m.title, nextPieceSlotId="0", version=version)
    _el(root, "module.BasicCommandEncoder")
    docs = _el(root, "module.Documentation")
    del docs
    roster = _el(root, "module.PlayerRoster", buttonKeyStroke="", buttonText="Retire", buttonToolTip="Switch sides")
    # PlayerRoster offers its own <observer>; an "Observer" entry would be a claimable side.
    for side in m.sides:
        entry = etree.SubElement(roster, "entry")
        entry.text = side
    _el(root, "module.GlobalOptions", autoReport="Always", centerOnMove="Use Preferences Setting",
        chatterHTMLSupport="Always", hotKeysOnClosedWindows="Never", inventoryForAll="Always",
        nonOwnerUnmaskable="Never", playerIdFormat="$PlayerName$", promptString="Opponents can unmask pieces",
        sendToLocationMoveTrails="Never", storeLeadingZeroIntegersAsStrings="true")

    ids = SlotIds()
    protos = prototypes(game)
    units = {u.id: unit_piece(game, u, art.counter_px) for _, u in sorted(game.units, key=lambda r: r[1].id)}
    masked = cup_markers(game)
    markers = {mk.id: marker_piece(game, mk, marker_faces(mk), art.counter_px, mk.id in masked)
               for mk in sorted(game.markers.marker, key=lambda x: x.id)}
    cups = {b.id for b in m.box if b.kind == "draw_cup"}

    # Main map with the board and the grid derived from the board's own layout.
    main = _map(root, MAIN_MAP, board_name, "board.png", launch=False)
    board_el = main.find(f"{P}module.map.BoardPicker/{P}module.map.boardPicker.Board")
    assert board_el is not None
    grid_attrs = vassal_grid(art.layout, game.grid, art.board.size)
    # The hex grid is the ZonedGrid's background; the title and legend strip beside the map is a
    # zone of its own with no grid, so a counter dropped there is "Map key", not a hex off the map.
    zoned = _el(board_el, "module.map.boardPicker.board.ZonedGrid")
    grid_el = etree.SubElement(zoned, P + "module.map.boardPicker.board.HexGrid", grid_attrs.hex_grid)
    etree.SubElement(grid_el, P + "module.map.boardPicker.board.mapgrid.HexGridNumbering", grid_attrs.numbering)
    for x0, y0, x1, y1 in _strip_rects(art.layout, game, art.board.size):
        _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", name=MAP_KEY,
            path=f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}", locationFormat="$name$",
            useParentGrid="false", useHighlight="false", highlightProperty="")
    holding = _map(root, BOXES_MAP, HOLDING_BOARD, "holding.png", launch=True)
    holding_board = holding.find(f"{P}module.map.BoardPicker/{P}module.map.boardPicker.Board")
    assert holding_board is not None
    _zones(holding_board, art.holding.layout)

    scenario = m.scenario[0]
    stacks: dict[tuple[str, str], list[PieceDef]] = defaultdict(list)
    for _, placement in game.setup:
        if placement.scenario != scenario.id:
            continue
        piece = starting_face(game, placement, units.get(placement.piece) or markers[placement.piece])
        stacks[("hex" if game.grid.is_label(placement.location) else "box", placement.location)] += [piece] * placement.count
    for (kind, location), pieces in sorted(stacks.items()):
        if kind == "hex":
            stack = _el(main, "module.map.SetupStack", name=f"Set-up {location}", owningBoard=board_name,
                        useGridLocation="true", location=location, x="0", y="0")
        elif location in cups:
            # A cup is a face-down deck: a drag draws one marker at random (DrawPile, Deck.drawCards).
            cup = cup_of(game, art, location, len(pieces))
            pile = _el(holding, "module.map.DrawPile", **draw_pile_attributes(cup))
            for piece in pieces:
                _slot(pile, piece, ids, "widget.CardSlot")
            continue
        else:
            x, y = art.holding.location_of(location) or (0, 0)
            stack = _el(holding, "module.map.SetupStack", name=f"Set-up {location}", owningBoard=HOLDING_BOARD,
                        useGridLocation="false", location="", x=str(x), y=str(y))
        for piece in pieces:
            _slot(stack, piece, ids)

    proto_box = _el(root, "module.PrototypesContainer")
    for name, traits in protos.items():
        definition = _el(proto_box, "module.PrototypeDefinition", name=name, description="")
        definition.text = add_piece(traits, "")

    # Palettes: reinforcements by scenario, side and turn; every unit; every marker.
    # The first visible PieceWindow docks into the main window (PieceWindow.addTo/dockMe); with
    # defaultWidth 0 its split pane opens as a sliver. It is as tall as the chat (Map docks the map
    # below the chat's preferred height), so it is made wide enough for two rows of the largest turn.
    per_turn = Counter((a.scenario, a.turn, game.units_by_id[a.unit].side) for _, a in game.reinforcements)
    wanted_columns = (max(per_turn.values(), default=1) + 1) // 2
    docked_px = min(max(wanted_columns * art.counter_px + TURN_LIST_PX, DOCKED_PALETTE_PX), DOCKED_PALETTE_MAX_PX)
    window = _el(root, "module.PieceWindow", name="Reinforcements", text="Reinforcements",
                 tooltip="Reinforcements by turn", icon="", hotkey="", hidden="false", scale="1.0",
                 defaultWidth=str(docked_px))
    tabs = _el(window, "widget.TabWidget", entryName="Reinforcements")
    # ListWidget: a turn's counters left of the divider, the list of turns right of it.
    turn_panel_px = docked_px - TURN_LIST_PX
    turn_columns = max(1, turn_panel_px // art.counter_px)
    for scen in m.scenario:
        for side in m.sides:
            arrivals = sorted((a.turn, a.unit) for _, a in game.reinforcements
                              if a.scenario == scen.id and game.units_by_id[a.unit].side == side)
            if not arrivals:
                continue
            panel = _el(tabs, "widget.ListWidget", entryName=f"{side} ({scen.name})", divider=str(turn_panel_px),
                        height="0", width="0", scale="1.0")
            by_turn: dict[int, list[str]] = defaultdict(list)
            for turn, unit_id in arrivals:
                by_turn[turn].append(unit_id)
            for turn, unit_ids in sorted(by_turn.items()):
                # PanelWidget.getLayout: only fixed="true" gives a grid of nColumns; otherwise one row.
                group = _el(panel, "widget.PanelWidget", entryName=f"Turn {turn}", fixed="true",
                            nColumns=str(turn_columns), vert="false", scale="1.0")
                for unit_id in unit_ids:
                    _slot(group, units[unit_id], ids)
    window = _el(root, "module.PieceWindow", name="Units", text="Units", tooltip="Every unit", icon="",
                 hotkey="", hidden="false", scale="1.0", defaultWidth=str(DOCKED_PALETTE_PX))
    tabs = _el(window, "widget.TabWidget", entryName="Units")
    for side in m.sides:
        panel = _el(tabs, "widget.PanelWidget", entryName=side, fixed="true", nColumns=str(UNIT_COLUMNS),
                    vert="false", scale="1.0")
        for unit_id, piece in units.items():
            if game.units_by_id[unit_id].side == side:
                _slot(panel, piece, ids)
    window = _el(root, "module.PieceWindow", name="Markers", text="Markers", tooltip="Every marker", icon="",
                 hotkey="", hidden="false", scale="1.0", defaultWidth=str(DOCKED_PALETTE_PX))
    panel = _el(window, "widget.PanelWidget", entryName="Markers", fixed="true", nColumns=str(MARKER_COLUMNS),
                vert="false", scale="1.0")
    for piece in markers.values():
        _slot(panel, piece, ids)

    _el(root, "module.DiceButton", name="1d6", text="1d6", tooltip="Roll one die", icon="", hotkey="54,130",
        nDice="1", nSides="6", plus="0", addToTotal="0", reportTotal="false", prompt="false", sortDice="false",
        keepDice="false", keepOption=">", keepCount="1", lockDice="false", lockSides="false", lockPlus="false",
        lockAdd="false", canDisable="false", hideWhenDisabled="false", propertyGate="",
        reportFormat="** $name$ = $result$ *** &lt;$PlayerName$&gt;")
    last_turn = max(s.last_turn for s in m.scenario)
    tracker = _el(root, "module.turn.TurnTracker", name="Turn", buttonText="Turn", icon="", hotkey="",
                  nexthotkey="39,130", prevhotkey="37,130", length="-1", lengthStyle="Maximum",
                  tooltip="Turn and phase", turnFormat="Turn $level1$ - $level2$",
                  reportFormat="&lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$")
    level = _el(tracker, "module.turn.CounterTurnLevel", property="Turn", start=str(scenario.first_turn), incr="1",
                loop="false", loopLimit=str(last_turn), turnFormat="$value$")
    _el(level, "module.turn.ListTurnLevel", property="Phase", list=",".join(n.replace(",", " ") for n in _turn_levels(game)),
        configFirst="false", configList="false", turnFormat="$value$")
    charts = _el(root, "module.ChartWindow", name="Charts", text="Charts", tooltip="Charts and tables", icon="",
                 hotkey="", description="")
    tabs = _el(charts, "widget.TabWidget", entryName="Charts")
    # Tabs in the charts' own order (combat results first), named by each chart's title.
    for chart_id in art.charts:
        _el(tabs, "widget.Chart", chartName=art.chart_names[chart_id], description="",
            fileName=f"chart-{chart_id}.png")
    _el(tabs, "widget.HtmlChart", chartName="Help", description="", fileName="help.html")
    _el(root, "module.Inventory", name="Inventory", text="Inventory", tooltip="Where every unit is", icon="",
        hotkey="", include="{UnitId!=\"\"}", groupBy="Side,UnitType", leafFormat="$PieceName$ ($LocationName$)",
        nonLeafFormat="$PropertyValue$", sortFormat="$PieceName$", sorting="alpha", cutRoot="0", cutLeaves="0",
        centerOnPiece="true", forwardKeystroke="true", showMenu="true", drawPieces="true", foldersOnly="false",
        sortPieces="true", zoomOn="false", pieceZoom="0.33", pieceZoom2="0.5", pieceZoom3="0.6", sides="",
        launchFunction="functionHide", refreshHotkey="")
    for scen in m.scenario:
        _el(root, "module.PredefinedSetup", name=scen.name, file=f"{scen.id}.vsav", useFile="true",
            isMenu="false", description="")
    add_toolbar(root, game, _el)
    _el(root, "module.Chatter")
    _el(root, "module.KeyNamer")
    root.set("nextPieceSlotId", str(ids.next))

    build_file = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
    # VASSAL looks for GameModule in the first lines when moduledata is missing; keep a newline after the declaration.
    pictures = _pictures(art.counters, art.board, art.holding.image, art.charts)
    ready = {name: art.encoded[name][1] for name, img in pictures.items()
             if name in art.encoded and art.encoded[name][0] is img}
    fresh = encode_pngs({name: img for name, img in pictures.items() if name not in ready})
    images = {name: ready[name] if name in ready else fresh[name] for name in pictures}
    moduledata = _metadata(m.title, version, game)
    entries = {"buildFile.xml": build_file, "moduledata": moduledata, "help.html": _help_html(game).encode("utf-8"),
               **images}
    for scen in m.scenario:
        entries[f"{scen.id}.vsav"] = _setup_save(game, scen.id, units, markers, protos, art, version, moduledata)
    return BuiltModule(zip_bytes(entries), build_file, images)


def _metadata(name: str, version: str, game: Game) -> bytes:
    """The moduledata entry (fixed date: builds are byte-identical)."""
    root = etree.Element("data", version="1")
    for tag, text in (("version", version), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
                      ("dateSaved", "0"), ("description", f"{game.manifest.title} (Umpire)"), ("name", name)):
        etree.SubElement(root, tag).text = text
    return bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True))


def _setup_save(game: Game, scenario_id: str, units: dict[str, PieceDef], markers: dict[str, PieceDef],
                protos: dict[str, list[Trait]], art: Art, version: str, moduledata: bytes) -> bytes:
    """A .vsav with the scenario's set-up, pieces placed as VASSAL itself would."""
    placed: list[PlacedPiece] = []
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    in_cups: dict[str, list[tuple[PieceDef, str]]] = defaultdict(list)
    for n, (_, placement) in enumerate(r for r in game.setup if r[1].scenario == scenario_id):
        piece = starting_face(game, placement, units.get(placement.piece) or markers[placement.piece])
        if placement.location in cups:
            in_cups[placement.location] += [(piece, f"{scenario_id}-{n}-{k}") for k in range(placement.count)]
            continue
        if game.grid.is_label(placement.location):
            cx, cy = art.layout.centre(game.grid.hex_of(placement.location))
            map_name, x, y = MAIN_MAP, math.floor(cx), math.floor(cy)
        else:
            map_name = BOXES_MAP
            x, y = art.holding.location_of(placement.location) or (0, 0)
        for k in range(placement.count):
            traits = expanded(piece.traits, protos)
            gpid = piece.gpids[0] if piece.gpids else ""
            type_text, state_text = chain(traits, basic_state(gpid, map_name, x, y))
            placed.append(PlacedPiece(f"{scenario_id}-{n}-{k}", type_text, state_text, map_name, x, y))
    tree = command_tree(placed, [(MAIN_MAP, game.map.name), (BOXES_MAP, HOLDING_BOARD)])
    # Deck.getState lists its pieces by id: they are added first, on the deck's map and position.
    decks: list[tuple[Cup, list[tuple[str, str, str]]]] = []
    for box_id, cup_pieces in sorted(in_cups.items()):
        cup = cup_of(game, art, box_id, len(cup_pieces))
        contents = []
        for piece, piece_id in cup_pieces:
            gpid = piece.gpids[0] if piece.gpids else ""
            type_text, state_text = chain(expanded(piece.traits, protos), basic_state(gpid, BOXES_MAP, cup.x, cup.y))
            contents.append((piece_id, type_text, state_text))
        decks.append((cup, contents))
    return save_archive(add_decks(tree, decks), game.manifest.title, version, moduledata, 0)


def write_module(game: Game, out: Path, version: str, scale: float = 1.0, art: Art | None = None) -> BuiltModule:
    """Build and write `out` atomically, with the art given (builder.vassal.art_cache's, kept between builds)
    or drawn now."""
    from wargame.files import write_atomically

    built = build_module(game, version, draw_art(game, scale) if art is None else art)
    write_atomically(out, built.data)
    return built
