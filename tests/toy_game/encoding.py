"""High Card for the RL adapters: 9 actions (play 1..9), the hand and scores as the observation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.adapters.encoding import Field, FloatArray, Layout, TableEncoding, relative_seats
from parlour.core import Game

from .engine import Play


class ToyEncoding(TableEncoding):
    ACTIONS_DOC = "play 1 … play 9"

    def __init__(self, game: Game[Any, Any]) -> None:
        n = game.players
        layout = Layout(
            [
                Field("hand", (9,), "cards of each number in the hand", 0, 2),
                Field("scores", (n,), "scores, the viewer first", 0, 200),
            ]
        )
        super().__init__(game, layout, [Play(c) for c in range(1, 10)])

    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        for c in view.get("hand", []):
            parts["hand"][c - 1] += 1
        for k, q in enumerate(relative_seats(view["viewer"], view["players"])):
            parts["scores"][k] = view["scores"][q]
