"""Where bots think, so that no table's bot can hold up another table or the server.

Quick bots (a rule of thumb, microseconds) answer in a thread. Searching bots (`Bot.searches`)
think in a small pool of worker processes — at most `workers` searches at once, first come first
served across tables (each table asks for one decision at a time), their budgets capped by the
server's `BotLimits` — so a search never holds the event loop's interpreter lock and a table full
of strong bots cannot take more than its turn of the CPU.

A search is sent as plain data — the game's spec, the bot's spec, the view as JSON, the legal moves'
texts and a seed — and its move comes back as text. Workers are started on first use (spawned, so
they share nothing with the server's threads) and build each game once.
"""

from __future__ import annotations

import asyncio
import json
import os
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from typing import Any

import parlour
from parlour.bots import Bot, make_bot
from parlour.core import Game, Move
from parlour.core.events import view_to_wire

from .pools import process_pool, stop_pool

__all__ = ["Thinker", "default_workers"]


def default_workers() -> int:
    """One worker per core but one (kept for the server itself), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    """Runs bots' decisions away from the event loop (see the module doc)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:  # its processes exit if this worker is killed (pools.py)
            self._pool = process_pool(self.workers)
        return self._pool

    async def choose(
        self,
        game: Game[Any, Any],
        bot: Bot,
        spec: str,
        view: dict[str, Any],
        legal: list[Move],
        seed: int,
    ) -> Move:
        """The move `bot` (built from `spec`) chooses from `view`."""
        if not bot.searches:
            return await asyncio.to_thread(bot.choose, view, legal)
        loop = asyncio.get_running_loop()
        g = game.spec()
        text = await loop.run_in_executor(
            self._executor(),
            _think,
            g["game"],
            g["players"],
            json.dumps(g["rules"], sort_keys=True),
            spec,
            view_to_wire(view),
            [str(m) for m in legal],
            seed,
        )
        return next(m for m in legal if str(m) == text)

    def shutdown(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


@lru_cache(maxsize=64)
def _game(name: str, players: int, rules: str) -> Game[Any, Any]:
    return parlour.make(name, players=players, rules=json.loads(rules))


def _think(
    name: str,
    players: int,
    rules: str,
    spec: str,
    view: dict[str, Any],
    legal: list[str],
    seed: int,
) -> str:
    """In a worker process: one decision of a searching bot, as the move's text."""
    game = _game(name, players, rules)
    moves = [game.parse_move(t) for t in legal]
    bot = make_bot(spec, game, seed)
    return str(bot.choose(view, moves))
