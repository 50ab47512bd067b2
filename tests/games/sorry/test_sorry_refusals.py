"""A refused move says whether it is no move at all (`NotAMove`) or not legal now (`NotLegalNow`)
and, where the rules can say, why (`why_illegal`)."""

from __future__ import annotations

import pytest
from sorry_helpers import make

from parlour.core import Move, NotAMove, NotLegalNow
from parlour.games.sorry.engine import SorryState
from parlour.games.sorry.notation import parse_move


def why(state: SorryState, move: str | Move) -> str:
    before = state.to_dict()
    with pytest.raises(NotLegalNow) as info:
        state.check(move)
    assert state.to_dict() == before
    assert info.value.legal == [str(m) for m in state.legal_moves()]
    assert info.value.why is not None, move
    return info.value.why


def test_text_that_is_no_move_is_not_a_move() -> None:
    state = make("5", {"red": ["r4"]})
    for text in ("6 r4", "5 r16", "4 r4+4", "hello", "7 r4+3 b2+3"):
        with pytest.raises(NotAMove):
            state.check(text)


def test_the_card_drawn_is_another_one() -> None:
    # seed 003 rule 4: "Each player in turn draws a card, discards it, enters a piece if possible
    # or forfeits his turn."
    state = make("5", {"red": ["r4"]})
    assert why(state, "7 r4") == "the card drawn is a 5, not a 7"
    assert why(state, "S r>b9") == "the card drawn is a 5, not SORRY!"


def test_no_pass_while_a_move_can_be_made() -> None:
    # seed 003 rule 6: "a player MUST make any move directed by the cards drawn if possible,
    # whether or not this is to his advantage."
    state = make("4", {"red": ["rs1"]})
    assert why(state, "pass") == (
        "a 4 can be used: a player MUST make any move directed by the cards drawn if possible"
    )
    assert "point-score game" in why(state, "pass 4")


def test_no_such_pawn_and_not_ones_own() -> None:
    # seed 003 rule 6: "A player may move 1 piece ... or enter a piece at each turn"
    state = make("5", {"red": ["r4"], "blue": ["b9"]})
    assert why(state, "5 r10") == "no pawn stands on r10"
    assert why(state, "5 b9") == "the pawn on b9 is blue: you move only your own pawns"
    # partnership rule 2: "A player may enter or move either one of his own or one of his
    # partner's pieces on his turn."
    partners = make("5", {"yellow": ["y9"], "blue": ["b9"]}, rules="partnership")
    assert why(partners, "5 b9") == (
        "the pawn on b9 is blue: you move only your own and your partner's pawns"
    )


def test_home_only_by_the_exact_count() -> None:
    # seed 003 rule 13: "A piece may enter HOME ONLY ON THE DRAW of a card allowing a move of the
    # exact number of spaces necessary to reach it."
    state = make("5", {"red": ["rs3", "r4"]})
    assert why(state, "5 rs3") == (
        "the pawn on rs3 is 3 from HOME, not 5: a piece may enter HOME only on a card allowing "
        "a move of the exact number of spaces"
    )


def test_not_onto_a_pawn_of_ones_own_colour() -> None:
    # seed 003 rule 6: "Pieces of the same colour may not occupy the same space."
    state = make("5", {"red": ["r4", "r9"]})
    assert why(state, "5 r4") == (
        "the pawn on r4 would end on r9, where a red pawn stands: pieces of the same colour may "
        "not occupy the same space"
    )


def test_the_entry_square_holds_one_pawn_of_a_player() -> None:
    # seed 003 rule 5: "Two pieces of the same player may NOT occupy the entry square at one
    # time."
    state = make("1", {"red": ["r4"]})
    assert why(state, "1 enter r") == (
        "a red pawn stands on r4: two pieces of the same player may NOT occupy the entry square "
        "at one time"
    )
    assert why(make("1", {"red": ["r5", "r6", "r7", "r8"]}), "1 enter r") == (
        "no red pawn is in START"
    )
    assert why(make("1", players=2), "1 enter b") == "blue is not in play"


def test_a_split_seven_adds_up_and_moves_two_pawns() -> None:
    # seed 003 rule 6: "A player may move 1 piece (or divide his move among 2 pieces if he draws
    # a "7")"
    state = make("7", {"red": ["b1", "b4", "b8"]})
    assert why(state, "7 b1+3 b1+4") == "a split 7 moves two different pawns"
    with pytest.raises(NotAMove, match="the two steps adding to 7"):
        state.check("7 b1+3 b4+3")
    assert why(state, "7 b1+3 b4+4") == (
        "the pawn on b4 would end on b8, where a red pawn stands: pieces of the same colour may "
        "not occupy the same space"
    )
    # the text in the other order is read as the legal move; the move itself is refused
    blocked = make("7", {"red": ["b1", "b4"]})
    assert str(blocked.check("7 b1+3 b4+4")) == "7 b4+4 b1+3"
    assert why(blocked, parse_move("7 b1+3 b4+4")) == (
        "the pawn on b1 would land on b4, where the other pawn stands until it moves; the other "
        "order, 7 b4+4 b1+3, is legal"
    )
    # seed 003 rule 8: the first part slides (b8 + 1 onto blue's b9, to b13) and sends back...
    # nothing of its own there, but the second part would then end where it stands
    slide = make("7", {"red": ["b7", "b8"]})
    assert why(slide, "7 b8+1 b7+6") == (
        "both pawns would end on b13; the other order, 7 b7+6 b8+1, is legal"
    )


def test_the_eleven_changes_places_only_with_an_opponent() -> None:
    # seed 003 rule 9 names the "11" card's "replacement of another player's piece"
    state = make("11", {"red": ["r7", "r12"], "blue": ["b9"]})
    assert why(state, "11 r7<>r8") == "no pawn stands on r8 to change places with"
    assert why(state, "11 r7<>r12") == (
        "the pawn on r12 is not an opponent's: an 11 changes places with one"
    )


def test_sorry_takes_a_pawn_from_start_onto_an_opponent() -> None:
    # seed 003 rule 7 b): an opponent's piece may be returned to START if "a player draws a
    # "SORRY" card"; rule 12: "Pieces may enter only the SAFETY ZONES OF THEIR OWN COLOUR."
    state = make("S", {"red": ["r4"], "blue": ["b9", "bs2"]})
    assert why(state, "S r>b10") == "no pawn stands on b10 for the SORRY! to send back to START"
    assert why(state, "S r>r4") == "the pawn on r4 is red too: a SORRY! sends back another's pawn"
    assert why(state, "S r>bs2") == (
        "bs2 is in a safety zone: a red pawn may enter only the safety zone of its own colour"
    )
    assert why(state, "S b>r4") == "the blue pawns are not yours: you move only your own pawns"
    full = make("S", {"red": ["r5", "r6", "r7", "r8"], "blue": ["b9"]})
    assert why(full, "S r>b9") == "no red pawn is in START"
    # partnership rule 3: ""SORRY" cards MUST BE USED, even to send a partner's piece to START, if
    # no opponent's piece is available."
    partners = make("S", {"yellow": ["b5", "y9"], "blue": ["g3"]}, rules="partnership")
    assert why(partners, "S r>b5") == (
        "the pawn on b5 is your partner's: a SORRY! sends a partner's piece to START only if no "
        "opponent's piece is available"
    )


def test_the_point_score_game_plays_from_the_hand() -> None:
    # point score rule 2: "Each player on his turn discards one card from his hand ... A player
    # forfeits his chance to play if unable to use any card in hand to enter or move a piece."
    state = make(rules="points", hands={"red": ["3", "5", "8", "12", "12"]})
    assert why(state, "7 r4") == "red's hand holds no 7"
    assert why(state, "pass 3") == (
        "a card in the hand can be used: a player forfeits only if unable to use any card in hand "
        "to enter or move a piece"
    )
    assert why(state, "pass") == (
        "in the point-score game a pass discards a card from the hand, like 'pass 5'"
    )
