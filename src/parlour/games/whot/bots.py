"""A simple greedy Whot! bot: good enough to lose to, quick enough to simulate with.

It plays whenever it can (never draws by choice), sheds its highest-scoring card first (seed 002:
"It is advisable to play the cards with the highest values first"), keeps its WHOT cards for last,
calls the symbol it holds most of, and always says its declarations.

The rule is one function over plain data (`greedy_move`), so that it runs both from a view (the
bot) and straight off a full state (`greedy_policy`, a search bot's model of the other seat and its
playout policy where a bot spec asks for it: `ismcts:model=greedy,playout=greedy`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.core import Move, State

from .cards import SYMBOLS, WHOT, card_points, parse_card
from .engine import WhotState
from .moves import WhotMove

__all__ = ["SYMBOLS", "GreedyBot", "greedy_move", "greedy_policy"]


def greedy_move(hand: Sequence[int], legal: Sequence[Move], rng: random.Random) -> Move:
    """The greedy rule's move for a seat holding `hand` (card codes) with the moves `legal`: from
    only what that seat may know. `rng` is drawn from only when no rule decides (never in the rule
    sets played so far: a seat that cannot play may always draw, end or pass)."""
    plays: list[WhotMove] = []
    for m in legal:
        if isinstance(m, WhotMove) and m.kind == "play":
            plays.append(m)
    if not plays:
        for m in legal:
            if isinstance(m, WhotMove) and m.kind in ("end", "draw", "pass"):
                return m
        return rng.choice(list(legal))
    # Declarations are free: prefer the said version of every play.
    said = {(m.card, m.call, m.power): m for m in plays if m.say}
    if said:
        plays = [said.get((m.card, m.call, m.power), m) for m in plays if not m.say] or plays
    best: WhotMove | None = None
    key = (-1, 0)
    for m in plays:
        c = m.card
        if c != WHOT:
            k = (card_points(c), -c)
            if k > key:  # the first of the highest, as max() takes it
                best, key = m, k
    if best is not None:
        return best
    counts = [0, 0, 0, 0, 0]
    for c in hand:
        if c != WHOT:
            counts[c & 7] += 1
    call = max(range(5), key=lambda s: (counts[s], -s))
    for m in plays:
        if m.call == call and not m.power:
            return m
    return plays[0]


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        return greedy_move([parse_card(t) for t in view.get("hand", [])], legal, self.rng)


def greedy_policy(state: State, rng: random.Random) -> Move:
    """The move the `greedy` bot would choose for the player to move, read straight off a full
    state (a search bot's determinization) without building a view: the mover's own hand and the
    legal moves, nothing hidden from it."""
    assert isinstance(state, WhotState)
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    me = state.current
    assert me is not None
    return greedy_move(state.hands[me], legal, rng)
