"""Summaries of simulated games: win rates with 95% Wilson intervals, points, lengths, first player.

A win shared by several winners counts as a share (1/k to each), so win rates over all seats add up
to 1 and a bot's "fair share" is 1/players.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PairedRate", "Rate", "Summary", "paired_rate", "summarize", "wilson"]

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    """A win rate: wins (shares) out of trials, with its 95% interval."""

    label: str
    wins: float
    trials: int
    points: float  # mean points, the game's own (against or for the player, as its Result says)

    @property
    def rate(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.trials)

    def beats(self, share: float) -> bool:
        """Wins more than `share`, with the whole interval above it."""
        return self.interval[0] > share

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "label": self.label,
            "wins": self.wins,
            "trials": self.trials,
            "rate": self.rate,
            "low": lo,
            "high": hi,
            "points": self.points,
        }


@dataclass(frozen=True)
class PairedRate:
    """A score over duplicate deals (`SimSpec(duplicate=True)`): each deal's games averaged into
    one figure, and the mean over deals with its 95% interval from their spread (the paired
    design: the deal's luck, shared by its games, drops out of the comparison)."""

    label: str
    deals: int
    games: int
    rate: float
    sd: float  # the spread of the deals' scores

    @property
    def interval(self) -> tuple[float, float]:
        if self.deals < 2:
            return (0.0, 1.0)
        half = Z95 * self.sd / math.sqrt(self.deals)
        return (max(0.0, self.rate - half), min(1.0, self.rate + half))

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "label": self.label,
            "deals": self.deals,
            "games": self.games,
            "rate": self.rate,
            "low": lo,
            "high": hi,
        }


def paired_rate(
    rows: Sequence[dict[str, Any]], players: int, score: Any, label: str = ""
) -> PairedRate:
    """Score rows of a duplicate run by deal: `score(row)` gives a game's figure (0..1); the games
    of a deal are those numbered `d * players` to `d * players + players - 1` dealt from the same
    seed (rows of runs on other master seeds are other deals). Only complete deals count."""
    by_deal: dict[tuple[Any, int], list[float]] = defaultdict(list)
    for r in rows:
        by_deal[(r.get("seed"), int(r["game"]) // players)].append(float(score(r)))
    means = [sum(v) / len(v) for v in by_deal.values() if len(v) == players]
    if not means:
        return PairedRate(label, 0, 0, 0.0, 0.0)
    mean = sum(means) / len(means)
    sd = statistics.stdev(means) if len(means) > 1 else 0.0
    return PairedRate(label, len(means), len(means) * players, mean, sd)


@dataclass(frozen=True)
class Summary:
    games: int
    players: int
    by_seat: tuple[Rate, ...]
    by_bot: tuple[Rate, ...]
    first_player: Rate
    length_mean: float
    length_median: float
    length_p95: float
    lengths: tuple[int, ...]
    cut_short: int = 0  # games stopped at the run's move cap: no winner, a tie (SimSpec)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "by_seat": [r.to_dict() for r in self.by_seat],
            "by_bot": [r.to_dict() for r in self.by_bot],
            "first_player": self.first_player.to_dict(),
            "length": {
                "mean": self.length_mean,
                "median": self.length_median,
                "p95": self.length_p95,
            },
            "cut_short": self.cut_short,
        }


def _p95(xs: Sequence[int]) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    k = 0.95 * (len(s) - 1)
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summarize(rows: Sequence[dict[str, Any]], players: int) -> Summary:
    n = players
    seat_wins = [0.0] * n
    seat_points = [0.0] * n
    bot_wins: dict[str, float] = defaultdict(float)
    bot_trials: dict[str, int] = defaultdict(int)
    bot_points: dict[str, float] = defaultdict(float)
    first_wins = 0.0
    first_trials = 0
    first_points = 0.0
    lengths: list[int] = []
    for r in rows:
        winners = r["winners"]
        share = 1.0 / len(winners) if winners else 0.0
        bots = r["bots"]
        for s in range(n):
            won = share if s in winners else 0.0
            seat_wins[s] += won
            seat_points[s] += r["points"][s]
            bot_wins[bots[s]] += won
            bot_trials[bots[s]] += 1
            bot_points[bots[s]] += r["points"][s]
        f = r.get("first")
        if f is not None:
            first_trials += 1
            first_wins += share if f in winners else 0.0
            first_points += r["points"][f]
        lengths.append(int(r["moves"]))
    g = len(rows)
    by_seat = tuple(
        Rate(f"seat {s}", seat_wins[s], g, seat_points[s] / g if g else 0.0) for s in range(n)
    )
    by_bot = tuple(
        Rate(b, bot_wins[b], bot_trials[b], bot_points[b] / bot_trials[b])
        for b in sorted(bot_trials, key=lambda b: -bot_wins[b] / bot_trials[b])
    )
    first = Rate(
        "first player", first_wins, first_trials, first_points / first_trials if first_trials else 0
    )
    return Summary(
        games=g,
        players=n,
        by_seat=by_seat,
        by_bot=by_bot,
        first_player=first,
        length_mean=statistics.fmean(lengths) if lengths else 0.0,
        length_median=float(statistics.median(lengths)) if lengths else 0.0,
        length_p95=_p95(lengths),
        lengths=tuple(lengths),
        cut_short=sum(1 for r in rows if not r.get("finished", True)),
    )
