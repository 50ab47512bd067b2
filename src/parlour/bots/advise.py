"""A hint for a person: the move a chosen bot would make from their seat, with its reasoning."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core import Game, Move
from parlour.core.events import with_names

from .base import make_bot

__all__ = ["advise"]


def advise(
    view: Mapping[str, Any],
    legal: list[Move],
    game: Game[Any, Any],
    bot: str = "hint",
    seed: int | None = None,
    names: Sequence[str] | None = None,
) -> tuple[Move, str]:
    """The move `bot` (any bot spec: `hint`, `ismcts:seconds=1`, …) would make from `view`, and a
    sentence saying why — with the bot's win estimate where it has one, and the players by
    `names` where it speaks of them. Only the view is used."""
    if seed is None:
        seed = random.randrange(1 << 62)
    b = make_bot(bot, game, seed)
    move, why = b.explain(view, legal)
    return move, with_names(why, names) if names is not None else why
