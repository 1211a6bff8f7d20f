"""A picture's shapes worked out without shapely (issue 30 item 4): a country name's fit, a mitred inset and the
areas' outlines give shapely's own answers, so a picture near them need not import shapely and numpy."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from builder.picture import reading_scale
from builder.render import insets
from builder.render.board import _frame
from builder.render.board_areas import INSETS, _area_hexes, _clipped_area, _fits, inset_areas
from builder.render.board_canvas import shapely_inset_rings
from builder.render.insets import kept_rings, mitre_inset, ring_key
from wargame.bundled import data_root, game_ids
from wargame.game import load_game

from import_probe import run_probe

ROOT = Path(__file__).resolve().parent.parent
Point = tuple[float, float]


def test_a_picture_near_a_country_name_a_landing_area_or_a_landmark_imports_no_shapely() -> None:
    """Onslaught's picture at the Normandy landing hexes (with France's name near) and Omaha's at the beach (with
    its landmarks) are drawn in a process that never imports shapely or numpy (0.1 s of its CPU)."""
    code = textwrap.dedent("""
        import sys
        from builder.picture import Painter, reading_scale
        from wargame.bundled import data_root
        from wargame.game import load_game
        from wargame.scene import Crop, Mark, Scene
        for game_id, hexes in (("onslaught", ("0820", "0721")), ("omaha", ("2319", "2117"))):
            game = load_game(data_root(), game_id)
            painter = Painter(game, reading_scale(game), None)
            painter.draw(Scene((), (Mark("path", hexes, "breach"),)), Crop(hexes=hexes))
        print(sorted({name.split(".")[0] for name in sys.modules} & {"shapely", "numpy"}))
    """)
    done = run_probe(code, env={"PATH": "/usr/bin:/bin"})
    assert done.stdout.strip() == "[]"


PROBE = """
import atexit, sys
atexit.register(lambda: print("imported:", " ".join(sorted(sys.modules)), file=sys.stderr))
from umpire.cli import main
sys.argv[0] = "adjudicate"
main()
"""
NOT_FOR_A_PICTURE = {"shapely", "numpy", "adjudicator.dice_ledger", "wargame.receipts", "builder.render.holding",
                     "concurrent.futures", "PIL.BmpImagePlugin", "PIL.GifImagePlugin", "PIL.JpegImagePlugin",
                     "PIL.PpmImagePlugin"}
"""What a verdict with pictures, cold, never needs: geometry (see above), the dice ledger (no ledger given), the
holding board (a finding's picture is a crop), worker threads (a picture's pastes are small), Pillow's plugins for
formats other than PNG (which `Image.save(format="PNG")` loads first)."""


@pytest.mark.parametrize("log", ["onslaught/breach-zoc.log", "omaha/breach-leg-ezoc.log", "moscow/breach-zoc.log"])
def test_a_verdict_with_pictures_imports_only_what_its_pictures_use(log: str, tmp_path: Path) -> None:
    """`adjudicate check LOG --format html -o`, with an empty cache, imports none of NOT_FOR_A_PICTURE."""
    done = run_probe(PROBE, "check", str(ROOT / "examples" / log), "--format", "html", "-o", str(tmp_path / "verdict.html"),
                     env={"PATH": "/usr/bin:/bin", "UMPIRE_CACHE": str(tmp_path / "c")}, check=False)
    assert done.returncode == 1, done.stderr
    loaded = set(done.stderr.rpartition("imported: ")[2].split())
    assert "builder.picture" in loaded
    assert not loaded & NOT_FOR_A_PICTURE


@pytest.mark.parametrize("game_id", game_ids(data_root()))
def test_the_kept_outlines_are_shapelys_for_every_bundled_area(game_id: str) -> None:
    """Every bundled area outlined inside its hexes is kept at its game's pictures' scale (else run
    `python -m builder.render.keep_rings`), and kept exactly as shapely outlines it (first point and direction too)."""
    game = load_game(data_root(), game_id)
    fine = _frame(game, reading_scale(game)).fine
    for kind, hexes in inset_areas(game):
        polygons = [fine.corners(h) for h in hexes]
        inset = INSETS[kind] * fine.size_px
        kept = kept_rings(ring_key(polygons, inset, fine.size_px))
        assert kept is not None, f"{game_id}: a {kind} area's outline is not kept: run python -m builder.render.keep_rings"
        assert kept == shapely_inset_rings(polygons, inset, fine.size_px)


def test_an_outline_not_kept_is_worked_out_by_shapely() -> None:
    """An area the file does not hold (another game's, another scale) is outlined by shapely."""
    square = [[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]]
    assert kept_rings(ring_key(square, 1.0, 10.0)) is None
    assert insets.kept_rings(ring_key(square, 1.0, 10.0)) is None


def _shapely_fits(box: tuple[float, float, float, float], polygons: list[list[Point]], share: float) -> bool:
    """The fit as shapely works it out (the code before this shortcut)."""
    x0, y0, x1, y1 = box
    exact = Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    inside: float = sum(exact.intersection(Polygon(p)).area for p in polygons)
    return inside >= share * float(exact.area)


@pytest.mark.parametrize("game_id", game_ids(data_root()))
def test_a_country_names_fit_is_shapelys(game_id: str) -> None:
    """Every spot tried for a country's name (every hex of it, three sizes, two scales): the box's share inside the
    country, clipped without shapely, decides as shapely does."""
    game = load_game(data_root(), game_id)
    for scale in (1.0, reading_scale(game)):
        fine = _frame(game, scale).fine
        s = fine.size_px
        for area in game.areas.area:
            if area.kind != "country":
                continue
            members = set(_area_hexes(game, area.id))
            for half_w, half_h in ((s * 2.1, s * 0.4), (s * 1.3, s * 0.25), (s * 0.7, s * 0.18)):
                for h in sorted(members):
                    x, y = fine.centre(h)
                    y += s * 0.43
                    box = (x - half_w, y - half_h, x + half_w, y + half_h)
                    near = fine.pixel_to_hex(x, y)
                    polygons = [fine.corners(k) for k in near.spiral(math.ceil(half_w / (s * 1.5)) + 2)
                                if k in members]
                    assert _fits(box, polygons, 0.97) == _shapely_fits(box, polygons, 0.97), (area.id, scale, h)


def test_a_fit_too_close_to_call_is_shapelys() -> None:
    """A box whose share inside sits at the threshold, to rounding, is decided by shapely; the clipped area of a box
    and a hexagon is the shapely intersection's."""
    hexagon = [(10.0, 0.0), (5.0, 8.66), (-5.0, 8.66), (-10.0, 0.0), (-5.0, -8.66), (5.0, -8.66)]
    box = (-4.0, -3.0, 4.0, 3.0 / 0.97)  # wholly inside: the share is 0.97 to rounding
    assert _fits(box, [hexagon], 0.97) == _shapely_fits(box, [hexagon], 0.97)
    for box in ((-12.0, -1.0, 0.0, 9.5), (3.0, -9.0, 20.0, -2.0), (11.0, 0.0, 12.0, 1.0)):
        x0, y0, x1, y1 = box
        exact = Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]).intersection(Polygon(hexagon)).area
        assert _clipped_area(box, hexagon) == pytest.approx(exact, abs=1e-9)


def _star(c: Point, r: float) -> list[Point]:
    """An objective's star (board_areas.draw_star)."""
    return [(c[0] + (r if k % 2 == 0 else r * 0.45) * math.cos(math.radians(-90 + 36 * k)),
             c[1] + (r if k % 2 == 0 else r * 0.45) * math.sin(math.radians(-90 + 36 * k))) for k in range(10)]


def _filled(points: list[Point], size: tuple[int, int]) -> bytes:
    """A polygon's pixels, filled as ImageDraw fills it."""
    image = Image.new("L", size)
    ImageDraw.Draw(image).polygon(points, fill=255)
    return image.tobytes()


@pytest.mark.parametrize("s", [150.0, 187.5, 210.0, 151.2, 93.75])
def test_a_mitred_inset_has_shapelys_corners_and_pixels(s: float) -> None:
    """Stars and landmark triangles at the boards' sizes, at many spots: the inset worked out directly has shapely's
    corners (to rounding) and fills the very same pixels."""
    for k in range(40):
        c = (37.3 + 11.7 * k, 41.9 + 7.3 * k)
        r = s * 0.12
        width = max(1, round(s * (0.02 if k % 2 else 0.025)))
        for points in (_star(c, s * 0.14), [(c[0], c[1] - r), (c[0] + r * 0.9, c[1] + r * 0.6),
                                             (c[0] - r * 0.9, c[1] + r * 0.6)]):
            mine = mitre_inset(points, width)
            assert mine is not None
            theirs = [(x, y) for x, y in Polygon(points).buffer(-width, join_style="mitre").exterior.coords]
            assert len(mine) == len(theirs) - 1
            assert all(min(math.dist(p, q) for q in theirs) < 1e-9 for p in mine)
            assert _filled([*mine, mine[0]], (600, 400)) == _filled(theirs, (600, 400))


def test_a_mitred_inset_shapely_would_cut_otherwise_is_left_to_it() -> None:
    """No inset where shapely's outline would have other corners: a corner without a turn, an inset deeper than the
    shape, a reflex corner past the mitre limit, too few points; a sharp convex tip (no limit in GEOS) is shapely's."""
    assert mitre_inset([(0.0, 0.0), (5.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)], 1.0) is None
    assert mitre_inset([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)], 6.0) is None
    assert mitre_inset([(0.0, 0.0), (100.0, 0.0), (50.0, 3.0), (50.0, 60.0)], 2.0) is None
    tip = mitre_inset([(0.0, 0.0), (100.0, 4.0), (0.0, 8.0)], 1.0)
    assert tip is not None and all(math.dist(p, q) < 1e-9 for p, q in zip(
        tip, [(1.0, 1.0407996802557442), (1.0, 6.959200319744256), (74.98000799360639, 4.0)]))
    assert mitre_inset([(0.0, 0.0), (1.0, 1.0)], 0.1) is None
    assert mitre_inset([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0), (0.0, 0.0)], 1.0) is not None


@pytest.mark.parametrize("label", ["0820", "2708", "1404"])
def test_a_window_places_only_the_names_near_it_and_where_the_whole_board_does(label: str) -> None:
    """A window of Onslaught's board (86 place names) sets only the names that may reach it or change where one of
    those goes, each exactly where the whole board sets it; and its pixels are the whole board's there."""
    from builder.render.board import board_layout, render_board

    game = load_game(data_root(), "onslaught")
    scale = reading_scale(game)
    names = {place.name for _, place in game.places}
    whole_texts: list = []  # type: ignore[type-arg]
    whole = render_board(game, scale, texts=whole_texts)
    x, y = board_layout(game, scale).centre(game.grid.hex_of(label))
    box = (max(0, int(x) - 350), max(0, int(y) - 300), int(x) + 350, int(y) + 300)
    window_texts: list = []  # type: ignore[type-arg]
    assert render_board(game, scale, texts=window_texts, window=box).tobytes() == whole.crop(box).tobytes()
    placed = [t for t in window_texts if t.text in names]
    everywhere = [t for t in whole_texts if t.text in names]
    assert len(placed) < len(everywhere) / 3
    assert all(t in everywhere for t in placed)
