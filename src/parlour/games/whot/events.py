"""What happens in a game of Whot!, as typed events (see `parlour.core.events`).

Players are seat indexes of the game; cards are their notation text ("5 circle", "whot"). Every
event is public: a draw says how many cards, never which.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .moves import WhotMove

__all__ = [
    "KINDS",
    "Dealt",
    "Drew",
    "GameOver",
    "GeneralMarket",
    "NothingToDraw",
    "Penalty",
    "Played",
    "Refilled",
    "Reversed",
    "Skipped",
    "Suspended",
    "TurnedUp",
]


class Dealt(NamedTuple):
    """The dealer dealt `cards` to each player."""

    dealer: int
    cards: int
    kind: str = "deal"


class TurnedUp(NamedTuple):
    """The top card of the market was turned up as the first call card (seed 002)."""

    card: str
    kind: str = "turn_up"


class Played(NamedTuple):
    """A card was played: the move says which, a WHOT's call and power, and what was said."""

    player: int
    move: WhotMove
    kind: str = "play"


class Drew(NamedTuple):
    """A player went to market: one card, or a whole pending pick (`cards` 2 or more)."""

    player: int
    cards: int
    kind: str = "draw"


class Skipped(NamedTuple):
    """A WHOT's skip took a player's turn."""

    player: int
    kind: str = "skip"


class Reversed(NamedTuple):
    """A WHOT (or a pick card, where agreed) reversed the direction of play."""

    player: int
    kind: str = "reverse"


class GeneralMarket(NamedTuple):
    """General market: every player but `player` picked one card (seed 002)."""

    player: int
    kind: str = "general_market"


class Suspended(NamedTuple):
    """Suspension: `player` misses a turn."""

    player: int
    kind: str = "suspend"


class Penalty(NamedTuple):
    """A player forgot a declaration ("last card", "check up", …) and picked `cards` cards."""

    player: int
    forgot: str
    cards: int
    kind: str = "penalty"


class Refilled(NamedTuple):
    """The market ran out: the played cards under the call card became a new one, turned over
    without shuffling (seed 000) or shuffled (seed 002)."""

    shuffled: bool
    kind: str = "refill"


class NothingToDraw(NamedTuple):
    """`player` should have drawn `cards` more, but nothing was left to draw: the market was
    empty with nothing under the call card (nothing_to_draw=pass)."""

    player: int
    cards: int
    kind: str = "nothing_to_draw"


class GameOver(NamedTuple):
    """The game ended. `how` is "last card" (the winner played it), "market ran out", "nothing
    to draw" or "blocked" (every player in a row found nothing to draw): hands were counted,
    lowest wins."""

    winners: tuple[int, ...]
    how: str
    kind: str = "game_over"


#: Every kind, for rebuilding events that arrived as JSON (`parlour.core.events_from_wire`).
KINDS: dict[str, Any] = {
    cls._field_defaults["kind"]: cls
    for cls in (
        Dealt,
        TurnedUp,
        Played,
        Drew,
        Skipped,
        Reversed,
        GeneralMarket,
        Suspended,
        Penalty,
        Refilled,
        NothingToDraw,
        GameOver,
    )
}
