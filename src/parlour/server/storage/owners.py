"""The table workers and who owns which table: heartbeats, claims, releases and orphans
(docs/architecture.md, "Who owns a table")."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, insert, select, update

from ..schema import (
    tables,
    workers,
)
from .engine import Repository
from .fence import Fence

__all__ = ["OwnersRepo"]


class OwnersRepo(Repository):
    """Workers and ownership (see the module doc)."""

    def register_worker(self, worker: str) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(workers).where(workers.c.id == worker))
            conn.execute(insert(workers).values(id=worker, started_at=now, heartbeat_at=now))

    def heartbeat(self, worker: str, owned: int, draining: bool = False) -> None:
        """A worker says it is alive (and how many tables it holds, for placing new ones)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(workers)
                .where(workers.c.id == worker)
                .values(heartbeat_at=time.time(), tables=owned, draining=draining)
            )
            if res.rowcount == 0:  # declared dead and removed meanwhile: back, as a new life
                now = time.time()
                conn.execute(
                    insert(workers).values(
                        id=worker, started_at=now, heartbeat_at=now, tables=owned, draining=draining
                    )
                )

    def drop_worker(self, worker: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(workers).where(workers.c.id == worker))

    def live_workers(self, since: float) -> list[dict[str, Any]]:
        """Workers heard from since `since`, least loaded first (draining ones last)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(workers)
                .where(workers.c.heartbeat_at >= since)
                .order_by(workers.c.draining, workers.c.tables, workers.c.id)
            ).all()
        return [dict(r._mapping) for r in rows]

    def claim(self, code: str, me: str, owner: str | None, epoch: int) -> Fence | None:
        """Take a table over from `owner` at `epoch` (None: it has no owner); the new fence, or
        None when someone else took it first."""
        with self.engine.begin() as conn:
            now_owner = tables.c.owner.is_(None) if owner is None else tables.c.owner == owner
            res = conn.execute(
                update(tables)
                .where(tables.c.code == code, now_owner, tables.c.epoch == epoch)
                .values(owner=me, epoch=epoch + 1)
            )
            if res.rowcount != 1:
                return None
            seq = conn.execute(select(tables.c.seq).where(tables.c.code == code)).scalar_one()
        return Fence(code, me, epoch + 1, int(seq))

    def release(self, fence: Fence) -> bool:
        """Give a table up (no owner): the next worker to look adopts it."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tables)
                .where(
                    tables.c.code == fence.code,
                    tables.c.owner == fence.owner,
                    tables.c.epoch == fence.epoch,
                )
                .values(owner=None)
            )
            return res.rowcount == 1

    def orphans(self, alive: list[str], limit: int) -> list[tuple[str, str | None, int]]:
        """Open tables whose owner is no live worker: (code, owner, epoch), oldest first."""
        with self.engine.connect() as conn:
            q = (
                select(tables.c.code, tables.c.owner, tables.c.epoch)
                .where(
                    tables.c.status.in_(("waiting", "playing")),
                    tables.c.owner.is_(None) | tables.c.owner.not_in(alive or [""]),
                )
                .order_by(tables.c.created_at)
                .limit(limit)
            )
            return [(r.code, r.owner, int(r.epoch)) for r in conn.execute(q)]

    def owned_by(self, worker: str) -> dict[str, int]:
        """The open tables a worker owns, with their epochs."""
        with self.engine.connect() as conn:
            q = select(tables.c.code, tables.c.epoch).where(
                tables.c.owner == worker, tables.c.status.in_(("waiting", "playing"))
            )
            return {r.code: int(r.epoch) for r in conn.execute(q)}

    def owner_of(self, code: str) -> tuple[str | None, int, int, str] | None:
        """(owner, epoch, seq, status) of a table, or None if there is none."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(tables.c.owner, tables.c.epoch, tables.c.seq, tables.c.status).where(
                    tables.c.code == code
                )
            ).first()
        return None if r is None else (r.owner, int(r.epoch), int(r.seq), r.status)
