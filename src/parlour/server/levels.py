"""Bot strength in plain words: the levels a lobby offers, each a bot spec (GET /api/games).

One list for every game: a level is offered for a game when the game has its bot. (The levels are
to be calibrated against measured strength — benchmarks/strength.py — and may change bots then;
change them here only.)
"""

from __future__ import annotations

from typing import Any

from parlour.bots import bot_names

__all__ = ["LEVELS", "levels_for"]

# name, bot spec, what it means to a person choosing an opponent
LEVELS: tuple[tuple[str, str, str], ...] = (
    ("easy", "random", "plays any legal move: good for learning the rules"),
    ("medium", "greedy", "takes the best move it can see right now"),
    ("hard", "hint", "plays by the rules of thumb a good player uses"),
    ("expert", "ismcts:iterations=1000", "thinks ahead by playing out many possible games"),
)


def levels_for(game: str) -> list[dict[str, Any]]:
    """The levels offered for `game`: {name, bot, words}, easiest first."""
    have = set(bot_names(game))
    return [
        {"name": name, "bot": spec, "words": words}
        for name, spec, words in LEVELS
        if spec.split(":")[0] in have
    ]
