"""Whot! for the RL adapters: action ids and the observation tensor (see docs/adapters.md).

Imported only by `parlour.adapters` (it needs NumPy); the engine never imports it.

Actions, for a rule set with declarations D (those of `rules.declarations`, in the order
`last card`, `semi-last card`, `check up`) and WHOT powers P (`rules.whot_powers`):

1. for each of the 49 numbered cards, in the order of `CARDS` (by number, then symbol):
   `play <card>`, then `play <card>, <d>` for each d in D; and where the rules let a pick card
   change the direction (`pick_reverses`), for a card of a pick number, `play <card> reverse`,
   then the same with each declaration in D;
2. for each called symbol (circle, triangle, cross, square, star), for each power in ("", *P):
   `play whot call <symbol> [<power>]`, then the same with each declaration in D;
3. `draw`, `end`, `pass`.

So the nigerian rules (no declarations, no WHOT powers) have 49 + 5 + 3 = 57 actions.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.adapters.encoding import (
    Field,
    FloatArray,
    Layout,
    Observer,
    SeatOfTable,
    TableEncoding,
    TableObserver,
    relative_seats,
)
from parlour.core import Game, Move, State

from .cards import PACK, SYMBOLS, WHOT, card_text
from .engine import WhotState
from .events import Drew, Played
from .moves import DRAW, END, PASS, play
from .rules import DECLARATIONS, PICK_AMOUNT, WhotRules

__all__ = ["ACCELERATED", "CARDS", "TABLE", "WhotEncoding", "WhotObserver", "WhotTable"]

#: The 50 distinct cards (49 numbered, then WHOT), by number then symbol.
CARDS: tuple[int, ...] = tuple(sorted(set(PACK)))
_INDEX: dict[str, int] = {card_text(c): i for i, c in enumerate(CARDS)}
_NUMBERED = tuple(c for c in CARDS if c != WHOT)
_K = len(CARDS)
#: `WhotTable._index` by encoding (an encoding is one table: players and rules).
_Gathers = tuple[list[npt.NDArray[np.intp]], list[npt.NDArray[np.intp]]]
_TABLE_INDEX: weakref.WeakKeyDictionary[WhotEncoding, _Gathers] = weakref.WeakKeyDictionary()


class WhotEncoding(TableEncoding):
    ACTIONS_DOC = __doc__.split("Actions, ", 1)[1].split("\n\nSo ", 1)[0] if __doc__ else ""

    def __init__(self, game: Game[Any, Any]) -> None:
        rules: WhotRules = game.rules
        says = ("", *(d for d in DECLARATIONS if d in rules.declarations))
        picks = {n for n, power in rules.powers if power in PICK_AMOUNT}
        moves: list[Move] = []
        for c in _NUMBERED:
            moves.extend(play(c, say=s) for s in says)
            if rules.pick_reverses and c >> 3 in picks:
                moves.extend(play(c, power="reverse", say=s) for s in says)
        for sym in range(len(SYMBOLS)):
            for power in ("", *rules.whot_powers):
                moves.extend(play(WHOT, sym, power, s) for s in says)
        moves += [DRAW, END, PASS]
        n = game.players
        most = float(54 * rules.packs)
        copies = float(5 * rules.packs)
        fields = [
            Field("hand", (_K,), "how many of each card the viewer holds (CARDS order)", 0, copies),
            Field("call_card", (_K,), "one-hot: the card on top of the pile", 0, 1),
            Field("call_symbol", (5,), "one-hot: the symbol to follow (a WHOT's call)", 0, 1),
            Field("free", (), "1 when any card may be played (no call card yet)", 0, 1),
            Field("pile", (_K,), "cards face up in the pile (since the last refill)", 0, copies),
            Field(
                "counts",
                (n,),
                "cards held by each seat, viewer first then round the table",
                0,
                most,
            ),
            Field(
                "known",
                (n, _K),
                "cards every player knows a seat holds (relative seats)",
                0,
                copies,
            ),
            Field("pack_count", (), "cards left in the market", 0, most),
            Field(
                "pack_public", (), "1 when the market's order is public (Storey turn-over)", 0, 1
            ),
            Field("pack_next", (_K,), "one-hot: the market's top card, when public", 0, 1),
            Field("direction", (), "+1 play passes to higher seats, -1 reversed", -1, 1),
            Field(
                "pending_pick", (), "cards the player to move must pick unless they answer", 0, most
            ),
            Field("pick_number", (), "number of the pick card being answered (0 if none)", 0, 20),
            Field("pending_skip", (), "1 when a WHOT's skip may be answered or accepted", 0, 1),
            Field(
                "turn_open", (), "1 while a turn of several cards is open (`end` closes it)", 0, 1
            ),
            Field("turn_cards", (_K,), "cards played so far in the open turn", 0, copies),
            Field(
                "turn_said", (3,), "declarations said this turn (last, semi-last, check up)", 0, 1
            ),
            Field("straight_dir", (), "direction of the straight being played (-1, 0, +1)", -1, 1),
            Field("to_play", (n,), "one-hot: the seat to move, relative to the viewer", 0, 1),
            Field("is_over", (), "1 once the game is over", 0, 1),
        ]
        super().__init__(game, Layout(fields), moves)

    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        n = self.game.players
        seats = relative_seats(view.get("viewer"), n)
        idx = _INDEX
        for t in view.get("hand", ()):
            parts["hand"][idx[t]] += 1
        pile = view["pile"]
        if pile:
            parts["call_card"][idx[pile[-1]]] = 1
        for t in pile:
            parts["pile"][idx[t]] += 1
        if view["call"]:
            parts["call_symbol"][SYMBOLS.index(view["call"])] = 1
        parts["free"][0] = float(view["free"])
        counts, known = view["hand_counts"], view["known"]
        for k, q in enumerate(seats):
            parts["counts"][k] = counts[q]
            for t in known[q]:
                parts["known"][k, idx[t]] += 1
        parts["pack_count"][0] = view["pack_count"]
        if view["pack"] is not None:
            parts["pack_public"][0] = 1
            if view["pack"]:
                parts["pack_next"][idx[view["pack"][0]]] = 1
        parts["direction"][0] = view["direction"]
        parts["pending_pick"][0] = view["pending_pick"]
        parts["pick_number"][0] = view["pick_number"] or 0
        parts["pending_skip"][0] = float(view["pending_skip"])
        if view["turn_cards"]:
            parts["turn_open"][0] = 1
            for t in view["turn_cards"]:
                parts["turn_cards"][idx[t]] += 1
        for s in view["turn_said"]:
            parts["turn_said"][DECLARATIONS.index(s)] = 1
        parts["straight_dir"][0] = np.sign(view["straight_dir"])
        if view["to_play"] is not None:
            parts["to_play"][seats.index(view["to_play"])] = 1
        parts["is_over"][0] = float(view["is_over"])

    def observer(self, state: State, seat: int) -> Observer:
        if not isinstance(state, WhotState):
            return super().observer(state, seat)
        return WhotObserver(self, state, seat)

    def table_observer(self, state: State) -> TableObserver:
        if not isinstance(state, WhotState):
            return super().table_observer(state)
        return TABLE(self, state)

    def seat_follower(self, state: State, seat: int) -> Observer:
        # Under rules without powers or turns of several cards (storey-1935), the table's
        # update of one move is the lighter (`WhotTable.plain`): followed after every move, a
        # seat's observations cost 8% less a move than `WhotObserver` catching up on a round at
        # once; with powers the seat's observer is the lighter (10% less, nigerian at four).
        if isinstance(state, WhotState) and _plain_rules(state.game):
            return SeatOfTable(TABLE(self, state), seat)
        return self.observer(state, seat)


#: A card's place in `CARDS` by the card's int (what the engine holds), for the observers: a
#: list indexed by the int, read faster than a dict (-1: no card has that int).
_CARD_INDEX: dict[int, int] = {c: i for i, c in enumerate(CARDS)}
_CARD_AT: list[int] = [_CARD_INDEX.get(c, -1) for c in range(max(CARDS) + 1)]


def _plays(events: Iterable[Any]) -> dict[int, list[int]]:
    """The cards played in `events`, by player, in order."""
    played: dict[int, list[int]] = {}
    for ev in events:
        if ev.kind == "play":
            played.setdefault(ev.player, []).append(ev.move.card)
    return played


class WhotObserver(Observer):
    """One seat's observation kept up to date move by move, equal to `observe(state.view(seat))`.

    It starts from the full encoding of the view and keeps the vector. Each `observe()` compares
    what the view is made of — the seat's hand, the pile, the known cards, the counts and flags —
    with what it last wrote, and rewrites only what changed: the cards a move added or took away
    (from the new events: the plays; a hand or a seat's known cards otherwise only grow at their
    end), a one-hot entry moved, a scalar. A list that changed in any other way (a refill's new
    pile, a hand changed otherwise) is counted again whole. It reads only what `view(seat)` shows
    of the state. `tests/adapters/test_adapters_observers.py` holds it equal to the full
    encoding, move by move.
    """

    def __init__(self, encoding: WhotEncoding, state: WhotState, seat: int) -> None:
        super().__init__(encoding, state, seat)
        self.st = state
        self.vec = encoding.observe(state.view(seat))
        # Single entries are written through a memoryview of the vector: a fifth of the time of
        # NumPy's item assignment, which dominated the update.
        self.mv = self.vec.data
        at = {name: a for name, (a, _b) in encoding.layout.offsets.items()}
        self.at = at
        self.hand_at, self.pile_at = at["hand"], at["pile"]
        self.call_card_at, self.call_symbol_at = at["call_card"], at["call_symbol"]
        self.to_play_at, self.pack_next_at = at["to_play"], at["pack_next"]
        n = state.n
        # each seat's place in the per-seat fields (the viewer first) and its row of `known`
        self.rel = [(q - seat) % n for q in range(n)]
        self.known_at = [at["known"] + (q - seat) % n * _K for q in range(n)]
        self.count_at = [at["counts"] + k for k in self.rel]
        # What the vector was last written from.
        self.events_seen = len(state.events)
        self.moves_seen = len(state.history)
        self.hand = list(state.hands[seat])
        self.pile = state.pile  # the list object itself: a refill makes a new one
        self.pile_len = len(state.pile)
        self.known = [k[:] for k in state.known]  # by seat, not relative
        self.held = [len(h) for h in state.hands]  # by seat
        self.turn_cards = list(state.turn_cards)
        self.turn_said = list(state.turn_said)
        # The single values, as written: -1 for a one-hot block with nothing set.
        self.call_card = _CARD_AT[state.pile[-1]] if state.pile else -1
        self.call_symbol = state.call_sym
        self.rare = (state.free, state.direction, state.pending_skip, state.straight_dir)
        self.pack_count = len(state.pack)
        self.pack_public = state.pack_public
        self.pack_next = _CARD_AT[state.pack[-1]] if state.pack_public and state.pack else -1
        self.pending_pick = state.pending_pick
        self.pick_number = state.pick_num if state.pending_pick else 0
        self.to_play = -1 if state.current is None else (state.current - seat) % n

    def _recount(self, at: int, cards: Iterable[int]) -> None:
        """Count `cards` into the 50 entries from `at`, afresh."""
        self.vec[at : at + _K] = 0
        mv = self.mv
        for c in cards:
            mv[at + _CARD_AT[c]] += 1

    def _follow(self, at: int, was: list[int], now: list[int], played: list[int]) -> None:
        """Bring the 50 counts from `at` from the cards `was` to the cards `now`, given the cards
        `played` since by their owner, in order. Such a list loses the cards played that it held
        and gains cards at its end only; if `now` is not `was` so changed, it is counted again
        whole. (Both lists are multisets: only the counts matter.)"""
        kept = was[:]
        gone = []
        for c in played:
            if c in kept:
                kept.remove(c)
                gone.append(c)
        if now[: len(kept)] != kept:
            self._recount(at, now)
            return
        mv = self.mv
        for c in gone:
            mv[at + _CARD_AT[c]] -= 1
        for c in now[len(kept) :]:
            mv[at + _CARD_AT[c]] += 1

    def observe(self) -> FloatArray:
        st, vec, mv, seat = self.st, self.vec, self.mv, self.seat
        events = st.events
        # Every move adds to the history, most add events: nothing new, nothing to write.
        if len(st.history) == self.moves_seen and len(events) == self.events_seen:
            return vec.copy()
        self.moves_seen = len(st.history)
        new = events[self.events_seen :]
        self.events_seen = len(events)
        # The seat's hand and every seat's known cards: each only loses the cards its owner
        # played and gains cards at its end, mostly the latter alone (a draw). The plays are
        # read from the new events only when needed.
        played: dict[int, list[int]] | None = None
        hand = st.hands[seat]
        before = self.hand
        if hand != before:
            k = len(before)
            if len(hand) > k and hand[:k] == before:
                at = self.hand_at
                for c in hand[k:]:
                    mv[at + _CARD_AT[c]] += 1
            else:  # `_follow`, written out: the seat's own plays are most moves
                kept = before[:]
                gone = []
                for ev in new:
                    if ev.kind == "play" and ev.player == seat:
                        c = ev.move.card
                        if c in kept:
                            kept.remove(c)
                            gone.append(c)
                at = self.hand_at
                k = len(kept)
                if hand[:k] == kept:
                    for c in gone:
                        mv[at + _CARD_AT[c]] -= 1
                    for c in hand[k:]:
                        mv[at + _CARD_AT[c]] += 1
                else:
                    self._recount(at, hand)
            self.hand = hand[:]
        known = st.known
        if known != self.known:
            for q, (cards, before) in enumerate(zip(known, self.known, strict=True)):
                if cards != before:
                    k = len(before)
                    if len(cards) > k and cards[:k] == before:
                        at = self.known_at[q]
                        for c in cards[k:]:
                            mv[at + _CARD_AT[c]] += 1
                    else:
                        if played is None:
                            played = _plays(new)
                        self._follow(self.known_at[q], before, cards, played.get(q, []))
                    self.known[q] = cards[:]
        # The pile only grows, but for a refill, which leaves a new list of one card.
        pile = st.pile
        if pile is not self.pile or len(pile) < self.pile_len:
            self._recount(self.pile_at, pile)
            self.pile = pile
        else:
            at = self.pile_at
            for c in pile[self.pile_len :]:
                mv[at + _CARD_AT[c]] += 1
        self.pile_len = len(pile)
        # Cards held and cards known, seat by seat (compared whole first, in C).
        held = list(map(len, st.hands))
        if held != self.held:
            for at, k in zip(self.count_at, held, strict=True):  # (most seats moved: all)
                mv[at] = k
            self.held = held
        if st.turn_cards or st.turn_said or self.turn_cards or self.turn_said:
            self._turn()
        # The single values, written out one by one (a one-hot block's 1 moved: -1 is none): a
        # loop over a table of them cost more than the rest of the update.
        x: Any = _CARD_AT[pile[-1]] if pile else -1
        was = self.call_card
        if x != was:
            at = self.call_card_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.call_card = x
        x = st.call_sym
        was = self.call_symbol
        if x != was:
            at = self.call_symbol_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.call_symbol = x
        pack = st.pack
        x = len(pack)
        if x != self.pack_count:
            mv[self.at["pack_count"]] = self.pack_count = x
        x = st.pending_pick
        if x != self.pending_pick:
            mv[self.at["pending_pick"]] = self.pending_pick = x
        x = st.pick_num if x else 0
        if x != self.pick_number:
            mv[self.at["pick_number"]] = self.pick_number = x
        p = st.current
        x = -1 if p is None else self.rel[p]
        was = self.to_play
        if x != was:
            at = self.to_play_at
            if was >= 0:
                mv[at + was] = 0
            if x >= 0:
                mv[at + x] = 1
            self.to_play = x
            mv[self.at["is_over"]] = p is None
        if st.pack_public or self.pack_public:
            x = st.pack_public
            if x != self.pack_public:
                mv[self.at["pack_public"]] = self.pack_public = x
            x = _CARD_AT[pack[-1]] if x and pack else -1
            was = self.pack_next
            if x != was:
                at = self.pack_next_at
                if was >= 0:
                    mv[at + was] = 0
                if x >= 0:
                    mv[at + x] = 1
                self.pack_next = x
        rare = (st.free, st.direction, st.pending_skip, st.straight_dir)
        if rare != self.rare:
            self._rare(rare)
        return vec.copy()

    def _turn(self) -> None:
        """The cards played and the declarations said in an open turn of several cards."""
        st, mv = self.st, self.mv
        if st.turn_cards != self.turn_cards:
            self._recount(self.at["turn_cards"], st.turn_cards)
            mv[self.at["turn_open"]] = 1 if st.turn_cards else 0
            self.turn_cards = st.turn_cards[:]
        if st.turn_said != self.turn_said:
            at = self.at["turn_said"]
            self.vec[at : at + 3] = 0
            for said in st.turn_said:
                mv[at + DECLARATIONS.index(said)] = 1
            self.turn_said = st.turn_said[:]

    def _rare(self, rare: tuple[bool, int, bool, int]) -> None:
        """The values that seldom change: whether any card may be played, the direction of play,
        a skip pending and the direction of a straight (compared together first, in C)."""
        mv, at = self.mv, self.at
        free, direction, skip, straight = rare
        mv[at["free"]] = free
        mv[at["direction"]] = direction
        mv[at["pending_skip"]] = skip
        mv[at["straight_dir"]] = (straight > 0) - (straight < 0)
        self.rare = rare


def _plain_rules(game: Any) -> bool:
    """Rules without powers, declarations, turns of several cards or reversing picks (the
    engine's `lean` ones, and no WHOT powers: storey-1935)."""
    rules = game.rules
    return bool(game.lean and not rules.powers and not rules.whot_powers)


class WhotTable(TableObserver):
    """Every seat's observation at once, each move followed once for the whole table.

    It keeps one vector, `table`, laid out as the observation but with the seat fields (`counts`,
    `known`) in absolute seat order, followed by every seat's hand counts and two constants, a 1
    and a 0; a seat's observation is one NumPy gather from it (`table.take(index)`, a new array),
    which puts the seat's own hand in `hand` and turns the seat fields to start at the seat. A
    seat's index reads only its own hand and the public fields: what `view(seat)` shows.

    The seat to play is not kept in `table`: the PettingZoo environment asks for the observation
    of the seat to play nearly every time, whose `to_play` is always the viewer (a 1 then 0s),
    so that seat's index reads `to_play` from the constants and no move writes it (the 2 writes
    and their bookkeeping were a tenth of a move's update); any other seat's gather reads 0s
    there and then sets the one entry of the seat to play, if any.

    On `observe`, a single move since the last look is followed from its events when they are of
    the common kinds — one card played (with a suspension or a general market at most: each other
    seat drew the last card of its hand; or the game's end), or one draw of k cards (the last k of
    the hand) — and then the single values are compared one by one, as `WhotObserver` does. Any
    other move (a refill with cards drawn from a public market, a penalty…) or several moves at
    once rewrite the whole vector from the state, as do a new table and `rewrite()`.
    `tests/adapters/test_adapters_observers.py` holds it equal to the full encoding of every seat,
    move by move."""

    def __init__(self, encoding: WhotEncoding, state: WhotState) -> None:
        # (fewer than 30 attributes: CPython 3.11 keeps an instance's attributes in the
        # fast layout, shared with its class, only up to 30, and the hot paths read a dozen)
        self.state = state
        self.st = state
        layout = encoding.layout
        n = self.n = state.n
        size = layout.size
        self.table: FloatArray = np.zeros(size + n * _K + 2, np.float32)
        self.table[-2] = 1  # (the constants `to_play` reads: see the class docstring)
        # Single entries are written through a memoryview (see WhotObserver).
        self.mv = self.table.data
        at = {name: a for name, (a, _b) in layout.offsets.items()}
        self.at = at
        self.pile_at = at["pile"]
        self.call_card_at, self.call_symbol_at = at["call_card"], at["call_symbol"]
        self.to_play_at, self.pack_next_at = at["to_play"], at["pack_next"]
        self.pack_count_at = at["pack_count"]
        self.pending_pick_at, self.pick_number_at = at["pending_pick"], at["pick_number"]
        # A seat's three places: its hand's row, its known cards' row, its count.
        self.rows = [(size + q * _K, at["known"] + q * _K, at["counts"] + q) for q in range(n)]
        # Each seat's gathers depend on the table only: worked out once an encoding.
        index = _TABLE_INDEX.get(encoding)
        if index is None:
            index = _TABLE_INDEX[encoding] = self._index(size)
        self.index, self.index_waiting = index
        self.rewrite()

    def _index(self, size: int) -> _Gathers:
        """Each seat's gathers: where each entry of its observation is in `table`, when the seat
        is to play and otherwise (`to_play` read from the constants 1 and 0)."""
        n, at, rows = self.n, self.at, self.rows
        one, zero = len(self.table) - 2, len(self.table) - 1
        index, waiting = [], []
        for s in range(n):
            ix = np.arange(size, dtype=np.intp)
            ix[at["hand"] : at["hand"] + _K] = np.arange(rows[s][0], rows[s][0] + _K)
            for k in range(n):
                q = (s + k) % n
                ix[at["counts"] + k] = at["counts"] + q
                a = at["known"] + k * _K
                ix[a : a + _K] = np.arange(rows[q][1], rows[q][1] + _K)
            ix[at["to_play"] : at["to_play"] + n] = zero
            waiting.append(ix.copy())
            ix[at["to_play"]] = one
            index.append(ix)
        return index, waiting

    def rewrite(self) -> None:
        """Write the whole vector again from the state: every card counted where it is (the
        hands, the known cards, the pile) and every count, then the single values written by
        `_values` against nothing written yet. (It once encoded seat 0's view: building the
        view and encoding it whole was a third of a short game's first step, at every reset.)"""
        st, mv = self.st, self.mv
        self.table[:-2] = 0
        for q, hand in enumerate(st.hands):
            hand_at, known_at, count_at = self.rows[q]
            for c in hand:
                mv[hand_at + _CARD_AT[c]] += 1
            for c in st.known[q]:
                mv[known_at + _CARD_AT[c]] += 1
            mv[count_at] = len(hand)
        at = self.pile_at
        for c in st.pile:
            mv[at + _CARD_AT[c]] += 1
        self.events_seen = len(st.events)
        self.moves_seen = len(st.history)
        # Nothing written yet, so that `_values` writes every value that is not 0.
        self.turn_cards: list[int] = []
        self.turn_said: list[str] = []
        self.call_card = -1
        self.call_symbol = -1
        self.rare: tuple[Any, ...] = ()  # (equal to no tuple of the four values)
        self.pack_public = False
        self.pack_next = -1
        self.pending_pick = 0
        self.pick_number = 0
        self._values()
        # Plain rules (`_plain_rules`), from a position with none of their absent parts under
        # way: a move whose one event is a card played is a plain card passing the turn on, which
        # leaves the direction, the picks, skips and open turns as they are (nothing), and
        # `free` False. `observe` then skips comparing them (a quarter of a storey step's
        # update).
        self.plain = bool(
            _plain_rules(st.game)
            and not (st.turn_cards or st.turn_said or st.pending_pick or st.pending_skip)
            and not st.straight_dir
        )

    def observe(self, seat: int) -> FloatArray:
        st = self.st
        if len(st.history) != self.moves_seen:
            self._catch_up()
        p = st.current
        if p == seat:
            return self.table.take(self.index[seat])  # (a little faster than indexing with it)
        obs = self.table.take(self.index_waiting[seat])
        if p is not None:
            obs[self.to_play_at + (p - seat) % self.n] = 1
        return obs

    def _catch_up(self) -> None:
        """Catch up with the moves made since the last look, building no observation: the
        Gymnasium environment follows the table after each opponent's move, so that each is one
        move's update (the common kinds written out below) rather than several at once."""
        st = self.st
        moves = len(st.history)
        if moves != self.moves_seen:
            events = st.events
            # (the two commonest moves below: one move since the last look, one event)
            ev: Any = (
                events[-1]
                if moves == self.moves_seen + 1 and len(events) == self.events_seen + 1
                else None
            )
            kind = "" if ev is None else ev.kind
            hand = st.hands[ev.player] if kind == "draw" and ev.cards == 1 else None
            if hand:
                # The commonest move, written out: one card drawn, the move's only event, so
                # the market was not refilled and the game goes on. The card is the last of the
                # hand; the call, the pile and the open turn are as they were, and no pick is
                # pending any more. (The market's size is written whatever it was.)
                hand_at, known_at, count_at = self.rows[ev.player]
                i = _CARD_AT[hand[-1]]
                mv = self.mv
                mv[hand_at + i] += 1
                mv[count_at] = len(hand)
                pack = st.pack
                mv[self.pack_count_at] = len(pack)
                if self.pack_public:  # (and still: no refill)
                    mv[known_at + i] += 1
                    at = self.pack_next_at
                    was = self.pack_next
                    if was >= 0:
                        mv[at + was] = 0
                    x = _CARD_AT[pack[-1]] if pack else -1
                    if x >= 0:
                        mv[at + x] = 1
                    self.pack_next = x
                if self.pending_pick:
                    mv[self.pending_pick_at] = self.pending_pick = 0
                    mv[self.pick_number_at] = self.pick_number = 0
                self.events_seen += 1
                self.moves_seen = moves
            elif kind == "play":
                # The other common move, written out: one card played, the move's only event
                # (no power that makes one, no end): `_played`, then what a play may change of
                # `_values` (not the market: nobody drew).
                hand_at, known_at, count_at = self.rows[ev.player]
                i = _CARD_AT[ev.move.card]
                mv = self.mv
                mv[hand_at + i] -= 1
                if mv[known_at + i]:  # (the engine forgets a known card played, if it knew it)
                    mv[known_at + i] -= 1
                mv[self.pile_at + i] += 1
                mv[count_at] = len(st.hands[ev.player])
                at = self.call_card_at
                was = self.call_card
                if was >= 0:
                    mv[at + was] = 0
                mv[at + i] = 1
                self.call_card = i
                x = st.call_sym
                was = self.call_symbol
                if x != was:
                    at = self.call_symbol_at
                    if was >= 0:
                        mv[at + was] = 0
                    if x >= 0:
                        mv[at + x] = 1
                    self.call_symbol = x
                if self.plain:  # (only the first card of the game changes more: `free`)
                    if st.free != self.rare[0]:
                        self._values()
                else:
                    x = st.pending_pick
                    if x or self.pending_pick:
                        if x != self.pending_pick:
                            mv[self.pending_pick_at] = self.pending_pick = x
                        x = st.pick_num if x else 0
                        if x != self.pick_number:
                            mv[self.pick_number_at] = self.pick_number = x
                    if (
                        st.turn_cards
                        or st.turn_said
                        or self.turn_cards
                        or self.turn_said
                        or (st.free, st.direction, st.pending_skip, st.straight_dir) != self.rare
                    ):
                        self._values()  # (writes what else changed; the rest is written already)
                self.events_seen += 1
                self.moves_seen = moves
            elif moves == self.moves_seen + 1 and self._follow():
                self.moves_seen = moves
            else:
                self.rewrite()

    follow = _catch_up

    def _follow(self) -> bool:
        """Follow the one move made since the last look; False (nothing written) if its events
        are not of the common kinds."""
        st, mv = self.st, self.mv
        events = st.events
        seen = self.events_seen
        new = len(events) - seen
        if new == 0:  # (`end` closing a turn without a power: no card moved)
            self._values()
            return True
        if new == 1:
            ev = events[seen]
            kind = ev.kind
            if kind == "draw":
                p = ev.player
                hand = st.hands[p]
                k = ev.cards
                if not 0 < k <= len(hand):
                    return False
                at = self.rows[p][0]
                drawn = hand[-k:]
                for c in drawn:
                    mv[at + _CARD_AT[c]] += 1
                if st.pack_public:  # (the pack's order is public: so is every card drawn)
                    at = self.rows[p][1]
                    for c in drawn:
                        mv[at + _CARD_AT[c]] += 1
                mv[self.rows[p][2]] = len(hand)
            elif kind != "play":
                return False
            else:
                self._played(ev)
        elif new == 2:
            ev = events[seen]
            first = ev.kind
            then = events[seen + 1].kind
            k = ev.cards if first == "draw" else 0
            if (
                then == "refill"
                and 0 < k <= len(st.hands[ev.player])
                and (k == 1 or not (st.pack_public or self.pack_public))
            ):
                # The market ran out: the pile but its top became the market, and the cards
                # were drawn, the last from it (known if the new market's order is public; one
                # card, or a market that was never public, so that all are alike).
                self._refilled()
                p = ev.player
                hand = st.hands[p]
                at = self.rows[p][0]
                drawn = hand[-k:]
                for c in drawn:
                    mv[at + _CARD_AT[c]] += 1
                if st.pack_public:
                    at = self.rows[p][1]
                    for c in drawn:
                        mv[at + _CARD_AT[c]] += 1
                mv[self.rows[p][2]] = len(hand)
            elif first != "play" or (
                then != "suspend" and then != "general_market" and then != "game_over"
            ):
                return False
            else:
                p = self._played(ev)
                if then == "general_market":
                    self._market(p)
        elif new == 3:
            ev = events[seen]
            if (
                ev.kind != "play"
                or events[seen + 1].kind != "refill"
                or events[seen + 2].kind != "general_market"
                or st.pack_public  # (some cards may have been drawn from a hidden market)
            ):
                return False
            p = self._played(ev)
            self._refilled()
            self._market(p)
        else:
            return False
        self.events_seen = len(events)
        self._values()
        return True

    def _played(self, ev: Any) -> int:
        """A card played: out of its player's hand (and known cards, if known), onto the pile."""
        p: int = ev.player
        i = _CARD_AT[ev.move.card]
        mv = self.mv
        mv[self.rows[p][0] + i] -= 1
        at = self.rows[p][1] + i
        if mv[at]:  # (the engine forgets a known card played, if it knew it)
            mv[at] -= 1
        mv[self.pile_at + i] += 1
        mv[self.rows[p][2]] = len(self.st.hands[p])
        return p

    def _market(self, p: int) -> None:
        """A general market: every seat but `p` drew one card, the last of its hand."""
        mv, public = self.mv, self.st.pack_public
        for q, hand in enumerate(self.st.hands):
            if q != p:
                i = _CARD_AT[hand[-1]]
                mv[self.rows[q][0] + i] += 1
                if public:
                    mv[self.rows[q][1] + i] += 1
                mv[self.rows[q][2]] = len(hand)

    def _refilled(self) -> None:
        """The pile but its top card became the market: the pile is that one card now."""
        at = self.pile_at
        self.table[at : at + _K] = 0
        self.mv[at + _CARD_AT[self.st.pile[0]]] = 1

    def _values(self) -> None:
        """The single values and one-hot entries (`WhotObserver.observe`'s, in absolute seats)."""
        st, mv = self.st, self.mv
        if st.turn_cards or st.turn_said or self.turn_cards or self.turn_said:
            self._turn()
        pile = st.pile
        x: Any = _CARD_AT[pile[-1]] if pile else -1
        was = self.call_card
        if x != was:
            if was >= 0:
                mv[self.call_card_at + was] = 0
            if x >= 0:
                mv[self.call_card_at + x] = 1
            self.call_card = x
        x = st.call_sym
        was = self.call_symbol
        if x != was:
            if was >= 0:
                mv[self.call_symbol_at + was] = 0
            if x >= 0:
                mv[self.call_symbol_at + x] = 1
            self.call_symbol = x
        pack = st.pack
        mv[self.pack_count_at] = len(pack)
        x = st.pending_pick
        if x or self.pending_pick:
            if x != self.pending_pick:
                mv[self.pending_pick_at] = self.pending_pick = x
            x = st.pick_num if x else 0
            if x != self.pick_number:
                mv[self.pick_number_at] = self.pick_number = x
        if st.current is None:  # (the seat to play is not in `table`: see the class docstring)
            mv[self.at["is_over"]] = 1
        if st.pack_public or self.pack_public:
            x = bool(st.pack_public)
            if x != self.pack_public:
                mv[self.at["pack_public"]] = self.pack_public = x
            x = _CARD_AT[pack[-1]] if x and pack else -1
            was = self.pack_next
            if x != was:
                if was >= 0:
                    mv[self.pack_next_at + was] = 0
                if x >= 0:
                    mv[self.pack_next_at + x] = 1
                self.pack_next = x
        rare = (st.free, st.direction, st.pending_skip, st.straight_dir)
        if rare != self.rare:
            at = self.at
            free, direction, skip, straight = rare
            mv[at["free"]] = free
            mv[at["direction"]] = direction
            mv[at["pending_skip"]] = skip
            mv[at["straight_dir"]] = (straight > 0) - (straight < 0)
            self.rare = rare

    def _turn(self) -> None:
        """The cards played and the declarations said in an open turn of several cards."""
        st, mv, at = self.st, self.mv, self.at
        if st.turn_cards != self.turn_cards:
            a = at["turn_cards"]
            self.table[a : a + _K] = 0
            for c in st.turn_cards:
                mv[a + _CARD_AT[c]] += 1
            mv[at["turn_open"]] = 1 if st.turn_cards else 0
            self.turn_cards = st.turn_cards[:]
        if st.turn_said != self.turn_said:
            a = at["turn_said"]
            self.table[a : a + 3] = 0
            for said in st.turn_said:
                mv[a + DECLARATIONS.index(said)] = 1
            self.turn_said = st.turn_said[:]


try:  # the C accelerator, where it was built (hatch_build.py)
    from ._table import TableCore

    ACCELERATED = True
except ImportError:  # pragma: no cover - a machine without a C compiler: the Python table
    ACCELERATED = False


_FLOAT32 = np.dtype(np.float32)

if ACCELERATED:

    class FastWhotTable(TableCore, WhotTable):
        """A `WhotTable` whose `observe` and `follow` are in C (_table.c): a card drawn, or a
        plain card played under plain rules, is followed there, and a seat's observation is
        gathered there; every other move goes to `WhotTable._catch_up`. The followed values
        are the C struct's, so that both read and write the same ones."""

        def __init__(self, encoding: WhotEncoding, state: WhotState) -> None:
            super().__init__(encoding, state)
            self._bind(
                state,
                self.table,
                self.rows,
                (
                    self.pile_at,
                    self.call_card_at,
                    self.call_symbol_at,
                    self.pack_count_at,
                    self.pending_pick_at,
                    self.pick_number_at,
                    self.pack_next_at,
                    self.to_play_at,
                    encoding.layout.size,
                ),
                self.index,
                self.index_waiting,
                _CARD_AT,
                Drew,
                Played,
                np.empty,
                _FLOAT32,  # (a dtype, not the type: NumPy converts a type on every call)
            )


#: The table every Whot! encoding hands out: the C one where it was built.
TABLE: type[WhotTable] = FastWhotTable if ACCELERATED else WhotTable
