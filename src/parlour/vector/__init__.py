"""Batched games on arrays (NumPy): B games stepped in lockstep, move for move the reference engine.

    from parlour.vector import BatchedVectorEnv, batched

    engine = batched("<game>", players=2, rules="<preset>")   # the game's batched engine
    env = BatchedVectorEnv("<game>", num_envs=4096, players=2, rules="<preset>")

This package is the generic machinery; each game's batched engine lives in its own folder
(`games/<game>/batched/`) and its manifest names it (`batched`). Here: `batched`, which builds a
game's engine; the protocol an engine follows (`parlour.vector.protocol`); the `Dealer` of new
games in seed order (`parlour.vector.dealer`); `BatchedVectorEnv`, a Gymnasium vector environment
over any engine (`parlour.vector.env`, imported on first use: it needs Gymnasium); and Python's
Mersenne Twister as arrays (`parlour.vector._mt`), for engines whose reference shuffles with
`random.Random`. An optional extra: `pip install parlour[vector]`. The engine packages
(`parlour.core`, and each game's engine) never import it. See docs/vector.md.
"""

from __future__ import annotations

from typing import Any

from parlour.core import RulesError
from parlour.core.registry import info, resolve_rules

from .dealer import Dealer
from .protocol import BatchedGame, BatchState

__all__ = ["BatchState", "BatchedGame", "BatchedVectorEnv", "Dealer", "batched", "has_batched"]


def has_batched(game: str) -> bool:
    """Whether `game`'s manifest names a batched engine."""
    return info(game).batched_engine is not None


def batched(game: str, players: int | None = None, rules: Any = None) -> BatchedGame:
    """The batched engine of `game` for `players` under `rules` (a preset name or an options
    object; the game's defaults where None). RulesError when the game has none; the engine raises
    NotImplementedError naming what it does not implement of the rules."""
    gi = info(game)
    factory = gi.batched_engine
    if factory is None:
        raise RulesError(f"{gi.title} has no batched engine")
    n = gi.default_players if players is None else players
    if isinstance(rules, str) or rules is None:
        name = gi.default_preset if rules is None else gi.aliases.get(rules, rules)
        if name in gi.presets:
            engine: BatchedGame = factory(n, name)
            return engine
        resolve_rules(gi, name)  # raises the game's own sentence for a name it does not know
    engine = factory(n, rules)
    return engine


def __getattr__(name: str) -> Any:
    if name == "BatchedVectorEnv":  # Gymnasium is imported only by the environment
        from .env import BatchedVectorEnv

        return BatchedVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
