"""Knock-out Whot (seed 002): star play on either number, and the star multipliers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import parlour
from parlour.games.whot.cards import hand_points, parse_card


def start(hands: list[list[str]], pile: Sequence[str], rules: str = "knockout", **opts: Any) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, **opts)
    return game.new_game(0, position={"hands": hands, "pile": list(pile), "to_play": 0})


def plays(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves() if str(m).startswith("play ")}


def test_star_plays_on_its_inner_number() -> None:
    # seed 002: "You can play your star card if the call-card shows a star or any of the numbers on
    # your star card. (Either the number outside the star, or the number inside the star)."
    state = start([["4 star", "3 star", "1 cross"], ["2 cross"]], pile=("8 circle",))
    assert plays(state) == {"play 4 star"}  # inner 8; the 3 star's inner number is 6


def test_star_plays_on_its_outer_number_and_on_a_star() -> None:
    state = start([["4 star", "1 cross"], ["2 cross"]], pile=("4 circle",))
    assert plays(state) == {"play 4 star"}
    state = start([["4 star", "1 cross"], ["2 cross"]], pile=("7 star",))
    assert plays(state) == {"play 4 star"}


def test_without_knockout_the_inner_number_is_not_played() -> None:
    # seed 000: "These white numbers MUST NOT be used in play"
    state = start([["4 star", "1 cross"], ["2 cross"]], pile=("8 circle",), rules="english")
    assert plays(state) == set()


def test_inner_number_does_not_help_other_cards() -> None:
    # Only "your star card" gains its inner number; an 8 circle does not follow a 4 star.
    state = start([["8 circle", "1 cross"], ["2 cross"]], pile=("4 star",))
    assert plays(state) == set()


@pytest.mark.parametrize(
    ("hand", "plain", "knockout"),
    [
        (["10 circle", "3 cross"], 13, 13),
        (["10 circle", "3 star"], 16, 32),  # one star: x2
        (["10 circle", "3 star", "1 star"], 18, 72),  # two stars: x4
        (["2 star", "3 star", "1 star", "whot"], 32, 128),  # three stars: still x4
    ],
)
def test_knockout_multipliers(hand: list[str], plain: int, knockout: int) -> None:
    # seed 002: "If you have one star card left among the cards that you hold, then the entire
    # added up value of all your cards is doubled. If you have two or more star cards left ...
    # then the entire added up value of all your cards is taken times four."
    cards = [parse_card(t) for t in hand]
    assert hand_points(cards) == plain
    assert hand_points(cards, knockout=True) == knockout


def test_knockout_result_uses_the_multipliers() -> None:
    state = start([["5 circle"], ["10 circle", "3 star"], ["1 star", "2 star"]], pile=("7 circle",))
    state.apply("play 5 circle")
    assert state.result().points == (0, 32, 24)
    state = start(
        [["5 circle"], ["10 circle", "3 star"], ["1 star", "2 star"]],
        pile=("7 circle",),
        rules="english",
    )
    state.apply("play 5 circle")
    assert state.result().points == (0, 16, 6)
