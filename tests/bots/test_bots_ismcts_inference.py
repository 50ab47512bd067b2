"""ISMCTS's inference over Whot! determinizations (`infer=draws`, `infer=policy`) and the learned
prior at the root (`prior=policy`): what a seat may read, what the weights say, and that the
search stays the same search where none is asked for."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from parlour.bots import make_bot
from parlour.bots.ismcts import ISMCTSBot
from parlour.core import RulesError
from parlour.core.events import to_wire
from parlour.core.rng import GameRng
from parlour.games.whot.cards import PACK
from parlour.games.whot.engine import WhotGame, WhotState
from parlour.games.whot.inference import (
    DrawsModel,
    PolicyModel,
    PublicReplay,
    hands_back,
)
from parlour.games.whot.moves import DRAW, WhotMove
from parlour.games.whot.rules import PRESETS


def game(preset: str = "nigerian", players: int = 2) -> WhotGame:
    return WhotGame(players, PRESETS[preset], preset)


def hint_game(g: WhotGame, seed: int) -> list[WhotState]:
    """Every state of a game between hint bots, in order."""
    st = g.new_game(seed=seed)
    bots = [make_bot("hint", g, seed=seed + s) for s in range(g.players)]
    states = []
    while not st.is_over:
        states.append(st.copy())
        p = st.to_play
        assert p is not None
        st.apply(bots[p].choose(st.view(p), st.legal_moves()))
    return states


def position(g: WhotGame, seed: int, at: int = 12) -> WhotState:
    """A state of a hint game a few turns in, the seat to move having a choice."""
    states = hint_game(g, seed)
    for st in states[at:]:
        if len(st.legal_moves()) > 1:
            return st
    return states[-1]


@pytest.mark.parametrize(
    ("preset", "players"),
    [("nigerian", 2), ("storey-1935", 2), ("nigerian", 4), ("english", 2)],
)
def test_the_replay_rebuilds_every_other_seats_view_as_it_decided(
    preset: str, players: int
) -> None:
    # With the true hand put back in the snapshot, the seat's view is the one it was shown: the
    # public facts the replay rebuilt (call, pile, counts, owed picks, events) are all true.
    g = game(preset, players)
    for seed in (1, 2):
        states = hint_game(g, seed)
        for st in states[5::9]:
            me = st.to_play
            assert me is not None
            replay = PublicReplay(g, st.view(me))
            assert replay.complete
            assert replay.snapshots
            for snap in replay.snapshots:
                true = next(
                    s
                    for s in states
                    if len(s.events) == len(snap.state.events) and s.to_play == snap.seat
                )
                s = snap.state.copy()
                s.hands[snap.seat] = list(true.hands[snap.seat])
                s._legal = None
                assert s.view(snap.seat) == true.view(snap.seat)


def test_a_view_that_came_as_json_is_replayed_alike() -> None:
    g = game()
    st = position(g, 5, at=25)
    me = st.to_play
    assert me is not None
    view = st.view(me)
    wire = {**view, "events": [to_wire(e) for e in view["events"]]}
    a, b = PublicReplay(g, view), PublicReplay(g, wire)
    assert a.complete and b.complete
    assert [(s.seat, s.move, s.step) for s in a.snapshots] == [
        (s.seat, s.move, s.step) for s in b.snapshots
    ]


def test_hands_walked_back_hold_every_card_the_seat_played_since() -> None:
    g = game()
    st = position(g, 3, at=30)
    me = st.to_play
    assert me is not None
    other = 1 - me
    replay = PublicReplay(g, st.view(me))
    held = hands_back(replay, st.hands[other], other, random.Random(0))
    for i, snap in enumerate(replay.snapshots):
        if snap.seat == other and snap.move.kind == "play":
            assert snap.move.card in held[i]
            assert len(held[i]) == len(snap.state.hands[other])  # its size then, as the table saw


def test_infer_reads_only_the_view_never_the_true_hands() -> None:
    # Two tables that seat 0 cannot tell apart — the others' hidden cards and the market redealt —
    # give it the same view, and the search with inference the same answer, visit for visit.
    g = game()
    st = position(g, 4, at=20)
    me = st.to_play
    assert me is not None
    twin = st.permute_hidden(me, GameRng(99))
    assert twin.hands[1 - me] != st.hands[1 - me]
    assert twin.view(me) == st.view(me)
    for spec in ("ismcts:infer=draws,iterations=200", "ismcts:infer=policy,iterations=200"):
        a = make_bot(spec, g, seed=5)
        b = make_bot(spec, g, seed=5)
        assert isinstance(a, ISMCTSBot) and isinstance(b, ISMCTSBot)
        sa = a.search(st.view(me), st.legal_moves())
        sb = b.search(twin.view(me), twin.legal_moves())
        assert sa.moves == sb.moves


def drew_holding(g: WhotGame, seed: int) -> tuple[WhotState, int, frozenset[int]] | None:
    """A hint game where seat 1, at one turn, goes to market while holding two or more cards it
    could have played; then seat 0 moves. The state at seat 0's turn, the seat that drew, and the
    cards it could have played when it drew."""
    st = g.new_game(seed=seed)
    bots = [make_bot("hint", g, seed=seed + s) for s in range(2)]
    while not st.is_over:
        p = st.to_play
        assert p is not None
        legal = st.legal_moves()
        plays = {m.card for m in legal if isinstance(m, WhotMove) and m.kind == "play"}
        if p == 1 and st.pending_pick == 0 and len(plays) >= 2 and DRAW in legal:
            st.apply(DRAW)
            if st.to_play == 0 and not st.is_over:
                return st, 1, frozenset(plays)
            return None
        st.apply(bots[p].choose(st.view(p), legal))
    return None


def constructed() -> tuple[WhotGame, WhotState, WhotState, WhotState]:
    """The table after seat 1 drew holding playable cards, and two hands seat 0 might imagine
    for it: the true one (which held those cards) and one of as many cards none of which could
    have been played at that draw."""
    g = game()
    for seed in range(40):
        found = drew_holding(g, seed)
        if found is None:
            continue
        st, seat, playable = found
        true = st.copy()
        seen = set(st.hands[0]) | set(st.pile)
        fresh = [c for c in sorted(set(PACK)) if c not in playable and c not in seen]
        if len(fresh) < len(st.hands[seat]):
            continue
        other = st.copy()
        other.hands[seat] = fresh[: len(st.hands[seat])]
        return g, st, true, other
    raise AssertionError("no hint game drew holding two playable cards")


def test_the_draws_model_finds_a_draw_with_a_playable_card_unlikely() -> None:
    # Seat 1 went to market holding two cards it could have played. A hand that had them makes
    # that draw a `noise` event; a hand that had nothing playable, a sure one.
    g, st, true, other = constructed()
    weigh = DrawsModel(g, 0.1, 0.05, 8).weigher(st.view(0), random.Random(1))
    assert weigh is not None
    w_true, w_other = weigh([true, other])
    assert w_other == 0.0
    assert w_true <= math.log(0.05) + 1e-12


@pytest.mark.parametrize(
    ("preset", "players"), [("nigerian", 2), ("storey-1935", 2), ("nigerian", 4)]
)
def test_the_draws_model_never_weighs_down_the_true_hands_of_players_who_play_when_they_can(
    preset: str, players: int
) -> None:
    # The hint rules never draw while they hold a card they could play: whichever seat looks,
    # the true deal explains every draw, and a good share of uniform draws do not.
    g = game(preset, players)
    down = drawn = 0
    for seed in (1, 2, 3):
        for st in hint_game(g, seed)[4::6]:
            me = st.to_play
            assert me is not None
            rng = random.Random(seed)
            weigh = DrawsModel(g, 0.1, 0.05, 8).weigher(st.view(me), rng)
            if weigh is None:
                continue
            sample = g.sampler(st.view(me))
            others = [sample(GameRng(rng.getrandbits(63))) for _ in range(20)]
            true, *rest = weigh([st, *others])
            assert true == 0.0
            down += sum(w < 0 for w in rest)
            drawn += len(rest)
    assert down > 0.05 * drawn


def test_the_learned_policy_finds_it_less_likely_too() -> None:
    g, st, true, other = constructed()
    weigh = PolicyModel(g, 0.1, 0.05, 8).weigher(st.view(0), random.Random(1))
    assert weigh is not None
    w_true, w_other = weigh([true, other])
    assert w_true < w_other


def search_moves(spec: str, st: WhotState, seed: int) -> Any:
    me = st.to_play
    assert me is not None
    bot = make_bot(spec, st.game, seed=seed)
    assert isinstance(bot, ISMCTSBot)
    return bot.search(st.view(me), st.legal_moves()).moves


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:infer=draws,iterations=300",
        "ismcts:infer=policy,iterations=300,infer_depth=3",
        "ismcts:prior=policy,iterations=300",
    ],
)
def test_visits_are_the_same_on_the_same_seed(spec: str) -> None:
    st = position(game(), 6, at=16)
    first = search_moves(spec, st, 11)
    assert search_moves(spec, st, 11) == first
    assert sum(v for _, v, _ in first) == 300


def test_infer_none_is_the_search_of_before() -> None:
    st = position(game(), 7, at=14)
    plain = search_moves("ismcts:iterations=300", st, 3)
    assert search_moves("ismcts:iterations=300,infer=none,prior=none", st, 3) == plain


def test_the_prior_steers_the_root_toward_the_policys_move() -> None:
    # A heavy prior weight, and a temperature that makes the policy all but greedy, make the
    # learned policy's favourite the most visited root move.
    st = position(game(), 8, at=10)
    me = st.to_play
    assert me is not None
    from parlour.games.whot.learned.bot import LearnedBot

    best = LearnedBot(st.game, random.Random(0)).choose(st.view(me), st.legal_moves())
    moves = search_moves("ismcts:prior=policy,prior_w=1000,temp=0.00001,iterations=200", st, 2)
    assert moves[0][0] == best


def test_q_rows_agree_with_the_learned_bots_own_q() -> None:
    g = game()
    from parlour.games.whot.learned.bot import LearnedBot

    bot = LearnedBot(g, random.Random(0))
    states = [s for s in hint_game(g, 9)[3:40:4] if s.to_play is not None]
    views = [s.view(s.to_play) for s in states]
    legals = [s.legal_moves() for s in states]
    for q, v, legal in zip(bot.q_rows(views, legals), views, legals, strict=True):
        assert q == pytest.approx(bot.q_values(v, legal), abs=1e-5)


def test_bad_inference_parameters_are_refused_with_a_sentence() -> None:
    g = game()
    with pytest.raises(RulesError, match="infer must be one of whot's: none, draws, policy"):
        make_bot("ismcts:infer=psychic", g, seed=0)
    with pytest.raises(RulesError, match="noise"):
        make_bot("ismcts:infer=draws,noise=0", g, seed=0)
    with pytest.raises(RulesError, match="temp"):
        make_bot("ismcts:infer=policy,temp=-1", g, seed=0)
    # The learned policy exists only where a network was trained: english is refused, naming them.
    with pytest.raises(RulesError, match="no trained network"):
        make_bot("ismcts:infer=policy", game("english"), seed=0)
    with pytest.raises(RulesError, match="no trained network"):
        make_bot("ismcts:prior=policy", game("nigerian", 4), seed=0)
    make_bot("ismcts:infer=draws", game("english", 4), seed=0)  # the simple model: every table
