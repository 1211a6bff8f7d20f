"""The command lines: exit codes 0/1/2, messages, and the shape of `show --json`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import main as adjudicate
from builder.cli import main as vmodbuild
from wargame.bundled import data_root
from wargame.game import load_game


def run(*args: str) -> tuple[int, str, str]:
    """Run vmodbuild in-process: exit code, stdout, stderr."""
    result = CliRunner().invoke(vmodbuild, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_validate_all_bundled_games_is_clean() -> None:
    """Exit 0 and one ok line per game."""
    code, out, err = run("validate")
    assert code == 0, err
    assert "omaha: ok" in out and "onslaught: ok" in out


def test_validate_broken_copy_exits_1_with_every_problem(data_copy: Path) -> None:
    """Exit 1, every problem on stderr, the count on stdout."""
    places = data_copy / "maps" / "omaha" / "places.csv"
    places.write_text(places.read_text(encoding="utf-8").replace(",0421,", ",0499,")
                      .replace(",2417,", ",2499,"), encoding="utf-8")
    code, out, err = run("validate", "omaha", "--data", str(data_copy))
    assert code == 1
    assert "omaha: 2 problem(s)" in out
    assert "hex 0499" in err and "hex 2499" in err


def test_unknown_game_exits_2_with_suggestion() -> None:
    """A game that does not exist cannot be validated: exit 2 and a suggestion."""
    code, _, err = run("validate", "onslaugth")
    assert code == 2
    assert "did you mean 'onslaught'" in err


def test_show_text_summary() -> None:
    """The person-readable summary names the grid and the provenance split."""
    code, out, _ = run("show", "omaha")
    assert code == 0
    assert "26 columns x 30 rows = 780 hexes" in out
    assert "Provenance:" in out


def test_show_json_shape() -> None:
    """The JSON lists every hex with terrain, and the documented top-level keys."""
    code, out, _ = run("show", "omaha", "--json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {
        "schema_version", "game", "map", "terrain", "nationalities", "unit_types", "boxes", "tracks",
        "sequence", "scenarios", "optional_rules", "units", "markers", "setup", "reinforcements",
        "replacements", "crt", "charts", "parameters",
    }
    game = load_game(data_root(), "omaha")
    assert [h["hex"] for h in doc["map"]["hexes"]] == list(game.grid.labels)
    assert {"hex", "column", "row", "terrain", "source", "hexsides"} <= set(doc["map"]["hexes"][0])
    beach = next(a for a in doc["map"]["areas"] if a["id"] == "omaha_beach")
    assert beach["all_hexes"] == sorted(["2318", "2319", "2219", "2120", "2121", "2122"])
    assert out == run("show", "omaha", "--json")[1]  # canonical: the same bytes every time


def test_show_broken_data_exits_2(data_copy: Path) -> None:
    """show cannot describe data that do not load."""
    game_toml = data_copy / "counters" / "omaha" / "game.toml"
    game_toml.write_text(game_toml.read_text(encoding="utf-8") + "\nbogus = 1\n", encoding="utf-8")
    code, _, err = run("show", "omaha", "--data", str(data_copy))
    assert code == 2
    assert "unknown key 'bogus'" in err


def test_usage_error_exits_2() -> None:
    """An unknown option is a usage error."""
    assert run("validate", "--bogus")[0] == 2


def test_adjudicate_help() -> None:
    """The adjudicator's command exists and answers --help."""
    result = CliRunner().invoke(adjudicate, ["--help"])
    assert result.exit_code == 0
    assert "Referee" in result.stdout


def test_module_entry_points(tmp_path: Path) -> None:
    """`python -m builder` and `python -m adjudicator` work from any directory."""
    done = subprocess.run([sys.executable, "-m", "builder", "validate"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "omaha: ok" in done.stdout
    done = subprocess.run([sys.executable, "-m", "adjudicator", "--version"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_preview_writes_a_png(tmp_path: Path) -> None:
    """preview writes GAME-map.png of the map's board size; an unwritable folder exits 2."""
    from PIL import Image

    code, out, err = run("preview", "onslaught", "--out", str(tmp_path / "png"))
    assert code == 0, err
    path = Path(out.strip())
    assert path == tmp_path / "png" / "onslaught-map.png"
    game = load_game(data_root(), "onslaught")
    with Image.open(path) as image:
        assert image.size == game.board_size
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, _, err = run("preview", "onslaught", "--out", str(blocker / "sub"))
    assert code == 2 and "cannot write" in err


def test_render_writes_every_picture(tmp_path: Path) -> None:
    """render writes the board, the boxes board, every counter face and every chart."""
    code, out, err = run("render", "omaha", "--out", str(tmp_path))
    assert code == 0, err
    names = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.png")}
    game = load_game(data_root(), "omaha")
    faces = sum(u.steps for _, u in game.units)
    assert {"omaha-board.png", "omaha-holding.png", "omaha-crt.png", "omaha-terrain.png"} <= names
    assert len([n for n in names if n.startswith("counters/")]) >= faces + len(game.markers.marker)


def test_build_needs_a_game_or_all() -> None:
    """build without a game or --all is a usage error (exit 2)."""
    code, _, err = run("build")
    assert code == 2 and "--all" in err
