"""The Whot! pack: five symbols, the WHOT cards, and the text of a card.

A card is a small int, `number * 8 + symbol`, so the hot paths of the engine compare ints:
`card & 7` is the symbol and `card >> 3` the number. Two packs simply hold each card twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from parlour.core import IllegalMove

__all__ = [
    "CIRCLE",
    "CROSS",
    "PACK",
    "SQUARE",
    "STAR",
    "SYMBOLS",
    "TRIANGLE",
    "WHOT",
    "WHOT_SYMBOL",
    "card",
    "card_points",
    "card_text",
    "hand_points",
    "number",
    "parse_card",
    "parse_symbol",
    "symbol",
]

CIRCLE, TRIANGLE, CROSS, SQUARE, STAR, WHOT_SYMBOL = range(6)
SYMBOLS = ("circle", "triangle", "cross", "square", "star")
GLYPHS = ("●", "▲", "✚", "■", "★", "W")

# seed 000, "THE CARDS IN THE PACK" (seed 002's table agrees): 54 cards, no 6s or 9s.
_NUMBERS = {
    CIRCLE: (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14),
    TRIANGLE: (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14),
    CROSS: (1, 2, 3, 5, 7, 10, 11, 13, 14),
    SQUARE: (1, 2, 3, 5, 7, 10, 11, 13, 14),
    STAR: (1, 2, 3, 4, 5, 7, 8),
}


def card(num: int, sym: int) -> int:
    return num * 8 + sym


WHOT = card(20, WHOT_SYMBOL)  # '"WHOT" - FIVE Cards (count 20 when scoring)'
PACK: tuple[int, ...] = tuple([card(n, s) for s in range(5) for n in _NUMBERS[s]] + [WHOT] * 5)
assert len(PACK) == 54  # "(54 Cards in all)"
_IN_PACK = frozenset(PACK)


def symbol(c: int) -> int:
    return c & 7


def number(c: int) -> int:
    return c >> 3


def card_points(c: int) -> int:
    """Score of a card left in hand: its number, stars double (the inner number), WHOT 20."""
    n = c >> 3
    return n * 2 if c & 7 == STAR else n


def hand_points(hand: Iterable[int], knockout: bool = False, star_doubling: bool = False) -> int:
    """seed 000: "The score against each player is the total of the numbers on the cards he still
    holds ... STARS COUNT DOUBLE". Knock-out Whot (seed 002): one star left doubles the whole hand,
    two or more multiply it by four. The star-doubling variation (seed 002): "Players double their
    entire score for each star card remaining in their hand" (three stars: x8)."""
    total = 0
    stars = 0
    for c in hand:
        total += card_points(c)
        if c & 7 == STAR:
            stars += 1
    if knockout and stars:
        total *= 2 if stars == 1 else 4
    elif star_doubling:
        total <<= stars
    return total


_TEXT = {c: ("whot" if c == WHOT else f"{c >> 3} {SYMBOLS[c & 7]}") for c in _IN_PACK}


def card_text(c: int) -> str:
    return _TEXT[c]


def card_glyph(c: int) -> str:
    return "WHOT" if c == WHOT else f"{c >> 3}{GLYPHS[c & 7]}"


_SYMBOL_WORDS: dict[str, int] = {}
for _i, _name in enumerate(SYMBOLS):
    for _w in (_name, _name + "s", _name[0], _name[:2], _name[:3], GLYPHS[_i]):
        _SYMBOL_WORDS.setdefault(_w, _i)
_SYMBOL_WORDS["c"] = CIRCLE  # "c" alone is a circle; crosses are "x" or "cr"
_SYMBOL_WORDS["x"] = CROSS
_SYMBOL_WORDS["s"] = SQUARE  # "s" alone is a square; stars are "st" or "*"
_SYMBOL_WORDS["*"] = STAR


def parse_symbol(word: str) -> int:
    sym = _SYMBOL_WORDS.get(word.strip().lower())
    if sym is None:
        raise IllegalMove(f"{word!r} is not a symbol; the symbols are {', '.join(SYMBOLS)}")
    return sym


def parse_card(text: str) -> int:
    """`5 circle`, `5 circles`, `circle 5`, `5c`, `whot`, `20`, `20 whot`."""
    words = text.strip().lower().replace(",", " ").split()
    if words in (["whot"], ["20"], ["20", "whot"], ["whot", "20"], ["w"]):
        return WHOT
    if len(words) == 1:  # "5c", "14cross"
        w = words[0]
        i = 0
        while i < len(w) and w[i].isdigit():
            i += 1
        words = [w[:i], w[i:]] if 0 < i < len(w) else words
    if len(words) != 2:
        raise IllegalMove(f"{text!r} is not a card; write a number and a symbol, like '5 circle'")
    a, b = words
    if not a.isdigit() and b.isdigit():
        a, b = b, a
    if not a.isdigit():
        raise IllegalMove(f"{text!r} is not a card; write a number and a symbol, like '5 circle'")
    c = card(int(a), parse_symbol(b))
    if c not in _IN_PACK:
        sym = SYMBOLS[c & 7]
        have = ", ".join(str(n) for n in _NUMBERS[c & 7])
        plural = sym + ("es" if sym.endswith("s") else "s")
        raise IllegalMove(f"there is no {a} {sym} in the Whot! pack; {plural} are {have}")
    return c


def pack_counter(packs: int) -> Counter[int]:
    return Counter({c: k * packs for c, k in Counter(PACK).items()})
