"""A batched Whot! engine: B games stepped in lockstep on arrays, move for move the reference's.

`WhotBatch(players, rules)` compiles a rule set into lookup tables; its methods are functions of a
`WhotArrays` (the state of B games, every field an array whose first axis is the game):

    batch = WhotBatch(players=2, rules="nigerian")
    st = batch.deal(seeds)                 # the games `parlour.make(...).new_game(seed=s)` deals
    mask = batch.legal_mask(st)            # (B, 57) bool, `WhotEncoding`'s action ids
    st = batch.step(st, actions)           # one move in every game that is not over
    obs = batch.observe(st)                # (B, obs) float32, `WhotEncoding.observe` of the mover

Same seed and same action ids give the same legal actions, player to move, end and result as the
reference engine (`parlour.games.whot.engine`); tests/vector checks it game by game. The
manifest names it (`batched`), so `parlour.vector.batched("whot", players, rules)` builds it.

How the reference's game maps onto arrays (one row per game):

* A hand is one uint64: bit i (i < 49) is the numbered card `CARDS[i]` (one pack holds each
  once), and bits 56..58 count the WHOTs. Every card adds its own `CARD_DELTA` (a bit, or one
  WHOT), so taking or playing a card is one add or subtract. The legal actions are one AND with a
  table row chosen by the call (`ctx`): bit a of `legal` is action a (bits 49..53, the five WHOT
  calls, stand for "holds a WHOT").
* The pack is a row of card indices with a length; its end is its top, as in the reference. The
  reference shuffles a whole pack at once (`random.Random.shuffle`, Fisher-Yates from the end);
  here the shuffle is done lazily, one Fisher-Yates step per card drawn: step i only swaps slot i
  with a slot below it and fixes slot i for good, so the top card drawn is the same, and the
  generator is read in the same order. The generator is only read by shuffles, and the next
  shuffle comes when the pack is empty, i.e. when every step of the last one has been done, so
  the stream stays aligned with the reference's. (`shuffled` marks a pack still being shuffled;
  a Storey turn-over pack is not shuffled.)
* Each game's `random.Random(seed)` is its current block of 624 outputs, in a row padded with
  words no bound accepts, and a position in it (`parlour.vector._mt`: the generic Mersenne
  Twister on arrays).
* The pile is a row of card indices in the order played (a reshuffle reads it in that order).

The NumPy code updates the state in place and returns it; callers use the returned state, so a
functional backend (JAX: `x.at[i].set(v)`) can return a new one. Work is done on the games that
need it (`flatnonzero` subsets); a jitted backend would mask the full batch instead (see
docs/vector.md, "The JAX seam").
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.core import RulesError
from parlour.games.whot.cards import PACK, WHOT, card_points
from parlour.games.whot.rules import PICK_AMOUNT, PRESETS, WhotRules
from parlour.vector import _mt

__all__ = [
    "ACTION_DRAW",
    "ACTION_END",
    "ACTION_PASS",
    "CARDS",
    "NUM_ACTIONS",
    "WhotArrays",
    "WhotBatch",
    "pick_legal",
    "popcount",
    "unpack_bits",
    "unsupported",
]

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]
F32 = npt.NDArray[np.float32]

#: The 50 distinct cards (49 numbered, then WHOT) as `WhotEncoding.CARDS` orders them: by number,
#: then symbol. A card's index here is its action id (`play <card>`), and WHOT's is 49.
CARDS: tuple[int, ...] = tuple(sorted(set(PACK)))
K = len(CARDS)
W = K - 1  # the WHOT's index
assert CARDS[W] == WHOT
N_CARDS = len(PACK)  # 54: one pack (two packs hold 108)
#: Action ids, as `WhotEncoding` numbers them for rules without declarations or WHOT powers:
#: 0..48 play a numbered card, 49..53 play a WHOT calling circle..star, then draw, end, pass.
ACTION_WHOT = W
ACTION_DRAW = W + 5
ACTION_END = ACTION_DRAW + 1
ACTION_PASS = ACTION_DRAW + 2
NUM_ACTIONS = ACTION_PASS + 1
DRAW_BIT = 1 << ACTION_DRAW
WHOT_BITS = 0x1F << ACTION_WHOT  # the five WHOT calls: a hand holding a WHOT has them all
NUMBERED_BITS = (1 << W) - 1
WHOT_SHIFT = 56  # a hand's WHOT count: bits 56..58

# A call ("context") is what the next card must follow: 0 is free (any card, as before the first
# play of Storey's rules or after a WHOT turned up), 1 + 16 * symbol + (number + 1) a symbol and
# a number (number -1 after a WHOT: its call names only a symbol). A pending pick adds N_CALLS.
FREE = 0
N_CALLS = 1 + 5 * 16
_POWER_CODES = {"hold_on": 1, "pick_two": 2, "pick_three": 3, "suspension": 4, "general_market": 5}
_ADVANCE = (1, 0, 1, 1, 2, 0)  # seats the turn moves on after a card with that power code
_MARKET = 5

_CARD_INDEX = {c: i for i, c in enumerate(CARDS)}
_U1 = np.uint64(1)
_NUMBERED = np.uint64(NUMBERED_BITS)
_DRAW = np.uint64(DRAW_BIT)
_WHOT_OR_DRAW = np.uint64(WHOT_BITS | DRAW_BIT)
_WHOT_SHIFT = np.uint64(WHOT_SHIFT)
_ZERO = np.uint64(0)
_WINDOW = 8  # generator outputs read at once by `_take_tops`
_OFFSETS = np.arange(_WINDOW, dtype=np.int64)
_ROW = _mt.BLOCK + _WINDOW  # a generator's row: its block, then words no bound accepts
_PAD = np.uint32(0xFFFFFFFF)  # (its top k bits are 2**k - 1 >= any bound n < 2**k)
_ROWS = np.arange(1 << 20, dtype=np.int64)  # row numbers to slice (a window per game)


def _call(sym: int, num: int) -> int:
    return 1 + 16 * sym + num + 1


def unsupported(rules: WhotRules, players: int) -> list[str]:
    """What in `rules` (at a table of `players`) this engine does not implement; [] if none."""
    out = []
    if rules.whot_powers:
        out.append("WHOT powers (reverse, skip)")
    if rules.straights != "off" or rules.double_decking != "off":
        out.append("turns of several cards (straights, double decking)")
    if rules.knockout:
        out.append("knock-out Whot")
    if rules.star_doubling:
        out.append("star doubling")
    if rules.nothing_to_draw != "end":
        out.append(f"nothing_to_draw={rules.nothing_to_draw!r}")
    if rules.declarations:
        out.append("declarations")
    if rules.pick_reverses:
        out.append("pick cards that reverse the direction")
    if rules.opening_special != "inert":
        out.append(f"opening_special={rules.opening_special!r}")
    if not 2 <= players <= 8:
        out.append(f"{players} players (2..8)")
    try:
        rules.for_table(players)  # the packs, and whether the deal fits them
    except RulesError as exc:
        out.append(str(exc))
    return out


@dataclass
class WhotArrays:
    """The state of B games; every field's first axis is the game. P is the number of players.

    Hidden information (hands, pack, generator) sits next to public information: `WhotBatch.observe`
    reads only what the player to move may see, as `WhotEncoding.observe` does."""

    seed: I64  # (B,) the game's seed (`new_game(seed=...)`)
    hands: U64  # (B, P) each seat's hand (see the module docstring)
    hands2: U64  # (B, P) with two packs, the numbered cards a hand holds twice (bits as `hands`)
    known: U64  # (B, P) what all saw each seat draw from a turned-over pack, as hands
    known2: U64  # (B, P) ... and the known cards held twice
    pack: npt.NDArray[np.int8]  # (B, 54 * packs) card indices; pack[:, pack_len - 1] is the top
    pack_len: I64  # (B,)
    shuffled: Bools  # (B,) the pack is being shuffled, one Fisher-Yates step per card drawn
    public: Bools  # (B,) the pack's order is public (a Storey turn-over)
    pile: npt.NDArray[np.int8]  # (B, 54 * packs) card indices in the order played, call card last
    pile_len: I64  # (B,)
    ctx: I64  # (B,) the call: FREE or 1 + 16 * symbol + number + 1
    pending: I64  # (B,) cards the player to move must pick unless they answer
    cur: I64  # (B,) the player to move (the last mover once the game is over)
    mover: I64  # (B,) the player who made the last move (-1 before the first)
    done: Bools  # (B,)
    winners: Bools  # (B, P)
    points: npt.NDArray[np.int16]  # (B, P) each hand's count once the game is over
    by_count: Bools  # (B,) ended because a draw could not be supplied (hands counted)
    moves: I64  # (B,) moves made
    legal: U64  # (B,) bit a set when action a is legal for the player to move
    mt: npt.NDArray[np.uint32]  # (B, 632) each game's current block of generator outputs, padded
    mt_pos: I64  # (B,) the next unread output in the block

    @property
    def batch_size(self) -> int:
        return int(self.cur.shape[0])

    def copy(self) -> WhotArrays:
        return WhotArrays(**{f: getattr(self, f).copy() for f in _FIELDS})

    def take(self, index: Any) -> WhotArrays:
        """The games at `index` (an index array, a slice or a boolean mask), as a new state."""
        return WhotArrays(**{f: getattr(self, f)[index] for f in _FIELDS})

    def put(self, index: Any, other: WhotArrays, source: Any = slice(None)) -> None:
        """Overwrite the games at `index` with the games of `other` at `source` (in order)."""
        for f in _FIELDS:
            getattr(self, f)[index] = getattr(other, f)[source]

    @staticmethod
    def concat(parts: list[WhotArrays]) -> WhotArrays:
        """The games of `parts`, one after the other."""
        return WhotArrays(**{f: np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS})


_FIELDS = tuple(f.name for f in fields(WhotArrays))


class WhotBatch:
    """Whot! for B games at once, under one rule set at one table size (see the module doc)."""

    def __init__(self, players: int = 2, rules: str | WhotRules = "nigerian") -> None:
        if isinstance(rules, str):
            if rules not in PRESETS:
                raise ValueError(f"unknown Whot! preset {rules!r}; presets: {', '.join(PRESETS)}")
            self.preset: str | None = rules
            rules = PRESETS[rules]
        else:
            self.preset = None
        missing = unsupported(rules, players)
        if missing:
            raise NotImplementedError(
                "the batched Whot! engine does not implement: " + "; ".join(missing)
            )
        self.rules = rules = rules.for_table(players)  # `packs` as the reference plays it
        self.players = players
        self.two = rules.packs == 2
        self.n_cards = N_CARDS * rules.packs
        self.num_actions = NUM_ACTIONS
        self._build_tables()

    # --- tables ----------------------------------------------------------------------------------
    def _build_tables(self) -> None:
        r = self.rules
        power_of = {n: _POWER_CODES[p] for n, p in r.power_of.items()}
        # The pack before its shuffle, as `list(PACK) * packs`: by symbol then number, the WHOTs
        # last (then the second pack, the same).
        self.pack0 = np.array([_CARD_INDEX[c] for c in PACK] * r.packs, np.int8)
        self.card_delta = np.array([1 << i for i in range(W)] + [1 << WHOT_SHIFT], np.uint64)
        self.card_points = np.array([card_points(c) for c in CARDS], np.int64)
        self.numbered_points = self.card_points[:W]
        # What a play does, by action id (0..53): the call it leaves and its power.
        play_ctx = [_call(c & 7, c >> 3) for c in CARDS[:W]] + [_call(s, -1) for s in range(5)]
        self.play_ctx = np.array(play_ctx, np.int64)
        power = [power_of.get(c >> 3, 0) for c in CARDS[:W]] + [0] * 5
        self.play_power = np.array(power, np.int64)
        self.play_advance = np.array([_ADVANCE[p] for p in power], np.int64)
        pick_add = {2: PICK_AMOUNT["pick_two"], 3: PICK_AMOUNT["pick_three"]}
        self.play_pick = np.array([pick_add.get(p, 0) for p in power], np.int64)
        self.play_card = np.array(list(range(W)) + [W] * 5, np.int64)
        # What may follow each call (plus the draw where it is always allowed): the reference's
        # `_legal_moves` / `_legal_in_general` for these rules, as bit sets of action ids.
        follow = np.zeros(2 * N_CALLS, np.uint64)
        draw_always = DRAW_BIT if r.may_draw_instead else 0
        follow[FREE] = NUMBERED_BITS | WHOT_BITS | draw_always
        for sym in range(5):
            for num in range(-1, 15):
                ctx = _call(sym, num)
                bits = sum(1 << i for i, c in enumerate(CARDS[:W]) if c & 7 == sym or c >> 3 == num)
                if r.whot_on_whot or num != -1:  # num -1: the call card is a WHOT
                    bits |= WHOT_BITS
                follow[ctx] = bits | draw_always
                # A pending pick (its number is the call card's): the same number answers it
                # (pick_stacking), a WHOT too if the rules say so, and drawing is always allowed.
                pick = 0
                if r.pick_stacking:
                    pick = sum(1 << i for i, c in enumerate(CARDS[:W]) if c >> 3 == num)
                if r.whot_answers_pick:
                    pick |= WHOT_BITS
                follow[N_CALLS + ctx] = pick | DRAW_BIT
        self.follow = follow
        # Cards that may not be a player's last (may_finish_on_special=False): those with powers.
        self.special_bits = np.uint64(
            0
            if r.may_finish_on_special
            else sum(1 << i for i, c in enumerate(CARDS[:W]) if (c >> 3) in power_of)
        )
        self.ctx_sym = np.full(2 * N_CALLS, -1, np.int64)
        self.ctx_num = np.full(2 * N_CALLS, -1, np.int64)
        for sym in range(5):
            for num in range(-1, 15):
                for ctx in (_call(sym, num), N_CALLS + _call(sym, num)):
                    self.ctx_sym[ctx], self.ctx_num[ctx] = sym, num
        self.turn_over = r.empty_pack == "turn-over"
        self.market_ends = r.empty_pack == "end"
        # bit_length(n) for the bounds Fisher-Yates asks for (n <= 108): `getrandbits(k)` keeps
        # the top k bits of a 32-bit output, i.e. shifts it right by 32 - k.
        self.rand_shift = np.array([32 - max(n, 1).bit_length() for n in range(129)], np.uint32)

    # --- dealing ---------------------------------------------------------------------------------
    def empty(self, size: int) -> WhotArrays:
        """`size` games with nothing dealt (a buffer to `put` games into)."""
        p = self.players
        return WhotArrays(
            seed=np.zeros(size, np.int64),
            hands=np.zeros((size, p), np.uint64),
            hands2=np.zeros((size, p), np.uint64),
            known=np.zeros((size, p), np.uint64),
            known2=np.zeros((size, p), np.uint64),
            pack=np.zeros((size, self.n_cards), np.int8),
            pack_len=np.zeros(size, np.int64),
            shuffled=np.zeros(size, np.bool_),
            public=np.zeros(size, np.bool_),
            pile=np.zeros((size, self.n_cards), np.int8),
            pile_len=np.zeros(size, np.int64),
            ctx=np.zeros(size, np.int64),
            pending=np.zeros(size, np.int64),
            cur=np.zeros(size, np.int64),
            mover=np.full(size, -1, np.int64),
            done=np.zeros(size, np.bool_),
            winners=np.zeros((size, p), np.bool_),
            points=np.zeros((size, p), np.int16),
            by_count=np.zeros(size, np.bool_),
            moves=np.zeros(size, np.int64),
            legal=np.zeros(size, np.uint64),
            mt=np.full((size, _ROW), _PAD, np.uint32),
            mt_pos=np.zeros(size, np.int64),
        )

    def deal(self, seeds: Any) -> WhotArrays:
        """New games, one per seed: what `WhotGame.new_game(seed=s)` deals (dealer: last seat).

        Seeds are ints 0 <= s < 2**63. Seeding runs CPython's `random.Random(seed)` per game
        (about ten microseconds each); the shuffle and the deal are array operations over all
        games."""
        seeds = np.asarray(seeds, dtype=np.int64).reshape(-1)
        if seeds.size and seeds.min() < 0:
            raise ValueError("seeds must be non-negative")
        b = int(seeds.size)
        st = self.empty(b)
        st.seed[:] = seeds
        st.mt[:, : _mt.BLOCK] = _mt.seed_block(seeds.tolist())
        st.pack[:] = self.pack0
        st.pack_len[:] = self.n_cards
        st.shuffled[:] = True
        games = np.arange(b, dtype=np.int64)
        n = self.players
        # seed 000: one card at a time to the player on the dealer's left and round the table;
        # the dealer is the last seat, so seat 0 is served first and leads.
        hands, hands2 = st.hands.reshape(-1), st.hands2.reshape(-1)
        base, row = games * self.n_cards, games * _ROW
        for _ in range(self.rules.deal):
            for seat in range(n):
                card = self._take_tops(st, games, st.pack_len, base, row)
                self._add(hands, hands2, games * n + seat, card)
        if self.rules.opening == "turn-up":
            top = self._take_tops(st, games, st.pack_len, base, row)
            st.pile[:, 0] = top
            st.pile_len[:] = 1
            st.ctx[:] = np.where(top == W, FREE, self.play_ctx[np.minimum(top, W - 1)])
        self._update_legal(st, games)
        return st

    # --- the rules -------------------------------------------------------------------------------
    def legal_mask(self, st: WhotArrays) -> Bools:
        """(B, num_actions) bool: True at the legal actions of the player to move (none if over)."""
        return unpack_bits(st.legal, self.num_actions)

    def step(self, st: WhotArrays, actions: Any, active: Bools | None = None) -> WhotArrays:
        """Apply one action id per game. Games that are over, and games where `active` is False,
        ignore theirs. An illegal action in a game that moves raises ValueError and changes
        nothing. Returns the state."""
        a = np.asarray(actions).astype(np.int64, copy=False).reshape(-1)
        b = st.batch_size
        if a.shape[0] != b:
            raise ValueError(f"step needs {b} actions, got {a.shape[0]}")
        live = ~st.done if active is None else ~st.done & active
        in_range = (a >= 0) & (a < self.num_actions)
        bit = (st.legal >> np.where(in_range, a, 0).astype(np.uint64)) & _U1
        bad = live & ~(in_range & (bit != 0))
        if bad.any():
            g = int(np.flatnonzero(bad)[0])
            legal = np.flatnonzero(unpack_bits(st.legal[g : g + 1], self.num_actions)[0])
            raise ValueError(
                f"action {int(a[g])} is not legal in game {g} (seed {int(st.seed[g])}); "
                f"legal: {legal.tolist()}"
            )
        n = self.players
        cur = st.cur
        st.mover[live] = cur[live]
        st.moves[live] += 1
        plays = np.flatnonzero(live & (a < ACTION_DRAW))
        draws = np.flatnonzero(live & (a == ACTION_DRAW))
        market = self._play(st, plays, a[plays])
        # Cards to hand out: a draw gives the drawer the whole pending pick (or one card); a general
        # market gives one card to every other player, in order round the table.
        takers = np.concatenate([draws, market])
        first = np.concatenate([cur[draws], (cur[market] + 1) % n])
        count = np.concatenate([np.maximum(st.pending[draws], 1), np.full(market.size, n - 1)])
        turn = np.concatenate([np.zeros(draws.size, np.int64), np.ones(market.size, np.int64)])
        st.pending[draws] = 0
        st.cur[draws] = (cur[draws] + 1) % n
        self._hand_out(st, takers, first, count, turn)
        over = live & st.done
        st.cur[over] = st.mover[over]  # no one is to move: `cur` keeps the last mover
        self._update_legal(st, np.flatnonzero(live))
        return st

    def _play(self, st: WhotArrays, g: I64, a: I64) -> I64:
        """Play action `a` (0..53) in games `g`; returns the games where a general market is due."""
        n = self.players
        p = st.cur[g]
        f = g * n + p  # flat (game, seat)
        ci = self.play_card[a]
        delta = self.card_delta[ci]
        hands = st.hands.reshape(-1)
        if self.two:  # a card held twice leaves its second copy first
            hands2 = st.hands2.reshape(-1)
            h2 = hands2[f]
            twice = (ci < W) & ((h2 & delta) != 0)
            hands2[f] = h2 & ~np.where(twice, delta, _ZERO)
            left = hands[f] - np.where(twice, _ZERO, delta)
        else:
            left = hands[f] - delta
        hands[f] = left  # (a card in `hands2` is in `hands` too: an empty `hands` is a won game)
        if self.turn_over:  # a known card leaves the hand: one known copy of it goes, if any
            known = st.known.reshape(-1)
            k = known[f]
            if self.two:
                known2 = st.known2.reshape(-1)
                k2 = known2[f]
                twice = (ci < W) & ((k2 & delta) != 0)
                known2[f] = k2 & ~np.where(twice, delta, _ZERO)
                held = ~twice & np.where(ci == W, (k >> _WHOT_SHIFT) != 0, (k & delta) != 0)
            else:
                held = np.where(ci == W, (k >> _WHOT_SHIFT) != 0, (k & delta) != 0)
            known[f] = k - delta * held
        pile = st.pile.reshape(-1)
        pile[g * self.n_cards + st.pile_len[g]] = ci
        st.pile_len[g] += 1
        st.ctx[g] = self.play_ctx[a]
        # A WHOT answering a pick cancels it (whot_answers_pick); a pick card adds to it.
        st.pending[g] = np.where(ci == W, 0, st.pending[g] + self.play_pick[a])
        won = left == 0
        if won.any():
            self._finish(st, g[won], p[won])
        st.cur[g] = (p + self.play_advance[a]) % n  # hold on and general market: play again
        market: I64 = g[(self.play_power[a] == _MARKET) & ~won]
        return market

    def _hand_out(self, st: WhotArrays, g: I64, seat: I64, count: I64, turn: I64) -> None:
        """Give one card at a time: `count[i]` cards in game `g[i]`, to `seat[i]`, moving on by
        `turn[i]` seats after each card. A draw the pack cannot supply ends the game, and so, with
        empty_pack=end, does taking the market's last card.

        One round per card: a game's cards come one after another (each is a Fisher-Yates step
        and a read of its generator), so the rounds go on while some game still has cards to
        get. The games are sorted by their number of cards, most first, so the games served at
        round t are the first `served[t]`: every round works on views, not on copies."""
        if not g.size:
            return
        n = self.players
        order = np.argsort(-count, kind="stable")
        g, count, seat, turn = g[order], count[order], seat[order], turn[order]
        f = g * n + seat
        # Per game, kept in the sorted order and sliced each round: the pack's size (written
        # back at the end) and the offsets of its pack and generator rows in the flat arrays.
        size = st.pack_len[g]
        base, row = g * self.n_cards, g * _ROW
        served = _served(count)
        markets = bool(turn.any())
        hands, hands2 = st.hands.reshape(-1), st.hands2.reshape(-1)
        t = 0
        while t < len(served):
            m = served[t]
            gt, sz = g[:m], size[:m]
            empty = sz == 0
            if empty.any():
                ended = self._refill(st, gt[empty], empty)
                sz[empty & ~ended] = st.pack_len[gt[empty & ~ended]]
                if ended.any():  # those games are over: they get no more cards
                    st.pack_len[gt[ended]] = 0
                    keep = np.ones(g.size, np.bool_)
                    keep[:m] = ~ended
                    g, count, seat, turn, f = g[keep], count[keep], seat[keep], turn[keep], f[keep]
                    size, base, row = size[keep], base[keep], row[keep]
                    served = [0] * t + _served(count)[t:]
                    continue
            card = self._take_tops(st, gt, sz, base[:m], row[:m])
            ft = f[:m]
            self._add(hands, hands2, ft, card)
            if self.turn_over:
                pub = st.public[gt]
                if pub.any():
                    self._add(st.known.reshape(-1), st.known2.reshape(-1), ft[pub], card[pub])
            t += 1
            if self.market_ends:
                # empty_pack=end: the game is over as soon as its last card is taken, with that
                # card in the hand; its other cards are not handed out.
                out = sz == 0
                if out.any():
                    over = gt[out]
                    st.pack_len[over] = 0
                    self._finish_by_count(st, over)
                    keep = np.ones(g.size, np.bool_)
                    keep[:m] = ~out
                    g, count, seat, turn, f = g[keep], count[keep], seat[keep], turn[keep], f[keep]
                    size, base, row = size[keep], base[keep], row[keep]
                    served = [0] * t + _served(count)[t:]
            if markets and t < n - 1:  # a general market: the next card goes to the next seat
                seat = (seat + turn) % n
                f = g * n + seat
        st.pack_len[g] = size

    def _add(self, hands: U64, hands2: U64, f: I64, card: npt.NDArray[np.int8]) -> None:
        """Put card `card[i]` into the flat hand `f[i]` (distinct seats): one add, or with two
        packs a numbered card already held goes to `hands2`."""
        delta = self.card_delta[card]
        if not self.two:
            hands[f] += delta
            return
        held = hands[f]
        twice = (card < W) & ((held & delta) != 0)
        hands2[f] |= np.where(twice, delta, _ZERO)
        hands[f] = held + np.where(twice, _ZERO, delta)

    def _take_tops(
        self, st: WhotArrays, g: I64, size: I64, base: I64, row: I64
    ) -> npt.NDArray[np.int8]:
        """Take the top card of the (non-empty) packs of games `g`, of `size` cards (a view the
        caller keeps: decremented here; `st.pack_len` is the caller's to update). `base` and
        `row` are the offsets of the games' packs and generator rows in the flat arrays.

        A pack being shuffled does the Fisher-Yates step for its top slot first: swap it with
        the slot `random.Random._randbelow(size)` from the game's stream. A last card, or a
        turned-over pack, needs no step and reads nothing.

        `_randbelow` keeps the top k = size.bit_length() bits of one output and retries while
        they are >= size. Each game reads the next `_WINDOW` outputs at once and keeps the first
        below size (each is rejected with probability under 1/2, so eight in a row are rare):
        one pass of array operations instead of one per rejection. A block is followed in its
        row by `_WINDOW` words of all ones, which every bound rejects, so a window may run past
        the block's end. Games that rejected all of their window go on output by output."""
        step = size > 1
        if self.turn_over:
            step &= st.shuffled[g]
        pos = st.mt_pos
        at = pos[g]
        r = st.mt.reshape(-1)[(row + at)[:, None] + _OFFSETS] >> self.rand_shift[size][:, None]
        ok = r < size[:, None]
        first = ok.argmax(axis=1)
        rows = _ROWS[: g.size]
        use = step & ok[rows, first]
        pos[g] = at + np.where(use, first + 1, 0)
        top = size - 1
        j = np.where(use, r[rows, first], top)
        slow = step ^ use  # shuffled, but the whole window was rejected
        if slow.any():
            k = np.flatnonzero(slow)
            pos[g[k]] = np.minimum(at[k] + _WINDOW, _mt.BLOCK)  # the block's words were spent
            j[k] = self._randbelow_slow(st, g[k], size[k], self.rand_shift[size[k]])
        pack = st.pack.reshape(-1)
        fj = base + j
        card: npt.NDArray[np.int8] = pack[fj]
        pack[fj] = pack[base + top]
        size -= 1
        return card

    def _randbelow_slow(self, st: WhotArrays, g: I64, n: I64, shift: npt.NDArray[np.uint32]) -> I64:
        """`_randbelow` one output at a time, twisting a game's block when it is used up."""
        out = np.empty(g.size, np.int64)
        slot = np.arange(g.size)
        mt, pos = st.mt.reshape(-1), st.mt_pos
        while True:
            at = pos[g]
            spent = at >= _mt.BLOCK
            if spent.any():
                t = g[spent]
                st.mt[t, : _mt.BLOCK] = _mt.next_block(st.mt[t, : _mt.BLOCK])
                pos[t] = 0
                at = pos[g]
            r = (mt[g * _ROW + at] >> shift).astype(np.int64)
            pos[g] = at + 1
            ok = r < n
            out[slot[ok]] = r[ok]
            if ok.all():
                return out
            bad = ~ok
            g, n, shift, slot = g[bad], n[bad], shift[bad], slot[bad]

    def _refill(self, st: WhotArrays, g: I64, where: Bools) -> Bools:
        """Refill the empty packs of games `g` (those at `where` among the caller's games) from
        the pile; returns, over the caller's games, which could not be refilled and ended."""
        ended = np.zeros(where.shape, np.bool_)
        size = st.pile_len[g]
        can = size > 1
        if self.rules.empty_pack == "end":
            can[:] = False
        if not can.all():
            self._finish_by_count(st, g[~can])
            ended[np.flatnonzero(where)[~can]] = True
            g, size = g[can], size[can]
        if g.size:
            under = size - 1
            pile = st.pile.reshape(-1)
            start = g * self.n_cards
            top = pile[start + under]
            if self.turn_over:
                # seed 000: the played cards turned face down without shuffling: the first card
                # played ends up on top, and everyone saw the order.
                idx = np.maximum(under[:, None] - 1 - np.arange(self.n_cards), 0)
                st.pack[g] = np.take_along_axis(st.pile[g], idx, axis=1)
                st.shuffled[g] = False
                st.public[g] = True
            else:
                # seed 002: shuffled (lazily: see the module docstring) into a new market. Every
                # pack of these rules is shuffled and none is public: no flag changes.
                st.pack[g] = st.pile[g]
            st.pack_len[g] = under
            pile[start] = top
            st.pile_len[g] = 1
        return ended

    def _finish(self, st: WhotArrays, g: I64, winner: I64) -> None:
        st.done[g] = True
        st.winners[g] = False
        st.winners[g, winner] = True
        st.points[g] = self._points(st, g)
        st.pending[g] = 0

    def _finish_by_count(self, st: WhotArrays, g: I64) -> None:
        pts = self._points(st, g)
        st.done[g] = True
        st.by_count[g] = True
        st.points[g] = pts
        st.winners[g] = pts == pts.min(axis=1, keepdims=True)
        st.pending[g] = 0

    def _points(self, st: WhotArrays, g: I64) -> npt.NDArray[np.int16]:
        """seed 000: a hand scores the numbers on its cards, stars double, a WHOT 20."""
        hands = st.hands[g].reshape(-1)
        held = unpack_bits(hands, W).astype(np.int64) @ self.numbered_points
        if self.two:
            held += unpack_bits(st.hands2[g].reshape(-1), W).astype(np.int64) @ self.numbered_points
        pts = held + 20 * (hands >> _WHOT_SHIFT).astype(np.int64)
        return pts.reshape(g.size, self.players).astype(np.int16)

    def _update_legal(self, st: WhotArrays, g: I64) -> None:
        """Recompute `legal` in games `g` for the player to move (0 once a game is over)."""
        f = g * self.players + st.cur[g]
        ctx = st.ctx[g] + N_CALLS * (st.pending[g] > 0)
        hand = st.hands.reshape(-1)[f]  # the cards held (once or twice) and the WHOT count
        # The numbered cards held, the five WHOT calls when a WHOT is held, and the draw (the
        # table says whether drawing is always allowed).
        calls = np.where((hand >> _WHOT_SHIFT) != 0, _WHOT_OR_DRAW, _DRAW)
        if self.special_bits:  # may_finish_on_special=False: no power card as the last card
            last = hand_sizes(hand, st.hands2.reshape(-1)[f] if self.two else None) == 1
            hand = np.where(last, hand & ~self.special_bits, hand)
        legal = ((hand & _NUMBERED) | calls) & self.follow[ctx]
        if not self.rules.may_draw_instead:  # drawing only when nothing can be played
            legal |= np.where(legal == 0, np.uint64(DRAW_BIT), np.uint64(0))
        legal[st.done[g]] = 0
        st.legal[g] = legal

    # --- results and observations ----------------------------------------------------------------
    def rewards(self, st: WhotArrays) -> npt.NDArray[np.float32]:
        """(B, P): +1 for each winner and -1 for every other player of games that are over, as
        `parlour.adapters.encoding.outcome_rewards`; 0 while a game goes on."""
        r = np.where(st.winners, 1.0, -1.0).astype(np.float32)
        r[~st.done] = 0.0
        return r

    @property
    def observation_size(self) -> int:
        return sum(size for size, _, _ in self._fields(self.players))

    def observation_bounds(self) -> tuple[F32, F32]:
        """The low and high bounds of `observe`, as `WhotEncoding`'s."""
        n = self.players
        parts_low: list[float] = []
        parts_high: list[float] = []
        for size, low, high in self._fields(n):
            parts_low += [low] * size
            parts_high += [high] * size
        return np.array(parts_low, np.float32), np.array(parts_high, np.float32)

    def _fields(self, n: int) -> list[tuple[int, float, float]]:
        """(size, low, high) of `WhotEncoding`'s fields in order."""
        most, copies = float(self.n_cards), 5.0 * self.rules.packs
        return [
            (K, 0, copies),  # hand
            (K, 0, 1),  # call_card
            (5, 0, 1),  # call_symbol
            (1, 0, 1),  # free
            (K, 0, copies),  # pile
            (n, 0, most),  # counts
            (n * K, 0, copies),  # known
            (1, 0, most),  # pack_count
            (1, 0, 1),  # pack_public
            (K, 0, 1),  # pack_next
            (1, -1, 1),  # direction
            (1, 0, most),  # pending_pick
            (1, 0, 20),  # pick_number
            (1, 0, 1),  # pending_skip
            (1, 0, 1),  # turn_open
            (K, 0, copies),  # turn_cards
            (3, 0, 1),  # turn_said
            (1, -1, 1),  # straight_dir
            (n, 0, 1),  # to_play
            (1, 0, 1),  # is_over
        ]

    def observe(
        self, st: WhotArrays, viewer: Any = None, skip: frozenset[str] = frozenset()
    ) -> F32:
        """(B, observation_size) float32: `WhotEncoding.observe(state.view(viewer))` for each game.

        `viewer` defaults to the player to move, or, in a game that is over, the player who made
        the last move. Seats are relative to the viewer, as in the encoding. The fields named in
        `skip` (`known`, `pack_next`, `to_play`) are left 0, for a caller that never reads
        them."""
        n, b = self.players, st.batch_size
        if viewer is None:
            me = np.where(st.done, st.mover, st.cur)
        else:
            me = np.broadcast_to(np.asarray(viewer, np.int64), (b,))
        rows = np.arange(b)
        seats = (me[:, None] + np.arange(n)) % n  # relative seat k is seat (viewer + k) % n
        obs = np.zeros((b, self.observation_size), np.float32)
        at = 0

        def block(width: int) -> F32:
            nonlocal at
            view = obs[:, at : at + width]
            at += width
            return view

        hand = block(K)
        mine = st.hands[rows, me]
        hand[:, :W] = unpack_bits(mine, W)
        if self.two:
            hand[:, :W] += unpack_bits(st.hands2[rows, me], W)
        hand[:, W] = mine >> _WHOT_SHIFT
        call_card = block(K)
        has_pile = st.pile_len > 0
        top = st.pile[rows, np.maximum(st.pile_len - 1, 0)]
        call_card[rows[has_pile], top[has_pile]] = 1
        sym = self.ctx_sym[st.ctx]
        call_symbol = block(5)
        call_symbol[rows[sym >= 0], sym[sym >= 0]] = 1
        block(1)[:, 0] = st.ctx == FREE
        in_pile = np.arange(self.n_cards) < st.pile_len[:, None]
        pile = block(K)
        if self.two:  # the cards of the pile counted one by one
            flat = (rows[:, None] * K + st.pile.astype(np.int64))[in_pile]
            pile[:] = np.bincount(flat, minlength=b * K).reshape(b, K)
        else:  # the pile as a hand: one pack holds each numbered card once, the deltas never carry
            piled = np.where(in_pile, self.card_delta[st.pile], _ZERO).sum(axis=1, dtype=np.uint64)
            pile[:, :W] = unpack_bits(piled, W)
            pile[:, W] = piled >> _WHOT_SHIFT
        around = rows[:, None], seats
        block(n)[:] = hand_sizes(st.hands[around], st.hands2[around] if self.two else None)
        known = block(n * K).reshape(b, n, K)
        if "known" not in skip:
            theirs = st.known[around]
            known[:, :, :W] = unpack_bits(theirs.reshape(-1), W).reshape(b, n, W)
            if self.two:
                known[:, :, :W] += unpack_bits(st.known2[around].reshape(-1), W).reshape(b, n, W)
            known[:, :, W] = theirs >> _WHOT_SHIFT
        block(1)[:, 0] = st.pack_len
        block(1)[:, 0] = st.public
        pack_next = block(K)
        if "pack_next" not in skip:
            shown = st.public & (st.pack_len > 0)
            nxt = st.pack[rows, np.maximum(st.pack_len - 1, 0)]
            pack_next[rows[shown], nxt[shown]] = 1
        block(1)[:, 0] = 1  # direction: these rules never reverse it
        block(1)[:, 0] = st.pending
        pick = st.pending > 0
        block(1)[:, 0] = np.where(pick, self.ctx_num[st.ctx], 0)
        block(1)  # pending_skip: no WHOT skips here
        block(1)  # turn_open: one card per turn here
        block(K)  # turn_cards
        block(3)  # turn_said: no declarations here
        block(1)  # straight_dir
        to_play = block(n)
        if "to_play" not in skip:
            live = ~st.done
            to_play[rows[live], ((st.cur - me) % n)[live]] = 1
        block(1)[:, 0] = st.done
        assert at == self.observation_size
        # `WhotEncoding.observe` clips to the bounds; nothing here can exceed them (at most 54
        # cards anywhere per pack, 5 WHOTs per pack, a pick of 15 per pack: five 5s), so there is
        # nothing to clip.
        return obs


def _served(count: I64) -> list[int]:
    """For counts sorted in decreasing order, how many are above 0, 1, 2, … (while any is)."""
    most = int(count[0]) if count.size else 0
    return np.searchsorted(-count, -np.arange(most), side="left").tolist()  # type: ignore[no-any-return]


def unpack_bits(words: U64, width: int) -> Bools:
    """(len(words), width) bool: bit i of each uint64 word (little-endian bit order)."""
    as_bytes = np.ascontiguousarray(words, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1, count=width, bitorder="little").view(np.bool_)


def hand_sizes(hands: U64, twice: U64 | None = None) -> I64:
    """Cards in each hand: its numbered cards (bits), its WHOTs (the count above them) and, with
    two packs, the numbered cards it holds twice (`twice`, as `WhotArrays.hands2`)."""
    sizes = popcount(hands & _NUMBERED) + (hands >> _WHOT_SHIFT).astype(np.int64)
    return sizes if twice is None else sizes + popcount(twice)


def popcount(words: U64) -> I64:
    """Set bits per uint64 word (NumPy >= 2 has it built in; a byte table otherwise)."""
    count = getattr(np, "bitwise_count", None)
    if count is not None:
        return np.asarray(count(words), np.int64)
    return popcount_by_bytes(words)


def popcount_by_bytes(words: U64) -> I64:
    """`popcount` for NumPy 1.x, which has no `bitwise_count`: a table of the 256 bytes."""
    words = np.asarray(words)
    as_bytes = np.ascontiguousarray(words, dtype="<u8").view(np.uint8).reshape(*words.shape, 8)
    return np.asarray(_BYTE_POP[as_bytes].sum(axis=-1), np.int64)


_BYTE_POP = np.array([bin(i).count("1") for i in range(256)], np.int64)


def pick_legal(legal: U64, u: npt.NDArray[np.floating[Any]]) -> I64:
    """For each game, the legal action of rank floor(u * count) among its legal actions (bit
    order), so a uniform `u` in [0, 1) gives a uniformly random legal action. Games with no legal
    action (over) get an arbitrary id.

    A binary search over the 64-bit word down to the 16 bits that hold the wanted bit (two
    popcounts), then a table of where the r-th set bit of each 16-bit value is."""
    count = popcount(legal)
    rank = np.minimum((u * count).astype(np.int64), np.maximum(count - 1, 0))
    pos = np.zeros(legal.shape, np.int64)
    word = legal
    for width in (32, 16):
        low = popcount(word & np.uint64((1 << width) - 1))
        up = rank >= low  # the wanted bit is above the low `width` bits
        rank = rank - np.where(up, low, 0)
        pos += np.where(up, width, 0)
        word = np.where(up, word >> np.uint64(width), word)
    pos += _select16()[((word & np.uint64(0xFFFF)).astype(np.int64) << 4) + rank]
    return pos


_SELECT16: list[npt.NDArray[np.int8]] = []


def _select16() -> npt.NDArray[np.int8]:
    """Flat (65536 x 16) int8 table: entry 16 v + r is the position of the r-th set bit of v
    (1 MB, built on first use in a few tens of milliseconds)."""
    if not _SELECT16:
        v = np.arange(1 << 16, dtype=np.uint32)
        on = ((v[:, None] >> np.arange(16, dtype=np.uint32)) & 1).astype(np.bool_)
        # A stable sort of "not set" puts the set bits first, in increasing order.
        _SELECT16.append(np.argsort(~on, axis=1, kind="stable").astype(np.int8).reshape(-1))
    return _SELECT16[0]
