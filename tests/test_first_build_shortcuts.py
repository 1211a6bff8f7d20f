"""The first build's shortcuts (issue 30 item 2, third pass) make what the long way makes: the board's calls filed
straight into the recording, shapes inset without shapely, glyphs pasted through cut masks, one canvas for every
band, tints pasted tile by tile, the board's process forked with Pillow's plugins loaded and the parent's objects
frozen; a set-up's decks added to a save split in linear time."""

from __future__ import annotations

import gc
import io
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw
from shapely.geometry import Polygon

import builder.render.board_labels as labels_module
import builder.vassal.art as art_module
from builder.render.board import render_board
from builder.render.board_canvas import PASTE_TILE, Point, PrintedText, paste_inked
from builder.render.insets import mitre_inset
from builder.render.board_labels import GlyphPrinter
from builder.render.ink import font
from builder.render.window import Band, Recording, RecordingDraw, ShiftedDraw
from wargame.bundled import data_root
from wargame.game import load_game
from wargame.vassal import decks as decks_module
from wargame.vassal.commands import ESC
from wargame.vassal.decks import Cup, add_decks
from wargame.vassal.encoding import decode, encode

from import_probe import run_probe

ROOT = Path(__file__).resolve().parents[1]
BANDS = [(0, 0, 60), (40, 60, 130), (100, 130, 200)]
"""Three bands of a 160 x 200 canvas (top of the image, first and end rows), overlapping as the board's do."""


def _recorded(draw_with: type[ShiftedDraw]) -> tuple[Recording, list[Image.Image]]:
    """A set of shapes of every kind and colour form recorded through a drawing class, and the bands drawn."""
    recording = Recording(BANDS)
    stand_in = Image.new("RGB", (1, 1), "#ffffff")
    draw = (RecordingDraw(stand_in, recording) if draw_with is RecordingDraw
            else ShiftedDraw(stand_in, recording=recording))
    draw.line([(5, 5), (150, 190)], fill="#224466", width=3)
    draw.line([(10.5, 50.25), (80.5, 120.75), (150, 58)], fill=(200, 30, 30), width=1)
    draw.line([(20, 180), (90, 70), (140, 170)], fill="#336699", width=7, joint="curve")  # ImageDraw's joints
    draw.line((30, 100, 120, 101), fill=(1, 2, 3), width=2)
    draw.line([(1, 1), (2, 2)], fill="#000000", width=0)
    draw.ellipse((10, 55, 40.5, 75.5), fill=(90, 160, 90))
    draw.ellipse((50, 55, 80, 140), outline="#101010", width=2)
    draw.ellipse((90, 120, 130, 150), fill="#eeddcc", outline=(20, 20, 20), width=3)
    draw.ellipse((100, 10, 120, 30), fill="#123456", outline="#123456", width=2)  # one call when they agree
    draw.rectangle((60, 20, 90, 70), fill="#aa8844", outline="#ffffff", width=2)
    draw.rectangle((5, 120, 35, 200), outline=(0, 0, 0), width=1)
    draw.rectangle((70, 150, 75, 160), fill=(50, 60, 70), outline=(50, 60, 70), width=0)
    draw.polygon([(80, 5), (150, 40), (120, 90.5)], fill="#5577aa")
    draw.polygon([(10, 130), (60, 190), (5, 195)], fill=(250, 250, 0), outline="#000000", width=1)
    draw.polygon([(90, 100), (150, 110), (130, 190), (85, 180)], fill="#cc99cc", outline=(10, 10, 90), width=4)
    draw.polygon([(30, 30), (50, 35), (40, 45)], outline="#010203")
    images = []
    for k, (top, _, end) in enumerate(BANDS):
        image = Image.new("RGB", (160, end - top), "#f0f0f0")
        recording.draw(k, Band(image, ShiftedDraw(image, (0, top)), (0, top)))
        images.append(image)
    return recording, images


def test_recording_draw_files_the_calls_imagedraw_makes() -> None:
    """RecordingDraw's direct path (each colour turned into an ink once) keeps, band by band, the very calls that
    ImageDraw makes through the recording core, in the same order, and so draws the same pixels."""
    long_way, long_images = _recorded(ShiftedDraw)
    short_way, short_images = _recorded(RecordingDraw)
    for k in range(len(BANDS)):
        kept = [c for c in short_way.calls[k] if c[0] is not None]
        assert kept == [c for c in long_way.calls[k] if c[0] is not None]
        assert [c[0] for c in short_way.calls[k]] == [c[0] for c in long_way.calls[k]]
        assert ImageChops.difference(short_images[k], long_images[k]).getbbox() is None


def _star(c: Point, r: float, inner: float) -> list[Point]:
    """A five-pointed star, as draw_star makes one."""
    return [(c[0] + (r if k % 2 == 0 else r * inner) * math.cos(math.radians(-90 + 36 * k)),
             c[1] + (r if k % 2 == 0 else r * inner) * math.sin(math.radians(-90 + 36 * k))) for k in range(10)]


def _arrow(c: Point, length: float, angle: float) -> list[Point]:
    """The legend's north arrow's outlined half, as draw_strip makes it."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    tip = (c[0] + ux * length / 2, c[1] + uy * length / 2)
    right = (tip[0] - ux * length * 0.55 + uy * length * 0.22, tip[1] - uy * length * 0.55 - ux * length * 0.22)
    return [tip, right, c]


def _same_ring(a: list[Point], b: list[Point]) -> bool:
    """The same closed ring, running the same way, from any start."""
    a, b = a[:-1], b[:-1]
    return len(a) == len(b) and any(all(math.dist(p, q) < 1e-6 for p, q in zip(a, b[k:] + b[:k]))
                                    for k in range(len(b)))


SHAPES = [
    *[(_star((1234.56 + 17 * k, 987.65 - 11 * k), r, inner), d)
      for k, (r, inner, d) in enumerate([(16.8, 0.45, 2), (23.5, 0.45, 3), (9.1, 0.45, 1), (40.0, 0.38, 5)])],
    *[([(x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6)], d)
      for x, y, r, d in [(100.25, 80.5, 14.4, 3), (2001.7, 1500.3, 21.6, 2), (640.0, 360.0, 50.4, 4)]],
    *[(_arrow((145.0 + k, 2665.9 - k), 66.0 + 7 * k, angle), 2)
      for k, angle in enumerate((-90.0, 0.0, 90.0, 180.0, 33.0))],
]


@pytest.mark.parametrize(("points", "d"), SHAPES)
def test_a_shape_is_inset_as_shapely_insets_it(points: list[Point], d: int) -> None:
    """mitre_inset gives shapely's `buffer(-d, join_style="mitre")` ring (the same corners, running the same way,
    which is what Pillow's fill depends on) for the board's stars, landmarks and north arrow, either way round."""
    for ring in (points, points[::-1]):
        mine = mitre_inset(ring, d)
        theirs = Polygon(ring).buffer(-d, join_style="mitre")
        assert mine is not None and theirs.geom_type == "Polygon"
        assert _same_ring([*mine, mine[0]], list(theirs.exterior.coords))


@pytest.mark.parametrize(("points", "d"), [
    ([(0.0, 0.0), (10.0, 0.0), (5.0, 8.0)], 4),  # the inset is empty
    ([(0.0, 0.0), (100.0, 0.0), (100.0, 0.5)], 1),  # a sliver
    ([(0.0, 0.0), (50.0, 0.0), (100.0, 0.0), (50.0, 40.0)], 2),  # a straight vertex (GEOS drops it)
    ([(0.0, 0.0), (100.0, 0.0), (50.0, 3.0), (50.0, 60.0)], 2),  # a reflex vertex beyond the mitre limit
])
def test_a_shape_shapely_would_cut_otherwise_is_left_to_it(points: list[Point], d: int) -> None:
    """Where an edge vanishes, a corner is too sharp or a vertex is straight, mitre_inset declines (draw_outlined
    then asks shapely)."""
    assert mitre_inset(points, d) is None


def test_a_board_with_no_area_outlines_imports_no_shapely() -> None:
    """Battle for Moscow's board (a north arrow, no port or landing areas, no country names) is drawn without
    importing shapely and numpy (about 330M instructions, a twentieth of its cold build)."""
    script = ("import sys\nfrom wargame.bundled import data_root\nfrom wargame.game import load_game\n"
              "from builder.render.board import render_board\n"
              "render_board(load_game(data_root(), 'moscow'), 1.0)\n"
              "print(sorted(m for m in ('shapely', 'numpy') if m in sys.modules))\n")
    done = run_probe(script)
    assert done.stdout.strip() == "[]"


def _printed(texts: list[PrintedText]) -> Image.Image:
    """Texts printed by a GlyphPrinter on a small board of mixed paper, partly off its edges."""
    image = Image.new("RGB", (120, 60), "#f2ecd0")
    image.paste((156, 195, 224), (60, 0, 120, 60))
    printer = GlyphPrinter(image)
    for t in texts:
        printer.print(t)
    return image


def test_hex_numbers_print_through_cut_masks_as_through_whole_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glyph masks cut to their inked part (a zero of a mask leaves its pixel as it was) print the pixels the whole
    masks print: strokes and inks, at sub-pixel pens, overlapping, and cut by the board's edges."""
    texts = [PrintedText((x + k * 0.37, y), text, font(size, condensed=True), "#2b2620", "mm", stroke, "#f2ecd0",
                         glyphs=True)
             for k, (x, y, text, size, stroke) in enumerate([
                 (30, 20, "0621", 9, 1), (61.5, 22.25, "1015", 9, 1), (2, 3, "2318", 11, 2), (118, 58, "0101", 9, 1),
                 (40, 45, "17", 14, 0), (90, 30, "0909", 7, 1), (33, 21, "0622", 9, 1)])]
    cut = _printed(texts)
    monkeypatch.setattr(labels_module, "_inked", lambda mask, dx, dy: (mask, dx, dy))
    assert ImageChops.difference(cut, _printed(texts)).getbbox() is None


def test_every_band_of_a_board_is_drawn_on_one_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bands share one supersampled canvas, painted over with paper for each (a new canvas for each band cost a
    page fault for every 4 KB of it); the pixels are those of the board in one band
    (tests/test_board_bands.py, with bands of odd heights, the last one shorter than the canvas)."""
    canvases: list[int] = []
    real_draw = Recording.draw

    def noted_draw(recording: Recording, k: int, band: Band) -> None:
        canvases.append(id(band.image))
        real_draw(recording, k, band)

    monkeypatch.setattr(Recording, "draw", noted_draw)
    render_board(load_game(data_root(), "moscow"), 1.0, band_rows=200)
    assert len(canvases) > 3 and len(set(canvases)) == 1


def test_decks_are_added_to_a_save_as_the_reference_decoder_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """add_decks splits the save's command tree with the linear-time split, into the tokens encoding.decode reads
    (escaped delimiters and quoted tokens included), so the save is the same."""
    adds = encode(["+/unit-1/piece;;;a.png;Unit 1/\\;x", "+/'quoted'/type/state", "+/m\\\x1b/t/s"], ESC)
    tree = encode(["begin_save", "", adds, "end_save\\", "'odd'"], ESC)
    cups = [(Cup("Cup", "Main Map", "Board", 40, 60, 50), [("p1", "piece;;;b.png;B", "Main Map;40;60"),
                                                          ("p2", "type\\;x", "state")])]
    fast = add_decks(tree, cups)
    monkeypatch.setattr(decks_module, "split", decode)
    assert fast == add_decks(tree, cups)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the board is forked only where the platform forks")
def test_the_boards_process_is_forked_with_the_parents_objects_frozen(monkeypatch: pytest.MonkeyPatch,
                                                                        may_fork: None) -> None:
    """The board's process starts with every object it inherits frozen (its collections then leave them alone, and
    the kernel does not copy their pages into it); the parent's own collections are as before."""
    frozen_at_start: list[int] = []
    real_fork = os.fork

    def noted_fork() -> int:
        frozen_at_start.append(gc.get_freeze_count())
        return real_fork()

    monkeypatch.setattr(os, "fork", noted_fork)
    drawing = art_module._BoardDrawing(load_game(data_root(), "moscow"), 1.0, pixels=False)
    try:
        assert gc.get_freeze_count() == 0
        assert drawing.result()[1].startswith(b"\x89PNG")
    finally:
        drawing.close()
    assert len(frozen_at_start) == 1 and frozen_at_start[0] > 1000


def test_the_board_is_drawn_in_a_thread_beside_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a process running another thread (a server's), the board is drawn in a thread, not a forked process (a lock
    that thread held at the fork would stay held in the child for ever), with the same bytes; alone, it is forked."""
    import threading

    def no_fork() -> int:
        raise AssertionError("forked beside another thread")

    game = load_game(data_root(), "moscow")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not art_module._may_fork()
        monkeypatch.setattr(os, "fork", no_fork)
        drawing = art_module._BoardDrawing(game, 1.0, pixels=True)
        try:
            image, png = drawing.result()
        finally:
            drawing.close()
    finally:
        stop.set()
        other.join()
    expected = art_module._board_and_png(game, 1.0)
    assert image is not None and image.tobytes() == expected[0].tobytes() and png == expected[1]
    alone = subprocess.run([sys.executable, "-c", "import builder.vassal.art as art; print(art._may_fork())"],
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                           check=True)
    assert alone.stdout.strip() == str(hasattr(os, "fork"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="the system counts threads where /proc lists them")
def test_a_thread_threading_does_not_know_of_counts_too() -> None:
    """A thread started below the threading module (as a native library's pool is) also keeps the board from being
    forked: Python's own warning counts the system's threads, not threading's."""
    import _thread
    import threading

    started, stop = threading.Event(), threading.Event()

    def wait() -> None:
        started.set()
        stop.wait()

    before = threading.active_count()
    _thread.start_new_thread(wait, ())
    started.wait()
    try:
        assert threading.active_count() == before
        assert art_module._threads() >= 2 and not art_module._may_fork()
    finally:
        stop.set()


def test_the_png_encoders_plugins_are_loaded_before_the_board_is_forked() -> None:
    """Image.save's PNG plugin is loaded before the board's process is forked, once for both processes, not once in
    each; the plugins Pillow's preinit adds (BMP, GIF, JPEG, PPM: encode_png names its buffer instead of giving a
    format) are loaded by neither."""
    script = ("import os, sys\n"
              "from wargame.bundled import data_root\nfrom wargame.game import load_game\n"
              "import builder.vassal.art as art\n"
              "real = os.fork\n"
              "def fork():\n"
              "    print('PIL.PngImagePlugin' in sys.modules, 'PIL.JpegImagePlugin' in sys.modules)\n"
              "    return real()\n"
              "os.fork = fork\n"
              "drawing = art._BoardDrawing(load_game(data_root(), 'moscow'), 1.0, False)\n"
              "drawing.result()\ndrawing.close()\n"
              "art.encode_png(art.Image.new('RGB', (3, 2)))\n"
              "print('PIL.JpegImagePlugin' in sys.modules)\n")
    if not hasattr(os, "fork"):
        pytest.skip("the board is forked only where the platform forks")
    done = run_probe(script)
    assert done.stdout.split() == ["True", "False", "False"]


@pytest.mark.parametrize("size", [(PASTE_TILE * 3 + 17, PASTE_TILE * 2 + 5), (40, 30), (PASTE_TILE, PASTE_TILE)])
def test_a_tint_pasted_tile_by_tile_is_the_tint_pasted_at_once(size: tuple[int, int]) -> None:
    """A colour pasted through a mask tile by tile, clear tiles left out, gives the pixels of one paste: a thin line
    across the box (most tiles clear), a mask inked everywhere, and one left clear."""
    width, height = size
    thin = Image.new("L", size, 0)
    ImageDraw.Draw(thin).line([(0, height - 1), (width - 1, 0)], fill=90, width=3)
    for mask in (thin, Image.new("L", size, 200), Image.new("L", size, 0)):
        once = Image.new("RGB", (width + 30, height + 20), "#c6d59c")
        once.paste((61, 58, 53), (10, 7, 10 + width, 7 + height), mask)
        tiled = Image.new("RGB", once.size, "#c6d59c")
        paste_inked(tiled, (61, 58, 53), (10, 7), mask)
        assert ImageChops.difference(once, tiled).getbbox() is None


@pytest.mark.parametrize("threads", [None, 0, 1, 2, 5])
def test_png_encoding_in_this_thread_or_on_threads_gives_pillows_bytes(threads: int | None) -> None:
    """encode_pngs, one image after another in this thread (the board's process busy on the second of two cores) or
    on threads, keeps the order and gives the bytes of Image.save with format="PNG" at the module's level."""
    images = {f"n{k}": Image.effect_noise((40 + 30 * k, 50), 30 + k).convert("RGB") for k in range(5)}
    images["alpha"] = Image.new("RGBA", (7, 3), (10, 20, 30, 40))

    def one(image: Image.Image) -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=False, compress_level=art_module.PNG_COMPRESS_LEVEL)
        return buffer.getvalue()

    encoded = art_module.encode_pngs(images, threads)
    assert list(encoded) == list(images)
    assert all(encoded[name] == one(image) for name, image in images.items())


class _Unpicklable(Exception):
    """An error that cannot go back to the parent as it is (it holds a lock)."""

    def __init__(self) -> None:
        super().__init__("held")
        import threading

        self.lock = threading.Lock()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the board is forked only where the platform forks")
@pytest.mark.parametrize(("draw", "expected"), [
    (lambda: os._exit(3), r"the process drawing the board died \(exit code 3\)"),
    (lambda: (_ for _ in ()).throw(_Unpicklable()), r"drawing the board failed: _Unpicklable\('held'\)"),
    (lambda: (_ for _ in ()).throw(KeyError("lava")), r"'lava'"),
])
def test_the_boards_process_answers_with_its_error_or_its_end(monkeypatch: pytest.MonkeyPatch, forked: list[int],
                                                              draw: Callable[[], None], expected: str) -> None:
    """The board's process that ends without answering, or fails with an error that does not pickle, or with one
    that does, is reported in the parent; no process is left behind."""
    monkeypatch.setattr(art_module, "render_board", lambda game, scale: draw())
    drawing = art_module._BoardDrawing(load_game(data_root(), "moscow"), 1.0, pixels=True)
    try:
        with pytest.raises((RuntimeError, KeyError), match=expected):
            drawing.result()
    finally:
        drawing.close()
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # reaped already


def test_a_build_loads_its_game_out_of_the_collectors_sight(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A cold build imports its drawing code and loads its game with the collector off, then freezes them before the
    art is drawn (the collections while drawing, and the one at exit, walked them again); the collector is on again
    for the drawing, and the module is the same."""
    import atexit

    from click.testing import CliRunner

    import builder.vassal.art_cache as art_cache_module
    import wargame.collector as collector
    from builder.cli import main as vmodbuild

    seen: list[tuple[int, bool]] = []
    real = art_cache_module.cached_art

    def noted(*args: object) -> object:
        seen.append((gc.get_freeze_count(), gc.isenabled()))
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(art_cache_module, "cached_art", noted)
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    registered: list[object] = []
    monkeypatch.setattr(collector, "_FREEZE_AT_EXIT", False)
    monkeypatch.setattr(atexit, "register", registered.append)
    try:
        result = CliRunner().invoke(vmodbuild, ["build", "moscow", "--out", str(tmp_path)])
        after = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert result.exit_code == 0, result.output
    assert len(seen) == 1 and seen[0][0] > 10_000 and seen[0][1]
    assert gc.isenabled()
    # Given back once the module is written: a process that goes on (this one) collects the game as usual.
    assert after == 0
    assert registered == [gc.freeze]
