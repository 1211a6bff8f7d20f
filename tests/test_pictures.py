"""Pictures of positions and findings: `adjudicate picture`, `check --format html`, `--images`."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack, Move, Pass
from builder.picture import Painter, _seat, board_key, cached_board, reading_scale
from builder.render.board import HEX_NUMBER_DY, board_layout, hex_number_px
from builder.render.ink import PAPER, font
from umpire.cli import main
from umpire.scenes import marks_for
from wargame.bundled import data_root
from wargame.game import load_game
from wargame.holding import counter_size_px
from wargame.scene import Counter, Crop, Mark, Scene, Stack

ROOT = Path(__file__).resolve().parent.parent
OMAHA = ROOT / "examples" / "omaha"
ONSLAUGHT = ROOT / "examples" / "onslaught"
PAPER_RGB = tuple(int(PAPER[i:i + 2], 16) for i in (1, 3, 5))


@pytest.fixture(autouse=True)
def board_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Rendered boards go to a throwaway cache, never the user's."""
    where = tmp_path / "cache"
    monkeypatch.setenv("UMPIRE_CACHE", str(where))
    return where


def run(*args: str) -> tuple[int, str, str]:
    """adjudicate (with its pictures) in process: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def omaha_painter() -> Painter:
    """Omaha's board, rendered once for the module's tests."""
    return Painter(load_game(data_root(), "omaha"))


def test_a_counter_is_drawn_in_its_hex_and_nowhere_else(omaha_painter: Painter) -> None:
    """The unit's own art covers its hex centre; an empty hex stays bare board."""
    game = omaha_painter.game
    bare = omaha_painter.draw(Scene(()), Crop(hexes=("2017", "2317"))).image
    drawn = omaha_painter.draw(Scene((Stack("2017", (Counter("352/352"),)),)), Crop(hexes=("2017", "2317")))
    x, y = omaha_painter.layout.centre(game.grid.hex_of("2017"))
    ox, oy = drawn.origin
    assert drawn.image.getpixel((round(x - ox), round(y - oy))) != bare.getpixel((round(x - ox), round(y - oy)))
    x2, y2 = omaha_painter.layout.centre(game.grid.hex_of("2317"))
    assert drawn.image.getpixel((round(x2 - ox), round(y2 - oy))) == bare.getpixel((round(x2 - ox), round(y2 - oy)))


def test_reduced_face_differs_from_full(omaha_painter: Painter) -> None:
    """A depleted unit is drawn on its reduced face."""
    full = omaha_painter.draw(Scene((Stack("2017", (Counter("916/352"),)),)), Crop(hexes=("2017",))).image
    reduced = omaha_painter.draw(Scene((Stack("2017", (Counter("916/352", "reduced"),)),)), Crop(hexes=("2017",))).image
    assert full.tobytes() != reduced.tobytes()


def test_crop_grows_with_radius(omaha_painter: Painter) -> None:
    """--around HEX --radius N: a larger radius shows more of the board."""
    small = omaha_painter.draw(Scene(()), Crop(around="2017", radius=0)).image
    large = omaha_painter.draw(Scene(()), Crop(around="2017", radius=3)).image
    assert large.width > small.width and large.height > small.height


def test_marks_are_drawn(omaha_painter: Painter) -> None:
    """A path mark changes the pixels along it."""
    crop = Crop(hexes=("2017", "2019"))
    plain = omaha_painter.draw(Scene(()), crop).image
    marked = omaha_painter.draw(Scene((), (Mark("path", ("2017", "2018", "2019"), "breach"),)), crop).image
    assert plain.tobytes() != marked.tobytes()


def test_picture_command_is_deterministic(tmp_path: Path) -> None:
    """The same position gives the same bytes; --at picks the position."""
    out1, out2 = tmp_path / "a.png", tmp_path / "b.png"
    log = str(OMAHA / "legal-combat.log")
    assert run("picture", log, "--at", "30", "--around", "2219", "-o", str(out1))[0] == 0
    assert run("picture", log, "--at", "30", "--around", "2219", "-o", str(out2))[0] == 0
    assert out1.read_bytes() == out2.read_bytes()
    with Image.open(out1) as image:
        assert image.format == "PNG" and image.width < 1000


def test_picture_of_a_hex_off_the_map_is_refused(tmp_path: Path) -> None:
    """A crop hex not on the map: exit 2, the label named, nothing written."""
    code, _, err = run("picture", str(ONSLAUGHT / "legal-combat.log"), "--hexes", "9922", "-o",
                       str(tmp_path / "x.png"))
    assert code == 2 and "9922" in err and not (tmp_path / "x.png").exists()


def test_picture_at_a_line_past_the_end_is_refused(tmp_path: Path) -> None:
    """picture --at past the log's last line: exit 2 naming the log's length, nothing written."""
    log = OMAHA / "legal-combat.log"
    lines = len(log.read_text(encoding="utf-8").splitlines())
    code, _, err = run("picture", str(log), "--at", str(lines + 1), "-o", str(tmp_path / "x.png"))
    assert code == 2 and f"has {lines} line(s)" in err and not (tmp_path / "x.png").exists()


def test_marks_for_entries() -> None:
    """A move marks its path (red with an error, green without); an attack its arrows and claims."""
    move = Move(line=3, unit="a", path=["0101", "0102"])
    error = Finding("error", "onslaught", "6.1", 3, 1, "too far")
    assert marks_for(move, {}, [error]) == [Mark("path", ("0101", "0102"), "breach")]
    assert marks_for(move, {}, []) == [Mark("path", ("0101", "0102"), "legal")]
    attack = Attack(line=5, hex="0203", attackers=["a", "b"], odds="3:1", die=4, result="DH")
    marks = marks_for(attack, {"a": "0202", "b": "0303"}, [])
    assert marks[0] == Mark("arrow", ("0202", "0303", "0203"), "attacker")
    assert marks[2] == Mark("note", ("0203", "0202", "0303"), "legal", "claimed:\nodds 3:1\ndie 4\nresult DH")
    assert marks_for(Pass(line=1), {}, []) == []


def test_html_verdict_has_each_finding_with_its_picture(tmp_path: Path) -> None:
    """One page: the summary, the finding's clause and lines, an embedded picture; exit 1 for a breach."""
    out = tmp_path / "report.html"
    code, stdout, _ = run("check", str(OMAHA / "breach-leg-ezoc.log"), "--format", "html", "-o", str(out))
    assert code == 1 and "report.html" in stdout
    page = out.read_text(encoding="utf-8")
    assert '<meta name="viewport"' in page and "[fire-and-movement 6.1]" in page
    assert 'class="hit">   45  16/1 2319-2218-2217-2216' in page
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == 1
    with Image.open(io.BytesIO(base64.b64decode(images[0]))) as image:
        assert image.format == "PNG"


def test_pictures_are_drawn_with_the_replay_out_of_the_collectors_sight(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The game and the replay are frozen out of the garbage collector while the pictures are drawn, so the
    drawing's collections do not walk them; given back after (a process that goes on, as this one, would otherwise
    never collect them again), with a freeze registered for the process's exit (40M instructions of Moscow's
    verdict in all)."""
    import atexit
    import gc

    import umpire.report as report
    import wargame.collector as collector

    frozen: list[int] = []
    real = report.html_report

    def counted(*args: object, **kwargs: object) -> str:
        frozen.append(gc.get_freeze_count())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(report, "html_report", counted)
    registered: list[object] = []
    monkeypatch.setattr(collector, "_FREEZE_AT_EXIT", False)
    monkeypatch.setattr(atexit, "register", registered.append)
    try:
        code, _, _ = run("check", str(OMAHA / "breach-leg-ezoc.log"), "--format", "html", "-o",
                         str(tmp_path / "r.html"))
        after = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert code == 1 and frozen and frozen[0] > 0
    assert after == 0
    assert registered == [gc.freeze]
    run("check", str(OMAHA / "breach-leg-ezoc.log"), "--format", "html", "-o", str(tmp_path / "r.html"), "--force")
    assert registered == [gc.freeze]  # once a process


@pytest.mark.parametrize("log", ["onslaught/breach-zoc.log", "onslaught/breach-result.log", "omaha/breach-leg-ezoc.log",
                                 "omaha/breach-stacking.log", "moscow/breach-zoc.log"])
def test_tags_and_badges_out_of_the_crop_are_not_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       log: str) -> None:
    """A finding's picture draws the tags of the stacks near its crop only (Onslaught's breach-zoc: 15 of 36), and is
    the picture drawn with every tag and badge (accented names and stacked counters included)."""
    import builder.picture as picture

    drawn: list[str] = []
    real = picture._draw_tag

    def counted(*args: object) -> object:
        drawn.append("tag")
        return real(*args)  # type: ignore[arg-type]

    path = str(ROOT / "examples" / log)
    monkeypatch.setattr(picture, "_draw_tag", counted)
    assert run("check", path, "--format", "html", "-o", str(tmp_path / "near.html"))[0] == 1
    near = len(drawn)
    monkeypatch.setattr(picture, "_tag_may_reach", lambda *args: True)
    monkeypatch.setattr(picture, "_meets", lambda *args: True)
    assert run("check", path, "--format", "html", "-o", str(tmp_path / "all.html"))[0] == 1
    if log == "onslaught/breach-zoc.log":
        assert near < len(drawn) - near
    assert (tmp_path / "near.html").read_bytes() == (tmp_path / "all.html").read_bytes()


def test_html_verdict_of_a_clean_log(tmp_path: Path) -> None:
    """A clean log: exit 0, a page that says so."""
    out = tmp_path / "clean.html"
    assert run("check", str(ONSLAUGHT / "legal-combat.log"), "--format", "html", "-o", str(out))[0] == 0
    assert "No finding" in out.read_text(encoding="utf-8")


def test_markdown_links_pictures(tmp_path: Path) -> None:
    """--images DIR writes a PNG per finding and links it from the Markdown."""
    code, out, _ = run("check", str(ONSLAUGHT / "breach-zoc.log"), "--format", "markdown", "--images",
                       str(tmp_path / "img"))
    assert code == 1
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", out)
    assert linked and all(Path(p).is_file() for p in linked)


def test_html_needs_an_output_and_output_needs_html(tmp_path: Path) -> None:
    """Usage errors: exit 2 with the reason."""
    code, _, err = run("check", str(ONSLAUGHT / "breach-zoc.log"), "--format", "html")
    assert code == 2 and "-o" in err
    code, _, err = run("check", str(ONSLAUGHT / "breach-zoc.log"), "-o", str(tmp_path / "x.html"))
    assert code == 2 and "--format html" in err


def test_other_formats_still_work_through_the_picture_layer() -> None:
    """`adjudicate check` without pictures gives the referee's own text verdict."""
    code, out, _ = run("check", str(ONSLAUGHT / "breach-zoc.log"))
    assert code == 1 and "error [onslaught 6.2]" in out


def test_board_cache_gives_the_same_pixels_and_follows_the_data(tmp_path: Path, data_copy: Path) -> None:
    """A cached board equals a fresh one; a damaged cache file is rendered again; new data, new key."""
    game = load_game(data_copy, "omaha")
    where = tmp_path / "boards-cache"
    fresh = cached_board(game, 0.5, None)
    first = cached_board(game, 0.5, where)
    kept = next((where / "boards").glob("omaha-*.png"))
    second = cached_board(game, 0.5, where)
    assert fresh.tobytes() == first.tobytes() == second.tobytes()
    kept.write_bytes(b"not a png")
    assert cached_board(game, 0.5, where).tobytes() == fresh.tobytes()
    key = board_key(game, 0.5)
    terrain = data_copy / "maps" / "omaha" / "terrain.toml"
    terrain.write_text(terrain.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert board_key(load_game(data_copy, "omaha"), 0.5) != key


def test_path_pixels_lie_on_its_hexes(omaha_painter: Painter) -> None:
    """Every pixel a path mark changes lies within a hex of the path or a neighbour of one (the line's
    width and the numbered discs may spill just over a hexside, never further)."""
    game, layout = omaha_painter.game, omaha_painter.layout
    path = ("2017", "2018", "2019")
    crop = Crop(hexes=path, margin=2)
    plain = omaha_painter.draw(Scene(()), crop)
    marked = omaha_painter.draw(Scene((), (Mark("path", path, "breach"),)), crop)
    allowed = {h for label in path for h in (game.grid.hex_of(label), *game.grid.hex_of(label).neighbours())}
    on_path = {game.grid.hex_of(label) for label in path}
    ox, oy = plain.origin
    a, b = plain.image.load(), marked.image.load()
    changed_on_path = 0
    for y in range(0, plain.image.height, 3):
        for x in range(0, plain.image.width, 3):
            if a[x, y] != b[x, y]:
                h = layout.pixel_to_hex(x + ox, y + oy)
                assert h in allowed, (x, y, h)
                changed_on_path += h in on_path
    assert changed_on_path > 50


def test_every_breach_of_the_examples_has_a_picture_where_it_concerns_a_place() -> None:
    """Every error of every example breach log has marks to draw (drawing marks is tested above), unless
    neither its entry nor its message names a place on the map (a sequence, points or track finding)."""
    from umpire.report import items
    from umpire.cli import judge
    from wargame.scene import WORDS

    logs = sorted((ROOT / "examples").glob("*/breach-*.log"))
    assert len(logs) >= 20
    drawn = 0
    for log in logs:
        judged = judge((log,), None, None, None)
        grid = judged.result.game.grid
        for item in items(judged, draw=False):
            if not any(f.severity == "error" for f in item.findings):
                continue
            if item.marks:
                drawn += 1
                continue
            named = {w for f in item.findings for w in WORDS.findall(f.message) if grid.is_label(w)}
            entry = next(e for e in judged.result.entries if e.line == item.line)
            # A marker drawn from a cup (F&M 7.1, 7.2) concerns no place either.
            assert not named and entry.kind in ("step", "turn", "action", "rolloff", "income", "pass", "place",
                                                "declare", "markers"), \
                (log.name, item.line, [f.message for f in item.findings])
    assert drawn >= len(logs) * 3 // 4  # most breaches concern a place on the map


def test_holding_board_shows_boxed_units_and_track_values(omaha_painter: Painter) -> None:
    """A unit in a box sits on the box's seat; a track value rings its space; the map picture grows by
    the holding board with --boxes."""
    from builder.render.holding import render_holding_board
    from wargame.scene import TrackValue

    game = omaha_painter.game
    box = game.manifest.box[0]
    track = game.manifest.track[0]
    plain = render_holding_board(game, omaha_painter.counter_px)
    scene = Scene((Stack(box.id, (Counter("916/352"),)),), tracks=(TrackValue(track.kind, track.side, track.first),))
    drawn = omaha_painter.holding(scene)
    seat = plain.location_of(box.id)
    assert seat is not None and drawn.getpixel(seat) != plain.image.getpixel(seat)
    x0, y0, _, _ = next(a.rect for a in plain.layout.spaces if a.location == f"{track.id}@{track.first}")
    assert drawn.getpixel((x0 + 1, y0 + 1)) != plain.image.getpixel((x0 + 1, y0 + 1))
    crop = Crop(hexes=("2017",))
    assert omaha_painter.draw(scene, crop, boxes=True).image.height > omaha_painter.draw(scene, crop).image.height


def test_hex_markers_and_support_fire_are_on_the_map(omaha_painter: Painter) -> None:
    """The beachhead markers a position holds sit in their hexes, under the units; an attack's support
    fire markers sit on the hex it targets; a picture shows the marker's own art there."""
    from adjudicator.contract import Position, SequencePoint, UnitPlace
    from umpire.scenes import marker_pieces, placed_by, scene_of

    game = omaha_painter.game
    pieces = marker_pieces(game)
    assert pieces["beachhead"] == "omaha_beachhead"
    position = Position("beach_to_bocage", SequencePoint(1, "movement", "Allied"), "phase",
                        {"16/1": UnitPlace("2319")}, marked_hexes={"beachhead": frozenset({"2319", "2120"})})
    attack = Attack(line=9, hex="2117", attackers=["16/1"], support=["us_sf_6", "de_sf_4"])
    scene = scene_of(position, markers=pieces, placed=placed_by(attack))
    stacks = {s.place: s.counters for s in scene.stacks}
    assert stacks["2319"] == (Counter("omaha_beachhead", marker=True), Counter("16/1"))
    assert stacks["2120"] == (Counter("omaha_beachhead", marker=True),)
    assert stacks["2117"] == (Counter("us_sf_6", marker=True), Counter("de_sf_4", marker=True))
    assert scene_of(position).stacks == (Stack("2319", (Counter("16/1"),)),), "no marker without its counter"
    bare = omaha_painter.draw(Scene(()), Crop(hexes=("2120", "2117"))).image
    drawn = omaha_painter.draw(scene, Crop(hexes=("2120", "2117")))
    ox, oy = drawn.origin
    for label in ("2120", "2117"):
        x, y = omaha_painter.layout.centre(game.grid.hex_of(label))
        assert drawn.image.getpixel((round(x - ox), round(y - oy))) != bare.getpixel((round(x - ox), round(y - oy)))


def test_a_whole_position_picture_shows_the_beachheads(tmp_path: Path) -> None:
    """`adjudicate picture` draws the position's beachhead markers: the picture differs from the same
    position drawn without them."""
    from adjudicator.cli import position_at
    from builder.picture import draw_scene
    from umpire.scenes import marker_pieces, scene_of

    log = OMAHA / "legal-first-turns.log"
    result, state = position_at((log,), None, None, None, None)
    position = result.system.position(state)
    assert position.marked_hexes and position.marked_hexes["beachhead"]
    crop = Crop(around=sorted(position.marked_hexes["beachhead"])[0], radius=1)
    with_markers = draw_scene(result.game, scene_of(position, markers=marker_pieces(result.game)), crop).image
    without = draw_scene(result.game, scene_of(position), crop).image
    assert with_markers.tobytes() != without.tobytes()
    code, _, _ = run("picture", str(log), "-o", str(tmp_path / "p.png"), "--around",
                     sorted(position.marked_hexes["beachhead"])[0], "--radius", "1")
    assert code == 0


def test_a_moves_picture_shades_the_enemy_zones_of_control_next_to_its_path() -> None:
    """The retreat into an enemy zone of control (Omaha 8.3) is drawn over the Allied zones of control
    around its path, as the rule system's movement model gives them, and over nothing farther away."""
    from umpire.cli import judge
    from umpire.scenes import ZOC_REACH, context_marks

    judged = judge((OMAHA / "breach-retreat-ezoc.log",), None, None, None)
    result = judged.result
    error = next(f for f in result.findings if f.severity == "error")
    entry = next(e for e in result.entries if e.line == error.line)
    before = result.state_at(error.line - 1)
    places = {u: at.place for u, at in result.system.position(before).units.items()}
    marks = context_marks(result.system, before, entry, [error], places)
    shades = [m for m in marks if m.kind == "shade"]
    assert len(shades) == 1 and "2116" in shades[0].hexes, marks
    model = result.system.movement
    assert model is not None
    zone = model.zones_of_control(before, "Allied")
    grid = result.game.grid
    path = [grid.hex_of(h) for h in entry.path]  # type: ignore[attr-defined]
    assert set(shades[0].hexes) == {h for h in zone if any(grid.hex_of(h).distance(p) <= ZOC_REACH for p in path)}


def test_a_supply_findings_picture_draws_the_supply_line() -> None:
    """A finding citing a supply section (Onslaught 8.6) on an activation draws the supply line each
    unit of the stack traces now, from its hex to a source; a finding on another section draws none."""
    from adjudicator.findings import Finding
    from adjudicator.notation.entries import Activate
    from umpire.cli import judge
    from umpire.scenes import context_marks

    result = judge((ONSLAUGHT / "legal-sample-game.log",), None, None, None).result
    entry = next(e for e in result.entries if isinstance(e, Activate) and e.hex == "0419")
    before = result.state_at(entry.line - 1)
    places = {u: at.place for u, at in result.system.position(before).units.items()}
    supply = Finding("error", "onslaught", "8.6", entry.line, 1, "out of supply")
    marks = context_marks(result.system, before, entry, [supply], places)
    model = result.system.movement
    assert model is not None
    lines = [model.supply_line(before, u) for u, at in sorted(places.items()) if at == "0419"]
    assert lines and all(line is not None and len(line) > 1 and line[0] == "0419" for line in lines)
    assert [m for m in marks if m.kind == "path"] == [Mark("path", tuple(line), "info") for line in lines if line]
    other = Finding("error", "onslaught", "6.1", entry.line, 1, "too far")
    assert not [m for m in context_marks(result.system, before, entry, [other], places) if m.kind == "path"]


def _number_box(painter: Painter, label: str, origin: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixels of a hex's printed number (as the board prints it) in a picture cut at `origin`."""
    layout = painter.layout
    cx, cy = layout.centre(painter.game.grid.hex_of(label))
    y = cy + HEX_NUMBER_DY[layout.matrix] * layout.size_px
    left, top, right, bottom = font(hex_number_px(layout.size_px), condensed=True).getbbox(label, anchor="mm")
    return (round(cx + left - origin[0]), round(y + top - origin[1]),
            round(cx + right - origin[0]), round(y + bottom - origin[1]))


@pytest.mark.parametrize("count", [1, 2, 4])
def test_an_occupied_hex_shows_its_number_and_place_name_above_its_counters(omaha_painter: Painter, count: int) -> None:
    """Counters no longer hide where they stand: the hex number is printed in ink on a paper tag where the
    board prints it, clear of the stack (one counter or a stack of four), with the place's name after it."""
    units = ("115/29", "116/29", "16/1", "18/1")[:count]
    scene = Scene((Stack("2219", tuple(Counter(u) for u in units)), Stack("2319", (Counter("26/1"),))))
    drawn = omaha_painter.draw(scene, Crop(hexes=("2219",)))
    for label in ("2219", "2319"):
        x0, y0, x1, y1 = _number_box(omaha_painter, label, drawn.origin)
        pixels = [drawn.image.getpixel((x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
        paper = sum(p == PAPER_RGB for p in pixels)
        ink = sum(sum(p) < 450 for p in pixels)
        assert paper > len(pixels) // 3 and ink > len(pixels) // 20, (label, paper, ink, len(pixels))
    # "2219 Vierville-sur-Mer": the tag is much wider than the number (slid aside from a count badge).
    x0, y0, x1, y1 = _number_box(omaha_painter, "2219", drawn.origin)
    width = x1 - x0
    beside = [drawn.image.getpixel((x, y)) for x in [*range(x0 - 4 - width, x0 - 4), *range(x1 + 4, x1 + 4 + width)]
              for y in range(y0, y1 + 1)]
    assert sum(p == PAPER_RGB for p in beside) > len(beside) // 4 and sum(sum(p) < 450 for p in beside) > 0


@pytest.mark.parametrize("game_id", ["onslaught", "omaha", "moscow"])
def test_no_stack_covers_its_own_hex_number(game_id: str) -> None:
    """On every hex of every bundled map, at the module's scale and the verdicts', a stack of one to four
    counters leaves its hex's number clear (the tag printed there is never under its own counters)."""
    game = load_game(data_root(), game_id)
    for scale in (1.0, reading_scale(game)):
        layout = board_layout(game, scale)
        size_px = counter_size_px(layout)
        for label in sorted(game.grid.label_of(h) for h in game.grid.hexes):
            for count in (1, 4):
                seat = _seat(game, layout, Stack(label, tuple(Counter("x") for _ in range(count))), size_px)
                assert seat is not None
                left, top, right, bottom = seat.box
                assert top >= seat.number[3] + 1, (game_id, scale, label, count)
                assert left < seat.centre[0] < right  # still in its hex across


@pytest.mark.parametrize("game_id", ["onslaught", "omaha", "moscow"])
def test_a_tag_inks_nothing_beyond_the_bound_that_skips_it(game_id: str) -> None:
    """Every named hex's tag (its number and place names, accents and descenders included), drawn alone and with a
    stack on each side: each corner of its ink lies within what `_tag_may_reach` keeps, so leaving out a tag that
    bound keeps away from a crop never changes a pixel of the crop."""
    from PIL import Image, ImageChops

    import builder.picture as picture
    from wargame.bundled import data_root
    from wargame.game import load_game
    from wargame.scene import Counter, Stack

    game = load_game(data_root(), game_id)
    painter = Painter(game, picture.reading_scale(game), None)
    layout = painter.layout
    names = picture._place_names(game)
    piece = game.units[0][1].id
    checked = 0
    for label, name in sorted(names.items()):
        seat = picture._seat(game, layout, Stack(label, (Counter(piece),)), painter.counter_px)
        if seat is None:
            continue
        x, y = int(seat.centre[0]), int(seat.centre[1])
        reach = int(layout.size_px * 4)
        origin = (x - reach, y - reach)
        near = [(seat.centre[0] + dx * layout.size_px, seat.number[1], seat.centre[0] + dx * layout.size_px + 5,
                 seat.number[3]) for dx in (-1.2, 1.1)]
        for others in ([], near):
            blank = Image.new("RGBA", (2 * reach, 2 * reach), (0, 0, 0, 0))
            board = blank.copy()
            picture._draw_tag(board, origin, layout, seat, name, others)
            ink = ImageChops.difference(board, blank).getbbox()
            assert ink is not None
            left, top, right, bottom = ink[0] + origin[0], ink[1] + origin[1], ink[2] - 1 + origin[0], \
                ink[3] - 1 + origin[1]
            for px, py in ((left, top), (right, top), (left, bottom), (right, bottom)):
                assert picture._tag_may_reach(seat, layout, (px, py, px, py)), (label, name, (px, py))
            checked += 1
    assert checked >= 2 * min(len(names), 10)


@pytest.mark.parametrize("game_id", ["onslaught", "omaha", "moscow"])
def test_a_count_badge_inks_nothing_beyond_its_box(game_id: str) -> None:
    """A stack's count badge (2 to 99 counters) inks only inside `_badge_box`, the box a crop must meet for the badge
    to be drawn."""
    from PIL import Image, ImageChops

    import builder.picture as picture
    from wargame.bundled import data_root
    from wargame.game import load_game
    from wargame.scene import Counter, Stack

    game = load_game(data_root(), game_id)
    painter = Painter(game, picture.reading_scale(game), None)
    label = sorted(picture._place_names(game))[0]
    piece = game.units[0][1].id
    for count in (2, 9, 10, 99):
        seat = picture._seat(game, painter.layout, Stack(label, (Counter(piece),) * count), painter.counter_px)
        assert seat is not None and seat.badge is not None
        x, y, _ = seat.badge
        origin = (x - 200, y - 200)
        blank = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
        board = blank.copy()
        picture._draw_count(board, origin, seat)
        ink = ImageChops.difference(board, blank).getbbox()
        assert ink is not None
        left, top, right, bottom = picture._badge_box(seat.badge)
        assert left <= ink[0] + origin[0] and ink[2] - 1 + origin[0] <= right, count
        assert top <= ink[1] + origin[1] and ink[3] - 1 + origin[1] <= bottom, count
