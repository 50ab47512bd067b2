"""What the learned Whot! player sees is the same in training and in play.

Training reads features off the batched engine (`WhotBatch.observe` and `CapsTracker`); the bot
reads them off a view (`WhotEncoding.observe(view)` and `held_at_most(view["events"])`). Played
side by side in lockstep from the same seeds, the two must give the same state rows and the same
pair features for every legal move, at every decision — or the bot would play a game it never
trained on. `held_at_most` is the rule of seed 000's HINTS ON PLAY: "note which numbers and
symbols your opponents cannot follow".
"""

from __future__ import annotations

import pytest
from learn_support import need

np = need("numpy")

import parlour  # noqa: E402
from parlour.games.whot.batched import WhotBatch, pick_legal  # noqa: E402
from parlour.games.whot.encoding import WhotEncoding  # noqa: E402
from parlour.games.whot.hint import held_at_most  # noqa: E402
from parlour.games.whot.learned.features import (  # noqa: E402
    CapsTracker,
    Features,
    action_table,
)


@pytest.mark.parametrize(
    ("rules", "players"),
    [("nigerian", 2), ("storey-1935", 2), ("nigerian", 4), ("storey-1935", 3)],
)
def test_training_and_play_see_the_same_features(rules: str, players: int) -> None:
    games = 48
    batch = WhotBatch(players, rules)
    ref = parlour.make("whot", players=players, rules=rules)
    enc = WhotEncoding(ref)
    ids = dict(enc.index)
    feats = Features.of(batch.rules, players, enc.layout.offsets)
    seeds = np.arange(500, 500 + games)
    st = batch.deal(seeds)
    states = [ref.new_game(seed=int(s)) for s in seeds]
    tracker = CapsTracker(batch, games)
    rng = np.random.default_rng(7)
    # Half the games play a card whenever they can (they end), half choose uniformly (they draw
    # by choice too, and reach reshuffles and turn-overs).
    eager = rng.random(games) < 0.5
    compared = lacks_seen = 0
    for _ in range(150):
        live = ~st.done
        if not live.any():
            break
        obs = batch.observe(st, skip=feats.unread)  # as self-play observes
        state_b, tables_b = feats.derive(obs, tracker.relative(st.cur))
        for g in np.flatnonzero(live):
            s = states[g]
            view = s.view(s.to_play)
            n = players
            caps = held_at_most(view["events"], n, ref.rules.whot_on_whot)
            rel = np.array([[caps[(s.to_play + k) % n] for k in range(n)]], np.int16)
            state_v, tables_v = feats.derive(enc.observe(view)[None, :], rel)
            assert np.array_equal(state_v[0], state_b[g]), f"seed {seeds[g]}: state features"
            legal = np.array([ids[m] for m in s.legal_moves()])
            zero = np.zeros(legal.size, np.int64)
            both = tables_v.pairs(zero, legal), tables_b.pairs(zero + g, legal)
            assert np.array_equal(*both), f"seed {seeds[g]}: pair features"
            compared += 1
            lacks_seen += int((rel[0, 1:] >= 0).any())
        plays = st.legal & ~np.uint64(1 << 54)
        pool = np.where(eager & (plays != 0), plays, st.legal)
        actions = pick_legal(pool, rng.random(games))
        for g in np.flatnonzero(live):
            states[g].apply(enc.moves[int(actions[g])])
        st = tracker.step(st, actions, live)
    assert compared > 2000
    assert lacks_seen > 100, "the positions include seats known to lack a symbol"


def test_each_action_is_described_by_the_card_it_plays() -> None:
    table = action_table(parlour.make("whot", players=2, rules="nigerian").rules)
    assert table.shape[0] == 57
    assert len({tuple(row) for row in table}) == 57, "every action id has its own features"
    # 14 circle is General market under the Nigerian powers (seed 002: "14-card (General market)")
    from parlour.games.whot.batched import CARDS

    a = CARDS.index(14 * 8 + 0)
    storey = action_table(parlour.make("whot", players=2, rules="storey-1935").rules)
    assert not np.array_equal(table[a], storey[a]), "a power is a feature where the rules give it"
