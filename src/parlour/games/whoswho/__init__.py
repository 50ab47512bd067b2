"""Who's Who (seed 004): Game No. 1, tricks with a Preference suit, and Game No. 2, books of four.

Both games share one reconstructed pack (see `deck`): four suits of thirteen invented characters,
numbered 3 to 15 by the letters in their names.
"""

from parlour.core.registry import GameInfo, register

from . import bots as _bots
from . import hint as _hint  # noqa: F401  (registers the hint bots)
from .books import BooksGame, BooksState
from .deck import COLOURS, DECK, EMBLEMS, NAMES, SUITS, Card
from .notation import Ask, Play, Prefer, Thank
from .render import describe_event, render
from .rules import BOOKS_PRESETS, TRICKS_PRESETS, BooksRules, TricksRules
from .tricks import TricksGame, TricksState

__all__ = [
    "BOOKS_PRESETS",
    "COLOURS",
    "DECK",
    "EMBLEMS",
    "NAMES",
    "SUITS",
    "TRICKS_PRESETS",
    "Ask",
    "BooksGame",
    "BooksRules",
    "BooksState",
    "Card",
    "Play",
    "Prefer",
    "Thank",
    "TricksGame",
    "TricksRules",
    "TricksState",
]

register(
    GameInfo(
        name="whoswho-tricks",
        title="Who's Who — Game No. 1",
        summary="Tricks with a Preference suit: follow suit, the Preference suit wins (seed 004).",
        min_players=2,
        max_players=7,
        default_players=4,
        presets=TRICKS_PRESETS,
        default_preset="standard",
        rules_class=TricksRules,
        game_class=TricksGame,
        render=render,
        describe_event=describe_event,
        aliases={"partners": "partnership", "partnerships": "partnership"},
    )
)

register(
    GameInfo(
        name="whoswho-books",
        title="Who's Who — Game No. 2",
        summary='Collect books of four: "Four, yellow." "Thank you." (seed 004)',
        min_players=2,
        max_players=7,
        default_players=4,
        presets=BOOKS_PRESETS,
        default_preset="standard",
        rules_class=BooksRules,
        game_class=BooksGame,
        render=render,
        describe_event=describe_event,
    )
)
del _bots
