"""Who's Who (seed 004): Game No. 1, tricks with a Preference suit, and Game No. 2, books of four.

Both games share one reconstructed pack (see `deck`): four suits of thirteen invented characters,
numbered 3 to 15 by the letters in their names.

This module is the games' manifest: what parlour needs to know, every part named by reference and
imported only when used.
"""

from parlour.core.registry import GameInfo, WebAssets

__all__ = ["MANIFESTS"]

_WEB = WebAssets("web", module="whoswho.js", stylesheet="whoswho.css")

MANIFESTS = (
    GameInfo(
        name="whoswho-tricks",
        title="Who's Who — Game No. 1",
        summary="Tricks with a Preference suit: follow suit, the Preference suit wins (seed 004).",
        players=(2, 7),
        default_players=4,
        package=__name__,
        rules="rules:TricksRules",
        presets="rules:TRICKS_PRESETS",
        default_preset="standard",
        engine="tricks:TricksGame",
        describe="describe:describe_event",
        render="render:render",
        guide="render:guide",
        bots={
            "greedy": "bots:TricksGreedyBot",
            "hint": "hint:TricksHintBot",
            "lookahead": "lookahead:TricksLookaheadBot",
        },
        search="hint:TRICKS_SEARCH",
        encoding="encoding:TricksEncoding",
        web=_WEB,
        aliases={"partners": "partnership", "partnerships": "partnership"},
    ),
    GameInfo(
        name="whoswho-books",
        title="Who's Who — Game No. 2",
        summary='Collect books of four: "Four, yellow." "Thank you." (seed 004)',
        players=(2, 7),
        default_players=4,
        package=__name__,
        rules="rules:BooksRules",
        presets="rules:BOOKS_PRESETS",
        default_preset="standard",
        engine="books:BooksGame",
        describe="describe:describe_event",
        render="render:render",
        guide="render:guide",
        bots={
            "greedy": "bots:BooksGreedyBot",
            "hint": "hint:BooksHintBot",
            "sleuth": "sleuth:BooksSleuthBot",
            "detective": "detective:BooksDetectiveBot",
        },
        search="hint:BOOKS_SEARCH",
        encoding="encoding:BooksEncoding",
        web=_WEB,
    ),
)
