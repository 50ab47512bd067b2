"""The bot protocol and registry."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from parlour.core import Game, Move, RulesError
from parlour.core.registry import info

from .levels import levels

__all__ = ["Bot", "BotFactory", "BotLimits", "bot_names", "make_bot", "register_bot"]


class Bot(ABC):
    """Chooses a move from what its seat may know: `view` and the legal moves."""

    name: str = "bot"

    def __init__(self, game: Game[Any, Any], rng: random.Random, **params: str) -> None:
        self.game = game
        self.rng = rng
        if params:
            raise RulesError(f"bot {self.name} takes no parameters, not {', '.join(params)}")

    @abstractmethod
    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move: ...

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        """The move and a short reason, for a person's hint. Bots override with their estimate."""
        return self.choose(view, legal), f"{self.name} would play this"

    #: Whether a decision can take long (a search): a host runs those apart from quick bots.
    searches: bool = False

    #: Whether `choose` reads its view. A bot that chooses from the legal moves alone says False,
    #: and a host in a hurry (the Gymnasium environment's opponents) may then hand it an empty
    #: view instead of building one every move.
    reads_view: bool = True

    def budget(self) -> dict[str, float]:
        """What one decision may cost, by the names of `BotLimits` (a search's iterations, seconds,
        determinization pool, …): a host checks them against its limits before it seats the bot."""
        return {}


def number_params(
    bot: str, defaults: Mapping[str, float], params: dict[str, str]
) -> dict[str, float]:
    """The numeric parameters of a bot spec (`counter:own=1.5`): `defaults` with those of its
    names found in `params` taken out and read as numbers (RulesError for one that is not). The
    rest stays in `params` for `Bot.__init__`, which refuses any name it does not know."""
    values = dict(defaults)
    for key in list(params):
        if key in values:
            try:
                values[key] = float(params.pop(key))
            except ValueError as exc:
                raise RulesError(f"{bot}: {key} must be a number") from exc
    return values


@dataclass(frozen=True)
class BotLimits:
    """The most a bot spec may ask for, per decision (a server sets these for every table)."""

    iterations: int = 20_000
    seconds: float = 5.0
    pool: int = 2_000
    depth: int = 1_000
    max_playout: int = 5_000

    def check(self, spec: str, budget: dict[str, float]) -> None:
        """Raise RulesError naming the first part of `budget` that is over its limit."""
        for key, value in budget.items():
            most = getattr(self, key, None)
            if most is not None and value > most:
                asked = int(value) if float(value).is_integer() else value
                raise RulesError(f"{spec}: {key}={asked} is over this host's limit of {most}")


BotFactory = Callable[..., Bot]
_GENERIC: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Register a bot that plays every game (a game's own bots are named in its manifest)."""
    _GENERIC[name] = factory


def bot_names(game: str) -> list[str]:
    """Every bot that plays `game`: its own (its manifest's) and the generic ones."""
    return sorted(set(_GENERIC) | set(info(game).bot_names))


def make_bot(
    spec: str, game: Game[Any, Any], seed: int | None = None, limits: BotLimits | None = None
) -> Bot:
    """Build a bot from `name` or `name:key=value,key=value`; a game's own bot of that name wins
    over a generic one. With `limits`, a spec asking for more than they allow raises RulesError."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise RulesError(f"bot parameter {part!r} in {spec!r} is not key=value")
        params[key.strip()] = value.strip()
    factory = info(game.name).bot(name) or _GENERIC.get(name)
    if factory is None:
        have = ", ".join(lv.name for lv in levels(game.name))
        raise RulesError(
            f"no bot {name!r} for {game.name}; the levels are: {have}; "
            f"the bots are: {', '.join(bot_names(game.name))}"
        )
    bot: Bot = factory(game, random.Random(seed), **params)
    if limits is not None:
        limits.check(spec.strip(), bot.budget())
    return bot
