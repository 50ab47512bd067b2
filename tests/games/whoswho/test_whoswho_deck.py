"""The reconstructed Who's Who pack (seed 004 never prints it; see RULES-NOTES.md)."""

from __future__ import annotations

import pytest

from parlour.core import IllegalMove
from parlour.games.whoswho.deck import (
    COLOURS,
    DECK,
    EMBLEMS,
    NAMES,
    NUMBERS,
    SUITS,
    Card,
    letter_count,
    parse_card,
    parse_suit,
    sort_cards,
)


def test_four_suits_of_thirteen() -> None:
    # seed 004: "There are four sets, or "suits," ... Money, Society, Brains, and Sport."
    assert SUITS == ("money", "society", "brains", "sport")
    # RULES-NOTES (reconstruction): one card per number 3..15 in every suit, 52 in all.
    assert len(DECK) == 52 == len(set(DECK))
    for s in SUITS:
        assert sorted(c.number for c in DECK if c.suit == s) == list(range(3, 16))


@pytest.mark.parametrize("card", DECK, ids=str)
def test_name_letter_count_is_the_number(card: Card) -> None:
    # seed 004: "The number of letters in each name is indicated by a figure."
    assert letter_count(NAMES[card]) == card.number


def test_names_are_all_different() -> None:
    assert len(set(NAMES.values())) == 52


def test_money_is_yellow_and_colours_name_one_suit_each() -> None:
    # seed 004: 'He may call for the card by the number and the color, "Four, yellow,"'
    assert COLOURS["money"] == "yellow"
    assert len(set(COLOURS.values())) == 4
    for suit, colour in COLOURS.items():
        assert parse_suit(colour) == suit


def test_emblems() -> None:
    # seed 004: "the dollar mark for Money, a fan and slipper for Society, an owl for Brains, and
    # crossed dumbbells for Sport."
    assert EMBLEMS == {
        "money": "dollar mark",
        "society": "fan and slipper",
        "brains": "owl",
        "sport": "crossed dumbbells",
    }
    assert parse_suit("owl") == "brains"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("11 brains", Card(11, "brains")),
        ("Four, yellow", Card(4, "money")),
        ("four money", Card(4, "money")),
        ("15 GREEN", Card(15, "sport")),
        ("3 fan and slipper", Card(3, "society")),
    ],
)
def test_parse_card(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("bad", ["", "11", "2 money", "16 sport", "11 hearts", "x brains"])
def test_parse_card_refuses(bad: str) -> None:
    with pytest.raises(IllegalMove):
        parse_card(bad)


def test_card_text_round_trips() -> None:
    for c in DECK:
        assert parse_card(str(c)) == c


def test_sort_cards_by_suit_then_number() -> None:
    cards = [Card(3, "sport"), Card(15, "money"), Card(4, "money")]
    assert sort_cards(cards) == [Card(4, "money"), Card(15, "money"), Card(3, "sport")]
    assert NUMBERS[0] == 3 and NUMBERS[-1] == 15
