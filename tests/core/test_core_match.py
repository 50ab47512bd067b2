"""Matches: Storey's rubber with the kitty, English elimination at 100, Nigerian rounds."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.core import Match, MatchFormat, RulesError


def _finish(state: parlour.State, rng: random.Random) -> None:
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))


def _play_match(match: Match, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not match.is_over:
        _finish(match.next_game(), rng)
        match.finish_game()


def test_storey_short_rubber_is_five_games_and_lowest_total_takes_the_kitty() -> None:
    # seed 000: "A SHORT RUBBER consists of FIVE games." "The player with the HIGHEST score should
    # place a counter in the pool or kitty." "THE RUBBER WINNER is the player with the LOWEST score
    # at the end of a rubber; he of course, takes the pool or kitty."
    game = parlour.make("whot", players=3, rules="storey-1935")
    match = Match(game, seed=4)
    assert match.format.games == 5 and match.format.kitty
    _play_match(match)
    assert len(match.games) == 5
    sb = match.scoreboard()
    assert sb["pool"] >= 5  # at least one counter a game (ties each pay)
    for g in match.games:
        worst = max(g.points.values())
        assert all(match.kitty[s] >= 1 for s, p in g.points.items() if p == worst)
    totals = [row["total"] for row in sb["rows"]]
    assert sb["winners"] == [i for i, t in enumerate(totals) if t == min(totals)]


def test_long_rubber_is_ten_games() -> None:
    game = parlour.make("whot", players=2, rules="storey-1935", match="rubber-10")
    match = Match(game, seed=1)
    _play_match(match)
    assert len(match.games) == 10


def test_storey_dealer_is_found_by_cut_and_the_deal_passes_left() -> None:
    # seed 000: "The player cutting LOWEST deals for the first game. The player on the LEFT of the
    # dealer for the first game deals for the second game, and so on."
    game = parlour.make("whot", players=4, rules="storey-1935")
    match = Match(game, seed=9)
    assert "cut lowest and deals" in match.notes[0]
    first = match.starter
    rng = random.Random(0)
    dealers = []
    for _ in range(3):
        state = match.next_game()
        dealers.append(match.seats[state.setup.get("dealer", game.players - 1)])
        _finish(state, rng)
        match.finish_game()
    assert dealers == [first, (first + 1) % 4, (first + 2) % 4]


def test_english_elimination_at_100() -> None:
    # seed 002: "players whose card values add up to 100 or more must leave the game and the next
    # round continues without them."
    game = parlour.make("whot", players=4, rules="english")
    match = Match(game, seed=2)
    assert match.format.eliminate_at == 100
    rng = random.Random(1)
    sizes = []
    while not match.is_over:
        state = match.next_game()
        sizes.append(state.game.players)
        _finish(state, rng)
        match.finish_game()
        for seat in match.eliminated:
            assert match.totals[seat] >= 100
        for seat in match.active:
            assert match.totals[seat] < 100 or len(match.active) == 1
    assert len(match.active) == 1
    assert match.winners() == match.active
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < 4


def test_nigerian_rounds() -> None:
    game = parlour.make("whot", players=3, rules="nigerian", match="rounds-3")
    match = Match(game, seed=5)
    _play_match(match)
    assert len(match.games) == 3 and match.is_over
    assert match.winners()


def test_match_refuses_out_of_order_calls() -> None:
    match = Match(parlour.make("whot", players=2), "rounds-2", seed=1)
    state = match.next_game()
    with pytest.raises(RulesError, match="not over"):
        match.finish_game(state)
    with pytest.raises(RulesError, match="not finished"):
        match.next_game()


@pytest.mark.parametrize("text", ["rubber", "rounds-0", "best-of-3"])
def test_bad_match_formats(text: str) -> None:
    with pytest.raises(RulesError, match="match format"):
        MatchFormat.parse(text)
