"""Shared helpers for the Sorry! rule tests: a chosen position (as the JSON `from_position`
reads, docs/sorry.md "Positions") with a chosen card up."""

from __future__ import annotations

from typing import Any

import parlour
from parlour.games.sorry.engine import SorryState

# Every kind of Sorry! game: (players, preset).
GAMES = [
    (2, "regular"),
    (3, "regular"),
    (4, "regular"),
    (4, "partnership"),
    (2, "partnership"),
    (4, "points"),
]


def position(
    card: str | None = None,
    pawns: dict[str, list[str]] | None = None,
    *,
    pack: list[str] | None = None,
    hands: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The position JSON: `pawns` on the board, `card` face up, `pack` from the top down."""
    spec: dict[str, Any] = {}
    if pawns is not None:
        spec["pawns"] = pawns
    if card is not None:
        spec["card"] = card
    if hands is not None:
        spec["hands"] = hands
    if pack:
        spec["pack"] = pack
    return spec


def make(
    card: str | None = None,
    pawns: dict[str, list[str]] | None = None,
    *,
    players: int = 4,
    rules: str = "regular",
    pack: list[str] | None = None,
    hands: dict[str, list[str]] | None = None,
    **options: Any,
) -> SorryState:
    """A game with `pawns` on the board and `card` face up for the first player (red)."""
    game = parlour.make("sorry", players=players, rules=rules, **options)
    state = game.from_position(position(card, pawns, pack=pack, hands=hands), seed=1)
    assert isinstance(state, SorryState)
    return state


def moves(state: SorryState) -> list[str]:
    return sorted(str(m) for m in state.legal_moves())


def pawns(state: SorryState, colour: str) -> list[str]:
    return sorted(state.view(None)["pawns"][colour])


def events(state: SorryState) -> list[Any]:
    """The typed events of the game so far (as every view lists them)."""
    return list(state.view(None)["events"])
