"""The Sorry! `expectimax` bot: each own move judged by the expectation over the card each
opponent may draw before the bot's next turn, every card counted rather than sampled.

The view shows every pawn, the card up and the discard pile; only the order of the pack is
hidden, so the chance of each card the next players draw is known (the cards not seen, counted).
For each legal move the bot takes each other colour in turn and every card it may draw, weighted
by its chance, and lets that colour play the card from the position the move leaves as the
`hint` bot would (`hint.move_scores`: the rules the search bots model the others by). Each reply
changes the learned utilities of the colours (values.py: `hint.evaluate`'s place values); the
expected changes are summed over the replies, the bot's own pawns counted once however many
opponents could bump them (a pawn the first sends back is not sent back again). To that it adds
`ahead` times what its own next card is expected to gain (the best move of each card, weighted by
its chance): what the place values, averaged over the game, do not see of this position — a pawn
just behind a slide, one a 4 backward takes round to the safety zone, a pawn in START when SORRY!
cards are left. The move is judged by the learned win chance, the softmax of the sides' expected
utilities at the bot's next turn.

The `ismcts` bot (100 iterations, the hard level) samples the same model and values, a hundred
futures shared among the moves; it also expands its own next move in its tree (the hint's move
first, then the others untried), so most of its leaves lie a round further on. Counting each
reply from the same position takes 11 hint replies a colour; the exact expectation over three
opponents in sequence takes up to 11³ and measured some 180 times slower (median 0.22 s a
decision, p99 4 s). Measured against `ismcts` with 100 iterations this bot is not stronger
(docs/sorry.md, Bots): a level above hard needs more than a noise-free first round.

The point-score game has hands, not a card up: there the bot plays as the hint bot does.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from parlour.bots.base import Bot, number_params
from parlour.core import Game, Move
from parlour.core.rng import GameRng

from .board import HOME
from .bots import best_move
from .cards import VALUES
from .engine import SorryGame, SorryState, _occupancy
from .hint import _VALUE, move_scores
from .notation import PASS, SorryMove
from .values import TURN_ORDER

__all__ = ["PARAMS", "ExpectimaxBot", "expected_chances"]

# The bot's parameters (`expectimax:ahead=0.5`): the weight of the own next card's expected gain.
PARAMS = {"ahead": 0.5}


class _Judge:
    """One decision's expectations, from a full state (any state showing the bot's view: only
    the pawns, the card up and the cards not seen are read). A scratch copy of it has its pawns,
    turn and card set to each position weighed: the move generator and the hint's scores read
    only those."""

    def __init__(self, state: SorryState, ahead: float) -> None:
        t = state.t
        self.w = state.copy()
        self.t = t
        self.n = t.n
        self.me = me = state.cur
        self.ahead = ahead
        self.side = t.ctrl[me]
        self.mine = [p for cj in self.side for p in range(cj << 2, (cj << 2) + 4)]
        self.teams = sorted({t.ctrl[ci] for ci in range(t.n)})
        pack = Counter(state.pack)
        if not pack:  # the pack is empty: the discard is shuffled before the next draw
            pack = Counter(state.discard)
        total = sum(pack.values())
        self.chances = [(c, pack[c] / total) for c in VALUES if pack[c]]

    def won(self, pos: list[int], ci: int) -> bool:
        """Whether colour `ci`'s side has every pawn HOME."""
        return all(pos[p] == HOME for cj in self.t.ctrl[ci] for p in range(cj << 2, (cj << 2) + 4))

    def reply(self, pos: list[int], ci: int, card: int) -> list[int]:
        """Where the pawns stand after colour `ci` plays `card` as the hint bot would (the first
        of its best moves: the hint bot draws lots among them)."""
        w = self.w
        w.pos = pos
        w.occ = _occupancy(self.t, pos)
        w.cur = ci
        w.card = card
        legal = w._legal_moves()
        m = cast(SorryMove, legal[0])
        if len(legal) > 1:
            best = -math.inf
            for s, mv in move_scores(w, legal):
                if s > best:
                    best, m = s, cast(SorryMove, mv)
        if m.kind == PASS:
            return pos
        return w._pawns_after(m)

    def chance(self, pos: list[int]) -> float:
        """The bot's expected learned win chance at its next turn, from `pos` after its move."""
        v = _VALUE
        n, me, mine = self.n, self.me, self.mine
        side = self.side
        u = [v[pos[b]] + v[pos[b + 1]] + v[pos[b + 2]] + v[pos[b + 3]] for b in range(0, 4 * n, 4)]
        alive = dict.fromkeys(mine, 1.0)  # per own pawn: the chance no earlier reply moved it
        lost = 0.0  # the chance another side wins before the bot's turn
        gained = 0.0  # the chance the bot's partner wins for its side
        gain = [0.0] * n  # each colour's expected change of utility
        for k in range(1, n):
            ci = (me + k) % n
            hit = dict.fromkeys(mine, 0.0)
            shift = dict.fromkeys(mine, 0.0)
            for card, p in self.chances:
                new = self.reply(pos, ci, card)
                if new is pos:
                    continue
                if self.won(new, ci):
                    if ci in side:
                        gained += p
                    else:
                        lost += p
                    continue
                for i in mine:
                    if new[i] != pos[i]:
                        hit[i] += p
                        shift[i] += p * (v[new[i]] - v[pos[i]])
                for cj in range(n):
                    if cj not in side:
                        b = cj << 2
                        d = v[new[b]] + v[new[b + 1]] + v[new[b + 2]] + v[new[b + 3]] - u[cj]
                        gain[cj] += p * d
            for i in mine:
                if hit[i]:
                    gain[i >> 2] += alive[i] * shift[i]
                    alive[i] *= 1.0 - hit[i]
        if self.ahead:
            gain[me] += self.ahead * self.potential(pos)
        # hint.evaluate's chances: each colour's utility plus how soon it moves, summed by side
        e = []
        for team in self.teams:
            e.append(sum(u[cj] + gain[cj] + TURN_ORDER[(cj - me) % n] for cj in team))
        top = max(e)
        total = sum(math.exp(x - top) for x in e)
        share = math.exp(e[self.teams.index(side)] - top) / total
        rest = max(0.0, 1.0 - lost - gained)
        return gained + rest * share

    def potential(self, pos: list[int]) -> float:
        """The expected best gain in the bot's side's utility from its next card, from `pos`."""
        v = _VALUE
        w = self.w
        mine = self.mine
        w.pos = pos
        w.occ = _occupancy(self.t, pos)
        w.cur = self.me
        here = sum(v[pos[i]] for i in mine)
        total = 0.0
        for card, p in self.chances:
            w.card = card
            best = 0.0
            for mv in w._legal_moves():
                m = cast(SorryMove, mv)
                if m.kind == PASS:
                    continue
                new = w._pawns_after(m)
                d = sum(v[new[i]] for i in mine) - here
                if d > best:
                    best = d
            total += p * best
        return total


def expected_chances(
    state: SorryState, legal: list[Move], ahead: float = PARAMS["ahead"]
) -> list[tuple[float, Move]]:
    """Each legal move of the colour to move (regular or partnership game), with its expected
    learned win chance at its next turn; 2.0 for a move that wins the game."""
    judge = _Judge(state, ahead)
    me = state.cur
    out: list[tuple[float, Move]] = []
    for move in legal:
        m = cast(SorryMove, move)
        pos = state._pawns_after(m)
        if m.kind != PASS and judge.won(pos, me):
            out.append((2.0, move))
        else:
            out.append((judge.chance(pos), move))
    return out


class ExpectimaxBot(Bot):
    name = "expectimax"

    def __init__(self, game: Game[Any, Any], rng: random.Random, **params: str) -> None:
        weights = number_params("expectimax", PARAMS, params)
        super().__init__(game, rng, **params)
        self.ahead = weights["ahead"]

    def _scores(self, view: Mapping[str, Any], legal: list[Move]) -> list[tuple[float, Move]]:
        game = self.game
        assert isinstance(game, SorryGame)
        state = game.sample_state(view, GameRng(self.rng.getrandbits(63)))
        if state.t.points:
            return move_scores(state, legal)
        return expected_chances(state, legal, self.ahead)

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return best_move(self._scores(view, legal), self.rng)

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        game = self.game
        assert isinstance(game, SorryGame)
        score, move = max(self._scores(view, legal), key=lambda x: x[0])
        if game.t.points:
            return move, "expectimax: the hint bot's move (the point-score game)"
        return move, f"expectimax: {score:.1%} to win, over every card the others may draw"
