"""The analysis queue is the database's, not a gateway's: two gateways' review parts on one
database, as a cluster runs them. An analysis asked through one gateway is followed, cancelled and
answered through another (a balancer without sticky sessions sends a person's polls anywhere);
one per client holds across gateways; and an analysis whose gateway died is finished by another,
from the decision where it was."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import Record
from parlour.review import Budget, analyse
from parlour.server import Settings
from parlour.server.database import Database
from parlour.server.review import Reviews
from parlour.server.storage import Store
from parlour.server.tables import TableError

WAIT = 120.0  # seconds before a test gives up waiting for an analysis


def played(name: str, players: int, rules: str, seed: int, moves: int | None = None) -> Record:
    """A game between greedy players (to its end, or its first `moves` moves)."""
    game = parlour.make(name, players=players, rules=rules)
    state = game.new_game(seed=seed)
    bots = [make_bot("greedy", game, seed=seed + p) for p in range(players)]
    while not state.is_over and (moves is None or len(state.history) < moves):
        p = state.to_play
        assert p is not None
        state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    record: Record = state.record()
    return record


def on_one_database(tmp_path: Path, body: Callable[[Database], Awaitable[None]]) -> None:
    """Run `body` with a database; it makes the gateways' review parts it needs with `review`."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'review.sqlite3'}")
        db = Database(store)
        try:
            await body(db)
        finally:
            db.shutdown()
            store.close()

    asyncio.run(main())


def review(db: Database, name: str, **settings: Any) -> Reviews:
    """A gateway's review part, started (its runners take jobs)."""
    settings.setdefault("analysis_iterations", 30)
    reviews = Reviews(db, Settings(**settings), f"gw-{name}")
    reviews.start()
    return reviews


async def crash(reviews: Reviews) -> None:
    """The gateway dies: its loops and runners stop where they are, and nothing is said to the
    database (no job put back: its beat just stops)."""
    tasks = [*reviews._loops, *reviews._running.values()]
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    if reviews._pool is not None:
        reviews._pool.shutdown(wait=False, cancel_futures=True)


async def until_ended(
    job: str, through: list[Reviews], seen: list[int] | None = None
) -> dict[str, Any]:
    """Poll a job through each gateway in turn until it has ended; `seen`: each poll's `done`."""
    async with asyncio.timeout(WAIT):
        turn = 0
        while True:
            state = await through[turn % len(through)].state(job)
            turn += 1
            if seen is not None:
                seen.append(state["done"])
            if state["status"] not in ("queued", "running"):
                return state
            await asyncio.sleep(0.05)


def expected_analysis(record: Record, seat: int) -> dict[str, Any]:
    return analyse(record, seat, Budget(iterations=30), seed=0).to_dict()


def same_analysis(got: dict[str, Any], expected: dict[str, Any]) -> bool:
    keys = ("record", "seat", "budget", "total", "forced", "result", "summary")
    timeless = [{**d, "seconds": 0} for d in got["decisions"]]
    return all(got[k] == expected[k] for k in keys) and timeless == [
        {**d, "seconds": 0} for d in expected["decisions"]
    ]


def test_an_analysis_asked_through_one_gateway_is_followed_and_answered_through_another(
    tmp_path: Path,
) -> None:
    record = played("whot", 2, "nigerian", seed=5)

    async def body(db: Database) -> None:
        a = review(db, "a", analysis_workers=0)  # no runner of its own: b's runner judges it
        b = review(db, "b")
        try:
            first = await a.submit("ada", record, 1, a.budget(None), None)
            assert first["status"] == "queued" and not first["cached"]
            seen: list[int] = []
            done = await until_ended(first["job"], [a, b], seen)
            assert done["status"] == "done", done
            assert seen == sorted(seen) and seen[-1] == done["total"]  # only ever forward
            assert same_analysis(done["analysis"], expected_analysis(record, 1))
            assert done == await a.state(first["job"]) == await b.state(first["job"])
        finally:
            await a.stop()
            await b.stop()

    on_one_database(tmp_path, body)


def test_one_analysis_per_client_and_its_cancel_hold_across_gateways(tmp_path: Path) -> None:
    long = played("sorry", 4, "regular", seed=3, moves=400)  # minutes of work at this budget

    async def body(db: Database) -> None:
        a = review(db, "a", analysis_iterations=2000)
        b = review(db, "b", analysis_iterations=2000)
        try:
            job = (await a.submit("ada", long, 0, a.budget(None), None))["job"]
            with pytest.raises(TableError) as busy:  # the same client through the other one
                await b.submit("ada", long, 1, b.budget(None), None)
            assert busy.value.code == "analysis_busy"
            same = await b.submit("bob", long, 0, b.budget(None), None)
            assert same["job"] == job  # what is under way is not made twice, wherever asked
            with pytest.raises(TableError) as theirs:
                await b.cancel(job, "bob")
            assert theirs.value.code == "not_yours"
            await b.cancel(job, "ada")
            assert (await until_ended(job, [a, b]))["status"] == "cancelled"
            again = await b.submit("ada", long, 1, b.budget(None), None)  # free to ask again
            assert again["status"] == "queued"
            await a.cancel(again["job"], "ada")
        finally:
            await a.stop()
            await b.stop()

    on_one_database(tmp_path, body)


def test_an_analysis_whose_gateway_died_is_finished_by_another_from_where_it_was(
    tmp_path: Path,
) -> None:
    record = played("whot", 2, "nigerian", seed=6)

    async def body(db: Database) -> None:
        a = review(db, "a", analysis_takeover=1.0)
        job = (await a.submit("ada", record, 0, a.budget(None), None))["job"]
        async with asyncio.timeout(WAIT):
            while (await a.state(job))["done"] < 2:
                await asyncio.sleep(0.02)
        await crash(a)
        judged = (await a.state(job))["done"]
        assert (await a.state(job))["status"] == "running"  # as far as anyone can tell
        b = review(db, "b", analysis_takeover=1.0)
        try:
            seen: list[int] = []
            done = await until_ended(job, [b], seen)
            assert done["status"] == "done", done
            assert min(seen) >= judged and seen == sorted(seen)  # on from where a was
            assert same_analysis(done["analysis"], expected_analysis(record, 0))
        finally:
            await b.stop()

    on_one_database(tmp_path, body)


def test_a_gateway_stopping_puts_its_analysis_back_for_the_next(tmp_path: Path) -> None:
    record = played("whot", 2, "nigerian", seed=7)

    async def body(db: Database) -> None:
        a = review(db, "a")
        job = (await a.submit("ada", record, 1, a.budget(None), None))["job"]
        async with asyncio.timeout(WAIT):
            while (await a.state(job))["done"] < 1:
                await asyncio.sleep(0.02)
        await a.stop()  # a rolling restart: no wait for a takeover
        state = await a.state(job)
        assert state["status"] == "queued" and state["done"] >= 1
        b = review(db, "b")
        try:
            done = await until_ended(job, [b])
            assert done["status"] == "done"
            assert same_analysis(done["analysis"], expected_analysis(record, 1))
        finally:
            await b.stop()

    on_one_database(tmp_path, body)


def test_a_gateway_woken_as_it_stops_still_stops(tmp_path: Path) -> None:
    """A runner cancelled by `stop` wakes the loop that takes jobs at the moment that loop is
    cancelled too. Python 3.11's `asyncio.wait_for` swallowed a cancellation that came with its
    event set, so the loop went on and `stop` waited for it for ever (this test file hung so now
    and then); woken and cancelled in the same turn of the event loop, it stops."""

    async def body(db: Database) -> None:
        a = review(db, "a")
        for _ in range(20):  # the loop takes nothing, then waits to be woken
            await asyncio.sleep(0.01)
        a._wake.set()  # what a runner's end does, as `stop` cancels the loop
        stopping = asyncio.ensure_future(a.stop())
        await asyncio.wait({stopping}, timeout=WAIT)  # over as soon as it has stopped
        stopped = stopping.done()
        for task in [*a._loops, stopping]:  # a loop that swallowed its cancellation: again
            task.cancel()
        await asyncio.gather(*a._loops, stopping, return_exceptions=True)
        assert stopped, "stop waited for a loop that had swallowed its cancellation"

    on_one_database(tmp_path, body)
