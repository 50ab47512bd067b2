"""Property tests: pawns and cards are conserved, views are a wall, replays are identical."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.core.rng import GameRng
from parlour.games.sorry.board import TRACK
from parlour.games.sorry.cards import deck
from parlour.games.sorry.engine import SorryState

PRESETS = st.sampled_from(["regular", "partnership", "points"])


def _check_invariants(state: SorryState) -> None:
    t = state.t
    assert len(state.pos) == 4 * t.n  # pawns conserved
    seen: dict[int, int] = {}
    for pid, r in enumerate(state.pos):
        assert -1 <= r <= 65
        if 0 <= r < TRACK:
            sq = t.abs[pid >> 2][r]
            assert sq not in seen, "two pawns on one track square"
            seen[sq] = pid
            assert state.occ[sq] == pid
    assert sum(1 for o in state.occ if o >= 0) == len(seen)
    for ci in range(t.n):  # no two pawns of one colour in one safety square
        safe = [r for r in state.pos[4 * ci : 4 * ci + 4] if TRACK <= r < 65]
        assert len(safe) == len(set(safe))
    cards = (
        Counter(state.pack) + Counter(state.discard) + Counter(c for h in state.hands for c in h)
    )
    if state.card:
        cards[state.card] += 1
    assert cards == Counter(deck(state.game.rules.deck))  # cards conserved


@settings(max_examples=25, deadline=None)
@given(preset=PRESETS, players=st.sampled_from([2, 4]), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(preset: str, players: int, seed: int) -> None:
    game = parlour.make("sorry", players=players, rules=preset)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        assert isinstance(state, SorryState)
        _check_invariants(state)
        state.apply(rng.choice(state.legal_moves()))
    _check_invariants(state)


@settings(max_examples=20, deadline=None)
@given(preset=PRESETS, seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_views_do_not_change_when_hidden_cards_move(preset: str, seed: int, steps: int) -> None:
    game = parlour.make("sorry", players=4, rules=preset)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    for p in range(4):
        other = state.permute_hidden(p, GameRng(seed + p))
        assert other.view(p) == state.view(p)
        sampled = game.sample_state(state.view(p), GameRng(seed - p))
        assert sampled.view(p) == state.view(p)
        assert isinstance(sampled, SorryState)
        _check_invariants(sampled)


@settings(max_examples=15, deadline=None)
@given(preset=PRESETS, seed=st.integers(0, 2**32))
def test_seeded_replay_is_identical(preset: str, seed: int) -> None:
    game = parlour.make("sorry", players=3 if preset != "partnership" else 4, rules=preset)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(100):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    again = parlour.replay(state.record())
    assert again.to_dict() == state.to_dict()
    loaded = game.load(state.to_json())
    assert loaded.legal_moves() == state.legal_moves()
