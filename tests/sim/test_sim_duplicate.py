"""Duplicate deals: each deal played once per seat assignment with the same cards, scored by deal
with the paired interval (benchmarks/ladder.py --duplicate, the trainer's evaluations)."""

from __future__ import annotations

import math

import pytest

from parlour.core import RulesError
from parlour.sim.simulate import SimSpec, game_seed, play_game
from parlour.sim.stats import Z95, paired_rate


def test_each_deal_is_played_from_every_seat_with_the_same_cards() -> None:
    spec = SimSpec(game="whot", players=2, bots=("greedy", "hint"), rules="nigerian", seed=9,
                   duplicate=True)  # fmt: skip
    rows = [play_game(spec, i) for i in range(6)]
    for d in range(3):
        a, b = rows[2 * d], rows[2 * d + 1]
        assert a["seed"] == b["seed"] == game_seed(9, d), "one deal, one seed"
        assert a["bots"] == ["greedy", "hint"] and b["bots"] == ["hint", "greedy"], "seats swapped"
    assert len({r["seed"] for r in rows}) == 3
    four = SimSpec(game="whot", players=4, bots=("counter", "greedy", "greedy", "greedy"),
                   rules="nigerian", duplicate=True)  # fmt: skip
    seats = [four.seating(i).index("counter") for i in range(4)]
    assert sorted(seats) == [0, 1, 2, 3] and len({four.deal_seed(i) for i in range(4)}) == 1


def test_duplicate_deals_need_the_bots_turned_round_the_table() -> None:
    with pytest.raises(RulesError, match="turn the bots round the table"):
        SimSpec(game="whot", players=2, bots=("greedy", "hint"), rotate=False, duplicate=True)


def test_the_paired_interval_is_over_the_deals_scores() -> None:
    # 4 deals of 2 games; the first bot's score per game: deal means 1, 0.5, 0.5, 0
    scores = [1, 1, 1, 0, 0, 1, 0, 0]
    rows = [{"game": i, "s": s} for i, s in enumerate(scores)]
    p = paired_rate(rows, 2, lambda r: r["s"])
    assert (p.deals, p.games, p.rate) == (4, 8, 0.5)
    sd = math.sqrt(((0.5) ** 2 * 2) / 3)  # the deals' means around 0.5: 0.5, 0, 0, -0.5
    assert p.sd == pytest.approx(sd)
    lo, hi = p.interval
    assert (lo, hi) == pytest.approx((0.5 - Z95 * sd / 2, 0.5 + Z95 * sd / 2))
    # an incomplete deal does not count
    assert paired_rate(rows[:7], 2, lambda r: r["s"]).deals == 3
    # a run on another master seed deals other cards: its deal 0 is another deal
    other = [{"game": i, "s": s, "seed": 77} for i, s in enumerate(scores)]
    both = paired_rate([*rows, *other], 2, lambda r: r["s"])
    assert (both.deals, both.rate) == (8, 0.5)
