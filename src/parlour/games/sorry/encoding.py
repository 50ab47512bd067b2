"""Sorry! for the RL adapters: action ids and the observation tensor (see docs/adapters.md).

Imported only by `parlour.adapters` (it needs NumPy); the engine never imports it.

Actions are numbered arithmetically from a move's fields (square codes as in `board`: 0..59 track,
60..79 safety zones), in six blocks, 43,140 ids whatever the table and rules:

    0      pass          12: `pass` (regular game), then `pass <card>` for 1 2 3 4 5 7 8 10 11 12 S
    12     enter          8: (card 1 or 2) x colour red, blue, yellow, green
    20     move         880: (1 +1, 2 +2, 3 +3, 4 -4, 5 +5, 7 +7, 8 +8, 10 +10, 10 -1, 11 +11,
                             12 +12) x 80 squares the pawn moves from
    900    swap        3600: 11 — own pawn's track square x opponent's track square (60 x 60)
    4500   sorry        240: S — START colour x track square (4 x 60)
    4740   split 7    38400: first square x second square x first step 1..6 (80 x 80 x 6)

Most ids can never be legal (a split of a pawn with itself); the mask says which are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from parlour.adapters.encoding import (
    VIEW_FROM,
    BaseEncoding,
    Field,
    FloatArray,
    Int8Array,
    Layout,
    Observer,
    TableObserver,
)
from parlour.core import Game, IllegalMove, Move, State

from .board import COLOURS, SAFETY_BASE, TRACK, parse_square, rel_of_abs
from .cards import SORRY, VALUES, parse_card
from .engine import SorryState
from .notation import ENTER, MOVE, PASS, SORRY_MOVE, SPLIT, SWAP, SorryMove
from .observer import SorryObserver, SorryTable

__all__ = ["SorryEncoding"]

_PASS_CARDS = (0, *VALUES)
_STEPS: tuple[tuple[int, int], ...] = (
    *((1, 1), (2, 2), (3, 3), (4, -4), (5, 5), (7, 7)),
    *((8, 8), (10, 10), (10, -1), (11, 11), (12, 12)),
)
_STEP_INDEX = {cs: i for i, cs in enumerate(_STEPS)}
_SQUARES = 80
PASS_AT = 0
ENTER_AT = PASS_AT + len(_PASS_CARDS)
MOVE_AT = ENTER_AT + 2 * 4
SWAP_AT = MOVE_AT + len(_STEPS) * _SQUARES
SORRY_AT = SWAP_AT + TRACK * TRACK
SPLIT_AT = SORRY_AT + 4 * TRACK
NUM_ACTIONS = SPLIT_AT + _SQUARES * _SQUARES * 6
_PLACES = TRACK + 5 + 2  # track in the viewer's frame, the colour's safety zone, START, HOME
_VALUE_INDEX = {c: i for i, c in enumerate(VALUES)}


class SorryEncoding(BaseEncoding):
    ACTIONS_DOC = __doc__.split("in six blocks, ", 1)[1].split("\n\nMost", 1)[0] if __doc__ else ""

    def __init__(self, game: Game[Any, Any]) -> None:
        size = float(len(VALUES) * 5)
        fields = [
            Field(
                "pawns",
                (4, _PLACES),
                "pawns of each colour slot at each place: 0..59 the track counted in the viewer's "
                "frame (0 = the square just past the viewer's own diamond, so the viewer's start "
                "exit is 1), 60..64 the colour's safety zone, 65 START, 66 HOME. Slot 0 is the "
                "viewer's (first) colour, then the colours clockwise",
                0,
                4,
            ),
            Field("in_play", (4,), "1 for each colour slot in play", 0, 1),
            Field("mine", (4,), "1 for each colour slot the viewer moves", 0, 1),
            Field("team", (4,), "1 for each colour slot on the viewer's side (partners)", 0, 1),
            Field("turn", (4,), "one-hot: the colour slot whose turn it is", 0, 1),
            Field("card", (11,), "one-hot: the card drawn for this turn (regular game)", 0, 1),
            Field("hands", (4, 11), "point-score game: the viewer's cards by colour slot", 0, 5),
            Field("hand_sizes", (4,), "point-score game: cards in each colour's hand", 0, size),
            Field("again", (), "1 when a 2 lets the same colour draw again", 0, 1),
            Field("discard", (11,), "cards in the discard pile, by value", 0, 5),
            Field("pack", (), "cards left in the pack", 0, size),
            Field("is_over", (), "1 once the game is over", 0, 1),
        ]
        super().__init__(game, Layout(fields), NUM_ACTIONS)
        # The ids of the moves seen so far: moves are interned and hash by identity, so a lookup
        # is cheaper than working the id out again (at most NUM_ACTIONS entries).
        self._id_of: dict[Move, int] = {}
        self._move_of: dict[int, Move] = {}  # and the moves of the ids decoded so far

    # --- actions -------------------------------------------------------------------------------
    def action_id(self, move: Move) -> int:
        if not isinstance(move, SorryMove):
            raise IllegalMove(f"{move!r} is not a Sorry! move")
        k = move.kind
        if k == PASS:
            return PASS_AT + _PASS_CARDS.index(move.card)
        if k == ENTER:
            return ENTER_AT + (move.card - 1) * 4 + move.a
        if k == MOVE:
            return MOVE_AT + _STEP_INDEX[(move.card, move.n)] * _SQUARES + move.a
        if k == SWAP:
            return SWAP_AT + move.a * TRACK + move.b
        if k == SORRY_MOVE:
            return SORRY_AT + move.a * TRACK + move.b
        assert k == SPLIT
        return SPLIT_AT + (move.a * _SQUARES + move.b) * 6 + move.n - 1

    def _ids(self, legal: Sequence[Move]) -> list[int]:
        return [self._id(m) for m in legal]

    def _id(self, move: Move) -> int:
        i = self._id_of.get(move)
        if i is None:
            i = self._id_of[move] = self.action_id(move)
        return i

    def mask(self, legal: Sequence[Move]) -> Int8Array:
        # `BaseEncoding.mask` with the ids looked up in place, on fresh zeros (for 43,140 ids
        # NumPy's zeros take two thirds of the time of a copy of a kept zero mask)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        view: Any = mask.data if len(legal) >= VIEW_FROM else mask  # (see VIEW_FROM)
        ids = self._id_of
        for m in legal:
            i = ids.get(m)
            view[self._id(m) if i is None else i] = 1
        return mask

    def _move(self, action: int) -> Move:
        move = self._move_of.get(action)
        if move is None:
            move = self._move_of[action] = self._decode(action)
        return move

    def _decode(self, action: int) -> Move:
        if action < ENTER_AT:
            return SorryMove(_PASS_CARDS[action - PASS_AT], PASS)
        if action < MOVE_AT:
            card, colour = divmod(action - ENTER_AT, 4)
            return SorryMove(card + 1, ENTER, colour)
        if action < SWAP_AT:
            step, sq = divmod(action - MOVE_AT, _SQUARES)
            card, n = _STEPS[step]
            return SorryMove(card, MOVE, sq, n)
        if action < SORRY_AT:
            a, b = divmod(action - SWAP_AT, TRACK)
            return SorryMove(11, SWAP, a, 0, b, 0)
        if action < SPLIT_AT:
            colour, b = divmod(action - SORRY_AT, TRACK)
            return SorryMove(SORRY, SORRY_MOVE, colour, 0, b)
        ab, n1 = divmod(action - SPLIT_AT, 6)
        a, b = divmod(ab, _SQUARES)
        return SorryMove(7, SPLIT, a, n1 + 1, b, 6 - n1)

    # --- observations --------------------------------------------------------------------------
    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        viewer = view.get("viewer")
        names: list[str] = view["colours"]
        seats: list[int] = view["seats"]
        me = viewer if viewer is not None else 0
        mine = [ci for ci, s in enumerate(seats) if s == me] or [0]
        c0 = COLOURS.index(names[mine[0]])
        partnership = bool(view["partnership"])

        def slot(name: str) -> int:
            return (COLOURS.index(name) - c0) % 4

        def side(ci: int) -> int:
            return ci % 2 if partnership else ci

        for ci, name in enumerate(names):
            k = slot(name)
            parts["in_play"][k] = 1
            if seats[ci] == me:
                parts["mine"][k] = 1
            if side(ci) == side(mine[0]):
                parts["team"][k] = 1
        pawns = parts["pawns"]
        for name, squares in view["pawns"].items():
            k = slot(name)
            for sq in squares:
                if sq == "start":
                    place = TRACK + 5
                elif sq == "home":
                    place = TRACK + 6
                else:
                    code = parse_square(sq)
                    assert code is not None, sq
                    place = (
                        rel_of_abs(c0, code) if code < TRACK else TRACK + (code - SAFETY_BASE) % 5
                    )
                pawns[k, place] += 1
        if view["turn"] is not None:
            parts["turn"][slot(view["turn"])] = 1
        if view["card"]:
            parts["card"][_VALUE_INDEX[_card(view["card"])]] = 1
        for name, cards in (view.get("hands") or {}).items():
            for t in cards:
                parts["hands"][slot(name), _VALUE_INDEX[_card(t)]] += 1
        for name, k in (view.get("hand_sizes") or {}).items():
            parts["hand_sizes"][slot(name)] = k
        parts["again"][0] = float(view["again"])
        for t in view["discard"]:
            parts["discard"][_VALUE_INDEX[_card(t)]] += 1
        parts["pack"][0] = view["pack"]
        parts["is_over"][0] = float(view["is_over"])

    def observer(self, state: State, seat: int) -> Observer:
        if not isinstance(state, SorryState):
            return super().observer(state, seat)
        return SorryObserver(self, state, seat)

    def table_observer(self, state: State) -> TableObserver:
        if not isinstance(state, SorryState):
            return super().table_observer(state)
        return SorryTable(self, state)


def _card(token: str) -> int:
    c = parse_card(token)
    assert c is not None, token
    return c
