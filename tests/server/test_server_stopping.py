"""A process asked to stop stops: each step of stopping (connections closing, the tables handed
on, the bus closed) has `stop_timeout` seconds, and one that would wait for ever is given up with
the log saying where every task waited (server/stacks.py, `bounded`). One process, one database."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from server_testkit import until, whot_table_row

from parlour.server import Settings
from parlour.server.app import serving
from parlour.server.stacks import bounded
from parlour.server.storage import Store

pytestmark = pytest.mark.in_process("stops a server's parts inside the test process")

WAIT = 60.0  # a test that waits longer than this has failed: stopping hung


def test_a_bounded_step_that_ends_in_time_gives_its_result() -> None:
    async def quick() -> int:
        await asyncio.sleep(0)
        return 7

    assert asyncio.run(bounded(quick(), 5.0, "a quick step")) == 7


def test_a_bounded_step_past_its_time_is_cancelled_and_its_wait_is_told(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cancelled = []

    async def waits_on_a_future_nobody_answers() -> None:
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    async def main() -> object:
        async with asyncio.timeout(WAIT):
            return await bounded(waits_on_a_future_nobody_answers(), 0.2, "a step that hangs")

    with caplog.at_level(logging.ERROR, logger="parlour.server"):
        assert asyncio.run(main()) is None
    assert cancelled == [True]
    said = caplog.text
    assert "a step that hangs took more than 0.2 s and is given up" in said
    assert "in test_a_bounded_step_past_its_time_is_cancelled" in said  # its chain of awaits
    assert "waits_on_a_future_nobody_answers" in said
    assert "    waits on <" in said  # what it waited on, at the chain's end


def test_a_drain_held_up_by_a_table_for_ever_is_given_up_and_the_worker_leaves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker drains on its way out, one table's lock after another: a table whose lock is
    never let go would hold the process for ever. After `stop_timeout` the hand-over is given
    up, the log names the task that holds the lock, and the worker takes itself off the list of
    live workers, so that the others adopt its tables at their next round instead of waiting for
    its heartbeat to grow old; the process stops."""
    store = Store(f"sqlite:///{tmp_path / 'stop.sqlite3'}")
    settings = Settings(database=store.url, stop_timeout=0.5, bot_delay=10.0)

    async def hold_for_ever(lock: asyncio.Lock, holding: asyncio.Event) -> None:
        async with lock:
            holding.set()
            await asyncio.Event().wait()

    async def main() -> str:
        async with asyncio.timeout(WAIT):
            async with serving(settings, store) as parts:
                worker = parts.worker
                assert worker is not None
                await parts.db.call(store.tables.create_table, whot_table_row("STUCK"), worker.id)
                await until(lambda: "STUCK" in worker.tables, WAIT)  # its adopting round loads it
                holding = asyncio.Event()
                holder = asyncio.create_task(
                    hold_for_ever(worker.tables["STUCK"].lock, holding), name="holder"
                )
                await holding.wait()
            holder.cancel()
            return worker.id

    try:
        with caplog.at_level(logging.INFO, logger="parlour.server"):
            gone = asyncio.run(main())
        said = caplog.text
        assert "handing the tables on took more than 0.5 s and is given up" in said
        assert "task holder:" in said and "<locals>.hold_for_ever" in said  # who held it up
        assert "in TableWorker.drain" in said and "in Lock.acquire" in said  # what waited
        assert "tables handed on" not in said  # no hand-over was told as done
        living = [w["id"] for w in store.owners.live_workers(0.0)]
        assert gone not in living
        owner = store.owners.owner_of("STUCK")
        assert owner is not None and owner[0] == gone  # still its fence: an orphan to adopt
        assert store.owners.orphans([], 10) == [("STUCK", gone, owner[1])]
    finally:
        store.close()
