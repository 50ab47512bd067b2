"""ISMCTS: legal moves only, decisions from views only, explanations, parameters."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import parlour
from parlour.bots import Bot, ISMCTSBot, advise, bot_names, make_bot
from parlour.bots.ismcts import ISMCTSParams, search_help
from parlour.core import Move, RulesError, State, info
from parlour.core.rng import GameRng

GAMES = [
    ("whot", 2, "nigerian"),
    ("whot", 3, "storey-1935"),
    ("sorry", 4, "regular"),
    ("sorry", 4, "partnership"),
    ("whoswho-tricks", 4, None),
    ("whoswho-books", 3, None),
]


def _positions(name: str, players: int, rules: str | None, count: int) -> list[State]:
    game = parlour.make(name, players=players, rules=rules)
    out = []
    rng = random.Random(7)
    for seed in range(count):
        s = game.new_game(seed=seed)
        for _ in range(rng.randrange(0, 40)):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_moves()))
        if not s.is_over:
            out.append(s)
    return out


@pytest.mark.parametrize(("name", "players", "rules"), GAMES)
def test_ismcts_chooses_a_legal_move(name: str, players: int, rules: str | None) -> None:
    for i, s in enumerate(_positions(name, players, rules, 4)):
        bot = make_bot("ismcts:iterations=40", s.game, seed=i)
        p = s.to_play
        assert p is not None
        legal = s.legal_moves()
        move = bot.choose(s.view(p), legal)
        assert move in legal
        s.apply(move)  # and the state accepts it


@pytest.mark.parametrize(("name", "players", "rules"), GAMES[:3] + GAMES[4:5])
def test_ismcts_decides_from_the_view_alone(name: str, players: int, rules: str | None) -> None:
    """Two states the player cannot tell apart (hidden cards redrawn) get the same decision."""
    for i, s in enumerate(_positions(name, players, rules, 3)):
        p = s.to_play
        assert p is not None
        other = s.permute_hidden(p, GameRng(99 + i))
        assert other.view(p) == s.view(p)
        a = make_bot("ismcts:iterations=60", s.game, seed=i).choose(s.view(p), s.legal_moves())
        b = make_bot("ismcts:iterations=60", s.game, seed=i).choose(
            other.view(p), other.legal_moves()
        )
        assert a == b


class _Guard(Bot):
    """Wraps a bot and checks that it is only ever handed a view and a list of moves."""

    name = "guard"

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.calls = 0

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        assert isinstance(view, dict) and not isinstance(view, State)
        assert all(isinstance(m, Move) for m in legal)
        assert view.get("viewer") is not None
        self.calls += 1
        return self.inner.choose(view, legal)


@pytest.mark.parametrize(("name", "players", "rules"), GAMES)
def test_bots_only_receive_views(
    name: str, players: int, rules: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import parlour.sim.simulate as sim

    spec = sim.SimSpec(
        game=name,
        players=players,
        bots=tuple(["ismcts:iterations=8", "hint"] + ["random"] * (players - 2)),
        rules=rules,
    )
    guards: list[_Guard] = []
    real = make_bot

    def wrapped(b: str, game: Any, seed: int | None = None) -> Bot:
        g = _Guard(real(b, game, seed))
        guards.append(g)
        return g

    monkeypatch.setattr(sim, "make_bot", wrapped)
    row = sim.play_game(spec, 0)
    assert row["moves"] > 0
    assert sum(g.calls for g in guards) == row["moves"]


def test_every_game_has_hint_and_ismcts() -> None:
    for name in parlour.core.games():
        names = bot_names(name)
        assert {"hint", "ismcts", "random"} <= set(names), name


def test_explain_gives_an_estimate_and_advise_works() -> None:
    game = parlour.make("whot", players=2, rules="nigerian")
    s = game.new_game(seed=3)
    p = s.to_play
    assert p is not None
    move, text = make_bot("ismcts:iterations=50", game, 1).explain(s.view(p), s.legal_moves())
    assert move in s.legal_moves()
    assert "%" in text and "simulations" in text
    move, text = advise(s.view(p), s.legal_moves(), game)
    assert move in s.legal_moves() and text.startswith("hint")
    move, text = advise(s.view(p), s.legal_moves(), game, bot="ismcts:iterations=30", seed=1)
    assert move in s.legal_moves() and "ismcts" in text


def test_seconds_budget_and_bad_parameters() -> None:
    game = parlour.make("whot", players=2)
    s = game.new_game(seed=1)
    bot = make_bot("ismcts:seconds=0.05", game, 1)
    assert isinstance(bot, ISMCTSBot)
    p = s.to_play
    assert p is not None
    assert bot.choose(s.view(p), s.legal_moves()) in s.legal_moves()
    assert bot.last is not None and bot.last.iterations >= 1
    for bad in ("ismcts:iters=3", "ismcts:iterations=x", "ismcts:iterations=0"):
        with pytest.raises(RulesError):
            make_bot(bad, game, 1)


def test_hint_bots_play_whole_games() -> None:
    for name, players, rules in GAMES:
        game = parlour.make(name, players=players, rules=rules)
        s = game.new_game(seed=11)
        bots = [make_bot("hint", game, q) for q in range(players)]
        while not s.is_over:
            p = s.to_play
            assert p is not None
            view = s.view(p)
            legal = s.legal_moves()
            move, why = bots[p].explain(view, legal)
            assert move in legal and why
            s.apply(move)


def test_whoswho_playouts_stop_at_the_end_of_the_deal() -> None:
    """The Game No. 1 horizon counts the moves left in the deal, so a playout of that many moves
    ends exactly where the deal does (later deals are dealt afresh)."""
    from parlour.bots.ismcts import search_help

    game = parlour.make("whoswho-tricks", players=4)
    help_ = search_help("whoswho-tricks")
    assert help_.horizon is not None and help_.evaluate is not None
    rng = random.Random(3)
    s = game.new_game(seed=3)
    for skip in (0, 1, 6):
        for _ in range(skip):
            s.apply(rng.choice(s.legal_moves()))
        before = s.deal_no
        trial = s.copy()
        for _ in range(help_.horizon(trial)):
            assert trial.deal_no == before
            trial.apply(rng.choice(trial.legal_moves()))
        assert trial.deal_no == before + 1
        chances = help_.evaluate(trial)
        assert len(chances) == 4 and abs(sum(chances) - 1) < 1e-9


def _counting_model(calls: list[int]) -> Any:
    """A model that records whose turn it was asked about and plays the first legal move."""

    def model(state: State, rng: random.Random) -> Move:
        assert state.to_play is not None
        calls.append(state.to_play)
        return state.legal_moves()[0]

    return model


def test_with_a_model_the_tree_branches_only_on_the_searchers_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At another seat's turn the search follows the game's model instead of branching: the
    model is asked about the other seats' turns, and every root move is still searched."""
    from parlour.bots import ismcts

    game = parlour.make("sorry", players=4)
    s = game.new_game(seed=5)
    while len(s.legal_moves()) < 2:
        s.apply(s.legal_moves()[0])
    me = s.to_play
    assert me is not None
    calls: list[int] = []
    help_ = ismcts.search_help("sorry")
    monkeypatch.setattr(
        info("sorry"),
        "search",
        ismcts.SearchHelp(model=_counting_model(calls), evaluate=help_.evaluate, depth=0),
    )
    bot = make_bot("ismcts:iterations=200", game, 1)
    assert isinstance(bot, ISMCTSBot)
    stats = bot.search(s.view(me), s.legal_moves())
    assert {m for m, _, _ in stats.moves} == set(s.legal_moves())
    assert any(q != me for q in calls)
    # With `model=0` the same search branches on every seat and never asks the model.
    calls.clear()
    make_bot("ismcts:iterations=50,model=0", game, 1).choose(s.view(me), s.legal_moves())
    assert calls == []


def test_paired_search_judges_every_root_move_on_the_same_determinizations() -> None:
    """With common random numbers each root move is tried once per determinization in turn, so
    the visits are equal (to within one) and the move with the best mean is chosen."""
    game = parlour.make("whot", players=2, rules="nigerian")
    s = game.new_game(seed=2)
    while len(s.legal_moves()) < 3:
        s.apply(s.legal_moves()[0])
    p = s.to_play
    assert p is not None
    bot = make_bot("ismcts:iterations=301,paired=1", game, 4)
    assert isinstance(bot, ISMCTSBot)
    move = bot.choose(s.view(p), s.legal_moves())
    stats = bot.last
    assert stats is not None
    visits = [v for _, v, _ in stats.moves]
    assert max(visits) - min(visits) <= 1 and sum(visits) == 301
    assert move == max(stats.moves, key=lambda x: x[2])[0]
    with pytest.raises(RulesError):
        make_bot("ismcts:paired=maybe", game, 1)


def test_settled_playouts_are_scored_at_the_searchers_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """`settle` plays on past the depth until the searcher is to move again (or the game ends),
    so every leaf is scored at the same point of the round."""
    from parlour.bots import ismcts

    game = parlour.make("sorry", players=4)
    s = game.new_game(seed=8)
    while len(s.legal_moves()) < 2:
        s.apply(s.legal_moves()[0])
    me = s.to_play
    seen: list[int | None] = []

    def evaluate(state: State) -> list[float]:
        seen.append(None if state.is_over else state.to_play)
        return [0.25] * 4

    monkeypatch.setattr(
        info("sorry"), "search", ismcts.SearchHelp(evaluate=evaluate, depth=0, settle=True)
    )
    assert me is not None
    make_bot("ismcts:iterations=100", game, 3).choose(s.view(me), s.legal_moves())
    assert seen and set(seen) <= {me, None}


@pytest.mark.parametrize("paired", ["0", "1"])
def test_the_search_traces_each_iterations_root_move_and_reward(paired: str) -> None:
    """`search(..., trace=[])` lists every iteration's root move and the seat's reward: per move,
    as many as its visits, averaging to its estimate; a search without a trace finds the same."""
    game = parlour.make("whot", players=2, rules="nigerian")
    s = game.new_game(seed=2)
    while len(s.legal_moves()) < 3:
        s.apply(s.legal_moves()[0])
    p = s.to_play
    assert p is not None
    trace: list[tuple[Move, float]] = []
    bot = make_bot(f"ismcts:iterations=300,paired={paired}", game, 4)
    assert isinstance(bot, ISMCTSBot)
    stats = bot.search(s.view(p), s.legal_moves(), trace=trace)
    assert len(trace) == stats.iterations == 300
    for move, visits, mean in stats.moves:
        rewards = [r for m, r in trace if m == move]
        assert len(rewards) == visits
        assert sum(rewards) / visits == pytest.approx(mean)
    again = make_bot(f"ismcts:iterations=300,paired={paired}", game, 4)
    assert isinstance(again, ISMCTSBot)
    assert again.search(s.view(p), s.legal_moves()).moves == stats.moves


@pytest.mark.parametrize("collecting", [True, False])
def test_a_search_pauses_the_cyclic_collector_and_leaves_it_as_it_found_it(
    monkeypatch: pytest.MonkeyPatch, collecting: bool
) -> None:
    # The collector's full passes over a process's long-lived objects were 12% of a Who's Who
    # No. 2 decision (docs/bots.md); the search turns it off while it runs, and back on only if
    # it was on (a server process may run its own collection policy).
    import gc

    game = parlour.make("whot", players=2, rules="nigerian")
    state = game.new_game(seed=4)
    seen: list[bool] = []
    plain = type(game).sampler

    def watched(self: Any, view: dict[str, Any]) -> Any:
        sample = plain(self, view)

        def draw(rng: GameRng) -> State:
            seen.append(gc.isenabled())
            drawn: State = sample(rng)
            return drawn

        return draw

    monkeypatch.setattr(type(game), "sampler", watched)
    bot = make_bot("ismcts:iterations=50", game, 1)
    was = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        bot.choose(state.view(0), state.legal_moves())
        after = gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()
    assert seen and not any(seen)  # every draw made with the collector off
    assert after is collecting


def test_a_spec_picks_the_games_named_policies_as_model_and_playout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`ismcts:model=greedy,playout=greedy` searches with the game's policy named `greedy` as the
    other seat's model and as the playout policy, and never asks the game's own (`hint`)."""
    from parlour.bots import ismcts

    game = parlour.make("whot", players=2, rules="nigerian")
    s = game.new_game(seed=2)
    while len(s.legal_moves()) < 3:
        s.apply(s.legal_moves()[0])
    me = s.to_play
    assert me is not None
    asked: dict[str, list[int]] = {"hint": [], "greedy": [], "own": []}
    help_ = ismcts.search_help("whot")
    monkeypatch.setattr(
        info("whot"),
        "search",
        ismcts.SearchHelp(
            policy=_counting_model(asked["own"]),
            model=_counting_model(asked["own"]),
            evaluate=help_.evaluate,
            depth=8,
            policies={
                "hint": _counting_model(asked["hint"]),
                "greedy": _counting_model(asked["greedy"]),
            },
        ),
    )
    make_bot("ismcts:iterations=100,model=greedy,playout=greedy", game, 1).choose(
        s.view(me), s.legal_moves()
    )
    assert me in asked["greedy"] and any(q != me for q in asked["greedy"])  # playout and model
    assert asked["hint"] == asked["own"] == []
    # The model alone: the playout stays the game's own policy.
    make_bot("ismcts:iterations=100,model=hint", game, 1).choose(s.view(me), s.legal_moves())
    assert any(q != me for q in asked["hint"]) and asked["own"]


def test_an_unknown_policy_name_lists_the_games_policies() -> None:
    game = parlour.make("whot", players=2)
    with pytest.raises(
        RulesError,
        match=r"ismcts playout must be one of whot's policies "
        r"\(greedy, hint\), not 'smart'",
    ):
        make_bot("ismcts:playout=smart", game, 0)
    with pytest.raises(
        RulesError,
        match=r"ismcts model must be 0, 1 or one of whot's policies "
        r"\(greedy, hint\), not 'smart'",
    ):
        make_bot("ismcts:model=smart", game, 0)
    # A game that names no policies says so; `model=0` and `model=1` still mean none and its own.
    sorry = parlour.make("sorry", players=4)
    with pytest.raises(RulesError, match=r"one of sorry's policies \(none\), not 'greedy'"):
        make_bot("ismcts:model=greedy", sorry, 0)
    bot = make_bot("ismcts:model=0", sorry, 0)
    assert isinstance(bot, ISMCTSBot) and bot.model is None
    bot = make_bot("ismcts:model=1", sorry, 0)
    assert isinstance(bot, ISMCTSBot) and bot.model is search_help("sorry").model


def test_a_guarded_search_keeps_the_models_move_unless_another_clearly_beats_it() -> None:
    """`guard=z` (paired): the model's own move stands unless another root move beat it on the
    same determinizations by more than z standard errors of the paired difference."""
    game = parlour.make("whot", players=2, rules="nigerian")
    bot = make_bot("ismcts:iterations=10,paired=1,guard=2", game, 0)
    assert isinstance(bot, ISMCTSBot)
    legal: list[Any] = ["base", "clear", "noisy"]  # (stand-ins: the guard only compares them)
    a, b, other = legal[0], legal[1], legal[1] + " elsewhere"
    base = [0.5, 0.4, 0.6, 0.5, 0.3, 0.7, 0.5, 0.5]
    clear = [x + 0.1 for x in base]  # ahead on every determinization
    noisy = [
        x + d for x, d in zip(base, [0.3, -0.3, 0.3, -0.3, 0.3, -0.25, 0.3, -0.3], strict=True)
    ]
    assert sum(noisy) > sum(base)  # ahead on the mean, well inside its noise
    assert bot._guarded(a, legal, [base, clear, noisy]) == b
    assert bot._guarded(a, legal, [base, base, noisy]) == a
    assert bot._guarded(other, legal, [base, clear, noisy]) is None


def test_an_unbeatable_guard_plays_the_models_move() -> None:
    # With a guard no search can clear, `ismcts:model=greedy,paired=1,guard=...` plays greedy.
    game = parlour.make("whot", players=2, rules="nigerian")
    checked = 0
    for seed in range(6):
        s = game.new_game(seed=seed)
        greedy = make_bot("greedy", game, 0)
        for turn in range(30):
            if s.is_over:
                break
            p = s.to_play
            assert p is not None
            view, legal = s.view(p), s.legal_moves()
            want = greedy.choose(view, legal)
            if sum(str(m).startswith("play") for m in legal) > 1 and turn % 3 == 0:
                bot = make_bot("ismcts:iterations=60,model=greedy,paired=1,guard=1e9", game, turn)
                assert bot.choose(view, legal) == want
                checked += 1
            s.apply(want)
    assert checked >= 10
    with pytest.raises(RulesError, match=r"guard .* paired=1"):
        make_bot("ismcts:guard=2", game, 0)
    with pytest.raises(RulesError, match="guard must be a finite number"):
        make_bot("ismcts:guard=-1,paired=1", game, 0)


def test_the_parameters_are_read_once_from_the_spec_with_the_games_defaults() -> None:
    sorry = search_help("sorry")
    p = ISMCTSParams.from_spec({"iterations": "200", "depth": "3"}, "sorry")
    assert (p.iterations, p.depth, p.seconds) == (200, 3, None)
    assert (p.c, p.pool, p.paired) == (sorry.c, sorry.pool, sorry.paired)  # the game's own
    assert p.model is sorry.model and p.playout is sorry.policy
    assert p.budget() == {"pool": sorry.pool, "max_playout": 2000, "iterations": 200, "depth": 3}
    # a depth in the spec stands instead of the game's horizon
    tricks = search_help("whoswho-tricks")
    assert tricks.horizon is not None
    assert ISMCTSParams.from_spec({}, "whoswho-tricks").horizon is tricks.horizon
    assert ISMCTSParams.from_spec({"depth": "5"}, "whoswho-tricks").horizon is None
    assert ISMCTSParams.from_spec({"seconds": "0.5"}, "whot").budget()["seconds"] == 0.5
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.c = 1.0  # type: ignore[misc]


def test_parameters_built_directly_are_checked_as_a_spec_is() -> None:
    with pytest.raises(RulesError, match=r"guard compares root moves .*: paired=1"):
        ISMCTSParams(guard=1.0)
    with pytest.raises(RulesError, match="seconds must be a finite number above 0"):
        ISMCTSParams(seconds=float("inf"))
    with pytest.raises(RulesError, match="iterations, pool and max_playout >= 1"):
        ISMCTSParams(pool=0)
    with pytest.raises(RulesError, match=r"ismcts takes c, depth, .*, seconds; not budget"):
        ISMCTSParams.from_spec({"budget": "3"}, "whot")
