"""The C accelerator of Whot!'s table observer (src/parlour/games/whot/_table.c, compiled at
install by hatch_build.py) is built, and agrees with its Python twin: the Python `WhotTable`
follows the same games move by move and gives every seat what its view encodes; and an
observation the C table hands out (a row of a block it fills) never changes afterwards.

Under CI=true a missing accelerator fails; elsewhere its test skips, saying why (the rest of
parlour then runs the Python table)."""

from __future__ import annotations

import os
import random

import pytest
from adapters_support import need
from test_adapters_observers import CASES, follow_seats, follow_table

import parlour

need("numpy")
import numpy as np  # noqa: E402

from parlour.adapters.encoding import encoding_for  # noqa: E402
from parlour.games.whot import encoding as whot_encoding  # noqa: E402

WHOT_CASES = [c for c in CASES if c[0] == "whot"]


def need_c_table() -> None:
    """Skip (fail under CI) where the C table observer was not built."""
    if not whot_encoding.ACCELERATED:
        why = (
            "parlour.games.whot._table (the C table observer) is not built: a C compiler and "
            "Python's headers are needed at install (see hatch_build.py's message in pip's log, "
            "`pip install -v -e .`); parlour uses the Python table, slower"
        )
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(why)
        pytest.skip(why)


def test_the_c_table_is_built() -> None:
    need_c_table()
    fast = whot_encoding.FastWhotTable
    assert whot_encoding.TABLE is fast
    game = parlour.make("whot", players=4, rules="storey-1935")
    table = encoding_for(game).table_observer(game.new_game(seed=1))
    assert isinstance(table, fast)


@pytest.mark.parametrize("table", WHOT_CASES, ids=lambda t: "-".join(map(str, t[1].values())))
def test_the_python_table_sees_what_each_seats_view_encodes(
    table: tuple[str, dict[str, object]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same walks as the observer tests, with the Python table handed out."""
    monkeypatch.setattr(whot_encoding, "TABLE", whot_encoding.WhotTable)
    name, kw = table
    assert follow_table(name, kw, seed=24, moves=1000) > 0
    assert follow_seats(name, kw, seed=25, moves=600) > 0


def test_an_observation_handed_out_never_changes_afterwards() -> None:
    """Hundreds of observations, more than a block of rows, each kept beside a copy made when
    it was handed out: none of them is written again by the later ones."""
    game = parlour.make("whot", players=4, rules="storey-1935")
    enc = encoding_for(game)
    rng = random.Random(5)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for seed in range(3):
        state = game.new_game(seed=seed)
        table = enc.table_observer(state)
        while not state.is_over and len(kept) < 300 * (seed + 1):
            obs = table.observe(rng.randrange(4))
            kept.append((obs, obs.copy()))
            state.apply(rng.choice(state.legal_moves()))
    assert len(kept) > 2 * 64
    for obs, then in kept:
        np.testing.assert_array_equal(obs, then)
        assert obs.dtype == np.float32 and obs.shape == enc.observation_shape


def test_both_tables_follow_the_same_moves_to_the_same_vector() -> None:
    """Move by move through whole games, the C table's vector (the Python paths write it too)
    equals the Python table's."""
    need_c_table()
    for rules, players in (("storey-1935", 4), ("nigerian", 3), ("english", 2)):
        game = parlour.make("whot", players=players, rules=rules)
        enc = encoding_for(game)
        assert isinstance(enc, whot_encoding.WhotEncoding)
        rng = random.Random(players)
        for seed in range(4):
            state = game.new_game(seed=seed)
            fast = whot_encoding.FastWhotTable(enc, state)
            slow = whot_encoding.WhotTable(enc, state)
            moves = 0
            while not state.is_over and moves < 400:
                seat = rng.randrange(players)
                np.testing.assert_array_equal(fast.observe(seat), slow.observe(seat))
                np.testing.assert_array_equal(fast.table, slow.table)
                state.apply(rng.choice(state.legal_moves()))
                moves += 1
