"""Positions met in play, for tests that check a rule, a policy or an observer at each of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from parlour.bots import make_bot
from parlour.core import Game, State


def played_positions(
    game: Game[Any, Any], bot: str, seeds: Iterable[int], moves: int | None = None
) -> Iterator[State]:
    """Every position of one game a seed between `bot` bots (seat q's bot seeded `seed * 10 + q`),
    in order, at most `moves` a game: each state is yielded before its mover chooses, then played
    on in place — copy it to keep it."""
    for seed in seeds:
        bots = [make_bot(bot, game, seed * 10 + q) for q in range(game.players)]
        state = game.new_game(seed=seed)
        played = 0
        while not state.is_over and (moves is None or played < moves):
            yield state
            p = state.to_play
            assert p is not None
            state.apply(bots[p].choose(state.view(p), state.legal_moves()))
            played += 1
