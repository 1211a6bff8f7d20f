"""The installed commands find the games' data from any directory, editable or not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_checkout_finds_data(tmp_path: Path) -> None:
    """Run from an unrelated directory with the checkout on the path, the kernel finds its data."""
    code = "from wargame.bundled import data_root; print(data_root())"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert Path(done.stdout.strip()) == ROOT


def test_editable_install_console_script_finds_data(tmp_path: Path) -> None:
    """The `vmodbuild` of the editable install (README's test command) works from anywhere."""
    script = Path(sys.executable).parent / "vmodbuild"
    assert script.exists(), "install first: python -m pip install -e '.[test]'"
    env = {k: v for k, v in os.environ.items() if k not in ("UMPIRE_DATA", "PYTHONPATH")}
    done = subprocess.run([str(script), "validate"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "omaha: ok" in done.stdout and "onslaught: ok" in done.stdout


@pytest.mark.slow
def test_regular_install_carries_the_data(tmp_path: Path) -> None:
    """A wheel installed elsewhere holds maps/ and counters/ and its vmodbuild validates them."""
    pytest.importorskip("hatchling")
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(wheels), str(ROOT)], check=True, capture_output=True)
    wheel = next(wheels.glob("umpire-*.whl"))
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    assert (target / "wargame" / "bundled_data" / "maps" / "omaha" / "map.toml").is_file()
    assert (target / "wargame" / "bundled_data" / "counters" / "onslaught" / "game.toml").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "UMPIRE_DATA"}
    env["PYTHONPATH"] = str(target)
    where = subprocess.run([sys.executable, "-c", "import wargame, wargame.bundled as b; "
                            "print(wargame.__file__); print(b.data_root())"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    module_file, root = where.stdout.split()
    assert Path(module_file).is_relative_to(target)
    assert Path(root) == target / "wargame" / "bundled_data"
    script = target / "bin" / "vmodbuild"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "builder"]
    done = subprocess.run([*command, "validate"], cwd=elsewhere, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "omaha: ok" in done.stdout and "onslaught: ok" in done.stdout
