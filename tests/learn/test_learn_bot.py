"""The `learned` Whot! bot (level master): the shipped weights play legal moves in every rule set
they were trained for, fast enough to serve, and master is refused in words elsewhere."""

from __future__ import annotations

import json
import random

import pytest
from learn_support import need

need("numpy")

import parlour  # noqa: E402
from parlour.bots import make_bot  # noqa: E402
from parlour.bots.levels import resolve  # noqa: E402
from parlour.cli import main as cli_main  # noqa: E402
from parlour.core import RulesError  # noqa: E402
from parlour.games.whot.learned.bot import (  # noqa: E402
    LearnedBot,
    card,
    relative_caps,
    trained_for,
    weights_path,
)

SHIPPED = trained_for()


def test_networks_ship_for_both_two_player_rule_sets() -> None:
    assert ("nigerian", 2) in SHIPPED and ("storey-1935", 2) in SHIPPED


@pytest.mark.parametrize(("preset", "players"), SHIPPED)
def test_the_shipped_weights_load_and_play_legal_moves(preset: str, players: int) -> None:
    assert weights_path(preset, players).stat().st_size < 2 * 1024 * 1024
    about = card(preset, players)
    for key in ("decisions", "wall_hours", "cpu_hours", "runs"):
        assert key in about, f"the card names {key}"
    for run in about["runs"]:
        for key in ("command", "seed", "decisions", "commit", "device"):
            assert run.get(key) is not None, f"each run of the card names its {key}"
    game = parlour.make("whot", players=players, rules=preset)
    bot = make_bot(resolve("master", "whot"), game, seed=1)
    assert isinstance(bot, LearnedBot)
    others = [make_bot("counter", game, seed=s) for s in range(players)]
    moves = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        me = seed % players
        while not state.is_over and len(state.history) < 2000:
            p = state.to_play
            assert p is not None
            legal = state.legal_moves()
            who = bot if p == me else others[p]
            move = who.choose(state.view(p), legal)
            assert move in legal
            state.apply(move)
            moves += p == me
        assert state.is_over
    assert moves > 50


def test_the_bot_explains_its_move_with_its_estimate() -> None:
    game = parlour.make("whot", players=2, rules="nigerian")
    state = game.new_game(seed=3)
    bot = make_bot("learned", game, seed=0)
    while len(state.legal_moves()) < 2:
        state.apply(state.legal_moves()[0])
    p = state.to_play
    assert p is not None
    move, why = bot.explain(state.view(p), state.legal_moves())
    assert move in state.legal_moves()
    assert "to win" in why


@pytest.mark.parametrize(
    ("rules", "players", "options", "what"),
    [
        ("english", 2, {}, "english at 2 players"),
        ("nigerian", 3, {}, "nigerian at 3 players"),
        ("nigerian", 2, {"deal": 6}, "these house rules"),
    ],
)
def test_master_is_refused_where_no_network_was_trained(
    rules: str, players: int, options: dict[str, int], what: str
) -> None:
    game = parlour.make("whot", players=players, rules=rules, **options)
    with pytest.raises(RulesError) as err:
        make_bot(resolve("master", "whot"), game, seed=0)
    text = str(err.value)
    assert f"the learned Whot! bot (level master) has no trained network for {what}" in text
    assert "it was trained for nigerian at 2 players" in text


def test_simulate_refuses_master_in_a_sentence(capfd: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "whot", "--rules", "english", "--bots", "master,counter", "-n", "2", "-q"]
    assert cli_main(args) != 0
    out, err = capfd.readouterr()
    assert "has no trained network for english at 2 players" in " ".join((out + err).split())


def test_the_cards_are_json_with_the_runs() -> None:
    for preset, players in SHIPPED:
        text = weights_path(preset, players).with_suffix(".json").read_text(encoding="utf-8")
        assert json.loads(text)["rules"] == preset


def test_a_network_for_other_players_is_refused() -> None:
    from parlour.games.whot.learned.bot import _shipped

    net = _shipped("nigerian", 2)
    game = parlour.make("whot", players=4, rules="nigerian")
    with pytest.raises(RulesError, match="trained for 2 players, not 4"):
        LearnedBot(game, random.Random(0), net=net)


def test_the_rules_not_the_presets_name_decide_which_network_plays() -> None:
    # a server rebuilds a table's game from its options (the preset's name is then the default),
    # and a match format or a move clock are not rules of play
    import dataclasses

    from parlour.games.whot.rules import PRESETS

    options = dataclasses.asdict(PRESETS["storey-1935"])
    options.update(match="single", move_clock=30)
    game = parlour.make("whot", players=2, rules=options)
    bot = make_bot("learned", game, seed=0)
    assert isinstance(bot, LearnedBot)
    assert bot.net.meta["rules"] == "storey-1935"


def test_a_seat_that_drew_tens_of_thousands_of_cards_still_has_features() -> None:
    """A cap counts the cards drawn since a seat was seen to lack a kind: in a game that goes round
    for ever it passed int16's 32,767 (a training run's evaluation stopped on it). The features
    read at most 8 of it; an unknown cap (-1) stays unknown, and seats turn to the viewer."""
    caps = [[-1, 0, 3, 40_000, -1, 7], [1, -1, 70_000, 2, 0, -1]]
    rel = relative_caps(caps, me=1)
    assert rel.shape == (1, 2, 6)
    assert rel[0, 0].tolist() == [1, -1, 255, 2, 0, -1]  # the viewer first
    assert rel[0, 1].tolist() == [-1, 0, 3, 255, -1, 7]


def test_an_evaluation_game_that_goes_round_for_ever_is_cut_and_counts_against_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from parlour.games.whot.learned.bot import _shipped
    from parlour.learn import evaluate

    monkeypatch.setattr(evaluate, "MAX_MOVES", 3)  # every game is still going after 3 moves
    r = evaluate.duplicate_match(
        "whot", 2, "storey-1935", _shipped("storey-1935", 2), "counter", 2, seed=7
    )
    assert r["games"] == 4 and r["moves_per_game"] == 3
    assert r["rate"] == 0.0  # a tie with no winner is no win
