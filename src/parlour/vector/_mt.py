"""Python's Mersenne Twister (`random.Random`) as arrays: one generator per game, stepped together.

A reference engine may shuffle with `GameRng(seed)`, a `random.Random` (MT19937). For a batched
engine to deal the same cards and reshuffle the same way, each game carries its generator as a
row of 624 words:

* `seed_block(seeds)` seeds each generator with CPython itself (`random.Random(seed)`, C code; the
  seeding algorithm, `init_by_array`, is a sequential loop that gains nothing from arrays) and
  takes its first 624 outputs — one "block", as MT19937 makes them: a twist of the 624-word state,
  then tempering. `pos` indexes the next unread output of the block.
* `next_block(block)` makes the following block from the current one without Python: untemper
  (the tempered outputs *are* the twisted state, tempered), twist, temper — all array operations
  over the games that need it, so a run of games never falls back to a per-game loop.
* `randbelow(...)` is `random.Random._randbelow_with_getrandbits`: `k = n.bit_length()` bits of
  one 32-bit output (`getrandbits(k)` for k <= 32 reads exactly one output and keeps its top k
  bits), retried while the value is >= n. Every game reads its own stream, so games that reject
  retry alone.

These are pure functions of their array arguments, written against the array namespace `xp`
(NumPy here), apart from `seed_block`, which needs CPython's seeding. The one in-place update is
the caller's (the batched engine of the game that uses it).
"""

from __future__ import annotations

import _random
import random
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BLOCK", "next_block", "seed_block", "temper", "untemper"]

U32 = npt.NDArray[np.uint32]

BLOCK = 624  # MT19937's state size: outputs per twist
_SHIFT = 397  # MT19937's "M"
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)
_B = np.uint32(0x9D2C5680)
_C = np.uint32(0xEFC60000)


def seed_block(seeds: Iterable[int]) -> U32:
    """The first 624 outputs of `random.Random(seed)` for each seed, shape (len(seeds), 624).

    `getrandbits(32 * 624)` fills its result with consecutive 32-bit outputs, least significant
    first, so its little-endian bytes are the outputs in order (CPython's `_random` module)."""
    # One generator reseeded by the C method: for an int, `random.Random(s)` runs exactly that
    # (its Python `seed` only screens str and bytes), and this skips building an object per game.
    gen = random.Random()
    reseed = _random.Random.seed
    take = gen.getrandbits
    chunks = []
    for s in seeds:
        reseed(gen, int(s))
        chunks.append(take(32 * BLOCK).to_bytes(4 * BLOCK, "little"))
    return np.frombuffer(b"".join(chunks), dtype="<u4").reshape(-1, BLOCK).astype(np.uint32)


def temper(y: Any, xp: Any = np) -> Any:
    """MT19937's output transform of state words (elementwise)."""
    y = y ^ (y >> xp.uint32(11))
    y = y ^ ((y << xp.uint32(7)) & _B)
    y = y ^ ((y << xp.uint32(15)) & _C)
    return y ^ (y >> xp.uint32(18))


def untemper(y: Any, xp: Any = np) -> Any:
    """The inverse of `temper`: each xor-shift is undone by repeating it until the shifted-in bits
    have all been recovered (32 / shift rounds)."""
    y = y ^ (y >> xp.uint32(18))
    y = y ^ ((y << xp.uint32(15)) & _C)
    t = y
    for _ in range(4):  # 7-bit shifts: 5 rounds recover 35 >= 32 bits
        t = y ^ ((t << xp.uint32(7)) & _B)
    y = t
    t = y
    for _ in range(2):  # 11-bit shifts: 3 rounds recover 33 >= 32 bits
        t = y ^ (t >> xp.uint32(11))
    return t


def _mix(cur: Any, nxt: Any, far: Any, xp: Any) -> Any:
    """One MT19937 recurrence step, for whole slices of the state at once."""
    y = (cur & _UPPER) | (nxt & _LOWER)
    return far ^ (y >> xp.uint32(1)) ^ (xp.uint32(0) - (y & xp.uint32(1))) & _MATRIX_A


def twist(mt: Any, xp: Any = np) -> Any:
    """MT19937's twist of states `mt` (shape (..., 624)), as CPython's `genrand_uint32` does it.

    Word i becomes f(mt[i], mt[i+1], mt[(i+397) % 624]), in order of i, so words from 227 on read
    words already replaced. Cut at those boundaries, every slice depends only on finished ones:
    [0, 227) on old words, [227, 454) on [0, 227), [454, 623) on [227, 396), 623 on 0 and 396."""
    n, m = BLOCK, _SHIFT
    a = _mix(mt[..., : n - m], mt[..., 1 : n - m + 1], mt[..., m:], xp)
    b = _mix(mt[..., n - m : 2 * (n - m)], mt[..., n - m + 1 : 2 * (n - m) + 1], a, xp)
    c = _mix(
        mt[..., 2 * (n - m) : n - 1], mt[..., 2 * (n - m) + 1 : n], b[..., : m - 1 - (n - m)], xp
    )
    last = _mix(mt[..., n - 1 :], a[..., :1], b[..., m - 1 - (n - m) : m - (n - m)], xp)
    return xp.concatenate([a, b, c, last], axis=-1)


def next_block(block: Any, xp: Any = np) -> Any:
    """The 624 outputs that follow `block` (shape (..., 624)) in each generator's stream."""
    return temper(twist(untemper(block, xp), xp), xp)
