"""`adjudicate reach` and `adjudicate retreats`: text, JSON, errors and pictures, on the bundled examples; and the
legal retreat paths drawn beside a retreat's finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from builder.picture import Painter, Picture, reading_scale
from umpire.cli import judge, main
from umpire.movement import moment_at
from umpire.report import items
from umpire.scenes import scene_of
from wargame.scene import Crop, Scene

ROOT = Path(__file__).resolve().parent.parent
OMAHA = ROOT / "examples" / "omaha"
ONSLAUGHT = ROOT / "examples" / "onslaught"


@pytest.fixture(autouse=True)
def board_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Rendered boards go to a throwaway cache, never the user's."""
    where = tmp_path / "cache"
    monkeypatch.setenv("UMPIRE_CACHE", str(where))
    return where


def run(*args: str) -> tuple[int, str, str]:
    """adjudicate in process: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_reach_text_lists_hexes_cheapest_first() -> None:
    """Onslaught: a division in enemy ZOC reaches the clear hex first, then the zone beyond it (6.2)."""
    code, out, _ = run("reach", str(ONSLAUGHT / "breach-zoc.log"), "--at", "6", "br-inf-02")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("br-inf-02 at 0820 reaches 3 hex(es)")
    rows = [line.split() for line in lines[1:]]
    assert rows == [["0720", "1"], ["0620", "2"], ["0721", "2"]]


def test_reach_json_on_omaha() -> None:
    """Fire & Movement: MP costs (half hexes on roads), sorted by cost then hex, within the allowance."""
    code, out, _ = run("reach", str(OMAHA / "legal-combat.log"), "--at", "46", "16/1", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["unit"] == "16/1" and doc["hex"] == "2319" and doc["kind"] == "move" and doc["bars"] == []
    costs = [(row["cost"], row["hex"]) for row in doc["hexes"]]
    assert costs == sorted(costs) and 0 < max(c for c, _ in costs) <= 6
    assert any(c != int(c) for c, _ in costs)  # roads and trails cost half a point
    assert "2117" not in {h for _, h in costs}  # an enemy-held hex is never entered (5.2)


def test_reach_says_why_a_unit_may_not_move() -> None:
    """A unit barred from moving: each reason with its section, exit 0."""
    code, out, _ = run("reach", str(OMAHA / "legal-combat.log"), "--at", "46", "CCA/2")
    assert code == 0 and "may not move now" in out and "11.2.4:" in out
    code, out, _ = run("reach", str(OMAHA / "legal-combat.log"), "--at", "46", "16/1", "--kind", "strategic")
    assert code == 0 and "no strategic movement" in out
    code, out, _ = run("reach", str(ONSLAUGHT / "legal-turn1.log"), "--at", "9", "us-inf-01", "--kind", "strategic")
    assert code == 0 and "6.4:" in out


def test_reach_errors() -> None:
    """An unknown unit (with the closest ids) or a line past the end: exit 2, no traceback."""
    code, _, err = run("reach", str(ONSLAUGHT / "breach-zoc.log"), "--at", "6", "br-inf-2")
    assert code == 2 and "unknown unit 'br-inf-2'" in err and "did you mean 'br-inf-02'" in err
    code, _, err = run("reach", str(ONSLAUGHT / "breach-zoc.log"), "--at", "60", "br-inf-02")
    assert code == 2 and "--at 60" in err and "7 line(s)" in err
    code, _, err = run("reach", str(ONSLAUGHT / "breach-zoc.log"), "--at", "6", "br-inf-02", "--kind", "rail")
    assert code == 2 and "rail" in err
    code, _, err = run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "x")
    assert code == 2


def test_retreats_text_and_json() -> None:
    """Onslaught 7.3 and Fire & Movement 8.3: each unit, the hexes due, every legal path."""
    code, out, _ = run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "10")
    assert code == 0
    assert "de-inf-03 from 0320, 2 hex(es) due:" in out
    assert "    0320-0319-0218" in out.splitlines()  # the path the log takes
    code, out, _ = run("retreats", str(OMAHA / "legal-combat.log"), "--at", "54", "--format", "json")
    assert code == 0
    (retreat,) = json.loads(out)["retreats"]
    assert retreat["unit"] == "914/352" and retreat["due"] == 2 and ["2117", "2016", "1916"] in retreat["paths"]


def test_retreats_when_nothing_is_pending() -> None:
    """No result pending: a clear message, exit 0 (exit 2 with -o: there is nothing to draw)."""
    code, out, _ = run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "12")
    assert code == 0 and "no combat result pending after line 12" in out
    code, out, _ = run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "12", "--format", "json")
    assert code == 0 and json.loads(out)["retreats"] == []


def _bare(log: Path, line: int, hexes: list[str]) -> tuple[Picture, Painter]:
    """The position at a line without marks, cropped and scaled as the commands crop (the hexes marked, one
    around) and scale (builder.picture.reading_scale)."""
    moment = moment_at((log,), (None, line), None, None, None)
    painter = Painter(moment.result.game, reading_scale(moment.result.game))
    scene: Scene = scene_of(moment.result.system.position(moment.state))
    return painter.draw(scene, Crop(hexes=tuple(sorted(set(hexes))))), painter


def _centre(painter: Painter, picture: Picture, label: str) -> tuple[int, int]:
    x, y = painter.layout.centre(painter.game.grid.hex_of(label))
    return round(x - picture.origin[0]), round(y - picture.origin[1])


def test_reach_picture_shades_the_hexes_in_reach(tmp_path: Path) -> None:
    """The centre of an empty hex in reach is tinted; an empty hex out of reach stays bare board."""
    out = tmp_path / "reach.png"
    code, text, _ = run("reach", str(OMAHA / "legal-combat.log"), "--at", "46", "16/1", "--format", "json",
                        "-o", str(out))
    assert code == 0
    reached = [row["hex"] for row in json.loads(text)["hexes"]]
    bare, painter = _bare(OMAHA / "legal-combat.log", 46, ["2319", *reached])
    drawn = Image.open(out).convert("RGB")
    assert drawn.width == bare.image.width
    moment = moment_at((OMAHA / "legal-combat.log",), (None, 46), None, None, None)
    occupied = {at.place for at in moment.result.system.position(moment.state).units.values()}
    empty_reached = [label for label in reached if label not in occupied]
    assert len(empty_reached) > 10
    for label in empty_reached:
        xy = _centre(painter, bare, label)
        assert drawn.getpixel(xy) != bare.image.getpixel(xy), label
    grid = painter.game.grid
    outside = [grid.label_of(h) for h in grid.hexes if grid.label_of(h) not in reached
               and grid.label_of(h) not in occupied and grid.label_of(h) != "2319"]
    inside_crop = [label for label in outside
                   if 0 <= _centre(painter, bare, label)[0] < bare.image.width
                   and 0 <= _centre(painter, bare, label)[1] < bare.image.height]
    assert inside_crop
    for label in inside_crop:
        xy = _centre(painter, bare, label)
        assert drawn.getpixel(xy) == bare.image.getpixel(xy), label


def test_retreats_picture_draws_each_path(tmp_path: Path) -> None:
    """Each legal path's hexes are marked (their centres differ from the bare board)."""
    out = tmp_path / "retreats.png"
    code, text, _ = run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "10", "--format", "json",
                        "-o", str(out))
    assert code == 0
    (retreat,) = json.loads(text)["retreats"]
    hexes = sorted({label for path in retreat["paths"] for label in path})
    bare, painter = _bare(ONSLAUGHT / "legal-results.log", 10, hexes)
    drawn = Image.open(out).convert("RGB")
    for label in hexes:
        xy = _centre(painter, bare, label)
        assert drawn.getpixel(xy) != bare.image.getpixel(xy), label
    again = tmp_path / "again.png"
    run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "10", "-o", str(again))
    assert again.read_bytes() == out.read_bytes()
    code, _, err = run("retreats", str(ONSLAUGHT / "legal-results.log"), "--at", "12", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "nothing to draw" in err and not (tmp_path / "x.png").exists()


def test_a_retreats_finding_shows_the_legal_paths_beside_it() -> None:
    """check --format html: a retreat into enemy ZOC (red) with the legal paths in green beside it."""
    for log in (ONSLAUGHT / "breach-retreat-zoc.log", OMAHA / "breach-retreat-ezoc.log"):
        judged = judge((log,), None, None, None)
        (item,) = [i for i in items(judged, draw=False) if any(f.rule in ("7.3", "8.3", "6.2") for f in i.findings)]
        taken = [m for m in item.marks if m.kind == "path" and m.tone == "breach"]
        legal = [m for m in item.marks if m.kind == "path" and m.tone == "legal"]
        assert len(taken) == 1 and legal, log.name
        assert all(m.hexes[0] == taken[0].hexes[0] and m.hexes != taken[0].hexes for m in legal)


def test_a_game_of_exchanges_is_asked_at_log_and_line() -> None:
    """--at LOG:LINE in a game's folder; a line past that log's end is refused naming it."""
    game = str(ROOT / "examples" / "pbem" / "game")
    code, out, _ = run("retreats", game, "--at", "02-turn-2.log:13")
    assert code == 0 and "after 02-turn-2.log line 13" in out and "de-inf-02 from 0319" in out
    # 7.5: a German division stops its retreat on entering a fortification, a full retreat of one hex.
    assert "    0319-0318" in out.splitlines()
    code, _, err = run("reach", game, "us-inf-01", "--at", "02-turn-2.log:999")
    assert code == 2 and "02-turn-2.log has" in err


def test_a_replay_that_stopped_is_said(tmp_path: Path) -> None:
    """A log whose replay stops early: the answer is for the last position reached, and stderr says so."""
    log = tmp_path / "stopped.log"
    lines = (ONSLAUGHT / "breach-zoc.log").read_text(encoding="utf-8").splitlines()[:6]
    log.write_text("\n".join([*lines, "br-inf-99 0820-0720"]) + "\n", encoding="utf-8")
    code, out, err = run("reach", str(log), "--at", "7", "br-inf-02")
    assert code == 0 and "reaches 3 hex(es)" in out and "the replay stopped" in err
