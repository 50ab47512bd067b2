"""openskill ratings from simulated games (Plackett–Luce; every seat is its own team)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = ["BotRating", "rate_games"]


@dataclass(frozen=True)
class BotRating:
    bot: str
    mu: float
    sigma: float
    games: int
    wins: float

    @property
    def ordinal(self) -> float:
        """A conservative skill: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def rate_games(rows: Sequence[dict[str, Any]]) -> list[BotRating]:
    """Rate the bots from finished games, in game order (so a run's ratings are reproducible).

    A bot named in several seats of one game (`random,random`) is rated once, at its best rank.
    """
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    for r in sorted(rows, key=lambda r: int(r["game"])):
        best: dict[str, int] = {}
        for seat, bot in enumerate(r["bots"]):
            rank = int(r["ranks"][seat])
            best[bot] = min(best.get(bot, rank), rank)
        share = 1.0 / len(r["winners"]) if r["winners"] else 0.0
        for seat, bot in enumerate(r["bots"]):
            if seat in r["winners"]:
                wins[bot] = wins.get(bot, 0.0) + share
        names = list(best)
        for b in names:
            if b not in ratings:
                ratings[b] = model.rating(name=b)
            games[b] = games.get(b, 0) + 1
        if len(names) < 2:
            continue
        teams = [[ratings[b]] for b in names]
        new = model.rate(teams, ranks=[best[b] for b in names])
        for b, team in zip(names, new, strict=True):
            ratings[b] = team[0]
    out = [
        BotRating(b, float(r.mu), float(r.sigma), games[b], wins.get(b, 0.0))
        for b, r in ratings.items()
    ]
    return sorted(out, key=lambda x: -x.ordinal)
