"""Moderation over HTTP: a seated person reports a chat line; the server's moderators
(`parlour admin`, with the `admin_token`) read the reports, close tables, suspend accounts and
remove chat lines (server/moderation.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from pydantic import BaseModel, Field

from ..moderation import Moderation
from ..tables import TableError
from .deps import ClientDep, GatewayDep, seat_of
from .models import ERRORS

__all__ = ["router"]

router = APIRouter(tags=["moderation"])
Authorization = Annotated[str | None, Header()]


def get_moderation(request: Request) -> Moderation:
    moderation: Moderation | None = getattr(request.app.state, "moderation", None)
    if moderation is None:
        raise TableError("this process is a table worker: ask a gateway", 503, "busy")
    return moderation


ModerationDep = Annotated[Moderation, Depends(get_moderation)]


def moderator(moderation: ModerationDep, authorization: Authorization = None) -> Moderation:
    """The moderation of a request that carries the moderators' token."""
    moderation.check_token(authorization)
    return moderation


ModeratorDep = Annotated[Moderation, Depends(moderator)]


class Report(BaseModel):
    reason: str | None = Field(None, description="why, in a few words (optional, 200 at most)")


class Suspend(BaseModel):
    reason: str | None = Field(None, description="why (kept with the account, 200 at most)")


@router.post(
    "/api/tables/{code}/chat/{line}/report",
    summary="Report a chat line to the server's moderators (with your seat's token)",
    responses=ERRORS,
)
async def report_line(
    code: str,
    line: str,
    gateway: GatewayDep,
    moderation: ModerationDep,
    client: ClientDep,
    body: Report | None = None,
    authorization: Authorization = None,
) -> dict[str, Any]:
    rep = await gateway.replica(code, fresh=True)
    seat = seat_of(rep, authorization)
    if seat is None:
        raise TableError("send your seat's token to report a line", 401, "no_token")
    new = await moderation.report(rep, seat, line, body.reason if body else None, client)
    return {"reported": True, "new": new}


@router.get("/api/admin/reports", summary="Moderators: the chat lines reported", responses=ERRORS)
async def reports(
    moderation: ModeratorDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    removed: Annotated[bool, Query(description="also those whose line was removed")] = False,
) -> dict[str, Any]:
    return {"reports": await moderation.reports(limit, removed)}


@router.get(
    "/api/admin/tables/{code}/chat",
    summary="Moderators: a table's recent chat lines, with their ids",
    responses=ERRORS,
)
async def chat_lines(code: str, moderation: ModeratorDep) -> dict[str, Any]:
    return {"lines": await moderation.recent_lines(code)}


@router.delete(
    "/api/admin/tables/{code}/chat/{line}",
    summary="Moderators: remove a chat line from every screen",
    responses=ERRORS,
)
async def remove_line(code: str, line: str, moderation: ModeratorDep) -> dict[str, Any]:
    reports = await moderation.remove_line(code, line)
    return {"removed": line, "reports": reports}


@router.post(
    "/api/admin/tables/{code}/close", summary="Moderators: close a table", responses=ERRORS
)
async def close_table(code: str, moderation: ModeratorDep) -> dict[str, Any]:
    return {"table": code.strip().upper(), "status": await moderation.close_table(code)}


@router.post(
    "/api/admin/accounts/{username}/suspend",
    summary="Moderators: suspend an account (no log-in, its sessions end, its seats cannot act)",
    responses=ERRORS,
)
async def suspend(
    username: str, moderation: ModeratorDep, body: Suspend | None = None
) -> dict[str, Any]:
    return await moderation.suspend(username, body.reason if body else None)


@router.post(
    "/api/admin/accounts/{username}/unsuspend",
    summary="Moderators: lift an account's suspension",
    responses=ERRORS,
)
async def unsuspend(username: str, moderation: ModeratorDep) -> dict[str, Any]:
    return await moderation.unsuspend(username)
