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
