"""Batched Whot! on arrays (NumPy): B games stepped in lockstep, move for move the reference engine.

    from parlour.vector import WhotBatch, WhotVectorEnv

`WhotBatch` is the engine (`parlour.vector.whot`); `WhotVectorEnv` is a Gymnasium vector
environment over it (`parlour.vector.env`, imported on first use: it needs Gymnasium). An optional
extra: `pip install parlour[vector]`. The engine packages (`parlour.core`, `parlour.games`) never
import this one. See docs/vector.md.
"""

from __future__ import annotations

from typing import Any

from .whot import NUM_ACTIONS, WhotArrays, WhotBatch, unsupported

__all__ = ["NUM_ACTIONS", "WhotArrays", "WhotBatch", "WhotVectorEnv", "unsupported"]


def __getattr__(name: str) -> Any:
    if name == "WhotVectorEnv":  # Gymnasium is imported only by the environment
        from .env import WhotVectorEnv

        return WhotVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
