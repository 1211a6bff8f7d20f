"""Shared fixtures: the checkout's data root and throwaway copies of it to break."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled maps/ and counters/."""
    for name in ("maps", "counters"):
        shutil.copytree(ROOT / name, tmp_path / name)
    return tmp_path


@pytest.fixture(scope="session")
def built_module(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """A game's module as the builder makes it today, built once per test session: `built_module("omaha")`."""
    from click.testing import CliRunner

    from builder.cli import main as vmodbuild

    out = tmp_path_factory.mktemp("dist")
    built: dict[str, Path] = {}

    def build(game_id: str) -> Path:
        if game_id not in built:
            result = CliRunner().invoke(vmodbuild, ["build", game_id, "--out", str(out)])
            assert result.exit_code == 0, result.output
            built[game_id] = out / f"{game_id}.vmod"
        return built[game_id]

    return build


@pytest.fixture
def may_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's process forked even beside the test runner's own threads (a pytest-xdist worker runs one), so
    that the forked path is what a test exercises, as it is for the command line, which runs no other thread."""
    import warnings

    from builder.vassal import art

    monkeypatch.setattr(art, "_may_fork", lambda: True)
    # Python 3.12+ warns of forking beside a thread; the runner's thread holds no lock the board's drawing takes.
    warnings.filterwarnings("ignore", "This process .* is multi-threaded, use of fork", DeprecationWarning)


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch, may_fork: None) -> list[int]:
    """The process ids os.fork returns to the parent during a test (the board's process), noted in order."""
    import os

    pids: list[int] = []
    real_fork = os.fork

    def noted_fork() -> int:
        pid = real_fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", noted_fork)
    return pids
