"""The generic batched machinery finds a game's batched engine through its manifest.

`parlour.vector` names no game (tests/test_architecture.py): Whot!'s engine lives in
`games/whot/batched/` and its manifest names it, so `batched("whot", ...)` builds it and
`BatchedVectorEnv("whot", ...)` steps it; a game whose manifest names none is refused in words.
"""

from __future__ import annotations

import pytest
from vector_support import need

np = need("numpy")
need("gymnasium")

import parlour  # noqa: E402
from parlour.core import RulesError  # noqa: E402
from parlour.games.whot.batched import WhotBatch  # noqa: E402
from parlour.vector import BatchedVectorEnv, Dealer, batched, has_batched  # noqa: E402


def test_the_manifest_names_the_batched_engine() -> None:
    engine = batched("whot", players=2, rules="nigerian")
    assert isinstance(engine, WhotBatch)
    assert engine.players == 2 and engine.preset == "nigerian"
    assert has_batched("whot")
    assert isinstance(batched("whot"), WhotBatch)  # the game's default table and preset


def test_a_game_without_a_batched_engine_is_refused_in_words() -> None:
    assert not has_batched("sorry")
    with pytest.raises(RulesError, match="has no batched engine"):
        batched("sorry", 4)


def test_an_unknown_preset_gets_the_games_own_sentence() -> None:
    with pytest.raises(RulesError, match="has no preset 'nigerien'"):
        batched("whot", 2, "nigerien")


def test_the_generic_environment_and_dealer_drive_the_engine() -> None:
    env = BatchedVectorEnv("whot", num_envs=8, players=2, rules="storey-1935")
    obs, info = env.reset(seed=3)
    assert obs.shape == (8, env.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    for _ in range(50):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        obs, _, _, _, info = env.step(actions)
    # every game the dealer hands out is the reference's game of that seed
    engine = batched("whot", 2, "storey-1935")
    dealer = Dealer(engine, first_seed=40, chunk=4)
    st = dealer.next(3)
    ref = parlour.make("whot", players=2, rules="storey-1935")
    for g, seed in enumerate(st.seed.tolist()):
        assert seed == 40 + g
        want = ref.new_game(seed=seed).view(0)["hand"]
        got = engine.observe(st.take(slice(g, g + 1)), viewer=0)[0][:50].sum()
        assert got == len(want)
