"""What happens in a game of Sorry!, as typed events (see `parlour.core.events`).

`player` is the seat that moves or owns a pawn, `colour` a colour's name ("red"). Squares are
names as in `board` ("r4", "b9", "rs2") and "start" / "home" for a colour's START and HOME (the
colour beside them says whose). Cards are their tokens ("5", "S").

A turn with a card is told in order: `Played` (the card, the move and where each pawn it moves
goes), then what the landing caused — a `Bumped` pawn on the square landed on, a `Slid` pawn and
the pawns its slide `Bumped` —, then in the point-score game `Drew`; a `Won` when it ends the
game. A turn that cannot use its card is `Forfeited`. Enough, in that order, for a client to
animate a turn without working anything out. Every event is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from parlour.core import events_from_wire

from .notation import SorryMove, parse_move

__all__ = [
    "KINDS",
    "Bumped",
    "Drew",
    "Forfeited",
    "Played",
    "Reshuffled",
    "Slid",
    "Won",
    "view_events",
]


class Played(NamedTuple):
    """`player` used a card for `colour` (the colour whose turn it is): `move`. `pawns` says
    where each pawn the card moves goes, in order, as (colour, from square, to square) —
    before any slide: `("red", "r4", "r9")`; a pawn entering goes from "start", one reaching
    HOME to "home". An 11's change of places moves two pawns: the mover's and the opponent's."""

    player: int
    colour: str
    move: SorryMove
    pawns: tuple[tuple[str, str, str], ...]
    kind: str = "play"


class Slid(NamedTuple):
    """A pawn of `player`'s `colour` landed on a slide's triangle (`source`) and slid to its round
    end (`dest`), seed 003 rule 8. The pawns the slide sent back follow as `Bumped`."""

    player: int
    colour: str
    source: str
    dest: str
    kind: str = "slide"


class Bumped(NamedTuple):
    """A pawn of `player`'s `colour` on `square` was sent back to its START (seed 003 rule 7)."""

    player: int
    colour: str
    square: str
    kind: str = "bump"


class Forfeited(NamedTuple):
    """`player` made no move with `card` for `colour`: the turn is forfeited (seed 003 rule 6).
    `from_hand`: the point-score game, where `card` was discarded from the hand. `declined`: an
    11 could have changed places, and the player chose not to (the change is optional when the
    11 cannot go forward 11); otherwise no card could be used at all."""

    player: int
    colour: str
    card: str
    from_hand: bool
    declined: bool = False
    kind: str = "forfeit"


class Drew(NamedTuple):
    """Point-score game: `player` drew a card into `colour`'s hand (which card is not public)."""

    player: int
    colour: str
    kind: str = "draw"


class Reshuffled(NamedTuple):
    """The pack ran out: the discards were shuffled into a new pack."""

    kind: str = "reshuffle"


class Won(NamedTuple):
    """`colours` brought every pawn HOME and won; `players[i]` plays `colours[i]` (a partnership
    has two colours; with 2 players one seat plays both)."""

    players: tuple[int, ...]
    colours: tuple[str, ...]
    kind: str = "win"


#: Every kind, for rebuilding events that arrived as JSON (`parlour.core.events_from_wire`).
KINDS: dict[str, Any] = {
    cls._field_defaults["kind"]: cls
    for cls in (Played, Slid, Bumped, Forfeited, Drew, Reshuffled, Won)
}


def view_events(view: Mapping[str, Any]) -> list[Any]:
    """A view's events as typed events, whether it came from `view()` or as JSON (a view's
    events are all of one kind or the other: the first tells)."""
    events = view.get("events") or []
    if events and isinstance(events[0], Mapping):
        return events_from_wire(events, KINDS, parse_move)
    return list(events)
