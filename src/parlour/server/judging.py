"""What a review analysis's pool process runs (server/review.py): one decision of a record judged,
JSON in and out. A module of its own that imports `parlour.review` and nothing of the web server,
since a spawned pool process imports the module of the function it runs."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from parlour.core import Record
from parlour.review import Budget, DecisionPoint, Marks, decision_points, judge_point

__all__ = ["judge_decision"]


@lru_cache(maxsize=8)
def _points(text: str, seat: int) -> tuple[Any, list[DecisionPoint]]:
    game, points, _, _ = decision_points(Record.from_json(text), seat)
    return game, points


def judge_decision(
    text: str, seat: int, index: int, budget: dict[str, Any], seed: int
) -> dict[str, Any]:
    """Decision `index` of `seat` in the record `text`, judged as `analyse` judges it (the game is
    replayed once per record and kept for its next decisions)."""
    game, points = _points(text, seat)
    decision = judge_point(
        game, points[index], budget=Budget.from_dict(budget), marks=Marks(), seed=seed
    )
    return decision.to_dict()
