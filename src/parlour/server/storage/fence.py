"""The fence every write of a table goes behind (docs/architecture.md, "Who owns a table")."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, update

from ..schema import tables
from .driver import DriverStatement
from .engine import Fenced

__all__ = ["Fence", "advance"]


@dataclass(frozen=True)
class Fence:
    """Who may write a table: its owner, at the epoch of its taking over, at the table's change
    number. Every write checks it and moves `seq` on by one (compare-and-set), so a stalled old
    owner can never write after another worker took the table."""

    code: str
    owner: str
    epoch: int
    seq: int

    def next(self) -> Fence:
        return Fence(self.code, self.owner, self.epoch, self.seq + 1)


@lru_cache(maxsize=32)
def _advancing(columns: tuple[str, ...]) -> DriverStatement:
    """The fence's compare-and-set as one statement per set of other columns written with it,
    built once: building and keying the statement again for every move was half the CPU of
    storing one (0.9 ms of the worker's on PostgreSQL, 0.5 ms without); and run through the
    driver (`DriverStatement`)."""
    return DriverStatement(
        update(tables)
        .where(
            tables.c.code == bindparam("f_code"),
            tables.c.owner == bindparam("f_owner"),
            tables.c.epoch == bindparam("f_epoch"),
            tables.c.seq == bindparam("f_seq"),
        )
        .values(
            seq=bindparam("f_next"),
            last_active=bindparam("f_now"),
            **{c: bindparam(f"v_{c}") for c in columns},
        )
    )


def advance(conn: Any, fence: Fence, status: str | None = None, **values: Any) -> Fence:
    """The compare-and-set every write of a table starts with (and its new status, if any)."""
    if status is not None:
        values["status"] = status
    params = {f"v_{c}": v for c, v in values.items()}
    params.update(
        f_code=fence.code,
        f_owner=fence.owner,
        f_epoch=fence.epoch,
        f_seq=fence.seq,
        f_next=fence.seq + 1,
        f_now=time.time(),
    )
    res = _advancing(tuple(sorted(values))).execute(conn, params)
    if res.rowcount != 1:
        raise Fenced(f"table {fence.code}: not owned at epoch {fence.epoch}, change {fence.seq}")
    return fence.next()
