"""Whether a server process is alive and ready, for a balancer, systemd or Kubernetes, and its
metrics: `/livez`, `/readyz` and `/metrics` on every process (a table worker serves these three
on its own `--port`, and nothing else).

* `/livez`: 200 whenever the process's event loop answers — a loop blocked or dead answers
  nothing, and the prober's timeout says so. Restart a process that fails it.
* `/readyz`: 200 when the process can do its work now, else 503 with the reason of each check
  that failed: the **database** answers a query, the **bus** carries a message to this process
  and back (Redis, for a gateway or worker of a cluster), and a **worker**'s heartbeat is fresh
  (stored less than `DEAD_AFTER` ago: its peers would adopt its tables after that) and it is not
  draining. Send no traffic to a process that fails it. Each check has `CHECK_TIMEOUT`; the
  answer is kept for `FRESH` seconds, so that probes in a hurry cost one check.
* `/metrics`: Prometheus's text (server/metrics.py).

The process also measures, in the background, how late its event loop wakes (every half second)
and the bus's round trip (every `PROBE_EVERY`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from . import metrics
from .bus import BusDown
from .storage.engine import reason

if TYPE_CHECKING:
    from .bus import Bus
    from .database import Database
    from .worker import TableWorker

__all__ = ["CHECK_TIMEOUT", "Health", "router"]

CHECK_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed
FRESH = 1.0  # seconds a readiness answer is kept
PROBE_EVERY = 5.0  # seconds between the bus's measured round trips
LAG_EVERY = 0.5  # seconds between looks at the event loop's lateness

router = APIRouter(tags=["operations"])


class Health:
    """The readiness checks of one process's parts, and its background measurements."""

    def __init__(self, db: Database, bus: Bus, worker: TableWorker | None, dead_after: float):
        self.db, self.bus, self.worker = db, bus, worker
        self.dead_after = dead_after
        self._answer: tuple[float, dict[str, str]] | None = None
        self._checking: asyncio.Task[dict[str, str]] | None = None
        self._loops: list[asyncio.Task[None]] = []
        self.stopping = False
        self.fresh = FRESH  # seconds an answer is kept (a test sets 0: each probe checks)

    def start(self) -> None:
        self._loops = [
            asyncio.ensure_future(self._measure_lag()),
            asyncio.ensure_future(self._probe_bus()),
        ]

    async def stop(self) -> None:
        self.stopping = True
        for task in self._loops:
            task.cancel()
        for task in self._loops:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _measure_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_EVERY)
            metrics.LOOP_LAG.set(max(0.0, loop.time() - asked - LAG_EVERY))

    async def _probe_bus(self) -> None:
        while True:
            with contextlib.suppress(BusDown):  # said by /readyz and by the bus's own log
                metrics.BUS_ROUND_TRIP.observe(await self.bus.round_trip(CHECK_TIMEOUT))
            await asyncio.sleep(PROBE_EVERY)

    async def checks(self) -> dict[str, str]:
        """Each check's outcome: "ok", or why not."""
        now = time.monotonic()
        if self._answer is not None and now - self._answer[0] < self.fresh:
            return self._answer[1]
        if self._checking is None or self._checking.done():
            self._checking = asyncio.ensure_future(self._check())
        out = await asyncio.shield(self._checking)
        self._answer = (time.monotonic(), out)
        return out

    async def _check(self) -> dict[str, str]:
        database, bus = await asyncio.gather(self._database(), self._bus())
        out = {"database": database, "bus": bus}
        if self.worker is not None:
            out["worker"] = self._worker()
        if self.stopping:
            out["process"] = "shutting down"
        return out

    async def _database(self) -> str:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):
                await self.db.call(self.db.store.ping)
        except TimeoutError:
            return f"no answer in {CHECK_TIMEOUT:g} s"
        except SQLAlchemyError as exc:  # the database's own words, without a traceback
            return f"failing: {reason(exc)}"
        except Exception as exc:
            return f"failing: {type(exc).__name__}: {exc}"
        return "ok"

    async def _bus(self) -> str:
        try:
            took = await self.bus.round_trip(CHECK_TIMEOUT)
        except BusDown as exc:
            return f"down: {exc}"
        metrics.BUS_ROUND_TRIP.observe(took)
        return "ok"

    def _worker(self) -> str:
        w = self.worker
        assert w is not None
        if w.draining:
            return "draining: handing its tables on"
        beat = w.last_beat
        if beat is None:
            return "no heartbeat stored yet"
        age = time.monotonic() - beat
        if age >= self.dead_after:
            return f"heartbeat {age:.1f} s old: its peers may adopt its tables"
        return "ok"


def _health(request: Request) -> Health | None:
    return getattr(request.app.state, "health", None)


@router.get("/livez", include_in_schema=False)
async def livez() -> dict[str, str]:
    """The event loop answers (this very answer is the check)."""
    return {"status": "alive"}


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> Any:
    health = _health(request)
    if health is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    checks = await health.checks()
    failed = {k: v for k, v in checks.items() if v != "ok"}
    if failed:
        why = "; ".join(f"{k}: {v}" for k, v in failed.items())
        return JSONResponse(
            {"status": "not ready", "reason": why, "checks": checks}, status_code=503
        )
    return {"status": "ready", "checks": checks}


@router.get("/metrics", include_in_schema=False)
async def prometheus() -> Response:
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE_LATEST)
