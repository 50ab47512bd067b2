"""Game review: a stored game as the review reads it, and the cached analyses of its
decisions."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from ..schema import (
    analyses,
    games,
    moves,
    tables,
)
from .engine import Repository
from .tables import TablesRepo, read_seats

__all__ = ["ReviewRepo"]


class ReviewRepo(Repository):
    """Stored games for review and their analyses (see the module doc)."""

    def __init__(self, engine: Engine, tables: TablesRepo) -> None:
        super().__init__(engine)
        self.tables = tables  # a finished game's record is the tables' to read

    def review_header(self, game_id: int) -> dict[str, Any] | None:
        """What a review asks of a stored game before its record (None: no such game): its
        players' names, whether it is finished, and how many moves it has."""
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games.c.table_code, games.c.seats, games.c.finished_at).where(
                    games.c.id == game_id
                )
            ).first()
            if g is None:
                return None
            names = {s.seat: s.name for s in read_seats(conn, g.table_code)}
            plies = conn.execute(
                select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
            ).scalar()
        return {
            "names": [names.get(s) for s in g.seats],
            "finished": g.finished_at is not None,
            "plies": int(plies or 0),
        }

    def review_game(self, game_id: int) -> dict[str, Any] | None:
        """A stored game as the review sees it (None: no such game): its table, number, players'
        names, whether it is finished, and its record only when it is — an unfinished game's seed
        decides every hidden card, so its record is never given out."""
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games, tables.c.game, tables.c.preset)
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.id == game_id)
            ).first()
            if g is None:
                return None
            names = {s.seat: s.name for s in read_seats(conn, g.table_code)}
        out: dict[str, Any] = {
            "id": g.id,
            "table": g.table_code,
            "number": g.number,
            "preset": g.preset,
            "names": [names.get(s) for s in g.seats],
            "finished": g.finished_at is not None,
            "record": None,
        }
        if out["finished"]:
            out["record"] = self.tables.finished_record(game_id)
        return out

    def load_analysis(self, record_hash: str, seat: int, budget: str) -> str | None:
        """A cached analysis's JSON text, if the record was analysed for this seat and budget."""
        with self.engine.connect() as conn:
            text = conn.execute(
                select(analyses.c.analysis).where(
                    analyses.c.record_hash == record_hash,
                    analyses.c.seat == seat,
                    analyses.c.budget == budget,
                )
            ).scalar()
        return None if text is None else str(text)

    def save_analysis(
        self, record_hash: str, seat: int, budget: str, game_id: int | None, text: str
    ) -> None:
        """Cache an analysis (a second one of the same record, seat and budget is not kept)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(analyses).values(
                        record_hash=record_hash,
                        seat=seat,
                        budget=budget,
                        game_id=game_id,
                        created_at=time.time(),
                        analysis=text,
                    )
                )
        except IntegrityError:
            pass  # analysed meanwhile by another request: the first one stays

    def analysed_seats(self, record_hash: str, budget: str) -> list[int]:
        """The seats of a record with a cached analysis at this budget."""
        with self.engine.connect() as conn:
            return sorted(
                conn.execute(
                    select(analyses.c.seat).where(
                        analyses.c.record_hash == record_hash, analyses.c.budget == budget
                    )
                ).scalars()
            )

    def prune_uploaded_analyses(self, before: float) -> int:
        """Delete the cached analyses of uploaded records (no stored game) made before `before`."""
        with self.engine.begin() as conn:
            res = conn.execute(
                delete(analyses).where(analyses.c.game_id.is_(None), analyses.c.created_at < before)
            )
            return int(res.rowcount or 0)
