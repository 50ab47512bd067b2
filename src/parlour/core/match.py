"""Multi-game play: a rubber, an elimination, a series of rounds — with its own scoreboard.

The format is data (`MatchFormat`); the game supplies it (`Game.match_format`) and says how to
make a player the dealer or first player (`Game.setup_for`). Match seats keep their numbers for
the whole match even when eliminated players leave and the game is rebuilt for fewer players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError
from .formats import MatchFormat
from .protocol import Game, Result, State
from .rng import GameRng, fresh_seed

__all__ = ["GameSummary", "Match", "MatchFormat"]


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
        game: Game[Any, Any],
        format: MatchFormat | str | None = None,
        *,
        seed: int | None = None,
        names: list[str] | None = None,
        seeder: Callable[[int], int] | None = None,
    ) -> None:
        self.base = game
        if isinstance(format, str) or format is None:
            format = game.match_format(format)
        self.format = format
        self.seed = fresh_seed() if seed is None else seed
        self.rng = GameRng(self.seed)
        # Each game's seed: by default the next draw of the match's generator (reproducible from
        # the match seed); a server gives a seeder whose seeds no record can predict.
        self.seeder = seeder
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
        number = len(self.games)
        seed = self.seeder(number) if self.seeder is not None else self.rng.getrandbits(63)
        self.current = game.new_game(seed, **game.setup_for(local))
        self._seats = seats
        return self.current

    def undo_point(self) -> tuple[Any, ...]:
        """What `next_game` changes, to put back with `undo` if the new game cannot be kept (its
        storing failed)."""
        return (self.current, list(self._seats), self.starter, self.rng.getstate())

    def undo(self, point: tuple[Any, ...]) -> None:
        self.current, self._seats, self.starter, rng = point
        self.rng.setstate(rng)

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
        return self._score(state.result(), state.seed, state.record().to_dict())

    def restore_game(self, result: Result) -> GameSummary:
        """Score the current game from its known result without playing it again: how a stored
        match is rebuilt in time that does not grow with its length (only its last game, whose
        position is shown, needs its moves). The game must be the one that gave `result`."""
        if self.current is None:
            raise RulesError("no game of this match to restore")
        if len(result.points) != len(self._seats):
            raise RulesError("the result is for another number of players")
        return self._score(result, self.current.seed, self.current.record().to_dict())

    def _score(self, res: Result, seed: int, record: dict[str, Any]) -> GameSummary:
        seats = self._seats
        record = {**record, "names": [self.names[s] for s in seats]}  # for `parlour replay`
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
            seed=seed,
            result=res,
            record=record,
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
