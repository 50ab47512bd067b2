"""The bot protocol and registry."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from parlour.core import Game, Move, RulesError
from parlour.core.registry import games

__all__ = ["Bot", "BotFactory", "bot_names", "make_bot", "register_bot"]


class Bot(ABC):
    """Chooses a move from what its seat may know: `view` and the legal moves."""

    name: str = "bot"

    def __init__(self, game: Game[Any], rng: random.Random, **params: str) -> None:
        self.game = game
        self.rng = rng
        if params:
            raise RulesError(f"bot {self.name} takes no parameters, not {', '.join(params)}")

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move: ...

    def explain(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        """The move and a short reason, for a person's hint. Bots override with their estimate."""
        return self.choose(view, legal), f"{self.name} would play this"


BotFactory = Callable[..., Bot]
_GENERIC: dict[str, BotFactory] = {}
_PER_GAME: dict[tuple[str, str], BotFactory] = {}


def register_bot(name: str, factory: BotFactory, game: str | None = None) -> None:
    """Register a bot for every game (`game=None`) or for one game, where it wins over a generic."""
    if game is None:
        _GENERIC[name] = factory
    else:
        _PER_GAME[(game, name)] = factory


def bot_names(game: str) -> list[str]:
    games()  # make sure every game package has registered its bots
    names = set(_GENERIC) | {n for g, n in _PER_GAME if g == game}
    return sorted(names)


def make_bot(spec: str, game: Game[Any], seed: int | None = None) -> Bot:
    """Build a bot from `name` or `name:key=value,key=value`."""
    games()
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise RulesError(f"bot parameter {part!r} in {spec!r} is not key=value")
        params[key.strip()] = value.strip()
    factory = _PER_GAME.get((game.name, name)) or _GENERIC.get(name)
    if factory is None:
        raise RulesError(
            f"no bot {name!r} for {game.name}; the bots are: {', '.join(bot_names(game.name))}"
        )
    return factory(game, random.Random(seed), **params)
