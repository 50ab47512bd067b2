"""Who's Who for the RL adapters: action ids and observation tensors (see docs/adapters.md).

Imported only by `parlour.adapters` (it needs NumPy); the engine never imports it.

Cards are numbered in `DECK` order: suit (money, society, brains, sport), then number 3..15, so the
card `n s` is `13 * suit_index + n - 3`.

Game No. 1 (whoswho-tricks), 56 actions: `prefer <suit>` for the four suits (0..3), then
`play <card>` for the 52 cards (4..55).

Game No. 2 (whoswho-books), 52 x players + 1 actions: `ask <seat> for <card>` as
`52 * seat + card` (seat from 0; asking oneself is never legal), then `thank` last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.adapters.encoding import (
    VIEW_FROM,
    Field,
    FloatArray,
    Int8Array,
    Layout,
    Observer,
    TableEncoding,
    TableObserver,
    relative_seats,
)
from parlour.core import Game, Move, State

from .books import BooksState
from .deck import DECK, SUITS, Card, parse_card
from .notation import THANK, Ask, Play, Prefer, Thank
from .observers import BooksObserver, BooksTable, TricksObserver, TricksTable
from .tricks import _PLAY_MOVES, _PREFER_MOVES, TricksState

__all__ = ["BooksEncoding", "TricksEncoding"]

_CARD_INDEX = {str(c): i for i, c in enumerate(DECK)}
_DECK_AT: dict[Card, int] = {c: i for i, c in enumerate(DECK)}
_SUIT_AT = {s: i for i, s in enumerate(SUITS)}
# The masks work each id out from the move's fields: the moves are frozen dataclasses, whose hash
# (a Python call) cost more than all the rest of looking them up in the action table.
_PHASES = ("prefer", "play", "over")


def _seat_fields(n: int, names: dict[str, str], high: float = 1.0) -> list[Field]:
    return [
        Field(name, (n,), doc + " (viewer first, then round the table)", 0, high)
        for name, doc in names.items()
    ]


class TricksEncoding(TableEncoding):
    ACTIONS_DOC = (
        "56 actions: `prefer <suit>` for money, society, brains, sport (0..3), then "
        "`play <card>` for the 52 cards in DECK order (4..55)."
    )

    def __init__(self, game: Game[Any, Any]) -> None:
        n = game.players
        # The engine's own move objects, those its legal moves are: a decoded move is then found
        # in the legal list by identity, not by a frozen dataclass's __eq__ (a Python call).
        moves: list[Move] = [_PREFER_MOVES.get(s) or Prefer(s) for s in SUITS]
        moves += [_PLAY_MOVES.get(c) or Play(c) for c in DECK]
        total = float(52 * getattr(game, "total_deals", 1))
        fields = [
            Field("hand", (52,), "1 for each card the viewer holds (DECK order)"),
            Field("trick", (n, 52), "the card each relative seat has played to the current trick"),
            Field("played", (52,), "cards in the finished tricks of this deal"),
            Field("preference", (4,), "one-hot: this deal's Preference suit"),
            Field("led", (4,), "one-hot: the suit led in the current trick"),
            Field("phase", (3,), "one-hot: prefer, play, over"),
            *_seat_fields(
                n,
                {
                    "to_play": "one-hot: the seat to move",
                    "dealer": "one-hot: the dealer",
                    "namer": "one-hot: the seat that names the Preference suit",
                    "leader": "one-hot: the seat that led the current trick",
                    "team": "1 for the viewer and the viewer's partner",
                },
            ),
            *_seat_fields(n, {"won": "tricks won this deal"}, 52),
            *_seat_fields(n, {"scores": "tricks won over the game"}, total),
            *_seat_fields(n, {"hand_counts": "cards in each hand"}, 52),
            Field("stock", (), "cards left in the stock", 0, 52),
            Field("progress", (), "deals finished / deals in the game", 0, 1),
            Field("is_over", (), "1 once the game is over", 0, 1),
        ]
        super().__init__(game, Layout(fields), moves)

    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        n = self.game.players
        seats = relative_seats(view.get("viewer"), n)
        rel = {q: k for k, q in enumerate(seats)}
        idx = _CARD_INDEX
        for t in view.get("hand", ()):
            parts["hand"][idx[t]] = 1
        trick = view["trick"]
        for q, t in trick:
            parts["trick"][rel[q], idx[t]] = 1
        if trick:
            parts["led"][SUITS.index(parse_card(trick[0][1]).suit)] = 1
        for tr in view["tricks"]:
            for _q, t in tr["cards"]:
                parts["played"][idx[t]] = 1
        if view["preference"]:
            parts["preference"][SUITS.index(view["preference"])] = 1
        parts["phase"][_PHASES.index(view["phase"])] = 1
        for key in ("to_play", "dealer", "namer", "leader"):
            if view.get(key) is not None:
                parts[key][rel[view[key]]] = 1
        me = seats[0]
        teams = view.get("teams") or [[me]]
        for team in teams:
            if me in team:
                for q in team:
                    parts["team"][rel[q]] = 1
        parts["team"][0] = 1
        for k, q in enumerate(seats):
            parts["won"][k] = view["won"][q]
            parts["scores"][k] = view["scores"][q]
            parts["hand_counts"][k] = view["hand_counts"][q]
        parts["stock"][0] = view["stock_count"]
        parts["progress"][0] = view["deals_done"] / max(1, view["deals"])
        parts["is_over"][0] = float(view["is_over"])

    def mask(self, legal: Sequence[Move]) -> Int8Array:
        mask = self._no_moves.copy()
        view: Any = mask.data if len(legal) >= VIEW_FROM else mask  # (see VIEW_FROM)
        moves: Sequence[Any] = legal  # (their fields read by class, below)
        try:
            for m in moves:
                cls = m.__class__
                if cls is Play:
                    view[4 + _DECK_AT[m.card]] = 1
                elif cls is Prefer:
                    view[_SUIT_AT[m.suit]] = 1
                else:
                    raise KeyError(m)
        except KeyError:
            return super().mask(legal)  # raises, naming the move
        return mask

    def observer(self, state: State, seat: int) -> Observer:
        if not isinstance(state, TricksState):
            return super().observer(state, seat)
        return TricksObserver(self, state, seat)

    def table_observer(self, state: State) -> TableObserver:
        if not isinstance(state, TricksState):
            return super().table_observer(state)
        return TricksTable(self, state)


class BooksEncoding(TableEncoding):
    ACTIONS_DOC = (
        "52 x players + 1 actions: `ask <seat> for <card>` is 52 * seat + card (seat "
        "from 0, card in DECK order; asking oneself is never legal), then `thank` last."
    )

    def __init__(self, game: Game[Any, Any]) -> None:
        n = game.players
        # the engine's own move objects, as for Game No. 1
        asks: dict[tuple[int, Card], Move] = getattr(game, "_asks", {})
        moves: list[Move] = [asks.get((q, c)) or Ask(q, c) for q in range(n) for c in DECK]
        moves.append(THANK)
        fields = [
            Field("hand", (52,), "1 for each card the viewer holds (DECK order)"),
            Field("known", (n, 52), "cards the table knows each relative seat holds"),
            Field(
                "ruled_out",
                (n, 52),
                "cards the table knows a relative seat does not hold (from failed calls and "
                "transfers)",
            ),
            Field("books", (n, 13), "numbers 3..15 each relative seat has laid down as books"),
            Field("pending_card", (52,), "the card just given, awaiting `thank`"),
            *_seat_fields(
                n,
                {
                    "pending_giver": "one-hot: who gave the card awaiting `thank`",
                    "to_play": "one-hot: the seat to move",
                    "dealer": "one-hot: the dealer",
                },
            ),
            *_seat_fields(n, {"hand_counts": "cards in each hand"}, 52),
            *_seat_fields(n, {"book_counts": "books laid down by each seat"}, 13),
            Field("is_over", (), "1 once the game is over", 0, 1),
        ]
        super().__init__(game, Layout(fields), moves)

    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        n = self.game.players
        seats = relative_seats(view.get("viewer"), n)
        rel = {q: k for k, q in enumerate(seats)}
        idx = _CARD_INDEX
        for t in view.get("hand", ()):
            parts["hand"][idx[t]] = 1
        for q, cards in enumerate(view["known"]):
            for t in cards:
                parts["known"][rel[q], idx[t]] = 1
        for t, who in view["holders"].items():
            i = idx[t]
            for q in range(n):
                if q not in who:
                    parts["ruled_out"][rel[q], i] = 1
        for q, numbers in enumerate(view["books"]):
            for x in numbers:
                parts["books"][rel[q], int(x) - 3] = 1
        pend = view["pending"]
        if pend is not None:
            parts["pending_card"][idx[pend["card"]]] = 1
            parts["pending_giver"][rel[pend["giver"]]] = 1
        if view["to_play"] is not None:
            parts["to_play"][rel[view["to_play"]]] = 1
        parts["dealer"][rel[view["dealer"]]] = 1
        for k, q in enumerate(seats):
            parts["hand_counts"][k] = view["hand_counts"][q]
            parts["book_counts"][k] = view["book_counts"][q]
        parts["is_over"][0] = float(view["is_over"])

    def mask(self, legal: Sequence[Move]) -> Int8Array:
        # A turn offers an ask for every card of each number held, of each other seat (48 at
        # the median of random play): from 7 moves on, one scatter beats this loop's writes.
        if len(legal) > 6:
            return self.scattered_mask(legal)
        mask = self._no_moves.copy()
        view: Any = mask  # (for 6 moves at most: see VIEW_FROM)
        n, thank = self.game.players, self.num_actions - 1
        moves: Sequence[Any] = legal  # (their fields read by class, below)
        try:
            for m in moves:
                cls = m.__class__
                if cls is Ask:
                    q = m.target
                    if not 0 <= q < n:
                        raise KeyError(m)
                    view[52 * q + _DECK_AT[m.card]] = 1
                elif cls is Thank:
                    view[thank] = 1
                else:
                    raise KeyError(m)
        except (KeyError, TypeError):
            return super().mask(legal)  # raises, naming the move
        return mask

    def observer(self, state: State, seat: int) -> Observer:
        if not isinstance(state, BooksState):
            return super().observer(state, seat)
        return BooksObserver(self, state, seat)

    def table_observer(self, state: State) -> TableObserver:
        if not isinstance(state, BooksState):
            return super().table_observer(state)
        return BooksTable(self, state)
