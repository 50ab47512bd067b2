"""Observers (`encoding.observer(state, seat)`) give, move after move, exactly what encoding the
seat's whole view gives, whether a seat is looked at every move, at its own turns only or now and
then; and the int8 masks are the masks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from adapters_support import TABLES, need, table_id

import parlour

need("numpy")
from parlour.adapters.encoding import SeatOfTable, encoding_for  # noqa: E402

# Rule sets whose Whot! observations change in ways the presets of TABLES rarely reach: a known
# pack (a turn-over refill), declarations, turns of several cards, general markets at two packs.
MORE_WHOT: list[dict[str, Any]] = [
    {"rules": "storey-1935", "players": 3, "deal": 7},
    {"rules": "nigerian", "players": 2, "declarations": ("last card", "semi-last card")},
    {"rules": "english", "players": 4, "double_decking": "number", "straights": "off"},
    {"rules": "nigerian", "players": 6},
]
# Sorry!: every table size, partners (a seat playing two colours at two), the point-score hands,
# colours chosen (the viewer's frame is another colour than red), a second 2 drawing again.
MORE_SORRY: list[dict[str, Any]] = [
    {"rules": "regular", "players": 2},
    {"rules": "regular", "players": 3, "colours": ("green", "yellow", "blue")},
    {"rules": "partnership", "players": 4},
    {"rules": "points", "players": 2},
    {"rules": "points", "players": 4, "hand_size": 8, "deck": "1939"},
    {"rules": "points", "players": 4, "partnership": True},
    {"rules": "regular", "players": 4, "two_draws_again_always": True},
]
# Who's Who: three to seven players at both games, partners at six, and Game No. 2 without
# "Thank you", without a kept turn, and with calls for any number not yet booked.
MORE_WHOSWHO: list[tuple[str, dict[str, Any]]] = [
    *(("whoswho-tricks", {"players": n}) for n in (2, 3, 5, 6, 7)),
    ("whoswho-tricks", {"rules": "partnership", "players": 6}),
    ("whoswho-tricks", {"players": 4, "must_follow": False, "hand_size": 7}),
    *(("whoswho-books", {"players": n}) for n in (2, 4, 5, 6, 7)),
    ("whoswho-books", {"players": 4, "thank_you": False}),
    ("whoswho-books", {"players": 3, "success_keeps_turn": False}),
    ("whoswho-books", {"players": 5, "caller_must_hold": False}),
]
CASES = [
    *TABLES,
    *(("whot", kw) for kw in MORE_WHOT),
    *(("sorry", kw) for kw in MORE_SORRY),
    *MORE_WHOSWHO,
]


Look = tuple[Any, Any, random.Random, bool]  # (encoding, state, rng, a new game)


def random_games(name: str, kw: dict[str, Any], seed: int, moves: int) -> Iterator[Look]:
    """`moves` random moves, new games as they end: a look before each move and at each game's
    end, the first of a game marked new (the caller makes its observers then)."""
    game = parlour.make(name, **kw)
    enc = encoding_for(game)
    rng = random.Random(seed)
    while moves > 0:
        state = game.new_game(seed=rng.getrandbits(32))
        yield enc, state, rng, True
        while not state.is_over and moves > 0:
            state.apply(rng.choice(state.legal_moves()))
            moves -= 1
            yield enc, state, rng, False


def same(enc: Any, state: Any, p: int, got: Any) -> None:
    assert got.dtype == np.float32
    want = enc.observe(state.view(p))
    if not np.array_equal(got, want):  # the moves so far named only then: writing them is slow
        np.testing.assert_array_equal(got, want, err_msg=f"seat {p}: {state.history}")


def follow(name: str, kw: dict[str, Any], seed: int, moves: int) -> int:
    """Play `moves` random moves (new games as they end) and compare every observation asked."""
    compared = 0
    for enc, state, rng, new in random_games(name, kw, seed, moves):
        if new:
            observers = [enc.observer(state, p) for p in range(state.game.players)]
            # each seat is looked at by its own habit: every move, at its turns, or now and then
            habits = [rng.choice(("every", "turn", "sometimes")) for _ in observers]
        for p, (obs, habit) in enumerate(zip(observers, habits, strict=True)):
            look = (
                habit == "every"
                or (habit == "turn" and state.to_play == p)
                or (habit == "sometimes" and rng.random() < 0.2)
                or state.is_over
            )
            if look:
                same(enc, state, p, obs.observe())
                compared += 1
        if not state.is_over:
            legal = state.legal_moves()
            np.testing.assert_array_equal(enc.mask(legal), enc.legal_mask(legal).astype(np.int8))
    return compared


@pytest.mark.parametrize("table", CASES, ids=table_id)
def test_an_observer_sees_what_the_whole_view_encodes(table: tuple[str, dict[str, Any]]) -> None:
    name, kw = table
    assert follow(name, kw, seed=21, moves=3000) > 0


def follow_table(name: str, kw: dict[str, Any], seed: int, moves: int) -> int:
    """Play `moves` random moves (new games as they end) with one table observer a game, as the
    PettingZoo environment keeps: after most moves every seat is compared (in a random order),
    after some none, so that the next look comes several moves later."""
    compared = 0
    for enc, state, rng, new in random_games(name, kw, seed, moves):
        if new:
            table = enc.table_observer(state)
        if rng.random() < 0.9 or state.is_over:
            seats = list(range(state.game.players))
            rng.shuffle(seats)
            for p in seats:
                same(enc, state, p, table.observe(p))
                compared += 1
    return compared


@pytest.mark.parametrize("table", CASES, ids=table_id)
def test_a_table_observer_sees_what_each_seats_view_encodes(
    table: tuple[str, dict[str, Any]],
) -> None:
    name, kw = table
    assert follow_table(name, kw, seed=22, moves=1000) > 0


def follow_seats(name: str, kw: dict[str, Any], seed: int, moves: int) -> int:
    """Play `moves` random moves (new games as they end) with each seat's `seat_follower`, told
    of every move as the Gymnasium environment tells it, looked at after a random share of the
    moves (most often at its own turns, as a learner is)."""
    compared = 0
    for enc, state, rng, new in random_games(name, kw, seed, moves):
        if new:
            seats = [enc.seat_follower(state, p) for p in range(state.game.players)]
        else:
            for seat in seats:
                seat.follow()
        for p, seat in enumerate(seats):
            if state.is_over or state.to_play == p or rng.random() < 0.1:
                same(enc, state, p, seat.observe())
                compared += 1
    return compared


@pytest.mark.parametrize("table", CASES, ids=table_id)
def test_a_seat_followed_move_by_move_sees_what_its_view_encodes(
    table: tuple[str, dict[str, Any]],
) -> None:
    name, kw = table
    assert follow_seats(name, kw, seed=23, moves=600) > 0


def test_under_plain_whot_rules_a_followed_seat_reads_the_table() -> None:
    # (the lighter update under rules without powers; the seat's own observer elsewhere)
    enc = encoding_for(parlour.make("whot", players=4, rules="storey-1935"))
    seat = enc.seat_follower(enc.game.new_game(seed=1), 2)
    assert isinstance(seat, SeatOfTable) and seat.seat == 2
    enc = encoding_for(parlour.make("whot", players=4, rules="nigerian"))
    assert not isinstance(enc.seat_follower(enc.game.new_game(seed=1), 2), SeatOfTable)


def test_an_observation_is_a_new_array_each_time() -> None:
    game = parlour.make("whot", players=2, rules="nigerian")
    enc = encoding_for(game)
    state = game.new_game(seed=3)
    obs = enc.observer(state, 0)
    first = obs.observe()
    first[:] = -7  # the caller's to keep or spoil
    np.testing.assert_array_equal(obs.observe(), enc.observe(state.view(0)))
    mask = enc.mask(state.legal_moves())
    mask[:] = 0
    assert enc.mask(state.legal_moves()).any()
    table = enc.table_observer(state)
    first = table.observe(1)
    first[:] = -7
    np.testing.assert_array_equal(table.observe(1), enc.observe(state.view(1)))
