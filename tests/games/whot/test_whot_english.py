"""English rules (seed 002): WHOT reverse and skip, straights, and double decking."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import parlour


def start(
    hands: list[list[str]],
    pile: Sequence[str] = ("7 triangle",),
    pack: Sequence[str] = (),
    call: str | None = None,
    to_play: int = 0,
    rules: str = "english",
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


# --- WHOT powers -------------------------------------------------------------------------------


def test_whot_offers_symbol_change_reverse_and_skip() -> None:
    # seed 002 (English): 'The "Whot-card" has three functions ... Symbol-change ...
    # Direction-change ... Skip the next player'
    state = start([["whot", "3 circle"], ["4 star"], ["5 star"]])
    whots = {m for m in legal(state) if "whot" in m}
    assert len(whots) == 15
    assert {
        "play whot call star",
        "play whot call star reverse",
        "play whot call star skip",
    } <= whots


def test_whot_reverse_changes_direction() -> None:
    # seed 002: "Direction-change: The Whot-card player can demand a change of the playing
    # direction e.g. from clockwise to anticlockwise."
    state = start([["whot", "3 circle"], ["4 star"], ["5 star"], ["1 star", "2 cross"]])
    state.apply("play whot call star reverse")
    assert state.to_play == 3
    assert state.view(None)["direction"] == -1
    assert state.view(None)["call"] == "star"
    state.apply("play 1 star")
    state.apply("end")  # English straights keep a turn open until `end`
    assert state.to_play == 2


def test_whot_skip_skips_next_player_who_may_answer_with_whot_or_pass() -> None:
    # seed 002: "Skip the next player: The Whot-card player can demand that the next player is
    # skipped (left out)."; 'The "Whot-card" has three functions that can be defended by playing
    # another "Whot-card".'
    state = start([["whot", "3 circle"], ["whot", "4 star"], ["5 star"]])
    state.apply("play whot call star skip")
    assert state.to_play == 1 and state.view(None)["pending_skip"]
    moves = legal(state)
    assert "pass" in moves and "play whot call circle" in moves
    assert "play 4 star" not in moves and "draw" not in moves
    state.apply("pass")
    assert state.to_play == 2 and state.view(1)["hand"] == ["whot", "4 star"]


def test_skipped_player_answers_with_whot() -> None:
    state = start([["whot", "3 circle"], ["whot", "4 star"], ["5 star", "2 star"]])
    state.apply("play whot call star skip")
    state.apply("play whot call circle skip")  # the answer passes the skip on
    assert state.to_play == 2 and state.view(None)["pending_skip"]
    assert legal(state) == {"pass"}
    state.apply("pass")
    assert state.to_play == 0
    assert legal(state) == {"play 3 circle", "draw"}


def test_whot_skip_with_two_players_plays_again() -> None:
    # seed 002: "If there are only two players (left) then the Whot-card player can play a second
    # time in a row."
    state = start([["whot", "3 circle"], ["4 star"]])
    state.apply("play whot call circle skip")
    state.apply("pass")
    assert state.to_play == 0 and "play 3 circle" in legal(state)


def test_whot_skip_without_answers_is_immediate() -> None:
    state = start([["whot", "3 circle"], ["whot", "4 star"], ["5 star"]], whot_answers_skip=False)
    state.apply("play whot call star skip")
    assert state.to_play == 2 and not state.view(None)["pending_skip"]


def test_storey_whot_has_no_powers() -> None:
    state = start([["whot", "3 circle"], ["4 star"]], rules="storey-1935")
    assert not any(m.endswith(("skip", "reverse")) for m in legal(state))
    with pytest.raises(parlour.IllegalMove):
        state.apply("play whot call star skip")


# --- straights ---------------------------------------------------------------------------------


def test_straight_same_symbol_ascending() -> None:
    # seed 002: "If you have cards in ascending or descending order you can play them in a row by
    # skipping (leaving out) all the other players. ... Example one: Play cards: 2,3,4,5 in a row"
    state = start(
        [
            ["2 triangle", "3 triangle", "4 triangle", "5 triangle", "1 circle"],
            ["4 star"],
            ["5 star"],
        ]
    )
    for text in ("play 2 triangle", "play 3 triangle", "play 4 triangle"):
        state.apply(text)
        assert state.to_play == 0
        assert "end" in legal(state)
    state.apply("play 5 triangle")
    # The pack has no 6s, so no card could go on: the turn ends by itself, without an `end`.
    assert state.to_play == 1
    assert state.view(None)["call_card"] == "5 triangle"


def test_an_open_turn_tells_nothing_about_the_hand() -> None:
    # The turn stays open whenever some card of the pack could follow, even if the hand holds
    # none: otherwise the table would learn that the player cannot go on.
    state = start([["2 triangle", "1 circle"], ["4 star"]])
    state.apply("play 2 triangle")
    assert state.to_play == 0 and legal(state) == {"end"}


def test_straight_descending() -> None:
    # seed 002: "Example two: Play cards: 13,12,11 in a row while skipping all other players."
    state = start([["13 triangle", "12 triangle", "11 triangle", "10 circle"], ["4 star"]])
    for text in ("play 13 triangle", "play 12 triangle", "play 11 triangle", "end"):
        state.apply(text)
    assert state.view(0)["hand"] == ["10 circle"]
    assert state.view(None)["pile"][-3:] == ["13 triangle", "12 triangle", "11 triangle"]


def test_straight_direction_is_fixed_by_the_second_card() -> None:
    state = start(
        [["11 triangle", "12 triangle", "10 triangle", "13 triangle", "1 star"], ["4 star"]]
    )
    state.apply("play 11 triangle")
    assert legal(state) == {"play 12 triangle", "play 10 triangle", "end"}
    state.apply("play 12 triangle")
    assert legal(state) == {"play 13 triangle", "end"}  # 10 would go back down


def test_straight_same_symbol_refuses_another_symbol() -> None:
    # seed 002: "It can be agreed between the players if a straight should only be allowed for
    # cards with the same symbol or if the symbol doesn't matter."
    state = start([["4 triangle", "5 circle", "1 star"], ["4 star"]])
    state.apply("play 4 triangle")
    assert legal(state) == {"end"}


def test_straight_any_symbol() -> None:
    state = start(
        [["4 triangle", "5 circle", "3 star", "1 star"], ["2 cross"]], straights="any-symbol"
    )
    state.apply("play 4 triangle")
    assert legal(state) == {"play 5 circle", "play 3 star", "end"}
    state.apply("play 3 star")
    state.apply("end")
    assert state.view(None)["call_card"] == "3 star" and state.to_play == 1


def test_straight_first_card_must_follow_the_call_and_not_be_whot() -> None:
    # seed 002: 'Any card (except the "Whot-card"), that can be played onto the call-card, can be
    # the first card of the straight.'
    state = start([["8 circle", "7 circle", "whot"], ["4 star"]], pile=("3 triangle",))
    assert legal(state) == {m for m in legal(state) if "whot" in m} | {"draw"}
    state = start([["whot", "4 triangle", "5 triangle"], ["4 star"]], pile=("3 triangle",))
    state.apply("play whot call triangle")
    assert state.to_play == 1  # a WHOT ends the turn: it cannot start a straight


def test_whot_cannot_continue_a_straight() -> None:
    state = start([["4 triangle", "whot", "1 star"], ["4 star"]])
    state.apply("play 4 triangle")
    assert legal(state) == {"end"}


def test_a_straight_turn_cannot_draw() -> None:
    # seed 000: "He cannot DRAW a card and PLAY a card in the SAME TURN."
    state = start([["4 triangle", "1 star"], ["4 star"]])
    state.apply("play 4 triangle")
    assert "draw" not in legal(state)


def test_straight_finishing_the_hand_wins_at_once() -> None:
    state = start([["4 triangle", "5 triangle"], ["4 star"]])
    state.apply("play 4 triangle")
    state.apply("play 5 triangle")
    assert state.is_over and state.result().winners == (0,)


# --- double decking ----------------------------------------------------------------------------


def test_double_decking_by_number() -> None:
    # seed 002: 'the call-card is "4 circle". If the player does not have a circle, but the player
    # has a "4 triangle" and "4 star", and other star-cards, ... the player would play the
    # "4-triangle" card then the "4-star" card would be played immediately after this.'
    state = start(
        [["4 triangle", "4 star", "2 star", "7 star"], ["3 circle"]],
        pile=("4 circle",),
        rules="nigerian",
        double_decking="number",
    )
    state.apply("play 4 triangle")
    assert legal(state) == {"play 4 star", "end"}
    state.apply("play 4 star")
    state.apply("end")
    assert state.view(None)["call_card"] == "4 star" and state.to_play == 1


def test_double_decking_first_card_must_match_the_call() -> None:
    # seed 002: "The call-card must rhyme with the first card played when double decking"
    state = start(
        [["4 triangle", "4 star"], ["3 circle"]],
        pile=("7 circle",),
        rules="nigerian",
        double_decking="number",
    )
    assert legal(state) == {"draw"}


def test_double_decking_by_symbol() -> None:
    # seed 002: "the players may agree amongst themselves if the double decking would be done by
    # playing different cards of the same number or playing different cards of the same shape"
    state = start(
        [["4 circle", "11 circle", "13 circle", "4 star"], ["3 cross"]],
        pile=("7 circle",),
        rules="nigerian",
        double_decking="symbol",
    )
    state.apply("play 4 circle")
    assert legal(state) == {"play 11 circle", "play 13 circle", "end"}
    state.apply("play 13 circle")
    state.apply("play 11 circle")
    state.apply("end")
    assert state.view(0)["hand"] == ["4 star"] and state.to_play == 1


def test_only_the_last_card_of_a_turn_has_its_power() -> None:
    # engine.py: "Only the last card of a turn of several cards has its power (a documented choice;
    # the sheets do not say)."
    state = start(
        [["2 circle", "2 star", "8 circle", "8 star"], ["3 cross", "1 square"], ["5 square"]],
        pile=("7 circle",),
        pack=("10 cross", "11 cross"),
        rules="nigerian",
        double_decking="symbol",
    )
    state.apply("play 2 circle")
    state.apply("play 8 circle")
    state.apply("end")
    assert state.to_play == 2 and state.view(None)["pending_pick"] == 0


def test_straights_and_double_decking_are_exclusive() -> None:
    with pytest.raises(parlour.RulesError):
        parlour.make("whot", players=2, rules="english", double_decking="number")


def test_double_decked_pick_cards_each_count() -> None:
    # seed 002: "Then that player must pick two cards for every "2-cards" that was played. For
    # example, if four "2-cards" were played in a row then the player ... has to pick eight more
    # cards". Bug fixed: double-decked 2s counted as one.
    pack = tuple(f"{n} cross" for n in (1, 3, 5, 7, 10, 11, 13, 14))
    state = start(
        [["2 circle", "2 star", "4 star"], ["2 cross", "2 square", "1 square"], ["5 square"]],
        pile=("7 circle",),
        pack=pack,
        rules="nigerian",
        double_decking="number",
    )
    state.apply("play 2 circle")
    state.apply("play 2 star")
    state.apply("end")
    assert state.view(None)["pending_pick"] == 4
    assert legal(state) == {"play 2 cross", "play 2 square", "draw"}
    state.apply("play 2 cross")
    state.apply("play 2 square")
    state.apply("end")
    assert state.view(None)["pending_pick"] == 8
    state.apply("draw")
    assert state.view(None)["hand_counts"] == [1, 1, 9]


# --- turns of several cards against a pending pick or skip (open points, documented choices) ----


def test_a_turn_answering_a_pick_goes_on_only_with_the_pick_number() -> None:
    # seed 002: "Then that player must pick two cards for every 2-cards that was played" — the
    # pick passed on is the one the turn's cards make, so with double decking by symbol a turn
    # that answers a 2 may not switch to the 3 of the same symbol.
    state = start(
        [["2 triangle", "4 star"], ["2 circle", "3 circle", "1 star"], ["5 star", "7 star"]],
        pile=("7 triangle",),
        rules="nigerian",
        double_decking="symbol",
    )
    state.apply("play 2 triangle")
    state.apply("end")
    assert state.to_play == 1 and state.view(1)["pending_pick"] == 2
    state.apply("play 2 circle")
    assert legal(state) == {"end"}  # not "play 3 circle"
    state.apply("end")
    assert state.to_play == 2 and state.view(2)["pending_pick"] == 4


def test_a_skipped_player_cannot_answer_with_a_whot_when_whot_on_whot_is_off() -> None:
    # seed 000: "A WHOT card may be played on to another WHOT card" — unless the table agrees not.
    state = start([["whot", "3 circle"], ["whot", "4 star"], ["5 star"]], whot_on_whot=False)
    state.apply("play whot call circle skip")
    assert state.to_play == 1 and legal(state) == {"pass"}
