"""The greedy bot's rule played straight off a full state (`greedy_policy`), as a search bot uses it
when a spec names it (`ismcts:model=greedy,playout=greedy`): the very move the `greedy` bot would
choose from that seat's view, from only what that seat may know."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

import parlour
from parlour.core.rng import GameRng
from parlour.games.whot.bots import GreedyBot, greedy_policy
from parlour.games.whot.engine import WhotState
from parlour.testing.positions import played_positions

TABLES = [
    (preset, players, opponents)
    for preset in ("nigerian", "storey-1935", "english")
    for players in (2, 4)
    for opponents in ("greedy", "hint", "random")
]


def positions(
    preset: str, players: int, opponents: str, games: int = 12, moves: int = 150, **opts: Any
) -> Iterator[WhotState]:
    """Every position of a few seeded games between `opponents` bots (the state is played on after
    each is yielded)."""
    game = parlour.make("whot", players=players, rules=preset, **opts)
    for state in played_positions(game, opponents, range(games), moves):
        assert isinstance(state, WhotState)
        yield state


@pytest.mark.parametrize(("preset", "players", "opponents"), TABLES)
def test_greedy_policy_plays_the_greedy_bots_move(
    preset: str, players: int, opponents: str
) -> None:
    # Over every position of greedy-, hint- and random-played games: the policy on the full state
    # and the bot on the mover's view choose the same move.
    checked = 0
    for state in positions(preset, players, opponents):
        me = state.to_play
        legal = state.legal_moves()
        move = greedy_policy(state, Random(0))
        assert move is GreedyBot(state.game, Random(0)).choose(state.view(me), legal), str(move)
        checked += len(legal) > 1
    assert checked >= 200


def test_greedy_policy_says_the_declarations_as_the_bot_does() -> None:
    # The greedy rule says its declarations (last card, semi-last card, check up): they are free.
    declarations = ("last card", "semi-last card", "check up")
    checked = 0
    for opponents in ("greedy", "random"):
        for state in positions("nigerian", 3, opponents, declarations=declarations):
            legal = state.legal_moves()
            move = greedy_policy(state, Random(1))
            assert move is GreedyBot(state.game, Random(1)).choose(state.view(state.to_play), legal)
            if any(m.say for m in legal):  # type: ignore[attr-defined]
                assert move.say or move.kind != "play"  # type: ignore[attr-defined]
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("preset", ["nigerian", "storey-1935"])
def test_greedy_policy_reads_only_what_its_seat_may_know(preset: str) -> None:
    # Hidden information is a wall: redraw every card the mover cannot see and the move is the same.
    for state in positions(preset, 3, "random", games=2):
        me = state.to_play
        assert me is not None
        for k in range(2):
            other = state.permute_hidden(me, GameRng(k))
            assert greedy_policy(other, Random(k)) is greedy_policy(state, Random(k))


def test_greedy_sheds_the_highest_card_and_keeps_the_whot_for_last() -> None:
    game = parlour.make("whot", players=2, rules="storey-1935")
    state = game.new_game(
        0,
        position={
            "hands": [["whot", "5 circle", "13 circle", "11 square"], ["1 star", "2 star"]],
            "pile": ["10 circle"],
            "to_play": 0,
        },
    )
    assert str(greedy_policy(state, Random(0))) == "play 13 circle"
    state = game.new_game(
        0,
        position={
            "hands": [["whot", "5 square", "7 square", "3 cross"], ["1 star", "2 star"]],
            "pile": ["10 circle"],
            "to_play": 0,
        },
    )
    # Nothing follows the circle but the WHOT: it calls the symbol held most (square).
    assert str(greedy_policy(state, Random(0))) == "play whot call square"
