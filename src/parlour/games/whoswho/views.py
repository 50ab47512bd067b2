"""What a view of each Who's Who game holds beyond the envelope (docs/protocol.md, "Who's Who"):
types for readers and mypy; at run time a view is the plain dict the state's `view` builds."""

from __future__ import annotations

from typing import Any

from parlour.core import View

__all__ = ["BooksView", "TricksView"]


class TricksView(View, total=False):
    """Game No. 1 (`whoswho-tricks`)."""

    phase: str  # prefer, play or over
    deal: int
    deals: int
    deals_done: int
    dealer: int
    namer: int
    preference: str | None
    leader: int
    trick: list[list[Any]]  # [player, card]
    tricks: list[dict[str, Any]]
    won: list[int]
    scores: list[int]
    deal_log: list[dict[str, Any]]
    teams: list[list[int]] | None
    team_scores: list[int] | None
    stock_count: int
    hand: list[str]
    result: dict[str, Any]


class BooksView(View, total=False):
    """Game No. 2 (`whoswho-books`)."""

    dealer: int
    books: list[list[int]]
    book_counts: list[int]
    pending: dict[str, Any] | None
    holders: dict[str, list[int]]
    known: list[list[str]]
    log: list[dict[str, Any]]
    hand: list[str]
    result: dict[str, Any]
