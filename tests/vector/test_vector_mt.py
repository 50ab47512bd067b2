"""The per-game Mersenne Twister on arrays reads exactly what `random.Random(seed)` would: the same
outputs across block boundaries, the same `_randbelow` values (rejections included), and so the
same shuffles, which the engine does lazily, one Fisher-Yates step per card taken."""

from __future__ import annotations

import random

import pytest
from vector_support import need

np = need("numpy")

from parlour.games.whot.batched.engine import WhotBatch  # noqa: E402
from parlour.vector import _mt  # noqa: E402

SEEDS = [0, 1, 7, 2**32 - 1, 2**32, 2**40 + 12345, 2**63 - 1]


def test_seed_block_is_the_first_624_outputs() -> None:
    block = _mt.seed_block(SEEDS)
    assert block.shape == (len(SEEDS), 624) and block.dtype == np.uint32
    for row, s in zip(block, SEEDS, strict=True):
        r = random.Random(s)
        assert row.tolist() == [r.getrandbits(32) for _ in range(624)]


def test_next_block_continues_the_stream() -> None:
    block = _mt.seed_block(SEEDS)
    second = _mt.next_block(block)
    third = _mt.next_block(second)
    for i, s in enumerate(SEEDS):
        r = random.Random(s)
        words = [r.getrandbits(32) for _ in range(3 * 624)]
        assert second[i].tolist() == words[624:1248]
        assert third[i].tolist() == words[1248:]


def test_untemper_inverts_temper() -> None:
    x = np.random.default_rng(0).integers(0, 2**32, 10_000, dtype=np.uint64).astype(np.uint32)
    assert np.array_equal(_mt.untemper(_mt.temper(x)), x)


@pytest.mark.parametrize("start", [0, 3, 610, 617, 623])
def test_randbelow_matches_python_across_the_block_end(start: int) -> None:
    """Bounds from 2 to 54 (those of a Fisher-Yates over one pack), from a point in the block
    chosen so that the eight-output window runs past the block's end and a twist is needed."""
    batch = WhotBatch(2, "nigerian")
    seeds = list(range(40))
    st = batch.deal(seeds)
    st.mt[:, :624] = _mt.seed_block(seeds)
    st.mt_pos[:] = start
    rng = np.random.default_rng(start)
    refs = []
    for s in seeds:
        r = random.Random(s)
        for _ in range(start):
            r.getrandbits(32)
        refs.append(r)
    games = np.arange(len(seeds))
    for _ in range(300):
        bound = rng.integers(2, 55, len(seeds))
        st.pack_len[:] = bound  # a shuffled pack of `bound` cards: its top swaps with randbelow
        st.pack[:] = np.arange(54)
        size = st.pack_len.copy()
        got = batch._take_tops(st, games, size, games * 54, games * 632)
        want = [r._randbelow(int(n)) for r, n in zip(refs, bound, strict=True)]  # type: ignore[attr-defined]
        assert got.tolist() == want


def test_lazy_shuffle_draws_the_shuffled_pack_from_its_end() -> None:
    """Taking every card of a pack one Fisher-Yates step at a time gives `random.shuffle`'s order,
    top (the list's end) first."""
    batch = WhotBatch(2, "nigerian")
    seeds = list(range(25))
    st = batch.deal(seeds)
    st.mt[:, :624] = _mt.seed_block(seeds)
    st.mt_pos[:] = 0
    st.pack[:] = batch.pack0
    st.pack_len[:] = 54
    st.shuffled[:] = True
    games = np.arange(len(seeds))
    base, row = games * 54, games * 632
    drawn = np.stack(
        [batch._take_tops(st, games, st.pack_len, base, row) for _ in range(54)], axis=1
    )
    for s, row in zip(seeds, drawn, strict=True):
        pack = batch.pack0.tolist()
        random.Random(s).shuffle(pack)
        assert row.tolist() == pack[::-1]


def test_bit_helpers() -> None:
    """popcount (both ways: NumPy 1.x has no bitwise_count), unpack_bits and pick_legal."""
    from parlour.games.whot.batched.engine import (
        pick_legal,
        popcount,
        popcount_by_bytes,
        unpack_bits,
    )

    rng = np.random.default_rng(0)
    words = rng.integers(0, 2**63, (50, 3), dtype=np.int64).astype(np.uint64) << np.uint64(1)
    words[0, 0] = np.uint64(2**64 - 1)
    want = np.array([[bin(int(w)).count("1") for w in row] for row in words])
    assert np.array_equal(popcount(words), want)
    assert np.array_equal(popcount_by_bytes(words), want)
    flat = words.reshape(-1)
    bits = unpack_bits(flat, 64)
    assert all(
        bits[i].tolist() == [bool(int(w) >> b & 1) for b in range(64)] for i, w in enumerate(flat)
    )
    for u in (0.0, 0.3, 0.999999):
        picked = pick_legal(flat, np.full(flat.size, u))
        for w, a in zip(flat.tolist(), picked.tolist(), strict=True):
            ones = [b for b in range(64) if w >> b & 1]
            assert a == ones[int(u * len(ones))]
