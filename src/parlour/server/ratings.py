"""Ratings of players — accounts and bot kinds — per game and rule preset, from rated games.

openskill's Plackett-Luce model: it rates a game of any number of players from their ranks in one
step (ties allowed), as tables of two to eight players need — Elo and Glicko rate pairs
of players, TrueSkill's multiplayer model is patented; openskill is open, Bayesian (a mean `mu`
and an uncertainty `sigma`, so a newcomer moves fast and settles), and already rates the bots of
`parlour simulate`'s tournaments (`sim/ratings.py`). A leaderboard orders players by the
conservative `ordinal` = mu - 3 sigma.

A player is `a:<account id>` or `bot:<spec>`: a bot is rated as the whole spec it plays, and a
rated table seats only bots of the game's levels (`tables.plan_table`), so a level's bot is rated
under its level's spec, and a weakened search (`ismcts:iterations=1`) can never be rated as the
expert it is not.
(Ratings stored before bots were rated by level are `bot:<kind>` rows: kept, no longer moved.) A bot
in several seats of one game is rated once, at its best rank (as `sim/ratings.py` does).

Leaving a rated game loses it (docs/architecture.md, "Leaving a rated game"): a seat that a bot
took over from its person (idle, or out of time) keeps the person's account, and at the end that
person ranks last, below everyone who stayed; the bot standing in is not rated.

People are shown a familiar number computed from the same model (`shown`): 1500 + 42 (mu - 25),
a newcomer's 1500 with the model's starting uncertainty (25/3) as Glicko's 350 points, never
below 0, and marked provisional ("?") while sigma is above 6 — about the first ten games of two
players. Leaderboards for people list the settled players by that number, then the provisional
ones (`for_people`); mu, sigma and the ordinal stay in the details.
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
    "left_the_game",
    "ordinal",
    "player_of_seat",
    "points",
    "ranks_with_leavers",
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
    return "bot:" + spec.strip()


def player_of_seat(account_id: int | None, bot: str | None) -> str | None:
    """The rated player of a seat: its account (the person, or the person a bot stands in for),
    else its bot's spec (None: a guest)."""
    if account_id is not None:
        return f"a:{account_id}"
    if bot is not None:
        return bot_player(bot)
    return None


def left_the_game(account_id: int | None, bot: str | None) -> bool:
    """Whether a seat's person left it to a bot standing in (an account with a bot in its seat)."""
    return account_id is not None and bot is not None


def ranks_with_leavers(ranks: dict[str, int], left: set[str]) -> dict[str, int]:
    """The ranks to rate a game by when some players left it: those who stayed keep their order
    (`ranks`, 1 for the best; a game closed before its end has none, so all share 1), and those
    who left share the place below them all."""
    stayed = {p: r for p, r in ranks.items() if p not in left}
    # places among those who stayed, as a table of results counts them (1, 2, 2, 4)
    out = {p: 1 + sum(other < r for other in stayed.values()) for p, r in stayed.items()}
    out.update(dict.fromkeys(left, len(out) + 1))
    return out


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
