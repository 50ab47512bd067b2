"""parlour's core: the game protocol, typed events, rule options, registry, records and matches.

The modules form a stack, each importing only those above it in this list (a test checks it):
errors, options, rng, events, formats, record, protocol, match, registry, replay.
"""

from .errors import (
    IllegalMove,
    LoadError,
    NotAMove,
    NotLegalNow,
    ParlourError,
    RulesError,
    SetupError,
    refuse,
)
from .events import Event, events_from_wire, to_wire, view_to_wire
from .formats import MatchFormat
from .match import Match
from .options import option, option_table, override, rules_to_dict
from .protocol import ENVELOPE, Game, Move, Result, State
from .record import Record
from .registry import GameInfo, WebAssets, games, info, make, register, register_package
from .replay import replay
from .rng import GameRng

__all__ = [
    "ENVELOPE",
    "Event",
    "Game",
    "GameInfo",
    "GameRng",
    "IllegalMove",
    "LoadError",
    "Match",
    "MatchFormat",
    "Move",
    "NotAMove",
    "NotLegalNow",
    "ParlourError",
    "Record",
    "Result",
    "RulesError",
    "SetupError",
    "State",
    "WebAssets",
    "events_from_wire",
    "games",
    "info",
    "make",
    "option",
    "option_table",
    "override",
    "refuse",
    "register",
    "register_package",
    "replay",
    "rules_to_dict",
    "to_wire",
    "view_to_wire",
]
