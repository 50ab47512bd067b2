"""Where bots think, so that no table's bot can hold up another table or the server.

Quick bots (a rule of thumb, microseconds) answer in a thread. Searching bots (`Bot.searches`)
think in a small pool of worker processes — at most `workers` searches at once, their budgets
capped by the server's `BotLimits` — so a search never holds the event loop's interpreter lock.
The pool is shared fairly (`FairTurns`): each table asks for one decision at a time, on behalf of
whoever pays for it (the client who opened the table; a tournament's tables of bots are its
creator's), and the free places go round those payers in turn. So one client's many tables of
searching bots wait behind each other, and a table's bot waits behind at most one decision of each
other payer, never behind another client's batch.

A search is sent as plain data — the game's spec, the bot's spec, the view as JSON, the legal moves'
texts and a seed — and its move comes back as text. Workers are started on first use (spawned, so
they share nothing with the server's threads) and build each game once.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from typing import Any

import parlour
from parlour.bots import Bot, make_bot
from parlour.core import Game, Move
from parlour.core.events import view_to_wire

from . import metrics
from .pools import process_pool, stop_pool

__all__ = ["FairTurns", "Thinker", "default_workers"]


def default_workers() -> int:
    """One worker per core but one (kept for the server itself), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class FairTurns:
    """`places` places shared among payers. A payer asking while every place is taken waits, and
    each freed place goes to the waiting payer holding fewest places, of those the one served
    longest ago: a payer with many asks gets its turn in the round like everyone, whatever the
    length of its queue."""

    def __init__(self, places: int) -> None:
        self.places = places
        self.busy = 0
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}  # in order of first ask
        self._held: dict[str, int] = {}
        self._served: dict[str, int] = {}  # the payer's last place, by count of places given
        self._given = 0

    async def take(self, payer: str) -> None:
        """Wait for a place (`release(payer)` it when done)."""
        if self.busy < self.places and not self._waiting:
            self.busy += 1
            self._give(payer)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(payer, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(payer)  # handed a place just as the asker gave up: pass it on
            else:
                self._forget(payer, turn)
            raise

    def release(self, payer: str) -> None:
        """`payer`'s place is free: to the next payer in the round, or back to the pool."""
        self._held[payer] -= 1
        if not self._held[payer]:
            del self._held[payer]
        while self._waiting:
            nxt = min(self._waiting, key=lambda p: (self._held.get(p, 0), self._served.get(p, -1)))
            queue = self._waiting[nxt]
            turn = queue.popleft()
            if not queue:
                del self._waiting[nxt]
            if not turn.done():
                self._give(nxt)
                turn.set_result(None)  # the place passes on, still busy
                return
        self.busy -= 1

    def _give(self, payer: str) -> None:
        self._held[payer] = self._held.get(payer, 0) + 1
        self._served[payer] = self._given
        self._given += 1
        if len(self._served) > 4 * self.places + 64 and payer not in self._waiting:
            # forget long-gone payers (tables closed): only those waiting or holding matter
            keep = set(self._waiting) | set(self._held)
            self._served = {p: n for p, n in self._served.items() if p in keep}

    def _forget(self, payer: str, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(payer)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[payer]


class Thinker:
    """Runs bots' decisions away from the event loop (see the module doc)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._shut = False
        self.turns = FairTurns(self.workers)  # the pool never queues: each place is a process

    def _executor(self) -> ProcessPoolExecutor:
        if self._shut:
            # a bot still at work as the server stops (a table handed on, a move forced after
            # its search was ended) must not start a new pool that nothing would stop: its
            # queues' semaphores would be left behind ("leaked semaphore objects" on SIGTERM)
            raise asyncio.CancelledError("the server is stopping: no more searches")
        if self._pool is None:  # its processes exit if this worker is killed (pools.py)
            self._pool = process_pool(self.workers)
        return self._pool

    async def choose(
        self,
        game: Game[Any, Any],
        bot: Bot,
        spec: str,
        view: Mapping[str, Any],
        legal: list[Move],
        seed: int,
        payer: str = "",
    ) -> Move:
        """The move `bot` (built from `spec`) chooses from `view`; a search waits for its turn
        among `payer`'s (see the module doc)."""
        asked = time.perf_counter()
        try:
            return await self._choose(game, bot, spec, view, legal, seed, payer)
        finally:
            seconds = time.perf_counter() - asked
            metrics.BOT_THINK.labels(game.name, spec.split(":")[0]).observe(seconds)

    async def _choose(
        self,
        game: Game[Any, Any],
        bot: Bot,
        spec: str,
        view: Mapping[str, Any],
        legal: list[Move],
        seed: int,
        payer: str,
    ) -> Move:
        if not bot.searches:
            return await asyncio.to_thread(bot.choose, view, legal)
        loop = asyncio.get_running_loop()
        g = game.spec()
        await self.turns.take(payer)
        thinking = loop.run_in_executor(
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
        # the place is held as long as its process thinks, even if the table stops waiting
        thinking.add_done_callback(lambda _: self.turns.release(payer))
        text = await asyncio.shield(thinking)
        return next(m for m in legal if str(m) == text)

    def shutdown(self) -> None:
        self._shut = True
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
    view: Mapping[str, Any],
    legal: list[str],
    seed: int,
) -> str:
    """In a worker process: one decision of a searching bot, as the move's text."""
    game = _game(name, players, rules)
    moves = [game.parse_move(t) for t in legal]
    bot = make_bot(spec, game, seed)
    return str(bot.choose(view, moves))
