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

The advice is one function over plain data (`hint_scores`), so that it runs both from a view (the
bot) and straight off a full state (`hint_policy`, for the search bots' model of the other seats
and their playouts: a few microseconds, with the symbols each seat lacks kept up by the engine).

This file also gives the search bots an evaluation of unfinished Whot! positions
(`SEARCH`, named in the manifest): ISMCTS plays out on sampled full states, never the true one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.bots.ismcts import SearchHelp
from parlour.core import Move, State

from .bots import greedy_policy
from .cards import SYMBOLS, WHOT, card_points, parse_card
from .engine import WhotGame, WhotState, lacks_from_events, view_events
from .moves import WhotMove

__all__ = ["SEARCH", "WhotHintBot", "evaluate", "hint_policy", "hint_scores", "lacking"]

PICKS = ("pick_two", "pick_three")


def lacking(view: dict[str, Any]) -> list[set[int]]:
    """Per seat, the symbols it was seen not to follow (it drew, not under a pick, while the symbol
    was called) and has not played since. Public knowledge: built from the events only."""
    lacks, _ = lacks_from_events(view_events(view), view["players"])
    return [{s for s in range(5) if lacks >> (5 * q + s) & 1} for q in range(view["players"])]


def hint_scores(
    hand: Sequence[int],
    counts: Sequence[int],
    me: int,
    direction: int,
    pending_pick: int,
    lacks: int,
    moves: Sequence[WhotMove],
    power_of: Mapping[int, str],
    hold: bool = True,
    reasons: list[str] | None = None,
) -> tuple[list[float], list[WhotMove]]:
    """The sheets' advice as a score per move, from what seat `me` may know: its hand, the card
    counts, the direction, the pick it owes, and the symbols each seat was seen not to follow
    (`lacks`: bit `5 * seat + symbol`, as `lacks_from_events` gives them). Plain data, so that the
    bot (from a view) and `hint_policy` (from a full state) share it. A move that leaves out a
    declaration it could say is not scored. Fills `reasons` (if given) with the why of each scored
    move."""
    n = len(counts)
    nxt = (me + direction) % n
    low = min(counts[q] for q in range(n) if q != me) if n != 2 else counts[1 - me]
    danger = low <= 2  # an opponent near out
    lack_next = lacks >> 5 * nxt
    size = len(hand)
    # The hand by symbol and by number: how many cards could follow each card.
    whots = 0
    syms = [0, 0, 0, 0, 0]
    nums = [0] * 15
    for x in hand:
        if x == WHOT:
            whots += 1
        else:
            syms[x & 7] += 1
            nums[x >> 3] += 1
    said = {(m.card, m.call, m.power) for m in moves if m.say}
    threat = -1
    scores: list[float] = []
    scored: list[WhotMove] = []
    for m in moves:
        kind = m.kind
        if kind != "play":
            # Never draw by choice while a card can go; end or pass when nothing else.
            scores.append(-50.0 if kind == "draw" else -40.0)
            scored.append(m)
            if reasons is not None:
                reasons.append("nothing better to play")
            continue
        if said and not m.say and (m.card, m.call, m.power) in said:
            continue  # always declare
        c = m.card
        if c == WHOT:
            call = m.call
            if threat < 0:  # the table's threat: the fewest cards, the next player first
                threat = min((q for q in range(n) if q != me), key=lambda q: (counts[q], q != nxt))
            # The symbol to call: one I can follow with, above all one the threat lacks.
            score = 5.0 + 3.0 * syms[call]
            threat_lacks = lacks >> (5 * threat + call) & 1
            if threat_lacks:
                score += 6.0 if danger else 2.0
            if lack_next >> call & 1:
                score += 1.0
            if m.power:
                score += 1.0 if danger else -0.5
            # Hold the WHOT back while other cards will do, but not to the end.
            held = hold and not (danger or size <= 2)
            if held:
                score -= 30.0
            elif not hold:
                score += 30.0
            scores.append(score)
            scored.append(m)
            if reasons is not None:
                why = f"WHOT calling {SYMBOLS[call]}"
                if threat_lacks:
                    why += f", which {{P{threat + 1}}} could not follow"
                if held:
                    why += " (nothing else to play)"
                elif not hold:
                    why += " (shed at once: it counts 20)"
                else:
                    why += " (not held to the end: it counts 20)"
                reasons.append(why)
            continue
        sym = c & 7
        num = c >> 3
        pts = card_points(c)
        # Highest values first; then the cards left that could follow it.
        follow = whots + syms[sym] + nums[num] - hand.count(c) - 1
        score = pts / 2.0 + 1.5 * follow
        effect = ""  # what the card's power does, when that is the reason to play it
        power = power_of.get(num)
        # seed 002, change of direction: "This opens the possibility to attack the player on your
        # other side if that player is close to winning."
        target = (me - direction) % n if m.power == "reverse" else nxt
        if m.power == "reverse":
            score -= 0.5 if counts[target] <= 2 < counts[nxt] else 2.0
        if power is not None:
            if power in PICKS:
                if danger and counts[target] <= 2:
                    score += 12.0
                    effect = "near out"
                elif pending_pick:
                    score += 20.0
                    effect = "answers"
                else:
                    score -= 8.0  # keep it to defend
            elif power == "hold_on" or power == "general_market":
                score += 4.0 if size > 1 else 0.0
                effect = "again"
            elif power == "suspension":
                score += 3.0 if danger else 1.0
        lacked = lack_next >> sym & 1
        if lacked:
            score += 3.0
        scores.append(score)
        scored.append(m)
        if reasons is not None:
            if effect == "near out":
                why = f"{power_of[num].replace('_', ' ')} on {{P{target + 1}}}, who is near out"
                if m.power == "reverse":
                    why += " (and change direction)"
            elif effect == "answers":
                why = "answers the pick"
            else:
                why = f"sheds {pts} point{'' if pts == 1 else 's'}"
                if effect == "again":
                    why += ", and plays again"
            if lacked:
                why += f"; {{P{nxt + 1}}} could not follow {SYMBOLS[sym]}"
            reasons.append(why)
    return scores, scored


class WhotHintBot(Bot):
    """Plays the sheets' advice; see the module docstring."""

    name = "hint"

    def __init__(self, game: Any, rng: random.Random, **params: str) -> None:
        hold = params.pop("hold", "1")
        super().__init__(game, rng, **params)
        # hold=0 sheds a WHOT like any other card (for studying the seed 000 hint).
        self.hold = hold not in ("0", "no", "false", "off")

    def _score(
        self, view: dict[str, Any], legal: list[Move], reasons: list[str] | None = None
    ) -> tuple[list[float], list[WhotMove]]:
        game = self.game
        assert isinstance(game, WhotGame)
        lacks, _ = lacks_from_events(view_events(view), view["players"])
        return hint_scores(
            [parse_card(t) for t in view.get("hand", [])],
            view["hand_counts"],
            view["viewer"],
            view["direction"],
            view["pending_pick"],
            lacks,
            [m for m in legal if isinstance(m, WhotMove)],
            game.power_of,
            self.hold,
            reasons,
        )

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return _best(*self._score(view, legal), self.rng)

    def explain(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        reasons: list[str] = []
        scores, moves = self._score(view, legal, reasons)
        i = scores.index(max(scores))
        return moves[i], f"hint: {reasons[i]}"


def hint_policy(state: State, rng: random.Random) -> Move:
    """The move the `hint` bot (hold=1) would choose for the player to move, read straight off a
    full state (a search bot's determinization) without building a view, and from only what that
    player may know: its own hand, the card counts, and the public `lacks` the engine keeps. Ties
    are broken by `rng.choice` among the best, as the bot does."""
    assert isinstance(state, WhotState)
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    me = state.current
    assert me is not None
    hands = state.hands
    game = state.game
    scores, moves = hint_scores(
        hands[me],
        [len(h) for h in hands],
        me,
        state.direction,
        state.pending_pick,
        state.lacks,
        legal,  # type: ignore[arg-type]  # a Whot! state's moves are all WhotMoves
        game.power_of,
    )
    return _best(scores, moves, rng)


def _best(scores: list[float], moves: list[WhotMove], rng: random.Random) -> WhotMove:
    """One of the best-scored moves, ties broken by `rng` (the bot's and the policy's way)."""
    best = max(scores)
    return rng.choice([m for s, m in zip(scores, moves, strict=True) if s == best])


# --- playout help for the search bots (full sampled states only) ----------------------------------
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


# --- what the other seats' draws say of their hands (the search's `likely`) ----------------------
UNBOUNDED = -1


def held_at_most(events: Sequence[Any], n: int, whot_on_whot: bool) -> list[list[int]]:
    """Per seat, per symbol (0-4) and WHOT (5, the `card & 7` of a WHOT): the most cards of it the
    seat can hold if it plays whenever it can — as the `hint` and `greedy` rules both do (they
    never draw by choice) — or UNBOUNDED. A seat that drew one card (not a pick) while a symbol
    was called held none of that symbol and no WHOT (where a WHOT could go on the pile); since then
    it may hold as many as it has drawn, until it plays one. Public knowledge, from the events."""
    caps = [[UNBOUNDED] * 6 for _ in range(n)]
    call = -1
    top_whot = False

    def drew(q: int, k: int) -> None:
        c = caps[q]
        for i in range(6):
            if c[i] >= 0:
                c[i] += k

    for ev in events:
        kind = ev.kind
        if kind == "play":
            card = ev.move.card
            top_whot = card == WHOT
            call = ev.move.call if top_whot else card & 7
            if 0 <= ev.player < n:
                caps[ev.player][card & 7] = UNBOUNDED
        elif kind == "turn_up":
            c = parse_card(ev.card)
            top_whot = c == WHOT
            call = -1 if top_whot else c & 7
        elif kind == "draw" and 0 <= ev.player < n:
            if ev.cards == 1 and call >= 0:
                caps[ev.player][call] = 0
                if whot_on_whot or not top_whot:
                    caps[ev.player][WHOT & 7] = 0
            drew(ev.player, ev.cards)
        elif kind == "general_market":
            for q in range(n):
                if q != ev.player:
                    drew(q, 1)
        elif kind == "penalty" and 0 <= ev.player < n:
            drew(ev.player, ev.cards)
    return caps


_CAPS: dict[tuple[Any, ...], list[list[int]]] = {}


def likely(state: State, seat: int) -> bool:
    """Whether a determinization gives every other seat a hand it could hold having played as
    the hint and greedy rules do: never more cards of a kind than `held_at_most` allows."""
    assert isinstance(state, WhotState)
    events = tuple(state.events)
    caps = _CAPS.get(events)
    if caps is None:
        _CAPS.clear()  # one decision's events at a time: every draw of a pool shares them
        caps = _CAPS[events] = held_at_most(events, state.n, state.game.rules.whot_on_whot)
    hands = state.hands
    for q, cap in enumerate(caps):
        if q == seat or max(cap) < 0:
            continue
        counts = [0] * 8
        for c in hands[q]:
            counts[c & 7] += 1
        for k in range(6):
            if 0 <= cap[k] < counts[k]:
                return False
    return True


# What the search bots are told (the manifest's `search`): the other seat moves as the hint bot
# would (`model`), in the tree and in the playout, and a leaf is scored at the searcher's next turn
# (`settle`), not in the middle of someone's turn.
# A bot spec may name either rule, as model or playout (`ismcts:model=greedy,playout=greedy`).
# `likely` (what the draws say of a hand) is there for a spec to ask for (`likely=1`): it measured
# no gain (docs/lab/ladder.md, run 9), and the Whot! search's figures were measured without it.
SEARCH = SearchHelp(
    hint_policy,
    evaluate,
    depth=8,
    model=hint_policy,
    settle=True,
    likely=likely,
    likely_by_default=False,
    policies={"hint": hint_policy, "greedy": greedy_policy},
)
