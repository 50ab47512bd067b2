"""The declarations of seed 002: "Last card", "Semi-last card" and "Check up"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import parlour

ALL = ("last card", "semi-last card", "check up")
PACK = ("10 circle", "11 circle", "12 circle", "13 circle", "14 circle", "10 triangle")


def start(
    hands: list[list[str]],
    declarations: tuple[str, ...] = ALL,
    rules: str = "nigerian",
    pile: Sequence[str] = ("7 triangle",),
    **opts: Any,
) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, declarations=declarations, **opts)
    pos = {"hands": hands, "pile": list(pile), "pack": list(PACK), "to_play": 0}
    return game.from_position(pos, seed=0)


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def forgot(state: Any) -> list[tuple[int, str, int]]:
    """The penalties so far: (player, the declaration forgotten, cards picked)."""
    return [
        (e.player, e.forgot, e.cards) for e in state.view(None)["events"] if e.kind == "penalty"
    ]


# --- last card ---------------------------------------------------------------------------------


def test_forgetting_last_card_costs_two_cards() -> None:
    # seed 002: 'If you fail to say "Last card" before the next player has played, you have to
    # pick two more cards from the market (draw-pile).'
    state = start([["3 triangle", "4 star"], ["3 star", "2 star"]])
    assert {"play 3 triangle", "play 3 triangle, last card"} <= legal(state)
    state.apply("play 3 triangle")
    assert state.to_play == 1
    state.apply("play 3 star")
    assert state.view(0)["hand"] == ["4 star", "10 circle", "11 circle"]
    assert forgot(state) == [(0, "last card", 2)]


def test_the_last_card_penalty_waits_until_the_next_player_has_played() -> None:
    # seed 002: 'If you fail to say "Last card" before the next player has played' — so it is
    # charged after the next player's move, and the log says so in that order.
    state = start([["3 triangle", "4 star"], ["1 star", "2 star"]])
    state.apply("play 3 triangle")
    assert forgot(state) == [] and state.view(0)["hand"] == ["4 star"]
    for viewer in (None, 0, 1):
        assert state.view(viewer)["owed"] == [[0, "last card"]]  # everyone heard nothing said
    assert state.view(1)["hand_counts"] == [1, 2]
    state.apply("draw")  # the next player's move, whatever it is
    kinds = [e.kind for e in state.view(None)["events"]]
    assert kinds[-3:] == ["play", "draw", "penalty"]
    assert state.view(0)["hand"] == ["4 star", "11 circle", "12 circle"]  # P2 drew 10 circle
    assert state.view(None)["owed"] == []
    assert state.to_play == 0


def test_a_player_who_goes_out_in_a_continued_turn_wins() -> None:
    # seed 002: the penalty falls on a player who fails to say "Last card" "before the next player
    # has played"; Hold on: "the player that played the 1-card can play again". Going out first,
    # with "Check up", wins.
    state = start([["1 triangle", "4 triangle"], ["1 star", "2 star"]])
    state.apply("play 1 triangle")  # one card left, "Last card" not said
    assert state.to_play == 0 and state.view(None)["owed"] == [[0, "last card"]]
    state.apply("play 4 triangle, check up")
    assert state.is_over and state.result().winners == (0,)
    assert forgot(state) == []


@pytest.mark.parametrize(
    ("hand", "players"),
    [(["14 triangle", "4 triangle"], 3), (["8 triangle", "4 triangle"], 2)],
)
def test_going_out_after_general_market_or_suspension_wins(hand: list[str], players: int) -> None:
    # seed 002: General market — "the player that played the 14-card can play again"; Suspension
    # — 'similar to the "1-card" if there are only two players'.
    others = [["1 star", "2 star"], ["3 star", "5 star"]][: players - 1]
    state = start([hand, *others])
    state.apply(f"play {hand[0]}")
    assert state.to_play == 0
    state.apply("play 4 triangle, check up")
    assert state.is_over and state.result().winners == (0,) and forgot(state) == []


def test_a_continued_turn_that_does_not_go_out_still_owes() -> None:
    state = start([["1 triangle", "4 star"], ["3 triangle", "2 star"]])
    state.apply("play 1 triangle")  # Hold on, one card left, nothing said
    state.apply("draw")  # the same player again: nothing charged yet
    assert forgot(state) == [] and state.to_play == 1
    state.apply("play 3 triangle")
    assert forgot(state) == [(0, "last card", 2)]
    assert len(state.view(0)["hand"]) == 4


def test_what_is_owed_survives_a_position() -> None:
    state = start([["1 triangle", "4 star"], ["3 triangle", "2 star"]])
    state.apply("play 1 triangle")
    again = state.game.from_position(state.position(), seed=0)
    assert again.view(None)["owed"] == [[0, "last card"]]
    again.apply("draw")
    again.apply("play 3 triangle")
    assert forgot(again) == [(0, "last card", 2)]


def test_saying_last_card_costs_nothing() -> None:
    # seed 002: 'For the Last card: you must say "Last card"'
    state = start([["3 triangle", "4 star"], ["1 star", "2 star"]])
    state.apply("play 3 triangle, last card")
    assert state.view(0)["hand"] == ["4 star"]
    assert forgot(state) == [] and state.to_play == 1


def test_last_card_is_only_offered_when_true() -> None:
    state = start(
        [["3 triangle", "4 star", "5 star"], ["1 star", "2 star"]], declarations=("last card",)
    )
    assert legal(state) == {"play 3 triangle", "draw"}
    with pytest.raises(parlour.IllegalMove):
        state.apply("play 3 triangle, last card")


def test_no_declarations_in_the_default_presets() -> None:
    state = start([["3 triangle", "4 star"], ["1 star"]], declarations=())
    with pytest.raises(parlour.IllegalMove):
        state.apply("play 3 triangle, last card")
    state.apply("play 3 triangle")
    assert len(state.view(0)["hand"]) == 1


def test_declaration_penalty_option() -> None:
    state = start(
        [["3 triangle", "4 star"], ["1 star"]], declarations=("last card",), declaration_penalty=3
    )
    state.apply("play 3 triangle")
    state.apply("draw")
    assert len(state.view(0)["hand"]) == 4


def test_last_card_with_a_whot() -> None:
    state = start([["whot", "4 star"], ["1 star", "2 star"]])
    assert "play whot call star, last card" in legal(state)
    state.apply("play whot call star, last card")
    assert forgot(state) == []


def test_last_card_said_on_hold_on_then_play_again() -> None:
    state = start([["1 triangle", "4 triangle"], ["1 star", "2 star"]])
    state.apply("play 1 triangle, last card")
    assert state.to_play == 0 and forgot(state) == []
    state.apply("play 4 triangle, check up")
    assert state.is_over and state.result().winners == (0,)


# --- check up ----------------------------------------------------------------------------------


def test_saying_check_up_wins() -> None:
    # seed 002: 'when ending with the Last card: say: "Check up"'
    state = start([["3 triangle"], ["1 star", "2 star"]])
    assert legal(state) == {"play 3 triangle", "play 3 triangle, check up", "draw"}
    state.apply("play 3 triangle, check up")
    assert state.is_over and state.result().winners == (0,)


def test_forgetting_check_up_costs_two_and_the_game_continues() -> None:
    # seed 002: 'If you fail to say "Check up" in the moment you place your last card on the table
    # and the next player continues playing, then you have to pick two more cards from the market
    # and the game continues.'
    state = start([["3 triangle"], ["1 star", "2 star"]], declarations=("check up",))
    state.apply("play 3 triangle")
    assert not state.is_over
    assert state.view(0)["hand"] == ["10 circle", "11 circle"]
    assert state.to_play == 1
    assert state.view(None)["call_card"] == "3 triangle"


def test_forgotten_check_up_is_the_only_penalty() -> None:
    # Bug fixed: the check-up penalty left two cards in hand and was charged again as a forgotten
    # "semi-last card" (four cards for one slip).
    state = start([["3 triangle"], ["1 star", "2 star"]])
    state.apply("play 3 triangle")
    assert forgot(state) == [(0, "check up", 2)]
    assert len(state.view(0)["hand"]) == 2


def test_forgotten_check_up_ends_a_turn_of_several_cards() -> None:
    # seed 000: "He cannot DRAW a card and PLAY a card in the SAME TURN." Bug fixed: in a straight
    # the turn stayed open and the penalty cards could be played on.
    game = parlour.make("whot", players=2, rules="english", declarations=("check up",))
    state = game.new_game(
        0,
        position={
            "hands": [["4 triangle"], ["1 star", "2 star"]],
            "pile": ["7 triangle"],
            "pack": ["5 triangle", "3 triangle"],
            "to_play": 0,
        },
    )
    state.apply("play 4 triangle")
    assert state.to_play == 1
    assert state.view(0)["hand"] == ["5 triangle", "3 triangle"]


def test_forgotten_check_up_keeps_the_cards_power() -> None:
    state = start([["2 triangle"], ["1 star", "2 star"]], declarations=("check up",))
    state.apply("play 2 triangle")
    assert state.to_play == 1 and state.view(None)["pending_pick"] == 2


@pytest.mark.parametrize(
    ("card", "players", "counts"),
    [
        ("1 triangle", 3, [2, 2, 2]),  # Hold on: no play again
        ("14 triangle", 3, [2, 3, 3]),  # General market: the others still pick one each
        ("8 triangle", 2, [2, 2]),  # Suspension at two: the other is not skipped
        ("8 triangle", 3, [2, 2, 2]),  # ... at three the next player is
    ],
)
def test_forgotten_check_up_on_a_power_card_passes_the_turn(
    card: str, players: int, counts: list[int]
) -> None:
    # seed 002: 'If you fail to say "Check up" in the moment you place your last card on the table
    # and the next player continues playing, then you have to pick two more cards from the market
    # and the game continues.' — the next player continues: the penalty ends the turn (seed 000:
    # "He cannot DRAW a card and PLAY a card in the SAME TURN"), and no power hands it back.
    others = [["1 star", "2 star"], ["3 star", "5 star"]][: players - 1]
    state = start([[card], *others], declarations=("check up",))
    state.apply(f"play {card}")
    assert forgot(state) == [(0, "check up", 2)]
    assert state.view(None)["hand_counts"] == counts
    assert state.to_play == (2 if card == "8 triangle" and players == 3 else 1)


# --- semi-last card ----------------------------------------------------------------------------


def test_semi_last_card() -> None:
    # seed 002: "(Second-to-last card: say: Semi-last card – said only in some game variations)"
    state = start([["3 triangle", "4 star", "5 star"], ["1 star", "2 star"]])
    assert "play 3 triangle, semi-last card" in legal(state)
    state.apply("play 3 triangle, semi-last card")
    assert forgot(state) == []
    state = start([["3 triangle", "4 star", "5 star"], ["1 star", "2 star"]])
    state.apply("play 3 triangle")
    state.apply("draw")
    assert forgot(state) == [(0, "semi-last card", 2)]
    assert len(state.view(0)["hand"]) == 4


def test_semi_last_card_only_when_chosen() -> None:
    state = start([["3 triangle", "4 star", "5 star"], ["1 star"]], declarations=("last card",))
    state.apply("play 3 triangle")
    assert forgot(state) == [] and len(state.view(0)["hand"]) == 2
