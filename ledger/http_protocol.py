"""The ledger's HTTP connections: uvicorn's protocol (its C parser, httptools, where installed), each response
sent in one write, on uvloop's event loop where installed.

uvicorn writes a response's head when the app starts it and its body when the app sends it: two sends, and on
loopback two wake-ups of the client for one answer. On a machine whose cores are all busy every wake-up waits
for a core, so a lone roll paid for the second one (bench/README.md, issue 27). Here whatever a connection
writes in one turn of the event loop is held and sent in one write at the end of that turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from importlib.util import find_spec
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


class OneSendTransport(asyncio.Transport):
    """A transport whose writes within one turn of the event loop leave in one write of the transport it wraps."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._held: list[bytes | bytearray | memoryview] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        """Hold the data; the first write of a turn schedules the flush at the turn's end."""
        if not data:
            return
        if not self._held:
            self._loop.call_soon(self.flush)
        self._held.append(data)

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Send what is held, in one write (nothing to a connection already closing: its peer is gone)."""
        held, self._held = self._held, []
        if held and not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        # What was written before close goes first: a refusal written and closed at once still reaches its client.
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._held = []
        self._transport.abort()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(len(data) for data in self._held)

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)


class H11OneSend(H11Protocol):
    """uvicorn's h11 protocol (pure Python), each response in one write."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(OneSendTransport(transport, self.loop))


HAS_HTTPTOOLS = find_spec("httptools") is not None
if HAS_HTTPTOOLS:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HttpToolsOneSend(HttpToolsProtocol):
        """uvicorn's httptools protocol (its C parser spends less CPU per request than h11), each response in
        one write."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(OneSendTransport(transport, self.loop))


def protocol_name() -> str:
    """The protocol class `uvicorn.run(http=...)` imports in each worker: httptools' where installed, else h11's."""
    return f"{__name__}:{'HttpToolsOneSend' if HAS_HTTPTOOLS else 'H11OneSend'}"


HAS_UVLOOP = find_spec("uvloop") is not None


def loop_name() -> str:
    """The event loop `uvicorn.run(loop=...)` runs in a worker: uvloop (C, on libuv) where installed, else asyncio."""
    # uvloop: about a tenth less of the server's CPU per roll, a fifth more rolls/s for 32 clients (bench/README.md,
    # issue 27's fourth pass). No Windows build: asyncio's loop serves there.
    return "uvloop" if HAS_UVLOOP else "asyncio"
