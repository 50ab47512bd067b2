"""Determinization: a state sampled from a player's view shows that player the same view.

ISSUE 5: "It gets full states only from `game.sample_state(view, rng)` ... Property test: for any
sampled state, the player's view of it equals the view it was sampled from."
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour.core.rng import GameRng

# Every registered game, with the rule sets whose hidden information differs (Storey's turned-over
# pack is public; partnership and point-score Sorry! hide hands).
TABLES = [
    ("whot", 2, "nigerian"),
    ("whot", 4, "storey-1935"),
    ("whot", 3, "english"),
    ("sorry", 4, "regular"),
    ("sorry", 4, "partnership"),
    ("sorry", 3, "points"),
    ("whoswho-tricks", 4, None),
    ("whoswho-books", 3, None),
]


def test_every_game_is_covered() -> None:
    assert {name for name, _, _ in TABLES} == set(parlour.core.games())


@pytest.mark.parametrize(("name", "players", "rules"), TABLES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 400), salt=st.integers(0, 2**32))
def test_sampled_state_shows_the_same_view(
    name: str, players: int, rules: str | None, seed: int, moves: int, salt: int
) -> None:
    game = parlour.make(name, players=players, rules=rules)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    for p in range(players):
        view = state.view(p)
        sampled = game.sample_state(view, GameRng(salt))
        assert sampled.view(p) == view
        if state.to_play == p:
            assert sorted(map(str, sampled.legal_moves())) == sorted(map(str, state.legal_moves()))
