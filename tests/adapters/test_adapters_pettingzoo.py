"""PettingZoo: every game passes PettingZoo's own api_test and seed_test; illegal actions raise."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from adapters_support import TABLES, need, table_id

from parlour.core import IllegalMove

need("pettingzoo")
np = need("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from parlour.adapters import pettingzoo as pz  # noqa: E402


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_api_test(table: tuple[str, dict[str, Any]]) -> None:
    name, kw = table
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about Dict observations, which masks need
        api_test(pz.env(name, **kw), num_cycles=200)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_seed_test(table: tuple[str, dict[str, Any]]) -> None:
    name, kw = table
    seed_test(lambda: pz.env(name, **kw), num_cycles=50)


def test_random_game_to_the_end_with_rewards() -> None:
    env = pz.env("whot", rules="nigerian", players=4)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.agents
    assert sorted(total.values())[-1] == 1.0 and min(total.values()) == -1.0


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = pz.env("whot", rules="nigerian", players=4)
    env.reset(seed=3)
    agent = env.agent_selection
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.state.to_json()
    with pytest.raises(IllegalMove, match="is not legal now"):
        env.step(bad)
    with pytest.raises(IllegalMove):
        env.step(None)
    assert env.unwrapped.state.to_json() == before and env.agent_selection == agent
    for other in env.possible_agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()


def test_observation_is_the_agents_view_encoded() -> None:
    env = pz.raw_env("sorry", rules="points", players=3)
    env.reset(seed=2)
    enc = env.encoding
    for i, agent in enumerate(env.possible_agents):
        view = env.state.view(i)
        assert np.array_equal(env.observe(agent)["observation"], enc.observe(view))


def test_truncation_and_render() -> None:
    env = pz.env("whoswho-tricks", players=4, max_moves=5, render_mode="ansi")
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 5
    assert isinstance(env.render(), str)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_every_agent_observes_its_view_encoded_and_kept_observations_never_change(
    table: tuple[str, dict[str, Any]],
) -> None:
    """Through the environment (one table observer for every seat): at every step, each agent's
    observation is the encoding of its own view, the mover's mask marks its legal moves, a
    waiting agent's mask is all zeros and cannot be written, and an observation handed out
    earlier is still what it was."""
    name, kw = table
    env = pz.env(name, **kw)
    env.reset(seed=5)
    raw = env.unwrapped
    enc = raw.encoding
    rng = np.random.default_rng(1)
    kept: list[tuple[Any, Any]] = []
    for step, agent in enumerate(env.agent_iter(300)):
        obs, _r, term, trunc, _i = env.last()
        st = raw.state
        if step % 7 == 0:  # now and then every agent, in seat order
            for other in env.possible_agents:
                seat = raw._seat[other]
                seen = env.observe(other)
                np.testing.assert_array_equal(seen["observation"], enc.observe(st.view(seat)))
                if other != agent or term or trunc:
                    assert not seen["action_mask"].any()
                    with pytest.raises(ValueError):
                        seen["action_mask"][0] = 1
        np.testing.assert_array_equal(obs["observation"], enc.observe(st.view(raw._seat[agent])))
        kept.append((obs["observation"], obs["observation"].copy()))
        if term or trunc:
            env.step(None)
            continue
        legal = enc.legal_mask(st.legal_moves()).astype(np.int8)
        np.testing.assert_array_equal(obs["action_mask"], legal)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for handed, copy in kept:
        np.testing.assert_array_equal(handed, copy)
