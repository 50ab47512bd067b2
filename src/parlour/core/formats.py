"""How games add up to a match, as data: a rubber, an elimination, a series of rounds.

A game names its usual format (`Game.match_format`); `Match` plays one. This module sits below the
protocol so that a game can name a format without the protocol importing the match machinery.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import RulesError

__all__ = ["MAX_GAMES", "MAX_POINTS", "MatchFormat"]

#: The longest match of a fixed number of games (a long rubber is 10), and the highest elimination
#: score (the English game's is 100): bounds, so that no table can run on without end.
MAX_GAMES = 100
MAX_POINTS = 1000


@dataclass(frozen=True)
class MatchFormat:
    """How games add up to a match.

    `games`: a fixed number of games (a Storey short rubber is 5). `eliminate_at`: a player whose
    total reaches it leaves (English rules, 100) and the match ends with one player left.
    `kitty`: the highest score of each game pays a counter into the pool, which the match winner
    takes (seed 000). `lower_wins`: totals count against (Whot!) or for (Who's Who, Sorry! points).
    `rotate`: the deal passes left after each game; otherwise `winner_starts` (Sorry!, seed 003:
    "The winner of one game goes first in the next").
    """

    name: str
    games: int | None = 1
    eliminate_at: int | None = None
    kitty: bool = False
    lower_wins: bool = True
    dealer_by_cut: bool = False
    rotate: bool = True
    winner_starts: bool = False

    @staticmethod
    def parse(text: str, *, lower_wins: bool = True, dealer_by_cut: bool = False) -> MatchFormat:
        """`single`, `rounds-N`, `rubber-5`/`rubber-10` (with kitty), `elimination-N`."""
        t = text.strip().lower()
        if t in ("single", "1", "game"):
            return MatchFormat("single", 1, lower_wins=lower_wins, dealer_by_cut=dealer_by_cut)
        m = re.fullmatch(r"(rounds|rubber|elimination|series)-(\d+)", t)
        if not m or int(m.group(2)) < 1:
            raise RulesError(
                f"match format {text!r} is not one of: single, rounds-N, series-N, rubber-5, "
                "rubber-10, elimination-N"
            )
        kind, n = m.group(1), int(m.group(2))
        most = MAX_POINTS if kind == "elimination" else MAX_GAMES
        if n > most:
            what = "points" if kind == "elimination" else "games"
            raise RulesError(f"match format {text!r}: at most {most} {what}")
        if kind == "elimination":
            return MatchFormat(
                t, None, eliminate_at=n, lower_wins=True, dealer_by_cut=dealer_by_cut
            )
        return MatchFormat(
            t, n, kitty=kind == "rubber", lower_wins=lower_wins, dealer_by_cut=dealer_by_cut
        )
