"""The Who's Who `sleuth` bot for Game No. 2 (books): the hint rules, with every call remembered.

The hint bot knows what the table's `holders` says: a card given is with its caller, a card refused
is with neither the caller nor the player called on. The sleuth reads the log of calls for more:

- a caller holds a card of the number called (RULES-NOTES: "a caller must hold a card of the number
  called"), and keeps holding one until it gives a card of that number away — so a player who
  called for "Seven, money" holds one of the sevens nobody else is known to hold;
- a player holds exactly as many cards as the table sees in its hand (`hand_counts`).

From these it weighs, for every card it does not hold, the chance that each other player holds it.
First it places every card the facts leave one place for (the one candidate for a number a caller
must hold; all the possible cards of a player with just that many cards; nothing more with a
player whose cards are all placed), again until nothing changes; then the spread of probabilities
nearest to even (an iterative fit) that gives every player its number of cards, every card one
holder among those the table allows, and every such caller at least one card of its number.

Then (seed 004): "Thank you" whenever a card is given; else the call most likely to be answered —
a card some player must hold first — then of the number it holds most of (the nearer a book, the
sooner it is laid down and out of reach), then on the player with the most cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.core import Move

from .deck import DECK, Card, parse_card
from .notation import THANK, Ask

__all__ = ["BooksSleuthBot", "call_chances", "must_hold"]

_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}


def must_hold(log: Sequence[Mapping[str, Any]], players: int) -> list[set[int]]:
    """Per seat, the numbers the log shows it still holds a card of: it called for that number
    (a caller must hold one) and has given no card of it away since. A book laid down clears
    its number for every seat. Receiving or sending back a card does not clear it: the card held
    when calling is still there."""
    need: list[set[int]] = [set() for _ in range(players)]
    for e in log:
        kind = e["kind"]
        if kind == "call":
            number = _CARD_BY_TEXT[e["card"]].number
            need[e["player"]].add(number)
            if e["given"]:
                need[e["target"]].discard(number)
        elif kind == "book":
            for s in need:
                s.discard(e["number"])
    return need


def call_chances(
    me: int,
    hand: Sequence[Card],
    sizes: Sequence[int],
    booked: Sequence[int],
    holders: Mapping[Card, Sequence[int]],
    need: Sequence[set[int]],
    rounds: int = 40,
) -> dict[Card, dict[int, float]]:
    """For each card neither in `hand` nor in a book, the chance each other seat holds it (seats
    with no chance left out), fitted to what seat `me` knows: the cards the table may place with
    each seat (`holders`, else every other seat with cards), each seat's number of cards
    (`sizes`), and per seat the numbers it must hold a card of (`need`, see `must_hold`).

    An iterative proportional fit: each seat's column scaled to its number of cards, each caller's
    cards of a number it must hold scaled up to at least one, each card's row to one holder."""
    mine = set(hand)
    done = set(booked)
    others = [q for q in range(len(sizes)) if q != me and sizes[q] > 0]
    chance: dict[Card, dict[int, float]] = {}
    for c in DECK:
        if c in mine or c.number in done:
            continue
        allowed = holders.get(c)
        seats = [q for q in (others if allowed is None else allowed) if q != me and sizes[q] > 0]
        if not seats:
            continue  # the table's knowledge and the view disagree: leave the card out
        chance[c] = {q: 1.0 / len(seats) for q in seats}
    groups = _settle(chance, sizes, others, need, done)
    for _ in range(rounds):
        column = dict.fromkeys(others, 0.0)
        for row in chance.values():
            for q, v in row.items():
                column[q] += v
        for row in chance.values():
            for q in row:
                if column[q] > 0:
                    row[q] *= sizes[q] / column[q]
        for q, cards in groups:
            total = sum(chance[c][q] for c in cards)
            if cards and 0 < total < 1:
                for c in cards:
                    chance[c][q] /= total
        for row in chance.values():
            total = sum(row.values())
            for q in row:
                row[q] /= total
    return chance


def _settle(
    chance: dict[Card, dict[int, float]],
    sizes: Sequence[int],
    others: Sequence[int],
    need: Sequence[set[int]],
    done: set[int],
) -> list[tuple[int, list[Card]]]:
    """Place every card the constraints leave one place for, until nothing changes: a number a
    seat must hold with one candidate card left; a seat with as many possible cards as it has
    cards (it holds them all); a seat whose cards are all placed (it holds nothing else).
    Returns the (seat, candidate cards) of the numbers still open, for the fit."""
    groups: list[tuple[int, list[Card]]] = []
    changed = True
    while changed:
        changed = False
        groups = []
        for q in others:
            for x in need[q]:
                if x in done:
                    continue
                cards = [c for c in chance if c.number == x and q in chance[c]]
                if any(len(chance[c]) == 1 for c in cards):
                    continue  # a card of it is placed with q already: nothing more is known
                if len(cards) == 1:
                    chance[cards[0]] = {q: 1.0}
                    changed = True
                elif cards:
                    groups.append((q, cards))
        for q in others:
            possible = [c for c, row in chance.items() if q in row]
            placed = [c for c in possible if len(chance[c]) == 1]
            if len(possible) == sizes[q] and len(placed) < len(possible):
                for c in possible:
                    chance[c] = {q: 1.0}
                changed = True
            elif len(placed) == sizes[q] and len(placed) < len(possible):
                for c in possible:
                    if len(chance[c]) > 1:
                        row = {r: 1.0 for r in chance[c] if r != q}
                        chance[c] = {r: 1.0 / len(row) for r in row}
                changed = True
    return groups


class BooksSleuthBot(Bot):
    """Game No. 2: "Thank you" when owed; else the call most likely to be answered, from what
    every call so far shows (module doc)."""

    name = "sleuth"

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        return self._choose(view, legal)[0]

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        return self._choose(view, legal)

    def _choose(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        name = self.name
        if THANK in legal:
            return THANK, f"{name}: say thank you, or the card goes back"
        asks = [m for m in legal if isinstance(m, Ask)]
        if not asks:
            return self.rng.choice(legal), f"{name}: nothing to call"
        chance = self.chances(view)
        sizes: list[int] = view["hand_counts"]
        counts: dict[int, int] = {}
        for c in (parse_card(t) for t in view.get("hand", [])):
            counts[c.number] = counts.get(c.number, 0) + 1

        def score(m: Ask) -> tuple[float, ...]:
            return self.rank(m, self.near(chance.get(m.card, {}).get(m.target, 0.0)), counts, sizes)

        best = max(score(m) for m in asks)
        pick = [m for m in asks if score(m) == best]
        m = pick[0] if len(pick) == 1 else self.rng.choice(pick)
        p = chance.get(m.card, {}).get(m.target, 0.0)
        return m, f"{name}: the likeliest call ({p:.0%} that the player holds it)"

    def chances(self, view: Mapping[str, Any]) -> dict[Card, dict[int, float]]:
        """For each card the viewer neither holds nor sees in a book, the chance each other
        seat holds it (`call_chances`, from every call so far)."""
        me: int = view["viewer"]
        players: int = view["players"]
        hand = [parse_card(t) for t in view.get("hand", [])]
        sizes: list[int] = view["hand_counts"]
        booked = [x for bs in view["books"] for x in bs]
        holders = {_CARD_BY_TEXT[t]: who for t, who in view.get("holders", {}).items()}
        need = (
            must_hold(view.get("log", []), players)
            if self.game.rules.caller_must_hold
            else [set() for _ in range(players)]
        )
        return call_chances(me, hand, sizes, booked, holders, need)

    def near(self, p: float) -> float:
        """The chance `p` as the calls are compared by it (as it is, here)."""
        return p

    @staticmethod
    def rank(
        m: Ask, p: float, counts: Mapping[int, int], sizes: Sequence[int]
    ) -> tuple[float, ...]:
        """The call's rank (the highest is made): its chance, then the count held of its
        number, then the size of the hand called on."""
        return (round(p, 3), counts.get(m.card.number, 0), sizes[m.target])
