"""parlour's core: the game protocol, rule options, registry, records and matches."""

from .errors import IllegalMove, LoadError, ParlourError, RulesError
from .match import Match, MatchFormat
from .options import option, option_table, override, rules_to_dict
from .protocol import Game, Move, Result, State
from .record import Record, replay
from .registry import GameInfo, games, info, make, register
from .rng import GameRng

__all__ = [
    "Game",
    "GameInfo",
    "GameRng",
    "IllegalMove",
    "LoadError",
    "Match",
    "MatchFormat",
    "Move",
    "ParlourError",
    "Record",
    "Result",
    "RulesError",
    "State",
    "games",
    "info",
    "make",
    "option",
    "option_table",
    "override",
    "register",
    "replay",
    "rules_to_dict",
]
