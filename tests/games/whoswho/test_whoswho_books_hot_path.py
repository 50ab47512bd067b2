"""Game No. 2's written-out paths do what the general code does: a call checked off the rules
(`BooksState.apply` without listing every call) is legal exactly when `legal_moves` lists it, a
playout's random call (`random_call`) is the move `rng.choice(legal_moves())` draws, and games
played through them are the games played through the protocol's `State.apply`; a playout written
out (`playout`, the search's `rollout`) plays the moves the playout policy chooses, so the search
finds the same."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

import parlour
from parlour.bots.ismcts import ISMCTSBot
from parlour.core import State
from parlour.games.whoswho.books import BooksState
from parlour.games.whoswho.bots import books_playout
from parlour.games.whoswho.deck import DECK
from parlour.games.whoswho.notation import Ask

RULES: list[dict[str, Any]] = [
    {},
    {"caller_must_hold": False},
    {"thank_you": False},
    {"success_keeps_turn": False},
    {"caller_must_hold": False, "success_keeps_turn": False, "thank_you": False},
]
MOVES = 3_000  # compared per test, at most


def states(options: dict[str, Any], players: int, seeds: range) -> Any:
    """Every state of random games (a random move is mostly a call, and sometimes no "Thank
    you", so the rules' every branch comes up)."""
    game = parlour.make("whoswho-books", players=players, **options)
    seen = 0
    for seed in seeds:
        state = game.new_game(seed=seed)
        choose = Random(seed).choice
        while not state.is_over and seen < MOVES:
            yield state
            seen += 1
            state.apply(choose(state.legal_moves()))


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("options", RULES, ids=lambda o: ",".join(o) or "standard")
def test_a_call_checked_off_the_rules_is_legal_exactly_when_listed(
    options: dict[str, Any], players: int
) -> None:
    for state in states(options, players, range(3)):
        assert isinstance(state, BooksState)
        legal = set(state._legal_moves())
        for q in range(-1, players + 1):
            for c in DECK:
                move = Ask(q, c)
                assert state._may_call(move) == (move in legal), (str(move), state.position())


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("options", RULES, ids=lambda o: ",".join(o) or "standard")
def test_a_random_call_is_the_one_choice_draws_from_the_legal_moves(
    options: dict[str, Any], players: int
) -> None:
    for i, state in enumerate(states(options, players, range(3))):
        assert isinstance(state, BooksState)
        ours, theirs = Random(i), Random(i)
        listed = state.copy()
        assert state.random_call(ours) is theirs.choice(listed.legal_moves())
        assert ours.random() == theirs.random()  # the same draws were made


@pytest.mark.parametrize("options", RULES, ids=lambda o: ",".join(o) or "standard")
def test_games_play_the_same_through_the_written_out_apply(options: dict[str, Any]) -> None:
    game = parlour.make("whoswho-books", players=4, **options)
    for seed in range(3):
        fast, general = game.new_game(seed=seed), game.new_game(seed=seed)
        choose = Random(seed).choice
        moves = 0
        while not general.is_over and moves < MOVES:
            move = choose(general.legal_moves())
            fast.apply(move)  # `_legal` is listed on `general` only: `fast` checks off the rules
            State.apply(general, move)
            moves += 1
            # The table after each move (the whole save, with its log, is compared at the end:
            # a random game runs to thousands of moves, and the log grows with every one).
            assert (fast.turn, fast.pending, fast.is_over) == (
                general.turn,
                general.pending,
                general.is_over,
            )
            assert (fast.hands, fast.books, fast.holders) == (
                general.hands,
                general.books,
                general.holders,
            )
        assert fast.to_dict() == general.to_dict()


def test_a_refused_call_changes_nothing_and_says_why() -> None:
    state = parlour.make("whoswho-books", players=4).new_game(seed=1)
    before = state.to_dict()
    p = state.to_play
    assert p is not None
    own = state.hands[p][0]
    with pytest.raises(parlour.IllegalMove, match=r"yourself|hold"):
        state.apply(Ask((p + 1) % 4, own))  # a card one holds
    assert state.to_dict() == before


@pytest.mark.parametrize("options", RULES, ids=lambda o: ",".join(o) or "standard")
def test_a_playout_plays_the_moves_the_playout_policy_chooses(options: dict[str, Any]) -> None:
    for i, state in enumerate(states(options, 4, range(2))):
        if i % 50:
            continue
        assert isinstance(state, BooksState)
        ours, theirs = Random(i), Random(i)
        fast, general = state.copy(), state.copy()
        played = fast.playout(ours, 40)
        steps = 0
        while steps < 40 and not general.is_over:
            general.apply(books_playout(general, theirs))
            steps += 1
        assert played == steps
        assert fast.to_dict() == general.to_dict()
        assert ours.random() == theirs.random()


def same_game(state: BooksState, limit: int, seed: int) -> tuple[BooksState, BooksState, int, int]:
    """A scored playout and a playout of `state` from the same draws: both states, both counts
    of moves, after checking that the same draws were made."""
    ours, theirs = Random(seed), Random(seed)
    lean, full = state.copy(), state.copy()
    a, b = lean.scored_playout(ours, limit), full.playout(theirs, limit)
    assert ours.random() == theirs.random()  # the same draws were made
    return lean, full, a, b


def table(state: BooksState) -> tuple[Any, ...]:
    """What a scored playout keeps: the hands, the books, the caller, a "Thank you" owed."""
    return (state.hands, state.books, state.turn, state.pending, state.is_over)


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("options", RULES, ids=lambda o: ",".join(o) or "standard")
def test_a_scored_playout_reaches_the_game_a_playout_reaches(
    options: dict[str, Any], players: int
) -> None:
    # The search's leaf is only scored: its playout keeps no record, but must reach the same
    # hands, books, caller, "Thank you" owed and end, from the same draws.
    for i, state in enumerate(states(options, players, range(3))):
        if i % 10:
            continue
        assert isinstance(state, BooksState)
        for limit in (1, 7, 40, 300):
            lean, full, a, b = same_game(state, limit, i + limit)
            assert a == b
            assert table(lean) == table(full)


def test_scored_playouts_end_the_game_as_playouts_do() -> None:
    game = parlour.make("whoswho-books", players=4)
    ended = 0
    for seed in range(40):
        lean, full, a, b = same_game(game.new_game(seed=seed), 100_000, seed)
        assert a == b
        assert table(lean) == table(full)
        assert lean.result().points == full.result().points
        ended += full.is_over
    assert ended == 40


def test_the_search_with_the_written_out_playout_searches_as_with_the_policy() -> None:
    game = parlour.make("whoswho-books", players=4)
    state = game.new_game(seed=5)
    for _ in range(6):
        p = state.to_play
        assert p is not None
        view, legal = state.view(p), state.legal_moves()
        fast = ISMCTSBot(game, Random(p), iterations="200")
        general = ISMCTSBot(game, Random(p), iterations="200")
        general.rollout = None  # the search's own loop of the policy
        assert fast.search(view, legal).moves == general.search(view, legal).moves
        state.apply(fast.choose(view, legal))
