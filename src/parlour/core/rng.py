"""The seeded random number generator every state carries.

All chance in a game (shuffles, reshuffles, cuts) comes from the state's own generator, so a game is
rebuilt exactly from its seed and moves. The generator's state is hidden information: it decides
future shuffles, so it is saved in `to_json` but never appears in a view.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

__all__ = ["GameRng", "fresh_seed"]


def fresh_seed() -> int:
    """A seed for a game started without one; it is stored so the game still replays."""
    return secrets.randbits(63)


class GameRng(random.Random):
    """`random.Random` (Mersenne Twister, implemented in C) with a JSON form and a cheap copy."""

    def copy(self) -> GameRng:
        other = GameRng.__new__(GameRng)
        other.setstate(self.getstate())
        return other

    def to_jsonable(self) -> list[Any]:
        version, internal, gauss = self.getstate()
        return [version, list(internal), gauss]

    @classmethod
    def from_jsonable(cls, data: list[Any]) -> GameRng:
        rng = cls.__new__(cls)
        version, internal, gauss = data
        rng.setstate((version, tuple(internal), gauss))
        return rng
