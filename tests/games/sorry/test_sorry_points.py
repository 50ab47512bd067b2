"""The point-score game (seed 003, POINT SCORE GAME RULES 1-3)."""

from __future__ import annotations

import pytest
from sorry_helpers import make, moves, pawns

from parlour.games.sorry.engine import SorryState


def points(
    card: str | None = None, position: dict[str, list[str]] | None = None, **kw: object
) -> SorryState:
    return make(card, position, rules="points", **kw)  # type: ignore[arg-type]


def test_three_pieces_in_start_and_one_on_the_start_square() -> None:
    # point score rule 1: "Each player places 3 of his pieces on his START. The 4th piece is
    # placed on the starting space next to his START circle."
    state = points()
    for colour in ("red", "blue", "yellow", "green"):
        assert pawns(state, colour) == sorted([f"{colour[0]}4", "start", "start", "start"])


def test_five_cards_dealt_face_down_to_each_player() -> None:
    # point score rule 1: "5 cards are dealt to each player FACE DOWN. Players take these cards in
    # hand. The rest of the pack is placed FACE DOWN"
    state = points()
    view = state.view(0)
    assert view["hand_sizes"] == {"red": 5, "blue": 5, "yellow": 5, "green": 5}
    assert list(view["hands"]) == ["red"] and len(view["hands"]["red"]) == 5
    assert view["pack"] == 45 - 20 and view["card"] is None
    assert "hands" not in state.view(None) or state.view(None)["hands"] == {}


def test_play_a_card_move_by_it_then_draw() -> None:
    # point score rule 2: "Each player on his turn discards one card from his hand, FACE UP ...
    # He moves or enters a piece according to the directions on the discarded card. Next he draws
    # a card from the pack into his hand. His turn ends."
    state = points(hands={"red": ["3", "5", "8", "12", "12"]}, pack=["4"])
    assert moves(state) == ["12 r4", "3 r4", "5 r4", "8 r4"]
    state.apply("5 r4")
    view = state.view(0)
    assert view["discard"] == ["5"] and view["hands"]["red"] == ["3", "4", "8", "12", "12"]
    assert pawns(state, "red") == ["r9", "start", "start", "start"]
    assert state.to_play == 1


def test_each_player_keeps_five_cards() -> None:
    # point score rule 2: "Each player must have 5 cards in hand at the end of each turn."
    state = points()
    for _ in range(40):
        if state.is_over:
            break
        state.apply(state.legal_moves()[0])
        assert set(state.view(None)["hand_sizes"].values()) == {5}


def test_discard_and_draw_when_no_card_can_be_used() -> None:
    # point score rule 2: "A player forfeits his chance to play if unable to use any card in hand
    # to enter or move a piece. In that case, he discards one card and draws another from the
    # pack."
    state = points(
        position={"red": ["rs5", "home", "home", "home"]},
        hands={"red": ["3", "5", "8", "12", "12"]},
        pack=["7"],
    )
    assert moves(state) == ["pass 12", "pass 3", "pass 5", "pass 8"]
    state.apply("pass 8")
    assert state.view(0)["hands"]["red"] == ["3", "5", "7", "12", "12"]
    assert state.to_play == 1


def test_a_two_plays_again_after_drawing() -> None:
    # seed 003 rule 5 applies to the point game ("All rules of the regular game apply EXCEPT")
    state = points(position={"red": ["b5"]}, hands={"red": ["2", "3", "5", "8", "12"]}, pack=["10"])
    state.apply("2 enter r")
    assert state.to_play == 0
    assert "10 r4" in moves(state)


@pytest.mark.parametrize(
    ("others", "bonus", "rule"),
    [
        ({}, 100, "highest"),
        ({"blue": ["home"]}, 50, "highest"),
        ({"blue": ["home", "home"]}, 25, "highest"),
        ({"blue": ["home", "home", "home"]}, 0, "highest"),
        ({}, 175, "all"),
        ({"blue": ["home"]}, 75, "all"),
    ],
)
def test_scoring(others: dict[str, list[str]], bonus: int, rule: str) -> None:
    # point score rule 3: "All players score 5 points for each piece on HOME. The WINNER also
    # scores: 5 points for each opponent's piece not in HOME; 100 points if no opponent's piece
    # reached HOME; 50 points if no opponent has more than 1 piece HOME; 25 points if no opponent
    # has more than 2 pieces HOME"
    position = {"red": ["home", "home", "home", "rs5"], **others}
    state = points(position=position, hands={"red": ["1", "3", "5", "8", "12"]}, bonus=rule)
    state.apply("1 rs5")
    assert state.is_over
    res = state.result()
    blue_home = len(others.get("blue", []))
    opp_not_home = 12 - blue_home
    assert res.points[0] == 20 + 5 * opp_not_home + bonus
    assert res.points[1] == 5 * blue_home
    assert res.winners == (0,)
