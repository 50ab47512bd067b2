"""What the learned Whot! player sees: features of a seat's view and of each move, for Q(s, a).

One function, `Features.derive`, turns rows of `WhotEncoding`'s observation (the view of the
player to move, seats relative to it) and `held_at_most`'s caps (what each seat's draws under a
call showed it lacks) into the network's inputs. Both paths feed it the same rows:

* playing one game: `WhotEncoding.observe(view)` and `held_at_most(view["events"], ...)`, from the
  view alone (`LearnedBot`);
* training on the batched engine: `WhotBatch.observe(st)`, which the parity tests hold equal to
  `WhotEncoding.observe(state.view(p))`, and `CapsTracker`, which keeps the same caps move by move
  on arrays (tests/games/whot/test_whot_learned.py holds it to `held_at_most` in lockstep).

State features (one row per decision; seats relative to the mover):

* hand (50): the cards held, by `CARDS` index (49 numbered, then WHOT);
* unseen (50): the cards the mover cannot place — the packs less its hand, the pile and the cards
  known in the others' hands (so: the others' hands and the market);
* hand and unseen counted by symbol (5, WHOT) and by number (1–14, 20): 2 × 21;
* the call (5 + 16 + 2): the symbol called, the number (first slot: a WHOT's call), free, a WHOT
  on top;
* the pick (2): a pick pending, and its size;
* sizes (1 + 4 per other seat): the mover's hand size; each other seat's, and whether it holds 1,
  2 or 3 cards;
* the market (1): cards in it;
* caps (12 per other seat): per symbol and WHOT, whether the seat is known to lack it (it drew
  under that call) and how many cards it has drawn since (it holds at most that many of it);
* the public pack (1 + 50 + 50 per other seat), only where the market turns over in the open
  (Storey 1935): whether it is public, its next card, each seat's known cards.

Move features (`action_table`, one row per action id): the id one-hot; the card's symbol, number
and points; a WHOT and the symbol it calls; the draw; the card's power under the rules. And per
(state, move) pair (`pair`): how many of the mover's other cards, and of the unseen cards, follow
the call the move leaves; whether the next seat is known to lack the symbol it calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.games.whot.cards import card_points
from parlour.games.whot.rules import WhotRules

from ..batched.engine import ACTION_DRAW, CARDS, NUM_ACTIONS

__all__ = ["CAP_KINDS", "PAIR", "CapsTracker", "Features", "PairTables", "action_table"]

F32 = npt.NDArray[np.float32]
K = len(CARDS)  # 50: the 49 numbered cards, then WHOT
W = K - 1
CAP_KINDS = 6  # five symbols and WHOT (`held_at_most`'s columns)
_NUMBERS = (*range(1, 15), 20)  # a card's number; 20: WHOT
_POWERS = ("hold_on", "pick_two", "pick_three", "suspension", "general_market")
PAIR = 4  # features per (state, move) pair


def _by_kind() -> F32:
    """(K, 21): card -> its symbol (0-4, WHOT 5) and its number (6 + index in _NUMBERS)."""
    m = np.zeros((K, 6 + len(_NUMBERS)), np.float32)
    for i, c in enumerate(CARDS):
        m[i, c & 7] = 1
        m[i, 6 + _NUMBERS.index(c >> 3)] = 1
    return m


_BY = _by_kind()
_TOP_NUMBER = np.ascontiguousarray(np.concatenate([_BY[:W, 6:20], np.zeros((1, 14), np.float32)]))


def _follows() -> F32:
    """(K, NUM_ACTIONS): 1 where card k may follow the call that action a leaves (a numbered
    card: its symbol or number; a WHOT calling s: symbol s), WHOTs following anything."""
    m = np.zeros((K, NUM_ACTIONS), np.float32)
    for a in range(W + 5):
        if a < W:
            sym, num = CARDS[a] & 7, CARDS[a] >> 3
        else:
            sym, num = a - W, -1
        for k, c in enumerate(CARDS):
            if k == W or c & 7 == sym or c >> 3 == num:
                m[k, a] = 1
    return m


_FOLLOWS = _follows()
_PLAYED = np.zeros((K, NUM_ACTIONS), np.float32)  # 1 at (the card action a plays, a)
for _a in range(W + 5):
    _PLAYED[min(_a, W), _a] = 1
_NBY = _BY.shape[1]
# the hand by symbol and number, then the mover's cards that follow each move's call (the card
# played no longer counts); the unseen cards by symbol and number, then those that follow
_HAND_MAT = np.ascontiguousarray(np.concatenate([_BY, _FOLLOWS - _PLAYED], axis=1))
_UNSEEN_MAT = np.ascontiguousarray(np.concatenate([_BY, _FOLLOWS], axis=1))
# per action id, the symbol it calls (a WHOT's call, or the card's own symbol); the draw, end and
# pass call none (column 5 of the lookup: always 0)
_CALLED = np.array([c & 7 for c in CARDS[:W]] + list(range(5)) + [5, 5, 5], np.int64)


def action_table(rules: WhotRules) -> F32:
    """(NUM_ACTIONS, width): the features of each action id's move under `rules`."""
    powers = dict(rules.power_of)
    rows = []
    for a in range(NUM_ACTIONS):
        onehot = np.zeros(NUM_ACTIONS, np.float32)
        onehot[a] = 1
        sym = np.zeros(6, np.float32)
        num = np.zeros(len(_NUMBERS), np.float32)
        call = np.zeros(5, np.float32)
        power = np.zeros(len(_POWERS), np.float32)
        extra = np.zeros(3, np.float32)  # points / 20, a WHOT, the draw
        if a < W:
            c = CARDS[a]
            sym[c & 7] = 1
            num[_NUMBERS.index(c >> 3)] = 1
            extra[0] = card_points(c) / 20
            p = powers.get(c >> 3)
            if p in _POWERS:
                power[_POWERS.index(p)] = 1
        elif a < W + 5:
            sym[5] = 1
            num[-1] = 1
            call[a - W] = 1
            extra[0] = 1.0
            extra[1] = 1
        elif a == ACTION_DRAW:
            extra[2] = 1
        rows.append(np.concatenate([onehot, sym, num, call, power, extra]))
    return np.stack(rows).astype(np.float32)


@dataclass(frozen=True)
class Features:
    """The feature layout for one rule set at one table size."""

    players: int
    packs: int
    public_pack: bool  # the market turns over in the open (seed 000): its order is known
    offsets: dict[str, tuple[int, int]]  # `WhotEncoding`'s fields in the observation

    @property
    def unread(self) -> frozenset[str]:
        """The observation's fields `derive` never reads (`WhotBatch.observe(skip=...)`): known
        cards and the pack's next card exist only where the market turns over in the open."""
        return frozenset({"to_play"} | (set() if self.public_pack else {"known", "pack_next"}))

    @property
    def _total(self) -> F32:
        """Copies of each card in the packs."""
        total = np.full(K, self.packs, np.float32)
        total[W] = 5 * self.packs
        return total

    @classmethod
    def of(cls, rules: WhotRules, players: int, offsets: dict[str, tuple[int, int]]) -> Features:
        table = rules.for_table(players)
        return cls(players, table.packs, table.empty_pack == "turn-over", dict(offsets))

    @property
    def state_size(self) -> int:
        n: int = self.players - 1
        size = 2 * K + 2 * int(_BY.shape[1]) + 5 + 16 + 2 + 2 + 1 + 4 * n + 1 + 2 * CAP_KINDS * n
        if self.public_pack:
            size += 1 + K + K * n
        return size

    def _field(self, obs: F32, name: str) -> F32:
        a, b = self.offsets[name]
        # contiguous: NumPy's matrix products on strided views skip BLAS (ten times slower)
        return np.ascontiguousarray(obs[:, a:b])

    def derive(self, obs: F32, caps: npt.NDArray[np.integer[Any]]) -> tuple[F32, PairTables]:
        """The state rows (B, state_size) and the tables of the (state, move) pair features of
        observations `obs` (B, obs) with caps `caps` (B, players, 6): per seat relative to the
        mover (0 is the mover), -1 where nothing is known (UNBOUNDED). `pairs` reads the pair
        features of the moves wanted off the tables."""
        b, n = obs.shape[0], self.players
        f = self._field
        hand = f(obs, "hand")
        pile = obs[:, slice(*self.offsets["pile"])]
        known = obs[:, slice(*self.offsets["known"])].reshape(b, n, K)
        unseen = self._total - hand - pile
        if self.public_pack:  # known cards come only from a market turned over in the open
            unseen -= known[:, 1:].sum(axis=1)
        # One product each for the hand and the unseen cards: counted by symbol and number, and
        # (the pair features) the cards that follow the call each move leaves (all small whole
        # numbers, exact in float32 in any order of summation, so a batch of one gives the same).
        mine = hand @ _HAND_MAT
        out = unseen @ _UNSEEN_MAT
        call_card = f(obs, "call_card")
        free = obs[:, slice(*self.offsets["free"])]
        counts = obs[:, slice(*self.offsets["counts"])]
        others = counts[:, 1:]
        pending = obs[:, slice(*self.offsets["pending_pick"])]
        state = np.empty((b, self.state_size), np.float32)
        at = 0

        def put(x: Any) -> None:
            nonlocal at
            w = x.shape[1]
            state[:, at : at + w] = x
            at += w

        put(hand / 2)
        put(unseen / 2)
        put(mine[:, :_NBY] / 4)
        put(out[:, :_NBY] / 8)
        put(obs[:, slice(*self.offsets["call_symbol"])])
        number = state[:, at : at + 16]
        number[:, 1:15] = call_card @ _TOP_NUMBER  # the call card's number, 1-14 (none: WHOT)
        whot_top = call_card[:, W : W + 1]
        number[:, 0] = whot_top[:, 0] * (1 - free[:, 0])  # a WHOT's call names no number
        number[:, 15] = 0
        at += 16
        put(free)
        put(whot_top)
        put(pending > 0)
        put(pending / 4)
        put(counts[:, :1] / 10)
        put(others / 10)
        put(others == 1)
        put(others == 2)
        put(others == 3)
        put(obs[:, slice(*self.offsets["pack_count"])] / 54)
        capped = caps[:, 1:].reshape(b, -1)  # (B, (n-1) * 6)
        put(capped >= 0)
        put(np.where(capped >= 0, np.minimum(capped, 8) / 8, 0))
        if self.public_pack:
            put(obs[:, slice(*self.offsets["pack_public"])])
            put(obs[:, slice(*self.offsets["pack_next"])])
            put(known[:, 1:].reshape(b, -1))
        assert at == self.state_size
        # Per (state, move): the mover's other cards that follow the call the move leaves, the
        # unseen cards that do, the next seat known to lack the symbol called, and its hand size.
        nxt = caps[:, 1 % n]  # the next seat (between two: the other)
        lack_sym = np.zeros((b, 6), np.float32)  # column 5: the draw calls nothing
        lack_sym[:, :5] = nxt[:, :5] == 0  # lacked it and has drawn nothing since
        called = lack_sym[:, _CALLED]
        f32 = np.float32
        return state, PairTables(
            (mine[:, _NBY:] / 5).astype(f32),
            (out[:, _NBY:] / 20).astype(f32),
            called,
            (others[:, 0] / 10).astype(f32),
        )


@dataclass(frozen=True)
class PairTables:
    """Per decision and action id, the pair features (see `Features.derive`)."""

    mine: F32  # (B, NUM_ACTIONS) the mover's other cards that follow the call left, / 5
    out: F32  # (B, NUM_ACTIONS) the unseen cards that do, / 20
    called: F32  # (B, NUM_ACTIONS) the next seat known to lack the symbol the move calls
    next_size: F32  # (B,) the next seat's hand size / 10

    def pairs(self, rows: npt.NDArray[np.int64], ids: npt.NDArray[np.int64]) -> F32:
        """(P, PAIR): the features of move `ids[p]` in decision `rows[p]`."""
        return np.stack(
            [
                self.mine[rows, ids],
                self.out[rows, ids],
                self.called[rows, ids],
                self.next_size[rows],
            ],
            axis=1,
        ).astype(np.float32, copy=False)


# The most a cap counts: the features read no more than 8 of it (`Features.derive`), and a count
# kept in int16 must not wrap to "unknown" (-1 and below) in a game of tens of thousands of moves
# (a training run's evaluation met one; `--max-moves` lets self-play run as long).
CAP_MOST = 255


class CapsTracker:
    """`held_at_most` for B games of the batched engine, kept move by move: (B, players, 6) int,
    per absolute seat, -1 where unbounded. Call `before(st, actions)` with the state about to be
    stepped, then `after(st)` with the stepped state; `reset(games)` for games dealt anew."""

    def __init__(self, batch: Any, size: int) -> None:
        self.batch = batch
        self.n = batch.players
        self.whot_on_whot = batch.rules.whot_on_whot
        self.caps = np.full((size, self.n, CAP_KINDS), -1, np.int16)
        self._rows = np.arange(size)

    def reset(self, games: npt.NDArray[np.int64]) -> None:
        self.caps[games] = -1

    def relative(self, me: npt.NDArray[np.int64]) -> npt.NDArray[np.int16]:
        """The caps with seats relative to `me` (B,): seat k is seat (me + k) % n."""
        seats = (me[:, None] + np.arange(self.n)) % self.n
        out: npt.NDArray[np.int16] = self.caps[self._rows[: me.size, None], seats]
        return out

    def step(self, st: Any, actions: npt.NDArray[np.int64], live: npt.NDArray[np.bool_]) -> Any:
        """Step the engine (`batch.step`) and update the caps from what happened."""
        b = self.batch
        n = self.n
        rows = self._rows[: actions.size]
        cur = st.cur.copy()
        ctx = st.ctx.copy()
        pending = st.pending.copy()
        caps = self.caps
        plays = live & (actions < ACTION_DRAW)
        draws = live & (actions == ACTION_DRAW)
        st = b.step(st, actions)
        # A play: what it showed the player holds no longer bounds it.
        g = rows[plays]
        card = b.play_card[actions[g]]
        kind = np.where(card == W, 5, np.array([c & 7 for c in CARDS], np.int64)[card])
        caps[g, cur[g], kind] = -1
        # A draw of one card (not a pick) under a called symbol: none of it, and no WHOT where a
        # WHOT could have gone on; then every bounded kind grows by the cards drawn.
        g = rows[draws]
        p = cur[g]
        sym = b.ctx_sym[ctx[g]]
        told = (pending[g] == 0) & (sym >= 0)
        t = g[told]
        caps[t, p[told], sym[told]] = 0
        if self.whot_on_whot:
            caps[t, p[told], 5] = 0
        else:
            top_whot = b.ctx_num[ctx[t]] == -1
            caps[t[~top_whot], p[told][~top_whot], 5] = 0
        drawn = np.maximum(pending[g], 1)
        row = caps[g, p]
        caps[g, p] = np.where(row >= 0, np.minimum(row + drawn[:, None], CAP_MOST), row)
        # A general market: every other seat drew one.
        market = rows[plays][b.play_power[actions[plays]] == 5]
        if market.size:
            mover = cur[market]
            for k in range(1, n):
                q = (mover + k) % n
                row = caps[market, q]
                caps[market, q] = np.where(row >= 0, np.minimum(row + 1, CAP_MOST), row)
        return st
