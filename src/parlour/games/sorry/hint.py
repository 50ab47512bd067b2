"""The Sorry! `hint` bot: the table's usual advice, played one move ahead from a view.

- Bump the leader: sending back the pawns of the opponent who is furthest on counts for more than
  sending back anyone else's (the leader's progress weighs half the opponents' score).
- Use the slides: a move is judged by where the pawns stand after it, slides included, so a move
  that ends on a slide's triangle is worth its ride.
- Keep out of danger: a pawn on the track that an opponent's pawn could land on next turn (1-12
  squares behind it, or 4 ahead for the backward 4) counts for less; pawns in the safety zone and
  HOME are out of reach.

The view shows every pawn and the card drawn; only the order of the pack is hidden, and a move's
outcome does not depend on it, so the bot judges moves on a state sampled from its view.
`hint_policy` makes the same choice on a full state (a search bot's determinization), judging
each move by where the pawns would stand after it, without copying the state.
This file also holds Sorry!'s help for the search bots (`SEARCH`, named in the manifest).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, cast

from parlour.bots.base import Bot
from parlour.bots.ismcts import SearchHelp
from parlour.core import Move, State
from parlour.core.rng import GameRng

from .board import ABS, HOME, TRACK
from .bots import best_move, pawn_worth
from .engine import SorryGame, SorryState, _Tables
from .notation import PASS, SorryMove
from .values import PLACE_VALUE, TURN_ORDER

__all__ = ["SorryHintBot", "evaluate", "hint_policy", "move_scores", "position_score"]

# Distances from which an opponent's pawn can land on a square next turn: forward cards 1, 2, 3,
# 5, 7 (or part of a split 7), 8, 10, 11 and 12; backward 4 and 10's backward 1.
_FORWARD = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12})
_BACKWARD = frozenset({1, 4})


# Tables indexed by a pawn's relative place r, START (-1) included: each has HOME + 2 entries, so
# index -1 is the last one, START's. _WORTH[r] is the greedy bot's pawn_worth(r) (whole numbers,
# so sums are exact).
_WORTH = [pawn_worth(r) for r in range(HOME + 1)] + [0]
# _REACH[colour][r]: the track squares a pawn of `colour` on r threatens next turn, as bits;
# _AT[colour][r]: the bit of the track square r stands on. Both 0 off the track.
_REACH: list[list[int]] = []
_AT: list[list[int]] = []
for _c in range(4):
    _reach = [0] * (HOME + 2)
    _at = [0] * (HOME + 2)
    for _r in range(TRACK):
        _b = ABS[_c][_r]
        _at[_r] = 1 << _b
        for _d in range(1, TRACK):
            if _d in _FORWARD or (TRACK - _d) in _BACKWARD:
                _reach[_r] |= 1 << ((_b + _d) % TRACK)
    _REACH.append(_reach)
    _AT.append(_at)


_Own = tuple[tuple[int, list[int]], ...]  # per colour: its first pawn and its _AT row
_Opp = tuple[tuple[int, list[int]], ...]  # per colour: its first pawn and its _REACH row


class _Sides:
    """Per colour index of a game: its own side (its own and its partner's colours), its
    opponents, a getter of the opponents' pawn places (to see that a move left them be) and its
    side's pawns. And the sides, for `evaluate`: each one's colours and seats."""

    __slots__ = ("opp", "opp_pawns", "own", "team", "teams")

    def __init__(self, t: _Tables) -> None:
        n = t.n
        self.own: list[_Own] = [
            tuple((cj << 2, _AT[t.colour[cj]]) for cj in t.ctrl[ci]) for ci in range(n)
        ]
        self.opp: list[_Opp] = [
            tuple((cj << 2, _REACH[t.colour[cj]]) for cj in t.opp[ci]) for ci in range(n)
        ]
        self.opp_pawns = [
            itemgetter(*[p for cj in t.opp[ci] for p in range(cj << 2, (cj << 2) + 4)])
            for ci in range(n)
        ]
        self.team = [
            tuple(p for cj in t.ctrl[ci] for p in range(cj << 2, (cj << 2) + 4)) for ci in range(n)
        ]
        firsts = sorted({t.ctrl[ci][0] for ci in range(n)})
        self.teams = [(t.ctrl[ci], tuple(t.seat[cj] for cj in t.ctrl[ci])) for ci in firsts]


# The number of players, the partnerships and the colours in play (in seat order) decide the
# sides (`_Tables.seating`): a few dozen kinds of game in all.
_SIDES: dict[str, _Sides] = {}


def _sides(t: _Tables) -> _Sides:
    key = t.seating
    got = _SIDES.get(key)
    if got is None:
        got = _SIDES[key] = _Sides(t)
    return got


def _theirs(pos: list[int], opp: _Opp) -> tuple[float, int]:
    """The opponents' progress (the leader's counting double) and the squares they threaten."""
    if not opp:
        return 0.0, 0
    w = _WORTH
    top = total = threats = 0
    for b, reach in opp:
        r0, r1, r2, r3 = pos[b : b + 4]
        v = w[r0] + w[r1] + w[r2] + w[r3]
        total += v
        if v > top:
            top = v
        threats |= reach[r0] | reach[r1] | reach[r2] | reach[r3]
    return 0.5 * top + 0.5 * total / len(opp), threats


def _danger_of(pos: list[int], own: _Own, threats: int) -> float:
    """A quarter of the worth of each own pawn standing on a threatened square."""
    if not threats:
        return 0.0
    w = _WORTH
    loss = 0
    for b, at in own:
        for r in pos[b : b + 4]:
            if at[r] & threats:
                loss += w[r]
    return loss * 0.25


def _score(pos: list[int], own: _Own, theirs: float, threats: int) -> float:
    """position_score, given what _theirs says of the opponents. The float operations are those
    of the plain definition, in its order (the rest is whole numbers), so the scores are equal
    to the bit and ties stay ties."""
    w = _WORTH
    mine = 0
    for b, _ in own:
        r0, r1, r2, r3 = pos[b : b + 4]
        mine += w[r0] + w[r1] + w[r2] + w[r3]
    return mine - theirs * len(own) - _danger_of(pos, own, threats)


def position_score(state: SorryState, ci: int) -> float:
    """Own side's progress, less the opponents' (the leader's counting double), less danger."""
    sides = _sides(state.t)
    return _score(state.pos, sides.own[ci], *_theirs(state.pos, sides.opp[ci]))


def move_scores(state: SorryState, legal: Sequence[Move]) -> list[tuple[float, Move]]:
    """The hint bot's score of each legal move for the colour to move: the gain in its
    position_score, 10 000 more for a move that wins, half a point less for a pass."""
    ci = state.cur
    sides = _sides(state.t)
    own, opp, opp_pawns = sides.own[ci], sides.opp[ci], sides.opp_pawns[ci]
    pos = state.pos
    theirs, threats = _theirs(pos, opp)
    before = _score(pos, own, theirs, threats)
    opp_before = opp_pawns(pos)
    team = sides.team[ci]
    after = state._pawns_after
    out: list[tuple[float, Move]] = []
    for move in legal:
        m = cast(SorryMove, move)  # a Sorry! state's moves are all SorryMoves
        pos = after(m)
        if opp_pawns(pos) == opp_before:  # most moves bump nobody: the opponents' side stands
            score = _score(pos, own, theirs, threats) - before
        else:
            score = _score(pos, own, *_theirs(pos, opp)) - before
        if m.kind == PASS:
            score -= 0.5
        elif pos[team[0]] == HOME and all(pos[p] == HOME for p in team):
            # the side's last pawn HOME ends the game, won by the mover's seat
            score += 10_000
        out.append((score, move))
    return out


def hint_policy(state: State, rng: random.Random) -> Move:
    """The move the hint bot would choose, judged on a full state (a determinization) rather
    than a view: the pawns and the card up are all the bot looks at. Ties go to rng.choice."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    assert isinstance(state, SorryState)
    return best_move(move_scores(state, legal), rng)


class SorryHintBot(Bot):
    name = "hint"

    def _scores(self, view: dict[str, Any], legal: list[Move]) -> list[tuple[float, Move]]:
        game = self.game
        assert isinstance(game, SorryGame)
        return move_scores(game.sample_state(view, GameRng(self.rng.getrandbits(63))), legal)

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return best_move(self._scores(view, legal), self.rng)

    def explain(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        score, move = max(self._scores(view, legal), key=lambda x: x[0])
        return move, (
            f"hint: gains {score:+.1f} in progress, counting bumps of the leader and pawns "
            "left in danger"
        )


# --- playout help for the search bots (full sampled states only) ----------------------------------
# _VALUE[r]: the learned worth of a pawn on place r (-1..65), START last so that _VALUE[-1] is it.
_VALUE = PLACE_VALUE[1:] + PLACE_VALUE[:1]


def evaluate(state: State) -> list[float]:
    """A win chance per seat from the learned values (values.py): each colour's utility is its
    pawns' place values plus a term for how soon it moves next; a side sums its colours'; the
    chances are the softmax over the seats (partners share their side's, as a won game's reward
    is shared). Fitted on hint-played games, so it is calibrated where the hint's progress score
    is not: the search averages these chances over the futures it deals, and needs them honest."""
    assert isinstance(state, SorryState)
    t = state.t
    pos = state.pos
    v = _VALUE
    n = t.n
    cur = state.cur
    utility = [0.0] * n
    for ci in range(n):
        b = ci << 2
        utility[ci] = (
            v[pos[b]] + v[pos[b + 1]] + v[pos[b + 2]] + v[pos[b + 3]] + TURN_ORDER[(ci - cur) % n]
        )
    u = [0.0] * t.players
    for colours, seats in _sides(t).teams:
        side = sum(utility[cj] for cj in colours)
        for seat in seats:
            u[seat] = side
    top = max(u)
    ex = [math.exp(x - top) for x in u]
    total = sum(ex)
    return [x / total for x in ex]


# The other seats move as the hint bot would (`model`), in the tree and in the playout, and every
# leaf is scored at the searcher's next turn (`settle`): after the others have answered its move
# with the cards the determinization deals them. Every root move is tried on the same dealt futures
# (`paired`): the learned chances differ between moves by a point or two, and common futures keep
# the luck of the draw out of that comparison. Measured against three hint bots: see
# docs/lab/ladder.md.
SEARCH = SearchHelp(
    hint_policy,
    evaluate,
    depth=0,
    c=0.4,
    model=hint_policy,
    settle=True,
    paired=True,
)
