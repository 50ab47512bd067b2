"""Sorry!'s observer: one seat's observation kept up to date move by move (see docs/adapters.md).

Imported only by the encoding (it needs NumPy); the engine never imports it.
"""

from __future__ import annotations

import weakref
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from parlour.adapters.encoding import FloatArray, Observer, TableObserver

from .board import ABS, HOME, REL, START, TRACK
from .cards import VALUES
from .engine import SorryState

if TYPE_CHECKING:
    from .encoding import SorryEncoding

__all__ = ["SorryObserver", "SorryTable"]

_VALUE_INDEX = {c: i for i, c in enumerate(VALUES)}
_PLACES = TRACK + 5 + 2  # the encoding's places per colour slot: track, safety zone, START, HOME
_START_PLACE, _HOME_PLACE = TRACK + 5, TRACK + 6
#: `SorryTable._setup` by encoding (an encoding is one table: players and rules).
_SORRY_SETUP: weakref.WeakKeyDictionary[
    SorryEncoding, tuple[FloatArray, list[npt.NDArray[np.intp]]]
] = weakref.WeakKeyDictionary()


def places(colour: int, viewer_colour: int | None) -> list[int]:
    """The encoding's place of a pawn of board colour `colour` at each relative place -1..65 (its
    own scale: START, track, safety zone, HOME), counted in the frame of `viewer_colour` (None:
    on the board's own squares, 0..59)."""
    out = []
    for r in range(START, HOME + 1):
        if r == START:
            out.append(_START_PLACE)
        elif r == HOME:
            out.append(_HOME_PLACE)
        elif r >= TRACK:  # the colour's own safety zone: the same five places for every slot
            out.append(r)
        elif viewer_colour is None:
            out.append(ABS[colour][r])
        else:
            out.append(REL[viewer_colour][ABS[colour][r]])
    return out


class SorryObserver(Observer):
    """Seat `seat`'s observation of a Sorry! game, equal to `encoding.observe(state.view(seat))`.

    It encodes the view once, then after each move rewrites only what the move changed, reading
    the state's public parts and the seat's own hands — what `view(seat)` shows, nothing more:
    the pawns that moved (each moved from its old place to its new one: the state's `pos` against
    a copy), the discard pile's new cards (counted again whole after a reshuffle, which empties
    it), the point-score hands of the seat's own colours (counted again when changed: five cards),
    and the single values (turn, card, again, pack, is over). Who plays which colour never
    changes, so `in_play`, `mine` and `team` are written once.
    """

    def __init__(self, encoding: SorryEncoding, state: SorryState, seat: int) -> None:
        super().__init__(encoding, state, seat)
        self.st = state
        self.vec = encoding.observe(state.view(seat))
        # Single entries are written through a memoryview of the vector: a fifth of the time of
        # NumPy's item assignment.
        self.mv = self.vec.data
        offsets = encoding.layout.offsets
        at = {name: a for name, (a, _b) in offsets.items()}
        self.at = at
        t = state.t
        # The viewer's frame, as the full encoding takes it: its first colour (colour 0 if none).
        mine = [ci for ci in range(t.n) if t.seat[ci] == seat] or [0]
        c0 = t.colour[mine[0]]
        self.slot = [(t.colour[ci] - c0) % 4 for ci in range(t.n)]
        # where[ci][r + 1]: the vector's entry for a pawn of colour index ci at relative place r
        self.where = [
            [at["pawns"] + self.slot[ci] * _PLACES + p for p in places(t.colour[ci], c0)]
            for ci in range(t.n)
        ]
        self.mine = [ci for ci in range(t.n) if t.seat[ci] == seat] if t.points else []
        self.points = t.points
        # What the vector was last written from.
        self.moves_seen = len(state.history)
        self.pos = state.pos[:]
        self.discard = state.discard  # the list itself: a reshuffle leaves a new, empty one
        self.discard_len = len(state.discard)
        self.hands = [state.hands[ci][:] for ci in self.mine]
        self.hand_sizes = [len(h) for h in state.hands] if t.points else []
        self.turn = -1 if state.over else self.slot[state.cur]
        self.turn_at, self.card_at = at["turn"], at["card"]
        self.pawn_ids = range(len(state.pos))
        self.card = _VALUE_INDEX[state.card] if state.card else -1
        self.again = state.again
        self.pack = len(state.pack)

    def observe(self) -> FloatArray:
        st, mv = self.st, self.mv
        if len(st.history) != self.moves_seen:  # (every move is in the history)
            self.moves_seen = len(st.history)
            pos, before = st.pos, self.pos
            if pos != before:  # (compared whole first, in C)
                where = self.where
                # the pawns that moved, found in C: a loop over all sixteen cost most of a call
                for pid in compress(self.pawn_ids, map(ne, pos, before)):
                    w = where[pid >> 2]
                    mv[w[before[pid] + 1]] -= 1
                    mv[w[pos[pid] + 1]] += 1
                self.pos = pos[:]
            discard = st.discard
            at = self.at["discard"]
            if discard is not self.discard or len(discard) < self.discard_len:
                self.vec[at : at + len(VALUES)] = 0
                for c in discard:
                    mv[at + _VALUE_INDEX[c]] += 1
                self.discard = discard
            else:
                for c in discard[self.discard_len :]:
                    mv[at + _VALUE_INDEX[c]] += 1
            self.discard_len = len(discard)
            x = len(st.pack)
            if x != self.pack:
                mv[self.at["pack"]] = self.pack = x
            x = -1 if st.over else self.slot[st.cur]
            was = self.turn
            if x != was:
                at = self.turn_at
                if was >= 0:
                    mv[at + was] = 0
                if x >= 0:
                    mv[at + x] = 1
                self.turn = x
            x = _VALUE_INDEX[st.card] if st.card else -1
            was = self.card
            if x != was:
                at = self.card_at
                if was >= 0:
                    mv[at + was] = 0
                if x >= 0:
                    mv[at + x] = 1
                self.card = x
            if st.again != self.again:
                mv[self.at["again"]] = self.again = st.again
            mv[self.at["is_over"]] = st.over
            if self.points:
                self._hands()
        return self.vec.copy()

    def _hands(self) -> None:
        """The point-score game's hands: the seat's own, card by card, and every hand's size."""
        st, mv = self.st, self.mv
        for k, ci in enumerate(self.mine):
            hand = st.hands[ci]
            if hand != self.hands[k]:
                at = self.at["hands"] + self.slot[ci] * len(VALUES)
                self.vec[at : at + len(VALUES)] = 0
                for c in hand:
                    mv[at + _VALUE_INDEX[c]] += 1
                self.hands[k] = hand[:]
        sizes = [len(h) for h in st.hands]
        if sizes != self.hand_sizes:
            at = self.at["hand_sizes"]
            for ci, size in enumerate(sizes):
                mv[at + self.slot[ci]] = size
            self.hand_sizes = sizes


class SorryTable(TableObserver):
    """Every seat's observation of a Sorry! game at once, each move followed once for the table.

    `SorryObserver`'s way, in one absolute frame: one vector, `table`, laid out as the
    observation but with `pawns` by board colour and absolute square (a colour's safety zone,
    START and HOME as in the observation), `turn` and `hand_sizes` by board colour, then each
    seat's `in_play`, `mine` and `team` (written once, from its own view), the point-score hands
    by board colour, and one entry always 0. A seat's observation is one gather from it
    (`table.take(index[seat])`, a new array), which turns the board to the seat's frame and reads
    the hands of its own colours only — what `view(seat)` shows. `tests/adapters/
    test_adapters_observers.py` holds it equal to the full encoding of every seat, move by move.
    """

    def __init__(self, encoding: SorryEncoding, state: SorryState) -> None:
        self.encoding = encoding
        self.state = self.st = state
        t = state.t
        players = state.game.players
        size = encoding.layout.size
        at = self.at = {name: a for name, (a, _b) in encoding.layout.offsets.items()}
        self.static_at = size
        self.hands_at = size + 12 * players
        self.zero_at = self.hands_at + 4 * len(VALUES)
        self.table: FloatArray = np.zeros(self.zero_at + 1, np.float32)
        self.mv = self.table.data
        # where[ci][r + 1]: the table's entry for a pawn of colour index ci at relative place r
        self.where = [
            [at["pawns"] + t.colour[ci] * _PLACES + p for p in places(t.colour[ci], None)]
            for ci in range(t.n)
        ]
        setup = _SORRY_SETUP.get(encoding)
        if setup is None:
            setup = _SORRY_SETUP[encoding] = self._setup(state)
        static, self.index = setup
        self.table[size : self.hands_at] = static
        self.colour_of = list(t.colour)
        self.points = t.points
        self.pawn_ids = range(len(state.pos))
        self.turn_at, self.card_at = at["turn"], at["card"]
        self._rewrite()

    def _setup(self, state: SorryState) -> tuple[FloatArray, list[npt.NDArray[np.intp]]]:
        """Each seat's `in_play`, `mine` and `team` (from its own view: they never change) and
        each seat's gather."""
        enc, at, t = self.encoding, self.at, state.t
        players = state.game.players
        size = enc.layout.size
        static = np.zeros(12 * players, np.float32)
        index = []
        for s in range(players):
            seen = enc.observe(state.view(s))
            ix = np.arange(size, dtype=np.intp)
            for j, field in enumerate(("in_play", "mine", "team")):
                static[12 * s + 4 * j : 12 * s + 4 * j + 4] = seen[at[field] : at[field] + 4]
                ix[at[field] : at[field] + 4] = np.arange(4) + size + 12 * s + 4 * j
            mine = [ci for ci in range(t.n) if t.seat[ci] == s] or [0]
            c0 = t.colour[mine[0]]
            own = {t.colour[ci] for ci in range(t.n) if t.seat[ci] == s} if t.points else set()
            for k in range(4):
                colour = (c0 + k) % 4
                for p in range(_PLACES):
                    # (a track place in the seat's frame is the square ABS[c0][p] on the board)
                    src = ABS[c0][p] if p < TRACK else p
                    ix[at["pawns"] + k * _PLACES + p] = at["pawns"] + colour * _PLACES + src
                ix[at["turn"] + k] = at["turn"] + colour
                ix[at["hand_sizes"] + k] = at["hand_sizes"] + colour
                for v in range(len(VALUES)):
                    ix[at["hands"] + k * len(VALUES) + v] = (
                        self.hands_at + colour * len(VALUES) + v if colour in own else self.zero_at
                    )
            index.append(ix)
        return static, index

    def _rewrite(self) -> None:
        """The moving parts written from the state (`SorryObserver`'s values, absolute)."""
        st, mv, at = self.st, self.mv, self.at
        self.table[at["pawns"] : at["pawns"] + 4 * _PLACES] = 0
        for pid, r in enumerate(st.pos):
            mv[self.where[pid >> 2][r + 1]] += 1
        self.pos = st.pos[:]
        a = at["discard"]
        self.table[a : a + len(VALUES)] = 0
        for c in st.discard:
            mv[a + _VALUE_INDEX[c]] += 1
        self.discard = st.discard
        self.discard_len = len(st.discard)
        self.turn = -1 if st.over else self.colour_of[st.cur]
        self.table[self.turn_at : self.turn_at + 4] = 0
        if self.turn >= 0:
            mv[self.turn_at + self.turn] = 1
        self.card = _VALUE_INDEX[st.card] if st.card else -1
        self.table[self.card_at : self.card_at + len(VALUES)] = 0
        if self.card >= 0:
            mv[self.card_at + self.card] = 1
        self.again = st.again
        mv[at["again"]] = st.again
        self.pack = len(st.pack)
        mv[at["pack"]] = self.pack
        mv[at["is_over"]] = st.over
        self.hands: list[list[int]] = [[] for _ in st.hands]
        self.hand_sizes: list[int] = [-1] * len(st.hands)
        if self.points:
            self._hands()
        self.moves_seen = len(st.history)

    def observe(self, seat: int) -> FloatArray:
        st = self.st
        if len(st.history) != self.moves_seen:  # (every move is in the history)
            self._follow()
        return self.table.take(self.index[seat])

    def _follow(self) -> None:
        """`SorryObserver.observe`'s update, for every seat at once."""
        st, mv = self.st, self.mv
        self.moves_seen = len(st.history)
        pos, before = st.pos, self.pos
        if pos != before:  # (compared whole first, in C)
            where = self.where
            for pid in compress(self.pawn_ids, map(ne, pos, before)):
                w = where[pid >> 2]
                mv[w[before[pid] + 1]] -= 1
                mv[w[pos[pid] + 1]] += 1
            self.pos = pos[:]
        discard = st.discard
        at = self.at["discard"]
        if discard is not self.discard or len(discard) < self.discard_len:
            self.table[at : at + len(VALUES)] = 0
            for c in discard:
                mv[at + _VALUE_INDEX[c]] += 1
            self.discard = discard
        else:
            for c in discard[self.discard_len :]:
                mv[at + _VALUE_INDEX[c]] += 1
        self.discard_len = len(discard)
        x = len(st.pack)
        if x != self.pack:
            mv[self.at["pack"]] = self.pack = x
        x = -1 if st.over else self.colour_of[st.cur]
        was = self.turn
        if x != was:
            at = self.turn_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.turn = x
        x = _VALUE_INDEX[st.card] if st.card else -1
        was = self.card
        if x != was:
            at = self.card_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.card = x
        if st.again != self.again:
            mv[self.at["again"]] = self.again = st.again
        mv[self.at["is_over"]] = st.over
        if self.points:
            self._hands()

    def _hands(self) -> None:
        """The point-score game's hands, every colour's (a seat's gather reads its own), and
        every hand's size."""
        st, mv = self.st, self.mv
        for ci, hand in enumerate(st.hands):
            if hand != self.hands[ci]:
                at = self.hands_at + self.colour_of[ci] * len(VALUES)
                self.table[at : at + len(VALUES)] = 0
                for c in hand:
                    mv[at + _VALUE_INDEX[c]] += 1
                self.hands[ci] = hand[:]
        sizes = [len(h) for h in st.hands]
        if sizes != self.hand_sizes:
            at = self.at["hand_sizes"]
            for ci, k in enumerate(sizes):
                mv[at + self.colour_of[ci]] = k
            self.hand_sizes = sizes
