"""Simple greedy bots for both Who's Who games: good enough to lose to, quick enough to simulate.

Game No. 1: name the suit held most of (seed 004: "The player naturally chooses the suit that is
most strongly represented in his hand"); win a trick as cheaply as possible when it can be won and a
partner is not already winning it; otherwise throw the lowest card, keeping Preference cards.

Game No. 2: always say "Thank you"; call for the number it holds most of, from a player the table
knows to hold the card if there is one, else from the player with the most cards who may hold it.

For the search bots, Game No. 2 registers a playout policy that never forgets "Thank you" and an
evaluation of unfinished games (`books_playout`, `books_evaluate`), so playouts stay short.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.core import Move, State

from .books import BooksState
from .deck import Card, parse_card
from .notation import THANK, Ask, Play, Prefer
from .tricks import trick_winner

__all__ = [
    "BooksGreedyBot",
    "TricksGreedyBot",
    "books_evaluate",
    "books_playout",
]


class TricksGreedyBot(Bot):
    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        hand = [parse_card(t) for t in view.get("hand", [])]
        prefers = [m for m in legal if isinstance(m, Prefer)]
        if prefers:

            def strength(m: Prefer) -> tuple[int, int]:
                mine = [c.number for c in hand if c.suit == m.suit]
                return (len(mine), sum(mine))

            return max(prefers, key=strength)
        plays = [m for m in legal if isinstance(m, Play)]
        if not plays:
            return self.rng.choice(legal)
        pref = view["preference"]
        me = view["viewer"]
        trick = [(q, parse_card(t)) for q, t in view["trick"]]

        def cheap(m: Play) -> tuple[bool, int]:
            return (m.card.suit == pref, m.card.number)

        if not trick:  # lead the strongest card
            return max(plays, key=lambda m: (m.card.suit == pref, m.card.number))
        current = trick_winner(trick, pref)
        teams = view.get("teams")
        if teams and any(me in t and current in t for t in teams):
            return min(plays, key=cheap)
        winning = [m for m in plays if trick_winner([*trick, (me, m.card)], pref) == me]
        if winning:
            return min(winning, key=cheap)
        return min(plays, key=cheap)


class BooksGreedyBot(Bot):
    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        if THANK in legal:
            return THANK
        best = self.best_calls(view, legal)
        return self.rng.choice(best or legal)

    @staticmethod
    def best_calls(view: Mapping[str, Any], legal: list[Move]) -> list[Move]:
        """The calls these rules rank first (one is drawn at random): for a card the table knows
        the player holds, else one the player may hold; then of the number held most; then on
        the player with the most cards."""
        asks = [m for m in legal if isinstance(m, Ask)]
        if not asks:
            return []
        hand = [parse_card(t) for t in view.get("hand", [])]
        counts: dict[int, int] = {}
        for c in hand:
            counts[c.number] = counts.get(c.number, 0) + 1
        holders: dict[str, list[int]] = view.get("holders", {})
        sizes: list[int] = view["hand_counts"]

        def score(m: Ask) -> tuple[int, int, int, float]:
            card: Card = m.card
            who = holders.get(str(card))
            certain = who == [m.target]
            possible = who is None or m.target in who
            return (int(certain), int(possible), counts.get(card.number, 0), sizes[m.target])

        best = max(score(m) for m in asks)
        return [m for m in asks if score(m) == best]


# --- help for search bots (ISMCTS playouts on sampled full states) ------------------------------
def books_playout(state: State, rng: random.Random) -> Move:
    """Random calls, but never forgetting "Thank you": uniformly random play forgets it nearly every
    time and runs to thousands of moves; this keeps a playout to a few hundred. (The call is
    `rng.choice(state.legal_moves())`, drawn without listing every call: `random_call`.)"""
    if getattr(state, "pending", None) is not None:
        return THANK
    if isinstance(state, BooksState):
        return state.random_call(rng)
    return rng.choice(state.legal_moves())


def books_rollout(state: State, rng: random.Random, limit: int) -> int:
    """`limit` moves of `books_playout` (fewer if the game ends), the search's `rollout`: Game
    No. 2's own loop where the state is one, keeping only what the evaluation reads
    (`BooksState.scored_playout`: the search scores the leaf and drops it)."""
    if isinstance(state, BooksState):
        return state.scored_playout(rng, limit)
    steps = 0
    while steps < limit and not state.is_over:
        state.apply(books_playout(state, rng))
        steps += 1
    return steps


def books_evaluate(state: State) -> Sequence[float]:
    """An unfinished Game No. 2 as win shares: books made, plus part of a book for each number of
    which a player holds two or three cards."""
    hands: list[list[Card]] = getattr(state, "hands", [])
    books: list[list[int]] = getattr(state, "books", [])
    values = []
    for p, hand in enumerate(hands):
        counts: dict[int, int] = {}
        for c in hand:
            counts[c.number] = counts.get(c.number, 0) + 1
        partial = sum((k - 1) / 3 for k in counts.values() if k > 1)
        values.append((len(books[p]) + 0.5 * partial) ** 2)
    total = sum(values)
    if total <= 0:
        return [1.0 / len(values)] * len(values)
    return [v / total for v in values]
