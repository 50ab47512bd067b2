"""The rating people see (issue 31, item 10): after one loss a player saw −1.8 and "μ ± σ,
openskill, Plackett–Luce". The number shown is 1500-based, never negative, marked provisional
while the model is unsure, and computed from the same openskill ratings."""

from __future__ import annotations

import random

from parlour.server.ratings import MODEL, PROVISIONAL_SIGMA, Rating, for_people, rate, shown


def test_a_newcomer_is_1500_and_provisional() -> None:
    start = MODEL.rating()
    assert shown(start.mu, start.sigma) == (1500, True)


def test_one_loss_reads_as_a_familiar_number_below_1500_never_negative() -> None:
    a = b = Rating(float(MODEL.mu), float(MODEL.sigma))
    after = rate({"a": a, "b": b}, {"a": 2, "b": 1})
    lost, provisional = shown(after["a"].mu, after["a"].sigma)
    won, _ = shown(after["b"].mu, after["b"].sigma)
    assert 1300 < lost < 1500 < won < 1700 and provisional
    assert after["a"].ordinal < 0  # what was shown before: a negative "rating"
    assert shown(-100.0, 1.0)[0] == 0  # however low the model goes


def test_a_rating_settles_after_about_ten_games_of_two() -> None:
    rng = random.Random(7)
    a, b = Rating(float(MODEL.mu), float(MODEL.sigma)), Rating(float(MODEL.mu), float(MODEL.sigma))
    settled_at = None
    for game in range(1, 40):
        first = rng.random() < 0.5
        new = rate({"a": a, "b": b}, {"a": 1 if first else 2, "b": 2 if first else 1})
        a, b = new["a"], new["b"]
        if not shown(a.mu, a.sigma)[1]:
            settled_at = game
            break
    assert settled_at is not None and 8 <= settled_at <= 16, settled_at
    assert a.sigma <= PROVISIONAL_SIGMA


def test_the_settled_are_ranked_by_the_number_shown_then_the_provisional() -> None:
    rows = [
        {"name": "new", "mu": 33.0, "sigma": 8.0, "ordinal": 9.0},
        {"name": "steady", "mu": 27.0, "sigma": 3.0, "ordinal": 18.0},
        {"name": "strong", "mu": 29.0, "sigma": 5.5, "ordinal": 12.5},
    ]
    ranked = for_people(rows)
    assert [(r["name"], r["rank"]) for r in ranked] == [("strong", 1), ("steady", 2), ("new", 3)]
    assert [r["provisional"] for r in ranked] == [False, False, True]
    assert ranked[0]["rating"] > ranked[1]["rating"]
