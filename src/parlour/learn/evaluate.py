"""How strong a network is: duplicate deals against the ladder's bots, in NumPy (no JAX).

`duplicate_match` seats the game's `learned` bot, holding the weights given, against a bot spec
(the other seats all that bot) and plays `deals` duplicate deals (`SimSpec(duplicate=True)`: each
deal once with the learned bot in every seat, the same cards), scoring its share of the wins
(a tie split), averaged per deal, with the paired 95% interval (`parlour.sim.stats.paired_rate`).
The trainer runs it in a separate process (`Evaluator`) while it goes on training.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from parlour.bots import make_bot
from parlour.core import Game
from parlour.processes import exit_with_parent
from parlour.sim.simulate import SimSpec, play_game
from parlour.sim.stats import paired_rate

from .qnet import QNet

__all__ = ["MAX_MOVES", "Evaluator", "duplicate_match"]

# an evaluation game's cap: about fifty times a game between these bots (45-70 moves)
MAX_MOVES = 3000


def duplicate_match(
    game: str,
    players: int,
    rules: str,
    net: QNet,
    opponent: str,
    deals: int,
    seed: int = 1,
) -> dict[str, Any]:
    """The learned bot with `net` against `opponent` over `deals` duplicate deals."""
    from parlour.core.registry import info

    factory = info(game).bot("learned")
    if factory is None:
        raise ValueError(f"{game} has no learned bot")

    def maker(spec: str, g: Game[Any, Any], bot_seed: int) -> Any:
        if spec == "learned":
            return factory(g, random.Random(bot_seed), net=net)
        return make_bot(spec, g, bot_seed)

    lineup = ("learned", *([opponent] * (players - 1)))
    spec = SimSpec(
        game=game,
        players=players,
        bots=lineup,
        rules=rules,
        seed=seed,
        duplicate=True,
        maker=maker,
        # Two bots can go round for ever (a Storey evaluation in run D2 passed 32,000 moves in
        # one game, and each decision reads the whole game's events): a game cut at the cap is a
        # tie with no winner, so it counts against the learned bot, never for it.
        max_moves=MAX_MOVES,
    )
    t0 = time.perf_counter()
    rows = [play_game(spec, i) for i in range(deals * players)]

    def share(row: dict[str, Any]) -> float:
        seat = row["bots"].index("learned")
        winners = row["winners"]
        return 1.0 / len(winners) if seat in winners else 0.0

    p = paired_rate(rows, players, share, f"learned vs {opponent}")
    lo, hi = p.interval
    return {
        "opponent": opponent,
        "deals": p.deals,
        "games": p.games,
        "rate": round(p.rate, 4),
        "low": round(lo, 4),
        "high": round(hi, 4),
        "seconds": round(time.perf_counter() - t0, 1),
        "moves_per_game": round(sum(r["moves"] for r in rows) / max(1, len(rows)), 1),
    }


def _run(args: tuple[Any, ...]) -> list[dict[str, Any]]:
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    game, players, rules, arrays, meta, bots, deals, seed = args
    net = QNet.from_arrays(arrays, meta)
    return [duplicate_match(game, players, rules, net, b, deals, seed) for b in bots]


class Evaluator:
    """One evaluation at a time in a spawned process (it imports no JAX), so the trainer goes on
    while the games are played. The process ends with the trainer, however the trainer ends
    (`parlour.processes.exit_with_parent`)."""

    def __init__(self) -> None:
        self.pool = ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
            initargs=(os.getpid(),),
        )
        self.running: Future[list[dict[str, Any]]] | None = None
        self.meta: dict[str, Any] = {}

    @property
    def busy(self) -> bool:
        return self.running is not None and not self.running.done()

    def start(
        self,
        game: str,
        players: int,
        rules: str,
        net: QNet,
        bots: tuple[str, ...],
        deals: int,
        seed: int,
        about: dict[str, Any],
    ) -> None:
        self.meta = about
        args = (game, players, rules, net.arrays(), net.meta, bots, deals, seed)
        self.running = self.pool.submit(_run, args)

    def result(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The finished evaluation's (what it was of, its results), once; None if none is."""
        if self.running is None or not self.running.done():
            return None
        out = self.running.result()
        self.running = None
        return self.meta, out

    def wait(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        if self.running is None:
            return None
        self.running.result()
        return self.result()

    def close(self) -> None:
        """Stop the evaluation process (an evaluation under way is abandoned)."""
        procs = list(getattr(self.pool, "_processes", {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:  # an evaluation under way would otherwise run to its end
            p.terminate()
