"""Time-bounded measurement of whole games, shared by the speed benchmarks.

A benchmark hands `measure` a function that plays one whole game from a seed and says what it
counted; `measure` plays games with seeds `seed, seed + 1, …` until the time budget is used up and
returns the totals. Everything a game needs (building the start state, dealing, choosing the moves)
is inside the timed region, so every engine pays for the same work.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["GameTally", "Measurement", "measure", "measure_interleaved", "measure_rounds"]

WARMUP_SEED_OFFSET = 1_000_000_000


@dataclass(frozen=True, slots=True)
class GameTally:
    """What one game counted."""

    moves: int
    """Decisions taken by players: the figure that moves/s is made of."""
    other: int = 0
    """Further engine actions that are not player decisions (OpenSpiel's chance outcomes)."""
    cut_off: bool = False
    """The game stopped without a winner: a turn limit, a stalemate or the benchmark's move cap."""


@dataclass(frozen=True, slots=True)
class Measurement:
    """Totals over the games played in one time budget."""

    games: int
    moves: int
    other: int
    cut_off: int
    seconds: float

    def __add__(self, other: Measurement) -> Measurement:
        return Measurement(
            self.games + other.games,
            self.moves + other.moves,
            self.other + other.other,
            self.cut_off + other.cut_off,
            self.seconds + other.seconds,
        )

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_s(self) -> float:
        """Moves and other engine actions together, per second."""
        return (self.moves + self.other) / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games if self.games else 0.0


def measure(
    play_game: Callable[[int], GameTally],
    seconds: float,
    seed: int = 0,
    warmup_games: int = 2,
    clock: Callable[[], float] = time.process_time,
) -> Measurement:
    """Play whole games until `seconds` of `clock` are used: CPU time by default, so that other
    processes on a shared machine weigh less (wall time: `clock=time.perf_counter`).

    At least one game is always timed. `warmup_games` untimed games come first (seeds below
    `seed`), so that imports, caches and lazily built tables are not charged to the first game.
    """
    for i in range(warmup_games):
        play_game(seed + WARMUP_SEED_OFFSET + i)
    games = moves = other = cut_off = 0
    start = clock()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        tally = play_game(seed + games)
        games += 1
        moves += tally.moves
        other += tally.other
        cut_off += tally.cut_off
        elapsed = clock() - start
    return Measurement(games, moves, other, cut_off, elapsed)


def measure_rounds(
    plays: Sequence[Callable[[int], GameTally]],
    seconds: float,
    seed: int = 0,
    rounds: int = 3,
    on_start: Callable[[int, int], None] | None = None,
) -> list[list[Measurement]]:
    """`measure` each of `plays` for `seconds` in all, split into `rounds` interleaved rounds;
    each play's measurement of each round, round by round.

    Round r gives every engine `seconds / rounds` in turn — in order, then in reverse order the
    next round — so a change in the machine's load during the run (other processes, thermal
    state) falls on all of them alike rather than on whichever happened to run then, and figures
    of the same round can be divided by each other. Each engine's seeds go on from where its last
    round stopped, so no game is played twice. `on_start(round, index)` is called before each
    slice.
    """
    rounds = max(1, rounds)
    parts: list[list[Measurement]] = [[] for _ in plays]
    played = [0] * len(plays)
    for r in range(rounds):
        order = range(len(plays)) if r % 2 == 0 else range(len(plays) - 1, -1, -1)
        for i in order:
            if on_start is not None:
                on_start(r, i)
            part = measure(
                plays[i],
                seconds / rounds,
                seed + played[i],
                warmup_games=2 if r == 0 else 0,
            )
            parts[i].append(part)
            played[i] += part.games
    return parts


def measure_interleaved(
    plays: Sequence[Callable[[int], GameTally]],
    seconds: float,
    seed: int = 0,
    rounds: int = 3,
    on_start: Callable[[int, int], None] | None = None,
) -> list[Measurement]:
    """`measure_rounds`, each play's rounds added up."""
    totals = []
    for parts in measure_rounds(plays, seconds, seed, rounds, on_start):
        total = Measurement(0, 0, 0, 0, 0.0)
        for part in parts:
            total = total + part
        totals.append(total)
    return totals
