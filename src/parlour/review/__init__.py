"""Game review: a finished game judged decision by decision from one seat's view, and puzzles
from the clear ones (docs/review.md).

    from parlour.review import analyse, Budget
    a = analyse(record, seat=0, budget=Budget(iterations=1000), seed=0)
    a.decisions[3].played, a.decisions[3].best.move, a.decisions[3].loss, a.decisions[3].mark
    a.to_dict()                            # JSON, versioned, with the record's hash
    find_puzzles(a, record)                # the clear choices, as positions from the seat's view

It knows no game by name: it reaches every game through the protocol and the search bot.
"""

from .analysis import (
    ANALYSIS_FORMAT,
    MARKS,
    Analysis,
    Budget,
    Decision,
    DecisionPoint,
    Marks,
    MoveEstimate,
    analyse,
    as_record,
    assemble,
    decision_points,
    judge,
    judge_point,
    record_hash,
)
from .puzzles import PUZZLE_FORMAT, PUZZLES_FORMAT, Puzzle, find_puzzles, puzzles_to_json

__all__ = [
    "ANALYSIS_FORMAT",
    "MARKS",
    "PUZZLES_FORMAT",
    "PUZZLE_FORMAT",
    "Analysis",
    "Budget",
    "Decision",
    "DecisionPoint",
    "Marks",
    "MoveEstimate",
    "Puzzle",
    "analyse",
    "as_record",
    "assemble",
    "decision_points",
    "find_puzzles",
    "judge",
    "judge_point",
    "puzzles_to_json",
    "record_hash",
]
