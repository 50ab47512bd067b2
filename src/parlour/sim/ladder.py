"""The bot ladder's schedule and scores (benchmarks/ladder.py runs it).

**Schedule.** Bots are listed weakest first (as far as is known); each plays the `reach` bots after
it (0: every other bot), so the games go where the results are in doubt — neighbours — rather than
to the hundredth win of the strongest bot over the weakest. A pairing is a run of games of its two
bots alone, seated in turn round the table (`a b a b`) and turned one seat each game (the
simulator's rotation): each bot sits every seat equally often, and at a table of four each has the
other on both sides, so neither gains from who plays before or after it. Every pairing plays the
same deals (the same master seed): game `i` of one pairing is dealt like game `i` of any other.

**Scores.** A pairing's head-to-head rate is the share of its games in which the first bot
finished ahead of the second — its best-placed seat against the other's best-placed seat, which
is whose side won — a tie counting half; with its 95% Wilson interval. Ratings are openskill's
Plackett–Luce from all the games of a table (`parlour.sim.ratings`), with the interval mu ± 1.96
sigma: the model's own uncertainty about the rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import RulesError

from .ratings import rate_games
from .stats import Z95, Rate

__all__ = ["LadderRating", "head_to_head", "ladder_ratings", "lineup", "pairings"]


def pairings(
    bots: Sequence[str], reach: int = 0, also: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """Each bot with the `reach` bots listed after it (0: with every bot after it), then the pairs
    of `also` not among those (each as listed: weaker first); no pair twice."""
    out: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()

    def add(a: str, b: str) -> None:
        key = frozenset((a, b))
        if a != b and key not in seen:
            seen.add(key)
            out.append((a, b))

    for i, a in enumerate(bots):
        stop = len(bots) if reach <= 0 else min(len(bots), i + 1 + reach)
        for b in bots[i + 1 : stop]:
            add(a, b)
    for a, b in also:
        add(a, b)
    return out


def lineup(a: str, b: str, players: int) -> tuple[str, ...]:
    """`a` and `b` in turn round a table of `players` (`a b a b`)."""
    if players % 2:
        # a b a: one bot would hold two seats in three however the table turns
        raise RulesError(f"a pairing needs an even table, not {players} seats")
    return tuple(a if s % 2 == 0 else b for s in range(players))


def _best_ranks(row: dict[str, Any]) -> dict[str, int]:
    best: dict[str, int] = {}
    for seat, bot in enumerate(row["bots"]):
        rank = int(row["ranks"][seat])
        best[bot] = min(best.get(bot, rank), rank)
    return best


def head_to_head(rows: Iterable[dict[str, Any]], a: str, b: str) -> Rate:
    """How often `a` finished ahead of `b` in the games both played (a tie: half)."""
    wins = 0.0
    games = 0
    for r in rows:
        best = _best_ranks(r)
        if a not in best or b not in best:
            continue
        games += 1
        wins += 1.0 if best[a] < best[b] else 0.5 if best[a] == best[b] else 0.0
    return Rate(f"{a} vs {b}", wins, games, 0.0)


@dataclass(frozen=True)
class LadderRating:
    """A bot's openskill rating on one table's games, with its 95% interval (mu ± 1.96 sigma)."""

    bot: str
    mu: float
    sigma: float
    games: int
    wins: float

    @property
    def low(self) -> float:
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z95 * self.sigma


def ladder_ratings(rows: Sequence[dict[str, Any]]) -> list[LadderRating]:
    """The bots of `rows`, strongest first (by mu)."""
    rated = [LadderRating(r.bot, r.mu, r.sigma, r.games, r.wins) for r in rate_games(rows)]
    return sorted(rated, key=lambda r: -r.mu)
