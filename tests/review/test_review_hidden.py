"""The analysis never reads hidden cards: it judges a decision from the seat's view alone.

Three proofs, each on every game of the issue:

1. Pairs of records that differ only in what the seat cannot see (the position before its decision
   with every hidden card redrawn by `permute_hidden`) get *identical* estimates with the same
   seed. A control shows the test has teeth: an analysis that cheats (its search handed the true
   state instead of one sampled from the view) gives the pairs different estimates.
2. A real game's analysis equals, decision by decision, judgements made from the views of states
   whose hidden cards were all redrawn, history kept: the analysis's estimates could have come from
   any of the deals the seat could not tell apart.
3. A spy on the search and on the sampler: all they are ever given is the seat's view, a plain
   dict equal to `state.view(seat)` at that ply, never a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from review_testkit import GAMES, IDS, SMALL, head, hidden_pairs, played

import parlour
from parlour.bots.ismcts import ISMCTSBot
from parlour.core import Game, GameRng, Move, Record, State
from parlour.core.registry import info
from parlour.review import analyse, judge

SEAT = 0
PAIRS = 4  # decisions per game made into a pair of records


def _estimates(record: Record, seed: int = 9) -> list[Any]:
    return [d.moves for d in analyse(record, SEAT, SMALL, seed=seed).decisions]


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_records_that_differ_only_in_hidden_cards_get_identical_estimates(
    name: str, players: int, rules: str
) -> None:
    for one, two in hidden_pairs(name, players, rules, SEAT, PAIRS):
        a, b = parlour.replay(one, upto=0), parlour.replay(two, upto=0)
        assert a.to_dict() != b.to_dict()  # the games differ ...
        assert a.view(SEAT) == b.view(SEAT)  # ... in nothing the seat can see
        assert a.legal_moves() == b.legal_moves()
        first, second = _estimates(one), _estimates(two)
        assert len(first) == 1
        assert first == second


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_the_pair_test_catches_an_analysis_that_reads_the_state(
    name: str, players: int, rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: a search that is handed the true state (as if `sample_state` leaked it)
    judges the two records of a pair differently, so the test above would catch such a leak."""
    # made before the cheat goes in (the hint bots sample states too)
    pairs = hidden_pairs(name, players, rules, SEAT, PAIRS)
    truth: list[State] = []
    game_class = info(name).game_class

    def cheat(self: Any, view: Mapping[str, Any], rng: GameRng) -> State:
        return truth[0].copy()

    monkeypatch.setattr(game_class, "sample_state", cheat)
    # the search draws through `sampler`; its default draws each state by `sample_state`
    monkeypatch.setattr(game_class, "sampler", Game.sampler)
    differ = 0
    for one, two in pairs:
        results = []
        for record in (one, two):
            truth[:] = [parlour.replay(record, upto=0)]
            results.append(_estimates(record))
        differ += results[0] != results[1]
    assert differ > 0


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_a_games_analysis_is_what_any_deal_the_seat_could_not_tell_apart_gives(
    name: str, players: int, rules: str
) -> None:
    record = head(played(name, players, rules), 80)
    analysis = analyse(record, SEAT, SMALL, seed=21)
    judged = {d.ply: d for d in analysis.decisions}
    assert judged
    state = parlour.replay(record, upto=0)
    game = state.game
    redrawn = 0
    for ply, text in enumerate(record.moves):
        if ply in judged:
            other = state.permute_hidden(SEAT, GameRng(ply))  # history and events kept
            redrawn += other.to_dict() != state.to_dict()
            assert other.view(SEAT) == state.view(SEAT)
            move: Move = other.check(text)
            again = judge(
                game,
                other.view(SEAT),
                other.legal_moves(),
                move,
                ply=ply,
                budget=analysis.budget,
                marks=analysis.marks,
                seed=analysis.seed,
            )
            assert again.moves == judged[ply].moves and again.mark == judged[ply].mark
        state.apply(text)
    assert redrawn > 0


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_the_search_and_the_sampler_are_only_ever_given_the_seats_view(
    name: str, players: int, rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = head(played(name, players, rules), 60)  # played before the spies go in
    searched: list[dict[str, Any]] = []
    sampled: list[Any] = []
    real_search = ISMCTSBot.search
    game_class = info(name).game_class
    real_sample = game_class.sample_state

    def search(self: ISMCTSBot, view: Any, legal: Any, trace: Any = None) -> Any:
        searched.append(view)
        return real_search(self, view, legal, trace)

    def sample(self: Any, view: Any, rng: GameRng) -> Any:
        sampled.append(view)
        return real_sample(self, view, rng)

    monkeypatch.setattr(ISMCTSBot, "search", search)
    monkeypatch.setattr(game_class, "sample_state", sample)
    # the search draws through `sampler`; its default draws each state by `sample_state`
    monkeypatch.setattr(game_class, "sampler", Game.sampler)
    analysis = analyse(record, SEAT, SMALL, seed=2)
    assert len(searched) == len(analysis.decisions) > 0
    for view, d in zip(searched, analysis.decisions, strict=True):
        assert type(view) is dict and view["viewer"] == SEAT
        assert view == parlour.replay(record, upto=d.ply).view(SEAT)
    assert sampled and all(any(v is s for s in searched) for v in sampled)
    assert not any(isinstance(v, State) for v in searched + sampled)
