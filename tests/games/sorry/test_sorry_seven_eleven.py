"""The split 7 and the 11 (seed 003 rules 6, 9, 11; card texts in RULES-NOTES)."""

from __future__ import annotations

import pytest
from sorry_helpers import events, make, moves, pawns

from parlour import IllegalMove
from parlour.games.sorry.events import Forfeited


def test_a_seven_may_be_divided_between_two_pieces() -> None:
    # seed 003 rule 6: "A player may move 1 piece (or divide his move among 2 pieces if he draws
    # a "7")"
    state = make("7", {"red": ["b1", "y1"]})
    got = moves(state)
    assert "7 b1" in got and "7 y1" in got
    splits = [m for m in got if m.count("+") == 2]
    assert len(splits) == 6  # 1+6 .. 6+1, one order each: no part touches the other
    state.apply("7 b1+3 y1+4")
    assert pawns(state, "red") == ["b4", "start", "start", "y5"]


def test_the_seven_may_not_start_a_man() -> None:
    # seed 003 rule 11: "No player may take advantage of the "7" move in order to start a man."
    state = make("7", {"red": ["b5"]})
    assert moves(state) == ["7 b5"]


def test_all_seven_must_be_used() -> None:
    # card text: "forward 7, or split between two pawns ... all 7 must be used"
    state = make("7", {"red": ["rs3", "b5"]})
    # rs3 can take at most 3 (HOME by exact count); the other pawn takes the rest
    assert moves(state) == ["7 b5", "7 b5+4 rs3+3", "7 b5+5 rs3+2", "7 b5+6 rs3+1"]
    with pytest.raises(IllegalMove):
        state.apply("7 b5+3 rs3+2")


def test_two_pieces_of_one_colour_never_end_on_one_square() -> None:
    # seed 003 rule 6: "Pieces of the same colour may not occupy the same space."
    state = make("7", {"red": ["b1", "b3"]})
    assert "7 b1+4 b3+2" not in moves(state) and "7 b3+2 b1+4" not in moves(state)


def test_split_order_matters_when_the_first_part_would_block() -> None:
    # b1 + 3 = b4 is where the other pawn stands: only after b4 has moved on
    state = make("7", {"red": ["b1", "b4"]})
    got = moves(state)
    assert "7 b4+4 b1+3" in got and "7 b1+3 b4+4" not in got
    # the other order written by a person is accepted when it is the same move
    state.apply("7 b1+3 b4+4")
    assert pawns(state, "red") == ["b4", "b8", "start", "start"]


def test_split_orders_that_end_differently_are_both_listed() -> None:
    # a slide of the second part bumps the first pawn (seed 003 rule 8: "All pieces of its own or
    # any other colour that occupy spaces on that SLIDE are sent back")
    got = moves(make("7", {"red": ["b6", "b7"]}))
    assert "7 b7+4 b6+3" in got and "7 b6+3 b7+4" in got
    bumped = make("7", {"red": ["b6", "b7"]})
    bumped.apply("7 b7+4 b6+3")  # b7 to b11 on the slide, then b6 lands on b9 and slides
    assert pawns(bumped, "red") == ["b13", "start", "start", "start"]
    kept = make("7", {"red": ["b6", "b7"]})
    kept.apply("7 b6+3 b7+4")  # b6 slides to b13 first, then b7 stops on b11
    assert pawns(kept, "red") == ["b11", "b13", "start", "start"]


def test_a_split_whose_first_part_bumps_the_second_pawn_is_not_legal() -> None:
    # b8 + 1 lands on blue's triangle b9 and slides to b13; b7 + 6 would then end on b13
    got = moves(make("7", {"red": ["b7", "b8"]}))
    assert "7 b8+1 b7+6" not in got and "7 b7+6 b8+1" in got


def test_eleven_moves_forward_or_changes_places() -> None:
    # seed 003 rule 9 names the "11" card's "replacement of another player's piece"
    state = make("11", {"red": ["b3"], "blue": ["y5", "bs1"], "green": ["g7"]})
    assert moves(state) == ["11 b3", "11 b3<>g7", "11 b3<>y5"]
    state.apply("11 b3<>y5")
    assert pawns(state, "red") == ["start", "start", "start", "y5"]
    assert pawns(state, "blue") == ["b3", "bs1", "start", "start"]


def test_eleven_change_is_optional_when_eleven_cannot_be_moved() -> None:
    # card text (RULES-NOTES): "if you cannot go 11, the change is optional (you may forfeit)";
    # seed 003 rule 6 otherwise obliges a move
    blocked = make("11", {"red": ["r1"], "blue": ["y5"]})  # r1 + 11 overshoots HOME
    assert moves(blocked) == ["11 r1<>y5", "pass"]
    able = make("11", {"red": ["r12"], "blue": ["y5"]})  # r12 can go 11: the change is a choice
    assert moves(able) == ["11 r12", "11 r12<>y5"]
    strict = make("11", {"red": ["r1"], "blue": ["y5"]}, eleven_change_optional=False)
    assert moves(strict) == ["11 r1<>y5"]
    # the forfeit says the change was declined, not that the 11 could not be used
    blocked.apply("pass")
    assert events(blocked) == [Forfeited(0, "red", "11", False, declined=True)]
    useless = make("11", {"red": ["r1"]})  # no opponent on the track to change places with
    assert moves(useless) == ["pass"]
    useless.apply("pass")
    assert events(useless) == [Forfeited(0, "red", "11", False)]


def test_change_of_places_may_cross_ones_own_diamond_and_slides() -> None:
    # seed 003 rule 9: "... or by replacement of another player's piece (see "SORRY" and "11")"
    state = make("11", {"red": ["y3"], "green": ["g9"]})
    state.apply("11 y3<>g9")  # red lands on green's triangle g9 and slides to g13
    assert pawns(state, "red") == ["g13", "start", "start", "start"]
    assert pawns(state, "green") == ["start", "start", "start", "y3"]
