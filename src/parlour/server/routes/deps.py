"""What routes depend on: the gateway of the running app, the database, the settings, the asking
client and the host's token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from ..clients import client_address
from ..database import Database
from ..gateway import Gateway, Replica
from ..settings import Settings
from ..tables import TableError

__all__ = [
    "ClientDep",
    "DbDep",
    "GatewayDep",
    "SettingsDep",
    "bearer",
    "host_replica",
    "seat_of",
]


def get_gateway(request: Request) -> Gateway:
    gateway: Gateway | None = getattr(request.app.state, "gateway", None)
    if gateway is None:
        raise TableError("this process is a table worker: ask a gateway", 503, "busy")
    return gateway


def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


GatewayDep = Annotated[Gateway, Depends(get_gateway)]
DbDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_client(request: Request, gateway: GatewayDep, settings: SettingsDep) -> str:
    """The asking client's key (a keyed hash of its address), for per-client limits."""
    host = request.client.host if request.client else None
    return gateway.clients.key(client_address(host, request.headers, settings.trust_forwarded))


ClientDep = Annotated[str, Depends(get_client)]
Authorization = Annotated[str | None, Header()]


def bearer(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise TableError("send the host token as 'Authorization: Bearer TOKEN'", 401, "no_token")
    return authorization[7:].strip()


async def host_replica(
    code: str, gateway: GatewayDep, authorization: Authorization = None
) -> Replica:
    """The table `code`, for a request that carries its host's token."""
    rep = await gateway.replica(code, fresh=True)
    found = rep.table.seat_for_token(bearer(authorization))
    if found is None or not found[1]:
        raise TableError("only the host's token may do this", 403, "not_host")
    return rep


def seat_of(rep: Replica, authorization: str | None) -> int | None:
    """The seat a request's token holds at the table (None: no token, a spectator)."""
    if not authorization:
        return None
    found = rep.table.seat_for_token(bearer(authorization))
    if found is None:
        raise TableError("unknown token for this table", 403, "unknown_token")
    return found[0]
