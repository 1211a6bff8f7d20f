"""The map board: printed on the module's own grid, at any scale, byte-for-byte repeatable."""

from __future__ import annotations

import dataclasses
import statistics
from pathlib import Path

import pytest
from PIL import Image

from builder.render.board import (
    FALLBACK_FILLS,
    FALLBACK_SIDE,
    board_layout,
    hex_style,
    render_board,
    side_style,
    write_board,
)
from wargame.bundled import data_root
from wargame.errors import DataError
from wargame.game import Game, load_game
from wargame.grid import GridSpec
from wargame.hexes import Hex, Hexside
from wargame.layout import Layout
from wargame.models import Area, AreasFile, HexRecord, HexsideRecord, Line, PlaceRecord

SRC = "reconstructed"


# -- fixtures -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def onslaught() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


@pytest.fixture(scope="module")
def onslaught_board(onslaught: Game) -> Image.Image:
    """Onslaught's board at the module's scale (rendered once for the module)."""
    return render_board(onslaught)


def _side(game: Game, a: str, b: str) -> str:
    """The label of the side between two hexes given by label."""
    return game.grid.hexside_label(Hexside.between(game.grid.hex_of(a), game.grid.hex_of(b)))


@pytest.fixture(scope="module")
def toy(onslaught: Game) -> Game:
    """A small turned map with every kind of thing the board draws, unknown ids included."""
    spec = GridSpec(orientation="flat", columns=12, rows=9)
    game = dataclasses.replace(
        onslaught, id="toy", map=dataclasses.replace(onslaught.map, grid=spec, north="right", name="Toy"),
        hexes=[], hexsides=[], places=[], areas=AreasFile(schema_version=1))
    terrain = {
        "0101": ("sea",), "0102": ("sea",), "0201": ("sea",), "0302": ("forest",), "0303": ("marsh",),
        "0402": ("swamp_forest",), "0503": ("city", "fortification"), "0504": ("town",), "0603": ("rough",),
        "0604": ("bocage",), "0702": ("broken",), "0705": ("neutral",), "0801": ("mixed",),
    }
    features = [
        ("0302", "0303", "river"), ("0303", "0403", "river"), ("0403", "0404", "major_waterway"),
        ("0303", "0402", "stream"), ("0602", "0603", "canal"), ("0602", "0702", "ditch"),
        ("0201", "0202", "sea_side"), ("0503", "0403", "fortified"), ("0503", "0502", "fortified"),
        ("0504", "0503", "road"), ("0503", "0603", "road"), ("0303", "0403", "bridge"), ("0303", "0403", "road"),
        ("0504", "0604", "trail"), ("0702", "0703", "hedge_wall"),
    ]
    places = [("Testville", "0504", "town"), ("Fortburg", "0503", "port"), ("Twin", "0705", "city"),
              ("Twin", "0706", "city"), ("Lookout", "0302", "landmark"), ("Hamlet", "0603", "village")]
    areas = AreasFile(schema_version=1, area=[
        Area(id="port_fortburg", name="Fortburg", kind="port", hexes=("0503",), value=3, source=SRC),
        Area(id="fortburg_area", name="Fortburg area", kind="port_area", hexes=("0503", "0403"), source=SRC),
        Area(id="landing", name="Landing hexes", kind="landing", hexes=("0202", "0302"), source=SRC),
        Area(id="entry_a", name="Entry area A", kind="entry", hexes=("0209", "0309", "0409"), source=SRC),
        Area(id="west_edge", name="West edge (entry)", kind="entry", hexes=("0103", "0104"), source=SRC),
        Area(id="east_edge", name="East edge", kind="edge", hexes=("1202", "1203", "1204"), source=SRC),
        Area(id="ruritania", name="Ruritania", kind="country", hexes=("0705", "0706", "0805", "0806"), source=SRC),
        Area(id="objectives", name="Objectives", kind="victory", hexes=("0504",), source=SRC),
    ], line=[
        Line(id="victory_line", name="Victory Line", kind="victory", hexsides=(_side(game, "0604", "0704"),
                                                                               _side(game, "0604", "0605")),
             source=SRC),
        Line(id="boundary", name="Boundary", kind="boundary", hexes=("0101", "0201", "0301"), source=SRC),
    ])
    return dataclasses.replace(
        game,
        hexes=[(i, HexRecord(hex=label, terrain=t, source=SRC)) for i, (label, t) in enumerate(terrain.items())],
        hexsides=[(i, HexsideRecord(hexside=_side(game, a, b), feature=f, source=SRC))
                  for i, (a, b, f) in enumerate(features)],
        places=[(i, PlaceRecord(name=n, hex=h, kind=k, source=SRC)) for i, (n, h, k) in enumerate(places)],
        areas=areas)


@pytest.fixture(scope="module")
def toy_board(toy: Game) -> Image.Image:
    """The toy map's board at scale 1."""
    return render_board(toy)


# -- checks -------------------------------------------------------------------------------
def _close(pixel: tuple[int, ...], colour: str, tolerance: int = 10) -> bool:
    """True if a pixel is within `tolerance` of a colour on every channel."""
    want = Image.new("RGB", (1, 1), colour).getpixel((0, 0))
    assert isinstance(want, tuple)
    return all(abs(p - w) <= tolerance for p, w in zip(pixel, want))


def _pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, ...]:
    """The pixel at a layout point (layout points are pixel centres)."""
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return value


# Textures sparse enough that the median of a small patch is the hex's fill.
SPARSE_TEXTURES = (None, "stipple", "waves", "hatch")


def _quiet_hexes(game: Game) -> list[Hex]:
    """Hexes of one plainly drawn terrain with nothing else near their centre: no feature on
    a side, no place, area or line in or next to them, not on the map edge."""
    busy: set[Hex] = set()
    for side in game.hexside_features:
        busy |= {side.a, side.b}
    for _, place in game.places:
        h = game.grid.hex_of(place.hex)
        busy |= {h, *h.neighbours()}
    for area in game.areas.area:
        if area.kind in ("port", "entry", "edge", "victory", "landing", "beach", "port_area", "country"):
            for h in game.area_hexes(area.id):
                busy |= {h, *h.neighbours()}
    for line in game.areas.line:
        for label in line.hexes:
            h = game.grid.hex_of(label)
            busy |= {h, *h.neighbours()}
        for text in line.hexsides:
            busy |= set(game.grid.parse_hexside(text).hexes())
    return [h for h in sorted(game.grid.hexes)
            if len(game.hex_terrain[h]) == 1 and hex_style(game, game.hex_terrain[h][0]).texture in SPARSE_TEXTURES
            and h not in busy and not game.grid.is_edge(h)]


def _median(image: Image.Image, point: tuple[float, float], radius: int = 2) -> tuple[int, ...]:
    """The median colour of a small square patch around a layout point."""
    x, y = round(point[0]), round(point[1])
    patch = [_pixel(image, (x + dx, y + dy)) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]
    return tuple(int(statistics.median(p[k] for p in patch)) for k in range(3))


def _assert_on_grid(game: Game, image: Image.Image, layout: Layout) -> None:
    """Plain hexes show their own fill at and around their centres (not a neighbour's), and a
    darker grid line exactly on their sides."""
    hexes = _quiet_hexes(game)
    assert len(hexes) >= 3
    s = layout.size_px
    for h in hexes:
        fill = hex_style(game, game.hex_terrain[h][0]).fill
        cx, cy = layout.centre(h)
        for dx, dy in ((0.0, 0.0), (-0.35, 0.0), (0.35, 0.0), (0.0, 0.35)):
            colour = _median(image, (cx + dx * s, cy + dy * s))
            assert _close(colour, fill), f"{game.grid.label_of(h)} at {dx, dy}: {colour} is not its fill {fill}"
        for n in h.neighbours():
            (ax, ay), (bx, by) = layout.hexside_segment(Hexside.between(h, n)).coords
            mx, my = (ax + bx) / 2, (ay + by) / 2
            if my < cy - 0.6 * s or game.hex_terrain.get(n) != game.hex_terrain[h]:
                continue  # the hex label sits inside the top side; coasts have their own lines
            inside = _median(image, (mx + (cx - mx) * 0.22, my + (cy - my) * 0.22))
            assert sum(_pixel(image, (mx, my))) < sum(inside) - 20, \
                f"no grid line on {game.grid.label_of(h)}'s side toward {game.grid.label_of(n)}"
            assert _close(inside, fill), f"{game.grid.label_of(h)} inside its side toward {game.grid.label_of(n)}"


# -- tests --------------------------------------------------------------------------------
def test_board_layout_is_the_modules_layout(onslaught: Game) -> None:
    """At scale 1 the board is printed on the module's layout; at scale k on for_grid's k-fold one."""
    assert board_layout(onslaught) == onslaught.layout
    spec = onslaught.map.layout
    assert board_layout(onslaught, 2.0) == Layout.for_grid(onslaught.grid, spec.hex_size_px * 2, spec.margin_px * 2)


def test_onslaught_board_on_the_module_grid(onslaught: Game, onslaught_board: Image.Image) -> None:
    """The printed hexes sit exactly where the module's grid puts them."""
    width, height = onslaught.board_size
    assert onslaught_board.width >= width and onslaught_board.height >= height
    # The title and legend extend the image on one side only; the map is never shifted.
    assert onslaught_board.width == width or onslaught_board.height == height
    _assert_on_grid(onslaught, onslaught_board, onslaught.layout)


def test_toy_board_draws_everything_on_the_grid(toy: Game, toy_board: Image.Image) -> None:
    """Unknown terrain and features get fallback styles; the grid still lines up."""
    assert toy_board.mode == "RGB"
    width, height = toy.board_size
    assert toy_board.width >= width and toy_board.height >= height
    _assert_on_grid(toy, toy_board, toy.layout)


def test_scale_two(toy: Game, toy_board: Image.Image) -> None:
    """Scale 2 doubles the image, on for_grid's layout for twice the hex size and margin."""
    one, two = toy_board, render_board(toy, 2.0)
    assert abs(two.width - 2 * one.width) <= 4 and abs(two.height - 2 * one.height) <= 4
    spec = toy.map.layout
    layout = Layout.for_grid(toy.grid, spec.hex_size_px * 2, spec.margin_px * 2)
    width, height = layout.board_size(toy.grid, spec.margin_px * 2)
    assert two.width >= width and two.height >= height
    _assert_on_grid(toy, two, layout)


def test_write_board_is_repeatable(toy: Game, toy_board: Image.Image, tmp_path: Path) -> None:
    """Two renders write byte-identical PNGs named after the game."""
    first = write_board(toy, tmp_path / "a")
    second = write_board(toy, tmp_path / "b")
    assert first.name == "toy-board.png"
    assert first.read_bytes() == second.read_bytes()
    with Image.open(first) as image:
        assert image.format == "PNG" and image.size == toy_board.size


def test_fallback_styles(toy: Game) -> None:
    """An id the palette does not know gets a stable fill, a texture guessed from its words,
    and a grey dashed line for hexside features."""
    mystery = hex_style(toy, "mystery_ground")
    assert mystery.fill in FALLBACK_FILLS and mystery.texture is None
    assert hex_style(toy, "mystery_ground") == mystery
    assert hex_style(toy, "swamp_forest").texture in ("trees", "tufts")
    assert hex_style(toy, "forest").fill == toy.terrain["forest"].colour  # terrain.toml's colour wins
    assert side_style(toy, "mystery_side") == FALLBACK_SIDE
    assert side_style(toy, "old_roadway").kind == "path"


@pytest.mark.slow
def test_omaha_board_on_the_module_grid() -> None:
    """The Omaha board (turned map) lines up with its grid too, when its data load."""
    try:
        game = load_game(data_root(), "omaha")
    except DataError as e:
        pytest.skip(f"Omaha data do not load yet: {e}")
    image = render_board(game)
    _assert_on_grid(game, image, game.layout)


@pytest.mark.slow
def test_onslaught_board_is_repeatable(onslaught: Game, onslaught_board: Image.Image) -> None:
    """The full board renders to the same pixels twice."""
    assert render_board(onslaught).tobytes() == onslaught_board.tobytes()


def test_banded_translucent_paste_equals_one_paste(onslaught: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A translucent layer pasted in bands on threads gives the bytes of one whole paste."""
    from PIL import ImageDraw

    from builder.render import board_canvas

    noise = Image.effect_noise((600, 1400), 60).convert("RGB")

    def tinted() -> bytes:
        canvas = noise.copy()
        b = board_canvas.BoardCanvas(onslaught, onslaught.layout, onslaught.layout, canvas, ImageDraw.Draw(canvas),
                         (600.0, 1400.0), 1)

        def paint(mask: ImageDraw.ImageDraw, ink: int, origin: tuple[float, float]) -> None:
            mask.line([(10 - origin[0], 20 - origin[1]), (590 - origin[0], 1380 - origin[1])], fill=ink, width=40)
        b.tint(paint, "#7a0a4a", 90, (0, 0, 600, 1400))
        return canvas.tobytes()

    banded = tinted()
    monkeypatch.setattr(board_canvas, "PASTE_BANDS", 1)
    assert banded == tinted()
    assert banded != noise.tobytes()


def test_threaded_png_encoding_gives_the_same_bytes() -> None:
    """encode_pngs keeps the order and the bytes of encoding one image after another."""
    import io

    from PIL import Image

    from builder.vassal.module import PNG_COMPRESS_LEVEL, encode_pngs

    images = {f"n{k}": Image.effect_noise((40 + 30 * k, 50), 30 + k).convert("RGB") for k in range(5)}

    def one(image: Image.Image) -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
        return buffer.getvalue()

    encoded = encode_pngs(images)
    assert list(encoded) == list(images)
    assert all(encoded[name] == one(image) for name, image in images.items())


# -- the renderer's shape -------------------------------------------------------------------
RENDER = Path(__file__).resolve().parent.parent / "builder" / "render"
ORIENTATION_NAMES = frozenset({"flat", "pointy"})


def orientation_branches(source: str) -> list[int]:
    """Lines of a module that name an orientation ("flat", "pointy") or read one (`orientation`) instead of
    taking its matrix: the places a branch on the orientation's name could hide."""
    import ast

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in ORIENTATION_NAMES:
            lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "orientation":
            lines.append(node.lineno)
        elif (isinstance(node, ast.Name) and node.id == "orientation") or (
                isinstance(node, ast.arg) and node.arg == "orientation"):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_orientation_check_finds_a_branch() -> None:
    """The check below finds the branches it is there to forbid."""
    assert orientation_branches('def f(layout):\n    return 0.0 if layout.orientation == "flat" else 30.0\n') == [2, 2]
    assert orientation_branches('DY = {"pointy": -0.6}\n\ndef g(orientation: str) -> None: ...\n') == [1, 3]
    assert orientation_branches('"""Flat-topped hexes: a word in a docstring is not a branch."""\n') == []


def test_no_render_module_branches_on_orientation_names() -> None:
    """Corners, side normals and centres come from the kernel's orientation matrix (house style 17): no module of
    builder/render names an orientation or reads a layout's orientation name."""
    offenders = {p.name: found for p in sorted(RENDER.glob("*.py"))
                 if (found := orientation_branches(p.read_text(encoding="utf-8")))}
    assert offenders == {}


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_the_renderer_takes_its_corners_from_the_layout(orientation: str) -> None:
    """A hex painted at a layout's centre has the layout's own corners, bit for bit, in either orientation."""
    from builder.render.board_canvas import hex_corners

    layout = Layout(orientation, 37.5, (12.0, 31.0))  # type: ignore[arg-type]
    for h in (Hex(0, 0), Hex(3, -2), Hex(-5, 7)):
        assert hex_corners(layout.centre(h), layout.size_px, layout.matrix) == layout.corners(h)


def test_board_modules_are_short_and_say_what_they_hold() -> None:
    """The board renderer is split by concern: no module over 600 lines, each opening with a one-line docstring."""
    import ast

    modules = sorted(RENDER.glob("board*.py"))
    assert len(modules) >= 6
    for path in modules:
        source = path.read_text(encoding="utf-8")
        assert len(source.splitlines()) <= 600, path.name
        doc = ast.get_docstring(ast.parse(source))
        assert doc is not None and "\n" not in doc.strip(), path.name


def test_a_side_between_two_hexes_is_its_hexsides_ends() -> None:
    """The board's sides from the centres it keeps are `Layout.hexside_ends`, to the bit and in its order, for every
    side of every bundled game taken from either hex (a line's direction decides its pixels at even widths)."""
    from builder.render.board import _frame
    from builder.render.board_canvas import BoardCanvas
    from builder.render.window import ShiftedDraw
    from wargame.bundled import game_ids

    for game_id in game_ids(data_root()):
        game = load_game(data_root(), game_id)
        frame = _frame(game, 1.0)
        image = Image.new("RGB", (1, 1))
        b = BoardCanvas(game, frame.layout, frame.fine, image, ShiftedDraw(image), (1.0, 1.0), frame.ss)
        for h in sorted(game.grid.hexes):
            for n in h.neighbours():
                side = Hexside.between(h, n)
                assert b.side_between(h, n) == b.segment(side) == frame.fine.hexside_ends(side), (game_id, h, n)
                assert b.centre(h) == frame.fine.centre(h)


@pytest.mark.parametrize("game_id", ["moscow", "omaha", "onslaught"])
def test_hexes_textured_are_those_styled_hex_by_hex(game_id: str) -> None:
    """The hexes whose terrains are all (or any) of a texture, each terrain styled once, are those styling every hex
    gives: the sea (all waves) and the forts (any fort) of each bundled board."""
    from builder.render.board_terrain import hex_style, hexes_textured

    game = load_game(data_root(), game_id)
    for texture, every in (("waves", True), ("fort", False), ("waves", False)):
        join = all if every else any
        expected = {h for h, terrain in game.hex_terrain.items()
                    if join(hex_style(game, t).texture == texture for t in terrain)}
        assert hexes_textured(game, texture, every) == expected
    assert hexes_textured(game, "waves", every=True) <= hexes_textured(game, "waves", every=False)
