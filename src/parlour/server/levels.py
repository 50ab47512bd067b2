"""Bot strength in plain words: the levels a lobby offers, each a bot spec (GET /api/games).

The levels and their figures are `parlour.bots.levels`: calibrated on the bot ladder
(benchmarks/ladder.py), each with its measured rate against the level below. A level is offered
for a game when the game has its bot, and a bot seat may be asked for by a level's name.
"""

from __future__ import annotations

from typing import Any

from parlour.bots import bot_names
from parlour.bots.levels import LEVEL_NAMES, level_of, levels, resolve

__all__ = ["is_level_bot", "level_names", "levels_for", "seat_bot"]


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


def seat_bot(
    spec: str, game: str, rules: str | None = None, players: int | None = None
) -> tuple[str, str]:
    """A bot seat's request — a level's name (`hard`) or a bot spec — as (the bot spec it plays,
    the name its seat is named after: the level's, else the kind's): `("greedy", "hard")` for
    `hard`, and for `greedy`, where hard is greedy.
    The seat keeps the spec, so a table stored today plays on with the same bot when the ladder
    is run again and the levels move. A level the game lacks raises RulesError naming the game's
    levels; given the table (`rules`, `players`), so does a level the ladder did not separate
    there."""
    name = spec.strip()
    bot = resolve(name, game, rules, players)
    if name in LEVEL_NAMES:
        return bot, name
    # a spec that a level plays is named after the level, as people know it
    return bot, level_of(name, game) or name.partition(":")[0]


def level_names(game: str) -> list[str]:
    """The names of the levels offered for `game`, easiest first."""
    return [lv["name"] for lv in levels_for(game)]


def is_level_bot(spec: str, game: str) -> bool:
    """Whether a bot spec is exactly the bot of one of `game`'s levels (a rated table seats no
    other: a weakened search is not the level its kind plays at)."""
    return spec.strip() in {lv["bot"] for lv in levels_for(game)}
