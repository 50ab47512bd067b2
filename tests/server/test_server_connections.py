"""Server hardening, finding 5: connections are bounded, tested on a real `parlour serve` over
loopback — a half-sent request is hung up on, one address holds only so many connections, and
the server still answers everyone else meanwhile."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_testkit import free_port

# its own one-process `parlour serve` on SQLite: the same in both modes (a gateway is that server)
pytestmark = pytest.mark.in_process(
    "runs its own one-process server on SQLite: the same in both modes"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port),
         "--database", f"sqlite:///{tmp_path / 'p.sqlite3'}", "--log-level", "warning",
         "--setting", "request_timeout=1", "--setting", "connections_per_client=5"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 60
        while True:
            try:
                httpx.get(base + "/api/games", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server hangs up within `seconds` (recv gives b"" or the connection resets)."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_half_sent_request_is_hung_up_on(server: str) -> None:
    slow = connect(server)
    slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and never the rest
    assert closed_within(slow, 5), "a request that never finished held its connection"
    idle = connect(server)  # and one that never says anything at all
    assert closed_within(idle, 5)


def test_one_address_holds_only_so_many_connections(server: str) -> None:
    held = [connect(server) for _ in range(5)]
    extra = connect(server)
    assert closed_within(extra, 2), "a sixth connection from one address was kept"
    for s in held:
        s.close()
    time.sleep(0.2)
    assert httpx.get(server + "/api/games", timeout=5).status_code == 200  # freed again


def test_only_large_messages_are_compressed(server: str) -> None:
    """permessage-deflate is agreed, but a small message goes uncompressed (RSV1 clear): the
    client's decoder sees which were compressed."""
    import asyncio
    import json

    from websockets.asyncio.client import connect
    from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
    from websockets.frames import Frame

    seen: list[tuple[bool, int]] = []

    class Recording(ClientPerMessageDeflateFactory):
        def process_response_params(self, params: Any, accepted: Any) -> Any:
            ext = super().process_response_params(params, accepted)
            real = ext.decode

            def decode(frame: Frame, *, max_size: int | None = None) -> Frame:
                out = real(frame, max_size=max_size)
                seen.append((frame.rsv1, len(out.data)))
                return out

            ext.decode = decode  # type: ignore[method-assign]
            return ext

    table = httpx.post(server + "/api/tables", json={"game": "whot", "players": 2, "name": "A"})
    code = table.json()["code"]

    async def talk() -> None:
        async with connect(
            f"ws://{server.removeprefix('http://')}/ws/{code}", extensions=[Recording()],
            compression=None,
        ) as ws:  # fmt: skip
            await ws.send(json.dumps({"type": "hello"}))
            await ws.recv()  # welcome: the table, a large message
            await ws.send(json.dumps({"type": "ping"}))
            await ws.recv()  # pong: a small one

    asyncio.run(talk())
    assert (True, seen[0][1]) == seen[0] and seen[0][1] >= 1024, seen  # the welcome: compressed
    assert seen[-1][0] is False and seen[-1][1] < 1024, seen  # the pong: as it was
