"""Chat lines reported by the people at a table, kept for a moderator (`parlour admin reports`).

Chat is not stored (server/chat.py), so a report keeps the line as it was said, with who said it
and who reported it (their seat, name and account, and the keyed hash of the reporter's address:
a flood of reports from one place shows). One report a line per reporting seat: reporting again
changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from ..schema import chat_reports
from .engine import Repository

__all__ = ["ReportsRepo"]


class ReportsRepo(Repository):
    """Reports of chat lines (see the module doc)."""

    def add_report(
        self,
        code: str,
        line: dict[str, Any],
        line_account: int | None,
        reporter_seat: int,
        reporter_name: str,
        reporter_account: int | None,
        reporter_client: str,
        reason: str | None,
    ) -> bool:
        """Keep a report; False when this seat reported this line already."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(chat_reports).values(
                        created_at=time.time(),
                        table_code=code,
                        line_id=str(line["id"]),
                        line_seat=int(line["seat"]),
                        line_name=str(line["name"])[:64],
                        line_account_id=line_account,
                        line_text=str(line["text"])[:400],
                        line_at=float(line.get("at") or 0.0),
                        reporter_seat=reporter_seat,
                        reporter_name=reporter_name[:64],
                        reporter_account_id=reporter_account,
                        reporter_client=reporter_client,
                        reason=reason,
                    )
                )
        except IntegrityError:
            return False
        return True

    def reports(self, limit: int = 50, include_removed: bool = False) -> list[dict[str, Any]]:
        """The newest reports first (those of lines not yet removed, unless asked)."""
        newest = (chat_reports.c.created_at.desc(), chat_reports.c.id.desc())
        q = select(chat_reports).order_by(*newest)
        if not include_removed:
            q = q.where(chat_reports.c.removed_at.is_(None))
        with self.engine.connect() as conn:
            rows = conn.execute(q.limit(limit)).all()
        return [dict(r._mapping) for r in rows]

    def mark_removed(self, code: str, line_id: str) -> int:
        """The line was removed by a moderator: its reports say so. How many reports it had."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(chat_reports)
                .where(
                    chat_reports.c.table_code == code,
                    chat_reports.c.line_id == line_id,
                    chat_reports.c.removed_at.is_(None),
                )
                .values(removed_at=time.time())
            )
            return int(res.rowcount or 0)
