"""Reading places with a module (`--module`): its hex naming against the VASSAL oracle, its zones,
and logs of a freshly built module whose off-map board the reader cannot compute alone."""

from __future__ import annotations

import math
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.notation.entries import Comment, Loss, Move
from adjudicator.vassal.load import translate_file
from test_vassal_grid import VARIANTS
from test_vassal_reader import Session, game
from vassal_oracle import VassalHexGrid
from wargame.errors import DataError
from wargame.grid import Grid
from wargame.layout import Layout, vassal_grid
from wargame.vassal.buildfile import ModuleInfo, Zone, hex_naming, read_module
from wargame.vassal.places import Places, area_id

# Beyond what our layouts derive: alphabetic parts, leading zeros 0-2, offsets, stagger on,
# row first, separators, descending numbers sideways and not (vassal-format.md 1.4, 3.3).
EXTRA_CONFIGURATIONS: list[tuple[dict[str, str], dict[str, str], tuple[int, int]]] = [
    ({}, {}, (800, 600)),
    ({"dx": "60.0", "dy": "69.28", "x0": "40", "y0": "40"}, {"hType": "A", "vLeading": "2"}, (900, 700)),
    ({"dx": "50", "dy": "58", "x0": "-12", "y0": "7", "sideways": "true"},
     {"first": "V", "sep": "-", "hOff": "0", "vOff": "3", "hDescend": "true", "stagger": "true"}, (1000, 800)),
    ({"dx": "45.5", "dy": "52.5", "x0": "3", "y0": "30"},
     {"vType": "A", "hLeading": "0", "vDescend": "true", "stagger": "false", "locationFormat": "$column$/$row$"},
     (700, 900)),
    ({"dy": "80"}, {"vDescend": "true", "hDescend": "true", "sep": "."}, (1200, 1000)),
]


def test_hex_naming_matches_the_oracle_on_our_grids() -> None:
    """For every grid variant of the layout tests, VASSAL's name of random points is ours."""
    rng = random.Random(8)
    for variant in VARIANTS:
        grid = Grid(variant.spec)
        layout = Layout.for_grid(grid, variant.size_px, variant.margin_px)
        size = layout.board_size(grid, variant.margin_px)
        derived = vassal_grid(layout, grid, size)
        oracle = VassalHexGrid(derived.hex_grid, derived.numbering, size)
        naming = hex_naming(derived.hex_grid, derived.numbering, size)
        for _ in range(400):
            p = rng.randrange(-20, size[0] + 20), rng.randrange(-20, size[1] + 20)
            assert naming.name_at(*p) == oracle.location_name(p), (variant.id, p)
        for h in grid.hexes:
            x, y = layout.centre(h)
            assert naming.name_at(math.floor(x), math.floor(y)) == grid.label_of(h)


@pytest.mark.parametrize("hex_grid, numbering, size", EXTRA_CONFIGURATIONS)
def test_hex_naming_matches_the_oracle_elsewhere(hex_grid: dict[str, str], numbering: dict[str, str],
                                                 size: tuple[int, int]) -> None:
    """Other modules' grids: alphabetic labels, offsets, stagger, sideways, descending."""
    rng = random.Random(3)
    oracle = VassalHexGrid(hex_grid, numbering, size)
    naming = hex_naming(hex_grid, numbering, size)
    for _ in range(2000):
        p = rng.randrange(-50, size[0] + 50), rng.randrange(-50, size[1] + 50)
        assert naming.name_at(*p) == oracle.location_name(p), p


def test_zones_are_half_open() -> None:
    """A rectangle zone holds its left and top edges, not its right and bottom ones."""
    zone = Zone("box", ((10, 20), (30, 20), (30, 40), (10, 40)))
    assert zone.contains(10, 20) and zone.contains(29, 39)
    assert not zone.contains(30, 25) and not zone.contains(15, 40) and not zone.contains(9, 25)


@pytest.fixture(scope="module")
def onslaught_module(built_module: Callable[[str], Path]) -> Path:
    """The Onslaught module as the builder makes it today."""
    return built_module("onslaught")


def test_module_is_read(onslaught_module: Path) -> None:
    """Name, the main map's grid, the off-map board's zones (each a box or a track space) and
    the turn tracker's steps."""
    module = read_module(onslaught_module)
    g = game("onslaught")
    assert module.name == g.manifest.title and module.turn_names == ("Action Step", "German Reserve Step",
                                                                     "Reinforcement Step")
    main_board = module.maps["Main Map"].boards[0]
    assert main_board.hexes is not None
    for h in g.grid.hexes:
        x, y = g.layout.centre(h)
        assert main_board.hexes.name_at(math.floor(x), math.floor(y)) == g.grid.label_of(h)
    zones = module.maps["Boxes and Tracks"].boards[0].zones
    ids = [area_id(g, z.name) for z in zones]
    expected = [b.id for b in g.manifest.box] + [f"{t.id}@{v}" for t in g.manifest.track
                                                 for v in range(t.first, t.last + 1)]
    assert ids == expected


def _zone_centre(module: ModuleInfo, location: str) -> tuple[int, int]:
    g = game("onslaught")
    for zone in module.maps["Boxes and Tracks"].boards[0].zones:
        if area_id(g, zone.name) == location:
            xs = [p[0] for p in zone.points]
            ys = [p[1] for p in zone.points]
            return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
    raise KeyError(location)


def test_a_log_of_todays_module(onslaught_module: Path, tmp_path: Path) -> None:
    """Drops on today's off-map board: with --module its zones name the place; without it,
    VASSAL's own report of the drop does, and the reader says its layout differs."""
    module = read_module(onslaught_module)
    box = _zone_centre(module, "eliminated_german")
    space = _zone_centre(module, "allied_supply@11")
    quiet = Session()
    quiet.drag("de-inf-21", "2708", "b")
    quiet.step(quiet.move_command("de-inf-21", ("Boxes and Tracks", *box), "b"))
    quiet.step(quiet.move_command("allied_supply", ("Boxes and Tracks", *space), "a"))
    with_module = translate_file(quiet.write(tmp_path / "quiet.vlog"), module_path=onslaught_module)
    assert [(type(e).__name__, getattr(e, "loss", None)) for e in with_module.entries
            if isinstance(e, (Loss, Move))] == [("Move", None), ("Loss", "eliminate")]
    assert any(isinstance(e, Comment) and e.text.endswith("-> allied_supply@11") for e in with_module.entries)
    told = Session()
    told.step(told.move_command("allied_supply", ("Boxes and Tracks", *space), "a"),
              "CHAT* Allied supply moves Allied supply 12 -> Allied supply 11 *")
    reported = translate_file(told.write(tmp_path / "told.vlog"))
    assert any(isinstance(e, Comment) and e.text.endswith("allied_supply@12 -> allied_supply@11")
               for e in reported.entries)
    assert any("VASSAL's names are used" in n.message for n in reported.notes)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "quiet.vlog"), "--module", str(onslaught_module)])
    assert result.exit_code == 1 and "step 2: error" in result.stdout


def test_a_module_that_is_not_one(tmp_path: Path) -> None:
    """A log given as the module, and junk: clear errors."""
    log = tmp_path / "x.vmod"
    with zipfile.ZipFile(log, "w") as archive:
        archive.writestr("savedGame", "x")
    with pytest.raises(DataError, match="a saved game or log"):
        read_module(log)
    junk = tmp_path / "junk.vmod"
    junk.write_bytes(b"not a zip")
    with pytest.raises(DataError, match="not a readable module"):
        read_module(junk)
    bad = tmp_path / "bad.vmod"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("buildFile.xml", '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')
    with pytest.raises(DataError, match="DOCTYPE"):
        read_module(bad)
    assert Places(game("onslaught"), None).locate("Main Map", 0, 0).kind == "off-grid"
