"""Sorry!'s own bots: `greedy` makes the move that leaves its side's pawns best placed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from parlour.bots.base import Bot
from parlour.core import Move
from parlour.core.rng import GameRng

from .board import HOME, START, TRACK
from .engine import SorryGame, SorryState
from .notation import PASS, SorryMove

__all__ = ["GreedyBot", "best_move", "evaluate", "pawn_worth"]


def best_move(scores: list[tuple[float, Move]], rng: random.Random) -> Move:
    """A move of the best score (ties broken by `rng`): how the Sorry! bots that score every
    move choose."""
    best = max(s for s, _ in scores)
    return rng.choice([m for s, m in scores if s == best])


def pawn_worth(r: int) -> int:
    """How good a pawn's place is: steps made, with a premium for safety and HOME."""
    if r == START:
        return 0
    if r == HOME:
        return 90
    if r >= TRACK:
        return r + 8  # out of reach of every card but the 4 and 10 backward
    return r + 1


def evaluate(state: SorryState, ci: int) -> float:
    """Own side's pawns minus the average opponent's, from colour index `ci`'s seat."""
    t = state.t
    pos = state.pos
    own = sum(pawn_worth(pos[p]) for cj in t.ctrl[ci] for p in range(cj << 2, (cj << 2) + 4))
    opp = t.opp[ci]
    if not opp:
        return float(own)
    theirs = sum(pawn_worth(pos[p]) for cj in opp for p in range(cj << 2, (cj << 2) + 4))
    return own - theirs / len(opp) * len(t.ctrl[ci])


class GreedyBot(Bot):
    """One-ply: tries every legal move on a state sampled from its view and keeps the best."""

    name = "greedy"

    def _scores(self, view: Mapping[str, Any], legal: list[Move]) -> list[tuple[float, Move]]:
        game = self.game
        assert isinstance(game, SorryGame)
        base = game.sample_state(view, GameRng(self.rng.getrandbits(63)))
        ci = base.cur
        out = []
        for move in legal:
            trial = base.copy()
            trial.apply(move)
            score = evaluate(trial, ci)
            if trial.is_over and game.t.seat[ci] in trial.winners:
                score += 10_000
            if isinstance(move, SorryMove) and move.kind == PASS:
                score -= 0.5  # prefer acting when acting is no worse
            out.append((score, move))
        return out

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return best_move(self._scores(view, legal), self.rng)

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        scores = sorted(self._scores(view, legal), key=lambda x: -x[0])
        (best, move), rest = scores[0], scores[1:]
        gap = f", {best - rest[0][0]:+.1f} over {rest[0][1]}" if rest else ""
        return move, f"greedy: best placed pawns after the move (score {best:.1f}{gap})"
