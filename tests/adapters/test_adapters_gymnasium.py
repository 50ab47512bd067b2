"""Gymnasium: the single-seat environment passes Gymnasium's check_env for every game, plays to the
end against named bots, and never replaces an illegal action."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from adapters_support import need

import parlour
from parlour.core import IllegalMove

gymnasium = need("gymnasium")
np = need("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from parlour.adapters.gymnasium import SeatEnv, register_envs  # noqa: E402

OPPONENTS = "hint" if "hint" in parlour.bots.bot_names("whot") else "greedy"


@pytest.mark.parametrize(
    ("name", "kw"),
    [
        ("whot", {"rules": "nigerian", "players": 3, "opponents": [OPPONENTS, "random"]}),
        ("sorry", {"players": 2}),
        ("whoswho-tricks", {"players": 4, "opponents": ["greedy", "random", "greedy"]}),
        ("whoswho-books", {"players": 3}),
    ],
)
def test_check_env(name: str, kw: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec, cannot test other render modes"
        check_env(SeatEnv(name, **kw))


def test_registered_ids_pass_check_env_with_render_modes() -> None:
    ids = register_envs()
    assert "parlour/whot-v0" in ids
    env = gymnasium.make("parlour/whot-v0", rules="english", players=2, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    env.reset(seed=0)
    assert "player_0" in env.render()


def _episode(env: SeatEnv, seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        assert obs in env.observation_space
        assert info["action_mask"].any() and info["action_mask"].dtype == np.int8
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        obs, reward, terminated, truncated, info = env.step(
            env.action_space.sample(info["action_mask"])
        )
        steps += 1
        if terminated or truncated:
            return reward, steps


def test_plays_to_the_end_against_bots_and_is_seeded() -> None:
    env = SeatEnv("whot", rules="nigerian", players=3, opponents=[OPPONENTS, "random"])
    env.action_space.seed(1)
    results = [_episode(env, seed) for seed in range(4)]
    assert all(r in (1.0, -1.0) for r, _ in results)
    env.action_space.seed(1)
    assert [_episode(env, seed) for seed in range(4)] == results
    assert env.state.is_over


def test_random_seat_and_opponent_moves_happen_between_steps() -> None:
    env = SeatEnv("whoswho-tricks", players=4, seat=None, opponents=["random"])
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.state.to_play == env.seat
    assert len(seats) > 1


def test_illegal_action_loses_or_raises_never_replaced() -> None:
    env = SeatEnv("whot", rules="nigerian", players=2)
    _obs, info = env.reset(seed=5)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_json()
    _obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal now" in info["illegal"]
    assert env.state.to_json() == before

    strict = SeatEnv("whot", rules="nigerian", players=2, illegal="raise")
    strict.reset(seed=5)
    with pytest.raises(IllegalMove, match="not legal now"):
        strict.step(bad)
    assert strict.state.to_json() == before


def test_bad_arguments_are_clear() -> None:
    with pytest.raises(ValueError, match="opponents"):
        SeatEnv("whot", players=4, opponents=["random", "random"])
    with pytest.raises(parlour.RulesError, match="no bot"):
        SeatEnv("whot", opponents=["no-such-bot"])
    with pytest.raises(ValueError, match="illegal"):
        SeatEnv("whot", illegal="ignore")
