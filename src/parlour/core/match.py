"""Multi-game play: a rubber, an elimination, a series of rounds — with its own scoreboard.

The format is data (`MatchFormat`); the game supplies it (`Game.match_format`) and says how to
make a player the dealer or first player (`Game.setup_for`). Match seats keep their numbers for
the whole match even when eliminated players leave and the game is rebuilt for fewer players.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError
from .protocol import Game, Result, State
from .rng import GameRng, fresh_seed

__all__ = ["GameSummary", "Match", "MatchFormat"]


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
        if kind == "elimination":
            return MatchFormat(
                t, None, eliminate_at=n, lower_wins=True, dealer_by_cut=dealer_by_cut
            )
        return MatchFormat(
            t, n, kitty=kind == "rubber", lower_wins=lower_wins, dealer_by_cut=dealer_by_cut
        )


@dataclass
class GameSummary:
    seats: list[int]  # match seat of each player index in that game
    starter: int  # match seat that dealt or went first
    seed: int
    result: Result
    record: dict[str, Any]
    points: dict[int, int] = field(default_factory=dict)  # match seat -> points this game


class Match:
    """A sequence of games between the same people, with totals, a kitty and eliminations."""

    def __init__(
        self,
        game: Game[Any],
        format: MatchFormat | str | None = None,
        *,
        seed: int | None = None,
        names: list[str] | None = None,
    ) -> None:
        self.base = game
        if isinstance(format, str) or format is None:
            format = game.match_format(format)
        self.format = format
        self.seed = fresh_seed() if seed is None else seed
        self.rng = GameRng(self.seed)
        n = game.players
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise RulesError(f"{n} players need {n} names, not {len(self.names)}")
        self.active: list[int] = list(range(n))
        self.totals = [0] * n
        self.kitty = [0] * n  # counters each seat has paid into the pool
        self.games: list[GameSummary] = []
        self.eliminated: list[int] = []
        self.notes: list[str] = []
        if format.dealer_by_cut:
            self.starter, how = game.cut_for_dealer(self.rng)
            self.notes.append(how)
        else:
            self.starter = 0
        self.current: State | None = None
        self._seats: list[int] = []

    # --- playing ---------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        f = self.format
        if len(self.active) <= 1:
            return True
        return f.games is not None and len(self.games) >= f.games

    def next_game(self) -> State:
        """Start the next game of the match (the previous one must be finished)."""
        if self.current is not None and not self.current.is_over:
            raise RulesError("the current game is not finished")
        if self.current is not None and len(self.games) < self._started:
            self.finish_game(self.current)
        if self.is_over:
            raise RulesError("the match is over")
        seats = list(self.active)
        game = self.base if len(seats) == self.base.players else self.base.with_players(len(seats))
        while self.starter not in seats:  # the starter left: the deal passes on
            self.starter = (self.starter + 1) % self.base.players
        local = seats.index(self.starter)
        seed = self.rng.getrandbits(63)
        self.current = game.new_game(seed, **game.setup_for(local))
        self._seats = seats
        return self.current

    @property
    def _started(self) -> int:
        return len(self.games) + (1 if self.current is not None else 0)

    @property
    def seats(self) -> list[int]:
        """Match seat of each player index in the current game."""
        return list(self._seats)

    def finish_game(self, state: State | None = None) -> GameSummary:
        """Score the finished current game into the match."""
        state = state or self.current
        if state is None or state is not self.current:
            raise RulesError("no game of this match to finish")
        if not state.is_over:
            raise RulesError("the game is not over yet")
        res = state.result()
        seats = self._seats
        points = {seats[i]: res.points[i] for i in range(len(seats))}
        for seat, p in points.items():
            self.totals[seat] += p
        if self.format.kitty:
            worst = max(points.values()) if res.lower_is_better else min(points.values())
            for seat, p in points.items():
                if p == worst:
                    self.kitty[seat] += 1
        summary = GameSummary(
            seats=list(seats),
            starter=self.starter,
            seed=state.seed,
            result=res,
            record=state.record().to_dict(),
            points=points,
        )
        self.games.append(summary)
        self.current = None
        if self.format.eliminate_at is not None:
            for seat in list(self.active):
                if self.totals[seat] >= self.format.eliminate_at:
                    self.active.remove(seat)
                    self.eliminated.append(seat)
            if not self.active:  # everyone crossed together: the lowest total stays in
                best = min(points, key=lambda s: self.totals[s])
                self.active.append(best)
                self.eliminated.remove(best)
        if self.format.winner_starts and res.winners:
            self.starter = seats[res.winners[0]]
        elif self.format.rotate:
            n = self.base.players
            self.starter = (self.starter + 1) % n
        return summary

    # --- the scoreboard ----------------------------------------------------------------------
    def winners(self) -> list[int]:
        """Match seats that won (ties share); empty while the match goes on."""
        if not self.is_over:
            return []
        pool = self.active if self.format.eliminate_at is not None else list(range(len(self.names)))
        if self.format.eliminate_at is not None and len(pool) == 1:
            return pool
        best = (min if self.format.lower_wins else max)(self.totals[s] for s in pool)
        return [s for s in pool if self.totals[s] == best]

    def scoreboard(self) -> dict[str, Any]:
        """Per seat: name, points in each game (None when not playing), total, kitty, status."""
        rows = []
        for seat, name in enumerate(self.names):
            per_game = [g.points.get(seat) for g in self.games]
            rows.append(
                {
                    "seat": seat,
                    "name": name,
                    "games": per_game,
                    "total": self.totals[seat],
                    "kitty_paid": self.kitty[seat],
                    "out": seat in self.eliminated,
                }
            )
        return {
            "format": self.format.name,
            "games_played": len(self.games),
            "games_total": self.format.games,
            "lower_wins": self.format.lower_wins,
            "pool": sum(self.kitty),
            "rows": rows,
            "winners": self.winners(),
            "over": self.is_over,
        }
