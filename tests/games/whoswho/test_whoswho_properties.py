"""Property tests for both Who's Who games: cards conserved, views a wall, saves round-trip."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

import parlour
from parlour.core.rng import GameRng
from parlour.games.whoswho.books import BooksState
from parlour.games.whoswho.deck import DECK, Card, parse_card
from parlour.games.whoswho.tricks import TricksState

SEEDS = st.integers(min_value=0, max_value=2**40)


def tricks_cards(s: TricksState) -> Counter[Card]:
    played = [parse_card(t) for tr in s.tricks for _, t in tr["cards"]]
    played += [c for _, c in s.trick]
    return Counter([c for h in s.hands for c in h] + s.stock + played)


def books_cards(s: BooksState) -> Counter[Card]:
    laid = [c for bs in s.books for b in bs for c in DECK if c.number == b]
    return Counter([c for h in s.hands for c in h] + laid)


def no_hidden_books(s: BooksState) -> bool:
    """Nobody sits on a complete book, save a caller not yet thanked for its fourth card."""
    for p, hand in enumerate(s.hands):
        for number, k in Counter(c.number for c in hand).items():
            pending = s.pending is not None and s.turn == p and s.pending[1].number == number
            if k == 4 and not pending:
                return False
    return True


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=st.integers(2, 7), partners=st.booleans())
def test_tricks_conserves_cards_and_keeps_the_wall(seed: int, players: int, partners: bool) -> None:
    game = parlour.make("whoswho-tricks", players=players, partnerships=partners)
    s = game.new_game(seed=seed)
    assert isinstance(s, TricksState)
    rng = random.Random(seed)
    deck = Counter(DECK)
    i = 0
    while not s.is_over:
        assert tricks_cards(s) == deck
        if i % 17 == 0:
            p = rng.randrange(players)
            view = s.view(p)
            assert s.permute_hidden(p, GameRng(i)).view(p) == view
            assert game.load(s.to_json()).legal_moves() == s.legal_moves()
        s.apply(rng.choice(s.legal_moves()))
        i += 1
    assert sum(s.scores) == 5 * len(s.deal_log)
    if s.game.teams() is None:
        assert s.result().points == tuple(s.scores)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=st.integers(2, 7), thanks=st.booleans())
# a game where the redraw's book-breaking swaps once cornered themselves and gave up
@example(seed=1218470, players=7, thanks=False)
def test_books_conserves_cards_and_keeps_the_wall(seed: int, players: int, thanks: bool) -> None:
    game = parlour.make("whoswho-books", players=players, thank_you=thanks)
    s = game.new_game(seed=seed)
    assert isinstance(s, BooksState)
    rng = random.Random(seed)
    deck = Counter(DECK)
    for i in range(3000):
        if s.is_over:
            assert sum(s.result().points) == 13
            break
        assert books_cards(s) == deck
        assert s.hands[s.turn], "the player to call always holds cards"
        # what the table knows is true
        for card, who in s.holders.items():
            assert any(card in s.hands[p] for p in who)
        if i % 23 == 0:
            p = rng.randrange(players)
            view = s.view(p)
            assert s.permute_hidden(p, GameRng(i)).view(p) == view
            sampled = game.sample_state(view, GameRng(i + 1))
            assert sampled.view(p) == view
            assert books_cards(sampled) == deck
            assert no_hidden_books(sampled) and no_hidden_books(s)
            assert sampled.legal_moves(), "a sampled state is playable"
        s.apply(rng.choice(s.legal_moves()))
