"""Entering pawns from START and the 2 that draws again (seed 003 rules 4 and 5)."""

from __future__ import annotations

import pytest
from sorry_helpers import events, make, moves, pawns

from parlour.games.sorry.events import Forfeited


@pytest.mark.parametrize("card", ["1", "2"])
def test_a_one_or_a_two_enters_a_pawn_on_the_start_exit(card: str) -> None:
    # seed 003 rule 5: "On the draw of a "1" a player may place 1 piece from START onto the small
    # circle on the square directly outside that player's START"
    state = make(card)
    assert moves(state) == [f"{card} enter r"]
    state.apply(f"{card} enter r")
    assert pawns(state, "red") == ["r4", "start", "start", "start"]


@pytest.mark.parametrize("card", ["3", "4", "5", "7", "8", "10", "11", "12"])
def test_other_cards_cannot_enter_so_the_move_is_forfeited(card: str) -> None:
    # seed 003 rule 4: "He enters 1 piece if the card so directs. Otherwise he forfeits his move."
    state = make(card)
    assert moves(state) == ["pass"]
    state.apply("pass")
    assert state.to_play == 1
    assert events(state)[-1] == Forfeited(0, "red", card, from_hand=False)


def test_two_pieces_of_one_player_may_not_share_the_entry_square() -> None:
    # seed 003 rule 5: "Two pieces of the same player may NOT occupy the entry square at one time."
    state = make("1", {"red": ["r4"]})
    assert "1 enter r" not in moves(state)
    assert moves(state) == ["1 r4"]


def test_entering_onto_an_opponent_sends_it_to_start() -> None:
    # seed 003 rule 5: "If another player's piece occupies that entry square, a piece may be
    # entered, sending the opponent to his START."
    state = make("1", {"blue": ["r4"]})
    state.apply("1 enter r")
    assert pawns(state, "red") == ["r4", "start", "start", "start"]
    assert pawns(state, "blue") == ["start"] * 4


def test_a_two_draws_again_and_the_second_card_may_move_any_piece() -> None:
    # seed 003 rule 5: "On the draw of a "2" card a player may enter a piece onto the small circle
    # as with a "1" and draw a second card to move that piece or any other on the board"
    state = make("2", {"red": ["b7"]}, pack=["5"])
    state.apply("2 enter r")
    assert state.to_play == 0 and state.view(0)["card"] == "5" and state.view(0)["again"]
    assert moves(state) == ["5 b7", "5 r4"]
    state.apply("5 b7")
    assert state.to_play == 1


def test_a_two_that_cannot_be_used_still_draws_again_by_default() -> None:
    # the 2's card text: "Whether or not you moved, draw again" (option two_draws_again_always;
    # seed 003 rule 5 is silent on a 2 that cannot be used)
    stuck = make("2", {"red": ["rs5", "home", "home", "home"]}, pack=["1"])
    assert moves(stuck) == ["pass"]
    stuck.apply("pass")
    assert stuck.to_play == 0 and stuck.view(0)["card"] == "1"
    strict = make(
        "2", {"red": ["rs5", "home", "home", "home"]}, pack=["1"], two_draws_again_always=False
    )
    strict.apply("pass")
    assert strict.to_play == 1


def test_the_second_card_of_a_two_may_be_another_two() -> None:
    state = make("2", {"red": ["b7"]}, pack=["2", "3"])
    state.apply("2 b7")
    state.apply("2 b13")  # (b9 is a blue slide: the red pawn slid on to b13)
    assert state.to_play == 0 and state.view(0)["card"] == "3"
