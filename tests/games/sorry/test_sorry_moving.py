"""Moving, bumping, the mandatory move and forfeits (seed 003 rules 6 and 7)."""

from __future__ import annotations

import pytest
from sorry_helpers import events, make, moves, pawns

from parlour import IllegalMove
from parlour.games.sorry.events import Bumped


def test_pieces_move_forward_by_the_card() -> None:
    # seed 003 rule 6: "Once pieces have been entered they are moved forward in the direction of
    # the arrows on the board, unless otherwise directed by the cards."
    state = make("5", {"red": ["r4"]})
    assert moves(state) == ["5 r4"]
    state.apply("5 r4")
    assert pawns(state, "red") == ["r9", "start", "start", "start"]


def test_pieces_may_pass_each_other() -> None:
    # seed 003 rule 6: "Pieces may pass each other, whether or not they are of the same colour.
    # The occupied square counts like any other."
    state = make("3", {"red": ["r5", "r6"], "blue": ["r7"]})
    state.apply("3 r5")
    assert pawns(state, "red") == ["r6", "r8", "start", "start"]
    assert pawns(state, "blue") == ["r7", "start", "start", "start"]


def test_pieces_of_the_same_colour_may_not_share_a_square() -> None:
    # seed 003 rule 6: "Pieces of the same colour may not occupy the same space."
    state = make("3", {"red": ["r5", "r8"]})
    assert moves(state) == ["3 r8"]


def test_ending_on_an_opponent_sends_it_back_to_start() -> None:
    # seed 003 rule 6: "When a move ends on a square occupied by an opponent the latter is sent
    # back to his START."  Rule 7 a): "a player's piece ends a move on a square occupied by the
    # opponent"
    state = make("5", {"red": ["r5"], "green": ["r10"]})
    state.apply("5 r5")
    assert pawns(state, "red") == ["r10", "start", "start", "start"]
    assert pawns(state, "green") == ["start"] * 4
    assert Bumped(3, "green", "r10") in events(state)


def test_a_move_must_be_made_if_possible() -> None:
    # seed 003 rule 6: "a player MUST make any move directed by the cards drawn if possible,
    # whether or not this is to his advantage."
    state = make("4", {"red": ["rs1"]})  # backward 4 out of the safety zone: bad, but forced
    assert moves(state) == ["4 rs1"]
    with pytest.raises(IllegalMove):
        state.apply("pass")
    state.apply("4 rs1")
    assert pawns(state, "red") == ["g14", "start", "start", "start"]


def test_unable_to_move_forfeits_the_turn() -> None:
    # seed 003 rule 6: "If a player is unable to make a move, for this or any other reason, he
    # forfeits his turn."
    state = make("12", {"red": ["rs1", "home", "home", "home"]})
    assert moves(state) == ["pass"]
    state.apply("pass")
    assert state.to_play == 1
    assert pawns(state, "red") == ["home", "home", "home", "rs1"]


def test_one_piece_moves_at_each_turn() -> None:
    # seed 003 rule 6: "A player may move 1 piece ... or enter a piece at each turn as the cards
    # allow."
    state = make("1", {"red": ["r5", "b3"]})
    assert moves(state) == ["1 b3", "1 enter r", "1 r5"]


def test_play_continues_round_the_table() -> None:
    # seed 003 rule 4: "Play continues from right to left. Each player in turn draws a card"
    state = make("3", pack=["4", "5", "8", "12", "10"])
    order = []
    for _ in range(6):
        order.append(state.to_play)
        state.apply("pass")
    assert order == [0, 1, 2, 3, 0, 1]
    assert state.view(None)["colours"] == ["red", "blue", "yellow", "green"]


def test_colours_at_two_and_three_players() -> None:
    # seed 003 rule 2: "Each player chooses a colour"; two players take opposite sides
    assert make(players=2).view(None)["colours"] == ["red", "yellow"]
    assert make(players=3).view(None)["colours"] == ["red", "blue", "yellow"]


def test_setup_first_player() -> None:
    # seed 003 rule 2: "Select a player to play first."
    import parlour

    state = parlour.make("sorry", players=4).new_game(seed=3, first=2)
    assert state.to_play == 2
