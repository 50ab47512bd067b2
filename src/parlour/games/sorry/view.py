"""What a Sorry! view holds beyond the envelope (docs/protocol.md, "Sorry!"): a type for readers and
mypy; at run time a view is the plain dict `SorryState.view` builds."""

from __future__ import annotations

from parlour.core import View

__all__ = ["SorryView"]


class SorryView(View, total=False):
    colours: list[str]  # in turn order
    seats: list[int]  # the player playing each colour
    partnership: bool
    point_score: bool
    turn: str | None  # the colour to play
    card: str | None
    again: bool
    pawns: dict[str, list[str]]  # per colour, its pawns' squares
    discard: list[str]
    pack: int
    winners: list[int]
    hand_sizes: dict[str, int]  # the point-score game
    hands: dict[str, list[str]]  # the point-score game: your colours' hands
