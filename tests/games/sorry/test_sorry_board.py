"""The board model: geometry, coordinates, square names (RULES-NOTES board facts, seed 003)."""

from __future__ import annotations

from parlour.games.sorry import board
from parlour.games.sorry.board import (
    ABS,
    DIAMOND,
    EXIT,
    REL,
    SLIDES,
    abs_of_rel,
    parse_square,
    square_code,
    square_name,
)


def test_sixty_track_squares_fifteen_a_side() -> None:
    # RULES-NOTES: "60 squares round the edge, 15 per side"
    names = {square_name(sq) for sq in range(60)}
    assert len(names) == 60
    assert {n[0] for n in names} == set("rbyg")
    assert square_name(0) == "r1" and square_name(14) == "r15" and square_name(15) == "b1"


def test_two_slides_per_side_of_four_and_five_squares() -> None:
    # RULES-NOTES: "a short slide starts on 1 and ends on 4 ... a long slide runs 9 to 13"
    assert len(SLIDES) == 8
    lengths = sorted(len(squares) for _, _, squares in SLIDES.values())
    assert lengths == [4] * 4 + [5] * 4
    side, end, squares = SLIDES[parse_square("b9")]  # type: ignore[index]
    assert side == 1 and square_name(end) == "b13"
    assert [square_name(s) for s in squares] == ["b9", "b10", "b11", "b12", "b13"]


def test_start_exit_and_diamond_of_each_colour() -> None:
    # RULES-NOTES: "the safety-zone entrance (seed 003's "diamond square" of that colour) is at 2,
    # the start exit (the "small circle" of seed 003) is at 4"
    for colour, letter in enumerate("rbyg"):
        assert square_name(abs_of_rel(colour, EXIT)) == f"{letter}4"
        assert square_name(abs_of_rel(colour, DIAMOND)) == f"{letter}2"


def test_relative_scale_round_trips() -> None:
    for colour in range(4):
        for rel in range(60):
            assert REL[colour][ABS[colour][rel]] == rel
    # five safety squares then HOME
    assert square_name(square_code(0, 60)) == "rs1"
    assert square_name(square_code(2, 64)) == "ys5"
    assert square_name(square_code(1, board.HOME)) == "bhome"
    assert square_name(square_code(3, board.START)) == "gstart"


def test_every_square_name_parses_back() -> None:
    for code in range(board.N_SQUARES):
        assert parse_square(square_name(code)) == code
    assert (
        parse_square("r16") is None and parse_square("x3") is None and parse_square("rs6") is None
    )
