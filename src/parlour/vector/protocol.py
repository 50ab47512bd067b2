"""What a game's batched engine provides, so that the generic machinery here can drive it.

A batched engine plays B games of one game at once on arrays, in lockstep: one action per game
per step. It lives in its game's folder (`games/<game>/batched/`), and the game's manifest names
it (`batched="batched:TheEngine"`); `parlour.vector.batched(game, players, rules)` builds it.
The dealer (`parlour.vector.dealer`) and the Gymnasium vector environment (`parlour.vector.env`)
know no game: they reach every engine through these two protocols.
"""

from __future__ import annotations

from typing import Any, Protocol, Self

import numpy as np
import numpy.typing as npt

__all__ = ["BatchState", "BatchedGame"]


class BatchState(Protocol):
    """The state of B games: arrays whose first axis is the game."""

    seed: npt.NDArray[np.int64]  # (B,) each game's seed: the reference's `new_game(seed=...)`
    cur: npt.NDArray[np.int64]  # (B,) the player to move (the last mover once over)
    mover: npt.NDArray[np.int64]  # (B,) the player who made the last move (-1 before the first)
    done: npt.NDArray[np.bool_]  # (B,)
    points: Any  # (B, players) the game's points once over
    moves: npt.NDArray[np.int64]  # (B,) moves made

    @property
    def batch_size(self) -> int: ...

    def take(self, index: Any) -> Self: ...

    def put(self, index: Any, other: Self, source: Any = ...) -> None: ...

    @staticmethod
    def concat(parts: list[Any]) -> Any: ...


class BatchedGame(Protocol):
    """A game for B games at once, under one rule set at one table size."""

    players: int
    num_actions: int

    def empty(self, size: int) -> Any:
        """`size` games with nothing dealt (a buffer to `put` games into)."""
        ...

    def deal(self, seeds: Any) -> Any:
        """New games, one per seed: the games the reference engine deals for those seeds."""
        ...

    def step(self, st: Any, actions: Any, active: Any = None) -> Any:
        """One action per game (games over, or not `active`, ignore theirs); returns the state."""
        ...

    def legal_mask(self, st: Any) -> npt.NDArray[np.bool_]:
        """(B, num_actions) bool: the legal action ids of the player to move."""
        ...

    def observe(self, st: Any, viewer: Any = None) -> npt.NDArray[np.float32]:
        """(B, obs) float32: the game encoding's observation of the player to move."""
        ...

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...

    def rewards(self, st: Any) -> npt.NDArray[np.float32]:
        """(B, players): +1 each winner, -1 the others once over; 0 while a game goes on."""
        ...
