"""Tournaments: their rows, entrants and every round's tables (server/tournament.py has the rules,
server/director.py moves them on)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..levels import seat_bot
from ..schema import (
    games,
    tables,
    tournament_entrants,
    tournament_tables,
    tournaments,
)
from .engine import Repository, Rollback
from .rows import TableRow
from .tables import insert_table

__all__ = ["TournamentsRepo"]


class TournamentsRepo(Repository):
    """Tournaments, entrants and rounds (see the module doc)."""

    def create_tournament(self, values: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tournaments).values(**values))

    def tournament_counts(self, creator: str | None) -> dict[str, int]:
        """Tournaments not finished: in all, and made by `creator`."""
        alive = tournaments.c.status.in_(("open", "running"))
        with self.engine.connect() as conn:
            q = select(func.count()).select_from(tournaments).where(alive)
            out = {"all": int(conn.execute(q).scalar_one())}
            if creator is not None:
                mine = q.where(tournaments.c.creator == creator)
                out["mine"] = int(conn.execute(mine).scalar_one())
        return out

    def add_entrant(
        self, tid: str, name: str, bot: str | None, token_hash: str | None
    ) -> tuple[int | None, str]:
        """An entrant joins an open tournament: (their number, "ok"), or (None, why not: "unknown",
        "closed", "full", "name")."""
        try:
            with self.engine.begin() as conn:
                t = conn.execute(
                    select(tournaments.c.status, tournaments.c.max_entrants).where(
                        tournaments.c.id == tid
                    )
                ).first()
                if t is None:
                    return None, "unknown"
                if t.status != "open":
                    return None, "closed"
                taken = conn.execute(
                    select(tournament_entrants.c.number, tournament_entrants.c.name).where(
                        tournament_entrants.c.tournament_id == tid
                    )
                ).all()
                if len(taken) >= t.max_entrants:
                    return None, "full"
                if any(r.name.casefold() == name.casefold() for r in taken):
                    return None, "name"
                number = max((r.number for r in taken), default=0) + 1
                conn.execute(
                    insert(tournament_entrants).values(
                        tournament_id=tid,
                        number=number,
                        name=name,
                        bot=bot,
                        token_hash=token_hash,
                        joined_at=time.time(),
                    )
                )
                return number, "ok"
        except IntegrityError:  # joined at the same moment as another: the caller may retry
            return None, "race"

    def start_tournament(self, tid: str, rounds_for: Any) -> str:
        try:
            return self._start_tournament(tid, rounds_for)
        except Rollback:
            return "started"

    def _start_tournament(self, tid: str, rounds_for: Any) -> str:
        """Open -> running: the empty places filled with the tournament's bot (if it has one), the
        number of Swiss rounds fixed (`rounds_for(entrants)`, unless set). Returns "ok", or why
        not: "unknown", "started", "few" (fewer than a table's worth)."""
        with self.engine.begin() as conn:
            t = conn.execute(select(tournaments).where(tournaments.c.id == tid)).first()
            if t is None:
                return "unknown"
            if t.status != "open":
                return "started"
            taken = conn.execute(
                select(tournament_entrants.c.number, tournament_entrants.c.name).where(
                    tournament_entrants.c.tournament_id == tid
                )
            ).all()
            number = max((r.number for r in taken), default=0)
            names = {r.name.casefold() for r in taken}
            bots = []
            if t.bot_fill:
                # a level's name plays the level's bot of today, kept by each entrant from here
                spec, kind = seat_bot(t.bot_fill, t.game)
                k = 0
                for _ in range(t.max_entrants - len(taken)):
                    k += 1
                    while f"{kind} bot {k}".casefold() in names:
                        k += 1
                    number += 1
                    bots.append(
                        {
                            "tournament_id": tid,
                            "number": number,
                            "name": f"{kind} bot {k}",
                            "bot": spec,
                            "joined_at": time.time(),
                        }
                    )
            count = len(taken) + len(bots)
            if count < (2 if t.format == "swiss" else 3):
                return "few"
            if bots:
                conn.execute(insert(tournament_entrants), bots)
            res = conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tid, tournaments.c.status == "open")
                .values(
                    status="running",
                    started_at=time.time(),
                    rounds=t.rounds or (rounds_for(count) if t.format == "swiss" else None),
                )
            )
            if res.rowcount != 1:
                raise Rollback  # started meanwhile by another request: nothing written
        return "ok"

    def running_tournaments(self, limit: int = 1000) -> list[str]:
        with self.engine.connect() as conn:
            q = (
                select(tournaments.c.id)
                .where(tournaments.c.status == "running")
                .order_by(tournaments.c.created_at)
                .limit(limit)
            )
            return list(conn.execute(q).scalars())

    def load_tournament(self, tid: str) -> dict[str, Any] | None:
        """A tournament whole: its row, entrants (by number), and every table of every round with
        the table's status and its game's id and result (the first game: tables play one)."""
        with self._snapshot() as conn:
            t = conn.execute(select(tournaments).where(tournaments.c.id == tid)).first()
            if t is None:
                return None
            entrants = [
                dict(r._mapping)
                for r in conn.execute(
                    select(tournament_entrants)
                    .where(tournament_entrants.c.tournament_id == tid)
                    .order_by(tournament_entrants.c.number)
                )
            ]
            first = (
                select(games.c.table_code, games.c.id, games.c.seats, games.c.result)
                .where(games.c.number == 0)
                .subquery()
            )
            q = (
                select(
                    tournament_tables.c.round,
                    tournament_tables.c.table_code,
                    tournament_tables.c.entrants,
                    tables.c.status,
                    first.c.id.label("game_id"),
                    first.c.seats,
                    first.c.result,
                )
                .select_from(
                    tournament_tables.outerjoin(
                        tables, tables.c.code == tournament_tables.c.table_code
                    ).outerjoin(first, first.c.table_code == tournament_tables.c.table_code)
                )
                .where(tournament_tables.c.tournament_id == tid)
                .order_by(tournament_tables.c.round, tournament_tables.c.id)
            )
            rounds = [dict(r._mapping) for r in conn.execute(q)]
        return {"tournament": dict(t._mapping), "entrants": entrants, "tables": rounds}

    def open_round(
        self,
        tid: str,
        expected: int,
        number: int,
        rows: list[tuple[TableRow, list[int]]],
        byes: list[int],
        owner: str,
    ) -> bool:
        """Round `number` in one transaction: a compare-and-set of the tournament's round from
        `expected` (so two workers never open it twice), its tables (owned by `owner`) and its
        byes. False: another worker moved the tournament on first (nothing was written)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tid,
                    tournaments.c.status == "running",
                    tournaments.c.round == expected,
                )
                .values(round=number)
            )
            if res.rowcount != 1:
                return False
            for row, _ in rows:
                insert_table(conn, row, owner)
            links = [
                {"tournament_id": tid, "round": number, "table_code": r.code, "entrants": e}
                for r, e in rows
            ] + [
                {"tournament_id": tid, "round": number, "table_code": None, "entrants": [n]}
                for n in byes
            ]
            if links:
                conn.execute(insert(tournament_tables), links)
        return True

    def finish_tournament(self, tid: str, expected: int, final: list[dict[str, Any]]) -> bool:
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tid,
                    tournaments.c.status == "running",
                    tournaments.c.round == expected,
                )
                .values(status="finished", finished_at=time.time(), standings=final)
            )
            return res.rowcount == 1

    def list_tournaments(self, limit: int = 50) -> list[dict[str, Any]]:
        """Tournaments, open ones first, then running, then the finished, newest first in each."""
        with self.engine.connect() as conn:
            counts = (
                select(tournament_entrants.c.tournament_id, func.count().label("entrants"))
                .group_by(tournament_entrants.c.tournament_id)
                .subquery()
            )
            out: list[dict[str, Any]] = []
            for status in ("open", "running", "finished"):
                q = (
                    select(tournaments, func.coalesce(counts.c.entrants, 0).label("count"))
                    .outerjoin(counts, counts.c.tournament_id == tournaments.c.id)
                    .where(tournaments.c.status == status)
                    .order_by(tournaments.c.created_at.desc())
                    .limit(limit)
                )
                out.extend(dict(r._mapping) for r in conn.execute(q))
        return out[:limit]
