"""Finished games: the list, one record, a table's records (JSON for `parlour replay`)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response

from ..tables import TableError
from .deps import DbDep
from .models import ERRORS

__all__ = ["router"]

router = APIRouter(tags=["history"])
BIG = 2**63 - 1  # beyond this no number is a row's: answered 422, not looked up


@router.get("/api/history", summary="Finished games, newest first")
async def history(
    db: DbDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=BIG)] = 0,
    table: Annotated[str | None, Query(max_length=16)] = None,
) -> dict[str, Any]:
    return await db.call(db.store.tables.history, limit, offset, table)


@router.get(
    "/api/history/{game_id}/record",
    summary="A finished game's record (JSON for `parlour replay FILE`)",
    responses=ERRORS,
)
async def record(game_id: Annotated[int, Path(ge=0, le=BIG)], db: DbDep) -> Response:
    rec = await db.call(db.store.tables.finished_record, game_id)
    if rec is None:
        raise TableError(f"no finished game {game_id}", 404, "unknown_game")
    return Response(
        json.dumps(rec, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="parlour-{game_id}.json"'},
    )


@router.get(
    "/api/tables/{code}/records",
    summary="A table's finished games, a page at a time, as a file for `parlour replay`",
)
async def table_records(
    code: str,
    db: DbDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
    offset: Annotated[int, Query(ge=0, le=BIG)] = 0,
) -> dict[str, Any]:
    table = code.strip().upper()
    total = await db.call(db.store.tables.finished_count, table)
    ids = await db.call(db.store.tables.finished_ids, table, limit, offset)
    recs = [await db.call(db.store.tables.finished_record, i) for i in ids]
    out: dict[str, Any] = {"table": table, "total": total, "offset": offset}
    out["games"] = [r for r in recs if r is not None]
    if offset + len(ids) < total:
        out["next"] = f"/api/tables/{table}/records?offset={offset + len(ids)}&limit={limit}"
    return out
