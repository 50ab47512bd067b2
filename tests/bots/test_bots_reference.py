"""The ladder's reference players (parlour.bots.reference): the cheating ceiling reads the full
state and so is never a bot anyone can seat; OpenSpiel's ISMCTS plays from a view like any bot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import parlour
from parlour.bots import Bot, bot_names, make_bot
from parlour.bots import reference as ref
from parlour.bots.levels import levels
from parlour.core import RulesError, State
from parlour.sim import SimSpec, run
from parlour.sim.ladder import head_to_head

NAMES = ["cheat-mcts", "openspiel-ismcts"]


@pytest.mark.parametrize("game", sorted(parlour.core.games()))
def test_no_reference_player_is_in_the_registry_or_a_level(game: str) -> None:
    g = parlour.make(game)
    for name in NAMES:
        assert name not in bot_names(game)
        with pytest.raises(RulesError, match=f"no bot '{name}'"):
            make_bot(name, g)
    assert not any(ref.is_reference(lv.bot) for lv in levels(game))


def test_the_cheat_cannot_play_from_a_view() -> None:
    g = parlour.make("whot", players=2, rules="nigerian")
    cheat = ref.make_reference_bot("cheat-mcts:iterations=20", g, 1)
    assert isinstance(cheat, ref.FullStateBot)
    assert not isinstance(cheat, Bot) and not hasattr(cheat, "choose")


def test_the_cheat_searches_the_true_state_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    g = parlour.make("whot", players=2, rules="nigerian")
    state = g.new_game(seed=4)
    hint = make_bot("hint", g, 0)
    while len(state.legal_moves()) < 2:  # a real choice, so that the bot searches
        p = state.to_play
        assert p is not None
        state.apply(hint.choose(state.view(p), state.legal_moves()))
    searched: list[Any] = []  # the position of each state the search was handed
    sample = ref._TrueStateGame.sample_state

    def spy(self: Any, view: Mapping[str, Any], rng: Any) -> State:
        got = sample(self, view, rng)
        searched.append(got.position())  # now: the search plays on from it
        return got

    monkeypatch.setattr(ref._TrueStateGame, "sample_state", spy)
    cheat = ref.make_reference_bot("cheat-mcts:iterations=50", g, 1)
    before = state.position()
    move = cheat.choose_from_state(state)
    assert move in state.legal_moves()
    assert state.position() == before, "searching changed the real game"
    assert searched and all(s == before for s in searched)


def test_the_simulator_hands_the_full_state_to_the_cheat_only() -> None:
    spec = SimSpec(
        game="whot",
        players=2,
        bots=("cheat-mcts:iterations=30", "random"),
        rules="storey-1935",
        seed=2,
        maker=ref.make_reference_bot,
    )
    rows = run(spec, 6).rows
    assert len(rows) == 6
    # seeing every card, it beats a random player nearly always
    assert head_to_head(rows, "cheat-mcts:iterations=30", "random").rate >= 5 / 6


def test_openspiel_ismcts_plays_from_its_view_against_the_hint_bot() -> None:
    pytest.importorskip("pyspiel")
    g = parlour.make("whot", players=2, rules="storey-1935")
    bot = ref.make_reference_bot("openspiel-ismcts:simulations=10", g, 3)
    assert isinstance(bot, Bot)
    hint = make_bot("hint", g, 4)
    state = g.new_game(seed=9)
    # OpenSpiel's ISMCTS breaks ties by the order of Python's string hashes, which differ from
    # process to process: this deal lasted 12 to 195 moves over 31 hash seeds, and over 400 once in
    # a loaded run of the suite, so the game is played to its end rather than cut at a length
    while not state.is_over and len(state.history) < 5000:
        p = state.to_play
        assert p is not None
        who = bot if p == 0 else hint
        move = who.choose(state.view(p), state.legal_moves())
        assert move in state.legal_moves()
        state.apply(move)
    assert state.is_over


def test_openspiel_ismcts_refuses_house_rules_it_would_not_play() -> None:
    pytest.importorskip("pyspiel")
    g = parlour.make("whot", players=2, rules="storey-1935", deal=3)
    with pytest.raises(RulesError, match="preset as it is"):
        ref.make_reference_bot("openspiel-ismcts", g, 0)
