"""Move notation, refused moves, and records that replay (DESIGN.md, "Errors are answers")."""

from __future__ import annotations

import random
from typing import Any

import pytest

import parlour
from parlour.core.rng import GameRng
from parlour.games.whot.cards import PACK, WHOT, card_text, parse_card
from parlour.games.whot.moves import DRAW, END, PASS, parse_move, play


def start(hands: list[list[str]], rules: str = "nigerian", **opts: Any) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, **opts)
    return game.new_game(3, position={"hands": hands, "pile": ["7 triangle"], "to_play": 0})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("play 5 circle", "play 5 circle"),
        ("5 circles", "play 5 circle"),
        ("circle 5", "play 5 circle"),
        ("5c", "play 5 circle"),
        ("PLAY  14  Cross", "play 14 cross"),
        ("play 3 x", "play 3 cross"),
        ("play 3 st", "play 3 star"),
        ("play 3 s", "play 3 square"),
        ("play whot call star", "play whot call star"),
        ("whot stars", "play whot call star"),
        ("play 20 whot call square skip", "play whot call square skip"),
        ("play whot call t reverse", "play whot call triangle reverse"),
        ('play 7 circle, "last card"', "play 7 circle, last card"),
        ("draw", "draw"),
        ("market", "draw"),
        ("go to market", "draw"),
        ("end", "end"),
        ("done", "end"),
        ("pass", "pass"),
    ],
)
def test_notation_is_lenient_in_spelling(text: str, expected: str) -> None:
    assert str(parse_move(text)) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("play 6 circle", "no 6 circle"),
        ("play 9 star", "no 9 star"),
        ("play 8 square", "no 8 square"),
        ("play whot", "calls a symbol"),
        ("play whot call hexagon", "not a symbol"),
        ("play whot call star twice", "not a WHOT power"),
        ("play 5 circle, hooray", "not a declaration"),
        ("fold", "not a card"),
    ],
)
def test_bad_text_says_why(text: str, why: str) -> None:
    with pytest.raises(parlour.IllegalMove, match=why):
        parse_move(text)


def test_every_card_round_trips() -> None:
    for c in set(PACK):
        assert parse_card(card_text(c)) == c
        move = play(c) if c != WHOT else play(WHOT, 4)
        assert parse_move(str(move)) is move  # interned: the same object


def test_special_moves_are_interned() -> None:
    assert parse_move("draw") is DRAW and parse_move("end") is END and parse_move("pass") is PASS


def test_moves_are_immutable_and_hashable() -> None:
    move = parse_move("play 5 circle")
    with pytest.raises(AttributeError):
        move.card = 3
    assert len({move, parse_move("5c"), parse_move("draw")}) == 2


def test_illegal_move_lists_the_legal_moves_and_leaves_the_state_unchanged() -> None:
    # DESIGN.md: "An illegal or malformed move raises IllegalMove (a ValueError) whose message says
    # why and lists what is legal; the state is unchanged."
    state = start([["5 circle", "3 triangle"], ["1 star"]])
    before = state.to_json()
    with pytest.raises(parlour.IllegalMove) as info:
        state.apply("play 5 circle")
    assert isinstance(info.value, ValueError)
    assert "play 5 circle is not legal" in str(info.value)
    assert "Legal moves: play 3 triangle, draw" in str(info.value)
    assert info.value.legal == ["play 3 triangle", "draw"]
    assert state.to_json() == before
    for bad in ("play 6 circle", "end", "pass", "play whot call star"):
        with pytest.raises(parlour.IllegalMove):
            state.apply(bad)
        assert state.to_json() == before


def test_a_card_not_in_hand_is_refused() -> None:
    state = start([["5 circle", "3 triangle"], ["1 star"]])
    with pytest.raises(parlour.IllegalMove, match="not legal"):
        state.apply("play 4 triangle")


def test_position_errors_are_clear() -> None:
    game = parlour.make("whot", players=2, rules="nigerian")
    bad: list[tuple[dict[str, object], str]] = [
        ({"hands": [["whot"] * 6, ["1 star"]]}, "more cards than the pack"),
        ({"hands": [["1 circle"], ["1 star"]], "call": "star"}, "call card"),
        ({"hands": [["1 circle"], ["1 star"]], "pile": ["3 circle"], "call": "star"}, "calls no"),
        ({"hands": [["1 circle"]]}, "2 players"),
        ({"hands": [["6 circle"], ["1 star"]]}, "no 6"),
        ({"hands": [["1 circle"], []]}, "no cards"),
        ({"hands": [["1 circle"], ["1 star"]], "to_play": 2}, "to_play must be a seat"),
        ({"hands": [["1 circle"], ["1 star"]], "colour": "red"}, "unknown keys colour"),
        ({"hands": [["1 circle"], ["1 star"]], "pending_pick": 2}, "pick_number"),
        ({"hands": [["1 circle"], ["1 star"]], "known": [["2 circle"], []]}, "not all in the hand"),
    ]
    for spec, why in bad:
        with pytest.raises(parlour.core.SetupError, match=why):
            game.from_position(spec)


def test_a_whot_on_the_pile_with_no_call_lets_any_card_follow() -> None:
    """As when a WHOT is turned up as the first call card: no symbol has been called yet."""
    game = parlour.make("whot", players=2, rules="nigerian")
    state = game.from_position({"hands": [["1 circle", "3 square"], ["1 star"]], "pile": ["whot"]})
    assert {str(m) for m in state.legal_moves()} == {"play 1 circle", "play 3 square", "draw"}


def test_a_state_from_a_position_replays_from_its_record() -> None:
    game = parlour.make("whot", players=3, rules="nigerian")
    state = game.new_game(
        12,
        position={
            "hands": [
                ["2 triangle", "14 triangle", "whot"],
                ["2 star", "4 star"],
                ["8 circle", "5 circle"],
            ],
            "pile": ["7 triangle"],
            "pack": ["10 circle"],
            "to_play": 0,
        },
    )
    for text in ("play 14 triangle", "play 2 triangle", "play 2 star", "draw"):
        state.apply(text)
    again = parlour.replay(state.record())
    assert again.to_json() == state.to_json()
    assert parlour.replay(state.record().to_json()).to_json() == state.to_json()
    assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


@pytest.mark.parametrize(
    "rules", ["storey-1935", "nigerian", "english", "knockout", "variant-pick-7"]
)
def test_a_dealt_game_replays_from_its_record(rules: str) -> None:
    game = parlour.make("whot", players=3, rules=rules, declarations=("last card",))
    state = game.new_game(21, dealer=1)
    for _ in range(60):
        if state.is_over:
            break
        state.apply(state.legal_moves()[0])
    assert parlour.replay(state.record()).to_json() == state.to_json()
    assert game.load(state.to_json()).to_json() == state.to_json()


def test_a_state_sampled_from_a_finished_game_keeps_the_hands_shown_at_the_count() -> None:
    # seed 000: "the scores are taken and written down" — at the end every hand is shown, so a
    # state sampled from the final view must hold exactly those hands.
    game = parlour.make("whot", players=3, rules="storey-1935")
    state = game.new_game(seed=4)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    view = state.view(1)
    sampled = game.sample_state(view, GameRng(9))
    assert sampled.view(1) == view


def test_a_refused_move_says_whether_it_is_no_move_or_not_legal_now_and_why() -> None:
    # seed 000: follow "A Card of ANY NUMBER but the SAME SYMBOL ... or ... of ANY SYMBOL but the
    # SAME NUMBER as the Call Card"
    game = parlour.make("whot", players=2, rules="nigerian")
    state = game.from_position(
        {"hands": [["13 circle", "8 circle", "whot"], ["1 star"]], "pile": ["8 triangle"]}
    )
    with pytest.raises(parlour.core.NotLegalNow, match="13 circle cannot follow the call") as info:
        state.check("play 13 circle")
    assert info.value.why == "13 circle cannot follow the call: triangle or 8"
    assert "play 8 circle" in info.value.legal
    with pytest.raises(parlour.core.NotLegalNow, match="you hold no 5 star"):
        state.check("play 5 star")
    with pytest.raises(parlour.core.NotLegalNow, match="may not skip under these rules"):
        state.check("play whot call star skip")
    with pytest.raises(parlour.core.NotAMove, match="banana"):
        state.check("play 13 banana")
    state.apply("play 8 circle")
    with pytest.raises(parlour.core.NotLegalNow, match="not legal now"):
        state.check("play 1 star")  # not this player's card: the mover's hand is the rule
