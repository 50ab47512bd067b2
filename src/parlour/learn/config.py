"""A training run's settings (`parlour train --help` explains each): standard library only, so
that the command line can show them without importing NumPy or JAX."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["TrainConfig"]


@dataclass
class TrainConfig:
    """Every knob of a run (`parlour train --help` explains each)."""

    game: str
    rules: str
    players: int = 2
    decisions: int = 600_000_000
    batch: int = 4096
    minibatch: int = 1024
    tower: tuple[int, ...] = (128,)
    pairs: tuple[int, ...] = (64, 32)
    lr: float = 5e-4
    final_lr: float = 0.05
    eps_start: float = 0.2
    eps_end: float = 0.01
    eps_decay: float = 0.3
    max_moves: int = 400
    seed: int = 0
    eval_minutes: float = 10.0
    eval_deals: int = 1000
    eval_bots: tuple[str, ...] = ("counter",)
    checkpoint_minutes: float = 10.0
    out: str = ""
    flush_every: int = 8
    # A wall-clock limit (0: none): the run stops at whichever of `decisions` and `hours` comes
    # first, and the schedules follow whichever is further on. A run limited by time is not
    # reproducible move for move (how far it got depends on the machine).
    hours: float = 0.0
    # Start from these weights (a `.npz` of `parlour.learn.qnet`) instead of a random network:
    # a run that goes on from another's weights (its optimiser starts afresh).
    init: str = ""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["tower"] = list(self.tower)
        d["pairs"] = list(self.pairs)
        d["eval_bots"] = list(self.eval_bots)
        return d
