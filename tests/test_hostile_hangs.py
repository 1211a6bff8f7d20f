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

from builder.render.ink import font_at, smaller

ROOT = Path(__file__).resolve().parent.parent


def test_a_smaller_font_is_smaller() -> None:
    """7 x 0.93 rounds back to 7: every step down is at least one size."""
    for size in range(2, 60):
        assert smaller(font_at(size), 0.93).size < size


def test_a_picture_at_the_smallest_scale(tmp_path: Path) -> None:
    """`picture --scale 0.25` on Omaha never returned (the Achtung Minen marker's words); now in seconds."""
    out = tmp_path / "small.png"
    done = subprocess.run([sys.executable, "-m", "umpire", "picture", str(ROOT / "examples" / "omaha" / "legal-combat.log"),
                           "--scale", "0.25", "-o", str(out)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "UMPIRE_CACHE": ""})
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


class _Dripping(BaseHTTPRequestHandler):
    """A server that answers one byte every 0.1 s, for ever: no single read ever times out."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Length", str(10**9))
        self.end_headers()
        try:
            while True:
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.1)
        except OSError:
            pass

    def log_message(self, *_: object) -> None:
        pass


def test_a_ledger_url_that_never_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --ledger URL` against a server that drips bytes: our error at the deadline (it waited for ever)."""
    from adjudicator import dice_ledger
    from wargame.errors import WargameError
    monkeypatch.setattr(dice_ledger, "DOWNLOAD_DEADLINE_S", 1.0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Dripping)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    outcome: list[str] = []

    def read() -> None:
        try:
            dice_ledger.read_ledger(f"http://127.0.0.1:{server.server_address[1]}/ledger")
        except WargameError as e:
            outcome.append(str(e))

    try:
        started = time.monotonic()
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(20)
        assert not reader.is_alive(), "read_ledger still waiting after 20 s"
        assert time.monotonic() - started < 5
        assert outcome and "the download took over 1 s" in outcome[0]
    finally:
        server.shutdown()
        server.server_close()
