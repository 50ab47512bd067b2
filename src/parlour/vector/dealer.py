"""A dealer of new games for a batched engine: seeds in order, dealt ahead in chunks."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .protocol import BatchedGame

__all__ = ["Dealer"]

I64 = npt.NDArray[np.int64]


class Dealer:
    """New games for seeds `first, first + 1, …`, in that order, dealt ahead in chunks.

    A deal is about 1,500 array operations whatever the number of games, so dealing the two or
    three games that end at a step would cost more than the step; a dealer deals several games at
    a time and hands them out as games end. Its chunks start at `first_chunk` games and double at
    each deal up to `chunk`, so a short run does not pay for games it never plays and a long one
    pays the fixed cost rarely. Which seed a game gets depends only on the order in which games
    are asked for, so a run is reproducible."""

    def __init__(
        self, batch: BatchedGame, first_seed: int, chunk: int = 1024, first_chunk: int = 64
    ) -> None:
        if first_seed < 0:
            raise ValueError("seeds must be non-negative")
        self.batch = batch
        self.next_seed = first_seed  # the seed of the next game to deal
        self.chunk = max(1, chunk)
        self._size = max(1, min(first_chunk, self.chunk))
        self.pool = batch.empty(0)
        self.at = 0  # the pool's next game
        self.dealt = 0  # games dealt so far (handed out or in the pool)

    def _ensure(self, k: int) -> None:
        """At least `k` games in the pool from `at` on."""
        have = self.pool.batch_size - self.at
        if have < k:
            more = max(k - have, self._size)
            self._size = min(2 * self._size, self.chunk)
            seeds = np.arange(self.next_seed, self.next_seed + more, dtype=np.int64)
            self.next_seed += more
            self.dealt += more
            rest = self.pool.take(slice(self.at, None))
            self.pool = type(rest).concat([rest, self.batch.deal(seeds)])
            self.at = 0

    def next(self, k: int) -> Any:
        """The next `k` games."""
        self._ensure(k)
        out = self.pool.take(slice(self.at, self.at + k))
        self.at += k
        return out

    def replace(self, st: Any, games: I64) -> None:
        """Put the next games in place of `games` (in order), e.g. the games that are over."""
        k = int(games.size)
        if k:
            self._ensure(k)
            st.put(games, self.pool, slice(self.at, self.at + k))
            self.at += k
