"""The Who's Who `hint` bots: Game No. 1 (tricks) played from memory; Game No. 2 (books) by the
greedy rules with what the table has seen.

Game No. 1 — remember the calls and lead the Preference suit wisely:
- name the Preference suit held longest and strongest (seed 004: "The player naturally chooses
  the suit that is most strongly represented in his hand");
- remember every card played this deal (the public tricks), so the bot knows which cards are the
  highest left in each suit — its "masters" — and which players have shown out of a suit;
- lead a master if it holds one; lead Preference cards only while it holds the top Preference card
  or more of them than are left elsewhere (drawing the others' Preference cards), never its last
  ones for nothing; otherwise lead low from a side suit that nobody has shown out of;
- following: win as cheaply as it can be sure of (a master, or the cheapest winner when last to
  play); do not overtake a partner already winning; else throw the lowest card, keeping Preference
  cards and masters.

Both files' games also get playout help for the search bots (`register_playout`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any

from parlour.bots.base import Bot, register_bot
from parlour.bots.ismcts import register_playout
from parlour.core import Move, State

from .bots import BooksGreedyBot
from .deck import DECK, Card, parse_card
from .notation import Play, Prefer
from .tricks import TricksState, trick_winner

__all__ = ["TricksHintBot"]


def _memory(view: dict[str, Any]) -> tuple[set[Card], list[set[str]]]:
    """The cards played this deal, and per seat the suits it has shown out of (it did not follow
    the suit led)."""
    n = view["players"]
    played: set[Card] = set()
    void: list[set[str]] = [set() for _ in range(n)]
    rounds = [tr["cards"] for tr in view.get("tricks", [])]
    if view.get("trick"):
        rounds.append(view["trick"])
    for plays in rounds:
        led: str | None = None
        for q, text in plays:
            c = parse_card(text)
            played.add(c)
            if led is None:
                led = c.suit
            elif c.suit != led:
                void[int(q)].add(led)
    return played, void


class TricksHintBot(Bot):
    name = "hint"

    def _choose(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        hand = [parse_card(t) for t in view.get("hand", [])]
        prefers = [m for m in legal if isinstance(m, Prefer)]
        if prefers:

            def strength(m: Prefer) -> tuple[int, int]:
                mine = [c.number for c in hand if c.suit == m.suit]
                return (len(mine), sum(mine))

            best = max(prefers, key=strength)
            return best, f"hint: name {best.suit}, the suit held longest and strongest"
        plays = [m for m in legal if isinstance(m, Play)]
        if not plays:
            return self.rng.choice(legal), "hint: no card to choose"
        me: int = view["viewer"]
        pref: str | None = view["preference"]
        played, void = _memory(view)
        mine = set(hand)
        out = [c for c in DECK if c not in played and c not in mine]  # elsewhere (or in stock)

        def master(c: Card) -> bool:
            return not any(o.suit == c.suit and o.number > c.number for o in out)

        def cheap(m: Play) -> tuple[bool, bool, int]:
            c = m.card
            return (c.suit == pref, master(c), c.number)

        trick = [(int(q), parse_card(t)) for q, t in view["trick"]]
        others = [q for q in range(view["players"]) if q != me]
        teams = view.get("teams")
        partners = {q for t in teams or [] if me in t for q in t if q != me}
        opponents = [q for q in others if q not in partners]
        if not trick:
            return self._lead(plays, hand, out, pref, void, opponents, master)
        current = trick_winner(trick, pref)
        if current in partners:
            m = min(plays, key=cheap)
            return m, "hint: partner is winning the trick; throw the cheapest card"
        winning = [m for m in plays if trick_winner([*trick, (me, m.card)], pref) == me]
        last = len(trick) == view["players"] - 1
        if winning:
            if last:
                m = min(winning, key=lambda m: (m.card.suit == pref, m.card.number))
                return m, "hint: last to play; win as cheaply as possible"
            sure = [m for m in winning if master(m.card) or m.card.suit == pref]
            if sure:
                m = min(sure, key=lambda m: (m.card.suit == pref, m.card.number))
                return m, "hint: win with a card nobody left can beat"
            m = min(winning, key=lambda m: m.card.number)
            return m, "hint: take the lead in the trick cheaply"
        m = min(plays, key=cheap)
        return m, "hint: cannot win it; throw the cheapest card, keeping Preference cards"

    def _lead(
        self,
        plays: list[Play],
        hand: list[Card],
        out: list[Card],
        pref: str | None,
        void: list[set[str]],
        opponents: Iterable[int],
        master: Any,
    ) -> tuple[Move, str]:
        opp = list(opponents)
        trumps_out = sum(1 for c in out if c.suit == pref)
        my_trumps = [m for m in plays if m.card.suit == pref]
        side_masters = [
            m
            for m in plays
            if m.card.suit != pref
            and master(m.card)
            and not any(m.card.suit in void[q] for q in opp)
        ]
        if side_masters:
            m = max(side_masters, key=lambda m: m.card.number)
            return m, "hint: lead a master card (the highest left in its suit)"
        if (
            my_trumps
            and trumps_out
            and (
                master(max(my_trumps, key=lambda m: m.card.number).card)
                or len(my_trumps) > trumps_out
            )
        ):
            m = max(my_trumps, key=lambda m: m.card.number)
            return m, "hint: lead the top Preference card to draw the others' Preference cards"
        safe = [
            m for m in plays if m.card.suit != pref and not any(m.card.suit in void[q] for q in opp)
        ]
        pool = safe or [m for m in plays if m.card.suit != pref] or plays
        m = min(pool, key=lambda m: m.card.number)
        if not trumps_out and my_trumps:
            m = max(my_trumps, key=lambda m: m.card.number)
            return m, "hint: no Preference cards are left elsewhere; this wins"
        return m, "hint: lead low from a side suit nobody has shown out of"

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return self._choose(view, legal)[0]

    def explain(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        return self._choose(view, legal)


class BooksHintBot(BooksGreedyBot):
    """Game No. 2: the greedy bot's calls (from holders the table knows of), under `hint`."""

    name = "hint"


# --- playout help for the search bots (full sampled states only) ----------------------------------
def _tricks_policy(state: State, rng: random.Random) -> Move:
    """Follow with the cheapest winning card half the time; otherwise random."""
    legal = state.legal_moves()
    if len(legal) == 1 or rng.random() < 0.5:
        return rng.choice(legal)
    assert isinstance(state, TricksState)
    trick = state.trick
    plays = [m for m in legal if isinstance(m, Play)]
    if not trick or not plays:
        return rng.choice(legal)
    me = state.to_play
    assert me is not None
    pref = state.preference
    win = [m for m in plays if trick_winner([*trick, (me, m.card)], pref) == me]
    pool = win or plays
    return min(pool, key=lambda m: (m.card.suit == pref, m.card.number))


def _tricks_horizon(state: State) -> int:
    """Moves left in this deal: a playout stops where the deal ends, since later deals are dealt
    afresh and no move now changes them (only the score carried into them)."""
    assert isinstance(state, TricksState)
    return sum(len(h) for h in state.hands) + (state.phase == "prefer")


def _tricks_evaluate(state: State) -> list[float]:
    """A win chance per seat from the points so far and the deals left: a softmax over the scores
    whose sharpness grows as the deals run out, 1.1 / sqrt(deals left). The constant was fitted
    (maximum likelihood) to 1,500 four-player games of the hint bots, scored at every deal's end."""
    assert isinstance(state, TricksState)
    g = state.game
    left = max(1, g.total_deals - state.deal_no)
    beta = 1.1 / math.sqrt(left)
    if g.partnerships:
        teams = state.team_scores()
        points = [teams[g.team_of(p)] for p in range(g.players)]
    else:
        points = state.scores
    top = max(points)
    w = [math.exp(beta * (s - top)) for s in points]
    total = sum(w)
    return [x / total for x in w]


register_bot("hint", TricksHintBot, game="whoswho-tricks")
register_bot("hint", BooksHintBot, game="whoswho-books")
# c=0.3: a trick moves the win estimate by only a few points, so the default 0.7 spreads the
# visits evenly. Measured against three hint bots: 34% over 100 games and 28.9% over 300 (the
# strength benchmark) at 0.3; 28-31% over 60-100 games at 0.7 — no clear difference either way.
register_playout(
    "whoswho-tricks", _tricks_policy, _tricks_evaluate, pool=25, horizon=_tricks_horizon, c=0.3
)
