"""The ASGI app: the HTTP routers (see `/docs`), the websocket at `/ws/{code}`, the static files.

HTTP makes and joins tables and serves history; play happens on the websocket (docs/protocol.md).
Nothing here reads a game's state: routes reach tables through the gateway and its replicas, and
every message is built by `wire`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, NamedTuple

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.core import ParlourError
from parlour.core.registry import games as all_games

from . import metrics
from .accounts import Accounts
from .bus import BusDown, make_bus
from .collector import FreezingCollector
from .database import Database
from .gateway import Gateway
from .headers import SecurityHeaders
from .health import Health
from .health import router as health_router
from .logs import set_process
from .matchmaking import QuickMatch
from .moderation import Moderation
from .observing import RequestContext, route_of
from .review import Reviews
from .routes import (
    games_router,
    history_router,
    pages_router,
    review_router,
    tables_router,
    tournaments_router,
)
from .routes.accounts import router as accounts_router
from .routes.docs import mount_assets
from .routes.docs import router as docs_router
from .routes.invite import router as invite_router
from .routes.moderation import router as moderation_router
from .routes.pages import STATIC
from .routes.players import router as players_router
from .routes.quickmatch import router as quick_router
from .session import websocket_session
from .settings import Settings
from .stacks import bounded
from .storage import Store
from .tables import TableError
from .worker import DEAD_AFTER, TableWorker

__all__ = ["STATIC", "Settings", "create_app"]

log = logging.getLogger("parlour.server")


class BodyLimit:
    """Refuse a request body over `limit` bytes (413): by its Content-Length before reading it,
    and by counting what arrives when it has none."""

    def __init__(self, app: ASGIApp, limit: int, uploads: dict[str, int] | None = None) -> None:
        self.app, self.limit = app, limit
        self.uploads = uploads or {}  # paths that take files, and their own (larger) limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.uploads.get(scope.get("path", ""), self.limit)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except BodyTooLarge:
            await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(
            {"error": "too_large", "message": f"a request body may be {limit} bytes at most"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


class BodyTooLarge(Exception):
    pass


NOT_UNICODE = "the request holds text that is not Unicode (a lone surrogate such as \\ud800)"


def _text(message: str) -> str:
    """An error's words as UTF-8 can carry them: a lone surrogate a request sent, quoted back in
    a message, is written as its escape."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def invalid_request(exc: RequestValidationError) -> JSONResponse:
    """A request its route's model refuses: 422 with what is wrong where — never the input itself
    (FastAPI's own answer echoes it: a password too long came back in the answer, and a lone
    surrogate in it, which no UTF-8 can carry, made the answer itself fail with a 500). Text that
    is not Unicode at all (a lone surrogate, `"\\ud800"`, anywhere in the JSON) is a 400."""
    errors = exc.errors()
    if any(_surrogate(e.get("input")) for e in errors):
        return JSONResponse({"error": "bad_request", "message": NOT_UNICODE}, status_code=400)
    detail = [
        {"type": str(e.get("type")), "loc": [str(x) for x in e.get("loc", ())], "msg": e.get("msg")}
        for e in errors
    ]
    words = "; ".join(
        f"{'.'.join(d['loc'][1:]) or d['loc'][0] if d['loc'] else 'the request'}: {d['msg']}"
        for d in detail
    )
    return JSONResponse({"error": "invalid", "message": words, "detail": detail}, status_code=422)


def _surrogate(value: Any, depth: int = 0) -> bool:
    """Whether a value (JSON as Python reads it) holds a lone surrogate in any string."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if depth > 64:
        return False
    if isinstance(value, dict):
        return any(_surrogate(k, depth + 1) or _surrogate(v, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_surrogate(v, depth + 1) for v in value)
    return False


UPLOADS = ("/api/review/records", "/api/review/analyses", "/api/puzzles")  # take whole files


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    settings = settings or Settings()
    if settings.role not in ("all", "gateway", "worker"):
        raise ValueError(f"role is all, gateway or worker, not {settings.role!r}")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with serving(settings, store) as parts:
            app.state.db, app.state.gateway, app.state.worker = (
                parts.db,
                parts.gateway,
                parts.worker,
            )
            app.state.health = parts.health
            # the review answers HTTP, so it lives where HTTP is answered: with a gateway
            reviews = Reviews(parts[0], settings, parts[1].id) if parts[1] is not None else None
            app.state.reviews = reviews
            # accounts answer HTTP too; the key of their CSRF tokens is every gateway's secret
            gateway = parts[1]
            app.state.accounts = (
                None if gateway is None else Accounts(parts[0], settings, gateway.secret)
            )
            # quick match's queue is in the database: any gateway may form matches
            quick = None if gateway is None else QuickMatch(parts[0], gateway, settings)
            app.state.quick = quick
            # moderators' acts and people's reports are answered where HTTP is: a gateway
            moderation = None if gateway is None else Moderation(parts[0], gateway, settings)
            app.state.moderation = moderation
            if reviews is not None:
                reviews.start()
            if quick is not None:
                await quick.start()
            if moderation is not None:
                await moderation.start()
            try:
                yield
            finally:
                if moderation is not None:
                    await moderation.stop()
                if quick is not None:
                    await quick.stop()
                if reviews is not None:
                    await reviews.stop()

    titles = ", ".join(gi.title for _, gi in sorted(all_games().items()))
    app = FastAPI(
        title="parlour",
        summary=f"Tables for {titles}: friends and bots, every game stored.",
        description=(
            "Make a table over HTTP, share its link, join with a name to get a seat token, then "
            "play over the websocket `/ws/{code}` (messages: docs/protocol.md)."
        ),
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # /docs is served from this server's own files (routes/docs.py)
        redoc_url=None,
    )
    app.state.settings = settings
    # the browser client is plain files with no build step: compression makes it ~3x smaller
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    uploads = {p: settings.max_upload for p in UPLOADS}
    app.add_middleware(BodyLimit, limit=settings.max_body, uploads=uploads)
    app.add_middleware(RequestContext)  # each request's id, in its log lines and its answer
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, a refusal's too

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> JSONResponse:
        if exc.status == 429:  # too fast: counted by route (server/metrics.py)
            metrics.RATE_LIMITED.labels(route_of(request.scope)).inc()
        return JSONResponse({"error": exc.code, "message": _text(str(exc))}, status_code=exc.status)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    @app.exception_handler(PoolTimeout)
    async def _storage(request: Request, exc: Exception) -> JSONResponse:
        # the database is down or unreachable: a refusal to try again, not a 500 with a
        # traceback for every query that meets it — one line says why
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        log.warning("storage: %s %s failed: %s", request.method, request.url.path, reason)
        message = "the server's database is not answering; nothing changed: try again in a moment"
        return JSONResponse({"error": "storage", "message": message}, status_code=503)

    @app.exception_handler(UnicodeEncodeError)
    async def _not_unicode(request: Request, exc: UnicodeEncodeError) -> JSONResponse:
        # an answer that would carry a request's lone surrogate back cannot be written as UTF-8
        return JSONResponse({"error": "bad_request", "message": NOT_UNICODE}, status_code=400)

    @app.exception_handler(BusDown)
    async def _bus_down(request: Request, exc: BusDown) -> JSONResponse:
        message = "the server's message bus is down: try again in a moment"
        return JSONResponse({"error": "busy", "message": message}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return invalid_request(exc)

    @app.exception_handler(ParlourError)
    async def _parlour_error(request: Request, exc: ParlourError) -> JSONResponse:
        return JSONResponse({"error": "bad_request", "message": _text(str(exc))}, status_code=400)

    app.include_router(health_router)  # /livez, /readyz, /metrics: every role
    if settings.role == "worker":
        return app  # a table worker answers HTTP for its health and metrics only

    for router in (
        pages_router,
        docs_router,
        games_router,
        tables_router,
        invite_router,
        history_router,
        review_router,
        tournaments_router,
        accounts_router,
        players_router,
        quick_router,
        moderation_router,
    ):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    mount_assets(app)
    # Each game's browser files are served from its own folder (its manifest's `web`).
    for name, gi in sorted(all_games().items()):
        folder = gi.web_folder()
        if folder is not None and folder.is_dir():
            app.mount(f"/games/{name}", StaticFiles(directory=folder), name=f"game-{name}")

    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        gateway = getattr(ws.app.state, "gateway", None)
        if gateway is None:
            await ws.close(1013, "this process is a table worker: connect to a gateway")
            return
        moderation = getattr(ws.app.state, "moderation", None)
        await websocket_session(ws, code, gateway=gateway, settings=settings, moderation=moderation)

    return app


class Parts(NamedTuple):
    """A serving process's parts (`serving`)."""

    db: Database
    gateway: Gateway | None
    worker: TableWorker | None
    health: Health


@asynccontextmanager
async def serving(settings: Settings, store: Store | None = None) -> AsyncIterator[Parts]:
    """The parts of a server process by its role: the database thread, the bus, a table worker
    and a gateway (both, in one process), and its health checks and measurements. On the way
    out a worker hands its tables on."""
    st: Store = store if store is not None else await asyncio.to_thread(Store, settings.database)
    db = Database(st, settings.commit_window, settings.commit_siblings)
    bus = make_bus(settings.bus, settings.bus_drop)
    worker: TableWorker | None = None
    gateway: Gateway | None = None
    health: Health | None = None
    collecting = asyncio.create_task(FreezingCollector().run()) if settings.freeze_gc else None
    try:
        secret = await db.call(st.secret, "seeds")
        if settings.role in ("all", "worker"):
            worker = TableWorker(db, bus, settings, secret)
            await worker.start()
        if settings.role in ("all", "gateway"):
            gateway = Gateway(db, bus, settings, secret)
            gateway.local_worker = worker
            await gateway.start()
        set_process(
            worker=worker.id if worker else None, gateway=gateway.id if gateway else None
        )  # every log line of the process names them (server/logs.py)
        metrics.watch(worker=worker, gateway=gateway)
        health = Health(db, bus, worker, DEAD_AFTER)
        health.start()
        log.info("parlour: %s ready (worker %s)", settings.role, worker.id if worker else "-")
        yield Parts(db, gateway, worker, health)
    finally:
        # each step of stopping has `stop_timeout` seconds: one that waits for ever would keep
        # the process alive with nothing said (server/stacks.py's `bounded` says where it waits)
        limit = settings.stop_timeout
        if health is not None:
            await bounded(health.stop(), limit, "stopping the health checks")
        metrics.forget(worker=worker, gateway=gateway)
        if gateway is not None:
            await bounded(gateway.stop(), limit, "stopping the gateway")
        if worker is not None:
            try:
                handed = await bounded(worker.drain(), limit, "handing the tables on")
                if handed is None:  # the rest are adopted once this worker is gone from the list
                    await bounded(worker.leave(), limit, "leaving the list of workers")
                else:
                    log.info("parlour: %d tables handed on", handed)
            except Exception:
                log.exception("parlour: draining failed; the tables will be adopted")
            await bounded(worker.stop(), limit, "stopping the table worker")
        await bounded(bus.close(), limit, "closing the bus")
        db.shutdown()
        if collecting is not None:
            collecting.cancel()
        if store is None:
            st.close()
