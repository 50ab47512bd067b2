"""Puzzles: positions people share, kept under their content's hash."""

from __future__ import annotations

import time

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..schema import (
    puzzles,
)
from .engine import Repository

__all__ = ["PuzzlesRepo"]


class PuzzlesRepo(Repository):
    """Shared puzzles (see the module doc)."""

    def save_puzzle(self, puzzle_id: str, game: str, text: str, uploaded: bool = False) -> None:
        """Keep a puzzle (once: its id is its content's hash). `uploaded`: from an uploaded file,
        pruned after the retention time; the same puzzle found in a stored game is kept."""
        try:
            with self.engine.begin() as conn:
                found = conn.execute(
                    select(puzzles.c.uploaded).where(puzzles.c.id == puzzle_id)
                ).first()
                if found is not None:
                    if found.uploaded and not uploaded:
                        conn.execute(
                            update(puzzles).where(puzzles.c.id == puzzle_id).values(uploaded=False)
                        )
                    return
                conn.execute(
                    insert(puzzles).values(
                        id=puzzle_id,
                        game=game,
                        created_at=time.time(),
                        puzzle=text,
                        uploaded=uploaded,
                    )
                )
        except IntegrityError:
            pass  # the same puzzle saved meanwhile: its id is its content's hash

    def prune_uploaded_puzzles(self, before: float) -> int:
        """Delete the puzzles of uploaded files saved before `before`."""
        with self.engine.begin() as conn:
            res = conn.execute(
                delete(puzzles).where(puzzles.c.uploaded.is_(True), puzzles.c.created_at < before)
            )
            return int(res.rowcount or 0)

    def load_puzzle(self, puzzle_id: str) -> str | None:
        with self.engine.connect() as conn:
            text = conn.execute(select(puzzles.c.puzzle).where(puzzles.c.id == puzzle_id)).scalar()
        return None if text is None else str(text)
