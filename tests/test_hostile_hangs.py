"""Hangs (issue 28): a font shrink that rounded back to its own size, a ledger download with no overall
deadline. Each runs against a clock."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from builder.render.counters import _smaller, _text_font

ROOT = Path(__file__).resolve().parent.parent


def test_a_smaller_font_is_smaller() -> None:
    """7 x 0.93 rounds back to 7: every step down is at least one size."""
    for size in range(2, 60):
        assert _smaller(_text_font(size), 0.93).size < size


def test_a_picture_at_the_smallest_scale(tmp_path: Path) -> None:
    """`picture --scale 0.25` on Omaha never returned (the Achtung Minen marker's words); now in seconds."""
    out = tmp_path / "small.png"
    done = subprocess.run([sys.executable, "-m", "umpire", "picture", str(ROOT / "examples" / "omaha" / "legal-combat.log"),
                           "--scale", "0.25", "-o", str(out)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "UMPIRE_CACHE": ""})
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0
