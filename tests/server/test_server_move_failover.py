"""A move is played once even when its table's owner dies after storing it and before answering:
the gateway asks the next owner again, and a move always goes with the ply it was chosen at — the
client's, or the gateway's replica's when the client sent none — so the next owner finds that ply
gone and answers `stale` rather than playing it a second time. Two table workers and a gateway on
one bus and one database, as a cluster runs them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from server_testkit import until

from parlour.bots import BotLimits
from parlour.core import Move, State
from parlour.server import Settings
from parlour.server.bus import Handler, LocalBus
from parlour.server.database import Database
from parlour.server.gateway import Gateway
from parlour.server.messages import BusMessage, Moved
from parlour.server.storage import Store
from parlour.server.storage.owners import OwnersRepo
from parlour.server.tables import Table, TableError, game_seeder, plan_table
from parlour.server.worker import DEAD_AFTER, TableWorker

SECRET = b"a fixed secret: the same deals on every run"
WAIT = 60.0


class CutOff:
    """A worker's side of the bus, whose answers to gateways can be cut off (its table updates
    still go out, without the id of the request a move answers): a worker that stores a move and
    dies before its answer leaves."""

    def __init__(self, bus: LocalBus) -> None:
        self.bus = bus
        self.answers = True

    async def publish(self, channel: str, message: BusMessage) -> None:
        if self.answers:
            await self.bus.publish(channel, message)
        elif isinstance(message, Moved):  # told, but not as the answer to its request
            await self.bus.publish(channel, replace(message, asked=None))
        elif not channel.startswith("gateway:"):
            await self.bus.publish(channel, message)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        await self.bus.subscribe(channel, handler)

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        await self.bus.unsubscribe(channel, handler)

    async def close(self) -> None:
        pass

    async def round_trip(self, timeout: float) -> float:
        return await self.bus.round_trip(timeout)


def plays_again(state: State) -> Move | None:
    """A legal move after which the same player is to play and may play the same move again (a
    Sorry! 2 that brings a pawn out, and another 2 drawn): the move a new owner, asked again,
    could play twice."""
    player = state.to_play
    for move in state.legal_moves():
        after = state.copy()
        after.apply(move)
        if not after.is_over and after.to_play == player and move in after.legal_moves():
            return move
    return None


def first_moves_reach_a_double(state: State) -> bool:
    while not state.is_over:
        if plays_again(state) is not None:
            return True
        state.apply(state.legal_moves()[0])
    return False


def sorry_table(code: str) -> Any:
    row, _, _ = plan_table(
        code, "sorry", players=2, match="single", host_name="Ada",
        bot_delay=0.0, bot_limits=BotLimits(), idle_timeout=0.0,
    )  # fmt: skip
    return row


def a_code_with_a_double() -> str:
    """The first table code whose game, played by first legal moves, reaches such a move (the
    deals follow from the fixed secret and the code)."""
    for n in range(200):
        code = f"TWICE{n}"
        table = Table(sorry_table(code), game_seeder(SECRET, code))
        if first_moves_reach_a_double(table.deal_next()):
            return code
    raise AssertionError("no deal of 200 reaches a move that may be played twice")


def test_a_move_without_its_ply_is_played_once_when_its_owner_dies_before_answering(
    tmp_path: Path,
) -> None:
    code = a_code_with_a_double()

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'failover.sqlite3'}")
        db, bus = Database(store), LocalBus()
        settings = Settings(bot_delay=0.0, idle_timeout=0.0)
        doomed_bus = CutOff(bus)
        doomed = TableWorker(db, doomed_bus, settings, SECRET, "doomed")
        heir = TableWorker(db, bus, settings, SECRET, "heir")
        gateway = Gateway(db, bus, settings, SECRET, "gw")
        for part in (doomed, heir, gateway):
            await part.start()
        try:
            await db.call(store.tables.create_table, sorry_table(code), doomed.id)
            await doomed.adopt(code)
            await gateway.join(code, "Bob", None, None)
            rep = await gateway.replica(code)
            await until(lambda: rep.table.live, WAIT)
            # the people play first legal moves, each sent without a ply, up to the move that
            # may be played twice
            while True:
                state, ply, seat = rep.table.state, rep.table.ply, rep.table.seat_to_play()
                assert state is not None and seat is not None
                double = plays_again(state)
                if double is not None:
                    break
                await gateway.move(rep, seat, str(state.legal_moves()[0]), None)
                await until(lambda: rep.table.ply > ply, WAIT)  # noqa: B023 (awaited in this turn)
            before = await db.call(store.tables.game_moves, rep.table.game_id)
            doomed_bus.answers = False
            sent = asyncio.ensure_future(gateway.move(rep, seat, str(double), None))
            await until(lambda: rep.table.ply > ply, WAIT)  # stored, told, never answered
            await doomed.stop()  # and dead: its heartbeat stops, the heir adopts the table
            with pytest.raises(TableError) as answer:
                await sent
            assert answer.value.code == "stale"  # the move was played: the view shows it
            after = await db.call(store.tables.game_moves, rep.table.game_id)
            assert after == [*before, str(double)]  # once
            owner = await db.call(store.owners.owner_of, code)
            assert owner is not None and owner[0] == heir.id
        finally:
            for part in (gateway, heir):
                await part.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())


class SlowToLoad(Database):
    """The heir's database, where reading a table takes `LOAD` seconds: a table it adopts takes
    that long to load, as a long match's may on a busy machine."""

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if getattr(fn, "__name__", "") == "load_table":
            await asyncio.sleep(LOAD)
        return await super().call(fn, *args)


LOAD = 7.0  # longer than DEAD_AFTER, and than the 5 s a worker once waited for a table loading


def test_a_move_sent_while_its_table_is_adopted_waits_for_the_load_and_holds_up_no_other(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'adopted.sqlite3'}")
        db, bus = Database(store), LocalBus()
        settings = Settings(bot_delay=0.0, idle_timeout=0.0)
        doomed = TableWorker(db, bus, settings, SECRET, "doomed")
        heir_db = SlowToLoad(store)
        heir = TableWorker(heir_db, bus, settings, SECRET, "heir")
        gateway = Gateway(db, bus, settings, SECRET, "gw")
        for part in (doomed, heir, gateway):
            await part.start()

        async def table(code: str, owner: TableWorker) -> tuple[Any, int, str]:
            """A table of two people, its replica here, whose turn it is and a legal move."""
            await db.call(store.tables.create_table, sorry_table(code), owner.id)
            await owner.adopt(code)
            await gateway.join(code, "Bob", None, None)
            rep = await gateway.replica(code)
            await until(lambda: rep.table.live, WAIT)
            state, seat = rep.table.state, rep.table.seat_to_play()
            assert state is not None and seat is not None
            return rep, seat, str(state.legal_moves()[0])

        async def owner_of(code: str) -> str | None:
            owner = await db.call(store.owners.owner_of, code)
            return None if owner is None else owner[0]

        try:
            adopted, seat, move = await table("ADOPTD", doomed)
            other, other_seat, other_move = await table("OTHER", heir)
            await doomed.stop()  # dies; the heir adopts its table 3 s on, and loads it slowly
            async with asyncio.timeout(WAIT):
                while await owner_of("ADOPTD") != heir.id:
                    await asyncio.sleep(0.05)
            assert "ADOPTD" in heir._loading
            loading_since = time.monotonic()
            sent = asyncio.ensure_future(gateway.move(adopted, seat, move, adopted.table.ply))
            await until(lambda: len(heir._answering) == 1, WAIT)  # the heir has it: waiting
            # meanwhile a move at the heir's other table is answered, the load still under way
            await gateway.move(other, other_seat, other_move, other.table.ply)
            assert "ADOPTD" in heir._loading
            # and the heir, busy loading, still beats: its peers must not take it for dead
            async with asyncio.timeout(WAIT):
                while time.monotonic() < loading_since + DEAD_AFTER + 1:
                    await asyncio.sleep(0.1)
            assert "ADOPTD" in heir._loading
            live = await db.call(store.owners.live_workers, time.time() - DEAD_AFTER)
            assert heir.id in [w["id"] for w in live]
            await sent  # answered once the table is loaded
            assert await db.call(store.tables.game_moves, adopted.table.game_id) == [move]
            assert "ADOPTD" in heir.tables
        finally:
            for part in (gateway, heir):
                await part.stop()
            await bus.close()
            heir_db.shutdown()
            db.shutdown()
            store.close()

    asyncio.run(main())


def test_a_move_goes_to_the_owner_its_replica_knows_without_reading_the_database(
    tmp_path: Path,
) -> None:
    """The hot path: a move costs its gateway no database round trip to find the table's owner
    (the replica knows it from the row it read and the owner's `owner` message); only a move that
    finds no answer there reads it — after a death, as the tests above show."""

    class Counting(OwnersRepo):
        reads = 0

        def owner_of(self, code: str) -> tuple[str | None, int, int, str] | None:
            self.reads += 1
            return super().owner_of(code)

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'hot.sqlite3'}")
        counting = store.owners = Counting(store.engine)
        db, bus = Database(store), LocalBus()
        settings = Settings(bot_delay=0.0, idle_timeout=0.0)
        worker = TableWorker(db, bus, settings, SECRET, "worker")
        gateway = Gateway(db, bus, settings, SECRET, "gw")
        for part in (worker, gateway):
            await part.start()
        try:
            await db.call(store.tables.create_table, sorry_table("HOTPATH"), worker.id)
            await worker.adopt("HOTPATH")
            await gateway.join("HOTPATH", "Bob", None, None)
            rep = await gateway.replica("HOTPATH")
            await until(lambda: rep.table.live, WAIT)
            before = counting.reads
            for _ in range(10):
                state, ply, seat = rep.table.state, rep.table.ply, rep.table.seat_to_play()
                assert state is not None and seat is not None
                await gateway.move(rep, seat, str(state.legal_moves()[0]), ply)
                await until(lambda: rep.table.ply > ply, WAIT)  # noqa: B023 (awaited in this turn)
            assert counting.reads == before
            assert len(await db.call(store.tables.game_moves, rep.table.game_id)) == 10
        finally:
            for part in (gateway, worker):
                await part.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())
