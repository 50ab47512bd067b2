"""One websocket session: hello with a seat token (or none, to watch), then messages until it ends.

Messages in are `move`, `hint`, `why`, `chat`, `next`, `rematch`, `close`, `view`, `ping`
(docs/protocol.md); everything out is built by `wire`. Bad input is answered with an `error`
message, never a dropped socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, assert_never

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from parlour.core import IllegalMove, ParlourError

from . import metrics, wire
from .bus import BusDown
from .clients import client_address
from .connections import Conn
from .gateway import Gateway, Replica
from .logs import bind_contextvars
from .messages import (
    ChatIn,
    ClientIn,
    CloseIn,
    ErrorOut,
    HelloIn,
    HintIn,
    MoveIn,
    NextIn,
    PingIn,
    RematchIn,
    ViewIn,
    WhyIn,
    parse_client,
)
from .moderation import SUSPENDED_CLOSE, Moderation
from .settings import Settings
from .tables import TableError

SUSPENDED = "this seat's account is suspended by the server's moderators"

__all__ = ["Bucket", "websocket_session"]

WS_ROUTE = "/ws/{code}"  # a websocket's refusals, by the route they came through


class Bucket:
    """A token bucket: `rate` messages a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next message's text (or bytes); None once the client has gone."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    text: str | None = msg.get("text")
    if text is not None:
        return text
    data: bytes | None = msg.get("bytes")
    return data if data is not None else b""


async def _writer(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.queue.get()
        if text is None:
            await ws.close(conn.close_code, conn.close_reason)
            return
        await ws.send_text(text)


async def websocket_session(
    ws: WebSocket,
    code: str,
    *,
    gateway: Gateway,
    settings: Settings,
    moderation: Moderation | None = None,
) -> None:
    await ws.accept()

    async def refuse(err: ErrorOut, close_code: int) -> None:
        with contextlib.suppress(Exception):
            await ws.send_json(err)
            await ws.close(close_code, err["code"])

    host = ws.client.host if ws.client else None
    clients = gateway.clients
    client = clients.key(client_address(host, ws.headers, settings.trust_forwarded))
    if not clients.open_websocket(client):
        metrics.RATE_LIMITED.labels(WS_ROUTE).inc()
        limit = settings.websockets_per_client
        await refuse(wire.error("too_many", f"at most {limit} connections from one client"), 4429)
        return
    try:
        with metrics.WEBSOCKETS.track_inprogress():
            await _session(
                ws, code, client, gateway=gateway, settings=settings, refuse=refuse,
                moderation=moderation,
            )  # fmt: skip
    finally:
        clients.close_websocket(client)


async def _session(
    ws: WebSocket,
    code: str,
    client: str,
    *,
    gateway: Gateway,
    settings: Settings,
    refuse: Any,
    moderation: Moderation | None,
) -> None:
    bind_contextvars(table=code.strip().upper())  # this session's log lines name its table
    try:
        rep = await gateway.replica(code)
    except TableError as exc:
        await refuse(wire.error(exc.code, str(exc)), 4404)
        return
    try:
        async with asyncio.timeout(settings.hello_timeout):
            raw = await _receive(ws)
    except (TimeoutError, WebSocketDisconnect):
        await refuse(wire.error("no_hello", "send a hello message first"), 4400)
        return
    if raw is None:
        return
    try:
        hello = parse_client(raw, settings.max_message)
        if not isinstance(hello, HelloIn):
            raise TableError('the first message must be {"type": "hello"}', 400, "no_hello")
    except TableError as exc:
        await refuse(wire.error(exc.code, str(exc)), 4400)
        return
    seat: int | None = None
    is_host = False
    token = hello.token
    if token is not None:
        found = rep.table.seat_for_token(token) if token else None
        if found is None and token:
            # a seat just taken through another gateway: its update may not be here yet
            await gateway.catch_up(rep)
            found = rep.table.seat_for_token(token)
        if found is None:
            await refuse(
                wire.error("unknown_token", "this token is not a seat at this table"), 4401
            )
            return
        seat, is_host = found
        bind_contextvars(seat=seat)
        if moderation is not None and await moderation.seat_suspended(rep, seat):
            await refuse(wire.error("suspended", SUSPENDED), SUSPENDED_CLOSE)
            return
    conn = Conn(seat, is_host)
    writer = asyncio.ensure_future(_writer(ws, conn))
    bucket = Bucket(settings.rate, settings.burst)
    await gateway.attach(rep, conn)
    if moderation is not None and await moderation.suspended_since_hello(rep, seat):
        conn.close(SUSPENDED_CLOSE, "this account is suspended")
    try:
        while not writer.done():
            try:
                async with asyncio.timeout(settings.websocket_idle):
                    raw = await _receive(ws)
            except TimeoutError:  # silent for an hour: make room (a reload reconnects)
                conn.send(wire.error("idle", "closed after a long silence: reconnect to go on"))
                conn.close(4408, "idle")
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(5):  # the error goes out, then the close
                        await writer
                break
            if raw is None:
                break
            if not bucket.take():
                metrics.RATE_LIMITED.labels(WS_ROUTE).inc()
                conn.send(
                    wire.error("rate_limited", f"at most {settings.rate:g} messages a second")
                )
                continue
            try:
                await _handle(gateway, rep, conn, client, parse_client(raw, settings.max_message))
            except IllegalMove as exc:
                conn.send(wire.error("illegal", str(exc), legal=exc.legal))
            except TableError as exc:
                if exc.status == 429:  # chat's allowance
                    metrics.RATE_LIMITED.labels(WS_ROUTE).inc()
                conn.send(wire.error(exc.code, str(exc), exc.legal))
            except ParlourError as exc:
                conn.send(wire.error("bad_request", str(exc)))
            except BusDown:  # an answer, not a dropped socket: the connection outlives Redis
                conn.send(wire.error("busy", "the server's message bus is down: try again soon"))
    except WebSocketDisconnect:
        pass
    finally:
        await gateway.detach(rep, conn)
        if not writer.done():
            # let queued messages go out before the socket is dropped
            writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _handle(gateway: Gateway, rep: Replica, conn: Conn, client: str, msg: ClientIn) -> None:
    """One message from a connection (`client`: its key, for the per-client limits)."""
    match msg:
        case PingIn():
            conn.send(wire.pong())
        case MoveIn(move=text, ply=ply):
            if conn.seat is None:
                raise TableError("spectators cannot move", 403, "spectator")
            await gateway.move(rep, conn.seat, text, ply)
        case NextIn() | CloseIn():
            if not conn.is_host:
                raise TableError(f"only the host may {msg.type} the table's game", 403, "not_host")
            await gateway.host_command(rep.code, msg)
        case ViewIn():
            async with rep.lock:
                rep.resend_view(conn)
        case HintIn():
            if conn.seat is None:
                raise TableError("spectators get no hints", 403, "spectator")
            conn.send(await gateway.hint(rep, conn.seat))
        case ChatIn(text=text):
            if conn.seat is None:
                raise TableError("spectators cannot chat: take a seat first", 403, "spectator")
            await gateway.chat(rep, conn.seat, text)
        case WhyIn(move=text):
            conn.send(await gateway.why(rep, conn.seat, text))
        case RematchIn():
            if not conn.is_host:
                raise TableError("only the host may start a rematch", 403, "not_host")
            await gateway.rematch(rep, client)
        case HelloIn():
            raise TableError("already said hello", 400, "malformed")
        case _:
            assert_never(msg)
