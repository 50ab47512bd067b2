"""A worker loads each of its tables once: the `adopt` message for a new table and the heartbeat's
round (which looks for tables assigned to the worker) can find the same table at the same moment,
and a second copy of it would fence the first out of its own table — a move would then be
refused as 'moved' until the next round loaded it again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from parlour.bots import BotLimits
from parlour.server import Settings
from parlour.server.bus import Handler, LocalBus
from parlour.server.database import Database
from parlour.server.messages import ChatLines, ChatLinesAnswer, Ready, ReadyAnswer, Reply, Request
from parlour.server.storage import Store
from parlour.server.tables import plan_table
from parlour.server.worker import TableWorker


def test_a_table_found_by_adopt_and_by_the_round_at_once_is_loaded_once(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'worker.sqlite3'}")
        db, bus = Database(store), LocalBus()
        worker = TableWorker(db, bus, Settings(bot_delay=10.0), await db.call(store.secret, "s"))
        await worker.start()
        try:
            row, _, _ = plan_table(
                "LOADED", "whot", players=2, host_name="Ada", bots={1: "random"},
                bot_delay=10.0, bot_limits=BotLimits(),
            )  # fmt: skip
            await db.call(store.tables.create_table, row, worker.id)
            # the heartbeat's round and the gateway's adopt message, together
            await asyncio.gather(worker.adopt_round(), worker.adopt("LOADED"))
            owned = worker.tables["LOADED"]
            assert not owned.gone and owned.table.live  # its first game is dealt, by this copy
            # and the worker answers for it (a table it had let go of would be 'moved')
            answer = await worker._answer(Request("r1", "LOADED", "gw", ChatLines()))
            assert answer == Reply("r1", ChatLinesAnswer([]))
            assert worker.tables["LOADED"] is owned
        finally:
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())


def test_a_request_that_overtakes_the_adopt_is_answered_by_the_table_the_store_gives_it(
    tmp_path: Path,
) -> None:
    """The gateway asks as soon as the table's row is stored; the `adopt` message may come later.
    The worker answers for a table the store says is its own, and says `moved` for one that is
    not (the gateway then asks the owner)."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'worker.sqlite3'}")
        db, bus = Database(store), LocalBus()
        worker = TableWorker(db, bus, Settings(bot_delay=10.0), await db.call(store.secret, "s"))
        await worker.start()
        try:
            for code, owner in (("OURS", worker.id), ("THEIRS", "another-worker")):
                row, _, _ = plan_table(
                    code, "whot", players=2, host_name="Ada", bots={1: "random"},
                    bot_delay=10.0, bot_limits=BotLimits(),
                )  # fmt: skip
                await db.call(store.tables.create_table, row, owner)
            assert "OURS" not in worker.tables  # no adopt, no round yet
            answer = await worker._answer(Request("r1", "OURS", "gw", ChatLines()))
            assert answer == Reply("r1", ChatLinesAnswer([]))
            assert "OURS" in worker.tables
            refused = await worker._answer(Request("r2", "THEIRS", "gw", ChatLines()))
            assert refused.refusal is not None and refused.refusal.code == "moved", refused
            assert "THEIRS" not in worker.tables
        finally:
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())


def test_a_request_during_the_load_is_answered_once_the_first_game_is_dealt(
    tmp_path: Path,
) -> None:
    """A rematch's link is sent once its owner says the table is `ready`: a request that comes
    while the table is being loaded waits for the load (the first game dealt), so that nobody
    following the link finds a table still waiting for players who are all seated."""

    class SlowBus(LocalBus):
        """A bus whose subscriptions take a while, as Redis's round trips do under load: the
        table is in the worker's hands before its first game is dealt."""

        async def subscribe(self, channel: str, handler: Handler) -> None:
            if channel.startswith("table:"):
                await asyncio.sleep(0.3)
            await super().subscribe(channel, handler)

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'worker.sqlite3'}")
        db, bus = Database(store), SlowBus()
        worker = TableWorker(db, bus, Settings(bot_delay=10.0), await db.call(store.secret, "s"))
        await worker.start()
        try:
            row, _, _ = plan_table(
                "READY", "whot", players=2, host_name="Ada", bots={1: "random"},
                bot_delay=10.0, bot_limits=BotLimits(),
            )  # fmt: skip
            await db.call(store.tables.create_table, row, worker.id)
            _, answer = await asyncio.gather(
                worker.adopt("READY"), worker._answer(Request("r1", "READY", "gw", Ready()))
            )
            assert answer == Reply("r1", ReadyAnswer("playing"))
            stored = await db.call(store.tables.load_table, "READY")
            assert stored is not None and stored.status == "playing"
        finally:
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())
