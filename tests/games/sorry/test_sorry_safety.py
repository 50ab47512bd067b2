"""The diamond square, backward moves, safety zones and HOME (seed 003 rules 9, 10, 12, 13)."""

from __future__ import annotations

from sorry_helpers import make, moves, pawns


def test_no_piece_moves_forward_over_its_own_diamond() -> None:
    # seed 003 rule 9: "No piece may move forward over the DIAMOND square of its own colour."
    state = make("5", {"red": ["g14"]})
    state.apply("5 g14")  # g15, r1, r2 (diamond), rs1, rs2
    assert pawns(state, "red") == ["rs2", "start", "start", "start"]


def test_other_colours_pass_a_diamond_freely() -> None:
    # seed 003 rule 12: "Pieces may enter only the SAFETY ZONES OF THEIR OWN COLOUR."
    state = make("5", {"blue": ["r1"]}, pack=["5"])
    state.apply("pass")
    state.apply("5 r1")
    assert pawns(state, "blue") == ["r6", "start", "start", "start"]


def test_a_piece_may_stop_on_its_own_diamond() -> None:
    state = make("3", {"red": ["g14"]})
    state.apply("3 g14")
    assert pawns(state, "red") == ["r2", "start", "start", "start"]


def test_the_diamond_may_be_crossed_backward() -> None:
    # seed 003 rule 9: "a player's own DIAMOND square may be crossed on a backward move"
    state = make("4", {"red": ["r4"]})
    state.apply("4 r4")  # r3, r2, r1, g15
    assert pawns(state, "red") == ["g15", "start", "start", "start"]


def test_two_back_beyond_start_then_into_safety_without_going_round() -> None:
    # seed 003 rule 10: "Any player who has successfully moved a piece backward at least two
    # squares beyond his START may move that piece on a subsequent turn into his SAFETY ZONE
    # without having to go around the board."
    state = make("4", {"red": ["r4"]}, pack=["3", "3", "3", "5"])
    state.apply("4 r4")
    for _ in range(3):
        state.apply("pass")
    assert moves(state) == ["5 g15"]
    state.apply("5 g15")  # r1, r2, rs1, rs2, rs3
    assert pawns(state, "red") == ["rs3", "start", "start", "start"]


def test_one_back_from_the_start_exit_must_go_round() -> None:
    # rule 10 needs "at least two squares beyond his START": r3 is past red's diamond r2
    state = make("10", {"red": ["r4"]}, pack=["3", "3", "3", "3"])
    state.apply("10 r4-1")
    assert pawns(state, "red") == ["r3", "start", "start", "start"]
    for _ in range(3):
        state.apply("pass")
    state.apply("3 r3")
    assert pawns(state, "red") == ["r6", "start", "start", "start"]


def test_the_ten_moves_forward_ten_or_back_one() -> None:
    # seed 003 rule 10: "A player may use a "4" card or a "10" card to move backward."
    assert moves(make("10", {"red": ["b5"]})) == ["10 b5", "10 b5-1"]


def test_no_entering_the_safety_zone_backward_but_backing_out_is_allowed() -> None:
    # seed 003 rule 12: "No piece may enter its SAFETY ZONE by a backward move, however, a piece
    # may move backward out of its SAFETY ZONE and on subsequent turns move back into the ZONE as
    # cards permit."
    state = make("4", {"red": ["rs2"]}, pack=["3", "3", "3", "5"])
    state.apply("4 rs2")  # rs1, r2, r1, g15
    assert pawns(state, "red") == ["g15", "start", "start", "start"]
    for _ in range(3):
        state.apply("pass")
    state.apply("5 g15")
    assert pawns(state, "red") == ["rs3", "start", "start", "start"]
    # a pawn just in front of its zone moving back never lands in it
    back = make("4", {"red": ["r5"]})
    back.apply("4 r5")
    assert pawns(back, "red") == ["r1", "start", "start", "start"]


def test_only_own_colour_enters_a_safety_zone() -> None:
    # seed 003 rule 12: "Pieces may enter only the SAFETY ZONES OF THEIR OWN COLOUR."
    state = make("12", {"red": ["y15"]})
    state.apply("12 y15")  # y15 -> g12, past green's diamond g2 on the track
    assert pawns(state, "red") == ["g12", "start", "start", "start"]


def test_home_only_by_exact_count() -> None:
    # seed 003 rule 13: "A piece may enter HOME ONLY ON THE DRAW of a card allowing a move of the
    # exact number of spaces necessary to reach it."
    assert moves(make("3", {"red": ["rs3"]})) == ["3 rs3"]
    assert moves(make("5", {"red": ["rs3"]})) == ["pass"]
    state = make("3", {"red": ["rs3"]})
    state.apply("3 rs3")
    assert pawns(state, "red") == ["home", "start", "start", "start"]


def test_a_piece_at_home_cannot_be_moved_again() -> None:
    # seed 003 rule 13: "A piece which reaches HOME cannot be moved again for the rest of that
    # game."
    assert moves(make("4", {"red": ["home"]})) == ["pass"]
    assert moves(make("10", {"red": ["home"]})) == ["pass"]


def test_four_pieces_home_wins() -> None:
    # seed 003 rule 14: "The player who first reaches HOME with his 4 pieces wins."
    state = make("1", {"red": ["home", "home", "home", "rs5"], "blue": ["bs1", "home"]})
    state.apply("1 rs5")
    assert state.is_over and state.to_play is None
    res = state.result()
    assert res.winners == (0,)
    assert res.points == (4, 1, 0, 0) and res.ranks[0] == 1
    assert state.legal_moves() == []
