"""What happens in a game of Who's Who, as typed events (see `parlour.core.events`).

Players are seat indexes of the game (from 0); cards are their text (`"11 brains"`). Every event is
public and says no more than the table sees: a deal says who dealt and how many cards, never which;
a call says who called on whom for what and whether the card was given, as it is said aloud.

Game No. 1 (tricks): `Dealt`, `Preferred`, `Played`, `TrickWon`, `DealOver`, `GameOver`.
Game No. 2 (books): `DealtAround`, `Called`, `Thanked`, `Returned`, `BookLaid`, `PassedOver`,
`GameOver`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from parlour.core import events_from_wire

__all__ = [
    "KINDS",
    "BookLaid",
    "Called",
    "DealOver",
    "Dealt",
    "DealtAround",
    "GameOver",
    "PassedOver",
    "Played",
    "Preferred",
    "Returned",
    "Thanked",
    "TrickWon",
    "typed_events",
]


# --- Game No. 1 ------------------------------------------------------------------------------
class Dealt(NamedTuple):
    """Deal number `deal` of `deals` (from 1): `dealer` dealt `cards` cards to each player, the
    rest of the pack laid aside unseen."""

    dealer: int
    deal: int
    deals: int
    cards: int
    kind: str = "deal"


class Preferred(NamedTuple):
    """The player on the dealer's left named `suit` the Preference suit for this deal."""

    player: int
    suit: str
    kind: str = "prefer"


class Played(NamedTuple):
    """A card was played to the trick: from `player`'s hand to the table."""

    player: int
    card: str
    kind: str = "play"


class TrickWon(NamedTuple):
    """The trick was complete and `player` took it with `card` (the trick's cards are the last
    `Played` events, one per player); `player` leads the next."""

    player: int
    card: str
    kind: str = "trick"


class DealOver(NamedTuple):
    """Deal number `deal` (from 1) is over; `won` is the tricks each player took in it (one point
    each)."""

    deal: int
    won: tuple[int, ...]
    kind: str = "deal_over"


# --- Game No. 2 ------------------------------------------------------------------------------
class DealtAround(NamedTuple):
    """`dealer` dealt the whole pack around, one at a time from the left."""

    dealer: int
    kind: str = "deal_around"


class Called(NamedTuple):
    """`player` called on `target` for `card`. `given`: the card passed from `target`'s hand to
    `player`'s (a "Thank you" is now owed, where the rule is on); otherwise `target` had none and
    the call goes to `target`."""

    player: int
    target: int
    card: str
    given: bool
    kind: str = "call"


class Thanked(NamedTuple):
    """`player` said "Thank you" to `giver` for `card`, and keeps it."""

    player: int
    giver: int
    card: str
    kind: str = "thank"


class Returned(NamedTuple):
    """`player` called again without saying "Thank you": `card` went back to `to`, who calls next
    (the forgetful call itself is void)."""

    player: int
    to: int
    card: str
    kind: str = "return"


class BookLaid(NamedTuple):
    """`player` laid down the book of `number`s (all four cards of it, face up)."""

    player: int
    number: int
    kind: str = "book"


class PassedOver(NamedTuple):
    """`player` has no cards left and is passed over: the call goes on to the left."""

    player: int
    kind: str = "passed_over"


# --- both -------------------------------------------------------------------------------------
class GameOver(NamedTuple):
    """The game is over: `winners` (a tie shares it), with every player's `points` as the result
    counts them — points (tricks; a partnership's together) in Game No. 1, books in Game No. 2,
    as `unit` says ("point" or "book")."""

    winners: tuple[int, ...]
    points: tuple[int, ...]
    unit: str
    kind: str = "game_over"


#: Every kind of both games, for rebuilding events that arrived as JSON (`events_from_wire`).
KINDS: dict[str, Any] = {
    cls._field_defaults["kind"]: cls
    for cls in (
        Dealt,
        Preferred,
        Played,
        TrickWon,
        DealOver,
        DealtAround,
        Called,
        Thanked,
        Returned,
        BookLaid,
        PassedOver,
        GameOver,
    )
}


def _no_move(text: str) -> Any:  # pragma: no cover - no Who's Who event holds a move
    raise ValueError(f"a Who's Who event holds no move: {text!r}")


def typed_events(items: Sequence[Any]) -> list[Any]:
    """A view's or a save's events as typed events, whether they are typed already (a view from
    `view()`: a plain copy) or wire objects (a view or a save as JSON)."""
    if _TYPES.issuperset(map(type, items)):
        return list(items)
    return events_from_wire(items, KINDS, _no_move)


_TYPES = frozenset(KINDS.values())
