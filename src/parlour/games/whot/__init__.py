"""Whot! — every rule set of the sources (seeds 000, 001, 002): Storey's 1935 rules, Nigerian,
English, Knock-out, and the variant tables of special cards."""

from parlour.core.registry import GameInfo, register

from . import bots as _bots  # registers the greedy bot
from . import hint as _hint  # noqa: F401  (registers the hint bot)
from .engine import WhotGame, WhotState
from .moves import WhotMove, parse_move
from .render import describe_event, render
from .rules import PRESETS, WhotRules

__all__ = ["PRESETS", "WhotGame", "WhotMove", "WhotRules", "WhotState", "parse_move"]

register(
    GameInfo(
        name="whot",
        title="Whot!",
        summary="Shed your cards by symbol or number; WHOT calls the symbol (W. H. Storey, 1935).",
        min_players=2,
        max_players=8,
        default_players=4,
        presets=PRESETS,
        default_preset="nigerian",
        rules_class=WhotRules,
        game_class=WhotGame,
        render=render,
        describe_event=describe_event,
    )
)
del _bots
