"""What a Whot! view holds beyond the envelope (docs/protocol.md, "Whot!"): a type for readers and
mypy; at run time a view is the plain dict `WhotState.view` builds."""

from __future__ import annotations

from typing import Any

from parlour.core import View

__all__ = ["WhotView"]


class WhotView(View, total=False):
    dealer: int
    known: list[list[str]]  # per player, the cards everyone has seen go into that hand
    pile: list[str]  # the call card last
    call: str | None
    free: bool
    pack_count: int
    pack: list[str] | None  # top first, when everyone knows the market's order
    direction: int
    pending_pick: int
    pick_number: int | None
    pending_skip: bool
    turn_cards: list[str]
    turn_said: list[str]
    straight_dir: int
    owed: list[list[Any]]  # [player, declaration]
    empty_draws: int
    winners: list[int]
    reason: str
    call_card: str | None
    hand: list[str]  # not in a spectator's view
    scores: list[int]  # once over
    hands: list[list[str]]  # once over
