"""The Who's Who search's quick paths give what the plain ones give.

A determinization is dealt from precomputed constraints (`constrained_dealer`, `TricksGame.sampler`)
exactly as `constrained_deal` dealt it, every consistent deal alike, and many drawn from one view
each show that view however the others are played on; what the model reads off the finished tricks
(`TricksState.tricks_read`) and the cards a hand may call for (kept by hand, `BooksGame._wanted`)
equal what is read afresh after every move of many games.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import pytest

import parlour
from parlour.core import State
from parlour.core.rng import GameRng
from parlour.games.whoswho.books import BooksGame, BooksState
from parlour.games.whoswho.deck import DECK, SUITS, Card, constrained_deal, constrained_dealer
from parlour.games.whoswho.hint import _CARD_BY_TEXT, _rounds_read, _unplayed, hint_policy
from parlour.games.whoswho.notation import Ask
from parlour.games.whoswho.tricks import TricksState
from parlour.testing.positions import played_positions


def first_constrained_deal(
    cards: Sequence[Card],
    sizes: Sequence[int],
    allowed: Sequence[Iterable[int]],
    rng: random.Random,
) -> list[list[Card]]:
    """`constrained_deal` as first written (12 shuffled deals checked card by card, then a
    matching), kept here as the reference the dealer must match draw for draw."""
    slots = [p for p, k in enumerate(sizes) for _ in range(k)]
    every = set(range(len(sizes)))
    allow = [set(a) for a in allowed]
    tries = 1 if all(a >= every for a in allow) else 12
    deck = list(range(len(cards)))
    for _ in range(tries):
        rng.shuffle(deck)
        if all(slots[si] in allow[ci] for si, ci in enumerate(deck)):
            piles: list[list[Card]] = [[] for _ in sizes]
            for si, ci in enumerate(deck):
                piles[slots[si]].append(cards[ci])
            return piles
    order = list(range(len(cards)))
    rng.shuffle(order)
    slot_order = list(range(len(slots)))
    rng.shuffle(slot_order)
    owner = [-1] * len(slots)

    def place(ci: int, seen: set[int]) -> bool:
        for si in slot_order:
            if si in seen or slots[si] not in allow[ci]:
                continue
            seen.add(si)
            if owner[si] < 0 or place(owner[si], seen):
                owner[si] = ci
                return True
        return False

    for ci in order:
        if not place(ci, set()):
            raise ValueError("no deal is consistent with what is known")
    out: list[list[Card]] = [[] for _ in sizes]
    for si, ci in enumerate(owner):
        out[slots[si]].append(cards[ci])
    return out


def test_the_dealer_deals_what_the_first_constrained_deal_dealt() -> None:
    # Random problems like a search's: hands that have shown out of suits, a free stock pile.
    rng = random.Random(7)
    matched = 0
    for case in range(400):
        cards = rng.sample(DECK, rng.randrange(8, 40))
        piles = rng.randrange(2, 6)
        cuts = sorted(rng.sample(range(1, len(cards)), piles - 1))
        sizes = [b - a for a, b in itertools.pairwise([0, *cuts, len(cards)])]
        voids = [set(rng.sample(SUITS, rng.choice([0, 0, 1, 2]))) for _ in range(piles - 1)]
        allowed = [
            [p for p in range(piles - 1) if c.suit not in voids[p]] + [piles - 1] for c in cards
        ]
        deal = constrained_dealer(cards, sizes, allowed)
        for k in range(3):
            ours, theirs = random.Random(case * 10 + k), random.Random(case * 10 + k)
            try:
                expected = first_constrained_deal(cards, sizes, allowed, theirs)
            except ValueError:
                with pytest.raises(ValueError):
                    deal(ours)
                continue
            assert deal(ours) == expected
            assert constrained_deal(cards, sizes, allowed, random.Random(case * 10 + k)) == expected
            assert ours.random() == theirs.random()  # the same draws were made
            matched += 1
    assert matched > 800


def test_every_consistent_deal_is_drawn_alike() -> None:
    # Six cards to piles of 2, 2 and 2 (the last a free stock); the first pile has shown out of
    # brains. Count every deal drawn: each consistent deal comes up, none other, as often as any.
    cards = [Card(3, "money"), Card(4, "money"), Card(3, "brains"), Card(4, "brains")]
    cards += [Card(3, "sport"), Card(4, "sport")]
    sizes = [2, 2, 2]
    allowed = [[1, 2] if c.suit == "brains" else [0, 1, 2] for c in cards]
    consistent = set()
    for order in itertools.permutations(cards):
        piles = (frozenset(order[:2]), frozenset(order[2:4]), frozenset(order[4:]))
        if not any(c.suit == "brains" for c in piles[0]):
            consistent.add(piles)
    deal = constrained_dealer(cards, sizes, allowed)
    rng = GameRng(11)
    draws = 30_000
    seen = Counter(tuple(frozenset(p) for p in deal(rng)) for _ in range(draws))
    assert set(seen) == consistent  # every consistent deal, and only those
    expected = draws / len(consistent)
    chi2 = sum((seen[d] - expected) ** 2 / expected for d in consistent)
    df = len(consistent) - 1
    assert chi2 < df + 5 * math.sqrt(2 * df)  # far out in the tail were it not uniform


def seated(name: str, players: int, seeds: range) -> Iterable[tuple[State, int]]:
    """Positions of hint-played games, with the seat to play."""
    for state in played_positions(parlour.make(name, players=players), "hint", seeds):
        assert state.to_play is not None
        yield state, state.to_play


def public(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


def draws_from_views(
    positions: Iterable[tuple[State, int]], every: int
) -> Iterator[tuple[State, int, Any]]:
    """Four draws from the view of every `every`th position, each showing that view and the
    seat's own hand; each is played on after the caller has looked at it, so that the next draw
    shows whether play in one reached what the sampler read once."""
    for i, (state, p) in enumerate(positions):
        if i % every:
            continue
        view = state.view(p)
        sample = state.game.sampler(view)
        rng = GameRng(i)
        for _ in range(4):
            drawn = sample(rng)
            assert public(drawn.view(p)) == public(view)
            assert drawn.hands[p] == state.hands[p]  # type: ignore[attr-defined]
            yield state, p, drawn
            for _ in range(6):  # play on in this draw
                if drawn.is_over:
                    break
                drawn.apply(drawn.legal_moves()[0])


def test_many_draws_from_one_view_each_show_that_view() -> None:
    # The sampler reads the view once and copies what it read into every draw: playing on in one
    # draw must leave the next as the view has it.
    checked = sum(1 for _ in draws_from_views(seated("whoswho-tricks", 4, range(3)), every=7))
    assert checked > 100


@pytest.mark.parametrize("players", [3, 4, 6])
def test_game_two_draws_from_one_view_show_it_and_what_the_table_knows(players: int) -> None:
    # `BooksGame.sampler` reads the view and works out its constraints once: every draw must
    # still show the view, put each card the table has seen go where it went (`holders`), leave
    # nobody sitting on a whole book (it would have been laid down; a caller who has not yet
    # said "Thank you" excepted) and be untouched by play in an earlier draw.
    checked = 0
    for state, _p, drawn in draws_from_views(seated("whoswho-books", players, range(4)), 5):
        assert isinstance(state, BooksState) and isinstance(drawn, BooksState)
        assert sorted(map(len, drawn.hands)) == sorted(map(len, state.hands))
        for card, who in state.holders.items():
            assert any(card in drawn.hands[q] for q in who) or all(
                card not in h for h in drawn.hands
            )
        for q, hand in enumerate(drawn.hands):
            whole = [x for x, k in Counter(c.number for c in hand).items() if k == 4]
            owed = state.pending is not None and q == state.turn
            assert not whole or (owed and whole == [state.pending[1].number])  # type: ignore[index]
        checked += 1
    assert checked > 100


def fresh_read(state: TricksState) -> tuple[dict[str, int], list[set[str]]]:
    rounds = [[(q, _CARD_BY_TEXT[t]) for q, t in tr["cards"]] for tr in state.tricks]
    played, voids = _rounds_read(rounds, state.game.players)
    return _unplayed(played), voids


def test_what_the_model_keeps_of_the_finished_tricks_is_what_they_say_after_every_move() -> None:
    game = parlour.make("whoswho-tricks", players=4)
    rng = random.Random(3)
    checked = 0
    for seed in range(30):
        state = game.new_game(seed=seed)
        assert isinstance(state, TricksState)
        while not state.is_over:
            hint_policy(state, rng)  # reads the tricks, or keeps what it read
            if state.tricks_read is not None:
                assert state.tricks_read == fresh_read(state)
                checked += 1
            twin = state.copy()  # a copy carries what was read, and drops it when tricks change
            move = rng.choice(state.legal_moves())
            state.apply(move)
            twin.apply(move)
            assert state.tricks_read in (None, fresh_read(state))
            assert twin.tricks_read in (None, fresh_read(twin))
    assert checked > 1000


def calls_by_the_rules(state: BooksState) -> list[Ask]:
    """Every call the rules allow, in `legal_moves`' order (seat by seat, then the pack's order by
    number and suit), asked of `why_illegal` one by one."""
    n = state.game.players
    by_number = sorted(DECK, key=lambda c: (c.number, SUITS.index(c.suit)))
    return [Ask(q, c) for q in range(n) for c in by_number if state.why_illegal(Ask(q, c)) is None]


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", [{}, {"caller_must_hold": False}], ids=["standard", "any"])
def test_the_calls_kept_by_hand_are_the_calls_the_rules_allow_after_every_move(
    players: int, options: dict[str, Any]
) -> None:
    game = parlour.make("whoswho-books", players=players, **options)
    assert isinstance(game, BooksGame)
    rng = random.Random(players)
    checked = 0
    for seed in range(8):
        state = game.new_game(seed=seed)
        assert isinstance(state, BooksState)
        for _ in range(400):
            if state.is_over:
                break
            if state.pending is None:
                for _ in range(2):  # the first asking fills what is kept; the second reads it
                    targets, wanted = state.call_parts()
                    listed = [asks[q] for q in targets for asks in wanted]
                    assert listed == calls_by_the_rules(state)
                checked += 1
            legal = state.legal_moves()
            state.apply("thank" if state.pending is not None else rng.choice(legal))
    assert checked > 500
    if options.get("caller_must_hold", True):
        assert game._wanted  # the hands were kept
