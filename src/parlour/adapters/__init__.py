"""Adapters for the AI toolkits people already use: PettingZoo, Gymnasium and OpenSpiel.

Every adapter is game-agnostic: it drives a game through the protocol and reads the game's
*encoding* (`parlour.adapters.encoding`) — a fixed-size action space and an observation tensor
built from a player's view only. The adapters are an optional extra (`pip install 'parlour[rl]'`):
nothing here is imported by the engine, and each toolkit is imported only by its own module.

    from parlour.adapters import pettingzoo, gymnasium, openspiel
    env = pettingzoo.env(GAME, rules=PRESET, players=4)        # GAME: a name of parlour.games()
    env = gymnasium.SeatEnv(GAME, opponents=["hint", "random"])
    openspiel.register_all(); pyspiel.load_game("parlour_" + GAME)

See docs/adapters.md.
"""

from __future__ import annotations

__all__ = ["encoding", "gymnasium", "openspiel", "pettingzoo"]
