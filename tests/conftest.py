"""Shared fixtures: the checkout's data root and throwaway copies of it to break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled maps/ and counters/."""
    for name in ("maps", "counters"):
        shutil.copytree(ROOT / name, tmp_path / name)
    return tmp_path
