"""parlour — classic tabletop games from their rule sheets: Whot!, Sorry! and Who's Who.

import parlour
game = parlour.make("whot", players=4, rules="nigerian")
state = game.new_game(seed=7)
while not state.is_over:
    state.apply(state.legal_moves()[0])
print(state.result())
"""

from . import games as games  # the package is callable: parlour.games() lists the games
from .core import (
    Game,
    GameRng,
    IllegalMove,
    LoadError,
    Match,
    Move,
    Record,
    Result,
    RulesError,
    State,
    make,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Game",
    "GameRng",
    "IllegalMove",
    "LoadError",
    "Match",
    "Move",
    "Record",
    "Result",
    "RulesError",
    "State",
    "__version__",
    "games",
    "load",
    "make",
    "replay",
]


def load(text: str) -> State:
    """Load any saved game (`State.to_json()` text), whichever game it is."""
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadError(f"not a saved game (invalid JSON: {exc})") from None
    if not isinstance(data, dict) or "game" not in data:
        raise LoadError("not a saved parlour game")
    game = make(data["game"], players=data.get("players"), rules=data.get("rules"))
    state: State = game.load(text)
    return state
