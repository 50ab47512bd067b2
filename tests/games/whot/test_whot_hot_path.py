"""The hot path written out in `WhotState.legal_moves` and `WhotState.apply` does exactly what the
general code (`_legal_moves`, `_apply`) does, move by move, under every preset and under rule sets
that turn the written-out paths off (declarations, straights, a market that ends the game)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

import parlour
from parlour.core import State
from parlour.games.whot.engine import WhotState

PRESETS = sorted(parlour.core.registry.games()["whot"].presets)
MOVES = 5_000  # compared per test, at most
OTHER_RULES: list[dict[str, Any]] = [
    {"rules": "nigerian", "declarations": ("last card", "semi-last card", "check up")},
    {"rules": "nigerian", "empty_pack": "end"},
    {"rules": "nigerian", "pick_reverses": True},
    {"rules": "english", "straights": "off", "double_decking": "number"},
    {"rules": "storey-1935", "empty_pack": "shuffle", "may_draw_instead": False},
    # the written-out pick, WHOT and draw paths under the options they read
    {"rules": "nigerian", "whot_answers_pick": True, "whot_powers": ("reverse", "skip")},
    {"rules": "nigerian", "empty_pack": "turn-over"},
    {"rules": "nigerian", "star_doubling": True, "whot_on_whot": False},
]


def general_apply(state: WhotState, move: Any) -> None:
    """`State.apply` as the protocol has it: the general `_apply`, no written-out path."""
    state._legal = None
    state.history.append(move)
    state._apply(move)


def snapshot(state: WhotState) -> dict[str, Any]:
    """Every attribute of the state (the generator is compared once a game is over)."""
    return {k: v for k, v in vars(state).items() if k not in ("rng", "_legal")}


def play_side_by_side(
    options: dict[str, Any], players: int, seeds: range, from_position: bool = False
) -> int:
    game = parlour.make("whot", players=players, **options)
    compared = 0
    for seed in seeds:
        if compared >= MOVES:
            break
        state = game.new_game(seed=seed)
        choose = Random(seed).choice
        if from_position:
            # a position has no events: the symbols seen lacking wait for its first play
            for _ in range(10):
                state.apply(choose(state.legal_moves()))
            state = game.from_position(state.position(), seed=seed)
        while not state.is_over and compared < MOVES:
            general = state.copy()
            legal = state.legal_moves()
            assert legal == general._legal_moves()
            move = choose(legal)
            state.apply(move)
            general_apply(general, move)
            assert snapshot(state) == snapshot(general), f"seed {seed}, move {move}"
            compared += 1
        assert state.rng.random() == general.rng.random()  # the same draws were made
    return compared


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_the_same_through_the_hot_path(preset: str, players: int) -> None:
    assert play_side_by_side({"rules": preset}, players, range(6)) > 0


@pytest.mark.parametrize("options", OTHER_RULES, ids=lambda o: ",".join(map(str, o.values())))
def test_rules_off_the_hot_path_play_the_same(options: dict[str, Any]) -> None:
    assert play_side_by_side(options, 3, range(4)) > 0


@pytest.mark.parametrize("preset", ["nigerian", "storey-1935"])
def test_games_from_a_position_play_the_same_through_the_hot_path(preset: str) -> None:
    assert play_side_by_side({"rules": preset}, 2, range(20), from_position=True) > 0


def test_the_protocol_apply_is_the_one_written_out() -> None:
    # The written-out `apply` keeps the gate: a refused move raises and changes nothing.
    state = parlour.make("whot", players=2, rules="nigerian").new_game(seed=1)
    before = state.to_dict()
    with pytest.raises(parlour.IllegalMove):
        state.apply("end")
    assert state.to_dict() == before
    assert type(state).apply is not State.apply
