"""Who's Who moves and their notation.

Game No. 1 (tricks)::

    prefer society            name the Preference suit (the player left of the dealer)
    play 11 brains            play a card

Game No. 2 (books)::

    ask 2 for 4 money         call on the player in seat 2 for the Four of Money
    ask 2 for 4 yellow        the same call by colour (seed 004: "Four, yellow"); read as the above
    thank                     say "Thank you" for a card just given

Seats in the notation count from 1, as the table names them (Player 1, Player 2, ...); inside a
`Move` and its `fields()` (`{"kind": "ask", "target": 1, "card": "4 money", "number": 4,
"suit": "money"}`) they are indexes from 0. Input is lenient: capitals, commas and number words
are fine (`Ask 2 for Four, yellow`), colours stand for suits, and a bare card is a play in Game
No. 1.
"""

from __future__ import annotations

from typing import Any, ClassVar

from parlour.core import IllegalMove, Move

from .deck import DECK, SUITS, Card, parse_card, parse_suit

__all__ = [
    "THANK",
    "Ask",
    "Play",
    "Prefer",
    "Thank",
    "parse_books_move",
    "parse_tricks_move",
]


class _Interned(Move):
    """A move whose equal moves are one object: `Prefer("money")` always gives the same object, so
    equality and hashing are by identity (C-level: the legal-move check in every `apply` and the
    search tree's dicts of moves cost a pointer comparison, where a dataclass's `__eq__` and
    `__hash__` were Python calls). Immutable; pickles and copies back to the same object."""

    __slots__ = ()
    _cache: ClassVar[dict[Any, _Interned]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._cache = {}

    def _make(self, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("moves are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("moves are immutable")

    def __copy__(self) -> _Interned:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Interned:
        return self


class Prefer(_Interned):
    __slots__ = ("suit",)
    suit: str

    def __new__(cls, suit: str) -> Prefer:
        got = cls._cache.get(suit)
        if got is None:
            new = object.__new__(cls)
            new._make(("suit",), (suit,))
            got = cls._cache.setdefault(suit, new)  # (another thread may have made it meanwhile)
        return got  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Prefer, (self.suit,))

    def __str__(self) -> str:
        return f"prefer {self.suit}"

    def fields(self) -> dict[str, Any]:
        return {"kind": "prefer", "suit": self.suit}


class Play(_Interned):
    __slots__ = ("card",)
    card: Card

    def __new__(cls, card: Card) -> Play:
        got = cls._cache.get(card)
        if got is None:
            new = object.__new__(cls)
            new._make(("card",), (Card(*card),))
            got = cls._cache.setdefault(card, new)
        return got  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.card,))

    def __str__(self) -> str:
        return f"play {self.card.number} {self.card.suit}"

    def fields(self) -> dict[str, Any]:
        c = self.card
        return {"kind": "play", "card": str(c), "number": c.number, "suit": c.suit}


class Ask(_Interned):
    __slots__ = ("card", "target")
    target: int  # player index, from 0
    card: Card

    def __new__(cls, target: int, card: Card) -> Ask:
        key = (target, card)
        got = cls._cache.get(key)
        if got is None:
            new = object.__new__(cls)
            new._make(("target", "card"), (target, Card(*card)))
            got = cls._cache.setdefault(key, new)
        return got  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ask, (self.target, self.card))

    def __str__(self) -> str:
        return f"ask {self.target + 1} for {self.card.number} {self.card.suit}"

    def fields(self) -> dict[str, Any]:
        c = self.card
        return {
            "kind": "ask",
            "target": self.target,
            "card": str(c),
            "number": c.number,
            "suit": c.suit,
        }


class Thank(_Interned):
    __slots__ = ()

    def __new__(cls) -> Thank:
        got = cls._cache.get(None)
        if got is None:
            got = cls._cache.setdefault(None, object.__new__(cls))
        return got  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Thank, ())

    def __str__(self) -> str:
        return "thank"

    def fields(self) -> dict[str, Any]:
        return {"kind": "thank"}


THANK = Thank()
# Every move of a game of up to seven, made now: later they are only looked up.
for _suit in SUITS:
    Prefer(_suit)
for _card in DECK:
    Play(_card)
    for _seat in range(7):
        Ask(_seat, _card)


def _clean(text: object) -> str:
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text, not {type(text).__name__}")
    raw = text.replace(",", " ").replace('"', " ").strip().rstrip(".!?")
    return " ".join(raw.lower().split())


def parse_tricks_move(text: str) -> Prefer | Play:
    raw = _clean(text)
    if not raw:
        raise IllegalMove("empty move; try 'prefer society' or 'play 11 brains'")
    words = raw.split()
    head = words[0]
    if head in ("prefer", "preference", "name", "trump", "trumps"):
        if len(words) < 2:
            raise IllegalMove(f"prefer which suit? one of: {', '.join(SUITS)}")
        return Prefer(parse_suit(" ".join(words[1:])))
    if head == "play":
        words = words[1:]
        if not words:
            raise IllegalMove("play what? name a card, like 'play 11 brains'")
    elif not head[0].isdigit() and head not in _NUMBER_WORDS:
        raise IllegalMove(
            f"{text.strip()!r} is not a Who's Who move; try 'prefer society' or 'play 11 brains'"
        )
    return Play(parse_card(" ".join(words)))


_NUMBER_WORDS = {
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
}


def parse_books_move(text: str, players: int) -> Ask | Thank:
    raw = _clean(text)
    if not raw:
        raise IllegalMove("empty move; try 'ask 2 for 4 money' or 'thank'")
    if raw in ("thank", "thanks", "thank you", "say thank you"):
        return THANK
    words = raw.split()
    if words[0] not in ("ask", "call"):
        raise IllegalMove(
            f"{text.strip()!r} is not a Who's Who move; try 'ask 2 for 4 money', "
            "'ask 2 for 4 yellow' or 'thank'"
        )
    words = words[1:]
    if words[:1] == ["player"] or words[:1] == ["seat"]:
        words = words[1:]
    if not words or not words[0].isdigit():
        raise IllegalMove("ask whom? give a seat number, like 'ask 2 for 4 money'")
    seat = int(words[0])
    if not 1 <= seat <= players:
        raise IllegalMove(f"there is no seat {seat}: the seats are 1 to {players}")
    words = words[1:]
    if words[:1] == ["for"]:
        words = words[1:]
    if len(words) < 2:
        raise IllegalMove("ask for which card? like 'ask 2 for 4 money' or 'ask 2 for 4 yellow'")
    return Ask(seat - 1, parse_card(" ".join(words)))
