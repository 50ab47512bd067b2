"""Bots: players that decide from a view and the legal moves, never from the full state.

Bots are named in one registry and built from a spec text — `random`, `greedy`,
`ismcts:iterations=2000` — so the terminal, the server and the simulator accept the same names.
A game may register its own bot under a name (its `greedy`, its `hint`); a generic bot serves
every game. `advise` gives a person the move a chosen bot would make, and why.
"""

from .advise import advise
from .base import Bot, BotLimits, bot_names, make_bot, register_bot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

__all__ = [
    "Bot",
    "BotLimits",
    "ISMCTSBot",
    "RandomBot",
    "advise",
    "bot_names",
    "make_bot",
    "register_bot",
]
