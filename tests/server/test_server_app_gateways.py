"""Chat and rematches reach people on every gateway: one table worker and three gateways on one
bus and one database, as a cluster runs them. A line said through one gateway is heard on the
others; a gateway new to the table gets the lines said before from the table's owner; a rematch
opened through one gateway is told on the others, and the database tells a gateway whose bus
message was lost."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from server_testkit import until

from parlour.server import Settings
from parlour.server.bus import LocalBus
from parlour.server.connections import Conn
from parlour.server.database import Database
from parlour.server.gateway import Gateway
from parlour.server.messages import Play
from parlour.server.storage import Store
from parlour.server.tables import TableError
from parlour.server.worker import TableWorker, table_channel

WAIT = 30.0  # seconds before a test gives up waiting for something that should come


async def next_of(conn: Conn, kind: str) -> dict[str, Any]:
    """The next message of a kind that a connection was sent (the others are passed over)."""
    async with asyncio.timeout(WAIT):
        while True:
            text = await conn.queue.get()
            assert text is not None, "the connection was closed"
            msg: dict[str, Any] = json.loads(text)
            if msg["type"] == kind:
                return msg


def run_cluster(
    tmp_path: Path, body: Callable[[TableWorker, list[Gateway]], Awaitable[None]]
) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'cluster.sqlite3'}")
        db, bus = Database(store), LocalBus()
        settings = Settings(bot_delay=0.0, tables_per_minute=1e9, joins_per_minute=1e9)
        secret = await db.call(store.secret, "seeds")
        worker = TableWorker(db, bus, settings, secret)
        await worker.start()
        gateways = [Gateway(db, bus, settings, secret, f"gw-{n}") for n in "abc"]
        for g in gateways:
            await g.start()
        try:
            await body(worker, gateways)
        finally:
            for g in gateways:
                await g.stop()
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())


async def two_seat_table(a: Gateway, b: Gateway, **options: Any) -> tuple[str, str]:
    """Ada opens a table of Whot! for two through gateway a, Bob joins through gateway b."""
    code, token, _, _ = await a.create(
        None, game="whot", players=2, match="single", host_name="Ada", options=options
    )
    await b.join(code, "Bob", None, None)
    return code, token


def test_a_line_said_through_one_gateway_is_heard_on_the_others(tmp_path: Path) -> None:
    async def body(worker: TableWorker, gateways: list[Gateway]) -> None:
        a, b, c = gateways
        code, _ = await two_seat_table(a, b)
        ada, bob = Conn(0, True), Conn(1, False)
        await a.attach(await a.replica(code), ada)
        await b.attach(await b.replica(code), bob)
        await a.chat(await a.replica(code), 0, "  good   luck ")
        for conn in (ada, bob):
            line = (await next_of(conn, "chat"))["lines"][0]
            assert (line["seat"], line["name"], line["text"]) == (0, "Ada", "good luck")
        # a gateway that never watched the table gets the line from the table's owner
        await until(lambda: len(worker.tables[code].chat.lines) == 1, WAIT)
        late = Conn(None, False)
        await c.attach(await c.replica(code), late)
        assert [x["text"] for x in (await next_of(late, "chat"))["lines"]] == ["good luck"]
        # each line once, however many ways it came
        await b.chat(await b.replica(code), 1, "thanks")
        assert (await next_of(late, "chat"))["lines"][0]["text"] == "thanks"
        assert [x["text"] for x in (await c.replica(code)).chat.lines] == ["good luck", "thanks"]

    run_cluster(tmp_path, body)


def test_a_rematch_opened_through_one_gateway_is_told_on_every_gateway(tmp_path: Path) -> None:
    async def body(worker: TableWorker, gateways: list[Gateway]) -> None:
        a, b, c = gateways
        code, _ = await two_seat_table(a, b, deal=1)
        rep_a, rep_b, rep_c = [await g.replica(code) for g in gateways]
        bob, watcher = Conn(1, False), Conn(None, False)
        await b.attach(rep_b, bob)
        await c.attach(rep_c, watcher)
        await until(lambda: rep_a.table.live, WAIT)
        with pytest.raises(TableError) as refused:
            await a.rematch(rep_a, None)
        assert refused.value.code == "game_on"  # a rematch follows a game that is over
        while rep_a.table.live:  # each plays the first legal move until one goes out
            t = rep_a.table
            assert t.state is not None
            ply, move = t.ply, str(t.state.legal_moves()[0])
            seat = t.seat_to_play()
            assert seat is not None
            await a.ask(code, Play(seat, move, ply))
            await until(lambda ply=ply: bool(rep_a.table.ply > ply), WAIT)  # type: ignore[misc]
        # gateway c stops hearing the table's channel: its rematch message is lost
        await c.bus.unsubscribe(table_channel(code), c._on_table)
        new = await a.rematch(rep_a, None)
        assert (await next_of(bob, "rematch"))["code"] == new
        assert rep_b.table.rematch == new
        with pytest.raises(TableError) as twice:
            await b.rematch(rep_b, None)
        assert twice.value.code == "rematch_made"
        await c.check_replicas()  # the database tells what the bus lost
        assert (await next_of(watcher, "rematch"))["code"] == new
        # the same people in the same seats, and the rematch's first game under way
        await until(lambda: new in worker.tables and worker.tables[new].table.live, WAIT)
        seats = worker.tables[new].table.seats
        assert [(s.name, s.token_hash) for s in seats] == [
            (s.name, s.token_hash) for s in rep_a.table.seats
        ]

    run_cluster(tmp_path, body)


def test_a_gateway_beside_its_worker_asks_it_directly_and_the_others_over_the_bus(
    tmp_path: Path,
) -> None:
    """In one process (`make serve`) the gateway and the worker owning every table are one
    program: a move goes to the worker as a call, not as a message through the bus and back. A
    gateway in another process asks over the bus, as before; the table takes both alike."""

    async def body(worker: TableWorker, gateways: list[Gateway]) -> None:
        a, b, _ = gateways
        a.local_worker = worker  # as `serving` makes a gateway and a worker in one process
        code, _ = await two_seat_table(a, b)
        sent: list[tuple[str, str]] = []
        bus = worker.bus
        publish = bus.publish

        async def recording(channel: str, message: Any) -> None:
            sent.append((channel, type(message).__name__))
            await publish(channel, message)

        bus.publish = recording  # type: ignore[method-assign]
        for ply, gateway in enumerate((a, b)):
            rep = await gateway.replica(code)
            await until(lambda rep=rep, ply=ply: rep.table.ply == ply, WAIT)  # type: ignore[misc]
            t = rep.table
            seat = t.seat_to_play()
            assert seat is not None and t.state is not None
            await gateway.move(rep, seat, str(t.state.legal_moves()[0]), ply)
        asked = [kind for channel, kind in sent if channel.startswith("worker:")]
        assert asked == ["Request"], "only the gateway of another process asks over the bus"
        assert worker.tables[code].table.ply == 2

    run_cluster(tmp_path, body)
