"""The state's generator: seeded sequences are those of `random.Random`, and copies are independent
although `copy()` shares the twister until one of them draws (copy-on-write)."""

from __future__ import annotations

import pickle
import random

from parlour.core.rng import GameRng


def draws(r: random.Random) -> list[object]:
    deck = list(range(54))
    r.shuffle(deck)
    return [
        deck,
        r.random(),
        r.getrandbits(63),
        r.choice("abcdef"),
        r.randrange(10),
        r.randint(1, 6),
    ]


def test_a_seeded_generator_draws_what_random_random_draws() -> None:
    # Records of games already played replay only if the sequence never changes.
    assert draws(GameRng(7)) == draws(random.Random(7))


def test_a_copy_draws_what_the_original_would_have_drawn() -> None:
    original = GameRng(11)
    original.random()
    copy = original.copy()
    again = copy.copy()
    a, b, c = draws(copy), draws(original), draws(again)
    assert a == b == c


def test_draws_from_one_copy_leave_the_others_where_they_were() -> None:
    original = GameRng(3)
    copy = original.copy()
    for _ in range(1000):
        copy.random()
    reference = random.Random(3)
    assert original.random() == reference.random()
    assert original.copy().random() == reference.random()


def test_json_and_pickle_keep_the_sequence() -> None:
    r = GameRng(5)
    r.random()
    shared = r.copy()  # a shared generator saves like any other
    assert draws(GameRng.from_jsonable(shared.to_jsonable())) == draws(r.copy())
    assert draws(pickle.loads(pickle.dumps(shared))) == draws(r)


def test_setstate_and_seed_start_a_private_generator() -> None:
    r = GameRng(1)
    copy = r.copy()
    copy.setstate(random.Random(9).getstate())
    assert copy.random() == random.Random(9).random()
    r.seed(4)
    assert r.random() == random.Random(4).random()


def test_shuffles_of_every_length_are_those_of_random_random() -> None:
    # GameRng writes the shuffle out (it is on the engines' hot path): the swaps must stay
    # random.Random's, from the empty list to two packs, for many seeds.
    for seed in range(200):
        ours, reference = GameRng(seed), random.Random(seed)
        for length in (0, 1, 2, 3, 7, 54, 108, 200):
            a, b = list(range(length)), list(range(length))
            ours.shuffle(a)
            reference.shuffle(b)
            assert a == b
        assert ours.random() == reference.random()  # and the generator is left where it was


def test_shuffle_swaps_as_random_random_does_at_every_size() -> None:
    # `GameRng.shuffle` writes the draws out (a table of bits up to 256 cards, computed beyond).
    for size in [*range(12), 31, 32, 33, 54, 108, 255, 256, 257, 600]:
        for seed in range(5):
            ours, theirs = list(range(size)), list(range(size))
            g, r = GameRng(seed), random.Random(seed)
            g.shuffle(ours)
            r.shuffle(theirs)
            assert ours == theirs
            assert g.random() == r.random()  # and the generator is left where it would be
