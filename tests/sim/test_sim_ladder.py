"""The bot ladder's schedule and scores (parlour.sim.ladder): neighbours in strength play, each
pairing's two bots alternate round the table and turn through every seat, a side that finishes
ahead wins the pairing's game, and ratings come with intervals."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from parlour.core import RulesError
from parlour.sim import SimSpec, run, summarize
from parlour.sim.ladder import head_to_head, ladder_ratings, lineup, pairings

BOTS = ["random", "greedy", "hint", "ismcts"]


def test_each_bot_plays_the_next_ones_within_its_reach() -> None:
    assert pairings(BOTS, reach=1) == [("random", "greedy"), ("greedy", "hint"), ("hint", "ismcts")]
    assert pairings(BOTS, reach=2) == [
        ("random", "greedy"),
        ("random", "hint"),
        ("greedy", "hint"),
        ("greedy", "ismcts"),
        ("hint", "ismcts"),
    ]


def test_reach_zero_is_every_pair_once() -> None:
    pairs = pairings(BOTS, reach=0)
    assert len(pairs) == 6 and len({frozenset(p) for p in pairs}) == 6


def test_pairs_asked_for_are_added_once() -> None:
    pairs = pairings(BOTS, reach=1, also=[("random", "ismcts"), ("hint", "greedy")])
    assert pairs[-1] == ("random", "ismcts")
    assert len(pairs) == 4  # greedy-hint was already there


def test_a_pairing_alternates_round_the_table() -> None:
    assert lineup("a", "b", 2) == ("a", "b")
    assert lineup("a", "b", 4) == ("a", "b", "a", "b")
    with pytest.raises(RulesError, match="even table"):
        lineup("a", "b", 3)


def test_turning_the_table_seats_each_bot_in_every_seat_equally_with_the_other_beside_it() -> None:
    spec = SimSpec(game="sorry", players=4, bots=lineup("hint", "greedy", 4))
    seats: Counter[tuple[int, str]] = Counter()
    for i in range(8):
        seating = spec.seating(i)
        for s, bot in enumerate(seating):
            seats[(s, bot)] += 1
            # both neighbours are the other bot
            assert seating[(s - 1) % 4] != bot and seating[(s + 1) % 4] != bot
    assert set(seats.values()) == {4}


def _row(bots: list[str], ranks: list[int], game: int = 0) -> dict[str, Any]:
    winners = [s for s, r in enumerate(ranks) if r == min(ranks)]
    return {"game": game, "bots": bots, "ranks": ranks, "winners": winners}


def test_the_side_whose_best_seat_finished_ahead_wins_and_a_tie_is_half() -> None:
    rows = [
        _row(["a", "b", "a", "b"], [4, 1, 2, 3]),  # b won
        _row(["b", "a", "b", "a"], [3, 4, 2, 1]),  # a won
        _row(["a", "b", "a", "b"], [2, 1, 1, 3]),  # a shared the win with b: a tie
        _row(["a", "c", "a", "c"], [1, 2, 3, 4]),  # b did not play
    ]
    h = head_to_head(rows, "a", "b")
    assert (h.wins, h.trials) == (1.5, 3)
    lo, hi = h.interval
    assert lo < h.rate < hi


def test_in_two_player_games_the_head_to_head_rate_is_the_win_rate() -> None:
    spec = SimSpec(game="whot", players=2, bots=("hint", "random"), rules="storey-1935", seed=3)
    rows = run(spec, 20).rows
    by_bot = {r.label: r for r in summarize(rows, 2).by_bot}
    assert head_to_head(rows, "hint", "random").rate == pytest.approx(by_bot["hint"].rate)


def test_ratings_come_strongest_first_with_their_interval_round_mu() -> None:
    spec = SimSpec(game="whot", players=2, bots=("greedy", "random"), rules="storey-1935", seed=3)
    ratings = ladder_ratings(run(spec, 30).rows)
    assert [r.bot for r in ratings] == ["greedy", "random"]
    for r in ratings:
        assert r.low < r.mu < r.high and r.games == 30
