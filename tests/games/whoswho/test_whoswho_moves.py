"""Who's Who moves are interned: equal moves are one object, however they are made, so equality and
hashing are by identity (the legal-move check of every `apply` and the search tree's dicts)."""

from __future__ import annotations

import copy
import pickle

import pytest

import parlour
from parlour.games.whoswho.deck import Card, parse_card
from parlour.games.whoswho.notation import THANK, Ask, Play, Prefer, Thank


def test_equal_moves_are_one_object_however_they_are_made() -> None:
    card = parse_card("11 brains")
    assert Play(card) is Play(Card(11, "brains")) is Play((11, "brains"))  # type: ignore[arg-type]
    assert Prefer("money") is Prefer("money")
    assert Ask(1, card) is Ask(1, Card(11, "brains"))
    assert Thank() is THANK
    tricks = parlour.make("whoswho-tricks", players=4)
    assert tricks.parse_move("play 11 blue") is Play(card)
    books = parlour.make("whoswho-books", players=4)
    assert books.parse_move("ask 2 for eleven, brains") is Ask(1, card)


def test_different_moves_differ() -> None:
    card = parse_card("11 brains")
    assert Play(card) != Play(parse_card("12 brains"))
    assert Ask(1, card) != Ask(2, card)
    assert len({Play(card), Play(card), Prefer("money"), THANK}) == 3


@pytest.mark.parametrize(
    "move", [Prefer("sport"), Play(parse_card("3 money")), Ask(3, parse_card("15 sport")), THANK]
)
def test_copies_and_pickles_are_the_same_object(move: object) -> None:
    assert pickle.loads(pickle.dumps(move)) is move
    assert copy.copy(move) is move
    assert copy.deepcopy(move) is move


def test_moves_are_immutable() -> None:
    move = Play(parse_card("3 money"))
    with pytest.raises(AttributeError):
        move.card = parse_card("4 money")
    assert move.card == Card(3, "money")
