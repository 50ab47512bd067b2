"""Quick match's queue (`parlour_quick_entries`): joining, asking after, leaving, expiring, and a
match's entries and its new table in one transaction (server/matchmaking.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update

from ..errors import TableError
from ..schema import quick_entries as q
from .engine import Repository
from .rows import TableRow
from .tables import insert_table

__all__ = ["KEEP_DONE", "QuickRepo", "Taken"]

KEEP_DONE = 86400.0  # seconds a matched, left or expired entry stays readable


class Taken(Exception):
    """An entry of a match was taken (matched, left, expired) by another gateway meanwhile."""


def _row(r: Any) -> dict[str, Any]:
    return dict(r._mapping)


class QuickRepo(Repository):
    """The queue's rows (see the module doc)."""

    def join(self, values: dict[str, Any], per_client: int) -> int:
        with self.engine.begin() as conn:
            if values["account_id"] is not None:
                mine = select(q.c.id).where(
                    q.c.account_id == values["account_id"], q.c.status == "waiting"
                )
                if conn.execute(mine).first() is not None:
                    raise TableError(
                        "you are in the queue already (in another tab?): leave it first",
                        409,
                        "queued",
                    )
            if values["client"] is not None:
                count = select(func.count()).where(
                    q.c.client == values["client"], q.c.status == "waiting"
                )
                if (conn.execute(count).scalar() or 0) >= per_client:
                    raise TableError(
                        f"{per_client} entries from your address are in the queue already",
                        429,
                        "too_many",
                    )
            key = conn.execute(insert(q).values(**values)).inserted_primary_key
            assert key is not None
            return int(key[0])

    def entry(
        self, ticket_hash: str | None, account_id: int | None, now: float
    ) -> dict[str, Any] | None:
        """The entry of a ticket (else the account's latest), its being asked after noted."""
        with self.engine.begin() as conn:
            if ticket_hash is not None:
                where = q.c.ticket_hash == ticket_hash
            elif account_id is not None:
                where = q.c.account_id == account_id
            else:
                return None
            r = conn.execute(select(q).where(where).order_by(q.c.id.desc()).limit(1)).first()
            if r is None:
                return None
            if r.status == "waiting":
                conn.execute(update(q).where(q.c.id == r.id).values(seen_at=now))
            return _row(r)

    def leave(self, entry_id: int) -> bool:
        with self.engine.begin() as conn:
            res = conn.execute(
                update(q).where(q.c.id == entry_id, q.c.status == "waiting").values(status="left")
            )
            return bool(res.rowcount == 1)

    def waiting(self, now: float, ttl: float) -> list[dict[str, Any]]:
        """Expire the waiting entries nobody asked after for `ttl` seconds, forget old finished
        ones, and return the waiting ones."""
        with self.engine.begin() as conn:
            conn.execute(
                update(q)
                .where(q.c.status == "waiting", q.c.seen_at < now - ttl)
                .values(status="expired")
            )
            conn.execute(
                delete(q).where(
                    q.c.status != "waiting",
                    or_(q.c.matched_at < now - KEEP_DONE, q.c.seen_at < now - KEEP_DONE),
                )
            )
            rows = conn.execute(select(q).where(q.c.status == "waiting").order_by(q.c.id)).all()
            return [_row(r) for r in rows]

    def match(self, seats: dict[int, int], row: TableRow, owner: str, now: float) -> None:
        """One match in one transaction: each entry from waiting to matched (a compare-and-set;
        any one taken meanwhile rolls it all back: `Taken`), and the new table stored, owned by
        `owner`."""
        with self.engine.begin() as conn:
            for entry_id, seat in sorted(seats.items()):  # one order: no deadlock between two
                res = conn.execute(
                    update(q)
                    .where(q.c.id == entry_id, q.c.status == "waiting")
                    .values(status="matched", table_code=row.code, seat=seat, matched_at=now)
                )
                if res.rowcount != 1:
                    raise Taken(entry_id)
            insert_table(conn, row, owner)
