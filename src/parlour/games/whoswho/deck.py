"""The Who's Who pack: four suits of thirteen characters, numbered 3..15 by their names' length.

Seed 004 describes the cards but never prints them. What is on the sheet: four suits — Money,
Society, Brains, Sport — told apart by the character, "the color of the number" and an emblem ("the
dollar mark for Money, a fan and slipper for Society, an owl for Brains, and crossed dumbbells for
Sport"); "the cards rank according to the length of the characters' names"; "The number of letters
in each name is indicated by a figure"; Game No. 2 calls for "Four, yellow" and "Four, money".

**Reconstructed** (RULES-NOTES.md): one card per number 3..15 in each suit, 52 in all, so "Four,
yellow" names exactly one card and a book is one number in all four suits. Only Money's colour
(yellow) is on the sheet; red for Society, blue for Brains and green for Sport are our choice. Every
character name below is **invented** in the period manner: the originals are not known. A name's
number is its count of letters (initials and titles count, spaces and stops do not).

Cards are `Card(number, suit)` tuples, printed as `11 brains`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from random import Random
from typing import NamedTuple

from parlour.core import IllegalMove

__all__ = [
    "CARD_TEXT",
    "COLOURS",
    "DECK",
    "EMBLEMS",
    "NAMES",
    "NUMBERS",
    "SUITS",
    "SUIT_BIT",
    "Card",
    "card_name",
    "constrained_deal",
    "constrained_dealer",
    "insert_card",
    "letter_count",
    "parse_card",
    "parse_suit",
    "sort_cards",
]

SUITS: tuple[str, ...] = ("money", "society", "brains", "sport")
NUMBERS: tuple[int, ...] = tuple(range(3, 16))

# Seed 004: "the color of the number aids". Yellow for Money is on the sheet; the rest are ours.
COLOURS: dict[str, str] = {"money": "yellow", "society": "red", "brains": "blue", "sport": "green"}
# Seed 004: "the dollar mark for Money, a fan and slipper for Society, an owl for Brains, and
# crossed dumbbells for Sport".
EMBLEMS: dict[str, str] = {
    "money": "dollar mark",
    "society": "fan and slipper",
    "brains": "owl",
    "sport": "crossed dumbbells",
}

# INVENTED names (the originals are unknown), in order of number 3..15.
_NAMES: dict[str, tuple[str, ...]] = {
    "money": (
        "Max",
        "Cash",
        "Nabob",
        "Mr. Gelt",
        "Cox Bond",
        "Mr. Ledger",
        "Silas Till",
        "Sir Bullion",
        "Rex Dollarby",
        "Dora Dividend",
        "Jasper Goldbug",
        "Baron Moneybags",
        "Cornelius Coffer",
    ),
    "society": (
        "Flo",
        "Fifi",
        "Dolly",
        "Bertie",
        "Lady Ivy",
        "Mrs. Swell",
        "Lady Fanny",
        "Lord Fopley",
        "Mrs. Van Snoot",
        "Lady Gadabout",
        "Marquis de Ritz",
        "Algernon Tattle",
        "Reginald Poshley",
    ),
    "brains": (
        "Doc",
        "Quiz",
        "Dr. Wit",
        "Dr. Nous",
        "Ada Sums",
        "Sage Mull",
        "Dr. Thinkum",
        "Sophie Lore",
        "Prof. Owlsley",
        "Abner Almanac",
        "Minerva Booker",
        "Euphemia Scroll",
        "Ignatius Inkwell",
    ),
    "sport": (
        "Tex",
        "Biff",
        "Spike",
        "Kid Jab",
        "Hap Hurl",
        "Bunny Lob",
        "Goalie Gus",
        "Butch Bicep",
        "Skip Sculler",
        "Slugger Swatt",
        "Hurdle Hopkins",
        "Bronco Bareback",
        "Hank Hammerthrow",
    ),
}


class Card(NamedTuple):
    number: int
    suit: str

    def __str__(self) -> str:
        return f"{self.number} {self.suit}"


DECK: tuple[Card, ...] = tuple(Card(n, s) for s in SUITS for n in NUMBERS)
NAMES: dict[Card, str] = {Card(n, s): _NAMES[s][n - 3] for s in SUITS for n in NUMBERS}
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
#: A suit as one bit, in the order of SUITS: a set of suits (of one number, say) is an int.
SUIT_BIT: dict[str, int] = {s: 1 << i for i, s in enumerate(SUITS)}
_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}
#: Each card's text, `str(card)`, looked up (`Card.__str__` is a Python call): for hot paths.
CARD_TEXT: dict[Card, str] = {c: t for t, c in _CARD_BY_TEXT.items()}

_NUMBER_WORDS = {
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
}
_SUIT_WORDS: dict[str, str] = {}
for _s in SUITS:
    _SUIT_WORDS[_s] = _s
    _SUIT_WORDS[COLOURS[_s]] = _s
    _SUIT_WORDS[EMBLEMS[_s]] = _s
_SUIT_WORDS.update({"societies": "society", "sports": "sport", "dollar": "money", "owl": "brains"})
_SUIT_WORDS.update({"yellows": "money", "reds": "society", "blues": "brains", "greens": "sport"})


def letter_count(name: str) -> int:
    """Letters in a name: what its figure shows (seed 004: "The number of letters in each name")."""
    return sum(1 for ch in name if ch.isalpha())


def card_name(card: Card) -> str:
    return NAMES[card]


def parse_suit(word: str) -> str:
    """A suit from its title or its colour (seed 004: "Four, yellow" or "Four, money")."""
    w = " ".join(word.strip().lower().replace(",", " ").split())
    try:
        return _SUIT_WORDS[w]
    except KeyError:
        words = ", ".join(f"{s} ({COLOURS[s]})" for s in SUITS)
        raise IllegalMove(f"{word!r} is not a suit; the suits are {words}") from None


def parse_number(word: str) -> int:
    w = word.strip().lower().rstrip(",")
    n = _NUMBER_WORDS.get(w)
    if n is None:
        try:
            n = int(w)
        except ValueError:
            raise IllegalMove(f"{word!r} is not a card number (3 to 15)") from None
    if n not in NUMBERS:
        raise IllegalMove(f"there is no {n} in the pack: the numbers run from 3 to 15")
    return n


def parse_card(text: str) -> Card:
    """`11 brains`, `11 blue`, `Eleven, brains` -> Card(11, 'brains')."""
    exact = _CARD_BY_TEXT.get(text)
    if exact is not None:
        return exact
    words = text.strip().lower().replace(",", " ").split()
    if len(words) < 2:
        raise IllegalMove(f"{text!r} is not a card; name a number and a suit, like '11 brains'")
    return Card(parse_number(words[0]), parse_suit(" ".join(words[1:])))


# Each card's place in `sort_cards`' order, read by the sort in C (a key function in Python was
# most of the time of the search's deals and sorted hands).
_SORT_KEY: dict[Card, int] = {
    c: i for i, c in enumerate(sorted(DECK, key=lambda c: (_SUIT_ORDER[c.suit], c.number)))
}
_SORT_KEY_OF = _SORT_KEY.__getitem__


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Suit by suit (Money, Society, Brains, Sport), low to high within a suit."""
    return sorted(cards, key=_SORT_KEY_OF)


def insert_card(hand: list[Card], card: Card) -> None:
    """Put `card` into `hand`, kept in `sort_cards`' order, in place (a search's playouts move a
    card into a hand at most calls: a bisection, not a sort of the whole hand)."""
    insort(hand, card, key=_SORT_KEY_OF)


_TRIES = 12


def constrained_deal(
    cards: Sequence[Card],
    sizes: Sequence[int],
    allowed: Sequence[Iterable[int]],
    rng: Random,
) -> list[list[Card]]:
    """Share `cards` out into piles of `sizes`, card `i` only to a pile in `allowed[i]`.

    Used to redraw what a player cannot see consistently with what the table has shown (a player
    who did not follow suit has none of it; a card publicly given is in that hand). A shuffled deal
    that breaks no constraint is taken as it is (every consistent deal equally likely); after a few
    that do, a bipartite matching with augmenting paths in random order finds an answer whenever
    one exists. Raises ValueError when none does.
    """
    return constrained_dealer(cards, sizes, allowed)(rng)


def constrained_dealer(
    cards: Sequence[Card], sizes: Sequence[int], allowed: Sequence[Iterable[int]]
) -> Callable[[Random], list[list[Card]]]:
    """`constrained_deal` for many deals of the same cards under the same constraints: what it
    works out of them is worked out once. `constrained_dealer(cards, sizes, allowed)(rng)` is
    `constrained_deal(cards, sizes, allowed, rng)`: the same piles from the same draws."""
    if sum(sizes) != len(cards):
        raise ValueError("piles and cards do not add up")
    cards = list(cards)
    slots: list[int] = [p for p, k in enumerate(sizes) for _ in range(k)]
    # Search bots draw hundreds of these a move, so first the quick way: shuffle, deal in order,
    # and keep the deal if it breaks no constraint. Rejection keeps every consistent deal equally
    # likely, as it should be; few tries fail while few suits are known to be missing.
    every = set(range(len(sizes)))
    allow_sets = [a if isinstance(a, (set, frozenset)) else set(a) for a in allowed]
    tries = 1 if all(a >= every for a in allow_sets) else _TRIES
    # A deal in order gives pile p the slots from bounds[p] to bounds[p + 1]: it breaks no
    # constraint when no pile that refuses some card got one of those it refuses.
    bounds = [0]
    for k in sizes:
        bounds.append(bounds[-1] + k)
    checks = [
        (bounds[p], bounds[p + 1], refused)
        for p in range(len(sizes))
        if (refused := frozenset(ci for ci, a in enumerate(allow_sets) if p not in a))
    ]
    spans = [(bounds[p], bounds[p + 1]) for p in range(len(sizes))]

    def deal(rng: Random) -> list[list[Card]]:
        deck = list(range(len(cards)))
        for _ in range(tries):
            rng.shuffle(deck)
            if all(refused.isdisjoint(deck[a:b]) for a, b, refused in checks):
                return [[cards[ci] for ci in deck[a:b]] for a, b in spans]
        return _matched(cards, sizes, slots, allow_sets, rng)

    return deal


def _matched(
    cards: Sequence[Card],
    sizes: Sequence[int],
    slots: list[int],
    allow: Sequence[set[int] | frozenset[int]],
    rng: Random,
) -> list[list[Card]]:
    """A consistent deal by bipartite matching, augmenting paths in random order (see
    `constrained_deal`); ValueError when there is none."""
    order = list(range(len(cards)))
    rng.shuffle(order)
    slot_order = list(range(len(slots)))
    rng.shuffle(slot_order)
    owner: list[int] = [-1] * len(slots)  # slot -> card index

    def place(ci: int, seen: set[int]) -> bool:
        for si in slot_order:
            if si in seen or slots[si] not in allow[ci]:
                continue
            seen.add(si)
            if owner[si] < 0 or place(owner[si], seen):
                owner[si] = ci
                return True
        return False

    for ci in order:
        if not place(ci, set()):
            raise ValueError("no deal is consistent with what is known")
    piles: list[list[Card]] = [[] for _ in sizes]
    for si, ci in enumerate(owner):
        piles[slots[si]].append(cards[ci])
    return piles
