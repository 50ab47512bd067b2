"""Accounts over HTTP: sign up, log in and out (here or everywhere), the account, its password,
deleting it, and claiming the seats this browser held as a guest (server/accounts.py).

The session is a cookie; every write it authenticates carries the CSRF token in `X-CSRF-Token`
(see server/accounts.py for why). Every action is the logged-in account's own: no route takes an
account's name or number to act on.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from ..accounts import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    Accounts,
    session_hash,
)
from ..tables import TableError, hash_token
from .deps import ClientDep, DbDep
from .models import ERRORS

__all__ = ["AccountDep", "OptionalAccountDep", "router"]

router = APIRouter(tags=["accounts"])


def get_accounts(request: Request) -> Accounts:
    accounts: Accounts | None = getattr(request.app.state, "accounts", None)
    if accounts is None:
        raise TableError("this process is a table worker: ask a gateway", 503, "busy")
    return accounts


AccountsDep = Annotated[Accounts, Depends(get_accounts)]


@dataclass(frozen=True)
class Session:
    """The logged-in account of a request, and its session token."""

    id: int
    username: str
    token: str


def _same_origin(request: Request, trust_forwarded: bool) -> bool:
    """Whether the request's Origin, when the browser sent one, is this server."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    if trust_forwarded and request.headers.get("x-forwarded-host"):
        host = request.headers["x-forwarded-host"].split(",")[0].strip()
    return urlsplit(origin).netloc == host


async def _session(request: Request, accounts: Accounts) -> Session | None:
    token = request.cookies.get(SESSION_COOKIE)
    found = await accounts.session(token)
    if found is None or token is None:
        return None
    return Session(found["id"], found["username"], token)


def _check_csrf(request: Request, accounts: Accounts, session: Session) -> None:
    sent = request.headers.get(CSRF_HEADER, "")
    good = hmac.compare_digest(sent.encode(), accounts.csrf(session.token).encode())
    if not good or not _same_origin(request, accounts.settings.trust_forwarded):
        raise TableError(
            "this request needs the page's CSRF token (header X-CSRF-Token): reload the page",
            403,
            "csrf",
        )


async def optional_account(request: Request, accounts: AccountsDep) -> Session | None:
    """For a write anyone may make (opening a table, joining): the logged-in account, if the
    request carries a session — then with its CSRF token, else refused."""
    session = await _session(request, accounts)
    if session is not None and request.method not in ("GET", "HEAD"):
        _check_csrf(request, accounts, session)
    return session


async def required_account(request: Request, accounts: AccountsDep) -> Session:
    """The logged-in account (401 without one); a write needs its CSRF token."""
    session = await optional_account(request, accounts)
    if session is None:
        raise TableError("log in first", 401, "login_required")
    return session


OptionalAccountDep = Annotated[Session | None, Depends(optional_account)]
AccountDep = Annotated[Session, Depends(required_account)]


# --- bodies ---------------------------------------------------------------------------------------
class HeldSeat(BaseModel):
    table: str = Field(max_length=16, description="table code")
    token: str = Field(max_length=128, description="the seat token this browser holds")


class Credentials(BaseModel):
    username: str = Field(max_length=200, examples=["ada_l"])
    password: str = Field(max_length=2048, description="at least 10 characters")
    claim: list[HeldSeat] = Field(
        default_factory=list,
        max_length=200,
        description="seats this browser played as a guest, to make the account's",
    )


class AccountInfo(BaseModel):
    username: str
    csrf: str = Field(description="send as X-CSRF-Token with every write while logged in")
    profile: str = Field(description="the account's public profile page")
    claimed: list[dict[str, Any]] = Field(default_factory=list, description="seats claimed")


class PasswordChange(BaseModel):
    current: str = Field(max_length=2048)
    new: str = Field(max_length=2048, description="at least 10 characters, not the username")


class Confirm(BaseModel):
    password: str = Field(max_length=2048, description="the account's password, to be sure")


class Claim(BaseModel):
    seats: list[HeldSeat] = Field(max_length=200)


def _secure(request: Request, trust_forwarded: bool) -> bool:
    """Whether the request came over HTTPS (behind a trusted proxy: as X-Forwarded-Proto says)."""
    if trust_forwarded:
        proto = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        if proto:
            return proto == "https"
    return request.url.scheme == "https"


def _set_cookies(
    request: Request, response: Response, accounts: Accounts, token: str | None
) -> None:
    secure = _secure(request, accounts.settings.trust_forwarded)
    if token is None:
        for name in (SESSION_COOKIE, CSRF_COOKIE):
            response.delete_cookie(name, path="/", secure=secure, samesite="lax")
        return
    age = int(accounts.settings.session_days * 86400)
    response.set_cookie(
        SESSION_COOKIE, token, max_age=age, path="/", secure=secure, httponly=True, samesite="lax"
    )
    # readable by the page's script (double submit): worthless without the session it signs
    response.set_cookie(
        CSRF_COOKIE,
        accounts.csrf(token),
        max_age=age,
        path="/",
        secure=secure,
        httponly=False,
        samesite="lax",
    )


async def _claim(db: Any, account_id: int, held: list[HeldSeat]) -> list[dict[str, Any]]:
    pairs = [(h.table.strip().upper(), hash_token(h.token)) for h in held]
    if not pairs:
        return []
    claimed: list[dict[str, Any]] = await db.call(db.store.accounts.claim_seats, account_id, pairs)
    return claimed


def _info(accounts: Accounts, username: str, token: str) -> AccountInfo:
    return AccountInfo(username=username, csrf=accounts.csrf(token), profile=f"/players/{username}")


def _check_origin(request: Request, accounts: Accounts) -> None:
    """Signing up or in from another site's page is refused (login CSRF)."""
    if not _same_origin(request, accounts.settings.trust_forwarded):
        raise TableError("sign in from this server's own pages", 403, "csrf")


async def _signed_in(
    request: Request,
    response: Response,
    accounts: Accounts,
    db: Any,
    signed: tuple[int, str, str],
    claim: list[HeldSeat],
) -> AccountInfo:
    """After a sign-up or log-in: the session's cookies, and the guest seats claimed."""
    account_id, name, token = signed
    _set_cookies(request, response, accounts, token)
    info = _info(accounts, name, token)
    info.claimed = await _claim(db, account_id, claim)
    return info


# --- routes ---------------------------------------------------------------------------------------
@router.post(
    "/api/account/signup",
    summary="Make an account (and log in); claims the guest seats sent along",
    response_model=AccountInfo,
    responses={**ERRORS, 429: ERRORS[400]},
)
async def signup(
    body: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    client: ClientDep,
    db: DbDep,
) -> AccountInfo:
    _check_origin(request, accounts)
    signed = await accounts.signup(body.username, body.password, client)
    return await _signed_in(request, response, accounts, db, signed, body.claim)


@router.post(
    "/api/account/login",
    summary="Log in (the same answer for an unknown name and a wrong password)",
    response_model=AccountInfo,
    responses={**ERRORS, 429: ERRORS[400]},
)
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    client: ClientDep,
    db: DbDep,
) -> AccountInfo:
    _check_origin(request, accounts)
    signed = await accounts.login(body.username, body.password, client)
    return await _signed_in(request, response, accounts, db, signed, body.claim)


@router.get(
    "/api/account",
    summary="The logged-in account (401: nobody is logged in)",
    response_model=AccountInfo,
    responses=ERRORS,
)
async def me(session: AccountDep, accounts: AccountsDep) -> AccountInfo:
    return _info(accounts, session.username, session.token)


@router.post("/api/account/logout", summary="Log out (this session)", responses=ERRORS)
async def logout(
    session: AccountDep, request: Request, response: Response, accounts: AccountsDep, db: DbDep
) -> dict[str, Any]:
    await db.call(db.store.accounts.drop_session, session_hash(session.token))
    _set_cookies(request, response, accounts, None)
    return {"logged_out": 1}


@router.post(
    "/api/account/logout-everywhere",
    summary="Log out every session of the account, on every device",
    responses=ERRORS,
)
async def logout_everywhere(
    session: AccountDep, request: Request, response: Response, accounts: AccountsDep, db: DbDep
) -> dict[str, Any]:
    ended = await db.call(db.store.accounts.drop_sessions, session.id, None)
    _set_cookies(request, response, accounts, None)
    return {"logged_out": ended}


@router.post(
    "/api/account/password",
    summary="Change the password (every other session is logged out)",
    responses=ERRORS,
)
async def change_password(
    body: PasswordChange, session: AccountDep, accounts: AccountsDep
) -> dict[str, Any]:
    await accounts.change_password(session.id, body.current, body.new, session.token)
    return {"changed": True}


@router.post(
    "/api/account/delete",
    summary="Delete the account: the games stay, its name in them becomes 'deleted player'",
    responses=ERRORS,
)
async def delete_account(
    body: Confirm,
    session: AccountDep,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    db: DbDep,
) -> dict[str, Any]:
    found = await db.call(db.store.accounts.account_by_id, session.id)
    if found is None:
        raise TableError("log in first", 401, "login_required")
    await accounts.check_own_password(found, body.password)
    await db.call(db.store.accounts.delete_account, session.id)
    _set_cookies(request, response, accounts, None)
    return {"deleted": True}


@router.post(
    "/api/account/claim",
    summary="Make the seats this browser played as a guest the account's (by their tokens)",
    responses=ERRORS,
)
async def claim(body: Claim, session: AccountDep, db: DbDep) -> dict[str, Any]:
    return {"claimed": await _claim(db, session.id, body.seats)}
