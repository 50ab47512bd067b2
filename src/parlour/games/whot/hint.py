"""The Whot! `hint` bot: the advice of the sheets, played from a view.

- seed 000 HINTS ON PLAY: "it is sometimes good to hold back a "WHOT" Card, but if held at the end
  of the game it counts 20 points against you" — keep a WHOT while another card will do, and let
  it go when an opponent is near out or the hand is nearly played out.
- seed 002 Strategy: "It is advisable to play the cards with the highest values first" — shed the
  highest-scoring card among equals.
- seed 000: "note which numbers and symbols your opponents cannot follow, especially the player on
  your left" — read the public events: whoever drew when a symbol was called did not hold it. Play
  to, and call, the symbol the next player (or a near-winner) lacks.
- seed 002 Strategy (pick cards): keep Pick two / Pick three cards to answer a pick (where picks
  stack), and spend them on an opponent about to go out.
- Always say the declarations (last card, semi-last card, check up): they are free.

This file also gives the search bots a fast playout policy and an evaluation of unfinished Whot!
positions (`register_playout`): ISMCTS plays out on sampled full states, never the true one.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from parlour.bots.base import Bot, register_bot
from parlour.bots.ismcts import register_playout
from parlour.core import Move, State

from .cards import SYMBOLS, WHOT, card_points, parse_card
from .engine import WhotGame, WhotState
from .moves import WhotMove

__all__ = ["WhotHintBot", "evaluate", "lacking", "playout_policy"]

PICKS = ("pick_two", "pick_three")


def lacking(view: dict[str, Any]) -> list[set[int]]:
    """Per seat, the symbols it was seen not to follow (it drew, not under a pick, while the symbol
    was called) and has not played since. Public knowledge: built from the events only."""
    n = view["players"]
    lacks: list[set[int]] = [set() for _ in range(n)]
    call = -1
    for who, text in view.get("events", []):
        if text.startswith("turned up "):
            try:
                c = parse_card(text[len("turned up ") :])
            except ValueError:
                continue
            call = -1 if c == WHOT else c & 7
        elif text.startswith("play "):
            body = text[5:].split(",")[0]
            if body.startswith("whot"):
                words = body.split()
                call = SYMBOLS.index(words[2]) if len(words) > 2 and words[2] in SYMBOLS else -1
            else:
                try:
                    c = parse_card(body)
                except ValueError:
                    continue
                call = c & 7
                if 0 <= who < n:
                    lacks[who].discard(call)
        elif text == "drew" and 0 <= who < n and call >= 0:
            lacks[who].add(call)
    return lacks


class WhotHintBot(Bot):
    """Plays the sheets' advice; see the module docstring."""

    name = "hint"

    def __init__(self, game: Any, rng: random.Random, **params: str) -> None:
        hold = params.pop("hold", "1")
        super().__init__(game, rng, **params)
        # hold=0 sheds a WHOT like any other card (for studying the seed 000 hint).
        self.hold = hold not in ("0", "no", "false", "off")

    def _score(self, view: dict[str, Any], legal: list[Move]) -> list[tuple[float, WhotMove, str]]:
        game = self.game
        assert isinstance(game, WhotGame)
        moves = [m for m in legal if isinstance(m, WhotMove)]
        me: int = view["viewer"]
        n: int = view["players"]
        hand = [parse_card(t) for t in view.get("hand", [])]
        counts: list[int] = view["counts"]
        nxt = (me + view["direction"]) % n
        others = [q for q in range(n) if q != me]
        low = min(counts[q] for q in others)
        danger = low <= 2  # an opponent near out
        lacks = lacking(view)
        power_of = game.power_of
        said = {(m.card, m.call, m.power) for m in moves if m.say}
        out: list[tuple[float, WhotMove, str]] = []
        for m in moves:
            if m.kind != "play":
                # Never draw by choice while a card can go; end or pass when nothing else.
                out.append((-50.0 if m.kind == "draw" else -40.0, m, "nothing better to play"))
                continue
            if not m.say and (m.card, m.call, m.power) in said:
                continue  # always declare
            c = m.card
            rest = list(hand)
            rest.remove(c)
            if c == WHOT:
                sym_counts = Counter(x & 7 for x in rest if x != WHOT)
                # The symbol to call: one I can follow with, above all one the table's threat lacks.
                threat = min(others, key=lambda q: (counts[q], q != nxt))
                score = 5.0 + 3.0 * sym_counts[m.call]
                why = f"WHOT calling {SYMBOLS[m.call]}"
                if m.call in lacks[threat]:
                    score += 6.0 if danger else 2.0
                    why += f", which P{threat + 1} could not follow"
                if m.call in lacks[nxt]:
                    score += 1.0
                if m.power:
                    score += 1.0 if danger else -0.5
                # Hold the WHOT back while other cards will do, but not to the end.
                if self.hold and not (danger or len(hand) <= 2):
                    score -= 30.0
                    why += " (nothing else to play)"
                elif not self.hold:
                    score += 30.0
                    why += " (shed at once: it counts 20)"
                else:
                    why += " (not held to the end: it counts 20)"
                out.append((score, m, why))
                continue
            score = card_points(c) / 2.0  # highest values first
            pts = card_points(c)
            why = f"sheds {pts} point{'' if pts == 1 else 's'}"
            follow = sum(1 for x in rest if x == WHOT or x & 7 == c & 7 or x >> 3 == c >> 3)
            score += 1.5 * follow
            power = power_of.get(c >> 3)
            if power in PICKS:
                if danger and counts[nxt] <= 2:
                    score += 12.0
                    why = f"{power.replace('_', ' ')} on P{nxt + 1}, who is near out"
                elif view["pending_pick"]:
                    score += 20.0
                    why = "answers the pick"
                else:
                    score -= 8.0  # keep it to defend
            elif power in ("hold_on", "general_market"):
                score += 4.0 if rest else 0.0
                why += ", and plays again"
            elif power == "suspension":
                score += 3.0 if danger else 1.0
            if c & 7 in lacks[nxt]:
                score += 3.0
                why += f"; P{nxt + 1} could not follow {SYMBOLS[c & 7]}"
            out.append((score, m, why))
        return out

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        scored = self._score(view, legal)
        best = max(s for s, _, _ in scored)
        return self.rng.choice([m for s, m, _ in scored if s == best])

    def explain(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        scored = self._score(view, legal)
        _, m, why = max(scored, key=lambda x: x[0])
        return m, f"hint: {why}"


# --- playout help for the search bots (full sampled states only) ----------------------------------
def playout_policy(state: State, rng: random.Random) -> Move:
    """Play a card when one can go (declared, high first half the time), else draw/end/pass."""
    legal = state.legal_moves()
    plays = [m for m in legal if m.kind == "play"]  # type: ignore[attr-defined]
    if not plays:
        return legal[-1]
    declared = [m for m in plays if m.say]  # type: ignore[attr-defined]
    if declared:
        plays = declared
    non_whot = [m for m in plays if m.card != WHOT]  # type: ignore[attr-defined]
    if non_whot:
        plays = non_whot
    return rng.choice(plays)


def evaluate(state: State) -> list[float]:
    """A win chance per seat for an unfinished game: fewer cards (and a pick owed by the player
    to move counts against them) is better; a softmax over minus the card counts."""
    assert isinstance(state, WhotState)
    sizes = [len(h) for h in state.hands]
    if state.pending_pick and state.current is not None:
        sizes[state.current] += state.pending_pick
    w = [math.exp(-0.8 * k) for k in sizes]
    total = sum(w)
    return [x / total for x in w]


register_bot("hint", WhotHintBot, game="whot")
register_playout("whot", playout_policy, evaluate, depth=8)
