"""Puzzles: positions people share, kept under their content's hash."""

from __future__ import annotations

import time

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from ..schema import (
    puzzles,
)
from .engine import Repository

__all__ = ["PuzzlesRepo"]


class PuzzlesRepo(Repository):
    """Shared puzzles (see the module doc)."""

    def save_puzzle(self, puzzle_id: str, game: str, text: str) -> None:
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(puzzles.c.id).where(puzzles.c.id == puzzle_id)).first():
                    return
                conn.execute(
                    insert(puzzles).values(
                        id=puzzle_id, game=game, created_at=time.time(), puzzle=text
                    )
                )
        except IntegrityError:
            pass  # the same puzzle saved meanwhile: its id is its content's hash

    def load_puzzle(self, puzzle_id: str) -> str | None:
        with self.engine.connect() as conn:
            text = conn.execute(select(puzzles.c.puzzle).where(puzzles.c.id == puzzle_id)).scalar()
        return None if text is None else str(text)
