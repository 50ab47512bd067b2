"""The partnership game (seed 003, PARTNERSHIP GAME RULES 1-5)."""

from __future__ import annotations

import pytest
from sorry_helpers import make, moves, pawns

import parlour
from parlour import RulesError


def test_red_with_yellow_green_with_blue() -> None:
    # partnership rule 1: "RED is always YELLOW's partner; GREEN is always BLUE's."
    state = make(rules="partnership")
    assert state.view(None)["partnership"] is True
    assert state.t.ctrl[0] == (0, 2) and state.t.ctrl[1] == (1, 3)


def test_a_player_may_move_or_enter_his_partners_pieces() -> None:
    # partnership rule 2: "A player may enter or move either one of his own or one of his
    # partner's pieces on his turn."
    state = make("1", {"red": ["r7"], "yellow": ["y9"]}, rules="partnership")
    assert moves(state) == ["1 enter r", "1 enter y", "1 r7", "1 y9"]


def test_forfeit_only_when_no_own_or_partner_piece_can_move() -> None:
    # partnership rule 2: "He only forfeits his chance to play if unable to move or enter any of
    # his own or his partner's pieces."
    state = make(
        "5", {"red": ["home", "home", "home", "home"], "yellow": ["y9"]}, rules="partnership"
    )
    assert moves(state) == ["5 y9"]


def test_sorry_must_be_used_even_on_a_partner() -> None:
    # partnership rule 3: ""SORRY" cards MUST BE USED, even to send a partner's piece to START, if
    # no opponent's piece is available."
    state = make("S", {"yellow": ["b5", "y9", "y10", "y11"]}, rules="partnership")
    assert moves(state) == ["S r>b5", "S r>y10", "S r>y11", "S r>y9"]
    state.apply("S r>b5")
    assert pawns(state, "yellow") == ["start", "y10", "y11", "y9"]
    with_opponent = make("S", {"yellow": ["y9"], "blue": ["g3"]}, rules="partnership")
    assert moves(with_opponent) == ["S r>g3", "S y>g3"]


def test_ending_on_a_partner_sends_it_back_to_start() -> None:
    # partnership rule 3: "When a move ends on a square occupied by a partner's piece — the latter
    # is sent back to START."
    state = make("3", {"red": ["b2"], "yellow": ["b5"]}, rules="partnership")
    state.apply("3 b2")
    assert pawns(state, "red") == ["b5", "start", "start", "start"]
    assert pawns(state, "yellow") == ["start"] * 4


def test_the_seven_may_be_split_among_partners_pieces() -> None:
    # partnership rule 4: "The "7" card may be split among partner's pieces."
    state = make("7", {"red": ["b2"], "yellow": ["g2"]}, rules="partnership")
    assert "7 b2+3 g2+4" in moves(state)


def test_after_a_two_either_partners_pieces() -> None:
    # partnership rule 4: "On the draw of a "2" the next drawn card may be used to enter or move
    # either partner's pieces."
    state = make("2", {"yellow": ["y9"]}, rules="partnership", pack=["1"])
    state.apply("2 enter r")
    assert moves(state) == ["1 enter y", "1 r4", "1 y9"]


def test_a_player_whose_pieces_are_home_moves_his_partners() -> None:
    # partnership rule 5: "After all of his pieces have reached HOME, a player continues to draw
    # cards in turn, using them to move his partner's pieces."
    state = make(
        "1",
        {"red": ["home"] * 3 + ["rs5"], "yellow": ["y9"]},
        rules="partnership",
        pack=["3", "4", "5", "8"],
    )
    state.apply("1 rs5")
    assert not state.is_over
    state.apply("pass")  # blue, 3
    state.apply("4 y9")  # yellow, 4
    state.apply("pass")  # green, 5
    assert state.to_play == 0 and moves(state) == ["8 y5"]


def test_the_first_partnership_with_eight_home_wins() -> None:
    # partnership rule 5: "The first partnership to reach HOME with all 8 pieces wins the game."
    state = make("1", {"red": ["home"] * 3 + ["rs5"], "yellow": ["home"] * 4}, rules="partnership")
    state.apply("1 rs5")
    assert state.is_over
    assert state.result().winners == (0, 2)


def test_two_players_each_play_a_partnership() -> None:
    # with two players each plays both colours of one partnership, turns still alternating
    state = make("3", rules="partnership", players=2, pack=["4", "5", "8"])
    assert state.view(None)["seats"] == [0, 1, 0, 1]
    order = []
    for _ in range(4):
        order.append((state.to_play, state.turn_colour))
        state.apply("pass")
    assert order == [(0, "red"), (1, "blue"), (0, "yellow"), (1, "green")]


def test_three_players_cannot_play_partnership() -> None:
    with pytest.raises(RulesError):
        parlour.make("sorry", players=3, rules="partnership")
