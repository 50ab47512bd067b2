"""Who's Who, Game No. 2 and the search bots: the hint rules read off a full state (the search's
model of the other seats) choose what the hint bot chooses from its view, without a hidden card;
and a search never forgets to say "Thank you" (seed 004: a call made without it "must return the
card", and the next call belongs to the giver)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import Move
from parlour.core.rng import GameRng
from parlour.games.whoswho.books import BooksGame, BooksState
from parlour.games.whoswho.hint import BooksHintBot, books_best_calls, books_hint_policy
from parlour.games.whoswho.notation import THANK, Ask
from parlour.testing.positions import played_positions


def make(players: int = 4, **options: object) -> BooksGame:
    game = parlour.make("whoswho-books", players=players, **options)
    assert isinstance(game, BooksGame)
    return game


def positions(game: BooksGame, bot: str, seeds: range) -> Iterator[BooksState]:
    """Every position of whole games played by `bot`s at every seat."""
    for state in played_positions(game, bot, seeds):
        assert isinstance(state, BooksState)
        yield state


TABLES = [
    pytest.param(3, {}, id="3 players"),
    pytest.param(4, {}, id="4 players"),
    pytest.param(6, {}, id="6 players"),
    pytest.param(4, {"caller_must_hold": False}, id="4 players, any number called"),
]


def reference_best_calls(state: BooksState) -> list[Move]:
    """`books_best_calls` as first written: a key per call (count held, seat's size), the ties in
    the order of the listed calls. The fast one must give the same calls in the same order (a
    search draws among them by index)."""
    targets, wanted = state.call_parts()
    hands = state.hands
    held: dict[int, int] = {}
    for c in hands[state.turn]:
        held[c.number] = held.get(c.number, 0) + 1
    holders = state.holders
    sizes = [len(h) for h in hands]
    # Certain calls: the card's one possible holder is a seat that may be called on.
    certain: list[tuple[int, int, Ask]] = []
    unknown: list[tuple[tuple[Ask, ...], frozenset[int] | None]] = []
    t0 = targets[0]
    for asks in wanted:
        card = asks[t0].card
        who = holders.get(card)
        if who is not None and len(who) == 1:
            (q,) = who
            if q in targets:
                certain.append((held.get(card.number, 0), sizes[q], asks[q]))
                continue
        unknown.append((asks, who))
    if certain:
        top = max((count, size) for count, size, _ in certain)
        return [ask for count, size, ask in certain if (count, size) == top]
    best_key = (-1, -1)
    best: list[Move] = []
    for asks, who in unknown:
        count = held.get(asks[t0].card.number, 0)
        if count < best_key[0]:
            continue
        for q in targets if who is None else [q for q in targets if q in who]:
            key = (count, sizes[q])
            if key > best_key:
                best_key, best = key, [asks[q]]
            elif key == best_key:
                best.append(asks[q])
    if best:
        return best
    # Every call is ruled out by what the table knows: they all rank alike, lowest.
    top2 = max((held.get(a[t0].card.number, 0), sizes[q]) for a, _ in unknown for q in targets)
    return [
        a[q]
        for a, _ in unknown
        for q in targets
        if (held.get(a[t0].card.number, 0), sizes[q]) == top2
    ]


def random_positions(game: BooksGame, seeds: range, moves: int) -> Iterator[BooksState]:
    """Every position of random games that never forget "Thank you" (a random game does, most of
    the time, and runs to thousands of moves), `moves` at most a game."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        for _ in range(moves):
            if state.is_over:
                break
            yield state
            legal = state.legal_moves()
            state.apply(THANK if THANK in legal else rng.choice(legal))


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_fast_ranking_gives_the_calls_of_the_first_in_the_same_order(
    players: int, options: dict[str, object]
) -> None:
    game = make(players, **options)
    checked = certain = 0
    for source in (positions(game, "hint", range(3)), random_positions(game, range(6), 300)):
        for state in source:
            if state.pending is not None:
                continue
            best = books_best_calls(state)
            assert best == reference_best_calls(state), state.position()
            checked += 1
            certain += any(
                state.holders.get(m.card) == frozenset((m.target,)) for m in best if type(m) is Ask
            )
    assert checked > 500
    assert certain > 20  # calls the table knows to succeed were among them


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_state_policy_ranks_the_calls_the_hint_bot_ranks_from_its_view(
    players: int, options: dict[str, object]
) -> None:
    game = make(players, **options)
    checked = 0
    for state in positions(game, "hint", range(3)):
        p = state.to_play
        assert p is not None
        if state.pending is not None:
            assert books_hint_policy(state, random.Random(0)) == THANK
            continue
        from_view = BooksHintBot.best_calls(state.view(p), state.legal_moves())
        assert set(books_best_calls(state)) == set(from_view)
        checked += 1
    assert checked > 100


def test_the_state_policy_reads_no_hidden_card() -> None:
    # Two determinizations of one seat's view differ only in what that seat cannot see: the
    # policy, given the same draws, calls the same card from the same player in both.
    game = make(4)
    seen = 0
    for state in positions(game, "hint", range(2)):
        p = state.to_play
        assert p is not None
        view = state.view(p)
        a = game.sample_state(view, GameRng(1))
        b = game.sample_state(view, GameRng(2))
        assert books_hint_policy(a, random.Random(5)) == books_hint_policy(b, random.Random(5))
        seen += a.hands != b.hands
    assert seen > 50  # the determinizations did differ


def test_a_search_says_thank_you_whenever_it_is_owed() -> None:
    # Before the search was told calling again is never worth weighing, a 200-iteration search
    # forgot its thanks three times in four (one of ~40 calls, each looking about as good).
    game = make(4)
    owed = 0
    for state in positions(game, "hint", range(4)):
        p = state.to_play
        assert p is not None
        if state.pending is None or THANK not in state.legal_moves():
            continue
        bot = make_bot("ismcts:iterations=60", game, seed=owed)
        assert bot.choose(state.view(p), state.legal_moves()) == THANK
        owed += 1
    assert owed > 20
