"""OpenSpiel: every game registers as an OpenSpiel Python game, plays random games to the end
through pyspiel, resamples from an information state, and OpenSpiel's own ISMCTS bot plays
parlour's Whot! against parlour's hint bot."""

from __future__ import annotations

import random
from typing import Any

import pytest
from adapters_support import need

import parlour
from parlour.bots import bot_names, make_bot
from parlour.core import IllegalMove

pyspiel = need("pyspiel")
np = need("numpy")

from open_spiel.python.algorithms import ismcts  # noqa: E402

from parlour.adapters import openspiel as osp  # noqa: E402

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("whot", {"players": 4, "rules": "nigerian"}),
    ("whot", {"players": 3, "rules": "english"}),
    ("sorry", {"players": 2}),
    ("sorry", {"players": 3, "rules": "points"}),
    ("whoswho-tricks", {"players": 4}),
    ("whoswho-books", {"players": 2}),
]


def test_register_all_names_every_game() -> None:
    names = osp.register_all()
    assert set(names) == {osp.short_name(n) for n in parlour.core.games()}
    assert osp.register_all() == names  # idempotent
    assert set(names) <= set(pyspiel.registered_names())
    gt = pyspiel.load_game("parlour_whot").get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


@pytest.mark.parametrize(("name", "kw"), TABLES, ids=[f"{n}-{k['players']}" for n, k in TABLES])
def test_random_games_to_the_end_through_pyspiel(name: str, kw: dict[str, Any]) -> None:
    game = osp.load(name, seed=5, **kw)
    assert game.num_players() == kw["players"]
    rng = random.Random(1)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert not state.is_chance_node()
            p = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            mask = state.legal_actions_mask(p)
            assert sum(mask) == len(legal)
            state.apply_action(rng.choice(legal))
        returns = state.returns()
        assert len(returns) == kw["players"] and max(returns) == 1.0
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize("name", ["whot", "whoswho-tricks"])
def test_openspiel_random_sim_test(name: str) -> None:
    game = osp.load(name, players=4, seed=2)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_tensors_clone_and_resample_from_infostate() -> None:
    game = osp.load("whot", players=3, rules="english", seed=9)
    enc = game.encoding
    state = game.new_initial_state()
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(25):
        if state.is_terminal():
            break
        p = state.current_player()
        view = state.pstate.view(p)
        info = np.asarray(state.information_state_tensor(p), np.float32)
        assert np.array_equal(info, enc.observe(view))
        assert len(state.observation_tensor(p)) == enc.observation_shape[0]
        assert '"events"' in state.information_state_string(p)
        assert '"events"' not in state.observation_string(p)
        for _ in range(3):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.legal_actions() == state.legal_actions()
        twin = state.clone()
        assert twin.history() == state.history()
        twin.apply_action(twin.legal_actions()[0])
        assert len(twin.history()) == len(state.history()) + 1
        assert state.pstate.view(p) == view, "playing on a clone changed the original"
        state.apply_action(rng.choice(state.legal_actions()))


def test_an_illegal_action_raises() -> None:
    game = osp.load("whot", players=2, seed=1)
    state = game.new_initial_state()
    legal = set(state.legal_actions())
    bad = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before = state.pstate.to_json()
    with pytest.raises((IllegalMove, pyspiel.SpielError, RuntimeError)):
        state.apply_action(bad)
    assert state.pstate.to_json() == before


def test_openspiel_ismcts_plays_whot_against_the_hint_bot() -> None:
    opponent = "hint" if "hint" in bot_names("whot") else "greedy"
    game = osp.load("whot", players=2, rules="nigerian", seed=11)
    for g in range(2):
        me = g % 2
        bot = ismcts.ISMCTSBot(
            game,
            osp.BotRolloutEvaluator("greedy", seed=g),
            uct_c=2.0,
            max_simulations=12,
            random_state=np.random.RandomState(g),
        )
        other = make_bot(opponent, game.pgame, seed=g)
        state = osp.play_against(game, bot, me, other)
        assert sorted(state.returns()) == [-1.0, 1.0]
