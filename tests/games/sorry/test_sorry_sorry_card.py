"""The SORRY! card (seed 003 rule 7 b; card text in RULES-NOTES)."""

from __future__ import annotations

from sorry_helpers import make, moves, pawns


def test_sorry_names_the_victim_and_sends_it_to_start() -> None:
    # seed 003 rule 7: "An opponent's piece may be returned to START if: ... b) a player draws a
    # "SORRY" card"
    state = make("S", {"blue": ["b9", "bs2"], "yellow": ["r7"]})
    assert moves(state) == ["S r>b9", "S r>r7"]
    state.apply("S r>r7")
    assert pawns(state, "red") == ["r7", "start", "start", "start"]
    assert pawns(state, "yellow") == ["start"] * 4


def test_sorry_without_a_pawn_in_start_or_a_victim_is_forfeited() -> None:
    # card text: "take a pawn from START ... otherwise no move"; seed 003 rule 6: forfeits
    assert moves(make("S", {"red": ["r5", "r6", "r7", "r8"], "blue": ["b9"]})) == ["pass"]
    assert moves(make("S", {"blue": ["bs1", "home"]})) == ["pass"]


def test_pawns_in_a_safety_zone_cannot_be_sorried() -> None:
    # seed 003 rule 12: the safety zone is a colour's own; card text: "any track square"
    assert moves(make("S", {"blue": ["bs3"], "green": ["g2"]})) == ["S r>g2"]


def test_sorry_onto_a_triangle_slides_by_default() -> None:
    # seed 003 rule 8: "A piece which lands on the triangle of a SLIDE ..." (option
    # slide_after_change: the sheet is silent on a pawn put there)
    state = make("S", {"blue": ["y9", "y12"]})
    state.apply("S r>y9")
    assert pawns(state, "red") == ["start", "start", "start", "y13"]
    assert pawns(state, "blue") == ["start"] * 4
    still = make("S", {"blue": ["y9", "y12"]}, slide_after_change=False)
    still.apply("S r>y9")
    assert pawns(still, "red") == ["start", "start", "start", "y9"]
    assert pawns(still, "blue") == ["start", "start", "start", "y12"]


def test_sorry_may_cross_ones_own_diamond() -> None:
    # seed 003 rule 9: "a player's own DIAMOND square may be crossed ... by replacement of another
    # player's piece (see "SORRY" and "11" cards)"
    state = make("S", {"blue": ["r3"]})
    state.apply("S r>r3")
    assert pawns(state, "red") == ["r3", "start", "start", "start"]
