"""Moves of many tables are committed together while the database is busy (group commit): one
transaction for a batch, and no move is acknowledged before its commit."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from parlour.server.database import Database
from parlour.server.storage import Fence, MoveRow


class SlowTables:
    """Records each commit; the first one takes a while, as a busy disk would."""

    def __init__(self) -> None:
        self.commits: list[list[tuple[int, int, str]]] = []
        self.first = threading.Event()

    def add_moves(self, rows: list[MoveRow]) -> list[Fence]:
        if not self.commits:
            self.first.set()
            time.sleep(0.2)
        self.commits.append([(r.game_id, r.ply, r.text) for r in rows])
        return [r.fence.next() for r in rows]


class SlowStore:
    def __init__(self) -> None:
        self.tables = SlowTables()


def test_moves_waiting_for_a_commit_go_in_the_next_one_together() -> None:
    slow = SlowStore()
    store = slow.tables

    async def main() -> list[Any]:
        db = Database(slow)  # type: ignore[arg-type]

        def row(g: int) -> MoveRow:
            return MoveRow(Fence(f"T{g}", "w", 1, 0), g, 0, "draw")

        first = asyncio.ensure_future(db.write_move(row(1)))
        while not store.first.is_set():
            await asyncio.sleep(0.001)
        rest = [asyncio.ensure_future(db.write_move(row(g))) for g in range(2, 7)]
        await asyncio.sleep(0.05)
        assert not any(r.done() for r in rest), "acknowledged before its commit"
        done = await asyncio.gather(first, *rest)
        assert all(f.seq == 1 for f in done)  # each table's next fence
        db.shutdown()
        return done

    asyncio.run(main())
    assert [len(batch) for batch in store.commits] == [1, 5]


class QuickTables:
    """Records each commit (the rows' tables), at once."""

    def __init__(self) -> None:
        self.commits: list[list[str]] = []

    def add_moves(self, rows: list[MoveRow]) -> list[Fence]:
        self.commits.append([r.fence.code for r in rows])
        return [r.fence.next() for r in rows]


class QuickStore:
    def __init__(self) -> None:
        self.tables = QuickTables()


def move_of(table: str) -> MoveRow:
    return MoveRow(Fence(table, "w", 1, 0), 1, 0, "draw")


def test_when_many_tables_are_playing_a_move_waits_a_moment_for_the_others() -> None:
    """As PostgreSQL's commit_delay with commit_siblings: at a person's pace moves rarely meet a
    commit under way, so with the moves of `siblings` tables coming in, a move waits `window`
    seconds for others to share its commit — and is still acknowledged only after it."""
    quick = QuickStore()

    async def main() -> None:
        db = Database(quick, window=1.0, siblings=3, span=60.0)  # type: ignore[arg-type]
        await db.write_move(move_of("T1"))  # two tables played lately: not enough to wait
        await db.write_move(move_of("T2"))
        third = asyncio.ensure_future(db.write_move(move_of("T3")))
        await asyncio.sleep(0.05)
        assert not third.done(), "a third table's move should wait for others"
        fourth = asyncio.ensure_future(db.write_move(move_of("T4")))
        await asyncio.gather(third, fourth)
        db.shutdown()

    asyncio.run(main())
    assert quick.tables.commits == [["T1"], ["T2"], ["T3", "T4"]]


def test_a_table_played_alone_never_waits_for_a_commit() -> None:
    """A bots' game with nobody else on the server (or a quiet server) stores each move at once:
    the window is only for moves that have company."""
    quick = QuickStore()

    async def main() -> None:
        db = Database(quick, window=30.0, siblings=2, span=60.0)  # type: ignore[arg-type]
        for _ in range(5):  # each would wait 30 s if it waited at all
            await asyncio.wait_for(db.write_move(move_of("T1")), 10)
        db.shutdown()

    asyncio.run(main())
    assert quick.tables.commits == [["T1"]] * 5


def test_without_a_window_no_move_waits() -> None:
    quick = QuickStore()

    async def main() -> None:
        db = Database(quick, window=0.0, siblings=1, span=60.0)  # type: ignore[arg-type]
        for table in ("T1", "T2", "T3"):
            await asyncio.wait_for(db.write_move(move_of(table)), 10)
        db.shutdown()

    asyncio.run(main())
    assert quick.tables.commits == [["T1"], ["T2"], ["T3"]]


def test_a_waiter_that_gave_up_does_not_leave_the_others_of_its_batch_unanswered() -> None:
    """A bot's turn is cancelled when its table closes, perhaps while its move waits for a
    commit: the commit still answers every other move that went into it."""
    slow = SlowStore()
    store = slow.tables

    async def main() -> None:
        db = Database(slow)  # type: ignore[arg-type]
        first = asyncio.ensure_future(db.write_move(move_of("T1")))
        while not store.first.is_set():
            await asyncio.sleep(0.001)
        gave_up = asyncio.ensure_future(db.write_move(move_of("T2")))
        others = [asyncio.ensure_future(db.write_move(move_of(t))) for t in ("T3", "T4")]
        await asyncio.sleep(0.01)
        gave_up.cancel()  # while T2, T3 and T4 wait for the commit after T1's
        done = await asyncio.wait_for(asyncio.gather(first, *others), 30)
        assert [f.seq for f in done] == [1, 1, 1]
        db.shutdown()

    asyncio.run(main())
    assert [len(batch) for batch in store.commits] == [1, 3]
