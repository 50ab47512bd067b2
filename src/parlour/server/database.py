"""The database as the asyncio parts of the server use it: one thread that talks to the store, and
moves committed in groups.

SQLite wants one writer, and one ordered thread keeps every table's writes in order on any
database. Moves are the hot path: `write_move` returns once a move is committed, and the moves of
many tables that arrive while a commit is under way are committed together in the next one (group
commit) — under load one transaction carries a whole batch; at rest a move waits for nobody.

At a person's pace the moves of many tables rarely meet a commit under way: each was stored alone,
with its own hand-over to the database thread and its own commit, and that cost a move about 360
µs of CPU more than the same moves stored in groups (`benchmarks/server_move_cost.py`: 671 against
308 µs for the server's parts). So, as PostgreSQL's `commit_delay` and `commit_siblings` do, a
move that finds the moves of other tables coming in (`siblings` tables in the last `span`
seconds) waits `window` seconds for them before its commit (`Settings.commit_window`, 5 ms): a
few milliseconds on a move a person waits for anyway, and one commit for several. A table played
alone (a bots' game in a test, a quiet server) never waits.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from . import metrics
from .storage import Fence, MoveRow, Store

__all__ = ["Database"]

T = TypeVar("T")


class Database:
    def __init__(
        self, store: Store, window: float = 0.0, siblings: int = 4, span: float = 0.1
    ) -> None:
        self.store = store
        self.window = window  # seconds a move waits for other tables' moves (0: never)
        # a move waits when the moves of `siblings` tables (its own included) came in over the
        # last `span` seconds
        self.siblings, self.span = siblings, span
        self._lately: deque[tuple[float, str]] = deque()  # (when, table) of the recent moves
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parlour-db")
        self._moves: list[tuple[MoveRow, asyncio.Future[Fence]]] = []
        self._writing = False
        self._tasks: set[asyncio.Task[Any]] = set()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args))

    async def write_move(self, row: MoveRow) -> Fence:
        """Store a move behind its table's fence; returns the table's next fence once it is
        committed (or raises what storing raised: `Fenced`, a database error)."""
        future: asyncio.Future[Fence] = asyncio.get_running_loop().create_future()
        self._moves.append((row, future))
        if self.window > 0:
            self._note(row.fence.code)
        if not self._writing:
            self._writing = True
            task = asyncio.ensure_future(self._write_moves(self._busy()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await future

    def _note(self, table: str) -> None:
        now = time.monotonic()
        lately = self._lately
        lately.append((now, table))
        while now - lately[0][0] > self.span:
            lately.popleft()

    def _busy(self) -> bool:
        """Whether the moves of at least `siblings` tables (the one now in included) came in
        over the last `span` seconds: then a commit is worth waiting `window` for."""
        if self.window <= 0 or len(self._lately) < self.siblings:
            return False
        return len({code for _, code in self._lately}) >= self.siblings

    async def _write_moves(self, wait: bool) -> None:
        try:
            if wait:  # others' moves are on their way: one commit for them all
                await asyncio.sleep(self.window)
            while self._moves:
                batch, self._moves = self._moves, []
                started = time.perf_counter()
                try:
                    fences = await self.call(self.store.tables.add_moves, [r for r, _ in batch])
                    metrics.DB_COMMIT.observe(time.perf_counter() - started)
                    metrics.DB_COMMIT_MOVES.observe(len(batch))
                except Exception as exc:
                    if len(batch) == 1:
                        _settle(batch[0][1], error=exc)
                        continue
                    for row, fut in batch:  # one refused row must not fail the others
                        try:
                            (fence,) = await self.call(self.store.tables.add_moves, [row])
                        except Exception as one:
                            _settle(fut, error=one)
                        else:
                            _settle(fut, fence)
                    continue
                for (_, fut), fence in zip(batch, fences, strict=True):
                    _settle(fut, fence)
        finally:
            self._writing = False

    def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self._executor.shutdown(wait=True)


def _settle(
    future: asyncio.Future[Fence], fence: Fence | None = None, error: Exception | None = None
) -> None:
    """Answer one waiter of a batch. A waiter that gave up meanwhile (its task cancelled: a bot's
    turn when its table closed) is passed over: answering it would raise, and leave the other
    waiters of its batch unanswered for good."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        assert fence is not None
        future.set_result(fence)
