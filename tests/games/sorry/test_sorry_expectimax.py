"""The `expectimax` bot: each move judged by the expectation, over every card the other colours
may draw before the bot's turn comes again, of the learned win chance — the cards' chances
counted from what the view shows (the pack's order is never read)."""

from __future__ import annotations

import random

import pytest
from sorry_helpers import GAMES, make

import parlour
from parlour.bots.base import make_bot
from parlour.core import RulesError
from parlour.games.sorry.engine import SorryState
from parlour.games.sorry.expectimax import ExpectimaxBot, expected_chances


def chances(state: SorryState, ahead: float = 0.0) -> dict[str, float]:
    return {str(m): s for s, m in expected_chances(state, state.legal_moves(), ahead)}


def test_takes_the_move_that_wins() -> None:
    # red's last pawn is 10 short of HOME: forward 10 wins, backward 1 does not
    state = make("10", {"red": ["g13", "home", "home", "home"]})
    bot = ExpectimaxBot(state.game, random.Random(0))
    assert str(bot.choose(state.view(0), state.legal_moves())) == "10 g13"


def test_the_cards_chances_are_those_of_the_cards_not_seen() -> None:
    # Red cannot use its SORRY! (no pawn in START) and passes, leaving its pawn on g8. Blue's
    # pawn 3 squares behind it (g5) bumps it with a 3; on g11 it cannot. With every 3 in the
    # discard that danger is gone: the pass gains more from the 3s being out behind g5 than it
    # does with blue's pawn on g11, where the 3s' going only changes the other cards' chances.
    def pass_chance(blue: str, threes_out: bool) -> float:
        state = make("S", {"red": ["g8", "home", "home", "home"], "blue": [blue] + ["start"] * 3})
        if threes_out:
            for _ in range(4):
                state.pack.remove(3)
                state.discard.append(3)
        return chances(state)["pass"]

    behind = pass_chance("g5", True) - pass_chance("g5", False)
    clear = pass_chance("g11", True) - pass_chance("g11", False)
    assert behind > clear


def test_reads_only_the_view_not_the_order_of_the_pack() -> None:
    # Two games showing the same view, their packs in different orders: the same judgement.
    pawns = {"red": ["r8", "b3", "start", "start"], "blue": ["r5", "start", "start", "start"]}
    a = make("7", pawns, pack=["1", "2", "3", "S"])
    b = make("7", pawns, pack=["S", "3", "2", "1"])
    assert a.view(0) == b.view(0)
    assert a.pack != b.pack
    assert chances(a, 0.5) == chances(b, 0.5)


def test_weighs_its_own_next_card_by_ahead() -> None:
    # The expected gain of the bot's next card only adds to its chance.
    state = make("7", {"red": ["r8", "b3", "start", "start"], "blue": ["r5"] + ["start"] * 3})
    without, weighed = chances(state, 0.0), chances(state, 1.0)
    assert without.keys() == weighed.keys()
    assert all(weighed[m] > without[m] for m in without)


@pytest.mark.parametrize(("players", "rules"), GAMES)
def test_plays_every_kind_of_game_to_the_end(players: int, rules: str) -> None:
    game = parlour.make("sorry", players=players, rules=rules)
    state = game.new_game(seed=3)
    bots = [make_bot("expectimax", game, seat) for seat in range(players)]
    for _ in range(5000):
        if state.is_over:
            break
        seat = state.to_play
        assert seat is not None
        legal = state.legal_moves()
        move = bots[seat].choose(state.view(seat), legal)
        assert move in legal
        state.apply(move)
    assert state.is_over


def test_parameters() -> None:
    game = parlour.make("sorry", players=4)
    assert make_bot("expectimax:ahead=1.5", game, 0).ahead == 1.5  # type: ignore[attr-defined]
    with pytest.raises(RulesError, match="ahead must be a number"):
        make_bot("expectimax:ahead=lots", game, 0)
    with pytest.raises(RulesError, match="takes no parameters"):
        make_bot("expectimax:depth=3", game, 0)
