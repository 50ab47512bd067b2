"""The Sorry! pack: what is in it and what each card lets a player do."""

from __future__ import annotations

__all__ = ["CARD_TEXT", "SORRY", "VALUES", "card_token", "deck", "parse_card"]

SORRY = 13
VALUES = (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, SORRY)

# The card texts, in substance (RULES-NOTES: 2005 Hasbro printing; the 1972 cards read the same).
CARD_TEXT = {
    1: "Start a pawn, or move one pawn forward 1.",
    2: "Start a pawn, or move one pawn forward 2. Draw again.",
    3: "Move one pawn forward 3.",
    4: "Move one pawn backward 4.",
    5: "Move one pawn forward 5.",
    7: "Move one pawn forward 7, or split the 7 between two pawns (no starting).",
    8: "Move one pawn forward 8.",
    10: "Move one pawn forward 10, or backward 1.",
    11: "Move one pawn forward 11, or change places with an opponent's pawn on the track.",
    12: "Move one pawn forward 12.",
    SORRY: "Take a pawn from START to the square of an opponent's pawn, which goes to its START.",
}


def card_token(card: int) -> str:
    return "S" if card == SORRY else str(card)


_TOKENS = {card_token(c).lower(): c for c in VALUES} | {"sorry": SORRY, "sorry!": SORRY}


def parse_card(text: str) -> int | None:
    return _TOKENS.get(text.strip().lower())


def deck(kind: str) -> list[int]:
    """The cards of a pack, unshuffled.

    "1972": 45 cards, five 1s and four of each other card (RULES-NOTES; seed 003: "there are no
    6's or 9's in the pack"). "1939": 44 cards, four of each.
    """
    cards = [c for c in VALUES for _ in range(4)]
    if kind == "1972":
        cards.append(1)
        cards.sort()
    return cards
