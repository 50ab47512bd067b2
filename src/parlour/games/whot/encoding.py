"""Whot! for the RL adapters: action ids and the observation tensor (see docs/adapters.md).

Imported only by `parlour.adapters` (it needs NumPy); the engine never imports it.

Actions, for a rule set with declarations D (those of `rules.declarations`, in the order
`last card`, `semi-last card`, `check up`) and WHOT powers P (`rules.whot_powers`):

1. for each of the 49 numbered cards, in the order of `CARDS` (by number, then symbol):
   `play <card>`, then `play <card>, <d>` for each d in D;
2. for each called symbol (circle, triangle, cross, square, star), for each power in ("", *P):
   `play whot call <symbol> [<power>]`, then the same with each declaration in D;
3. `draw`, `end`, `pass`.

So the nigerian rules (no declarations, no WHOT powers) have 49 + 5 + 3 = 57 actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from parlour.adapters.encoding import (
    Field,
    FloatArray,
    Layout,
    TableEncoding,
    relative_seats,
)
from parlour.core import Game, Move

from .cards import PACK, SYMBOLS, WHOT, card_text
from .moves import DRAW, END, PASS, play
from .rules import DECLARATIONS, WhotRules

__all__ = ["CARDS", "ENCODINGS", "WhotEncoding"]

#: The 50 distinct cards (49 numbered, then WHOT), by number then symbol.
CARDS: tuple[int, ...] = tuple(sorted(set(PACK)))
_INDEX: dict[str, int] = {card_text(c): i for i, c in enumerate(CARDS)}
_NUMBERED = tuple(c for c in CARDS if c != WHOT)
_K = len(CARDS)


class WhotEncoding(TableEncoding):
    ACTIONS_DOC = __doc__.split("Actions, ", 1)[1].split("\n\nSo ", 1)[0] if __doc__ else ""

    def __init__(self, game: Game[Any]) -> None:
        rules: WhotRules = game.rules
        says = ("", *(d for d in DECLARATIONS if d in rules.declarations))
        moves: list[Move] = []
        for c in _NUMBERED:
            moves.extend(play(c, say=s) for s in says)
        for sym in range(len(SYMBOLS)):
            for power in ("", *rules.whot_powers):
                moves.extend(play(WHOT, sym, power, s) for s in says)
        moves += [DRAW, END, PASS]
        n = game.players
        most = float(54 * rules.packs)
        copies = float(5 * rules.packs)
        fields = [
            Field("hand", (_K,), "how many of each card the viewer holds (CARDS order)", 0, copies),
            Field("call_card", (_K,), "one-hot: the card on top of the pile", 0, 1),
            Field("call_symbol", (5,), "one-hot: the symbol to follow (a WHOT's call)", 0, 1),
            Field("free", (), "1 when any card may be played (no call card yet)", 0, 1),
            Field("pile", (_K,), "cards face up in the pile (since the last refill)", 0, copies),
            Field(
                "counts",
                (n,),
                "cards held by each seat, viewer first then round the table",
                0,
                most,
            ),
            Field(
                "known",
                (n, _K),
                "cards every player knows a seat holds (relative seats)",
                0,
                copies,
            ),
            Field("pack_count", (), "cards left in the market", 0, most),
            Field(
                "pack_public", (), "1 when the market's order is public (Storey turn-over)", 0, 1
            ),
            Field("pack_next", (_K,), "one-hot: the market's top card, when public", 0, 1),
            Field("direction", (), "+1 play passes to higher seats, -1 reversed", -1, 1),
            Field(
                "pending_pick", (), "cards the player to move must pick unless they answer", 0, most
            ),
            Field("pick_number", (), "number of the pick card being answered (0 if none)", 0, 20),
            Field("pending_skip", (), "1 when a WHOT's skip may be answered or accepted", 0, 1),
            Field(
                "turn_open", (), "1 while a turn of several cards is open (`end` closes it)", 0, 1
            ),
            Field("turn_cards", (_K,), "cards played so far in the open turn", 0, copies),
            Field(
                "turn_said", (3,), "declarations said this turn (last, semi-last, check up)", 0, 1
            ),
            Field("straight_dir", (), "direction of the straight being played (-1, 0, +1)", -1, 1),
            Field("to_play", (n,), "one-hot: the seat to move, relative to the viewer", 0, 1),
            Field("is_over", (), "1 once the game is over", 0, 1),
        ]
        super().__init__(game, Layout(fields), moves)

    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        n = self.game.players
        seats = relative_seats(view.get("viewer"), n)
        idx = _INDEX
        for t in view.get("hand", ()):
            parts["hand"][idx[t]] += 1
        pile = view["pile"]
        if pile:
            parts["call_card"][idx[pile[-1]]] = 1
        for t in pile:
            parts["pile"][idx[t]] += 1
        if view["call"]:
            parts["call_symbol"][SYMBOLS.index(view["call"])] = 1
        parts["free"][0] = float(view["free"])
        counts, known = view["counts"], view["known"]
        for k, q in enumerate(seats):
            parts["counts"][k] = counts[q]
            for t in known[q]:
                parts["known"][k, idx[t]] += 1
        parts["pack_count"][0] = view["pack_count"]
        if view["pack"] is not None:
            parts["pack_public"][0] = 1
            if view["pack"]:
                parts["pack_next"][idx[view["pack"][0]]] = 1
        parts["direction"][0] = view["direction"]
        parts["pending_pick"][0] = view["pending_pick"]
        parts["pick_number"][0] = view["pick_number"] or 0
        parts["pending_skip"][0] = float(view["pending_skip"])
        if view["turn_cards"]:
            parts["turn_open"][0] = 1
            for t in view["turn_cards"]:
                parts["turn_cards"][idx[t]] += 1
        for s in view["turn_said"]:
            parts["turn_said"][DECLARATIONS.index(s)] = 1
        parts["straight_dir"][0] = np.sign(view["straight_dir"])
        if view["to_play"] is not None:
            parts["to_play"][seats.index(view["to_play"])] = 1
        parts["is_over"][0] = float(view["is_over"])


ENCODINGS = {"whot": WhotEncoding}
