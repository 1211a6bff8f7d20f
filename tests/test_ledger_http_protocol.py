"""The ledger's HTTP connections (ledger/http_protocol.py): a response leaves in one write, nothing is lost or
reordered, and `serve` runs uvicorn with that protocol, on uvloop where installed (issue 27's lone-roll latency)."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ledger.http_protocol import OneSendTransport, loop_name, protocol_name
from ledger_support import write_test_key


class Recording(asyncio.Transport):
    """A transport that records each write, as the socket would see each send."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def test_writes_of_one_turn_leave_in_one_write_in_order() -> None:
    """A response's head and body, written apart by uvicorn in one turn of the loop, reach the socket as one write;
    a write in a later turn is a write of its own."""

    async def run() -> list[bytes]:
        inner = Recording()
        transport = OneSendTransport(inner, asyncio.get_running_loop())
        transport.write(b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n")
        transport.write(memoryview(b"{}"))
        assert inner.writes == []  # held until the turn ends
        await asyncio.sleep(0)
        transport.write(b"next")
        await asyncio.sleep(0)
        return inner.writes

    assert asyncio.run(run()) == [b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}", b"next"]


def test_close_sends_what_was_written_first_and_a_gone_peer_gets_nothing() -> None:
    """A refusal written and closed at once still goes out, before the close; once the connection is closing,
    held data is dropped rather than written to a dead socket."""

    async def run() -> tuple[Recording, Recording]:
        loop = asyncio.get_running_loop()
        refused = Recording()
        transport = OneSendTransport(refused, loop)
        transport.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        transport.close()
        gone = Recording()
        late = OneSendTransport(gone, loop)
        late.write(b"too late")
        gone.closed = True  # the peer went away before the turn ended
        await asyncio.sleep(0)
        return refused, gone

    refused, gone = asyncio.run(run())
    assert refused.writes == [b"HTTP/1.1 400 Bad Request\r\n\r\n"] and refused.closed
    assert gone.writes == []


def test_the_protocol_is_httptools_where_installed_else_h11(monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` names a protocol class uvicorn can import in each worker: the C parser when httptools is there."""
    module, _, name = protocol_name().partition(":")
    protocol = getattr(importlib.import_module(module), name)
    assert issubclass(protocol, asyncio.Protocol)
    has_httptools = importlib.util.find_spec("httptools") is not None
    assert name == ("HttpToolsOneSend" if has_httptools else "H11OneSend")


def test_serve_runs_uvicorn_with_one_send_responses_and_no_access_log(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """What `umpire-ledger serve` asks of uvicorn: this protocol, no access log, its timeouts."""
    import uvicorn

    from ledger.cli import main as umpire_ledger

    served: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: served.append(kwargs))
    monkeypatch.setenv("UMPIRE_LEDGER_ADMIN_TOKEN", "a-long-secret-for-this-test")
    key = write_test_key(tmp_path / "key.pem")
    result = CliRunner().invoke(umpire_ledger, ["serve", "--db", f"sqlite:///{tmp_path / 'l.sqlite'}", "--key",
                                                str(key)])
    assert result.exit_code == 0, result.output
    assert served[0]["http"] == protocol_name() and served[0]["access_log"] is False
    assert served[0]["loop"] == loop_name()
    assert served[0]["timeout_keep_alive"] == 5 and served[0]["timeout_graceful_shutdown"] == 5


def test_the_loop_is_uvloop_where_installed_else_asyncio() -> None:
    """`serve` names an event loop uvicorn knows: uvloop's (C, on libuv) when uvloop is there, else asyncio's."""
    has_uvloop = importlib.util.find_spec("uvloop") is not None
    assert loop_name() == ("uvloop" if has_uvloop else "asyncio")


def test_writes_of_one_turn_leave_in_one_write_on_uvloop() -> None:
    """The one-write transport holds and flushes the same way on uvloop's event loop, the one `serve` runs."""
    uvloop = pytest.importorskip("uvloop")

    async def run() -> list[bytes]:
        inner = Recording()
        transport = OneSendTransport(inner, asyncio.get_running_loop())
        transport.write(b"head")
        transport.write(b"body")
        await asyncio.sleep(0)
        return inner.writes

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        assert runner.run(run()) == [b"headbody"]
