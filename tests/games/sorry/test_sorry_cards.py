"""The pack (seed 003 rule 1; counts from RULES-NOTES) and its reshuffle."""

from __future__ import annotations

from collections import Counter

from sorry_helpers import events, make

from parlour.games.sorry.cards import SORRY, deck
from parlour.games.sorry.events import Reshuffled


def test_pack_of_45_with_five_ones_and_no_sixes_or_nines() -> None:
    # seed 003 rule 1: "1 pack of cards (there are no 6's or 9's in the pack)"
    cards = Counter(deck("1972"))
    assert sum(cards.values()) == 45
    assert cards[1] == 5
    assert all(cards[c] == 4 for c in (2, 3, 4, 5, 7, 8, 10, 11, 12, SORRY))
    assert cards[6] == 0 and cards[9] == 0


def test_1939_pack_has_44_cards() -> None:
    cards = Counter(deck("1939"))
    assert sum(cards.values()) == 44 and set(cards.values()) == {4}


def test_1939_pack_as_an_option() -> None:
    state = make(deck="1939")
    assert state.view(None)["pack"] == 43  # one card is face up


def test_pack_is_reshuffled_when_used_up() -> None:
    # issue 3: "reshuffled when used up"; seed 003 rule 4: each player "draws a card, discards it"
    state = make()
    seen = 0
    while not state.is_over and seen < 200:
        state.apply(state.legal_moves()[0])
        seen += 1
        view = state.view(None)
        on_table = view["pack"] + len(view["discard"]) + (1 if view["card"] else 0)
        assert on_table == 45
    assert Reshuffled() in events(state)
