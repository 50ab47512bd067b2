"""Accounts and their log-in sessions, and the seats of a guest that their account claims."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..schema import (
    accounts,
    seats,
    sessions,
)
from .engine import Repository
from .ratings import forget_player

__all__ = ["DELETED_NAME", "AccountsRepo"]

DELETED_NAME = "deleted player"


class AccountsRepo(Repository):
    """Accounts and sessions (see the module doc)."""

    def create_account(
        self, username: str, key: str, password_hash: str, skeleton: str | None = None
    ) -> int | None:
        """A new account; None when its name is taken (by its key, or its confusable skeleton)."""
        try:
            with self.engine.begin() as conn:
                res = conn.execute(
                    insert(accounts).values(
                        username=username,
                        name_key=key,
                        name_skeleton=skeleton,
                        password_hash=password_hash,
                        created_at=time.time(),
                    )
                )
                pk = res.inserted_primary_key
                assert pk is not None
                return int(pk[0])
        except IntegrityError:
            return None

    def account_by_key(self, key: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(
                select(accounts).where(accounts.c.name_key == key, accounts.c.deleted_at.is_(None))
            ).first()
        return None if r is None else dict(r._mapping)

    def account_by_id(self, account_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(
                select(accounts).where(accounts.c.id == account_id, accounts.c.deleted_at.is_(None))
            ).first()
        return None if r is None else dict(r._mapping)

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def new_session(self, account_id: int, token_hash: str) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, account_id=account_id, created_at=now, last_seen=now
                )
            )

    def session_account(self, token_hash: str, since: float) -> dict[str, Any] | None:
        """The account of a session seen since `since` (an older one has expired and goes)."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(sessions.c.last_seen, accounts.c.id, accounts.c.username)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(
                    sessions.c.token_hash == token_hash,
                    accounts.c.deleted_at.is_(None),
                    accounts.c.suspended_at.is_(None),  # a suspended account's sessions are void
                )
            ).first()
        if r is None:
            return None
        now = time.time()
        if r.last_seen < since:
            self.drop_session(token_hash)
            return None
        if now - r.last_seen > 3600:  # kept fresh once an hour, not on every request
            with self.engine.begin() as conn:
                conn.execute(
                    update(sessions)
                    .where(sessions.c.token_hash == token_hash)
                    .values(last_seen=now)
                )
        return {"id": int(r.id), "username": str(r.username)}

    def drop_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    def prune_sessions(self, unused_since: float) -> int:
        """Delete the sessions not used since `unused_since` (expired): how many."""
        with self.engine.begin() as conn:
            res = conn.execute(delete(sessions).where(sessions.c.last_seen < unused_since))
            return int(res.rowcount or 0)

    def drop_sessions(self, account_id: int, keep: str | None = None) -> int:
        """End every session of an account (but `keep`, the one asking): how many ended."""
        with self.engine.begin() as conn:
            q = delete(sessions).where(sessions.c.account_id == account_id)
            if keep is not None:
                q = q.where(sessions.c.token_hash != keep)
            return int(conn.execute(q).rowcount or 0)

    def suspend(self, account_id: int, reason: str | None) -> int:
        """Suspend an account (a moderator's): it cannot log in, and every session of it ends.
        How many sessions ended."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(suspended_at=time.time(), suspended_reason=reason)
            )
            ended = conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            return int(ended.rowcount or 0)

    def unsuspend(self, account_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(suspended_at=None, suspended_reason=None)
            )

    def suspended(self, account_ids: list[int]) -> set[int]:
        """Which of these accounts are suspended."""
        if not account_ids:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.id).where(
                    accounts.c.id.in_(account_ids), accounts.c.suspended_at.is_not(None)
                )
            ).all()
        return {int(r.id) for r in rows}

    def delete_account(self, account_id: int) -> None:
        """Delete an account: its sessions and ratings go; its row stays nameless, and its name
        in every stored game becomes "deleted player" (the games stay whole)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            forget_player(conn, f"a:{account_id}")
            conn.execute(
                update(seats).where(seats.c.account_id == account_id).values(name=DELETED_NAME)
            )
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    username=DELETED_NAME,
                    name_key=f"#deleted-{account_id}",
                    name_skeleton=None,
                    password_hash="",
                    deleted_at=time.time(),
                )
            )

    def claim_seats(self, account_id: int, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """A guest's seats, by (table code, token hash) as the browser holds them, become the
        account's — only seats no account has, whose token is that one. No part of the game: a
        compare-and-set outside the owner's fence. Returns the seats claimed."""
        out = []
        with self.engine.begin() as conn:
            for code, token_hash in held:
                found = conn.execute(
                    select(seats.c.seat).where(
                        seats.c.table_code == code,
                        seats.c.token_hash == token_hash,
                        seats.c.account_id.is_(None),
                        seats.c.bot.is_(None),
                    )
                ).all()
                for r in found:
                    res = conn.execute(
                        update(seats)
                        .where(
                            seats.c.table_code == code,
                            seats.c.seat == r.seat,
                            seats.c.account_id.is_(None),
                        )
                        .values(account_id=account_id)
                    )
                    if res.rowcount == 1:
                        out.append({"table": code, "seat": int(r.seat)})
        return out
