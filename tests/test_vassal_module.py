"""The built .vmod read back independently of the writer: grid, pieces, images, set-ups."""

from __future__ import annotations

import io
from collections import Counter
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from builder.render.board import board_layout
from wargame.vassal.encoding import decode
from builder.vassal.module import build_module, draw_art
from wargame.vassal.savefile import deobfuscate
from import_probe import run_probe
from vassal_oracle import VassalHexGrid
from wargame.bundled import data_root, game_ids
from wargame.game import Game, load_game
from data_edits import edit

P = "VASSAL.build."


class Built:
    """A module built once per game, with its archive opened."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.art = draw_art(game)
        self.data = build_module(game, "0.0.test", self.art).data
        self.zip = zipfile.ZipFile(io.BytesIO(self.data))
        self.names = set(self.zip.namelist())
        self.root = etree.fromstring(self.zip.read("buildFile.xml"))


@pytest.fixture(scope="module", params=game_ids(data_root()))
def built(request: pytest.FixtureRequest) -> Built:
    """Each bundled game's module."""
    return Built(load_game(data_root(), request.param))


def chain_of(command: str) -> list[tuple[str, str]]:
    """(type, state) of every trait of an AddPiece command, outermost first."""
    assert command.startswith("+/")
    _, type_text, state_text = decode(command[2:], "/")
    out = []
    while True:
        types, states = decode(type_text, "\t"), decode(state_text, "\t")
        assert len(types) == len(states), "one state token per trait"
        out.append((types[0], states[0]))
        if len(types) == 1:
            return out
        type_text, state_text = types[1], states[1]


def slots(root: etree._Element) -> list[etree._Element]:
    """Every PieceSlot of the buildFile."""
    return list(root.iter(P + "widget.PieceSlot"))


def test_archive_layout(built: Built) -> None:
    """buildFile.xml, moduledata and every image; entries sorted with fixed timestamps."""
    assert {"buildFile.xml", "moduledata", "images/board.png"} <= built.names
    infos = built.zip.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
    assert not any(n.startswith("/") or ".." in n for n in built.names)
    meta = etree.fromstring(built.zip.read("moduledata"))
    assert meta.findtext("VassalVersion") == "3.7.0" and meta.findtext("name") == built.game.manifest.title
    assert built.root.get("VassalVersion") == "3.7.0"


def test_main_map_board_and_grid(built: Built) -> None:
    """The main map has its board, a HexGrid and a HexGridNumbering; handlers are listed."""
    maps = {m.get("mapName"): m for m in built.root.iter(P + "module.Map")}
    main = maps["Main Map"]
    board = main.find(f".//{P}module.map.boardPicker.Board")
    assert board is not None and f"images/{board.get('image')}" in built.names
    assert main.find(f".//{P}module.map.boardPicker.board.HexGrid") is not None
    assert main.find(f".//{P}module.map.boardPicker.board.mapgrid.HexGridNumbering") is not None
    for handler in ("PieceMover", "KeyBufferer", "MenuDisplayer", "StackExpander", "CounterDetailViewer"):
        assert main.find(f"{P}module.map.{handler}") is not None


def test_every_at_start_stack_is_in_its_hex(built: Built) -> None:
    """VASSAL's name->point for each set-up stack lands in the hex of that label (our layout)."""
    main = next(m for m in built.root.iter(P + "module.Map") if m.get("mapName") == "Main Map")
    grid_el = main.find(f".//{P}module.map.boardPicker.board.HexGrid")
    numbering = main.find(f".//{P}module.map.boardPicker.board.mapgrid.HexGridNumbering")
    assert grid_el is not None and numbering is not None
    with Image.open(io.BytesIO(built.zip.read("images/board.png"))) as board:
        size = board.size
    vassal = VassalHexGrid(dict(grid_el.attrib), dict(numbering.attrib), size)
    layout = board_layout(built.game, 1.0)
    stacks = [s for s in main.iter(P + "module.map.SetupStack") if s.get("useGridLocation") == "true"]
    placed_on_map = {p.location for _, p in built.game.setup
                     if p.scenario == built.game.manifest.scenario[0].id and built.game.grid.is_label(p.location)}
    assert {s.get("location") for s in stacks} == placed_on_map
    for stack in stacks:
        label = stack.get("location")
        point = vassal.location(label)
        assert built.game.grid.label_of(layout.pixel_to_hex(*point)) == label


def test_every_unit_is_a_two_sided_piece_with_its_id(built: Built) -> None:
    """Each unit has a slot whose piece carries UnitId and both face images (one-step: one)."""
    by_unit: dict[str, list[tuple[str, str]]] = {}
    for slot in slots(built.root):
        chain = chain_of(slot.text)
        marks = [(t, s) for t, s in chain if t.startswith("mark;")]
        for t, s in marks:
            keys, values = decode(t[5:], ","), decode(s, ",")
            props = dict(zip(keys, values))
            if "UnitId" in props:
                by_unit.setdefault(props["UnitId"], chain)
    assert set(by_unit) == set(built.game.units_by_id)
    for unit_id, chain in by_unit.items():
        unit = built.game.units_by_id[unit_id]
        layers = [t for t, _ in chain if t.startswith("emb2;")]
        if unit.steps == 2:
            assert len(layers) == 1
            images = decode(decode(layers[0][5:], ";")[15], ",")
            assert len(images) == 2
        else:
            images = [decode(chain[-1][0][6:], ";")[2]]
        for image in images:
            assert f"images/{image}" in built.names, (unit_id, image)


def test_every_referenced_file_exists(built: Built) -> None:
    """Board images, chart files, set-up files and every piece image are in the archive."""
    for board in built.root.iter(P + "module.map.boardPicker.Board"):
        assert f"images/{board.get('image')}" in built.names
    for chart in built.root.iter(P + "widget.Chart"):
        assert f"images/{chart.get('fileName')}" in built.names
    for chart in built.root.iter(P + "widget.HtmlChart"):
        assert chart.get("fileName") in built.names
    for setup in built.root.iter(P + "module.PredefinedSetup"):
        assert setup.get("file") in built.names
    for slot in slots(built.root):
        for trait, _ in chain_of(slot.text):
            if trait.startswith("piece;"):
                image = decode(trait[6:], ";")[2]
                assert not image or f"images/{image}" in built.names


def test_slot_ids_are_unique(built: Built) -> None:
    """Every PieceSlot gpid is unique and below nextPieceSlotId."""
    gpids = [int(s.get("gpid")) for s in slots(built.root)]
    assert len(gpids) == len(set(gpids))
    assert max(gpids) < int(built.root.get("nextPieceSlotId"))


def test_predefined_setup_holds_the_scenario(built: Built) -> None:
    """Each scenario's .vsav decodes to begin_save ... end_save with one piece per set-up piece."""
    for scenario in built.game.manifest.scenario:
        with zipfile.ZipFile(io.BytesIO(built.zip.read(f"{scenario.id}.vsav"))) as save:
            text = deobfuscate(save.read("savedGame")).decode("utf-8")
        commands = decode(text, "\x1b")
        assert commands[0] == "begin_save" and commands[-1] == "end_save"
        assert "SETUP_STACK\t" in commands
        adds = [decode(c[2:], "/") for c in decode(commands[2], "\x1b") if c.startswith("+/")]
        pieces = [a for a in adds if a[1] != "stack" and not a[1].startswith("deck;")]
        expected = sum(p.count for _, p in built.game.setup if p.scenario == scenario.id)
        assert len(pieces) == expected
        assert all("prototype;" not in piece[1] for piece in pieces)  # expanded, as VASSAL keeps them


def test_images_encoded_while_the_board_is_drawn_are_the_archives(built: Built) -> None:
    """Every image entry holds the PNG of the art's image, encoded on its own (those encoded
    ahead, while the board was drawn, and the board's own from its process included)."""
    from builder.vassal.art import encode_png

    art = built.art
    images = {f"images/{name}": img for name, img in art.counters.items()}
    images |= {"images/board.png": art.board, "images/holding.png": art.holding.image}
    images |= {f"images/chart-{chart_id}.png": img for chart_id, img in art.charts.items()}
    assert set(art.encoded) == set(images)
    for name, image in images.items():
        assert built.zip.read(name) == encode_png(image), name


def test_an_image_encoded_ahead_is_used_only_for_that_image(built: Built) -> None:
    """Bytes encoded ahead for an image the Art no longer holds are not written."""
    import dataclasses

    from builder.vassal.art import encode_png

    art = built.art
    stale = {**art.encoded, "images/holding.png": (Image.new("RGB", (3, 3)), b"stale")}
    data = build_module(built.game, "0.0.test", dataclasses.replace(art, encoded=stale)).data
    assert data == built.data
    assert zipfile.ZipFile(io.BytesIO(data)).read("images/holding.png") == encode_png(art.holding.image)


def test_an_error_drawing_the_board_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board is drawn in another process; a data error there is raised by draw_art."""
    from builder.vassal import art
    from wargame.errors import DataError

    def broken(game: Game, scale: float = 1.0) -> Image.Image:
        raise DataError("maps/toy/hexes.csv, line 3: no terrain 'lava'")

    monkeypatch.setattr(art, "render_board", broken)
    with pytest.raises(DataError, match="no terrain 'lava'"):
        art.draw_art(load_game(data_root(), "omaha"))


def test_a_failure_beside_the_board_stops_its_drawing(monkeypatch: pytest.MonkeyPatch, forked: list[int]) -> None:
    """When drawing the counters or charts fails, the process drawing the board is stopped
    rather than left running."""
    import os
    import time

    from builder.vassal import art
    from wargame.errors import DataError

    def slow(game: Game, scale: float = 1.0) -> Image.Image:
        time.sleep(60)
        raise AssertionError("not stopped")

    def broken(game: Game, counter_px: int) -> Image.Image:
        raise DataError("counters/toy/charts.toml, line 2: no such table")

    monkeypatch.setattr(art, "render_board", slow)
    monkeypatch.setattr(art, "render_holding_board", broken)
    start = time.monotonic()
    with pytest.raises(DataError, match="no such table"):
        art.draw_art(load_game(data_root(), "omaha"))
    assert time.monotonic() - start < 30
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # stopped and reaped: no such child any more


@pytest.mark.slow
def test_two_builds_are_byte_identical(built: Built) -> None:
    """The same data build the same bytes."""
    assert build_module(built.game, "0.0.test", draw_art(built.game)).data == built.data


def test_build_command_writes_modules(tmp_path: Path) -> None:
    """`vmodbuild build --all` writes one .vmod per bundled game."""
    from click.testing import CliRunner

    from builder.cli import main

    result = CliRunner().invoke(main, ["build", "--all", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{g}.vmod" for g in game_ids(data_root()))


def test_palette_panels_are_grids(built: Built) -> None:
    """Every PanelWidget lays its counters out in a grid (fixed="true"; otherwise one squashed row)."""
    panels = list(built.root.iter(P + "widget.PanelWidget"))
    assert panels
    for panel in panels:
        assert panel.get("fixed") == "true", panel.get("entryName")
        assert int(panel.get("nColumns", "0")) >= 2, panel.get("entryName")


def test_palettes_open_wide_enough(built: Built) -> None:
    """Each PieceWindow has a docked width, and a ListWidget's divider leaves room for its grid."""
    windows = list(built.root.iter(P + "module.PieceWindow"))
    assert windows
    for window in windows:
        assert int(window.get("defaultWidth", "0")) >= 300, window.get("name")
    for widget in built.root.iter(P + "widget.ListWidget"):
        divider = int(widget.get("divider", "0"))
        for panel in widget.iter(P + "widget.PanelWidget"):
            slot_px = max(int(s.get("width", "0")) for s in panel.iter(P + "widget.PieceSlot"))
            assert divider >= int(panel.get("nColumns", "1")) * slot_px, (widget.get("entryName"), panel.get("entryName"))


def test_mouse_over_shows_a_single_counter(built: Built) -> None:
    """Every map's CounterDetailViewer shows a lone counter too (VASSAL's default needs two)."""
    viewers = list(built.root.iter(P + "module.map.CounterDetailViewer"))
    assert len(viewers) == len(list(built.root.iter(P + "module.Map")))
    assert all(v.get("minDisplayPieces") == "1" for v in viewers)
    # ... with its text: the hex as VASSAL names it (our label) and each counter's name.
    assert all(v.get("showtext") == "true" and v.get("summaryReportFormat") == "$LocationName$"
               and v.get("counterReportFormat") == "$PieceName$" for v in viewers)


def test_help_mentions_draw_cups_only_where_the_game_has_them(built: Built) -> None:
    """The help's paragraph on draw cups is there only for a game with draw cups (Omaha's support
    fire; Onslaught has none)."""
    help_text = built.zip.read("help.html").decode("utf-8")
    has_cups = any(b.kind == "draw_cup" for b in built.game.manifest.box)
    assert ("draw cup" in help_text) == has_cups


def test_roster_lists_only_the_game_sides(built: Built) -> None:
    """The PlayerRoster's sides are the game's; VASSAL adds its own observer."""
    roster = built.root.find(P + "module.PlayerRoster")
    assert roster is not None
    assert [e.text for e in roster.findall("entry")] == list(built.game.manifest.sides)


def zone_rects(root: etree._Element) -> dict[str, tuple[int, int, int, int]]:
    """Each Zone of the 'Boxes and Tracks' map by name: its path as a rectangle (x0, y0, x1, y1)."""
    holding = next(m for m in root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    rects: dict[str, tuple[int, int, int, int]] = {}
    for zone in holding.iter(P + "module.map.boardPicker.board.mapgrid.Zone"):
        points = [tuple(int(v) for v in pair.split(",")) for pair in zone.get("path", "").split(";")]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        assert len(points) == 4 and len(set(xs)) == 2 and len(set(ys)) == 2, "an axis-aligned rectangle"
        assert zone.get("name") not in rects, f"zone {zone.get('name')} twice"
        rects[zone.get("name", "")] = (min(xs), min(ys), max(xs), max(ys))
    return rects


def test_boxes_and_track_spaces_are_named_zones(built: Built) -> None:
    """The holding board has a Zone per box and track space; each set-up stack lies in its box's zone."""
    root = built.root
    holding = next(m for m in root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    zonedgrids = list(holding.iter(P + "module.map.boardPicker.board.ZonedGrid"))
    assert len(zonedgrids) == 1
    rects = zone_rects(root)
    manifest = built.game.manifest
    assert {b.name for b in manifest.box} <= set(rects)
    for track in manifest.track:
        assert len([n for n in rects if n.endswith(f" {track.first}")]) >= 1
    if any(t.kind == "turn" for t in manifest.track):
        assert "Turn 1" in rects
    for zone in root.iter(P + "module.map.boardPicker.board.mapgrid.Zone"):  # the main map's "Map key" too
        assert zone.get("locationFormat") == "$name$"
    with Image.open(io.BytesIO(built.zip.read("images/holding.png"))) as image:
        width, height = image.size
    boxes = list(rects.items())
    for i, (name, (x0, y0, x1, y1)) in enumerate(boxes):
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, name
        for other, (a0, b0, a1, b1) in boxes[i + 1:]:
            assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, (name, other)
    names = {b.id: b.name for b in manifest.box}

    def zone_at(x: int, y: int) -> list[str]:
        return [n for n, (x0, y0, x1, y1) in rects.items() if x0 <= x < x1 and y0 <= y < y1]

    holding = next(m for m in root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    for stack in holding.iter(P + "module.map.SetupStack"):
        box_id = stack.get("name", "").removeprefix("Set-up ")
        if box_id in names:
            assert zone_at(int(stack.get("x", "0")), int(stack.get("y", "0"))) == [names[box_id]]


def test_counters_fit_inside_a_hex(built: Built) -> None:
    """Every counter face is square and about 0.8 of the hex's width across flats (HexGrid dy or dx)."""
    grid = next(built.root.iter(P + "module.map.boardPicker.board.HexGrid"))
    across = float(grid.get("dx" if grid.get("sideways") == "true" else "dy", "0"))
    sizes = set()
    for slot in slots(built.root):
        for trait, _ in chain_of(slot.text):
            images = []
            if trait.startswith("piece;"):
                images = [decode(trait[6:], ";")[2]]
            elif trait.startswith("emb2;"):
                images = decode(decode(trait[5:], ";")[15], ",")
            for name in filter(None, images):
                with Image.open(io.BytesIO(built.zip.read(f"images/{name}"))) as image:
                    sizes.add(image.size)
        assert slot.get("width") == slot.get("height")
    assert len(sizes) == 1
    (width, height), = sizes
    assert width == height and 0.75 * across <= width <= 0.85 * across, (width, across)
    assert {int(s.get("width", "0")) for s in slots(built.root)} == {width}


def test_chart_tabs_carry_the_charts_own_names(built: Built) -> None:
    """Chart tabs are named as each chart is titled (the table's own name: Onslaught's "Combat Table",
    1.0 and 7.0; F&M's "Combat Results Table"), never "Crt"."""
    from builder.render.charts import chart_sheets

    titles = [sheet.title for sheet in chart_sheets(built.game).values()]
    names = [c.get("chartName") for c in built.root.iter(P + "widget.Chart")]
    assert [n.removesuffix(" (as printed)") for n in names] == titles
    assert len(set(names)) == len(names), names  # VASSAL tells tabs by name only (Moscow had two of each of two)
    if built.game.crt is not None:
        assert built.game.crt.name in names
        assert built.game.crt.name == {"onslaught": "Combat Table", "omaha": "Combat Results Table", "moscow": "Combat Results Table"}[built.game.id]
    assert not any(n.startswith("Chart ") or n == "Crt" for n in names)


def test_set_up_stacks_fit_inside_their_boxes(built: Built) -> None:
    """Each set-up stack on the holding board, drawn as VASSAL draws it (StackMetrics), stays in its zone."""
    holding = next(m for m in built.root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    metrics = holding.find(P + "module.map.StackMetrics")
    assert metrics is not None
    step_x, step_y = int(metrics.get("unexSepX", "0")), int(metrics.get("unexSepY", "0"))
    rects = zone_rects(built.root)
    for stack in holding.iter(P + "module.map.SetupStack"):
        x, y = int(stack.get("x", "0")), int(stack.get("y", "0"))
        pieces = stack.findall(P + "widget.PieceSlot")
        size = int(pieces[0].get("width", "0"))
        climb = len(pieces) - 1
        # StackMetrics: each piece of an unexpanded stack is drawn unexSep right of and above the last.
        left, top = x - size // 2, y - size // 2 - climb * step_y
        right, bottom = x + size // 2 + climb * step_x, y + size // 2
        inside = [n for n, (x0, y0, x1, y1) in rects.items() if x0 <= x < x1 and y0 <= y < y1]
        assert len(inside) == 1, stack.get("name")
        x0, y0, x1, y1 = rects[inside[0]]
        assert x0 < left and right < x1 and y0 < top and bottom < y1, (stack.get("name"), len(pieces))


def test_draw_cups_are_face_down_decks(built: Built) -> None:
    """Each draw cup is a DrawPile in its box holding its markers, masked, and a Deck in every set-up save."""
    game = built.game
    cups = {b.id: b.name for b in game.manifest.box if b.kind == "draw_cup"}
    holding = next(m for m in built.root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    piles = {p.get("name"): p for p in holding.iter(P + "module.map.DrawPile")}
    assert set(piles) == set(cups.values())
    assert not any(s.get("name", "").removeprefix("Set-up ") in cups for s in holding.iter(P + "module.map.SetupStack"))
    rects = zone_rects(built.root)
    first = game.manifest.scenario[0].id
    for box_id, name in cups.items():
        pile = piles[name]
        assert (pile.get("faceDown"), pile.get("shuffle"), pile.get("drawFaceUp")) == ("Always", "Always", "false")
        assert pile.get("allowMultiple") == "false" and pile.get("owningBoard") == "Boxes and tracks"
        x0, y0, x1, y1 = rects[name]
        assert x0 < int(pile.get("x", "0")) < x1 and y0 < int(pile.get("y", "0")) < y1
        cards = pile.findall(P + "widget.CardSlot")
        assert len(cards) == sum(p.count for _, p in game.setup if p.scenario == first and p.location == box_id)
        for card in cards:
            masks = [t for t, _ in chain_of(card.text or "") if t.startswith("obs;")]
            assert len(masks) == 1, card.get("entryName")
            _, image, command, style = decode(masks[0][4:], ";")[:4]
            assert f"images/{image}" in built.names and command and style == "I"
    for scenario in game.manifest.scenario:
        with zipfile.ZipFile(io.BytesIO(built.zip.read(f"{scenario.id}.vsav"))) as save:
            commands = decode(deobfuscate(save.read("savedGame")).decode("utf-8"), "\x1b")
        adds = [decode(c[2:], "/") for c in decode(commands[2], "\x1b") if c.startswith("+/")]
        order = {piece_id: i for i, (piece_id, _, _) in enumerate(adds)}
        stacked = {i for _, type_text, state in adds if type_text == "stack" for i in decode(state, ";")[3:]}
        decks = {decode(t, ";")[13]: (i, decode(s, ";")) for i, t, s in adds if t.startswith("deck;")}
        assert set(decks) == set(cups.values())
        for box_id, name in cups.items():
            deck_id, (map_name, x, y, face_down, contents) = decks[name]
            assert (map_name, x, y, face_down) == ("Boxes and Tracks", piles[name].get("x"), piles[name].get("y"), "true")
            ids = decode(contents, ",")
            assert len(ids) == sum(p.count for _, p in game.setup if p.scenario == scenario.id and p.location == box_id)
            assert all(order[i] < order[deck_id] and i not in stacked for i in ids)


def pieces_of_save(built: Built, scenario_id: str) -> list[tuple[dict[str, str], list[tuple[str, str]]]]:
    """Every piece a set-up save adds: its Marker-trait properties and its (type, state) chain."""
    with zipfile.ZipFile(io.BytesIO(built.zip.read(f"{scenario_id}.vsav"))) as save:
        commands = decode(deobfuscate(save.read("savedGame")).decode("utf-8"), "\x1b")
    out = []
    for command in decode(commands[2], "\x1b"):
        if not command.startswith("+/"):
            continue
        _, type_text, _ = decode(command[2:], "/")
        if type_text == "stack" or type_text.startswith("deck;"):
            continue
        chain = chain_of(command)
        props: dict[str, str] = {}
        for trait, state in chain:
            if trait.startswith("mark;"):
                props.update(zip(decode(trait[5:], ","), decode(state, ",")))
        out.append((props, chain))
    return out


def track_space_name(game: Game, location: str) -> str:
    """The zone name a 'track@value' location should have: the track's name less 'track' ('Turn' for turns)."""
    track_id, _, value = location.partition("@")
    track = next(t for t in game.manifest.track if t.id == track_id)
    words = track.name.split()
    if words[-1].lower() == "track":
        words = words[:-1]
    return f"Turn {value}" if track.kind == "turn" else f"{' '.join(words)} {value}"


def test_track_markers_sit_on_their_set_up_spaces(built: Built) -> None:
    """Markers set up on a track space (Onslaught 3.0: supply 12 and 8) lie in that space's zone, in the buildFile and every save."""
    game = built.game
    rects = zone_rects(built.root)

    def zone_at(x: int, y: int) -> list[str]:
        return [n for n, (x0, y0, x1, y1) in rects.items() if x0 <= x < x1 and y0 <= y < y1]

    tracks = {t.id for t in game.manifest.track}
    first = game.manifest.scenario[0].id
    holding = next(m for m in built.root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    stacks = {s.get("name", "").removeprefix("Set-up "): s for s in holding.iter(P + "module.map.SetupStack")}
    on_tracks = [p for _, p in game.setup if p.location.partition("@")[0] in tracks and "@" in p.location]
    for placement in on_tracks:
        if placement.scenario != first:
            continue
        stack = stacks[placement.location]
        assert zone_at(int(stack.get("x", "0")), int(stack.get("y", "0"))) == [track_space_name(game, placement.location)]
    for scenario in game.manifest.scenario:
        wanted = Counter((p.piece, track_space_name(game, p.location)) for p in on_tracks if p.scenario == scenario.id)
        found: Counter[tuple[str, str]] = Counter()
        for props, chain in pieces_of_save(built, scenario.id):
            map_name, x, y = decode(chain[-1][1], ";")[:3]
            if "MarkerId" in props and map_name == "Boxes and Tracks":
                names = zone_at(int(x), int(y))
                assert len(names) == 1, (props["MarkerId"], x, y)
                if (props["MarkerId"], names[0]) in wanted:
                    found[(props["MarkerId"], names[0])] += 1
        assert found == wanted, scenario.id
    if game.manifest.id == "onslaught":
        assert {(p.piece, track_space_name(game, p.location)) for p in on_tracks} >= {
            ("allied_supply", "Allied supply 12"), ("allied_supply_income", "Allied supply 12"),
            ("german_supply", "German supply 8"), ("turn", "Turn 1")}


def test_track_spaces_snap_to_their_seats(built: Built) -> None:
    """Each track space's zone has a RegionGrid with one snapping Region inside it; boxes have no grid."""
    rects = zone_rects(built.root)
    holding = next(m for m in built.root.iter(P + "module.Map") if m.get("mapName") == "Boxes and Tracks")
    spaces = {track_space_name(built.game, f"{t.id}@{v}") for t in built.game.manifest.track
              for v in range(t.first, t.last + 1)}
    for zone in holding.iter(P + "module.map.boardPicker.board.mapgrid.Zone"):
        name = zone.get("name", "")
        grids = list(zone)
        if name not in spaces:
            assert grids == [], name
            continue
        assert [g.tag for g in grids] == [P + "module.map.boardPicker.board.RegionGrid"], name
        assert grids[0].get("snapto") == "true" and grids[0].get("visible") == "false"
        regions = grids[0].findall(P + "module.map.boardPicker.board.Region")
        assert len(regions) == 1 and regions[0].get("name") == name
        x, y = int(regions[0].get("originx", "-1")), int(regions[0].get("originy", "-1"))
        x0, y0, x1, y1 = rects[name]
        assert x0 < x < x1 and y0 < y < y1, name
    assert spaces <= set(rects)


def test_supply_markers_flip_to_their_bonus_side_and_say_so(built: Built) -> None:
    """A supply marker with a flip side (8.2: +30 Allied, +20 German) has two faces on Ctrl+F and a chat report."""
    markers = {m.id: m for m in built.game.markers.marker}
    flipping = {m.id for m in markers.values() if m.kind == "supply" and m.text}
    if built.game.manifest.id == "onslaught":
        assert flipping == {"allied_supply", "german_supply"}
        assert (markers["allied_supply"].text, markers["german_supply"].text) == ("+30", "+20")
    seen = set()
    for slot in slots(built.root):
        chain = chain_of(slot.text)
        props = {}
        for trait, state in chain:
            if trait.startswith("mark;"):
                props.update(zip(decode(trait[5:], ","), decode(state, ",")))
        if props.get("MarkerId") not in flipping:
            continue
        seen.add(props["MarkerId"])
        kinds = [t.split(";", 1)[0] for t, _ in chain]
        layers = [decode(t[5:], ";") for t, _ in chain if t.startswith("emb2;")]
        assert len(layers) == 1 and "report" in kinds and kinds.index("report") < kinds.index("emb2")
        images, names = decode(layers[0][15], ","), decode(layers[0][16], ",")
        assert len(images) == 2 and all(f"images/{i}" in built.names for i in images)
        # VASSAL splits level names at "+": the text's own "+" is escaped (Embellishment.getName).
        assert names[1] == "+ (" + markers[props["MarkerId"]].text.replace("+", "\\+") + ")"
        report = decode(next(t for t, _ in chain if t.startswith("report;"))[7:], ";")
        assert "$location$" in report[1] and "$newPieceName$" in report[1]
    assert seen == flipping


def test_legend_strip_is_a_zone_not_hexes(built: Built, tmp_path: Path) -> None:
    """The board's title and legend strip is the zone "Map key": VASSAL's ZonedGrid names a point
    there by the zone, and our reader reads a counter dropped there as no hex (issue 19: a counter
    on the legend read as a hex off the map, "0620 -> 0733")."""
    from wargame.vassal.buildfile import read_module
    from wargame.vassal.places import Places

    main = next(m for m in built.root.iter(P + "module.Map") if m.get("mapName") == "Main Map")
    board = main.find(f".//{P}module.map.boardPicker.Board")
    assert board is not None
    zoned = board.find(f"{P}module.map.boardPicker.board.ZonedGrid")
    assert zoned is not None and zoned.find(f"{P}module.map.boardPicker.board.HexGrid") is not None
    keys = [z for z in zoned.iter(P + "module.map.boardPicker.board.mapgrid.Zone") if z.get("name") == "Map key"]
    assert keys and all(z.get("useParentGrid") == "false" and z.find("*") is None for z in keys)
    with Image.open(io.BytesIO(built.zip.read("images/board.png"))) as image:
        width, height = image.size
    map_w, map_h = board_layout(built.game, 1.0).board_size(built.game.grid, built.game.map.layout.margin_px)
    assert width > map_w or height > map_h
    path = tmp_path / "module.vmod"
    path.write_bytes(built.data)
    places = Places(built.game, read_module(path))
    origin = read_module(path).maps["Main Map"].origin
    # Points across the strip: the legend, never a hex; points of the map: their hexes, as before.
    strip = [(map_w + 5, 5), (width - 5, height // 2), (width - 5, height - 5)] if width > map_w else \
        [(5, map_h + 5), (width // 2, height - 5), (width - 5, height - 5)]
    for x, y in strip:
        found = places.locate("Main Map", x + origin[0], y + origin[1])
        assert found.kind != "hex" and found.name == "Map key", (x, y, found)
    for _, placement in built.game.setup:
        if built.game.grid.is_label(placement.location):
            cx, cy = built.game.layout.centre(built.game.grid.hex_of(placement.location))
            assert places.locate("Main Map", round(cx) + origin[0], round(cy) + origin[1]).name == placement.location


def test_the_art_plan_agrees_with_the_board(built: Built) -> None:
    """The plan's layout, made without importing the board's drawing, is board_layout's at any scale, and the
    board size read from the board's PNG header is board_image_size's."""
    from builder.render.board import board_image_size
    from builder.vassal.art import module_art, plan_art

    for scale in (0.5, 1.0, 1.7):
        assert plan_art(built.game, scale)[0].layout == board_layout(built.game, scale)
    assert module_art(built.art).board_size() == board_image_size(built.game) == built.art.board.size


def test_a_rebuild_reuses_the_art_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a cache folder, a rebuild of unchanged data draws nothing and writes the cold build's bytes
    (issue 30)."""
    from builder.vassal import art_cache, module

    game = load_game(data_root(), "moscow")
    cold = module.write_module(game, tmp_path / "cold.vmod", "0.0.test")
    first = module.write_module(game, tmp_path / "first.vmod", "0.0.test",
                                art=art_cache.cached_art(game, 1.0, tmp_path / "cache"))

    def no_drawing(*args: object) -> None:
        raise AssertionError("drawn again")

    monkeypatch.setattr(art_cache, "draw_pngs", no_drawing)
    reloaded = load_game(data_root(), "moscow")
    again = module.write_module(reloaded, tmp_path / "again.vmod", "0.0.test",
                                art=art_cache.cached_art(reloaded, 1.0, tmp_path / "cache"))
    assert cold.data == first.data == again.data
    assert (tmp_path / "again.vmod").read_bytes() == cold.data
    assert art_cache.art_keys(game, 2.0)["images/board.png"] != art_cache.art_keys(game, 1.0)["images/board.png"]


def test_a_changed_counter_redraws_only_its_faces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  data_copy: Path) -> None:
    """A unit's strength changed in a copy of the data: the rebuild draws that unit's two faces and the charts
    that name units (they read units.csv), nothing else, and writes what a cold build of the changed data
    writes (issue 30)."""
    from builder.vassal import art, art_cache, module

    cache = tmp_path / "cache"
    module.write_module(load_game(data_copy, "moscow"), tmp_path / "first.vmod", "0.0.test",
                        art=art_cache.cached_art(load_game(data_copy, "moscow"), 1.0, cache))
    edit(data_copy / "counters" / "moscow" / "units.csv",
         "\nge-xli,XLI Panzer Corps,German,german,panzer,mobile,corps,2,12-6,6-6,",
         "\nge-xli,XLI Panzer Corps,German,german,panzer,mobile,corps,2,11-6,6-6,")
    drawn: list[str] = []

    def counting(game: Game, scale: float, pictures: list[art.Picture]) -> dict[str, bytes]:
        drawn.extend(p.name for p in pictures)
        return art.draw_pngs(game, scale, pictures)

    changed = load_game(data_copy, "moscow")
    monkeypatch.setattr(art_cache, "draw_pngs", counting)
    rebuilt = module.write_module(changed, tmp_path / "rebuilt.vmod", "0.0.test",
                                  art=art_cache.cached_art(changed, 1.0, cache))
    assert sorted(drawn) == sorted(["images/ge-xli-full.png", "images/ge-xli-reduced.png",
                                    "images/chart-replacements.png", "images/chart-turn_track.png"])
    assert rebuilt.data == module.write_module(changed, tmp_path / "cold.vmod", "0.0.test").data
    drawn.clear()
    again = module.write_module(changed, tmp_path / "again.vmod", "0.0.test",
                                art=art_cache.cached_art(changed, 1.0, cache))
    assert drawn == [] and again.data == rebuilt.data


def test_a_damaged_art_store_is_drawn_again(tmp_path: Path) -> None:
    """A store file cut short or of another format is ignored, never a traceback."""
    from builder.vassal import art_cache

    store = tmp_path / "store.pngs"
    whole = art_cache.store_bytes({"0" * 32: b"png bytes", "1" * 32: b"more"})
    store.write_bytes(whole)
    assert art_cache.read_store(store) == {"0" * 32: b"png bytes", "1" * 32: b"more"}
    for damaged in (whole[:-1], whole[:len(art_cache.STORE_MAGIC) + 10], b"junk" + whole):
        store.write_bytes(damaged)
        assert art_cache.read_store(store) == {}


def test_markup_is_escaped_as_html_escape_does_without_importing_html() -> None:
    """markup_escaped is html.escape's text, with and without quotes; the module's code imports no html (its entity
    table cost every build 9 million instructions)."""
    import html

    from wargame.vassal.savefile import markup_escaped

    for text in ["", "plain", "a&b<c>d\"e'f", "&amp; &lt;", "<<'\">>", "Fürth – “Ω”"]:
        assert markup_escaped(text) == html.escape(text)
        assert markup_escaped(text, quote=False) == html.escape(text, quote=False)
    code = ("import sys\nimport builder.vassal.module, builder.vassal.declare, wargame.vassal.savefile\n"
            "print('html' in sys.modules)\n")
    assert run_probe(code).stdout.split() == ["False"]
