"""Sorry! — the slide pursuit game (seed 003): the regular game, the partnership game and the
point-score game, on parlour's shared protocol.

This module is the game's manifest: what parlour needs to know, every part named by reference and
imported only when used.
"""

from parlour.core.registry import GameInfo, WebAssets

__all__ = ["MANIFESTS"]

MANIFESTS = (
    GameInfo(
        name="sorry",
        title="Sorry!",
        summary="Race your four pawns from START to HOME by the cards; slide, bump and say SORRY!",
        players=(2, 4),
        default_players=4,
        package=__name__,
        rules="rules:SorryRules",
        presets="rules:PRESETS",
        default_preset="regular",
        engine="engine:SorryGame",
        describe="describe:describe_event",
        render="render:render",
        guide="render:guide",
        bots={
            "greedy": "bots:GreedyBot",
            "hint": "hint:SorryHintBot",
            "expectimax": "expectimax:ExpectimaxBot",
        },
        search="hint:SEARCH",
        encoding="encoding:SorryEncoding",
        web=WebAssets("web", module="sorry.js", stylesheet="sorry.css"),
        aliases={"partnership": "partnership", "points": "points", "point-score": "points"},
    ),
)
