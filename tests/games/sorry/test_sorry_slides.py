"""Slides (seed 003 rule 8, rule 7 c)."""

from __future__ import annotations

from sorry_helpers import events, make, moves, pawns

from parlour.games.sorry.events import Slid


def test_landing_on_another_colours_triangle_slides_to_the_round_end() -> None:
    # seed 003 rule 8: "A piece which lands on the triangle of a SLIDE of a colour other than its
    # own SLIDES DIRECTLY TO THE ROUND END OF THAT SLIDE."
    state = make("3", {"red": ["b6"]})
    state.apply("3 b6")  # lands on b9, blue's long slide
    assert pawns(state, "red") == ["b13", "start", "start", "start"]
    assert Slid(0, "red", "b9", "b13") in events(state)


def test_pieces_do_not_slide_on_their_own_colour() -> None:
    # seed 003 rule 8: "Pieces do not slide on slides of their own colour."
    state = make("5", {"red": ["r4"]})
    state.apply("5 r4")  # lands on r9, red's own long slide
    assert pawns(state, "red") == ["r9", "start", "start", "start"]


def test_everyone_on_the_slide_is_sent_back_own_colour_included() -> None:
    # seed 003 rule 8: "All pieces of its own or any other colour that occupy spaces on that SLIDE
    # are sent back to their respective STARTS."  Rule 7 c): "the piece is located anywhere along
    # a SLIDE when any player's piece makes the slide"
    state = make("1", {"red": ["y8", "y11"], "blue": ["y10"], "yellow": ["y13"]})
    state.apply("1 y8")  # y9 is yellow's long slide: y9..y13
    assert pawns(state, "red") == ["start", "start", "start", "y13"]
    assert pawns(state, "blue") == ["start"] * 4
    assert pawns(state, "yellow") == ["start"] * 4


def test_a_slide_ending_on_the_start_exit_bumps_the_pawn_there() -> None:
    # the short slide runs from 1 to 4, and 4 is that colour's start exit (RULES-NOTES)
    state = make("1", {"red": ["y15"], "green": ["g4"]})
    state.apply("1 y15")  # g1 triangle -> g4
    assert pawns(state, "red") == ["g4", "start", "start", "start"]
    assert pawns(state, "green") == ["start"] * 4


def test_landing_on_a_triangle_held_by_ones_own_pawn_is_not_allowed() -> None:
    # seed 003 rule 6: "Pieces of the same colour may not occupy the same space."
    state = make("3", {"red": ["b6", "b9"]})
    assert "3 b6" not in moves(state)


def test_a_backward_move_onto_a_triangle_slides_too() -> None:
    # seed 003 rule 8 speaks of any piece that "lands on the triangle"
    state = make("4", {"red": ["b13"]})
    state.apply("4 b13")
    assert pawns(state, "red") == ["b13", "start", "start", "start"]
    assert Slid(0, "red", "b9", "b13") in events(state)
