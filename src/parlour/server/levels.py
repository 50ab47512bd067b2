"""Bot strength in plain words: the levels a lobby offers, each a bot spec (GET /api/games).

The levels and their figures are `parlour.bots.levels`: calibrated on the bot ladder
(benchmarks/ladder.py), each with its measured rate against the level below. A level is offered
for a game when the game has its bot.
"""

from __future__ import annotations

from typing import Any

from parlour.bots import bot_names
from parlour.bots.levels import levels

__all__ = ["levels_for"]


def levels_for(game: str) -> list[dict[str, Any]]:
    """The levels offered for `game`, easiest first: {name, bot, words, vs_below}, where
    `vs_below` holds, per ladder table (rule set and players), the level's rate against the level
    below with its 95% interval and a sentence saying so (empty for the easiest, or a game the
    ladder has not measured)."""
    have = set(bot_names(game))
    out: list[dict[str, Any]] = []
    below = ""
    for lv in levels(game):
        if lv.bot.split(":")[0] in have:
            out.append(
                {
                    "name": lv.name,
                    "bot": lv.bot,
                    "words": lv.words,
                    "vs_below": [
                        {
                            "rules": m.rules,
                            "players": m.players,
                            "rate": m.rate,
                            "low": m.low,
                            "high": m.high,
                            "games": m.games,
                            "text": m.sentence(below),
                        }
                        for m in lv.vs_below
                    ],
                }
            )
        below = lv.name
    return out

