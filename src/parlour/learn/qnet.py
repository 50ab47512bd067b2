"""The learned players' network in NumPy: Q(s, a) for the legal moves of one decision or many.

Playing needs only this module and NumPy (training needs JAX: `parlour.learn.dmc`). The network
scores a (state, move) pair. A state tower runs once per decision; each legal move then joins it
with its own features in a narrow layer, so a decision with L legal moves costs one pass of the
tower and L small ones:

    t  = relu(... relu(state @ w_tower0 + b_tower0) ...)            the state tower (may be empty)
    h  = relu(t @ w_state + E[a] + pair(s, a) @ w_pair + b1)         E = action_table @ w_action
    h  = relu(h @ w_k + b_k)                                         for each further pair layer k
    Q  = h @ w_out + b_out + b_action[a]

`state` is the game's features of the mover's view, `action_table` the features of each action id
(the card played, the symbol called, the power), `pair` a few features of the move in this state.
Weights are saved as one `.npz` of float32 arrays, with the layout and what they were trained for
in a JSON string (`meta`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["QNet", "load", "save"]

F32 = npt.NDArray[np.float32]


@dataclass
class QNet:
    """The weights (float32 arrays) and what they were trained for (`meta`)."""

    tower: list[tuple[F32, F32]]  # the state tower's layers: (w, b)
    w_state: F32  # (tower output, or state_size without a tower; h1)
    w_action: F32  # (action_features, h1)
    w_pair: F32  # (pair_size, h1)
    b1: F32  # (h1,)
    hidden: list[tuple[F32, F32]]  # per further layer: (w, b)
    w_out: F32  # (h_last,)
    b_out: float
    b_action: F32  # (num_actions,) each action's own bias
    action_table: F32  # (num_actions, action_features)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The action part of the first layer, per action id, computed once.
        self.embed: F32 = (self.action_table @ self.w_action).astype(np.float32)

    @property
    def tower_sizes(self) -> tuple[int, ...]:
        return tuple(w.shape[1] for w, _ in self.tower)

    @property
    def pair_sizes(self) -> tuple[int, ...]:
        return (self.w_state.shape[1], *(w.shape[1] for w, _ in self.hidden))

    @property
    def state_size(self) -> int:
        return int((self.tower[0][0] if self.tower else self.w_state).shape[0])

    def q(self, state: F32, actions: npt.NDArray[np.int64], pair: F32) -> F32:
        """Q of each (decision, move): `state` (R, state_size), `actions` (R, L) action ids,
        `pair` (R, L, pair_size) -> (R, L)."""
        t = state
        for w, b in self.tower:
            t = t @ w + b
            np.maximum(t, 0, out=t)
        h = t @ self.w_state
        h = h[:, None, :] + self.embed[actions] + pair @ self.w_pair + self.b1
        np.maximum(h, 0, out=h)
        for w, b in self.hidden:
            h = h @ w + b
            np.maximum(h, 0, out=h)
        out: F32 = (h @ self.w_out + np.float32(self.b_out) + self.b_action[actions]).astype(
            np.float32, copy=False
        )
        return out

    def arrays(self) -> dict[str, F32]:
        out = {
            "w_state": self.w_state,
            "w_action": self.w_action,
            "w_pair": self.w_pair,
            "b1": self.b1,
            "w_out": self.w_out,
            "b_out": np.array([self.b_out], np.float32),
            "b_action": self.b_action,
            "action_table": self.action_table,
        }
        for k, (w, b) in enumerate(self.tower):
            out[f"w_tower{k}"], out[f"b_tower{k}"] = w, b
        for k, (w, b) in enumerate(self.hidden):
            out[f"w_hidden{k}"], out[f"b_hidden{k}"] = w, b
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any], meta: dict[str, Any] | None = None) -> QNet:
        def layers(name: str) -> list[tuple[F32, F32]]:
            out = []
            k = 0
            while f"w_{name}{k}" in arrays:
                out.append((_f32(arrays[f"w_{name}{k}"]), _f32(arrays[f"b_{name}{k}"])))
                k += 1
            return out

        return cls(
            tower=layers("tower"),
            w_state=_f32(arrays["w_state"]),
            w_action=_f32(arrays["w_action"]),
            w_pair=_f32(arrays["w_pair"]),
            b1=_f32(arrays["b1"]),
            hidden=layers("hidden"),
            w_out=_f32(arrays["w_out"]).reshape(-1),
            b_out=float(np.asarray(arrays["b_out"]).reshape(-1)[0]),
            b_action=_f32(arrays["b_action"]),
            action_table=_f32(arrays["action_table"]),
            meta=dict(meta or {}),
        )


def _f32(x: Any) -> F32:
    return np.ascontiguousarray(np.asarray(x, dtype=np.float32))


def save(net: QNet, path: str | Path) -> None:
    """Write `net` to `path` (.npz): its arrays and `meta` as a JSON string."""
    arrays: dict[str, Any] = dict(net.arrays())
    arrays["meta"] = np.array(json.dumps(net.meta, sort_keys=True))
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


def load(path: str | Path) -> QNet:
    """Read weights written by `save` (no pickles: plain arrays and a JSON string)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta"))) if "meta" in arrays else {}
    return QNet.from_arrays(arrays, meta)
