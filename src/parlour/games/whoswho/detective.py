"""The Who's Who `detective` bot for Game No. 2 (books): the sleuth, also reading what is unsaid.

The sleuth (`sleuth`) reads from the log what a caller must hold: a card of the number it called
(RULES-NOTES: "a caller must hold a card of the number called"). The detective reads as well what
a caller cannot hold:

- a caller who wants to keep the call makes a sure call when it has one (seed 004: a successful
  call keeps the call; a failed one "goes to the player he last called on"), and the hint, the
  sleuth and the detective all do. So a caller that makes a call the table could not be sure of,
  and is refused, had no sure call: it holds no card of any number of which the table knew a card
  to be in another hand — it could have called for that card;
- it cannot come by a card of such a number later, since it may call only for a number it holds;
  only a card sent back to it (the "Thank you" rule) brings one back. The fact holds until the
  book is laid down. A seat that calls for such a number after all does not play so, and what was
  read of it is dropped.

Those seats are struck from the possible holders of the cards of those numbers (never the last
one), and the sleuth's fit of chances (`call_chances`) runs on what is left. Then it calls as the
sleuth does, but reads the chances to the nearest `grain` hundredths (default 10): calls about as
likely to be answered are taken as alike, and among them the one for the number it holds most of
(the nearer a book, the sooner it is laid down and out of reach), then on the largest hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core import RulesError

from .deck import Card, parse_card
from .sleuth import _CARD_BY_TEXT, BooksSleuthBot, call_chances, must_hold

__all__ = ["BooksDetectiveBot", "detective_chances", "lacks"]


def lacks(log: Sequence[Mapping[str, Any]], players: int) -> list[set[int]]:
    """Per seat, the numbers the log shows it holds no card of, if it makes a sure call whenever
    it has one (module doc): read at each refused call the table could not be sure of, from the
    cards the table then knew the place of; cleared by a card of the number sent back to the seat,
    by the seat calling for the number, and by the book."""
    everyone = frozenset(range(players))
    holders: dict[str, frozenset[int]] = {}
    out: list[set[int]] = [set() for _ in range(players)]
    for e in log:
        kind = e["kind"]
        if kind == "call":
            p, q, card = e["player"], e["target"], e["card"]
            number = _CARD_BY_TEXT[card].number
            out[p].discard(number)  # it holds one after all
            if not e["given"] and holders.get(card) != frozenset((q,)):
                out[p] |= {
                    _CARD_BY_TEXT[c].number
                    for c, who in holders.items()
                    if len(who) == 1 and p not in who
                }
            if e["given"]:
                holders[card] = frozenset((p,))
            else:
                holders[card] = holders.get(card, everyone) - {p, q}
        elif kind == "return":
            holders[e["card"]] = frozenset((e["to"],))
            out[e["to"]].discard(_CARD_BY_TEXT[e["card"]].number)
        elif kind == "book":
            x = e["number"]
            for c in [c for c in holders if _CARD_BY_TEXT[c].number == x]:
                del holders[c]
            for s in out:
                s.discard(x)
    return out


def detective_chances(
    view: Mapping[str, Any], caller_must_hold: bool = True
) -> dict[Card, dict[int, float]]:
    """For each card the viewer neither holds nor sees in a book, the chance each other seat
    holds it: the sleuth's fit (`call_chances`) with the seats `lacks` rules out struck first."""
    me: int = view["viewer"]
    players: int = view["players"]
    hand = [parse_card(t) for t in view.get("hand", [])]
    sizes: Sequence[int] = view["hand_counts"]
    booked = [x for bs in view["books"] for x in bs]
    log = view.get("log", [])
    holders: dict[Card, Sequence[int]] = {
        _CARD_BY_TEXT[t]: who for t, who in view.get("holders", {}).items()
    }
    if not caller_must_hold:
        # without the rule a call shows nothing of the caller's hand, and a sure call no more
        return call_chances(me, hand, sizes, booked, holders, [set() for _ in range(players)])
    need = must_hold(log, players)
    gone = lacks(log, players)
    mine = set(hand)
    done = set(booked)
    for c in _CARD_BY_TEXT.values():
        if c in mine or c.number in done:
            continue
        allowed = holders.get(c)
        seats = [
            q for q in (range(players) if allowed is None else allowed) if q != me and sizes[q] > 0
        ]
        keep = [q for q in seats if c.number not in gone[q] or c.number in need[q]]
        if keep and len(keep) < len(seats):
            holders[c] = keep
    return call_chances(me, hand, sizes, booked, holders, need)


class BooksDetectiveBot(BooksSleuthBot):
    """Game No. 2: "Thank you" when owed; else the sleuth's call, from chances that also read
    what a refused call shows the caller lacks (module doc)."""

    name = "detective"
    #: chances are compared to the nearest `grain` hundredths (`detective:grain=N`, 1 to 50)
    grain = 10

    def __init__(self, game: Any, rng: random.Random, **params: str) -> None:
        grain = params.pop("grain", None)
        super().__init__(game, rng, **params)
        if grain is not None:
            if not grain.isdigit() or not 1 <= int(grain) <= 50:
                raise RulesError(f"detective: grain must be a whole number 1 to 50, not {grain}")
            self.grain = int(grain)

    def chances(self, view: Mapping[str, Any]) -> dict[Card, dict[int, float]]:
        return detective_chances(view, self.game.rules.caller_must_hold)

    def near(self, p: float) -> float:
        # Chances within `grain` hundredths are alike; a sure call stays apart from one merely
        # likely: it keeps the call for certain.
        if p >= 0.999:
            return p
        step = self.grain / 100
        return round(p / step) * step
