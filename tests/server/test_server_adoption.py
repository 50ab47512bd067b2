"""A dead worker's tables are taken over as soon as it counts as dead: the live workers' adopting
rounds are timed by their peers' last heartbeats (not a fixed second apart), and a request
waiting on the dead owner is sent to the new one as soon as that one says it loaded the table
(its `owner` message), not at the next look at the database. One process, one bus, one
database: the workers and the gateway as a cluster runs them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from server_testkit import whot_table_row
from sqlalchemy import update

from parlour.server import Settings
from parlour.server import gateway as gateway_module
from parlour.server.bus import LocalBus
from parlour.server.database import Database
from parlour.server.gateway import Gateway
from parlour.server.messages import ChatLines, ChatLinesAnswer
from parlour.server.schema import workers
from parlour.server.storage import Store
from parlour.server.worker import ADOPT_MARGIN, DEAD_AFTER, TableWorker

SECRET = b"a fixed secret"
WAIT = 60.0  # a test that waits longer than this for something has failed (it hangs)


def heard_from(store: Store, worker: str, at: float) -> None:
    """Set a worker's last heartbeat, as if it had said it was alive at `at`."""
    with store.engine.begin() as conn:
        conn.execute(update(workers).where(workers.c.id == worker).values(heartbeat_at=at))


def test_the_adopting_round_comes_when_a_silent_peer_counts_as_dead(tmp_path: Path) -> None:
    """A peer last heard from a little less than DEAD_AFTER ago is alive: its table stays its
    own. The round says when to look again; a round then finds the peer dead and takes its
    table."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'adopt.sqlite3'}")
        db, bus = Database(store), LocalBus()
        worker = TableWorker(db, bus, Settings(bot_delay=10.0), SECRET, "heir")
        try:
            await db.call(store.owners.register_worker, "heir")
            await db.call(store.owners.register_worker, "silent")
            await db.call(store.tables.create_table, whot_table_row("SILENT"), "silent")
            heard_from(store, "silent", time.time() - (DEAD_AFTER - 1.5))
            wait = await worker.adopt_round()
            assert "SILENT" not in worker.tables  # its owner is alive yet
            owner = await db.call(store.owners.owner_of, "SILENT")
            assert owner is not None and owner[0] == "silent"
            # the next round is due when the peer's heartbeat is DEAD_AFTER old: in the 1.5 s
            # left (less what this took), not a whole HEARTBEAT after it
            assert wait <= 1.5 + ADOPT_MARGIN
            await asyncio.sleep(max(0.0, wait))
            await worker.adopt_round()
            assert "SILENT" in worker.tables  # dead now, and its table is the heir's
            owner = await db.call(store.owners.owner_of, "SILENT")
            assert owner is not None and owner[0] == "heir" and owner[1] == 2  # a new epoch
        finally:
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())


def test_a_dead_workers_tables_are_all_taken_in_one_round(tmp_path: Path) -> None:
    """Every table of the dead (this worker's share: here all of them) in the round that finds
    it dead, each loaded with its game where it was."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'adopt.sqlite3'}")
        db, bus = Database(store), LocalBus()
        worker = TableWorker(db, bus, Settings(bot_delay=10.0), SECRET, "heir")
        codes = [f"DEAD{n}" for n in range(8)]
        try:
            await db.call(store.owners.register_worker, "heir")
            for code in codes:
                await db.call(
                    store.tables.create_table, whot_table_row(code), "gone"
                )  # never registered
            await worker.adopt_round()
            assert sorted(worker.tables) == codes
            assert all(worker.tables[code].table.live for code in codes)
            for code in codes:
                owner = await db.call(store.owners.owner_of, code)
                assert owner is not None and owner[0] == "heir"
        finally:
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())


def test_a_request_waiting_on_a_dead_owner_goes_to_the_new_one_when_it_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gateway would look at the database only after OWNER_CHECK (made an hour here): the
    new owner's `owner` message on the table's channel is what sends the request on."""
    monkeypatch.setattr(gateway_module, "OWNER_CHECK", 3600.0)

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'adopt.sqlite3'}")
        db, bus = Database(store), LocalBus()
        settings = Settings(bot_delay=10.0)
        gateway = Gateway(db, bus, settings, SECRET, "gw")
        heir = TableWorker(db, bus, settings, SECRET, "heir")
        await gateway.start()
        try:
            await db.call(store.tables.create_table, whot_table_row("ORPHAN"), "gone")
            await gateway.replica("ORPHAN")  # watched here: the gateway hears its channel
            asked = asyncio.ensure_future(gateway.ask("ORPHAN", ChatLines(), wait=3600.0))
            await asyncio.sleep(0.1)  # sent to the dead owner; nobody answers
            assert not asked.done()
            await heir.start()  # adopts the table and says so
            async with asyncio.timeout(WAIT):
                assert await asked == ChatLinesAnswer([])  # answered by the heir
        finally:
            await heir.stop()
            await gateway.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())
