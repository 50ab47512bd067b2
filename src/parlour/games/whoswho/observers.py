"""Who's Who's observers: one seat's observation kept up to date move by move, for Game No. 1
(`TricksObserver`) and Game No. 2 (`BooksObserver`) (see docs/adapters.md).

Imported only by the encoding (it needs NumPy); the engine never imports it.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.adapters.encoding import BaseEncoding, FloatArray, Observer, TableObserver

from .books import BooksState
from .deck import DECK, SUITS, Card
from .tricks import TricksState

__all__ = ["BooksObserver", "BooksTable", "TricksObserver", "TricksTable"]

_INDEX: dict[Card, int] = {c: i for i, c in enumerate(DECK)}
_TEXT_INDEX: dict[str, int] = {str(c): i for i, c in enumerate(DECK)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_PHASE_INDEX = {p: i for i, p in enumerate(("prefer", "play", "over"))}
_PREFERRING, _PLAYING = _PHASE_INDEX["prefer"], _PHASE_INDEX["play"]
#: `BooksTable._index` by encoding (an encoding is one table: players and rules).
_BOOKS_INDEX: weakref.WeakKeyDictionary[BaseEncoding, list[npt.NDArray[np.intp]]] = (
    weakref.WeakKeyDictionary()
)
#: `TricksTable._setup` by encoding (an encoding is one table: players and rules).
_TRICKS_SETUP: weakref.WeakKeyDictionary[
    BaseEncoding, tuple[FloatArray, list[npt.NDArray[np.intp]]]
] = weakref.WeakKeyDictionary()


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


class TricksObserver(_SeatObserver):
    """Seat `seat`'s observation of Game No. 1, equal to `encoding.observe(state.view(seat))`.

    Nearly every move is a card played, so it follows the new events: a card played goes on the
    table in its player's row (the first one sets the suit led), leaves the player's count (and
    the seat's own hand); a trick taken moves the table's cards to `played`, adds a trick and a
    point to the winner, who leads; a Preference named sets the suit and the phase. Any other
    event (a deal, the end of a deal or of the game) writes everything again from the state —
    the seat's own hand and the public parts, what `view(seat)` shows. Who is to play is read
    from the state. All is written out in `observe`, which runs every step: a call costs as much
    as a few entries.
    """

    def __init__(self, encoding: BaseEncoding, state: TricksState, seat: int) -> None:
        super().__init__(encoding, state, seat)
        self.st = state
        self.total_deals = state.game.total_deals
        at, rel = self.at, self.rel
        self.hand_at, self.played_at, self.led_at = at["hand"], at["played"], at["led"]
        self.to_play_at, self.leader_at = at["to_play"], at["leader"]
        # by seat: its row of `trick`, its entries of `won`, `scores` and `hand_counts`
        self.trick_row = [at["trick"] + 52 * k for k in rel]
        self.won_at = [at["won"] + k for k in rel]
        self.scores_at = [at["scores"] + k for k in rel]
        self.held_at = [at["hand_counts"] + k for k in rel]
        self.preference_at, self.phase_at = at["preference"], at["phase"]
        self.static = np.zeros_like(self.vec)
        a, b = encoding.layout.offsets["team"]
        self.static[a:b] = self.vec[a:b]
        self.events_seen = len(state.events)
        # set by `_rewrite`: the cards on the table (entry in `trick`, card), the suit led (-1:
        # none), the leader and the seat to play (-1: none), as written
        self.on_table: list[tuple[int, int]] = []
        self.led = self.leader = self.to_play = -1
        self._rewrite()

    def observe(self) -> FloatArray:
        st = self.st
        if len(st.history) == self.moves_seen:  # (every move is in the history)
            return self.vec.copy()
        self.moves_seen = len(st.history)
        mv, events = self.mv, st.events
        # (what every card played needs, read once)
        on_table, trick_row, held_at, seat = self.on_table, self.trick_row, self.held_at, self.seat
        for ev in events[self.events_seen :]:
            kind = ev.kind
            if kind == "play":
                q, i = ev.player, _TEXT_INDEX[ev.card]
                if not on_table:  # the trick's first card: its suit is led (DECK: by suit)
                    self.led = i // 13
                    mv[self.led_at + self.led] = 1
                e = trick_row[q] + i
                mv[e] = 1
                on_table.append((e, i))
                mv[held_at[q]] -= 1
                if q == seat:
                    mv[self.hand_at + i] = 0
            elif kind == "trick":
                at = self.played_at
                for e, i in on_table:
                    mv[e] = 0
                    mv[at + i] = 1
                on_table.clear()
                mv[self.led_at + self.led] = 0
                self.led = -1
                w = ev.player
                mv[self.won_at[w]] += 1
                mv[self.scores_at[w]] += 1
                mv[self.leader_at + self.leader] = 0
                self.leader = self.rel[w]
                mv[self.leader_at + self.leader] = 1
            elif kind == "prefer":  # (once a deal, just after it: nothing named, no card played)
                mv[self.preference_at + _SUIT_INDEX[ev.suit]] = 1
                mv[self.phase_at + _PREFERRING] = 0
                mv[self.phase_at + _PLAYING] = 1
            else:  # a deal, or the end: the rest of the events are in the state
                self._rewrite()  # (which leaves the cards on the table in the same list)
                break
        self.events_seen = len(events)
        x = -1 if st.phase == "over" else self.rel[st.turn]
        was = self.to_play
        if x != was:
            at = self.to_play_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.to_play = x
        return self.vec.copy()

    def _rewrite(self) -> None:
        """Everything written again from the state (a new deal changes most of it): the vector
        cleared but for who is on the viewer's side, which never changes, then every entry."""
        st, mv, rel, at = self.st, self.mv, self.rel, self.at
        self.vec[:] = self.static
        for c in st.hands[self.seat]:
            mv[self.hand_at + _INDEX[c]] = 1
        self.on_table.clear()
        for q, c in st.trick:
            e = self.trick_row[q] + _INDEX[c]
            mv[e] = 1
            self.on_table.append((e, _INDEX[c]))
        for taken in st.tricks:
            for _q, text in taken["cards"]:
                mv[self.played_at + _TEXT_INDEX[text]] = 1
        self.led = _SUIT_INDEX[st.trick[0][1].suit] if st.trick else -1
        if self.led >= 0:
            mv[self.led_at + self.led] = 1
        if st.preference is not None:
            mv[at["preference"] + _SUIT_INDEX[st.preference]] = 1
        mv[at["phase"] + _PHASE_INDEX[st.phase]] = 1
        self.to_play = self._seat(st.to_play)
        if self.to_play >= 0:
            mv[self.to_play_at + self.to_play] = 1
        mv[at["dealer"] + rel[st.dealer]] = 1
        mv[at["namer"] + rel[st.namer]] = 1
        self.leader = rel[st.leader]
        mv[self.leader_at + self.leader] = 1
        for q in range(self.n):
            mv[self.won_at[q]] = st.won[q]
            mv[self.scores_at[q]] = st.scores[q]
            mv[self.held_at[q]] = len(st.hands[q])
        mv[at["stock"]] = len(st.stock)
        self.vec[at["progress"]] = st.deal_no / max(1, self.total_deals)
        mv[at["is_over"]] = st.phase == "over"


class TricksTable(TableObserver):
    """Every seat's observation of Game No. 1 at once, each move followed once for the table.

    `TricksObserver`'s way, in absolute seats: one vector, `table`, laid out as the observation
    with the seat fields (`trick`'s rows, `to_play`, `dealer`, `namer`, `leader`, `won`,
    `scores`, `hand_counts`) in seat order, then every seat's hand, then each seat's `team`
    entries (already relative: who is on a seat's side is not a turn of seat 0's). A seat's
    observation is one gather from it (`table.take(index[seat])`, a new array), which reads its
    own hand, its own `team` and the public fields only — what `view(seat)` shows. The new
    events are followed as `TricksObserver` follows them; a deal or the end writes everything
    again from the state. `tests/adapters/test_adapters_observers.py` holds it equal to the full
    encoding of every seat, move by move.
    """

    def __init__(self, encoding: BaseEncoding, state: TricksState) -> None:
        self.encoding = encoding
        self.state = self.st = state
        n = self.n = state.game.players
        self.total_deals = state.game.total_deals
        offsets = encoding.layout.offsets
        size = encoding.layout.size
        at = self.at = {name: a for name, (a, _b) in offsets.items()}
        self.table: FloatArray = np.zeros(size + 52 * n + n * n, np.float32)
        self.mv = self.table.data
        self.hand_row = [size + 52 * q for q in range(n)]
        self.trick_row = [at["trick"] + 52 * q for q in range(n)]
        self.won_at = [at["won"] + q for q in range(n)]
        self.scores_at = [at["scores"] + q for q in range(n)]
        self.held_at = [at["hand_counts"] + q for q in range(n)]
        self.played_at, self.led_at = at["played"], at["led"]
        self.to_play_at, self.leader_at = at["to_play"], at["leader"]
        self.preference_at, self.phase_at = at["preference"], at["phase"]
        # Who is on each seat's side and each seat's gather depend on the table only: worked
        # out once an encoding (a new game would otherwise cost as much as a hundred moves).
        setup = _TRICKS_SETUP.get(encoding)
        if setup is None:
            setup = _TRICKS_SETUP[encoding] = self._setup(state)
        self.static, self.index = setup
        self.moves_seen = len(state.history)
        self.events_seen = len(state.events)
        # set by `_rewrite`: the cards on the table (entry in `trick`, card), the suit led (-1:
        # none), the leader and the seat to play (-1: none), as written
        self.on_table: list[tuple[int, int]] = []
        self.led = self.leader = self.to_play = -1
        self._rewrite()

    def _setup(self, state: TricksState) -> tuple[FloatArray, list[npt.NDArray[np.intp]]]:
        """The vector's static part — each seat's `team` entries, from its own view — and each
        seat's gather."""
        n, at, encoding = self.n, self.at, self.encoding
        size = encoding.layout.size
        static = np.zeros_like(self.table)
        team_at = size + 52 * n
        a, b = encoding.layout.offsets["team"]
        for s in range(n):
            seen = encoding.observe(state.view(s))
            static[team_at + n * s : team_at + n * (s + 1)] = seen[a:b]
        index = []
        for s in range(n):
            ix = np.arange(size, dtype=np.intp)
            ix[at["hand"] : at["hand"] + 52] = np.arange(self.hand_row[s], self.hand_row[s] + 52)
            ix[a:b] = np.arange(team_at + n * s, team_at + n * (s + 1))
            for k in range(n):
                q = (s + k) % n
                e = at["trick"] + 52 * k
                ix[e : e + 52] = np.arange(self.trick_row[q], self.trick_row[q] + 52)
                for field in ("to_play", "dealer", "namer", "leader", "won", "scores"):
                    ix[at[field] + k] = at[field] + q
                ix[at["hand_counts"] + k] = at["hand_counts"] + q
            index.append(ix)
        return static, index

    def observe(self, seat: int) -> FloatArray:
        st = self.st
        if len(st.history) != self.moves_seen:  # (every move is in the history)
            self._follow()
        return self.table.take(self.index[seat])

    def _follow(self) -> None:
        """`TricksObserver.observe`'s update, for every seat at once."""
        st, mv, events = self.st, self.mv, self.st.events
        self.moves_seen = len(st.history)
        on_table, trick_row, held_at = self.on_table, self.trick_row, self.held_at
        for ev in events[self.events_seen :]:
            kind = ev.kind
            if kind == "play":
                q, i = ev.player, _TEXT_INDEX[ev.card]
                if not on_table:  # the trick's first card: its suit is led (DECK: by suit)
                    self.led = i // 13
                    mv[self.led_at + self.led] = 1
                e = trick_row[q] + i
                mv[e] = 1
                on_table.append((e, i))
                mv[held_at[q]] -= 1
                mv[self.hand_row[q] + i] = 0
            elif kind == "trick":
                at = self.played_at
                for e, i in on_table:
                    mv[e] = 0
                    mv[at + i] = 1
                on_table.clear()
                mv[self.led_at + self.led] = 0
                self.led = -1
                w = ev.player
                mv[self.won_at[w]] += 1
                mv[self.scores_at[w]] += 1
                mv[self.leader_at + self.leader] = 0
                self.leader = w
                mv[self.leader_at + w] = 1
            elif kind == "prefer":  # (once a deal, just after it: nothing named, no card played)
                mv[self.preference_at + _SUIT_INDEX[ev.suit]] = 1
                mv[self.phase_at + _PREFERRING] = 0
                mv[self.phase_at + _PLAYING] = 1
            else:  # a deal, or the end: the rest of the events are in the state
                self._rewrite()  # (which leaves the cards on the table in the same list)
                break
        self.events_seen = len(events)
        x = -1 if st.phase == "over" else st.turn
        was = self.to_play
        if x != was:
            at = self.to_play_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.to_play = x

    def _rewrite(self) -> None:
        """Everything written again from the state, as `TricksObserver._rewrite` does, in
        absolute seats and with every seat's hand."""
        st, mv, at = self.st, self.mv, self.at
        self.table[:] = self.static
        for q, hand in enumerate(st.hands):
            row = self.hand_row[q]
            for c in hand:
                mv[row + _INDEX[c]] = 1
        self.on_table.clear()
        for q, c in st.trick:
            e = self.trick_row[q] + _INDEX[c]
            mv[e] = 1
            self.on_table.append((e, _INDEX[c]))
        for taken in st.tricks:
            for _q, text in taken["cards"]:
                mv[self.played_at + _TEXT_INDEX[text]] = 1
        self.led = _SUIT_INDEX[st.trick[0][1].suit] if st.trick else -1
        if self.led >= 0:
            mv[self.led_at + self.led] = 1
        if st.preference is not None:
            mv[at["preference"] + _SUIT_INDEX[st.preference]] = 1
        mv[at["phase"] + _PHASE_INDEX[st.phase]] = 1
        self.to_play = -1 if st.to_play is None else st.to_play
        if self.to_play >= 0:
            mv[self.to_play_at + self.to_play] = 1
        mv[at["dealer"] + st.dealer] = 1
        mv[at["namer"] + st.namer] = 1
        self.leader = st.leader
        mv[self.leader_at + self.leader] = 1
        for q in range(self.n):
            mv[self.won_at[q]] = st.won[q]
            mv[self.scores_at[q]] = st.scores[q]
            mv[self.held_at[q]] = len(st.hands[q])
        mv[at["stock"]] = len(st.stock)
        self.table[at["progress"]] = st.deal_no / max(1, self.total_deals)
        mv[at["is_over"]] = st.phase == "over"


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
            mv[self.at["is_over"]] = st.is_over
        return self.vec.copy()


class BooksTable(TableObserver):
    """Every seat's observation of Game No. 2 at once, each move followed once for the table.

    `BooksObserver`'s way, in absolute seats: one vector, `table`, laid out as the observation
    with the seat fields (`known`, `ruled_out` and `books` rows, `pending_giver`, `to_play`,
    `dealer`, `hand_counts`, `book_counts`) in seat order, then every seat's hand. A seat's
    observation is one gather from it (`table.take(index[seat])`, a new array), which reads its
    own hand and the public fields only — what `view(seat)` shows. What the table knows of a
    card is written once a move for the cards the new events name, not once per seat looking.
    `tests/adapters/test_adapters_observers.py` holds it equal to the full encoding of every
    seat, move by move.
    """

    def __init__(self, encoding: BaseEncoding, state: BooksState) -> None:
        self.encoding = encoding
        self.state = self.st = state
        n = self.n = state.game.players
        size = encoding.layout.size
        self.at = {name: a for name, (a, _b) in encoding.layout.offsets.items()}
        self.hand_row = [size + 52 * q for q in range(n)]
        self.table: FloatArray = np.zeros(size + 52 * n, np.float32)
        self.mv = self.table.data
        index = _BOOKS_INDEX.get(encoding)
        if index is None:
            index = _BOOKS_INDEX[encoding] = self._index()
        self.index = index
        self.table[:size] = encoding.observe(state.view(0))  # (seat 0's: seats in seat order)
        mv = self.mv
        for q, hand in enumerate(state.hands):
            for c in hand:
                mv[self.hand_row[q] + _INDEX[c]] = 1
        self.moves_seen = len(state.history)
        self.events_seen = len(state.events)
        self.hands = [h[:] for h in state.hands]
        self.hand_sets = [set(h) for h in state.hands]
        self.books = [len(b) for b in state.books]
        self.held = [len(h) for h in state.hands]
        self.pending_card = -1 if state.pending is None else _INDEX[state.pending[1]]
        self.pending_giver = -1 if state.pending is None else state.pending[0]
        self.to_play = -1 if state.to_play is None else state.to_play

    def _index(self) -> list[npt.NDArray[np.intp]]:
        """Each seat's gather: where each entry of its observation is in `table`."""
        n, at = self.n, self.at
        size = self.encoding.layout.size
        index = []
        for s in range(n):
            ix = np.arange(size, dtype=np.intp)
            ix[at["hand"] : at["hand"] + 52] = np.arange(self.hand_row[s], self.hand_row[s] + 52)
            for k in range(n):
                q = (s + k) % n
                for field, width in (("known", 52), ("ruled_out", 52), ("books", 13)):
                    e = at[field] + width * k
                    ix[e : e + width] = np.arange(
                        at[field] + width * q, at[field] + width * (q + 1)
                    )
                for field in ("pending_giver", "to_play", "dealer", "hand_counts", "book_counts"):
                    ix[at[field] + k] = at[field] + q
            index.append(ix)
        return index

    def _table_knows(self, i: int) -> None:
        """Card `i`'s entries of `known` and `ruled_out`, from who may still hold it."""
        who = self.st.holders.get(DECK[i])
        mv = self.mv
        known, ruled_out = self.at["known"] + i, self.at["ruled_out"] + i
        for q in range(self.n):
            k = q * 52
            mv[known + k] = who is not None and len(who) == 1 and q in who
            mv[ruled_out + k] = who is not None and q not in who

    def observe(self, seat: int) -> FloatArray:
        st = self.st
        if len(st.history) != self.moves_seen:  # (every move is in the history)
            self._follow()
        return self.table.take(self.index[seat])

    def _follow(self) -> None:
        """`BooksObserver.observe`'s update, for every seat at once."""
        st, mv = self.st, self.mv
        self.moves_seen = len(st.history)
        for ev in st.events[self.events_seen :]:
            kind = ev.kind
            if kind == "call" or kind == "return":
                self._table_knows(_TEXT_INDEX[ev.card])
            elif kind == "book":
                first = ev.number - 3  # (DECK: by suit, then number 3..15)
                for i in range(first, 52, 13):
                    self._table_knows(i)
        self.events_seen = len(st.events)
        hands = st.hands
        if hands != self.hands:  # (compared whole first, in C; then seat by seat)
            for q, (hand, before) in enumerate(zip(hands, self.hands, strict=True)):
                if hand != before:
                    now = set(hand)
                    was = self.hand_sets[q]
                    at = self.hand_row[q]
                    for c in was - now:
                        mv[at + _INDEX[c]] = 0
                    for c in now - was:
                        mv[at + _INDEX[c]] = 1
                    self.hands[q], self.hand_sets[q] = hand[:], now
                    mv[self.at["hand_counts"] + q] = len(hand)
        books = [len(b) for b in st.books]
        if books != self.books:
            at = self.at["books"]
            for q, (k, laid) in enumerate(zip(books, self.books, strict=True)):
                if k != laid:
                    for x in st.books[q][laid:k]:
                        mv[at + q * 13 + x - 3] = 1
                    mv[self.at["book_counts"] + q] = k
            self.books = books
        pend = st.pending
        x = -1 if pend is None else _INDEX[pend[1]]
        if x != self.pending_card:
            self._one_hot("pending_card", self.pending_card, x)
            self.pending_card = x
        x = -1 if pend is None else pend[0]
        if x != self.pending_giver:
            self._one_hot("pending_giver", self.pending_giver, x)
            self.pending_giver = x
        p = st.to_play
        x = -1 if p is None else p
        if x != self.to_play:
            self._one_hot("to_play", self.to_play, x)
            self.to_play = x
            mv[self.at["is_over"]] = st.is_over

    def _one_hot(self, field: str, was: int, now: int) -> None:
        """Move a one-hot block's 1 from `was` to `now` (-1: none)."""
        at = self.at[field]
        if was >= 0:
            self.mv[at + was] = 0
        if now >= 0:
            self.mv[at + now] = 1
