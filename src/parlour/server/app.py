"""The ASGI app: HTTP endpoints (see `/docs`), the websocket at `/ws/{code}`, the static page.

HTTP makes and joins tables and serves history; play happens on the websocket (docs/protocol.md).
Nothing here reads a game's state except through `Room`, which sends only views.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from parlour.bots import bot_names
from parlour.core import IllegalMove, ParlourError, option_table
from parlour.core.options import rules_to_dict
from parlour.core.registry import games as all_games

from .rooms import Conn, Hub, Room, TableError
from .store import Store

__all__ = ["Settings", "create_app"]

log = logging.getLogger("parlour.server")
STATIC = Path(__file__).parent / "static"


@dataclass
class Settings:
    """Server settings; `parlour serve` fills them from its flags."""

    database: str = "sqlite:///var/parlour.sqlite3"
    bot_delay: float = 0.6  # default pause before a bot moves, seconds
    max_message: int = 4096  # bytes in one websocket message
    rate: float = 20.0  # websocket messages per second per connection, on average
    burst: int = 40  # … and at most this many at once
    hello_timeout: float = 15.0
    max_tables: int = 5000  # open tables at once


# --- request and answer bodies (they make the OpenAPI page) ----------------------------------
class CreateTable(BaseModel):
    game: str = Field(description="game name, as in GET /api/games", examples=["whot"])
    players: int | None = Field(None, description="number of seats (default per game)")
    preset: str | None = Field(None, description="rule preset (default per game)")
    options: dict[str, Any] = Field(
        default_factory=dict, description="rule options overriding the preset", examples=[{}]
    )
    bots: dict[int, str] = Field(
        default_factory=dict,
        description="seat → bot spec for seats played by bots (see GET /api/games)",
        examples=[{"1": "greedy", "2": "random"}],
    )
    move_clock: float | None = Field(
        None, description="seconds per move; 0 = off; default: the rules' own move_clock, if any"
    )
    match: str | None = Field(
        None, description="match format: single, rounds-N, series-N, rubber-5, elimination-100"
    )
    bot_delay: float | None = Field(None, description="pause before a bot moves, seconds")
    auto_next: bool = Field(False, description="start the next game of the match by itself")
    name: str | None = Field(None, description="the host's display name: the host takes a seat")


class TableCreated(BaseModel):
    code: str
    link: str
    host_token: str = Field(description="secret: lets its holder start the next game or close")
    seat: int | None = Field(description="the host's seat, when a name was given")
    token: str | None = Field(description="secret seat token (the host token, when seated)")


class Join(BaseModel):
    name: str = Field(description="display name, 1–32 characters", examples=["Ada"])
    seat: int | None = Field(None, description="a free seat; default the first free one")


class Joined(BaseModel):
    seat: int
    token: str = Field(description="secret seat token: send it in the websocket hello")


class Problem(BaseModel):
    error: str
    message: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    401: {"model": Problem},
    403: {"model": Problem},
    404: {"model": Problem},
    409: {"model": Problem},
}


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise TableError("send the host token as 'Authorization: Bearer TOKEN'", 401, "no_token")
    return authorization[7:].strip()


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        st: Store = (
            store if store is not None else await asyncio.to_thread(Store, settings.database)
        )
        hub = Hub(st, bot_delay=settings.bot_delay)
        app.state.hub = hub
        await hub.load()
        log.info("parlour: %d open tables restored", len(hub.rooms))
        try:
            yield
        finally:
            hub.shutdown()
            if store is None:
                st.close()

    app = FastAPI(
        title="parlour",
        summary="Tables for Whot!, Sorry! and Who's Who: friends and bots, every game stored.",
        description=(
            "Make a table over HTTP, share its link, join with a name to get a seat token, then "
            "play over the websocket `/ws/{code}` (messages: docs/protocol.md)."
        ),
        version="0.1.0",
        lifespan=lifespan,
    )
    # the browser client is plain files with no build step: compression makes it ~3x smaller
    app.add_middleware(GZipMiddleware, minimum_size=1024)

    def hub_of(request: Request) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status)

    @app.exception_handler(ParlourError)
    async def _parlour_error(request: Request, exc: ParlourError) -> JSONResponse:
        return JSONResponse({"error": "bad_request", "message": str(exc)}, status_code=400)

    # --- pages ---------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def invite(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- games and tables ----------------------------------------------------------------------
    @app.get("/api/games", tags=["games"], summary="The games, presets, options and bots")
    async def list_games() -> list[dict[str, Any]]:
        out = []
        for name, gi in sorted(all_games().items()):
            d = gi.describe()
            d["bots"] = bot_names(name)
            d["options"] = [
                {
                    "name": r.name,
                    "type": r.type,
                    "doc": r.doc,
                    "choices": [str(c) for c in r.choices or ()],
                }
                for r in option_table(gi.rules_class)
            ]
            # every preset's values, so a lobby can show them and let a host edit them
            d["preset_rules"] = {p: rules_to_dict(r) for p, r in gi.presets.items()}
            out.append(d)
        return out

    @app.post(
        "/api/tables",
        tags=["tables"],
        summary="Open a table",
        response_model=TableCreated,
        responses=ERRORS,
    )
    async def create_table(body: CreateTable, request: Request) -> TableCreated:
        hub = hub_of(request)
        if len(hub.rooms) >= settings.max_tables:
            raise TableError("the server has as many open tables as it takes", 503, "busy")
        room, host_token, seat = await hub.create(
            body.game,
            players=body.players,
            preset=body.preset,
            options=body.options,
            bots=body.bots,
            move_clock=body.move_clock,
            match=body.match,
            bot_delay=body.bot_delay,
            auto_next=body.auto_next,
            host_name=body.name,
        )
        return TableCreated(
            code=room.code,
            link=f"/t/{room.code}",
            host_token=host_token,
            seat=seat,
            token=host_token if seat is not None else None,
        )

    @app.get("/api/tables", tags=["tables"], summary="Open tables (waiting or playing)")
    async def open_tables(request: Request) -> list[dict[str, Any]]:
        rooms = sorted(hub_of(request).rooms.values(), key=lambda r: r.created_at, reverse=True)
        return [
            {
                "code": r.code,
                "game": r.game.name,
                "preset": r.preset,
                "status": r.status,
                "seats": [s.public() for s in r.seats],
            }
            for r in rooms[:200]
        ]

    @app.get("/api/tables/{code}", tags=["tables"], summary="A table", responses=ERRORS)
    async def get_table(code: str, request: Request) -> dict[str, Any]:
        return hub_of(request).get(code).public()

    @app.get(
        "/api/tables/{code}/view",
        tags=["tables"],
        summary="The current view: a seat's with its token, else the spectator's",
        responses=ERRORS,
    )
    async def get_view(
        code: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        room = hub_of(request).get(code)
        seat = None
        if authorization:
            found = room.seat_for_token(_bearer(authorization))
            if found is None:
                raise TableError("unknown token for this table", 403, "unknown_token")
            seat = found[0]
        if room.state is None:
            raise TableError("no game has started at this table", 409, "no_game")
        return room.view_message(Conn(seat, False))

    @app.post(
        "/api/tables/{code}/join",
        tags=["tables"],
        summary="Take a seat",
        response_model=Joined,
        responses=ERRORS,
    )
    async def join(code: str, body: Join, request: Request) -> Joined:
        seat, token = await hub_of(request).get(code).join(body.name, body.seat)
        return Joined(seat=seat, token=token)

    async def _host_room(request: Request, code: str, authorization: str | None) -> Room:
        room = hub_of(request).get(code)
        found = room.seat_for_token(_bearer(authorization))
        if found is None or not found[1]:
            raise TableError("only the host's token may do this", 403, "not_host")
        return room

    @app.post(
        "/api/tables/{code}/next",
        tags=["tables"],
        summary="Host: start the next game of the match",
        responses=ERRORS,
    )
    async def next_game(
        code: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        room = await _host_room(request, code, authorization)
        await room.next_game()
        return {"game_number": room.game_number}

    @app.post(
        "/api/tables/{code}/close",
        tags=["tables"],
        summary="Host: close the table",
        responses=ERRORS,
    )
    async def close_table(
        code: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        room = await _host_room(request, code, authorization)
        await room.close()
        return {"closed": room.code}

    # --- history -----------------------------------------------------------------------------
    @app.get("/api/history", tags=["history"], summary="Finished games, newest first")
    async def history(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0)] = 0,
        table: str | None = None,
    ) -> dict[str, Any]:
        hub = hub_of(request)
        return await hub.db(hub.store.history, limit, offset, table)

    @app.get(
        "/api/history/{game_id}/record",
        tags=["history"],
        summary="A finished game's record (JSON for `parlour replay FILE`)",
        responses=ERRORS,
    )
    async def record(game_id: int, request: Request) -> Response:
        hub = hub_of(request)
        rec = await hub.db(hub.store.finished_record, game_id)
        if rec is None:
            raise TableError(f"no finished game {game_id}", 404, "unknown_game")
        return Response(
            json.dumps(rec, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="parlour-{game_id}.json"'},
        )

    @app.get(
        "/api/tables/{code}/records",
        tags=["history"],
        summary="Every finished game of a table, as one file for `parlour replay`",
    )
    async def table_records(code: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        ids = await hub.db(hub.store.finished_ids, code.strip().upper())
        recs = [await hub.db(hub.store.finished_record, i) for i in ids]
        return {"table": code.upper(), "games": [r for r in recs if r is not None]}

    # --- the websocket -------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        await websocket_session(ws, code, hub=ws.app.state.hub, settings=settings)

    return app


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


def _error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}


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


def _parse(raw: str | bytes, limit: int) -> dict[str, Any]:
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise TableError(f"message too large: {size} bytes, the limit is {limit}", 413, "too_large")
    if isinstance(raw, bytes):
        raise TableError("send text frames holding JSON objects", 400, "malformed")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise TableError(f"not JSON: {exc}", 400, "malformed") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise TableError('a message is a JSON object with a "type"', 400, "malformed")
    return data


async def _writer(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.queue.get()
        if text is None:
            await ws.close(1008, "too slow: reconnect to catch up")
            return
        await ws.send_text(text)


async def websocket_session(ws: WebSocket, code: str, *, hub: Hub, settings: Settings) -> None:
    await ws.accept()

    async def refuse(err: dict[str, Any], close_code: int) -> None:
        with contextlib.suppress(Exception):
            await ws.send_json(err)
            await ws.close(close_code, err["code"])

    try:
        room = hub.get(code)
    except TableError as exc:
        await refuse(_error(exc.code, str(exc)), 4404)
        return
    try:
        raw = await asyncio.wait_for(_receive(ws), settings.hello_timeout)
    except (TimeoutError, WebSocketDisconnect):
        await refuse(_error("no_hello", "send a hello message first"), 4400)
        return
    if raw is None:
        return
    try:
        hello = _parse(raw, settings.max_message)
        if hello["type"] != "hello":
            raise TableError('the first message must be {"type": "hello"}', 400, "no_hello")
    except TableError as exc:
        await refuse(_error(exc.code, str(exc)), 4400)
        return
    seat: int | None = None
    is_host = False
    token = hello.get("token")
    if token is not None:
        found = room.seat_for_token(token) if isinstance(token, str) else None
        if found is None:
            await refuse(_error("unknown_token", "this token is not a seat at this table"), 4401)
            return
        seat, is_host = found
    conn = Conn(seat, is_host)
    writer = asyncio.ensure_future(_writer(ws, conn))
    bucket = Bucket(settings.rate, settings.burst)
    async with room.lock:
        room.attach(conn)
    try:
        while not writer.done():
            raw = await _receive(ws)
            if raw is None:
                break
            if not bucket.take():
                conn.send(_error("rate_limited", f"at most {settings.rate:g} messages a second"))
                continue
            try:
                await _handle(room, conn, _parse(raw, settings.max_message))
            except IllegalMove as exc:
                conn.send(_error("illegal", str(exc), legal=exc.legal))
            except TableError as exc:
                conn.send(_error(exc.code, str(exc)))
            except ParlourError as exc:
                conn.send(_error("bad_request", str(exc)))
    except WebSocketDisconnect:
        pass
    finally:
        async with room.lock:
            room.detach(conn)
        if not writer.done():
            # let queued messages go out before the socket is dropped
            writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _handle(room: Room, conn: Conn, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "move":
        if conn.seat is None:
            raise TableError("spectators cannot move", 403, "spectator")
        text, ply = msg.get("move"), msg.get("ply")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise TableError('a move message needs "move": the move text', 400, "malformed")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise TableError('"ply" must be a whole number', 400, "malformed")
        await room.move(conn.seat, text, ply)
    elif kind in ("next", "close"):
        if not conn.is_host:
            raise TableError(f"only the host may {kind} the table's game", 403, "not_host")
        await (room.next_game() if kind == "next" else room.close())
    elif kind == "view":
        async with room.lock:
            if room.state is not None:
                conn.events_sent = 0
                conn.send(room.view_message(conn))
    elif kind == "hint":
        if conn.seat is None:
            raise TableError("spectators get no hints", 403, "spectator")
        conn.send(await room.hint(conn.seat))
    elif kind == "hello":
        raise TableError("already said hello", 400, "malformed")
    else:
        raise TableError(
            f"unknown message type {kind!r}: use move, hint, next, close, view or ping",
            400,
            "malformed",
        )
