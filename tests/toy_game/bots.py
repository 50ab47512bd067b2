"""High Card's own bot: always the highest card (it wins against random play)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.bots import Bot
from parlour.core import Move


class HighestBot(Bot):
    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        return max(legal, key=lambda m: m.fields()["card"])
