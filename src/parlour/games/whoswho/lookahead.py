"""The Who's Who `lookahead` bot for Game No. 1 (tricks): the hint rules, with each card tried out.

The hint bot plays by rules of thumb (`hint`): win cheaply, lead a master, throw the cheapest card.
With five cards a hand and most of the pack laid aside (seed 004: "Five cards are dealt ... The
rest of the pack is temporarily laid aside"), those rules cannot tell how likely a card is to hold
up. The lookahead asks instead:

- naming the Preference suit, it names as the hint does: the suit held longest and strongest
  (seed 004: "The player naturally chooses the suit that is most strongly represented in his
  hand");
- with one card to play it plays it;
- otherwise it deals the cards it has not seen at random (`deals` times) among the other hands and
  the cards laid aside, keeping what the play has shown — a player who did not follow suit has
  none of it (seed 004: "must play cards of the same suit as the card first played, if they have
  any"), and a namer who names as the hint does holds the named suit longest — and in each deal
  plays every card it may play, then the rest of the deal with every player on the hint rules.
  It plays the card that won it the most tricks over those deals (seed 004: "one point for each
  trick"), the hint's own card where that one does as well.

It reads only its view: the deals are drawn from the view (`TricksGame.sampler`), never from the
game's state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.core import Move, RulesError
from parlour.core.rng import GameRng

from .hint import TricksHintBot, _tricks_horizon, _tricks_rollout, named_as_hint
from .notation import Play
from .tricks import TricksState

__all__ = ["TricksLookaheadBot"]


class TricksLookaheadBot(Bot):
    """Game No. 1: each card tried in `deals` likely deals, the rest played by the hint rules."""

    name = "lookahead"
    #: deals drawn for each decision (`lookahead:deals=N`)
    deals = 20

    def __init__(self, game: Any, rng: random.Random, **params: str) -> None:
        deals = params.pop("deals", None)
        super().__init__(game, rng, **params)
        if deals is not None:
            if not deals.isdigit() or not 1 <= int(deals) <= 500:
                raise RulesError(f"lookahead: deals must be a whole number 1 to 500, not {deals}")
            self.deals = int(deals)
        self.hint = TricksHintBot(game, rng)

    def budget(self) -> dict[str, float]:
        return {"pool": float(self.deals)}

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        return self.explain(view, legal)[0]

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        hinted, why = self.hint.explain(view, legal)
        plays = [m for m in legal if type(m) is Play]
        if len(plays) < 2:
            return hinted, why.replace("hint:", "lookahead:", 1)
        won = self.tricks_won(view, plays)
        best = max(won.values())
        # the hint's card unless another did better
        keep = won.get(hinted, -1.0) >= best
        move = hinted if keep else next(m for m in plays if won[m] == best)
        return move, (
            f"lookahead: {won[move] / self.deals:.2f} tricks a deal with it, "
            f"over {self.deals} likely deals"
        )

    def tricks_won(self, view: Mapping[str, Any], plays: Sequence[Move]) -> dict[Move, float]:
        """Per card, the tricks this seat won with it over `deals` deals drawn from the view, the
        rest of the deal played by the hint rules (the same deals for every card)."""
        me: int = view["viewer"]
        sample = self.game.sampler(view)
        rng = GameRng(self.rng.getrandbits(63))
        drawn: list[TricksState] = []
        # Keep to deals where the namer named as the hint would; give up on that after a while
        # (a namer who names otherwise has shown nothing the draw can keep to).
        tries = 0
        while len(drawn) < self.deals:
            st = sample(rng)
            tries += 1
            if tries > 5 * self.deals or named_as_hint(st, me):
                drawn.append(st)
        won = dict.fromkeys(plays, 0.0)
        # the hint rules draw on their rng only when no card is to choose: never in a deal's play
        playout_rng = random.Random(0)
        for st in drawn:
            before = st.scores[me]
            for m in plays:
                s = st.copy()
                s.hold_deal = True  # the next deal is not dealt: only this one's tricks count
                s.apply(m)
                left = _tricks_horizon(s)
                if left:
                    _tricks_rollout(s, playout_rng, left)
                won[m] += s.scores[me] - before
        return won
