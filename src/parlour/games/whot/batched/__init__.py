"""Whot!'s batched engine on arrays (NumPy): B games in lockstep, move for move the reference's.

    from parlour.games.whot.batched import WhotBatch, WhotVectorEnv, pick_legal

`WhotBatch` is the engine (`engine`), named by the manifest (`batched`) so that the generic
machinery of `parlour.vector` (the dealer, the Gymnasium vector environment) drives it;
`check_parity` plays it beside the reference engine (`parity`); `WhotVectorEnv` is
`parlour.vector.BatchedVectorEnv` for Whot! (imported on first use: it needs Gymnasium). It needs
NumPy: the engine (`parlour.games.whot.engine`) never imports it. See docs/vector.md.
"""

from __future__ import annotations

from typing import Any

from .engine import (
    ACTION_DRAW,
    ACTION_END,
    ACTION_PASS,
    CARDS,
    NUM_ACTIONS,
    WhotArrays,
    WhotBatch,
    hand_sizes,
    pick_legal,
    popcount,
    unpack_bits,
    unsupported,
)

__all__ = [
    "ACTION_DRAW",
    "ACTION_END",
    "ACTION_PASS",
    "CARDS",
    "NUM_ACTIONS",
    "WhotArrays",
    "WhotBatch",
    "WhotVectorEnv",
    "hand_sizes",
    "pick_legal",
    "popcount",
    "unpack_bits",
    "unsupported",
]


def __getattr__(name: str) -> Any:
    if name == "WhotVectorEnv":  # Gymnasium is imported only by the environment
        from .env import WhotVectorEnv

        return WhotVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
