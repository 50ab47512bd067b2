"""Ratings of players — accounts and bot kinds — per game and rule preset, from rated games.

openskill's Plackett-Luce model: it rates a game of any number of players from their ranks in one
step (ties allowed), as tables of two to eight players need — Elo and Glicko rate pairs
of players, TrueSkill's multiplayer model is patented; openskill is open, Bayesian (a mean `mu`
and an uncertainty `sigma`, so a newcomer moves fast and settles), and already rates the bots of
`parlour simulate`'s tournaments (`sim/ratings.py`). A leaderboard orders players by the
conservative `ordinal` = mu - 3 sigma.

People are shown a familiar number computed from the same model (`shown`): 1500 + 42 (mu - 25),
a newcomer's 1500 with the model's starting uncertainty (25/3) as Glicko's 350 points, never
below 0, and marked provisional ("?") while sigma is above 6 — about the first ten games of two
players. Leaderboards for people list the settled players by that number, then the provisional
ones (`for_people`); mu, sigma and the ordinal stay in the details.

A player is `a:<account id>` or `bot:<kind>` (the bot spec's kind: `hint`, `ismcts`, `random`, …,
its parameters left out). A bot kind in several seats of one game is rated once, at its best
rank (as `sim/ratings.py` does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = [
    "MODEL",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "Rating",
    "bot_player",
    "for_people",
    "ordinal",
    "player_of_seat",
    "points",
    "rate",
    "shown",
]

MODEL = PlackettLuce()

# The number people see: a newcomer (mu 25, sigma 25/3) is 1500 with 350 points of uncertainty, as
# in Glicko; each unit of mu is 42 points.
BASE, SCALE = 1500, 42.0
#: Above this sigma a rating is provisional ("?"): about ten games of two players from the start.
PROVISIONAL_SIGMA = 6.0


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """A conservative skill: mu - 3 sigma."""
    return mu - 3 * sigma


def fresh() -> Rating:
    r = MODEL.rating()
    return Rating(float(r.mu), float(r.sigma))


def bot_player(spec: str) -> str:
    return "bot:" + spec.split(":")[0]


def player_of_seat(account_id: int | None, bot: str | None) -> str | None:
    """The rated player of a seat: its account, else its bot's kind (None: a guest)."""
    if account_id is not None:
        return f"a:{account_id}"
    if bot is not None:
        return bot_player(bot)
    return None


def rate(before: dict[str, Rating], ranks: dict[str, int]) -> dict[str, Rating]:
    """New ratings of the players of one game from their ratings before it and their ranks (1 for
    the best, ties sharing one). Fewer than two players: nothing changes."""
    names = list(ranks)
    if len(names) < 2:
        return {n: before[n] for n in names}
    teams = [[MODEL.rating(mu=before[n].mu, sigma=before[n].sigma, name=n)] for n in names]
    new = MODEL.rate(teams, ranks=[ranks[n] for n in names])
    return {n: Rating(float(t[0].mu), float(t[0].sigma)) for n, t in zip(names, new, strict=True)}


def points(mu: float) -> int:
    """A skill `mu` as the number people see: 1500 for a newcomer's 25, never negative."""
    return max(0, round(BASE + SCALE * (mu - float(MODEL.mu))))


def shown(mu: float, sigma: float) -> tuple[int, bool]:
    """The rating people see for (mu, sigma), and whether it is provisional: 1500 for a newcomer,
    never negative."""
    return points(mu), sigma > PROVISIONAL_SIGMA


def for_people(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Leaderboard rows (each with mu and sigma) with the number people see (`rating`,
    `provisional`), the settled players first by rating, then the provisional ones, ranked from
    1 in that order."""
    for row in rows:
        row["rating"], row["provisional"] = shown(row["mu"], row["sigma"])
    rows = sorted(rows, key=lambda r: (r["provisional"], -r["rating"], -r["ordinal"], r["name"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows
