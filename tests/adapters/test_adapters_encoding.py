"""Encodings: every legal move's id maps back to it, the mask is the legal moves, and the
observation is a function of the player's view alone (the wall of DESIGN.md, principle 3)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from adapters_support import TABLES, need, table_id

import parlour
from parlour.core import IllegalMove
from parlour.core.rng import GameRng

np = need("numpy")

from parlour.adapters.encoding import VIEW_FROM, Encoding, TableEncoding, encoding_for  # noqa: E402


def _play(name: str, kw: dict[str, Any], seed: int, probe: Any, most: int = 400) -> None:
    game = parlour.make(name, **kw)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for i in range(most):
        if state.is_over:
            break
        probe(state, i)
        state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_ids_round_trip_and_mask_is_legal_moves(table: tuple[str, dict[str, Any]]) -> None:
    name, kw = table
    enc = encoding_for(parlour.make(name, **kw))
    assert isinstance(enc, Encoding)

    def probe(state: Any, i: int) -> None:
        legal = state.legal_moves()
        ids = [enc.action_id(m) for m in legal]
        assert len(set(ids)) == len(legal), "two legal moves share an id"
        assert all(0 <= a < enc.num_actions for a in ids)
        for m, a in zip(legal, ids, strict=True):
            assert enc.move_of(a) == m
            assert enc.move_of(a, state) == m
            assert enc.move_of(np.int64(a), legal) == m
        mask = enc.legal_mask(legal)
        assert mask.dtype == np.bool_ and mask.shape == (enc.num_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)

    for seed in range(3):
        _play(name, kw, seed, probe)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_observation_depends_only_on_the_view(table: tuple[str, dict[str, Any]]) -> None:
    name, kw = table
    game = parlour.make(name, **kw)
    enc = encoding_for(game)
    rng = GameRng(5)

    def probe(state: Any, i: int) -> None:
        if i % 7:
            return
        for p in range(game.players):
            obs = enc.observe(state.view(p))
            assert obs.dtype == np.float32 and obs.shape == enc.observation_shape
            assert np.all(obs >= enc.observation_low) and np.all(obs <= enc.observation_high)
            # redraw everything hidden from p: p's observation must not move
            other = state.permute_hidden(p, rng)
            assert np.array_equal(enc.observe(other.view(p)), obs)
            # and a state sampled from p's view looks the same to p
            if p == state.to_play:
                sampled = game.sample_state(state.view(p), rng)
                assert np.array_equal(enc.observe(sampled.view(p)), obs)

    for seed in range(2):
        _play(name, kw, seed, probe)


def test_every_game_has_an_encoding_with_documented_fields() -> None:
    for name in parlour.core.games():
        enc = encoding_for(parlour.make(name))
        docs = enc.field_docs()
        assert docs and all(d["doc"] for d in docs)
        assert docs[-1]["slice"][1] == enc.observation_shape[0]
        assert enc.action_docs()
        assert encoding_for(parlour.make(name)) is enc  # cached per game


def test_whot_action_space_is_fixed_by_the_rules() -> None:
    # nigerian: 49 numbered cards + WHOT calling 5 symbols + draw, end, pass
    assert encoding_for(parlour.make("whot", rules="nigerian")).num_actions == 57
    english = parlour.make("whot", rules="english")
    enc = encoding_for(english)
    assert enc.num_actions == 49 + 5 * (1 + len(english.rules.whot_powers)) + 3
    for text in ("play 14 cross", "play whot call star", "draw", "end", "pass"):
        move = english.parse_move(text)
        assert enc.move_of(enc.action_id(move)) == move


def test_illegal_or_malformed_action_ids_raise_clearly() -> None:
    game = parlour.make("whot", rules="nigerian")
    enc = encoding_for(game)
    state = game.new_game(seed=3)
    legal_ids = {enc.action_id(m) for m in state.legal_moves()}
    bad = next(a for a in range(enc.num_actions) if a not in legal_ids)
    with pytest.raises(IllegalMove, match="not legal now; the legal actions are"):
        enc.move_of(bad, state)
    with pytest.raises(IllegalMove, match="out of range"):
        enc.move_of(enc.num_actions, state)
    with pytest.raises(IllegalMove, match="integer id"):
        enc.move_of(1.5, state)  # type: ignore[arg-type]


def test_sorry_ids_decode_every_block() -> None:
    game = parlour.make("sorry")
    enc = encoding_for(game)
    for text in (
        "pass",
        "pass 5",
        "1 enter r",
        "5 b9",
        "4 r3",
        "10 rs2-1",
        "7 r4+3 y12+4",
        "11 r7<>b9",
        "S g>b9",
    ):
        move = game.parse_move(text)
        assert str(enc.move_of(enc.action_id(move))) == str(move)


# the games whose encodings number moves by a table of every move (masks scattered from it)
LISTED = [
    t
    for t in TABLES
    if isinstance(encoding_for(parlour.make(t[0], **t[1])), TableEncoding)  # type: ignore[arg-type]
]


@pytest.mark.parametrize("table", LISTED, ids=table_id)
def test_a_mask_of_many_moves_is_those_moves_and_refuses_a_move_without_an_id(
    table: tuple[str, dict[str, Any]],
) -> None:
    """Long lists of legal moves are masked by one scatter, shorter ones a move at a time
    (through a memoryview from VIEW_FROM moves, on the array itself below): each way must give
    the legal moves' ids, and name a move the encoding has no id for."""
    name, kw = table
    game = parlour.make(name, **kw)
    enc = encoding_for(game)
    assert isinstance(enc, TableEncoding)
    table_moves = enc.moves
    for k in (1, VIEW_FROM - 1, VIEW_FROM, 13, 25, 60, len(table_moves)):
        some = random.Random(k).sample(table_moves, min(k, len(table_moves)))
        want = np.zeros(enc.num_actions, np.int8)
        want[[enc.action_id(m) for m in some]] = 1
        np.testing.assert_array_equal(enc.mask(some), want, err_msg=f"{k} moves")
    # a move of another game has no id here, wherever it sits in a long list
    stranger = next(
        m
        for other in ("whot", "whoswho-books")
        if other != name
        for m in getattr(encoding_for(parlour.make(other)), "moves", ())
    )
    for size, at in ((2, 0), (2, 2), (VIEW_FROM + 3, 5), (40, 0), (40, 30)):
        some = list(table_moves[:size])
        some.insert(at, stranger)
        with pytest.raises(IllegalMove, match="no action id"):
            enc.mask(some)
