"""The module's art: board, holding board, counters and charts drawn (the board in a forked process) and encoded."""

from __future__ import annotations

import io
import mmap
import multiprocessing
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from PIL import Image

from builder.render.board import board_image_size, board_layout, render_board
from builder.render.charts import chart_sheets, render_charts
from builder.render.counters import (
    counter_size_px, image_name, marker_back, marker_faces, marker_image_name, render_marker, render_unit, unit_faces,
)
from builder.render.holding import HoldingBoard, render_holding_board
from builder.vassal.decks import cup_markers, mask_image
from wargame.errors import DataError, Place
from wargame.game import Game
from wargame.layout import Layout, board_too_large


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


PNG_COMPRESS_LEVEL = 3
"""zlib level of the module's PNGs: a third less encoding time than Pillow's default 6 for files
about 4% larger (bench/build.py)."""


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of an image as the module stores it (no metadata, PNG_COMPRESS_LEVEL)."""
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
        encoded = dict(zip(largest_first, pool.map(lambda name: encode_png(images[name]), largest_first)))
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
    return image, encode_png(image)


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
            died = f"the process drawing the board died (exit code {self._process.exitcode})"
            message = ("error", RuntimeError(died))
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
        for unit_face in unit_faces(unit):
            counters[unit_image(unit.id, unit_face)] = render_unit(game, unit, unit_face, size_px)
    for marker in game.markers.marker:
        for face in range(marker_faces(marker)):
            counters[marker_image_name(marker.id, face)] = render_marker(game, marker, face, size_px)
    for side in sorted({s or "" for s in cup_markers(game).values()}):
        counters[mask_image(side)] = marker_back(game, side or None, size_px)
    sheets = chart_sheets(game)
    holding = render_holding_board(game, size_px)
    charts = render_charts(game)
    # The board is still being drawn: encode the rest meanwhile.
    pictures = archive_pictures(counters, None, holding.image, charts)
    encoded = {name: (pictures[name], data) for name, data in encode_pngs(pictures).items()}
    image, png = board.result()
    encoded["images/board.png"] = (image, png)
    return Art(image, layout, size_px, holding, counters, charts,
               {chart_id: sheet.title for chart_id, sheet in sheets.items()}, encoded)


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
