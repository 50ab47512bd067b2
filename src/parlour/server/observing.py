"""Every HTTP request seen: its id, in its log lines and its answer's `X-Request-ID`, and its
time, by its route's template (`parlour_http_request_seconds`: never by the path itself, which
a client could fill with made-up codes).

A request may bring its own id (a proxy's `X-Request-ID`: letters, digits, `.`, `_`, `-`, up to
64), so that the proxy's log and the server's meet; otherwise it gets a new one.
"""

from __future__ import annotations

import re
import secrets
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from structlog.contextvars import bound_contextvars

from . import metrics

__all__ = ["RequestContext", "request_id", "route_of"]

HEADER = b"x-request-id"
_GOOD = re.compile(rb"[A-Za-z0-9._-]{1,64}")


def request_id(scope: Scope) -> str:
    """The id a request brought, if it is a sane one, else a new one."""
    for name, value in scope.get("headers") or ():
        if name == HEADER and _GOOD.fullmatch(value):
            return str(value.decode("ascii"))
    return secrets.token_hex(8)


class RequestContext:
    """Binds each HTTP request's id for its log lines, and sends it back in `X-Request-ID`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = request_id(scope)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (HEADER, rid.encode("ascii"))]
            await send(message)

        started = time.perf_counter()
        try:
            with bound_contextvars(request_id=rid):
                await self.app(scope, receive, send_with_id)
        finally:
            metrics.HTTP_SECONDS.labels(route_of(scope), scope.get("method", "")).observe(
                time.perf_counter() - started
            )


def route_of(scope: Scope) -> str:
    """The template of the route that answered (`/api/tables/{code}`), or what kind of answer."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    if str(scope.get("path", "")).startswith(("/static/", "/games/", "/docs/")):
        return "static"
    return "unrouted"
