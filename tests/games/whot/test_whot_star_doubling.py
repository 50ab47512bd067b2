"""The star variation of seed 002 ("Variations"): each star left doubles the score, and stars
play on either of their numbers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import parlour
from parlour.core import RulesError
from parlour.games.whot.cards import hand_points, parse_card


def start(hands: list[list[str]], pile: Sequence[str], **opts: Any) -> Any:
    game = parlour.make("whot", players=len(hands), rules="english", star_doubling=True, **opts)
    return game.new_game(0, position={"hands": hands, "pile": list(pile), "to_play": 0})


def plays(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves() if str(m).startswith("play ")}


@pytest.mark.parametrize(
    ("hand", "plain", "doubled"),
    [
        (["10 circle", "3 cross"], 13, 13),
        (["10 circle", "3 star"], 16, 32),  # one star: x2
        (["10 circle", "3 star", "1 star"], 18, 72),  # two: x4
        (["10 circle", "1 star", "2 star", "3 star"], 22, 176),  # three: x8
        (["whot", "1 star", "2 star", "3 star", "4 star"], 40, 640),  # four: x16
    ],
)
def test_each_star_left_doubles_the_whole_score(hand: list[str], plain: int, doubled: int) -> None:
    # seed 002, Variations: "Players double their entire score for each star card remaining in
    # their hand at the end of play" — three stars and the 10 circle: (2 + 4 + 6 + 10) x 8.
    cards = [parse_card(t) for t in hand]
    assert hand_points(cards) == plain
    assert hand_points(cards, star_doubling=True) == doubled


def test_the_count_at_the_end_uses_it() -> None:
    state = start(
        [["10 circle", "1 star", "2 star", "3 star"], ["4 circle"]],
        pile=("7 circle",),
        straights="off",
    )
    state.apply("play 10 circle")
    state.apply("play 4 circle")
    assert state.is_over
    assert state.result().points == ((2 + 4 + 6) * 8, 0)


def test_stars_play_on_either_number() -> None:
    # seed 002, Variations: "but are also able to play star cards using either the number in the
    # top left or the doubled number written in the star."
    state = start([["4 star", "3 star", "1 cross"], ["2 cross"]], pile=("8 circle",))
    assert plays(state) == {"play 4 star"}  # inner 8; the 3 star's inner number is 6
    state = start([["4 star", "1 cross"], ["2 cross"]], pile=("4 circle",))
    assert plays(state) == {"play 4 star"}  # its outer number, as always
    state = start([["4 star", "1 cross"], ["2 cross"]], pile=("7 star",))
    assert plays(state) == {"play 4 star"}  # and on a star


def test_off_by_default() -> None:
    # seed 000: "These white numbers MUST NOT be used in play"; "STARS COUNT DOUBLE" (only)
    game = parlour.make("whot", players=2, rules="english")
    state = game.new_game(0, position={"hands": [["4 star"], ["2 cross"]], "pile": ["8 circle"]})
    assert plays(state) == set()
    assert not game.rules.star_doubling


def test_not_with_knockout() -> None:
    with pytest.raises(RulesError, match="choose one"):
        parlour.make("whot", rules="knockout", star_doubling=True)
