"""A simple greedy Whot! bot: good enough to lose to, quick enough to simulate with.

It plays whenever it can (never draws by choice), sheds its highest-scoring card first (seed 002:
"It is advisable to play the cards with the highest values first"), keeps its WHOT cards for last,
calls the symbol it holds most of, and always says its declarations.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from parlour.bots.base import Bot
from parlour.core import Move

from .cards import SYMBOLS, WHOT, card_points, parse_card
from .moves import WhotMove


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        moves = [m for m in legal if isinstance(m, WhotMove)]
        hand = [parse_card(t) for t in view.get("hand", [])]
        plays = [m for m in moves if m.kind == "play"]
        if not plays:
            for m in moves:
                if m.kind in ("end", "draw", "pass"):
                    return m
            return self.rng.choice(legal)
        # Declarations are free: prefer the said version of every play.
        said = {(m.card, m.call, m.power): m for m in plays if m.say}
        plays = [said.get((m.card, m.call, m.power), m) for m in plays if not m.say] or plays
        non_whot = [m for m in plays if m.card != WHOT]
        if non_whot:
            return max(non_whot, key=lambda m: (card_points(m.card), -m.card))
        counts = Counter(c & 7 for c in hand if c != WHOT)
        best = max(range(5), key=lambda s: (counts[s], -s))
        for m in plays:
            if m.call == best and not m.power:
                return m
        return plays[0]


__all__ = ["SYMBOLS", "GreedyBot"]
