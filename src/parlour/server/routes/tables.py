"""Tables over HTTP: open one, list them, read one, a seat's view, join, next game, rematch,
close."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header

from .. import messages, wire
from ..connections import Conn
from ..gateway import Replica
from ..tables import TableError, hash_token
from .accounts import OptionalAccountDep
from .deps import ClientDep, DbDep, GatewayDep, host_replica, seat_of
from .models import ERRORS, CreateTable, Join, Joined, TableCreated

__all__ = ["router"]

router = APIRouter(tags=["tables"])
HostReplica = Annotated[Replica, Depends(host_replica)]


@router.post("/api/tables", summary="Open a table", response_model=TableCreated, responses=ERRORS)
async def create_table(
    body: CreateTable, gateway: GatewayDep, client: ClientDep, account: OptionalAccountDep
) -> TableCreated:
    """Anyone may open a table; a logged-in host's seat is the account's, and a rated table
    (`rated: true`) needs a logged-in host."""
    code, host_token, seat, here = await gateway.create(
        client,
        game=body.game,
        players=body.players,
        preset=body.preset,
        options=body.options,
        bots=body.bots,
        move_clock=body.move_clock,
        match=body.match,
        bot_delay=body.bot_delay,
        auto_next=body.auto_next,
        host_name=body.name,
        private=body.private,
        idle_timeout=body.idle_timeout,
        on_idle=body.on_idle,
        correspondence=body.correspondence,
        on_timeout=body.on_timeout,
        rated=body.rated,
        host_account=None if account is None else (account.id, account.username),
        here=body.here,
    )
    return TableCreated(
        code=code,
        link=f"/t/{code}",
        host_token=host_token,
        seat=seat,
        token=host_token if seat is not None else None,
        here=[Joined(seat=s, token=token) for s, token in sorted(here.items())],
    )


MAX_TOKENS = 50  # seat tokens in one "my turns" request


@router.get(
    "/api/my-turns",
    summary="The open tables where the seat tokens this browser holds are seated, and whether it "
    "is their turn",
    responses=ERRORS,
)
async def my_turns(
    gateway: GatewayDep,
    db: DbDep,
    x_seat_tokens: Annotated[
        str | None,
        Header(description="the seat tokens, separated by commas (at most 50)"),
    ] = None,
) -> list[dict[str, Any]]:
    tokens = [t.strip() for t in (x_seat_tokens or "").split(",") if t.strip()]
    if len(tokens) > MAX_TOKENS:
        raise TableError(f"at most {MAX_TOKENS} tokens at once", 400)
    found = await db.call(db.store.tables.seats_of_tokens, [hash_token(t) for t in tokens])
    out = []
    for code, seat in found:
        try:
            rep = await gateway.replica(code, fresh=True)
        except TableError:
            continue  # closed meanwhile
        t = rep.table
        out.append(
            {
                "code": code,
                "link": f"/t/{code}",
                "game": t.game.name,
                "title": t.info.title,
                "seat": seat,
                "status": t.status,
                "your_turn": t.live and t.seat_to_play() == seat,
                "deadline": rep.deadline if t.live else None,
                "correspondence": t.correspondence,
            }
        )
    out.sort(key=lambda x: (not x["your_turn"], x["deadline"] or float("inf")))
    return out


@router.get("/api/tables", summary="Tables waiting for players (private ones are not listed)")
async def open_tables(db: DbDep) -> list[dict[str, Any]]:
    rows = await db.call(db.store.tables.waiting_tables, 200)
    return [wire.listing(row) for row in rows]


@router.get("/api/tables/{code}", summary="A table", responses=ERRORS)
async def get_table(code: str, gateway: GatewayDep) -> dict[str, Any]:
    return wire.table_info((await gateway.replica(code, fresh=True)).table)


@router.get(
    "/api/tables/{code}/view",
    summary="The current view: a seat's with its token, else the spectator's",
    responses=ERRORS,
)
async def get_view(
    code: str, gateway: GatewayDep, authorization: Annotated[str | None, Header()] = None
) -> messages.ViewOut:
    rep = await gateway.replica(code, fresh=True)
    seat = seat_of(rep, authorization)
    if rep.table.state is None:
        raise TableError("no game has started at this table", 409, "no_game")
    return rep.view_for(Conn(seat, False))


@router.post(
    "/api/tables/{code}/join", summary="Take a seat", response_model=Joined, responses=ERRORS
)
async def join(
    code: str, body: Join, gateway: GatewayDep, client: ClientDep, account: OptionalAccountDep
) -> Joined:
    """A guest joins with a name; a logged-in person's seat is the account's (at a rated table,
    only accounts sit, under their usernames)."""
    who = None if account is None else (account.id, account.username)
    answer = await gateway.join(code, body.name, body.seat, client, who)
    return Joined(seat=answer.seat, token=answer.token)


@router.post(
    "/api/tables/{code}/next", summary="Host: start the next game of the match", responses=ERRORS
)
async def next_game(rep: HostReplica, gateway: GatewayDep) -> dict[str, Any]:
    answer = await gateway.ask(rep.code, messages.Next())
    return {"game_number": answer.game_number}


@router.post(
    "/api/tables/{code}/rematch",
    summary="Host: the same seats at a new table (every seat's token works there)",
    responses=ERRORS,
)
async def rematch(rep: HostReplica, gateway: GatewayDep, client: ClientDep) -> dict[str, Any]:
    code = await gateway.rematch(rep, client)
    return {"code": code, "link": f"/t/{code}"}


@router.post("/api/tables/{code}/close", summary="Host: close the table", responses=ERRORS)
async def close_table(rep: HostReplica, gateway: GatewayDep) -> dict[str, Any]:
    answer = await gateway.ask(rep.code, messages.Close())
    return {"closed": answer.closed}
