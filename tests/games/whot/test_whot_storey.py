"""Following the call card, drawing, WHOT calls, the winner and the score (seed 000, Storey
1935)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import parlour
from parlour.games.whot.cards import hand_points, parse_card


def start(
    hands: list[list[str]],
    pile: Sequence[str] = (),
    pack: Sequence[str] = (),
    call: str | None = None,
    to_play: int = 0,
    rules: str = "storey-1935",
    **opts: Any,
) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, **opts)
    pos: dict[str, Any] = {"hands": hands, "pile": list(pile), "pack": list(pack)}
    pos["to_play"] = to_play
    if call is not None:
        pos["call"] = call
    return game.from_position(pos, seed=0)


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


WHOT_CALLS = {f"play whot call {s}" for s in ("circle", "triangle", "cross", "square", "star")}

# --- following ---------------------------------------------------------------------------------


def test_follow_by_same_symbol_or_same_number_or_whot() -> None:
    # seed 000: "1. A Card of ANY NUMBER but the SAME SYMBOL as the Call Card; or 2. A Card of ANY
    # SYMBOL but the SAME NUMBER as the Call Card; or 3. A WHOT Card Calling for any symbol he
    # desires"
    state = start(
        [["11 circle", "7 triangle", "2 star", "whot", "5 square", "14 cross"], ["1 star"]],
        pile=["7 circle"],
    )
    assert legal(state) == {"play 11 circle", "play 7 triangle", "draw"} | WHOT_CALLS


@pytest.mark.parametrize("rules", ["storey-1935", "nigerian", "english", "knockout"])
def test_anything_else_is_illegal(rules: str) -> None:
    # seed 000: the three rules are the only ways to play on the call card.
    state = start([["5 square", "3 circle"], ["1 star"]], pile=["7 circle"], rules=rules)
    before = state.to_json()
    with pytest.raises(parlour.IllegalMove, match="not legal"):
        state.apply("play 5 square")
    assert state.to_json() == before


def test_star_plays_by_its_outer_number_only() -> None:
    # seed 000: "use the white numbers in the small corner Stars for scoring only. These white
    # numbers MUST NOT be used in play"
    state = start([["4 star", "8 circle"], ["1 star"]], pile=["8 triangle"])
    assert legal(state) == {"play 8 circle", "draw"}
    state = start([["4 star"], ["1 star"]], pile=["4 circle"])
    assert "play 4 star" in legal(state)


def test_a_player_who_cannot_follow_must_draw() -> None:
    # seed 000: "If a player CANNOT follow the Call ... he MUST draw the TOP card from the
    # unexposed portion of the pack"
    state = start([["5 square", "3 cross"], ["1 star"]], pile=["7 circle"], pack=["10 triangle"])
    assert legal(state) == {"draw"}
    state.apply("draw")
    assert state.view(0)["hand"] == ["5 square", "3 cross", "10 triangle"]  # the TOP card


def test_a_draw_ends_the_turn() -> None:
    # seed 000: "A player's turn ceases immediately he draws a card. He cannot DRAW a card and
    # PLAY a card in the SAME TURN."
    state = start(
        [["5 square", "3 cross"], ["1 star", "2 star"]], pile=["7 circle"], pack=["7 cross"]
    )
    state.apply("draw")
    assert state.to_play == 1  # the drawn 7 cross would follow, but the turn is over
    assert "7 cross" in state.view(0)["hand"]


def test_voluntary_draw_allowed_when_able_to_follow() -> None:
    # seed 000: "Even when a player CAN follow the Call he is NOT COMPELLED to do so, but if he
    # does not PLAY a card under one of the above three rules he MUST draw a card."
    state = start([["5 circle", "whot"], ["1 star", "2 star"]], pile=["7 circle"], pack=["3 cross"])
    assert "draw" in legal(state)
    state.apply("draw")
    assert state.to_play == 1 and len(state.view(0)["hand"]) == 3


def test_voluntary_draw_removed_by_option() -> None:
    state = start([["5 circle", "3 cross"], ["1 star"]], pile=["7 circle"], may_draw_instead=False)
    assert legal(state) == {"play 5 circle"}
    state = start([["5 square"], ["1 star"]], pile=["7 circle"], may_draw_instead=False)
    assert legal(state) == {"draw"}  # still must draw when unable to follow


def test_cards_are_never_discarded() -> None:
    # seed 000: "Cards are never discarded in WHOT as in many other games."
    state = start([["5 circle", "3 cross"], ["1 star"]], pile=["7 circle"])
    assert not any(m.kind not in ("play", "draw") for m in state.legal_moves())


def test_played_card_becomes_the_call_card_and_turn_passes_left() -> None:
    # seed 000: "as each card is played, that card in turn becomes the Call Card"; "each player, in
    # turn from the LEFT of the leader"
    state = start(
        [["5 circle", "1 star"], ["7 star", "5 cross"], ["2 square", "3 star"]], pile=["7 circle"]
    )
    state.apply("play 5 circle")
    assert state.view(None)["call_card"] == "5 circle"
    assert state.to_play == 1
    assert legal(state) == {"play 5 cross", "draw"}
    state.apply("play 5 cross")
    assert state.to_play == 2


# --- WHOT --------------------------------------------------------------------------------------


def test_whot_goes_on_anything_and_calls_a_symbol_that_must_follow() -> None:
    # seed 000: "A WHOT CARD may be played ... on to ANY Call card, and entitles him to declare
    # what (WHOT) symbol MUST follow, i.e., be the Call."
    state = start(
        [["whot", "2 star"], ["7 star", "13 square", "4 circle", "whot"]], pile=["13 circle"]
    )
    assert legal(state) >= WHOT_CALLS
    state.apply("play whot call star")
    assert state.view(None)["call"] == "star"
    # the number 13 no longer counts: only stars or a WHOT
    assert legal(state) == {"play 7 star", "draw"} | WHOT_CALLS


def test_whot_call_leaves_number_unmatched() -> None:
    state = start([["whot", "2 star"], ["3 cross"]], pile=["13 circle"], to_play=0)
    state.apply("play whot call square")
    assert legal(state) == {"draw"}  # no square and no WHOT


def test_whot_on_whot_may_change_the_call() -> None:
    # seed 000: "if one player plays a WHOT card and Calls for Squares to follow, a subsequent
    # player may play on to that WHOT card another WHOT card and Call for Circles"
    state = start(
        [["whot", "2 star"], ["whot", "3 cross"]], pile=["whot"], call="square", to_play=1
    )
    state.apply("play whot call circle")
    assert state.view(None)["call"] == "circle"


def test_whot_on_whot_may_keep_the_call() -> None:
    # seed 000: "On the other hand, he may play a WHOT card and let the Call remain at Squares."
    state = start(
        [["whot", "2 star"], ["whot", "3 cross"]], pile=["whot"], call="square", to_play=1
    )
    assert "play whot call square" in legal(state)
    state.apply("play whot call square")
    assert state.view(None)["call"] == "square"
    assert state.view(None)["pile"] == ["whot", "whot"]


def test_whot_on_whot_can_be_switched_off() -> None:
    state = start(
        [["whot", "2 star"], ["whot", "3 square"]],
        pile=["whot"],
        call="square",
        to_play=1,
        whot_on_whot=False,
    )
    assert legal(state) == {"play 3 square", "draw"}
    state = start(
        [["whot", "2 star"], ["whot", "3 square"]], pile=["3 circle"], to_play=1, whot_on_whot=False
    )
    assert legal(state) >= WHOT_CALLS  # on anything but a WHOT it still goes


# --- the winner and the score ------------------------------------------------------------------


def test_first_to_play_last_card_wins_and_game_ends() -> None:
    # seed 000: "THE WINNER of a game is the player who FIRST plays the LAST card from his hand.
    # The game then ends and the scores are taken"
    state = start([["5 circle"], ["7 star", "whot", "7 cross"]], pile=["7 circle"])
    state.apply("play 5 circle")
    assert state.is_over and state.to_play is None and state.legal_moves() == []
    result = state.result()
    assert result.winners == (0,)
    assert result.points == (0, 14 + 20 + 7)
    with pytest.raises(parlour.IllegalMove, match="over"):
        state.apply("draw")


def test_result_before_the_end_is_an_error() -> None:
    state = start([["5 circle"], ["7 star"]], pile=["7 circle"])
    with pytest.raises(ValueError):
        state.result()


def test_score_is_numbers_stars_double_whot_twenty() -> None:
    # seed 000: "THE SCORE against each player is the total of the numbers on the cards he still
    # holds at the end of a game. STARS COUNT DOUBLE"; '"WHOT" - FIVE Cards (count 20 when
    # scoring)'
    hand = [parse_card(t) for t in ("14 circle", "3 star", "whot", "1 square")]
    assert hand_points(hand) == 14 + 6 + 20 + 1
    state = start(
        [["3 circle"], ["14 circle", "3 star", "whot", "1 square"], ["8 star", "8 star"]],
        pile=["3 triangle"],
        packs=2,
    )
    state.apply("play 3 circle")
    assert state.result().points == (0, 41, 32)
    assert state.result().ranks == (1, 3, 2)  # lower is better
    assert state.view(2)["scores"] == [0, 41, 32]
