"""`WhotVectorEnv`: Gymnasium's vector API (spaces, shapes, dtypes), its three autoreset modes,
seeding, refusal of illegal actions, and games that replay exactly in the reference engine.

Gymnasium has no checker for vector environments (`check_env` takes a single `Env`), so the
contract is checked here directly, and through Gymnasium's own vector wrappers."""

from __future__ import annotations

from typing import Any

import pytest
from vector_support import need

np = need("numpy")
gymnasium = need("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

import parlour  # noqa: E402
from parlour.games.whot.batched import WhotVectorEnv  # noqa: E402
from parlour.games.whot.encoding import WhotEncoding  # noqa: E402


def random_actions(mask: Any, rng: Any) -> Any:
    """A uniformly random legal id per game (0 where nothing is legal: a finished game)."""
    noise = rng.random(mask.shape)
    return np.where(mask.any(axis=1), np.argmax(np.where(mask, noise, -1.0), axis=1), 0)


@pytest.mark.parametrize(
    ("players", "rules"), [(2, "nigerian"), (4, "storey-1935"), (3, "nigerian")]
)
def test_spaces_shapes_and_dtypes(players: int, rules: str) -> None:
    b = 16
    env = WhotVectorEnv(b, players=players, rules=rules)
    enc = WhotEncoding(parlour.make("whot", players=players, rules=rules))
    assert env.num_envs == b
    assert env.single_action_space == gymnasium.spaces.Discrete(57)
    assert env.action_space.shape == (b,)
    assert env.single_observation_space.shape == enc.observation_shape
    assert np.array_equal(env.single_observation_space.low, enc.observation_low)
    assert np.array_equal(env.single_observation_space.high, enc.observation_high)
    obs, info = env.reset(seed=0)
    assert obs.shape == (b, *enc.observation_shape) and obs.dtype == np.float32
    assert obs in env.observation_space
    assert info["action_mask"].shape == (b, 57) and info["action_mask"].dtype == np.bool_
    assert info["action_mask"].any(axis=1).all()
    assert np.array_equal(info["action_mask"], env.action_masks())
    rng = np.random.default_rng(0)
    for _ in range(50):
        obs, rewards, terminated, truncated, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        assert obs in env.observation_space
        assert rewards.shape == (b,) and rewards.dtype == np.float32
        assert terminated.shape == truncated.shape == (b,) and terminated.dtype == np.bool_
        assert info["rewards"].shape == (b, players)
        assert set(np.unique(info["to_play"])) <= set(range(players))
    env.close()


def test_next_step_autoreset() -> None:
    """A game that ends returns its last observation (no legal action) and the rewards; at the
    next step its action is ignored and a new game starts, with reward 0."""
    b = 32
    env = WhotVectorEnv(b, players=4, rules="nigerian")
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(2_000):
        seeds = info["seed"].copy()
        obs, rewards, terminated, _, info = env.step(random_actions(info["action_mask"], rng))
        if not terminated.any():
            continue
        i = np.flatnonzero(terminated)
        assert not info["action_mask"][i].any()
        assert (obs[i, -1] == 1).all()  # is_over
        r = info["rewards"][i]
        assert set(np.unique(r)) <= {-1.0, 1.0} and (r == 1).any(axis=1).all()
        assert np.array_equal(rewards[i], r[np.arange(i.size), info["mover"][i]])
        assert np.array_equal(info["seed"][i], seeds[i])
        junk = np.zeros(b, np.int64)  # anything goes for the finished games
        junk[~terminated] = random_actions(info["action_mask"], rng)[~terminated]
        obs, rewards, terminated2, _, info = env.step(junk)
        assert (rewards[i] == 0).all() and not terminated2[i].any()
        assert (info["moves"][i] == 0).all() and (info["mover"][i] == -1).all()
        assert (info["to_play"][i] == 0).all() and info["action_mask"][i].any(axis=1).all()
        assert not np.isin(info["seed"][i], seeds).any()  # new games, new seeds
        seen += i.size
        if seen >= 10:
            break
    assert seen >= 10


def test_same_step_autoreset() -> None:
    b = 32
    env = WhotVectorEnv(b, players=6, rules="nigerian", autoreset_mode="SameStep")
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(2_000):
        obs, rewards, terminated, _, info = env.step(random_actions(info["action_mask"], rng))
        if terminated.any():
            i = np.flatnonzero(terminated)
            assert info["_final_obs"][i].all() and not info["_final_obs"][~terminated].any()
            final = np.stack(info["final_obs"][i])
            assert (final[:, -1] == 1).all()  # is_over, in the final observation only
            assert (obs[i, -1] == 0).all() and (info["moves"][i] == 0).all()
            final_rewards = info["final_info"]["rewards"][i]
            assert np.array_equal(
                rewards[i], final_rewards[np.arange(i.size), info["final_info"]["mover"][i]]
            )
            assert info["action_mask"][i].any(axis=1).all()
            return
    pytest.fail("no game ended")


def test_disabled_autoreset_needs_a_reset_mask() -> None:
    b = 8
    env = WhotVectorEnv(b, players=8, rules="nigerian", autoreset_mode=AutoresetMode.DISABLED)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(5_000):
        _, _, terminated, _, info = env.step(random_actions(info["action_mask"], rng))
        if terminated.any():
            break
    assert terminated.any()
    with pytest.raises(ValueError, match="reset_mask"):
        env.step(random_actions(info["action_mask"], rng))
    before = info["seed"].copy()
    _, info = env.reset(options={"reset_mask": terminated})
    assert np.array_equal(info["seed"][~terminated], before[~terminated])
    assert not np.isin(info["seed"][terminated], before).any()
    env.step(random_actions(info["action_mask"], rng))


def test_max_moves_truncates() -> None:
    env = WhotVectorEnv(4, players=2, rules="nigerian", max_moves=5)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(random_actions(info["action_mask"], rng))
    assert (truncated | terminated).all()
    _, _, _, truncated, info = env.step(random_actions(info["action_mask"], rng))
    assert not truncated.any() and (info["moves"] == 0).all()


def test_seeding_is_reproducible() -> None:
    def run(seed: int) -> list[Any]:
        env = WhotVectorEnv(16, players=3, rules="nigerian")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(9)
        out = [obs]
        for _ in range(300):
            obs, rewards, _, _, info = env.step(random_actions(info["action_mask"], rng))
            out += [obs, rewards, info["seed"]]
        return out

    a, b, c = run(7), run(7), run(8)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])


def test_explicit_seeds_deal_the_reference_games() -> None:
    env = WhotVectorEnv(3, players=2, rules="storey-1935")
    obs, info = env.reset(options={"seeds": [11, 12, 13]})
    game = parlour.make("whot", players=2, rules="storey-1935")
    enc = WhotEncoding(game)
    for i, s in enumerate((11, 12, 13)):
        assert info["seed"][i] == s
        assert np.array_equal(obs[i], enc.observe(game.new_game(seed=s).view(0)))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = WhotVectorEnv(4, players=2, rules="nigerian")
    _, info = env.reset(seed=5)
    actions = random_actions(info["action_mask"], np.random.default_rng(5))
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    before = env.state.copy()
    with pytest.raises(ValueError, match="not legal in game 2"):
        env.step(bad)
    with pytest.raises(ValueError, match="integer ids"):
        env.step(actions[:3])
    assert all(
        np.array_equal(getattr(before, f), getattr(env.state, f))
        for f in before.__dataclass_fields__
    )
    env.step(actions)


@pytest.mark.parametrize(("players", "rules"), [(3, "nigerian"), (2, "storey-1935")])
def test_games_replay_in_the_reference_engine(players: int, rules: str) -> None:
    """Every game the environment plays, autoresets included, is the reference's game for its
    seed: the same observations move by move, the same rewards at the end."""
    b = 12
    env = WhotVectorEnv(b, players=players, rules=rules)
    game = parlour.make("whot", players=players, rules=rules)
    enc = WhotEncoding(game)
    obs, info = env.reset(seed=6)
    states = [game.new_game(seed=int(s)) for s in info["seed"]]
    rng = np.random.default_rng(6)
    checked = 0
    for _ in range(1_500):
        for i, st in enumerate(states):
            assert np.array_equal(obs[i], enc.observe(st.view(int(info["to_play"][i]))))
        actions = random_actions(info["action_mask"], rng)
        for i, st in enumerate(states):
            if not st.is_over:
                st.apply(enc.moves[int(actions[i])])
        obs, _, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            st = states[i]
            assert st.is_over
            winners = set(st.result().winners)
            assert info["rewards"][i].tolist() == [
                1.0 if p in winners else -1.0 for p in range(players)
            ]
            checked += 1
        for i, st in enumerate(states):
            if st.is_over and not terminated[i]:  # the environment has dealt the next game
                states[i] = game.new_game(seed=int(info["seed"][i]))
    assert checked >= 5


def test_gymnasium_vector_wrappers_accept_it() -> None:
    env = RecordEpisodeStatistics(WhotVectorEnv(32, players=5, rules="nigerian"))
    _, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    episodes = 0
    for _ in range(400):
        _, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0
