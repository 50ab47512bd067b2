"""The declarations of seed 002: "Last card", "Semi-last card" and "Check up"."""

from __future__ import annotations

from typing import Any

import pytest

import parlour

ALL = ("last card", "semi-last card", "check up")
PACK = ("10 circle", "11 circle", "12 circle", "13 circle", "14 circle", "10 triangle")


def start(
    hands: list[list[str]],
    declarations: tuple[str, ...] = ALL,
    rules: str = "nigerian",
    pile: tuple[str, ...] = ("7 triangle",),
    **opts: Any,
) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, declarations=declarations, **opts)
    pos = {"hands": hands, "pile": list(pile), "pack": list(PACK), "to_play": 0}
    return game.new_game(0, position=pos)


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def forgot(state: Any) -> list[str]:
    return [e[1] for e in state.view(None)["events"] if "forgot" in e[1]]


# --- last card ---------------------------------------------------------------------------------


def test_forgetting_last_card_costs_two_cards() -> None:
    # seed 002: 'If you fail to say "Last card" before the next player has played, you have to
    # pick two more cards from the market (draw-pile).'
    state = start([["3 triangle", "4 star"], ["1 star", "2 star"]])
    assert {"play 3 triangle", "play 3 triangle, last card"} <= legal(state)
    state.apply("play 3 triangle")
    assert state.view(0)["hand"] == ["4 star", "10 circle", "11 circle"]
    assert forgot(state) == ["forgot to say last card: picks 2"]
    assert state.to_play == 1


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
    assert forgot(state) == ["forgot to say check up: picks 2"]
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


# --- semi-last card ----------------------------------------------------------------------------


def test_semi_last_card() -> None:
    # seed 002: "(Second-to-last card: say: Semi-last card – said only in some game variations)"
    state = start([["3 triangle", "4 star", "5 star"], ["1 star", "2 star"]])
    assert "play 3 triangle, semi-last card" in legal(state)
    state.apply("play 3 triangle, semi-last card")
    assert forgot(state) == []
    state = start([["3 triangle", "4 star", "5 star"], ["1 star", "2 star"]])
    state.apply("play 3 triangle")
    assert forgot(state) == ["forgot to say semi-last card: picks 2"]
    assert len(state.view(0)["hand"]) == 4


def test_semi_last_card_only_when_chosen() -> None:
    state = start([["3 triangle", "4 star", "5 star"], ["1 star"]], declarations=("last card",))
    state.apply("play 3 triangle")
    assert forgot(state) == [] and len(state.view(0)["hand"]) == 2
