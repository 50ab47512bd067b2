"""The simulator: many games between bots, in local processes or on Ray; stats, ratings, plots."""

from .simulate import RunResult, SimSpec, game_seed, play_game, run
from .stats import Rate, Summary, summarize, wilson

__all__ = [
    "Rate",
    "RunResult",
    "SimSpec",
    "Summary",
    "game_seed",
    "play_game",
    "run",
    "summarize",
    "wilson",
]
