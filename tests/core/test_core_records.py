"""Records and saves: `(game, rules, seed, moves)` always rebuilds the same game (DESIGN.md 2)."""

from __future__ import annotations

import json
import random

import pytest

import parlour
from parlour.core import IllegalMove, LoadError, Record


def _play(state: parlour.State, k: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(k):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_moves()))


def test_same_seed_same_game() -> None:
    game = parlour.make("whot", players=3, rules="nigerian")
    a, b = game.new_game(seed=11), game.new_game(seed=11)
    assert a.to_dict() == b.to_dict()
    assert game.new_game(seed=12).to_dict() != a.to_dict()


def test_a_game_without_seed_still_replays() -> None:
    state = parlour.make("whot").new_game()
    _play(state, 30)
    assert parlour.replay(state.record()).to_dict() == state.to_dict()


def test_record_json_round_trip_with_house_rules() -> None:
    game = parlour.make("whot", players=2, rules="english", deal=4, straights="any-symbol")
    state = game.new_game(seed=3)
    _play(state, 40)
    text = state.record().to_json()
    again = parlour.replay(json.loads(text))
    assert again.to_dict() == state.to_dict()
    assert again.game.rules.straights == "any-symbol"


def test_load_any_saved_game() -> None:
    state = parlour.make("whot", players=4, rules="storey-1935").new_game(seed=5)
    _play(state, 25)
    assert parlour.load(state.to_json()).to_dict() == state.to_dict()


@pytest.mark.parametrize("text", ["", "{", "[]", '{"game": "whot"}', '{"game": "chess"}'])
def test_bad_saves_are_refused_clearly(text: str) -> None:
    with pytest.raises((LoadError, parlour.RulesError)):
        parlour.load(text)


def test_bad_record_names_the_move() -> None:
    record = Record(game="whot", players=2, rules={}, seed=1, moves=("play 99 circle",))
    with pytest.raises(LoadError, match="record move 1"):
        parlour.replay(record)


def test_refused_move_leaves_state_unchanged_and_lists_legal_moves() -> None:
    state = parlour.make("whot", players=2, rules="nigerian").new_game(seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalMove) as err:
        state.apply("play 6 circle")
    assert "no 6 circle" in str(err.value)
    with pytest.raises(IllegalMove) as err2:
        state.apply("end")
    assert "Legal moves:" in str(err2.value) and "draw" in str(err2.value)
    assert state.to_dict() == before
