"""Sorry! — the slide pursuit game (seed 003): the regular game, the partnership game and the
point-score game, on parlour's shared protocol."""

from parlour.core.registry import GameInfo, register

from . import bots as _bots  # registers the greedy bot
from . import hint as _hint  # noqa: F401  (registers the hint bot)
from .engine import SorryGame, SorryState
from .notation import SorryMove, parse_move
from .render import describe_event, render
from .rules import PRESETS, SorryRules

__all__ = ["PRESETS", "SorryGame", "SorryMove", "SorryRules", "SorryState", "parse_move"]

register(
    GameInfo(
        name="sorry",
        title="Sorry!",
        summary="Race your four pawns from START to HOME by the cards; slide, bump and say SORRY!",
        min_players=2,
        max_players=4,
        default_players=4,
        presets=PRESETS,
        default_preset="regular",
        rules_class=SorryRules,
        game_class=SorryGame,
        render=render,
        describe_event=describe_event,
        aliases={"partnership": "partnership", "points": "points", "point-score": "points"},
    )
)
del _bots
