"""Shared helpers for the Sorry! rule tests: build a chosen position with a chosen card up."""

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


def make(
    card: str | None = None,
    position: dict[str, list[str]] | None = None,
    *,
    players: int = 4,
    rules: str = "regular",
    pack: list[str] | None = None,
    hands: dict[str, list[str]] | None = None,
    **options: Any,
) -> SorryState:
    """A game with `position` on the board and `card` face up for the first player (red)."""
    game = parlour.make("sorry", players=players, rules=rules, **options)
    setup: dict[str, Any] = {}
    if position is not None:
        setup["position"] = position
    if hands is not None:
        setup["hands"] = hands
    top = ([card] if card is not None else []) + list(pack or [])
    if top:
        setup["pack"] = top
    state = game.new_game(seed=1, **setup)
    assert isinstance(state, SorryState)
    return state


def moves(state: SorryState) -> list[str]:
    return sorted(str(m) for m in state.legal_moves())


def pawns(state: SorryState, colour: str) -> list[str]:
    return sorted(state.view(None)["pawns"][colour])
