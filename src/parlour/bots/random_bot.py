"""The random bot: a uniformly random legal move. The baseline every other bot must beat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.core import Move

from .base import Bot, register_bot


class RandomBot(Bot):
    name = "random"
    reads_view = False  # a uniform choice among the legal moves

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        return self.rng.choice(legal)


register_bot("random", RandomBot)
