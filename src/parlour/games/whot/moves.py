"""Whot! moves and their notation.

    play 5 circle             play a card
    play whot call star       play a WHOT, calling for stars
    play whot call star skip  ... and skip the next player (English WHOT powers: reverse, skip)
    play 2 circle reverse     a pick card said with "and change direction" (pick_reverses)
    play 7 circle, last card  play and declare (last card, semi-last card, check up)
    draw                      draw from the market (the whole pending pick, if any)
    end                       end a turn of several cards (straights, double decking)
    pass                      accept being skipped by a WHOT instead of answering with one

Every move is interned: the same move is always the same object (`parse_move`, `play` and
unpickling all go through one cache), so moves compare and hash by identity — C-level, which the
legal-move membership test in every `apply` relies on — and legal-move lists are built from
prebuilt objects.
"""

from __future__ import annotations

from parlour.core import IllegalMove, Move

from .cards import PACK, SYMBOLS, WHOT, card_text, parse_card, parse_symbol
from .rules import DECLARATIONS

__all__ = ["DRAW", "END", "PASS", "PLAIN", "WhotMove", "parse_move", "play"]


class WhotMove(Move):
    __slots__ = ("call", "card", "kind", "power", "say", "text")

    kind: str  # play | draw | end | pass
    card: int  # -1 unless kind == play
    call: int  # symbol called by a WHOT, else -1
    power: str  # "", "reverse" or "skip" (a WHOT), "" or "reverse" (a pick card)
    say: str  # "", or a declaration
    text: str  # the notation, built once

    def __init__(self, kind: str, card: int, call: int, power: str, say: str) -> None:
        s = object.__setattr__
        s(self, "kind", kind)
        s(self, "card", card)
        s(self, "call", call)
        s(self, "power", power)
        s(self, "say", say)
        if kind == "play":
            text = "play " + card_text(card)
            if card == WHOT:
                text += " call " + SYMBOLS[call]
            if power:
                text += " " + power
        else:
            text = kind
        if say:
            text += ", " + say
        s(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __str__(self) -> str:
        return self.text

    def fields(self) -> dict[str, object]:
        """`{"kind": "play", "card": "whot", "call": "star", "power": "skip", "say": "last card"}`
        (absent parts are None; a pick card said with "and change direction" has `"power":
        "reverse"`), or `{"kind": "draw", "say": None}`."""
        if self.kind != "play":
            return {"kind": self.kind, "say": self.say or None}
        return {
            "kind": "play",
            "card": card_text(self.card),
            "call": SYMBOLS[self.call] if self.call >= 0 else None,
            "power": self.power or None,
            "say": self.say or None,
        }

    def __reduce__(self) -> tuple[object, ...]:
        return (play if self.kind == "play" else _simple, self._args())

    def _args(self) -> tuple[object, ...]:
        if self.kind == "play":
            return (self.card, self.call, self.power, self.say)
        return (self.kind, self.say)


_CACHE: dict[tuple[str, int, int, str, str], WhotMove] = {}


def _intern(kind: str, card: int = -1, call: int = -1, power: str = "", say: str = "") -> WhotMove:
    key = (kind, card, call, power, say)
    m = _CACHE.get(key)
    if m is None:
        m = _CACHE[key] = WhotMove(kind, card, call, power, say)
    return m


def play(card: int, call: int = -1, power: str = "", say: str = "") -> WhotMove:
    return _intern("play", card, call, power, say)


def _simple(kind: str, say: str = "") -> WhotMove:
    return _intern(kind, say=say)


DRAW = _simple("draw")
# The plain play of each card by the card's int: the engine's hot path reads this table.
PLAIN: dict[int, WhotMove] = {c: play(c) for c in set(PACK) - {WHOT}}  # WHOT names a call
END = _simple("end")
PASS = _simple("pass")

_KIND_WORDS = {
    "draw": "draw",
    "market": "draw",
    "pick": "draw",
    "go market": "draw",
    "go to market": "draw",
    "end": "end",
    "end turn": "end",
    "done": "end",
    "pass": "pass",
}


def parse_move(text: str) -> WhotMove:
    """The move a text names. Lenient in spelling (plurals, `5c`, a bare card), strict in
    meaning."""
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text, not {type(text).__name__}")
    raw = " ".join(text.strip().lower().split())
    if not raw:
        raise IllegalMove("empty move; try 'play 5 circle', 'play whot call star' or 'draw'")
    body, _, said = raw.partition(",")
    say = " ".join(said.replace('"', "").split())
    if say and say not in DECLARATIONS:
        raise IllegalMove(f"{say!r} is not a declaration; say one of: {', '.join(DECLARATIONS)}")
    body = body.strip()
    if body in _KIND_WORDS:
        return _intern(_KIND_WORDS[body], say=say)
    words = body.split()
    if words and words[0] == "play":
        words = words[1:]
    if not words:
        raise IllegalMove("play what? name a card, like 'play 5 circle' or 'play whot call star'")
    if words[0] in ("whot", "20", "w") or words[:2] == ["20", "whot"]:
        rest = words[2:] if words[:2] == ["20", "whot"] else words[1:]
        if rest and rest[0] == "call":
            rest = rest[1:]
        if not rest:
            raise IllegalMove("a WHOT calls a symbol: 'play whot call star'")
        call = parse_symbol(rest[0])
        power = ""
        if len(rest) > 1:
            power = rest[1]
            if power not in ("reverse", "skip") or len(rest) > 2:
                extra = " ".join(rest[1:])
                raise IllegalMove(
                    f"{extra!r} is not a WHOT power; add 'reverse' or 'skip' or nothing"
                )
        return play(WHOT, call, power, say)
    power = ""
    if words[-1] == "reverse" or words[-2:] == ["change", "direction"]:
        # "Pick two and change direction" (seed 002): `play 2 circle reverse`
        words = words[:-1] if words[-1] == "reverse" else words[:-2]
        if words and words[-1] == "and":
            words = words[:-1]
        if not words:
            raise IllegalMove("reverse with what? a pick card: 'play 2 circle reverse'")
        power = "reverse"
    c = parse_card(" ".join(words))
    return play(c, power=power, say=say)
