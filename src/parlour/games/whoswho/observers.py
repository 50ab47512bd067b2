"""Who's Who's observers: one seat's observation kept up to date move by move, for Game No. 1
(`TricksObserver`) and Game No. 2 (`BooksObserver`) (see docs/adapters.md).

Imported only by the encoding (it needs NumPy); the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from parlour.adapters.encoding import BaseEncoding, FloatArray, Observer

from .books import BooksState
from .deck import DECK, SUITS, Card
from .tricks import TricksState

__all__ = ["BooksObserver", "TricksObserver"]

_INDEX: dict[Card, int] = {c: i for i, c in enumerate(DECK)}
_TEXT_INDEX: dict[str, int] = {str(c): i for i, c in enumerate(DECK)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_PHASE_INDEX = {p: i for i, p in enumerate(("prefer", "play", "over"))}


class _SeatObserver(Observer):
    """What both games' observers share: the vector, written through a memoryview (a fifth of
    the time of NumPy's item assignment), the fields' offsets, and seats made relative."""

    def __init__(self, encoding: BaseEncoding, state: Any, seat: int) -> None:
        super().__init__(encoding, state, seat)
        self.vec = encoding.observe(state.view(seat))
        self.mv = self.vec.data
        self.at = {name: a for name, (a, _b) in encoding.layout.offsets.items()}
        n = state.game.players
        self.n = n
        self.rel = [(q - seat) % n for q in range(n)]  # a seat's place, the viewer first
        self.moves_seen = len(state.history)

    def _one_hot(self, field: str, was: int, now: int) -> None:
        """Move a one-hot block's 1 from `was` to `now` (-1: none)."""
        at = self.at[field]
        if was >= 0:
            self.mv[at + was] = 0
        if now >= 0:
            self.mv[at + now] = 1

    def _seat(self, q: int | None) -> int:
        """A seat's relative place, -1 for none."""
        return -1 if q is None else self.rel[q]

    def _per_seat(self, field: str, now: list[int], was: list[int]) -> None:
        """Rewrite the entries of a per-seat field that differ from `was`."""
        at, rel, mv = self.at[field], self.rel, self.mv
        for q, (x, y) in enumerate(zip(now, was, strict=True)):
            if x != y:
                mv[at + rel[q]] = x

    def _cards(self, at: int, cards: Iterable[Card], value: int) -> None:
        """Write `value` at each card's entry of the 52 from `at`."""
        mv = self.mv
        for c in cards:
            mv[at + _INDEX[c]] = value


class TricksObserver(_SeatObserver):
    """Seat `seat`'s observation of Game No. 1, equal to `encoding.observe(state.view(seat))`.

    After each move it rewrites only what changed, reading the seat's own hand and the public
    parts of the state (what `view(seat)` shows): the hand's cards (a play takes one out, a deal
    brings five), the trick on the table (its entries cleared and written again: at most one a
    player), the cards of this deal's finished tricks (the new tricks' cards added; all cleared
    at a new deal), and the single values and per-seat counts that differ from what it wrote.
    """

    def __init__(self, encoding: BaseEncoding, state: TricksState, seat: int) -> None:
        super().__init__(encoding, state, seat)
        self.st = state
        self.total_deals = state.game.total_deals
        self.hand = state.hands[seat][:]
        self.trick = state.trick[:]
        self.trick_at = self._trick_entries()
        self.tricks = state.tricks  # the list itself: a new deal starts a new one
        self.tricks_seen = len(state.tricks)
        self.preference = -1 if state.preference is None else _SUIT_INDEX[state.preference]
        self.led = _SUIT_INDEX[state.trick[0][1].suit] if state.trick else -1
        self.phase = _PHASE_INDEX[state.phase]
        self.to_play = self._seat(state.to_play)
        self.dealer = self._seat(state.dealer)
        self.namer = self._seat(state.namer)
        self.leader = self._seat(state.leader)
        self.won = state.won[:]
        self.scores = state.scores[:]
        self.held = [len(h) for h in state.hands]
        self.stock = len(state.stock)
        self.deals_done = state.deal_no

    def _trick_entries(self) -> list[int]:
        """The vector's entries of the cards on the table, each in its player's row."""
        at, rel = self.at["trick"], self.rel
        return [at + rel[q] * 52 + _INDEX[c] for q, c in self.st.trick]

    def observe(self) -> FloatArray:
        st, mv = self.st, self.mv
        if len(st.history) == self.moves_seen:  # (every move is in the history)
            return self.vec.copy()
        self.moves_seen = len(st.history)
        hand = st.hands[self.seat]
        if hand != self.hand:  # (at most a deal's few cards: all cleared, all written)
            at = self.at["hand"]
            self._cards(at, self.hand, 0)
            self._cards(at, hand, 1)
            self.hand = hand[:]
        if st.trick != self.trick:
            for i in self.trick_at:
                mv[i] = 0
            self.trick_at = self._trick_entries()
            for i in self.trick_at:
                mv[i] = 1
            self.trick = st.trick[:]
            x = _SUIT_INDEX[st.trick[0][1].suit] if st.trick else -1
            if x != self.led:
                self._one_hot("led", self.led, x)
                self.led = x
        tricks = st.tricks
        at = self.at["played"]
        if tricks is not self.tricks or len(tricks) < self.tricks_seen:
            self.vec[at : at + 52] = 0
            self.tricks, self.tricks_seen = tricks, 0
        for trick in tricks[self.tricks_seen :]:
            for _q, text in trick["cards"]:
                mv[at + _TEXT_INDEX[text]] = 1
        self.tricks_seen = len(tricks)
        x = -1 if st.preference is None else _SUIT_INDEX[st.preference]
        if x != self.preference:
            self._one_hot("preference", self.preference, x)
            self.preference = x
        x = _PHASE_INDEX[st.phase]
        if x != self.phase:
            self._one_hot("phase", self.phase, x)
            self.phase = x
            mv[self.at["is_over"]] = st.phase == "over"
        x = self._seat(st.to_play)
        if x != self.to_play:
            self._one_hot("to_play", self.to_play, x)
            self.to_play = x
        x = self._seat(st.leader)
        if x != self.leader:
            self._one_hot("leader", self.leader, x)
            self.leader = x
        if st.won != self.won:
            self._per_seat("won", st.won, self.won)
            self.won = st.won[:]
        if st.scores != self.scores:
            self._per_seat("scores", st.scores, self.scores)
            self.scores = st.scores[:]
        held = [len(h) for h in st.hands]
        if held != self.held:
            self._per_seat("hand_counts", held, self.held)
            self.held = held
        if st.deal_no != self.deals_done:  # a new deal: its dealer, namer and stock
            self.deals_done = st.deal_no
            self.vec[self.at["progress"]] = st.deal_no / max(1, self.total_deals)
            x = self._seat(st.dealer)
            if x != self.dealer:
                self._one_hot("dealer", self.dealer, x)
                self.dealer = x
            x = self._seat(st.namer)
            if x != self.namer:
                self._one_hot("namer", self.namer, x)
                self.namer = x
            if len(st.stock) != self.stock:
                mv[self.at["stock"]] = self.stock = len(st.stock)
        return self.vec.copy()


class BooksObserver(_SeatObserver):
    """Seat `seat`'s observation of Game No. 2, equal to `encoding.observe(state.view(seat))`.

    After each move it rewrites only what changed, reading the seat's own hand and the public
    parts of the state (what `view(seat)` shows): the hand's cards that came or went (the hand
    against a copy, as sets), the books laid since, and for each card the new events name — a
    call, a card sent back, the four cards of a book laid — that card's column of `known` and
    `ruled_out`, written again from what the table now knows of it (`holders`); the rest of the
    table's knowledge is untouched by such a move. Then the single values and per-seat counts.
    """

    def __init__(self, encoding: BaseEncoding, state: BooksState, seat: int) -> None:
        super().__init__(encoding, state, seat)
        self.st = state
        self.events_seen = len(state.events)
        self.hand = state.hands[seat][:]
        self.hand_set = set(self.hand)
        self.books = [len(b) for b in state.books]
        self.held = [len(h) for h in state.hands]
        self.pending_card = -1 if state.pending is None else _INDEX[state.pending[1]]
        self.pending_giver = -1 if state.pending is None else self.rel[state.pending[0]]
        self.to_play = self._seat(state.to_play)

    def _table_knows(self, i: int) -> None:
        """Card `i`'s entries of `known` and `ruled_out`, from who may still hold it."""
        who = self.st.holders.get(DECK[i])
        mv, rel = self.mv, self.rel
        known, ruled_out = self.at["known"] + i, self.at["ruled_out"] + i
        for q in range(self.n):
            k = rel[q] * 52
            mv[known + k] = who is not None and len(who) == 1 and q in who
            mv[ruled_out + k] = who is not None and q not in who

    def observe(self) -> FloatArray:
        st, mv = self.st, self.mv
        if len(st.history) == self.moves_seen:  # (every move is in the history)
            return self.vec.copy()
        self.moves_seen = len(st.history)
        # What the table knows changes only for the cards of the new events.
        for ev in st.events[self.events_seen :]:
            kind = ev.kind
            if kind == "call" or kind == "return":
                self._table_knows(_TEXT_INDEX[ev.card])
            elif kind == "book":
                first = ev.number - 3  # (DECK: by suit, then number 3..15)
                for i in range(first, 52, 13):
                    self._table_knows(i)
        self.events_seen = len(st.events)
        hand = st.hands[self.seat]
        if hand != self.hand:  # (compared whole first, in C; then what came and went)
            now = set(hand)
            at = self.at["hand"]
            for c in self.hand_set - now:
                mv[at + _INDEX[c]] = 0
            for c in now - self.hand_set:
                mv[at + _INDEX[c]] = 1
            self.hand, self.hand_set = hand[:], now
        books = [len(b) for b in st.books]
        if books != self.books:
            at, rel = self.at["books"], self.rel
            for q, (k, was) in enumerate(zip(books, self.books, strict=True)):
                for x in st.books[q][was:k]:
                    mv[at + rel[q] * 13 + x - 3] = 1
            self._per_seat("book_counts", books, self.books)
            self.books = books
        held = [len(h) for h in st.hands]
        if held != self.held:
            self._per_seat("hand_counts", held, self.held)
            self.held = held
        pend = st.pending
        x = -1 if pend is None else _INDEX[pend[1]]
        if x != self.pending_card:
            self._one_hot("pending_card", self.pending_card, x)
            self.pending_card = x
        x = -1 if pend is None else self.rel[pend[0]]
        if x != self.pending_giver:
            self._one_hot("pending_giver", self.pending_giver, x)
            self.pending_giver = x
        x = self._seat(st.to_play)
        if x != self.to_play:
            self._one_hot("to_play", self.to_play, x)
            self.to_play = x
            mv[self.at["is_over"]] = st.over
        return self.vec.copy()
