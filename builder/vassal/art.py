"""The module's art: board, holding board, counters and charts drawn (the board in a forked process) and encoded."""

from __future__ import annotations

import gc
import json
import mmap
import os
import pickle
from collections.abc import Callable
from dataclasses import field
from functools import partial
from typing import TYPE_CHECKING, NoReturn

from PIL import Image

from builder.render.charts import chart_sheets
from builder.render.charts.layout import Pen, Sheet
from builder.render.counters import (
    counter_size_px, image_name, marker_back, marker_faces, marker_image_name, render_marker, render_unit, unit_faces,
)
from builder.render.counters.face import Face
from builder.render.holding import HoldingBoard, HoldingLayout, holding_layout, render_holding_board
from builder.render.ink import text_length
from builder.render.png import png_bytes
from builder.vassal.decks import cup_markers, mask_image
from wargame.constraints import record_data
from wargame.errors import DataError, Place
from wargame.game import Game
from wargame.layout import Layout, board_too_large
from wargame.models import Marker, Unit
from wargame.records import frozen

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor


@frozen
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


PNG_COMPRESS_LEVEL = 3
"""zlib level of the module's PNGs: a third less encoding time than Pillow's default 6 for files
about 4% larger (bench/build.py)."""


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of an image as the module stores it (no metadata, PNG_COMPRESS_LEVEL)."""
    return png_bytes(image, PNG_COMPRESS_LEVEL)


def encode_pngs(images: dict[str, Image.Image], threads: int | None = None) -> dict[str, bytes]:
    """Every image as PNG bytes, in the same order; encoded on `threads` worker threads (one a core by default),
    largest first, or one after another in this thread for one.

    Pillow releases the GIL while zlib compresses, and each encoding is independent of the
    others, so the bytes are those of encoding one image after another.
    """
    threads = (os.cpu_count() or 1) if threads is None else threads
    if threads <= 1:
        return {name: encode_png(image) for name, image in images.items()}
    from concurrent.futures import ThreadPoolExecutor  # here: a build on two cores encodes in this thread

    largest_first = sorted(images, key=lambda name: -images[name].width * images[name].height)
    with ThreadPoolExecutor(threads) as pool:
        encoded = dict(zip(largest_first, pool.map(lambda name: encode_png(images[name]), largest_first)))
    return {name: encoded[name] for name in images}


def unit_image(unit_id: str, face: str) -> str:
    """Archive image name of a unit face (ids may hold '/')."""
    return image_name(unit_id, face)


BOARD = "images/board.png"
HOLDING = "images/holding.png"
BOARD_READS = ("map", "terrain", "hexes", "hexsides", "places", "areas", "game")
"""The data files the board is drawn from (builder/render/board*.py read nothing else of the game)."""
HOLDING_READS = ("game", "markers", "setup")
"""The holding board's: boxes and tracks (game.toml), the largest stack set up in a box, the supply markers' flip."""
COUNTER_READS = ("game",)
"""What every counter face reads beyond its own row: the nationalities, unit types and [counter] style."""
CHARTS_WITH_UNITS = ("reinforcements", "replacements", "turn_track")
"""Charts that name units (their arrivals): the only ones that read units.csv."""


@frozen
class Picture:
    """One image of the module: its archive name, what it is drawn from (for its cache key) and how."""

    name: str
    reads: tuple[str, ...]
    """The data files (names in `game.files`) whose whole content it may depend on."""
    row: str
    """The one data row it draws beyond those files (a unit's or marker's), as JSON; empty for none."""
    draw: Callable[[], Image.Image] | None
    """None for the board, drawn in a process of its own."""


@frozen
class Frame:
    """The art's geometry, known before anything is drawn: what the buildFile and set-ups place pieces by."""

    layout: Layout
    counter_px: int
    holding: HoldingLayout
    chart_names: dict[str, str]
    """Each chart's title by chart id, in the charts' order."""


@frozen
class ModuleArt:
    """What a module takes from its art: the geometry and every image's PNG bytes by archive name, in archive
    order (nothing decoded: a rebuild takes the bytes from the cache as they are)."""

    frame: Frame
    pngs: dict[str, bytes]

    def board_size(self) -> tuple[int, int]:
        """The board image's width and height, from its PNG header (IHDR: the first chunk, 8 bytes in)."""
        header = self.pngs[BOARD][16:24]
        return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")


def plan_art(game: Game, scale: float = 1.0) -> tuple[Frame, list[Picture]]:
    """The art's geometry and every picture of the module, in archive order, none drawn yet."""
    too_large = board_too_large(game.map.grid, game.map.layout.hex_size_px, game.map.layout.margin_px, scale)
    if too_large is not None:
        raise DataError(too_large, Place(game.files["map"], key="grid"))
    layout = _board_layout(game, scale)
    size_px = counter_size_px(layout)
    pictures: list[Picture] = []
    for _, unit in game.units:
        row = json.dumps(record_data(unit), separators=(",", ":"), ensure_ascii=False)
        for face in unit_faces(unit):
            pictures.append(Picture(f"images/{unit_image(unit.id, face)}", COUNTER_READS, row,
                                    partial(_unit_face, game, unit, face, size_px)))
    for marker in game.markers.marker:
        row = json.dumps(record_data(marker), separators=(",", ":"), ensure_ascii=False)
        for n in range(marker_faces(marker)):
            pictures.append(Picture(f"images/{marker_image_name(marker.id, n)}", COUNTER_READS, row,
                                    partial(_marker_face, game, marker, n, size_px)))
    for side in sorted({s or "" for s in cup_markers(game).values()}):
        pictures.append(Picture(f"images/{mask_image(side)}", COUNTER_READS, f"back of {side!r}",
                                partial(_marker_back, game, side or None, size_px)))
    pictures.append(Picture(BOARD, BOARD_READS, "", None))
    holding = holding_layout(game, size_px)
    pictures.append(Picture(HOLDING, HOLDING_READS, "", partial(_holding_image, game, size_px)))
    sheets = chart_sheets(game)
    pen = Pen(scale)
    map_cells = {"hexes", "hexsides", "places", "setup"}
    for chart_id, sheet in sheets.items():
        reads = tuple(name for name in sorted(game.files)
                      if name not in map_cells and (name != "units" or chart_id in CHARTS_WITH_UNITS))
        pictures.append(Picture(f"images/chart-{chart_id}.png", reads, "", partial(sheet.render, pen)))
    frame = Frame(layout, size_px, holding, tab_names(sheets))
    return frame, pictures


def tab_names(sheets: dict[str, Sheet]) -> dict[str, str]:
    """Each chart's tab name: its title, made distinct where two charts share one (VASSAL tells tabs by name only)."""
    names: dict[str, str] = {}
    for chart_id, sheet in sheets.items():
        name, n = sheet.title, 1
        while name in names.values():
            # A printed chart transcribed in charts.toml under the title of one drawn from the game's data (Battle
            # for Moscow's Terrain Effects and Turn Record Charts, 1.0): the transcription is the printed one.
            n += 1
            printed = chart_id.startswith("chart-") and n == 2
            name = f"{sheet.title} (as printed)" if printed else f"{sheet.title} ({n})"
        names[chart_id] = name
    return names


def _board_layout(game: Game, scale: float) -> Layout:
    """builder.render.board's board_layout (a test holds them equal), without importing the board's drawing
    and its shapely and numpy into a rebuild that does not draw the board."""
    return Layout.for_grid(game.grid, game.map.layout.hex_size_px * scale, game.map.layout.margin_px * scale)


def _unit_face(game: Game, unit: Unit, face: Face, size_px: int) -> Image.Image:
    """A unit's face (looked up here when drawn, so a test can stand in for the drawing)."""
    return render_unit(game, unit, face, size_px)


def _marker_face(game: Game, marker: Marker, face: int, size_px: int) -> Image.Image:
    """A marker's face."""
    return render_marker(game, marker, face, size_px)


def _marker_back(game: Game, side: str | None, size_px: int) -> Image.Image:
    """The back of a side's cup markers."""
    return marker_back(game, side, size_px)


def _holding_image(game: Game, size_px: int) -> Image.Image:
    """The holding board's image."""
    return render_holding_board(game, size_px).image


def draw_pictures(game: Game, scale: float, pictures: list[Picture]) -> dict[str, tuple[Image.Image, bytes]]:
    """Draw and encode the pictures given (the board, if among them, in a process of its own meanwhile): each
    image with its PNG bytes, by archive name, in the order given."""
    images, pngs = _draw(game, scale, pictures, board_pixels=True)
    return {p.name: (images[p.name], pngs[p.name]) for p in pictures}


def draw_pngs(game: Game, scale: float, pictures: list[Picture]) -> dict[str, bytes]:
    """The pictures' PNG bytes, as draw_pictures makes them; the board's pixels never leave its process."""
    return _draw(game, scale, pictures, board_pixels=False)[1]


def _draw(game: Game, scale: float, pictures: list[Picture],
          board_pixels: bool) -> tuple[dict[str, Image.Image], dict[str, bytes]]:
    """The images drawn (the board's only with board_pixels) and every picture's PNG bytes, in the order given."""
    board = _BoardDrawing(game, scale, board_pixels) if any(p.draw is None for p in pictures) else None
    try:
        text_length.cache_clear()  # the charts' text measured afresh for each game (and each build)
        images = {p.name: p.draw() for p in pictures if p.draw is not None}
        # The board is still being drawn: encode the rest meanwhile, on the cores its process leaves free (on two
        # cores, threads here only contended with it and with each other: 10-18% more CPU for the same bytes).
        pngs = encode_pngs(images, None if board is None else (os.cpu_count() or 1) - 1)
        if board is not None:
            image, pngs[BOARD] = board.result()
            if image is not None:
                images[BOARD] = image
    finally:
        if board is not None:
            board.close()
    return images, {p.name: pngs[p.name] for p in pictures}


def draw_art(game: Game, scale: float = 1.0) -> Art:
    """Render board, holding board, counters and charts for a game."""
    frame, pictures = plan_art(game, scale)
    drawn = draw_pictures(game, scale, pictures)
    counters = {name.removeprefix("images/"): image for name, (image, _) in drawn.items()
                if name not in (BOARD, HOLDING) and not name.startswith("images/chart-")}
    charts = {chart_id: drawn[f"images/chart-{chart_id}.png"][0] for chart_id in frame.chart_names}
    return Art(drawn[BOARD][0], frame.layout, frame.counter_px, HoldingBoard(drawn[HOLDING][0], frame.holding),
               counters, charts, dict(frame.chart_names), drawn)


def module_art(art: Art) -> ModuleArt:
    """What a module takes from drawn art: its PNG bytes (those encoded as it was drawn, if still its images)."""
    pictures = archive_pictures(art.counters, art.board, art.holding.image, art.charts)
    ready = {name: art.encoded[name][1] for name, img in pictures.items()
             if name in art.encoded and art.encoded[name][0] is img}
    fresh = encode_pngs({name: img for name, img in pictures.items() if name not in ready})
    frame = Frame(art.layout, art.counter_px, art.holding.layout, art.chart_names)
    return ModuleArt(frame, {name: ready[name] if name in ready else fresh[name] for name in pictures})


def render_board(game: Game, scale: float = 1.0) -> Image.Image:
    """builder.render.board's render_board, imported when a board is drawn: a rebuild that draws no board
    imports no shapely or numpy."""
    from builder.render.board import render_board as draw

    return draw(game, scale)


def _board_and_png(game: Game, scale: float) -> tuple[Image.Image, bytes]:
    """The board and its PNG bytes."""
    image = render_board(game, scale)
    return image, encode_png(image)


def _draw_board_child(receive: int, send: int, pixels: mmap.mmap | None, game: Game, scale: float) -> NoReturn:
    """In the forked process: the board's pixels into the shared buffer (if any) and its PNG bytes written to the
    pipe, or the error drawing it; then the process ends at once, running none of the parent's exit handlers and
    flushing none of its buffers."""
    code = 1
    try:
        os.close(receive)
        try:
            image, png = _board_and_png(game, scale)
            if pixels is not None:
                if image.mode != "RGB" or len(pixels) != image.width * image.height * 3:
                    raise RuntimeError(f"the board came out {image.mode} {image.size}, not as board_image_size says")
                pixels[:] = image.tobytes()
            message = pickle.dumps(("board", image.size, png), pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # every failure goes back to the parent, to be raised there
            try:
                message = pickle.dumps(("error", error), pickle.HIGHEST_PROTOCOL)
            except Exception:  # an error that does not pickle goes back as its text
                message = pickle.dumps(("error", RuntimeError(f"drawing the board failed: {error!r}")))
        with open(send, "wb") as stream:
            stream.write(message)
        code = 0
    finally:
        os._exit(code)


def _may_fork() -> bool:
    """Whether the board's process may be forked: where the platform forks and no other thread runs here (a server's,
    a test runner's, a native library's), since a thread holding a lock at the fork leaves it held for ever in the
    child, which Python 3.12 warns of."""
    return hasattr(os, "fork") and _threads() == 1


def _threads() -> int:
    """The threads of this process: the system's count where it gives one (as Python's own warning counts them,
    native libraries' threads included, such as a numerical library's pool), else Python's."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        return threading.active_count()


class _BoardDrawing:
    """The board drawn and encoded in a forked process, where its Python does not wait for
    the GIL that drawing the counters and charts holds (a worker thread overlapped only
    Pillow's own loops); in a thread where it may not be forked (`_may_fork`). The pixels come back
    through memory shared with the child (a pipe took a quarter of a second for them), and only
    when asked for: a module needs its PNG bytes alone.

    Forked by os.fork, its answer pickled down a pipe: multiprocessing did the same and cost the build's main
    process about 8 ms of CPU to import (sockets, selectors, subprocess and its own modules)."""

    def __init__(self, game: Game, scale: float, pixels: bool) -> None:
        self._thread: ThreadPoolExecutor | None = None
        self._future: Future[tuple[Image.Image, bytes]] | None = None
        if _may_fork():
            self._received = self._reaped = False
            self._pixels: mmap.mmap | None = None
            if pixels:
                # Sized here, before the fork, to be shared. A module needs the PNG bytes alone: it neither walks
                # every hex for the size nor imports the board's drawing code, which the child imports itself.
                from builder.render.board import board_image_size

                width, height = board_image_size(game, scale)
                self._pixels = mmap.mmap(-1, width * height * 3)
            # The PNG plugin encode_png loads, loaded once for both processes.
            from PIL import PngImagePlugin  # noqa: F401
            self._receive, send = os.pipe()
            # The child's collections would walk every object it inherits, writing to each, so the kernel would
            # copy most of the parent's memory into it page by page: frozen, they are left out of its collections
            # (the parent's own are as before).
            gc.freeze()
            try:
                self._pid = os.fork()
                if self._pid == 0:
                    _draw_board_child(self._receive, send, self._pixels, game, scale)
            finally:
                gc.unfreeze()
            os.close(send)
        else:
            from concurrent.futures import ThreadPoolExecutor

            self._thread = ThreadPoolExecutor(1)
            self._future = self._thread.submit(_board_and_png, game, scale)

    def result(self) -> tuple[Image.Image | None, bytes]:
        """The board (None when its pixels were not asked for) and its PNG bytes, once they are ready; the
        drawing's error if it failed."""
        if self._future is not None and self._thread is not None:
            try:
                return self._future.result()
            finally:
                self._thread.shutdown()
        chunks = []
        while chunk := os.read(self._receive, 1 << 20):
            chunks.append(chunk)
        self._received = True
        if not chunks:  # the pipe closed with nothing written: the process ended before it could answer
            _, status = os.waitpid(self._pid, 0)
            self._reaped = True
            raise RuntimeError(f"the process drawing the board died (exit code {os.waitstatus_to_exitcode(status)})")
        message = pickle.loads(b"".join(chunks))
        if message[0] == "error":
            raise message[1]
        _, size, png = message
        return (None if self._pixels is None else Image.frombytes("RGB", size, bytes(self._pixels))), png

    def close(self) -> None:
        """Stop a drawing nobody waits for any more (the rest failed) and free what it holds."""
        if self._thread is not None:
            self._thread.shutdown(cancel_futures=True)
            return
        if not self._reaped:
            if not self._received:
                import signal

                os.kill(self._pid, signal.SIGTERM)
            os.waitpid(self._pid, 0)
            self._reaped = True
        os.close(self._receive)
        if self._pixels is not None:
            self._pixels.close()


def archive_pictures(counters: dict[str, Image.Image], board: Image.Image | None, holding: Image.Image,
                     charts: dict[str, Image.Image]) -> dict[str, Image.Image]:
    """Images by archive name, in archive order (the board left out when None)."""
    pictures = {f"images/{name}": img for name, img in counters.items()}
    if board is not None:
        pictures["images/board.png"] = board
    pictures["images/holding.png"] = holding
    for chart_id, img in charts.items():
        pictures[f"images/chart-{chart_id}.png"] = img
    return pictures
