"""`WhotVectorEnv`: `parlour.vector.BatchedVectorEnv` over Whot!'s batched engine."""

from __future__ import annotations

from typing import Any

from gymnasium.vector import AutoresetMode

from parlour.vector.env import BatchedVectorEnv

from .engine import WhotBatch

__all__ = ["WhotVectorEnv"]


class WhotVectorEnv(BatchedVectorEnv):
    """B games of Whot! stepped together (docs/vector.md): `BatchedVectorEnv("whot", ...)`."""

    batch: WhotBatch

    def __init__(
        self,
        num_envs: int = 1024,
        players: int = 2,
        rules: Any = "nigerian",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_moves: int | None = None,
        deal_ahead: int | None = None,
    ) -> None:
        super().__init__("whot", num_envs, players, rules, autoreset_mode, max_moves, deal_ahead)
