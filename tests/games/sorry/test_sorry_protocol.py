"""Notation, views, records, matches, rendering and bots: Sorry! on the shared protocol."""

from __future__ import annotations

import json
import random

import pytest
from sorry_helpers import make, moves

import parlour
from parlour import IllegalMove
from parlour.bots import make_bot
from parlour.core import ENVELOPE
from parlour.core.events import view_to_wire
from parlour.core.match import Match
from parlour.core.registry import info
from parlour.games.sorry.notation import SorryMove, parse_move

GOOD = [
    "1 enter r",
    "2 enter g",
    "5 b9",
    "4 r3",
    "10 rs2-1",
    "10 y15",
    "7 r4+3 y12+4",
    "7 g2",
    "11 r7<>b9",
    "S g>b9",
    "pass",
    "pass 5",
    "pass S",
]


@pytest.mark.parametrize("text", GOOD)
def test_notation_round_trips(text: str) -> None:
    move = parse_move(text)
    assert str(move) == text
    assert parse_move(str(move)) is move
    assert parse_move(text.upper()) is move


def test_alternative_spellings() -> None:
    assert parse_move("sorry g > b9") is parse_move("S g>b9")
    assert parse_move("4 r3-4") is parse_move("4 r3")
    assert parse_move("  5   b9 ") is parse_move("5 b9")
    assert parse_move("10 y15+10") is parse_move("10 y15")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "6 r4",
        "5",
        "5 r16",
        "3 enter r",
        "7 r4+3 y12+3",
        "5 r4+3",
        "11 rs1<>b9",
        "S r",
        "4 r3 r5",
        "pass 9",
        "hello",
    ],
)
def test_bad_notation_says_why(text: str) -> None:
    with pytest.raises(IllegalMove) as err:
        parse_move(text)
    assert "Sorry! move" in str(err.value) or "move" in str(err.value)


def test_moves_are_interned_and_immutable() -> None:
    move = SorryMove(5, 2, 8, 5)
    assert move is parse_move("5 r9")
    with pytest.raises(AttributeError):
        move.card = 3


def test_illegal_move_lists_the_legal_ones() -> None:
    state = make("5", {"red": ["r4"]})
    with pytest.raises(IllegalMove) as err:
        state.apply("5 r5")
    assert "5 r4" in str(err.value)


def test_short_enter_is_understood_when_only_one_colour_can_enter() -> None:
    state = make("1")
    state.apply("1 enter")
    assert state.view(None)["pawns"]["red"][0] == "r4"


def test_view_hides_the_pack_order_and_shows_the_card() -> None:
    state = make("5", {"red": ["r4"]})
    view = state.view(1)
    text = json.dumps(view_to_wire(view))
    assert view["card"] == "5" and view["pack"] == 44 and "rng" not in text
    assert list(view)[: len(ENVELOPE)] == list(ENVELOPE)
    assert set(view) >= {"pawns", "discard", "colours", "seats", "turn", "again", "winners"}


def test_hand_counts_are_per_player_and_none_without_hands() -> None:
    # point score rule 1: "5 cards are dealt to each player FACE DOWN"
    assert make().view(0)["hand_counts"] is None
    assert make(rules="points", players=3).view(None)["hand_counts"] == [5, 5, 5]
    # two players each playing a partnership hold both its colours' hands
    both = parlour.make("sorry", players=2, rules="partnership", point_score=True)
    view = both.new_game(seed=1).view(1)
    assert view["hand_counts"] == [10, 10]
    assert set(view["hands"]) == {"blue", "green"}


def test_json_round_trip_and_replay() -> None:
    game = parlour.make("sorry", players=3, rules="points")
    state = game.new_game(seed=11)
    rng = random.Random(3)
    for _ in range(60):
        state.apply(rng.choice(state.legal_moves()))
    back = game.load(state.to_json())
    assert back.to_dict() == state.to_dict()
    assert parlour.replay(state.record()).to_dict() == state.to_dict()


def test_the_winner_goes_first_in_the_next_game() -> None:
    # seed 003 rule 2: "The winner of one game goes first in the next."
    game = parlour.make("sorry", players=2)
    fmt = game.match_format("series-3")
    assert fmt.winner_starts and not fmt.lower_wins and fmt.games == 3
    match = Match(game, "series-3", seed=5)
    state = match.next_game()
    rng = random.Random(0)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    winner = state.result().winners[0]
    second = match.next_game()
    assert second.to_play == winner


@pytest.mark.parametrize("preset", ["regular", "partnership", "points"])
@pytest.mark.parametrize("players", [2, 4])
def test_render_for_every_viewer(preset: str, players: int) -> None:
    gi = info("sorry")
    assert gi.render is not None
    game = parlour.make("sorry", players=players, rules=preset)
    state = game.new_game(seed=2)
    rng = random.Random(1)
    names = [f"P{i}" for i in range(players)]
    for step in range(400):
        if step % 50 == 0 or state.is_over:
            for viewer in [None, *range(players)]:
                text = gi.render(state.view(viewer), viewer, names)
                assert "To play" in text or "Game over" in text
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))


def test_variant_aliases() -> None:
    assert parlour.make("sorry", rules="partnership").rules.partnership
    assert parlour.make("sorry", rules="points").rules.point_score


@pytest.mark.parametrize("preset", ["regular", "partnership", "points"])
def test_greedy_bot_plays_whole_games(preset: str) -> None:
    game = parlour.make("sorry", players=4, rules=preset)
    state = game.new_game(seed=4)
    bots = [make_bot("greedy", game, seed=i) for i in range(4)]
    while not state.is_over:
        seat = state.to_play
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))


def test_greedy_explains_its_choice() -> None:
    state = make("5", {"red": ["r4", "b4"], "blue": ["b9"]})
    bot = make_bot("greedy", state.game, seed=1)
    move, why = bot.explain(state.view(0), state.legal_moves())
    assert str(move) == "5 b4" and "greedy" in why  # b4 + 5 bumps blue's pawn on b9


def test_greedy_beats_random_more_often_than_not() -> None:
    game = parlour.make("sorry", players=2)
    wins = 0
    for seed in range(30):
        state = game.new_game(seed=seed)
        greedy = make_bot("greedy", game, seed=seed)
        rand = make_bot("random", game, seed=seed)
        while not state.is_over:
            seat = state.to_play
            bot = greedy if seat == 0 else rand
            state.apply(bot.choose(state.view(seat), state.legal_moves()))
        wins += state.result().winners == (0,)
    assert wins >= 18


def test_forced_move_prefers_a_real_move() -> None:
    state = make("11", {"red": ["r1"], "blue": ["y5"]})
    assert "pass" in moves(state)
    assert str(state.forced_move()) == "11 r1<>y5"
