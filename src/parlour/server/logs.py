"""The server's logs: structured lines, with what each line is about, and failures said once.

**Why structlog over a hand-written JSON formatter.** Every module logs through the standard
library (`logging.getLogger("parlour.server")`), as uvicorn and SQLAlchemy do; structlog's
`ProcessorFormatter` renders all of their records alike — a JSON object a line for a log
collector (`log_format=json`), or coloured, aligned text for a person at a terminal (`text`) —
with its tracebacks, timestamps and context handled by a maintained library, and the ~60 log
calls of the server unchanged.

**Context.** A line carries what it is about, from `contextvars` (so each asyncio task has its
own): `table` and `seat` (a websocket's session, a request at a table's owner, a table's bots and
clocks), `request_id` (an HTTP request's, which is also sent back as `X-Request-ID`; a bus
request's id at the worker answering it, the same on every try), and for the process `role`,
`worker` (the table worker's id) and `gateway`.

**Failures said once.** A loop that fails every second while the database is down (heartbeats,
adopting, replicas' checks, quick match, review jobs) logs its first failure with the
traceback, then a line a minute with the count, and a line when it works again (`Failures`):
one traceback an outage, not one a query.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sys
import time
from collections.abc import Awaitable, Coroutine
from typing import IO, Any, TypeVar

import structlog
from structlog.contextvars import (
    bind_contextvars,
    bound_contextvars,
    merge_contextvars,
    unbind_contextvars,
)

__all__ = [
    "REPEAT_EVERY",
    "Failures",
    "bind_contextvars",
    "bound_contextvars",
    "configure_logging",
    "process_fields",
    "set_process",
    "table_task",
]

T = TypeVar("T")

REPEAT_EVERY = 60.0  # seconds between the lines that say a failing loop still fails

_process: dict[str, str] = {}


def set_process(**fields: str | None) -> None:
    """Fields every line of this process carries (`role`, `worker`, `gateway`)."""
    for key, value in fields.items():
        if value is None:
            _process.pop(key, None)
        else:
            _process[key] = value


def process_fields() -> dict[str, str]:
    return dict(_process)


def _add_process(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    for key, value in _process.items():
        event.setdefault(key, value)
    return event


def _drop_color_message(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    event.pop("color_message", None)  # uvicorn's copy of its message with terminal colours
    return event


def configure_logging(
    level: str = "info", fmt: str = "auto", role: str = "all", stream: IO[str] | None = None
) -> str:
    """Send every logger's records (parlour's, uvicorn's, SQLAlchemy's) to `stream` (stderr) as
    JSON lines or as text; returns the format chosen (`auto`: text at a terminal, JSON
    otherwise)."""
    stream = sys.stderr if stream is None else stream
    if fmt == "auto":
        fmt = "text" if stream.isatty() else "json"
    if fmt not in ("json", "text"):
        raise ValueError(f"log_format is auto, json or text, not {fmt!r}")
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"log_level is debug, info, warning or error, not {level!r}")
    set_process(role=role)
    shared: list[Any] = [
        merge_contextvars,
        _add_process,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _drop_color_message,
    ]
    renderer: Any
    if fmt == "json":
        tail: list[Any] = [structlog.processors.format_exc_info]
        renderer = structlog.processors.JSONRenderer()
    else:
        tail = []
        renderer = structlog.dev.ConsoleRenderer(colors=stream.isatty())
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *tail, renderer],
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(numeric)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    return fmt


def table_task(code: str, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """A task about one table: its lines carry the table's code (and no request's id: a bot's
    move is no request's, though a request may have woken it)."""
    ctx = contextvars.copy_context()
    ctx.run(unbind_contextvars, "request_id", "seat")
    ctx.run(bind_contextvars, table=code)
    return asyncio.get_running_loop().create_task(coro, context=ctx)


class Failures:
    """The failures of one repeating job (a loop's round), said once a spell: the first with its
    traceback, then a line every `REPEAT_EVERY` seconds with the count, and a line when it
    works again."""

    def __init__(self, log: logging.Logger, what: str) -> None:
        self.log, self.what = log, what
        self.count = 0
        self.since: float | None = None
        self._said = 0.0

    def failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        self.count += 1
        if self.since is None:
            self.since = self._said = now
            self.log.error("%s failed", self.what, exc_info=exc)
            return
        if now - self._said >= REPEAT_EVERY:
            self._said = now
            self.log.error(
                "%s still failing: %d times in %.0f s, the last: %s",
                self.what,
                self.count,
                now - self.since,
                _first_line(exc),
            )

    def ok(self) -> None:
        if self.since is not None:
            self.log.warning(
                "%s works again after %d failures in %.1f s",
                self.what,
                self.count,
                time.monotonic() - self.since,
            )
        self.since = None
        self.count = 0

    async def run(self, job: Awaitable[T]) -> T | None:
        """Await one round; a failure is counted and said as above (None)."""
        try:
            out = await job
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.failed(exc)
            return None
        self.ok()
        return out


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__
