"""The Whot! `counter` bot: the greedy rule's race, played with what the seat may KNOW.

Between two players Whot! is a race to go out: a card the other seat cannot follow makes it
draw, so the card to shed is the one it is least likely to follow, and a card kept to follow with
is worth more than its points. The bot counts what it has seen and plays by these rules:

- seed 000 HINTS ON PLAY: "note which numbers and symbols your opponents cannot follow" — and
  count the cards: every card played lies in the pile, the bot's own are in its hand, and what is
  left (the unseen cards) is where the next player's hand comes from. A seat that drew one card
  while a symbol was called held none of it and no WHOT, and since then holds at most the cards
  it has drawn (`held_at_most`, public events only). From these the bot rates each card by the
  chance that the next player can NOT follow it (by symbol, by number or with a WHOT).
- Keep a card to follow with: a card the next player cannot follow stays the call, so it is worth
  most when the bot holds another card that follows it; and the hand kept should follow as many
  of the unseen cards as it can (a WHOT follows anything).
- seed 000: "it is sometimes good to hold back a "WHOT" Card" — a WHOT is kept while another card
  will do; played, it calls the symbol the next player is least likely to hold, among those the
  bot can follow itself.
- seed 002 Strategy: "It is advisable to play the cards with the highest values first" — the
  points decide only between cards of equal worth otherwise.
- seed 002 (Nigerian powers, between two players): Hold on and Suspension give the bot another
  turn, General market too and a card to the other seat — worth most with a card to follow them;
  a Pick two / Pick three the other seat cannot answer (no card of its number) costs it two or
  three cards and gives the bot the next turn.
- Always say the declarations (last card, semi-last card, check up): they are free.

It reads only its view (`Bot.choose(view, legal)`): its hand, the pile, the card counts, the
cards every seat knows (a turned-over pack and the cards drawn from it) and the public events.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot, number_params
from parlour.core import Move

from .cards import PACK, WHOT, card_points, parse_card
from .engine import WhotGame, view_events
from .hint import UNBOUNDED, held_at_most
from .moves import WhotMove

__all__ = ["PARAMS", "CounterBot", "follow_chance"]

#: The weights of the rules, in cards of the race (a bot spec may set any: `counter:own=1.5`).
#: Tuned against `greedy` by matches on the ladder's seeds 1 and 11 (`--seed`), not on 2024.
PARAMS: dict[str, float] = {
    "stop": 0.3,  # the chance that the next seat cannot follow the card
    "own": 1.0,  # ... counted again when the bot holds a card to follow it itself
    "flex": 1.0,  # the share of the unseen cards the hand kept can follow
    "points": 0.05,  # per point of the card (seed 002: the highest values first)
    "whot": 0.5,  # the cost of spending a WHOT (seed 000: hold it back)
    "held": 0.5,  # a WHOT's call: the share of the hand kept of that symbol
    "card": 1.0,  # each card more shed in a turn that goes on (Hold on, Suspension, Gen. market)
    "stuck": 1.0,  # a turn given back with nothing to follow: the bot draws
    "market": 0.5,  # each card General market gives the others
    "pick": 0.5,  # each card of a pick the next seat cannot answer
    "again": 1.0,  # ... and the turn it gives back, with a card to follow the pick
}


def follow_chance(
    sym: int,
    num: int,
    known: Sequence[int],
    unseen: Sequence[int],
    hidden: int,
    caps: Sequence[int],
) -> float:
    """The chance that a seat can follow a call of `sym` (and `num`; -1 for a WHOT's call): it
    holds `known` (cards every seat saw it take) and `hidden` cards more out of `unseen`. `caps[g]`
    bounds the cards of symbol g (5: WHOTs) it can hold: it held none when it was seen not to
    follow, so they can only be among the `caps[g]` cards it has drawn since (UNBOUNDED: no bound).
    Each card is taken to be held independently, which is close enough to rank the cards."""
    for x in known:
        if x == WHOT or x & 7 == sym or x >> 3 == num:
            return 1.0
    total = len(unseen)
    if hidden <= 0 or total == 0:
        return 0.0
    base = min(1.0, hidden / total)
    none = 1.0
    bounded = [0] * 8  # followers per symbol whose cards the seat holds few of
    for x in unseen:
        if x == WHOT or x & 7 == sym or x >> 3 == num:
            if caps[x & 7] == UNBOUNDED:
                none *= 1.0 - base
            else:
                bounded[x & 7] += 1
    for g, k in enumerate(bounded):
        if k:
            # each of the few cards drawn since is one of these k with chance k / total
            none *= (1.0 - k / total) ** min(caps[g], hidden)
    return 1.0 - none


class CounterBot(Bot):
    """Plays the card the next seat is least likely to follow; see the module docstring."""

    name = "counter"

    def __init__(self, game: Any, rng: random.Random, **params: str) -> None:
        weights = number_params("counter", PARAMS, params)
        super().__init__(game, rng, **params)
        self.w = weights

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        plays = [m for m in legal if isinstance(m, WhotMove) and m.kind == "play"]
        if not plays:
            for m in legal:
                if isinstance(m, WhotMove) and m.kind in ("end", "draw", "pass"):
                    return m
            return self.rng.choice(legal)
        # Declarations are free: only the said version of a play that has one.
        said = {(m.card, m.call, m.power) for m in plays if m.say}
        if said:
            plays = [m for m in plays if m.say or (m.card, m.call, m.power) not in said]
        hand = [parse_card(t) for t in view.get("hand", [])]
        if len(hand) == 1:
            return plays[0]  # the last card: it goes out
        scores = self._scores(view, hand, plays)
        best = max(scores)
        return plays[scores.index(best)]

    def _scores(
        self, view: Mapping[str, Any], hand: list[int], plays: list[WhotMove]
    ) -> list[float]:
        w = self.w
        game = self.game
        assert isinstance(game, WhotGame)
        rules = game.rules
        n = view["players"]
        me = view["viewer"]
        nxt = (me + view["direction"]) % n
        counts = view["hand_counts"]
        # The cards not seen: the packs less the bot's hand, the pile, a turned-over pack (public)
        # and the cards every seat saw the others take from it.
        left = Counter(PACK * rules.packs)
        left.subtract(hand)
        left.subtract(parse_card(t) for t in view.get("pile", []))
        if view.get("pack"):
            left.subtract(parse_card(t) for t in view["pack"])
        known = [[parse_card(t) for t in k] for k in view.get("known", [[] for _ in range(n)])]
        for q in range(n):
            if q != me:
                left.subtract(known[q])
        unseen = [c for c, k in left.items() for _ in range(max(k, 0))]
        caps = held_at_most(view_events(view), n, rules.whot_on_whot)[nxt]
        hidden = counts[nxt] - len(known[nxt])
        opp_known = known[nxt]

        def stops(sym: int, num: int) -> float:
            return 1.0 - follow_chance(sym, num, opp_known, unseen, hidden, caps)

        def flex(kept: list[int]) -> float:
            if WHOT in kept or not unseen:
                return 1.0
            syms = {x & 7 for x in kept}
            nums = {x >> 3 for x in kept}
            ok = sum(1 for x in unseen if x == WHOT or x & 7 in syms or x >> 3 in nums)
            return ok / len(unseen)

        def number_chance(num: int) -> float:
            """The chance the next seat holds a card of number `num` (to answer a pick)."""
            no_whot = [UNBOUNDED] * 5 + [0, 0, 0]
            return follow_chance(
                -1, num, [x for x in opp_known if x != WHOT], unseen, hidden, no_whot
            )

        power_of = game.power_of
        pending = view.get("pending_pick", 0)
        keeps_turn = {"hold_on", "general_market"} | ({"suspension"} if n == 2 else set())

        def last_card(c: int, call: int, kept: list[int]) -> float:
            """The worth of ending the turn with `c` (calling `call` if a WHOT), keeping `kept`."""
            if not kept:
                return 1e6  # goes out
            f = w["flex"] * flex(kept)
            if c == WHOT:
                own = any(x == WHOT or x & 7 == call for x in kept)
                s = w["stop"] * stops(call, -1) * (1.0 + w["own"] * own) + f - w["whot"]
                # and, as the greedy rule, the symbol held most: to follow whatever answers it
                s += w["held"] * sum(1 for x in kept if x & 7 == call) / len(kept)
                return s
            sym, num = c & 7, c >> 3
            own = any(x == WHOT or x & 7 == sym or x >> 3 == num for x in kept)
            power = power_of.get(num)
            s = f + w["points"] * card_points(c)
            if power in ("pick_two", "pick_three") and not pending:
                k = 2 if power == "pick_two" else 3
                answered = number_chance(num) if rules.pick_stacking else 0.0
                s += (1.0 - answered) * (w["pick"] * k + (w["again"] if own else 0.0))
            else:
                s += w["stop"] * stops(sym, num) * (1.0 + w["own"] * own)
            return s

        memo: dict[tuple[tuple[int, ...], int], float] = {}
        finish_on_power = rules.may_finish_on_special

        def go_on(kept: list[int], c: int) -> float:
            """The best the bot can make of the turn `c` gave it back: shed a card that follows
            `c` (and go on, if that too keeps the turn), or draw."""
            key = (tuple(sorted(kept)), c)
            if key in memo:
                return memo[key]
            best = -w["stuck"]  # nothing follows: the bot draws
            sym, num = c & 7, c >> 3
            for x in set(kept):
                if x != WHOT and x & 7 != sym and x >> 3 != num:
                    continue
                rest = kept[:]
                rest.remove(x)
                if not rest and not finish_on_power and power_of.get(x >> 3):
                    continue  # the rules forbid going out on it
                if x == WHOT:
                    v = max(last_card(x, call, rest) for call in range(5))
                else:
                    v = step(x, rest)
                best = max(best, w["card"] + v)
            memo[key] = best
            return best

        def step(c: int, kept: list[int]) -> float:
            """The worth of playing `c` (not a WHOT), keeping `kept`: to end the turn, or to go on
            where its power gives the bot the turn back."""
            if not kept:
                return 1e6
            if power_of.get(c >> 3) in keeps_turn:
                v = go_on(kept, c)
                if power_of.get(c >> 3) == "general_market":
                    v += w["market"] * (n - 1)
                return v
            return last_card(c, -1, kept)

        scores: list[float] = []
        for m in plays:
            c = m.card
            kept = hand[:]
            kept.remove(c)
            if c == WHOT:
                scores.append(last_card(c, m.call, kept))
            elif pending:
                scores.append(last_card(c, -1, kept))
            else:
                scores.append(step(c, kept))
        return scores
