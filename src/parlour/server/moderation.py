"""Moderation: what a server's moderators do (`parlour admin`, over `/api/admin/...` with the
`admin_token`), and the reports of chat lines that people at a table send them.

* **Close a table**: its owner closes it as a host would, saying a moderator did; a rated game
  closed so is not rated (nobody left it).
* **Suspend an account**: it cannot log in (`403 suspended`, said only to whoever gives its
  password), its sessions end, and its seats cannot act: every gateway closes their websockets
  (told on the bus's `moderation` channel) and refuses them at `hello` until the suspension is
  lifted (`unsuspend`). A guest's seat is nobody's account and is not touched: close the table.
* **Remove a chat line**: every replica and the table's owner forget it (`ChatRemoved` on the
  table's channel) and every screen takes it off (`chat_removed`). Chat is not stored, so only
  the recent lines a table keeps can be removed.
* **Reports**: anyone seated may report a line said by another seat (`POST
  /api/tables/{code}/chat/{line}/report` with the seat's token), `reports_per_minute` per
  client; the report keeps the line as it was said, the reporter's seat, name and account
  (storage/reports.py), for `parlour admin reports`.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from .accounts import name_key
from .bus import BusDown, tell
from .clients import RateMeter
from .database import Database
from .gateway import Gateway, Replica
from .messages import BusMessage, ChatRemoved, Close, Suspended
from .settings import Settings
from .tables import TableError
from .worker import table_channel

__all__ = ["CHANNEL", "MAX_REASON", "SUSPENDED_CLOSE", "Moderation"]

log = logging.getLogger("parlour.server")

CHANNEL = "moderation"  # the bus channel every gateway hears suspensions on
MAX_REASON = 200  # characters in a report's or a suspension's reason
SUSPENDED_CLOSE = 4403  # the websocket close code of a suspended account's seat


def clean_reason(raw: Any) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise TableError("a reason is text", 400, "malformed")
    text = " ".join(raw.split())
    if len(text) > MAX_REASON or any(not ch.isprintable() for ch in text):
        raise TableError(f"a reason is at most {MAX_REASON} printable characters", 400)
    return text or None


class Moderation:
    """The moderators' side of one gateway."""

    def __init__(self, db: Database, gateway: Gateway, settings: Settings) -> None:
        self.db = db
        self.gateway = gateway
        self.settings = settings
        per_minute = settings.reports_per_minute
        self.report_meter = RateMeter(per_minute, max(1, int(per_minute)))
        # suspensions heard on the channel: a seat attached while one was on its way is closed
        # when it is checked again after attaching (server/session.py)
        self.suspended: set[int] = set()

    async def start(self) -> None:
        await self.gateway.bus.subscribe(CHANNEL, self._on_message)

    async def stop(self) -> None:
        await self.gateway.bus.unsubscribe(CHANNEL, self._on_message)

    # --- who may ---------------------------------------------------------------------------------
    def check_token(self, authorization: str | None) -> None:
        """A moderator's request carries `Authorization: Bearer <admin_token>`."""
        token = self.settings.admin_token
        if not token:
            raise TableError(
                "moderation is off on this server: set its admin_token (docs/deploy.md, "
                "'Moderation')",
                403,
                "no_moderation",
            )
        sent = (
            (authorization or "")[7:].strip()
            if (authorization or "").lower().startswith("bearer ")
            else ""
        )
        if not hmac.compare_digest(sent.encode(), token.encode()):
            raise TableError("a moderator's token is needed for this", 403, "not_moderator")

    async def seat_suspended(self, rep: Replica, seat: int | None) -> bool:
        """Whether a seat is played by a suspended account (asked of the database)."""
        account = self._account(rep, seat)
        if account is None:
            return False
        found = await self.db.call(self.db.store.accounts.suspended, [account])
        if account not in found:
            self.suspended.discard(account)  # lifted (its news may have been lost)
        return account in found

    async def suspended_since_hello(self, rep: Replica, seat: int | None) -> bool:
        """After a seat's connection is attached: whether a suspension was heard meanwhile
        (then cut off by the channel's message before the connection was there to close)."""
        account = self._account(rep, seat)
        if account is None or account not in self.suspended:
            return False
        return await self.seat_suspended(rep, seat)

    @staticmethod
    def _account(rep: Replica, seat: int | None) -> int | None:
        if seat is None or not 0 <= seat < len(rep.table.seats):
            return None
        return rep.table.seats[seat].account_id

    # --- reports ---------------------------------------------------------------------------------
    async def report(self, rep: Replica, seat: int, line_id: str, reason: Any, client: str) -> bool:
        """Keep a seat's report of a chat line; False when it reported that line already."""
        why = clean_reason(reason)
        if not self.report_meter.take(client):
            raise TableError("too many reports from you: wait a minute", 429, "rate_limited")
        await self.gateway.recent_chat(rep)
        line = rep.chat.find(line_id)
        if line is None:
            raise TableError(
                "no such chat line here (a table keeps its last 50 lines)", 404, "no_line"
            )
        if line.get("seat") == seat:
            raise TableError("that line is yours", 400, "own_line")
        reporter = rep.table.seats[seat]
        stored = await self.db.call(
            self.db.store.reports.add_report,
            rep.code,
            line,
            self._account(rep, line.get("seat")),
            seat,
            reporter.name or f"seat {seat + 1}",
            reporter.account_id,
            client,
            why,
        )
        if stored:
            log.info("chat line %s at %s reported by seat %d", line_id, rep.code, seat)
        return bool(stored)

    async def reports(self, limit: int, include_removed: bool) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await self.db.call(
            self.db.store.reports.reports, limit, include_removed
        )
        return rows

    # --- a moderator's acts ----------------------------------------------------------------------
    async def recent_lines(self, code: str) -> list[dict[str, Any]]:
        rep = await self.gateway.replica(code, fresh=True)
        await self.gateway.recent_chat(rep)
        return list(rep.chat.lines)

    async def remove_line(self, code: str, line_id: str) -> int:
        """Remove a chat line from every screen: how many reports it had."""
        rep = await self.gateway.replica(code, fresh=True)
        await self.gateway.recent_chat(rep)
        if rep.chat.find(line_id) is None:
            raise TableError(
                "no such chat line at this table (a table keeps its last 50 lines)", 404, "no_line"
            )
        try:
            await self.gateway.bus.publish(table_channel(rep.code), ChatRemoved(rep.code, line_id))
        except BusDown:
            raise TableError(
                "the server's message bus is down: remove it again in a moment", 503, "busy"
            ) from None
        reported: int = await self.db.call(self.db.store.reports.mark_removed, rep.code, line_id)
        log.warning("a moderator removed chat line %s at %s", line_id, rep.code)
        return reported

    async def close_table(self, code: str) -> str:
        rep = await self.gateway.replica(code, fresh=True)
        if rep.table.status == "closed":
            return "closed already"
        await self.gateway.ask(rep.code, Close(moderator=True))
        log.warning("a moderator closed table %s", rep.code)
        return "closed"

    async def _account_named(self, username: str) -> dict[str, Any]:
        found: dict[str, Any] | None = await self.db.call(
            self.db.store.accounts.account_by_key, name_key(username.strip())
        )
        if found is None:
            raise TableError(f"no account is named {username!r}", 404, "no_account")
        return found

    async def suspend(self, username: str, reason: Any) -> dict[str, Any]:
        """Suspend an account: no log-in, its sessions ended, its seats cut off everywhere."""
        why = clean_reason(reason)
        found = await self._account_named(username)
        ended = await self.db.call(self.db.store.accounts.suspend, int(found["id"]), why)
        self.cut_off(int(found["id"]))  # here at once; the other gateways when the bus says
        told = await tell(self.gateway.bus, CHANNEL, Suspended(int(found["id"])))
        log.warning("a moderator suspended account %s (%s)", found["id"], why or "no reason")
        if not told:  # new connections are refused all the same (the database says so)
            log.warning("the bus is down: other gateways keep the account's open websockets")
        return {
            "account": found["username"],
            "suspended": True,
            "sessions_ended": ended,
            "every_gateway_told": told,
        }

    async def unsuspend(self, username: str) -> dict[str, Any]:
        found = await self._account_named(username)
        await self.db.call(self.db.store.accounts.unsuspend, int(found["id"]))
        self.suspended.discard(int(found["id"]))
        await tell(self.gateway.bus, CHANNEL, Suspended(int(found["id"]), lifted=True))
        log.warning("a moderator lifted the suspension of account %s", found["id"])
        return {"account": found["username"], "suspended": False}

    # --- the channel -----------------------------------------------------------------------------
    async def _on_message(self, channel: str, message: BusMessage) -> None:
        if isinstance(message, Suspended):
            if message.lifted:
                self.suspended.discard(message.account)
            else:
                self.cut_off(message.account)

    def cut_off(self, account: int) -> None:
        """Close every websocket of this gateway that acts for a seat of `account`."""
        self.suspended.add(account)
        for rep in list(self.gateway.replicas.values()):
            seats = {s.seat for s in rep.table.seats if s.account_id == account}
            for conn in list(rep.conns):
                if conn.seat in seats:
                    conn.close(SUSPENDED_CLOSE, "this account is suspended")
