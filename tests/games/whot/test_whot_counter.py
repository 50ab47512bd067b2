"""The `counter` bot: the greedy rule's race played with what the seat may know — the cards it
has seen, and the symbols the other seat could not follow."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

import parlour
from parlour.bots.base import make_bot
from parlour.core.rng import GameRng
from parlour.games.whot.bots import GreedyBot
from parlour.games.whot.counter import CounterBot
from parlour.games.whot.engine import WhotState
from parlour.testing.positions import played_positions


def start(hands: list[list[str]], rules: str = "storey-1935", **pos: Any) -> WhotState:
    game = parlour.make("whot", players=len(hands), rules=rules)
    state = game.new_game(0, position={"hands": hands, **pos})
    assert isinstance(state, WhotState)
    return state


def counter_move(state: WhotState) -> str:
    me = state.to_play
    return str(CounterBot(state.game, Random(0)).choose(state.view(me), state.legal_moves()))


def greedy_move(state: WhotState) -> str:
    me = state.to_play
    return str(GreedyBot(state.game, Random(0)).choose(state.view(me), state.legal_moves()))


def test_counter_calls_the_symbol_the_opponent_could_not_follow() -> None:
    # P2 drew on P1's triangle: it held no triangle and no WHOT. P1 then answers P2's star with a
    # WHOT, keeping one circle and one triangle: it calls triangle, where the greedy rule calls
    # the first of the symbols it holds most (circle).
    state = start(
        [
            ["2 triangle", "whot", "7 circle", "8 triangle", "2 star"],
            ["3 star", "4 circle", "13 circle"],
        ],
        pile=["2 circle"],
        to_play=0,
        pack=["11 square"],
    )
    state.apply("play 2 triangle")
    state.apply("draw")
    state.apply("play 2 star")
    state.apply("play 3 star")
    assert {str(m) for m in state.legal_moves()} >= {"play whot call triangle", "draw"}
    assert greedy_move(state) == "play whot call circle"
    assert counter_move(state) == "play whot call triangle"


def test_counter_sheds_the_card_the_opponent_could_not_follow_and_keeps_one_to_follow_it() -> None:
    # P2 drew on P1's circle. Later, on a 5 triangle, P1 may play its 10 triangle (the greedy
    # rule: the highest card) or its 5 circle, which P2 could not follow and P1's 7 circle
    # follows.
    state = start(
        [
            ["2 circle", "2 triangle", "5 circle", "7 circle", "10 triangle", "1 cross"],
            ["5 triangle", "10 square", "13 square", "3 star"],
        ],
        pile=["12 circle"],
        to_play=0,
        pack=["11 square"],
    )
    state.apply("play 2 circle")
    state.apply("draw")
    state.apply("play 2 triangle")
    state.apply("play 5 triangle")
    assert {str(m) for m in state.legal_moves()} >= {"play 5 circle", "play 10 triangle"}
    assert greedy_move(state) == "play 10 triangle"
    assert counter_move(state) == "play 5 circle"


def test_counter_goes_out_in_one_turn_by_hold_on_and_general_market() -> None:
    # Nigerian powers between two players: Hold on and General market give the turn back. With
    # 1, 14 and 3 circle on a circle, the bot plays 1, then 14, then 3 — out in one turn — where
    # the greedy rule sheds the 14 first and then the 3, left holding the 1.
    state = start(
        [["1 circle", "14 circle", "3 circle"], ["5 square", "10 square", "5 star"]],
        rules="nigerian",
        pile=["12 circle"],
        to_play=0,
    )
    assert greedy_move(state) == "play 14 circle"
    bot = CounterBot(state.game, Random(0))
    played = []
    while state.to_play == 0:
        move = bot.choose(state.view(0), state.legal_moves())
        played.append(str(move))
        state.apply(move)
    assert played == ["play 1 circle", "play 14 circle", "play 3 circle"]
    assert state.is_over and state.result().winners == (0,)


@pytest.mark.parametrize("preset", ["nigerian", "storey-1935"])
def test_counter_reads_only_what_its_seat_may_know(preset: str) -> None:
    # Hidden information is a wall: redraw every card the mover cannot see (the other hand, the
    # market's order where it is not public) and the bot's move is the same.
    game = parlour.make("whot", players=2, rules=preset)
    checked = 0
    for state in played_positions(game, "counter", range(6), 60):
        assert isinstance(state, WhotState)
        me = state.to_play
        assert me is not None
        legal = state.legal_moves()
        move = make_bot("counter", game, 3).choose(state.view(me), legal)
        for k in range(2):
            other = state.permute_hidden(me, GameRng(k))
            assert other.hands[me] == state.hands[me]
            assert make_bot("counter", game, 3).choose(other.view(me), other.legal_moves()) == move
        checked += len(legal) > 1
    assert checked >= 50
