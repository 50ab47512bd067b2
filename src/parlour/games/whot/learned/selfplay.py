"""Whot! self-play on the batched engine, for the generic trainer (`parlour.learn.trainer`).

B games of `WhotBatch` go on side by side; whenever one ends, the next seed is dealt in its place
(`parlour.vector.Dealer`). Each step gives the trainer the features of every mover's view
(`features.Features.derive` over `WhotBatch.observe` and the caps kept by `CapsTracker`) and the
legal moves, takes one action per game, and reports the games that ended with every seat's return:
+1 for a winner, -1 for the others (the engine's `rewards`). A game still going after `max_moves`
moves is stopped and scored as the engine scores a market that runs dry: the fewest cards win,
so no game is left unscored and none runs for ever (uniformly random two-player Nigerian games
average about 10,000 moves; a trained player's, about 60). The network starts from the sheets'
rule of thumb, play when you can (`action_prior`), so even the first games end.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.games.whot.encoding import WhotEncoding
from parlour.vector import Dealer

from ..batched.engine import ACTION_DRAW, NUM_ACTIONS, WhotBatch, hand_sizes
from .features import PAIR, CapsTracker, Features, PairTables, action_table

__all__ = ["WhotSelfPlay"]

I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]


class WhotSelfPlay:
    """B games of Whot! in self-play (the trainer's `SelfPlay` protocol)."""

    game = "whot"

    def __init__(
        self, players: int, rules: str, batch_size: int, seed: int, max_moves: int = 400
    ) -> None:
        import parlour

        self.batch = WhotBatch(players, rules)
        self.players = players
        self.rules_name = rules
        self.max_moves = max_moves
        ref = parlour.make("whot", players=players, rules=rules)
        self.features = Features.of(self.batch.rules, players, WhotEncoding(ref).layout.offsets)
        self.action_table = action_table(self.batch.rules)
        # The network starts from the rule of thumb of every sheet, play when you can: drawing
        # starts a little below any card. A random start draws by choice a third of the time, and
        # its games run to hundreds of moves before the first returns come in.
        self.action_prior = np.zeros(NUM_ACTIONS, np.float32)
        self.action_prior[ACTION_DRAW] = -0.3
        self.state_size = self.features.state_size
        self.skip = self.features.unread
        self.pair_size = PAIR
        self.num_actions = NUM_ACTIONS
        self.size = batch_size
        # Game seeds from the run's seed: a long stream, well away from the ladder's small seeds.
        first = int(np.random.default_rng([seed, 77]).integers(2**40, 2**50))
        self.dealer = Dealer(self.batch, first, chunk=max(256, min(batch_size, 4096)))
        self.st = self.dealer.next(batch_size)
        self.tracker = CapsTracker(self.batch, batch_size)
        self.games_dealt = batch_size
        self.cut = 0  # games stopped at max_moves

    def meta(self) -> dict[str, Any]:
        return {
            "game": "whot",
            "rules": self.rules_name,
            "players": self.players,
            "state_size": self.state_size,
            "pair_size": self.pair_size,
            "features": "whot-1",
        }

    def observe(self) -> tuple[F32, PairTables, npt.NDArray[np.uint64], I64]:
        """Every game's mover: state features (B, S), the pair features' tables (read by
        `tables.pairs(rows, ids)`), legal bits (B,) and the mover's seat (B,)."""
        st = self.st
        obs = self.batch.observe(st, skip=self.skip)
        caps = self.tracker.relative(st.cur)
        state, tables = self.features.derive(obs, caps)
        return state, tables, st.legal, st.cur

    def step(self, actions: I64) -> tuple[I64, F32]:
        """Play one action in every game; the games that ended (B-indices) and their seats'
        returns (k, players). Ended games are dealt anew in place."""
        st = self.st
        live = ~st.done
        st = self.tracker.step(st, actions, live)
        cut = ~st.done & (st.moves >= self.max_moves)
        if cut.any():
            g = np.flatnonzero(cut)
            sizes = hand_sizes(st.hands[g], st.hands2[g] if self.batch.two else None)
            st.winners[g] = sizes == sizes.min(axis=1, keepdims=True)
            st.done[g] = True
            self.cut += int(g.size)
        ended = np.flatnonzero(st.done)
        returns = np.where(st.winners[ended], 1.0, -1.0).astype(np.float32)
        if ended.size:
            self.dealer.replace(st, ended)
            self.tracker.reset(ended)
            self.games_dealt += int(ended.size)
        self.st = st
        return ended, returns

    # --- checkpoints ----------------------------------------------------------------------------
    def get_state(self) -> dict[str, Any]:
        return {
            "st": self.st,
            "caps": self.tracker.caps,
            "dealer": (self.dealer.next_seed, self.dealer._size, self.dealer.pool, self.dealer.at),
            "dealer_dealt": self.dealer.dealt,
            "games_dealt": self.games_dealt,
            "cut": self.cut,
        }

    def set_state(self, data: dict[str, Any]) -> None:
        self.st = data["st"]
        self.tracker.caps = data["caps"]
        d = self.dealer
        d.next_seed, d._size, d.pool, d.at = data["dealer"]
        d.dealt = data["dealer_dealt"]
        self.games_dealt = data["games_dealt"]
        self.cut = data["cut"]
