"""Quick match over HTTP (server/matchmaking.py): join the queue, ask how the entry stands (a long
poll), leave it. The ticket travels in the body, never in a URL, so that no log keeps it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from ..matchmaking import QuickMatch
from ..tables import TableError
from .accounts import OptionalAccountDep
from .deps import ClientDep
from .models import ERRORS

__all__ = ["router"]

router = APIRouter(tags=["quick match"])


def get_quick(request: Request) -> QuickMatch:
    quick: QuickMatch | None = getattr(request.app.state, "quick", None)
    if quick is None:
        raise TableError("this process is a table worker: ask a gateway", 503, "busy")
    return quick


QuickDep = Annotated[QuickMatch, Depends(get_quick)]


class QuickJoin(BaseModel):
    game: str = Field(max_length=64, description="a game's name (GET /api/games)")
    preset: str | None = Field(None, max_length=64, description="default: the game's own")
    players: int | None = Field(None, ge=1, le=16, description="default: the game's own")
    name: str | None = Field(
        None, max_length=200, description="a guest's name (an account plays under its username)"
    )
    bot_after: float | None = Field(
        None,
        description="fill the seats nobody came for with bots after this many seconds "
        "(null: wait for people only)",
    )
    ticket: str | None = Field(
        None,
        max_length=128,
        description="the ticket this browser holds, if any: one entry at a time",
    )


class QuickAsk(BaseModel):
    ticket: str | None = Field(
        None,
        max_length=128,
        description="the entry's ticket (a logged-in person's entry is found without it)",
    )
    wait: float = Field(0.0, ge=0, le=60, description="seconds to wait for a change (long poll)")
    quiet: bool = Field(
        False,
        description='no entry is an answer, not an error: `{"status": "none"}` (200) '
        "instead of 404 — for a page asking whether this browser or account is queued at all",
    )


ENTRY = (
    "How the entry stands: `status` (waiting, matched, left, expired), `waited`, the rating "
    "`band` it accepts and `band_words`, `bots_in`, and once matched `table` with its `link` "
    "and the seat's `token`."
)


@router.post(
    "/api/quick", summary="Join the quick-match queue", responses=ERRORS, description=ENTRY
)
async def join(
    body: QuickJoin, quick: QuickDep, client: ClientDep, account: OptionalAccountDep
) -> dict[str, Any]:
    if body.ticket:
        try:
            held = await quick.entry(body.ticket, None)
        except TableError:
            held = None
        if held is not None and held["status"] == "waiting":
            raise TableError("this browser is in the queue already: leave it first", 409, "queued")
    if account is None and body.name is None:
        raise TableError("a guest queues with a name")
    ticket, entry = await quick.join(
        client,
        game=body.game,
        preset=body.preset,
        players=body.players,
        name=body.name,
        bot_after=body.bot_after,
        account=None if account is None else (account.id, account.username),
    )
    return {"ticket": ticket, **entry}


@router.post(
    "/api/quick/status",
    summary="How a quick-match entry stands (a long poll)",
    responses=ERRORS,
    description=ENTRY,
)
async def status(body: QuickAsk, quick: QuickDep, account: OptionalAccountDep) -> dict[str, Any]:
    try:
        return await quick.entry(body.ticket, None if account is None else account.id, body.wait)
    except TableError as exc:
        if body.quiet and exc.code == "no_entry":
            return {"status": "none"}
        raise


@router.post(
    "/api/quick/leave", summary="Leave the quick-match queue", responses=ERRORS, description=ENTRY
)
async def leave(body: QuickAsk, quick: QuickDep, account: OptionalAccountDep) -> dict[str, Any]:
    return await quick.leave(body.ticket, None if account is None else account.id)
