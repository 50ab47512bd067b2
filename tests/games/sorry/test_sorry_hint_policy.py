"""The hint bot's rules played on a full state (`hint_policy`), for the search bots' playouts.

On a full state the pawns and the card up are all the hint bot looks at, so the policy judges the
moves there directly, without sampling a state from a view. It must choose as the bot does: one of
the moves the bot scores best, scored exactly as the bot scores them. And the fast scoring must be
the plain definition: each move tried on a copy of the state, judged by the pawns' worth, the
opponents' progress (the leader's counting double) and the pawns left in danger.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sorry_helpers import GAMES, make

import parlour
from parlour.bots.base import make_bot
from parlour.core import Move
from parlour.games.sorry.board import HOME, START, TRACK
from parlour.games.sorry.engine import SorryState
from parlour.games.sorry.hint import (
    SorryHintBot,
    hint_policy,
    move_scores,
    position_score,
)
from parlour.games.sorry.notation import PASS, SorryMove


# --- the plain definition of the hint bot's judgement ---------------------------------------------
def plain_worth(r: int) -> float:
    if r == START:
        return 0.0
    if r == HOME:
        return 90.0
    return r + 8.0 if r >= TRACK else r + 1.0


def plain_side(state: SorryState, ci: int) -> float:
    return sum(plain_worth(state.pos[p]) for p in range(4 * ci, 4 * ci + 4))


def plain_danger(state: SorryState, ci: int) -> float:
    # an opponent's pawn 1-8, 10, 11 or 12 squares behind, or 1 or 4 ahead, may land on the pawn
    t = state.t
    threats = [
        t.abs[cj][state.pos[p]]
        for cj in t.opp[ci]
        for p in range(4 * cj, 4 * cj + 4)
        if 0 <= state.pos[p] < TRACK
    ]
    loss = 0.0
    for cj in t.ctrl[ci]:
        for p in range(4 * cj, 4 * cj + 4):
            r = state.pos[p]
            if 0 <= r < TRACK:
                a = t.abs[cj][r]
                if any(
                    (a - b) % TRACK in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12) for b in threats
                ) or any((b - a) % TRACK in (1, 4) for b in threats):
                    loss += plain_worth(r) * 0.25
    return loss


def plain_position_score(state: SorryState, ci: int) -> float:
    t = state.t
    own = sum(plain_side(state, cj) for cj in t.ctrl[ci])
    progress = [plain_side(state, cj) for cj in t.opp[ci]]
    theirs = 0.5 * max(progress) + 0.5 * sum(progress) / len(progress)
    return own - theirs * len(t.ctrl[ci]) - plain_danger(state, ci)


def plain_scores(state: SorryState) -> dict[Move, float]:
    ci = state.cur
    before = plain_position_score(state, ci)
    out = {}
    for move in state.legal_moves():
        trial = state.copy()
        trial.apply(move)
        score = plain_position_score(trial, ci) - before
        if trial.is_over and state.t.seat[ci] in trial.winners:
            score += 10_000
        if isinstance(move, SorryMove) and move.kind == PASS:
            score -= 0.5
        out[move] = score
    return out


# --- positions from seeded games --------------------------------------------------------------
def positions(players: int, rules: str, bot: str, games: int = 3, moves: int = 150) -> list[Any]:
    """Every position of a few seeded games between `bot`s (the first `moves` moves of each)."""
    out = []
    for seed in range(games):
        game = parlour.make("sorry", players=players, rules=rules)
        state = game.new_game(seed=seed)
        bots = [make_bot(bot, game, seed=100 * seed + i) for i in range(players)]
        for _ in range(moves):
            if state.is_over:
                break
            out.append(state.copy())
            seat = state.to_play
            state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    return out


CASES = [(p, r, b) for p, r in GAMES for b in ("hint", "random")]


@pytest.mark.parametrize(("players", "rules", "bot"), CASES)
def test_the_policy_plays_one_of_the_hint_bots_best_moves(
    players: int, rules: str, bot: str
) -> None:
    # the bot judges a state sampled from the mover's view; the policy the full state itself
    states = [s for s in positions(players, rules, bot) if len(s.legal_moves()) > 1]
    assert len(states) >= 100
    rng = random.Random(7)
    for state in states:
        hint = SorryHintBot(state.game, random.Random(len(state.history)))
        seat = state.to_play
        legal = state.legal_moves()
        bot_scores = dict((m, s) for s, m in hint._scores(state.view(seat), legal))
        best = max(bot_scores.values())
        assert hint_policy(state, rng) in {m for m, s in bot_scores.items() if s == best}
        assert {m: s for s, m in move_scores(state, legal)} == bot_scores


@pytest.mark.parametrize(("players", "rules", "bot"), CASES)
def test_the_scores_are_the_plain_definition(players: int, rules: str, bot: str) -> None:
    # to the bit, so moves tied under the plain definition stay tied
    for state in positions(players, rules, bot, games=2):
        scores = move_scores(state, state.legal_moves())
        assert {m: s for s, m in scores} == plain_scores(state)
        for ci in range(state.t.n):
            assert position_score(state, ci) == plain_position_score(state, ci)


def test_judging_the_moves_leaves_the_state_as_it_was() -> None:
    for state in positions(4, "regular", "hint", games=1):
        before = state.to_json()
        hint_policy(state, random.Random(1))
        assert state.to_json() == before


def test_the_only_move_is_played_without_a_draw_from_the_rng() -> None:
    state = make("5", {"red": ["r9"]})
    rng = random.Random(3)
    assert str(hint_policy(state, rng)) == "5 r9"
    assert rng.random() == random.Random(3).random()


def test_a_move_that_wins_counts_ten_thousand_more() -> None:
    state = make("1", {"red": ["home", "home", "home", "rs5"], "blue": ["b9"]})
    [(score, move)] = move_scores(state, state.legal_moves())
    trial = state.copy()
    trial.apply(move)
    assert trial.is_over
    assert score == position_score(trial, 0) - position_score(state, 0) + 10_000


def test_a_forfeit_counts_half_a_point_less() -> None:
    # an 11 that cannot go forward 11 (red's pawn is on its diamond) may change places or forfeit
    state = make("11", {"red": ["r2"], "blue": ["b9"]})
    scores = {str(m): s for s, m in move_scores(state, state.legal_moves())}
    assert scores.keys() == {"pass", "11 r2<>b9"}
    assert scores["pass"] == -0.5


def test_the_leader_is_sent_back_first() -> None:
    # blue, with three pawns HOME, leads: the SORRY! goes to blue's pawn, though it puts red's
    # pawn two squares further back than the other opponents' pawns would
    state = make(
        "S",
        {
            "red": ["start"],
            "blue": ["g4", "home", "home", "home"],
            "yellow": ["g6"],
            "green": ["g8"],
        },
    )
    assert sorted(str(m) for m in state.legal_moves()) == ["S r>g4", "S r>g6", "S r>g8"]
    for seed in range(10):
        assert str(hint_policy(state, random.Random(seed))) == "S r>g4"


def test_ties_are_broken_by_the_policys_rng() -> None:
    # two pawns far from everyone: a 5 forward from either gains the same
    state = make("5", {"red": ["r9", "y9"]}, players=2)
    scores = move_scores(state, state.legal_moves())
    assert len({s for s, _ in scores}) == 1
    chosen = {str(hint_policy(state, random.Random(seed))) for seed in range(20)}
    assert chosen == {"5 r9", "5 y9"}
