"""The seeded random number generator every state carries.

All chance in a game (shuffles, reshuffles, cuts) comes from the state's own generator, so a game is
rebuilt exactly from its seed and moves. The generator's state is hidden information: it decides
future shuffles, so it is saved in `to_json` but never appears in a view.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

__all__ = ["GameRng", "fresh_seed"]

T = TypeVar("T")


def fresh_seed() -> int:
    """A seed for a game started without one; it is stored so the game still replays."""
    return secrets.randbits(63)


_BITS = [(i + 1).bit_length() for i in range(256)]  # `shuffle`'s draws, by index


def _clone(r: random.Random) -> random.Random:
    other = random.Random.__new__(random.Random)
    other.setstate(r.getstate())
    return other


class GameRng(random.Random):
    """A `random.Random` (Mersenne Twister, in C) with a JSON form and a copy-on-write `copy()`.

    Search bots copy a state for every simulation, and copying the twister's 625 words
    (`getstate`/`setstate`, about 10 µs) was most of the cost of a state's `copy()` while chance
    is rare in these games: a shuffle per deal or per empty pack. So a copy shares the generator
    and each holder clones it only when it next draws. Every draw goes through `_own()`; the shared
    generator itself is never advanced, so sharing is invisible: a copy draws exactly what the
    original would have drawn, and the sequences are those of a plain `random.Random(seed)`.
    """

    _r: random.Random
    _shared: bool

    def __init__(self, x: Any = None) -> None:
        # random.Random.__init__ is not called: this object's own twister is never used.
        self._r = random.Random(x)
        self._shared = False
        self.gauss_next = None

    def _own(self) -> random.Random:
        if self._shared:
            self._r = _clone(self._r)
            self._shared = False
        return self._r

    def copy(self) -> GameRng:
        other = GameRng.__new__(GameRng)
        other._r = self._r
        other._shared = self._shared = True
        other.gauss_next = None
        return other

    # --- draws: all delegated, so `random.Random`'s own algorithms run on the private twister ---
    def seed(self, a: Any = None, version: int = 2) -> None:
        self._r = random.Random(a)
        self._shared = False

    def random(self) -> float:
        return self._own().random()

    def getrandbits(self, k: int, /) -> int:
        return self._own().getrandbits(k)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        # `random.Random.shuffle`'s own algorithm (Fisher-Yates from the end, each index drawn by
        # `_randbelow_with_getrandbits`), with the draw written out: the same swaps from the same
        # bits, without two Python calls per card. A deal or a refill shuffles 50-odd cards, and
        # Whot! refills often. `tests/core/test_core_rng.py` holds it equal to `random.Random`.
        getrandbits = self._own().getrandbits
        size = len(x)
        bits = _BITS if size <= len(_BITS) else [(i + 1).bit_length() for i in range(size)]
        for i in range(size - 1, 0, -1):
            k = bits[i]  # (i + 1).bit_length(): the bits `_randbelow(i + 1)` draws
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return self._own().choice(seq)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self._own().randrange(start, stop, step)

    def randint(self, a: int, b: int) -> int:
        return self._own().randint(a, b)

    def getstate(self) -> tuple[Any, ...]:
        return self._r.getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        r = random.Random.__new__(random.Random)
        r.setstate(state)
        self._r = r
        self._shared = False

    # --- JSON ------------------------------------------------------------------------------------
    def to_jsonable(self) -> list[Any]:
        version, internal, gauss = self.getstate()
        return [version, list(internal), gauss]

    @classmethod
    def from_jsonable(cls, data: list[Any]) -> GameRng:
        rng = cls.__new__(cls)
        version, internal, gauss = data
        rng.setstate((version, tuple(internal), gauss))
        rng.gauss_next = None
        return rng
