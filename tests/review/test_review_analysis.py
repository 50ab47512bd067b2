"""The analysis of a game: every decision of the seat judged, its JSON, its seed, its marks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from review_testkit import GAMES, IDS, SMALL, head, played

import parlour
from parlour.core import LoadError, Record, RulesError
from parlour.review import (
    ANALYSIS_FORMAT,
    Analysis,
    Budget,
    Marks,
    analyse,
    decision_points,
    judge,
    record_hash,
)


def _without_times(data: dict[str, Any]) -> dict[str, Any]:
    """An analysis's JSON without its timings (the only part a machine's speed changes)."""
    out = dict(data, seconds=0)
    out["decisions"] = [dict(d, seconds=0) for d in data["decisions"]]
    return out


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_every_decision_of_the_seat_is_judged(name: str, players: int, rules: str) -> None:
    record = head(played(name, players, rules), 60)
    seat = 0
    a = analyse(record, seat, SMALL, seed=3)
    # the seat's turns, replayed by hand: a decision where it had two moves or more
    state = parlour.replay(record, upto=0)
    want, forced = [], 0
    for ply, text in enumerate(record.moves):
        if state.to_play == seat:
            legal = [str(m) for m in state.legal_moves()]
            if len(legal) > 1:
                want.append((ply, text, sorted(legal)))
            else:
                forced += 1
        state.apply(text)
    assert [(d.ply, d.played, sorted(m.move for m in d.moves)) for d in a.decisions] == want
    assert a.total == len(want) > 0 and a.forced == forced and a.complete
    assert a.result is None and a.record["finished"] is False  # the head of a game
    for d in a.decisions:
        k = len(d.moves)
        # paired: every move the same number of visits, whole rounds, at least min_visits each
        assert {m.visits for m in d.moves} == {d.iterations // k} and d.iterations % k == 0
        assert d.iterations == SMALL.iterations_for(k) and d.iterations // k >= SMALL.min_visits
        estimates = [m.estimate for m in d.moves]
        assert estimates == sorted(estimates, reverse=True)  # the best first
        assert all(0 <= e <= 1 for e in estimates)
        assert d.loss == pytest.approx(d.best.estimate - d.played_move.estimate, abs=1e-6)
        assert d.best.gap_se == 0.0 and all(m.gap_se is not None for m in d.moves)
        assert d.mark == a.marks.mark(d.loss, d.loss_se)


def test_a_finished_game_gives_the_seats_result() -> None:
    record = played("whot", 2, "nigerian")
    winner = parlour.replay(record).result().winners
    a = analyse(record, 1, Budget(iterations=24, min_visits=4), seed=0)
    assert a.record["finished"] is True
    assert a.result == (1.0 if winner == (1,) else 0.0)


def test_the_same_seed_gives_the_same_analysis_and_another_seed_another() -> None:
    record = head(played("whot", 2, "nigerian"), 40)
    one = analyse(record, 0, SMALL, seed=11).to_dict()
    two = analyse(record, 0, SMALL, seed=11).to_dict()
    other = analyse(record, 0, SMALL, seed=12).to_dict()
    assert _without_times(one) == _without_times(two)
    assert _without_times(one)["decisions"] != _without_times(other)["decisions"]


def test_a_decision_does_not_depend_on_the_others() -> None:
    """Each decision has its own generator (seed and ply): judging a longer piece of the same
    game gives its first decisions the very same estimates (a server may analyse in parts)."""
    record = played("whoswho-tricks", 4, "standard")
    short = analyse(head(record, 30), 0, SMALL, seed=5)
    long = analyse(head(record, 60), 0, SMALL, seed=5)
    assert len(long.decisions) > len(short.decisions) > 0
    for a, b in zip(short.decisions, long.decisions, strict=False):
        assert a.moves == b.moves and a.mark == b.mark


def test_reproducible_in_another_interpreter_with_another_hash_seed(tmp_path: Path) -> None:
    """No set or hash order leaks into the estimates: a fresh interpreter with a different
    PYTHONHASHSEED gives the same analysis."""
    record = head(played("whoswho-books", 3, "standard"), 30)
    path = tmp_path / "rec.json"
    path.write_text(record.to_json())
    code = (
        "import json, sys; from parlour.review import analyse, Budget; "
        "from parlour.core import Record; "
        "r = Record.from_json(open(sys.argv[1]).read()); "
        "print(analyse(r, 0, Budget(iterations=48, min_visits=6), seed=4).to_json())"
    )
    outs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        res = subprocess.run(
            [sys.executable, "-c", code, str(path)],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=True,
        )
        outs.append(_without_times(json.loads(res.stdout)))
    assert outs[0] == outs[1]
    assert outs[0] == _without_times(analyse(record, 0, SMALL, seed=4).to_dict())


def test_the_json_is_versioned_strict_and_round_trips() -> None:
    record = head(played("sorry", 4, "regular"), 80)
    a = analyse(record, 0, SMALL, seed=1)
    text = json.dumps(a.to_dict(), allow_nan=False)  # no NaN or Infinity: plain JSON
    data = json.loads(text)
    assert data["format"] == ANALYSIS_FORMAT and data["parlour"] == parlour.__version__
    assert data["record"]["hash"] == record_hash(record)
    assert "seed" not in data["record"]  # nothing the seat could not know: not the deal's seed
    assert set(data["summary"]) == {"decisions", "marks", "mean_loss", "best_played"}
    d0 = data["decisions"][0]
    assert set(d0) == {
        "ply",
        "played",
        "played_estimate",
        "best",
        "best_estimate",
        "loss",
        "loss_se",
        "mark",
        "iterations",
        "seconds",
        "moves",
    }
    assert Analysis.from_dict(data) == a
    assert Analysis.from_json(a.to_json()) == a
    with pytest.raises(LoadError, match="parlour-analysis/1"):
        Analysis.from_dict(dict(data, format="parlour-analysis/0"))
    with pytest.raises(LoadError, match="damaged"):
        Analysis.from_dict({k: v for k, v in data.items() if k != "budget"})
    with pytest.raises(LoadError, match="invalid JSON"):
        Analysis.from_json("{")


def test_the_record_hash_is_the_games_identity() -> None:
    record = played("whot", 2, "nigerian")
    data = record.to_dict()
    same: list[Record | dict[str, Any] | str] = [
        record,
        data,
        record.to_json(indent=2),
        dict(data, names=["Ada", "Bob"]),
    ]
    assert {record_hash(r) for r in same} == {record_hash(record)}
    assert record_hash(head(record, len(record.moves) - 1)) != record_hash(record)
    assert record_hash(dict(data, seed=data["seed"] + 1)) != record_hash(record)
    assert record_hash(record).startswith("sha256:") and len(record_hash(record)) == 71


def test_progress_and_cancel() -> None:
    record = head(played("whot", 2, "nigerian"), 40)
    calls: list[tuple[int, int]] = []
    a = analyse(record, 0, SMALL, progress=lambda done, total: calls.append((done, total)))
    n = a.total
    assert calls == [(i, n) for i in range(n + 1)]
    asked = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 2

    part = analyse(record, 0, SMALL, cancel=cancel)
    assert not part.complete and len(part.decisions) == 2 and part.total == n
    assert [d.moves for d in part.decisions] == [d.moves for d in a.decisions[:2]]
    assert Analysis.from_dict(part.to_dict()).complete is False


def _win_or_draw(first: str) -> Record:
    """Whot!: seat 0 holds one card it can play to win at once, or may draw instead."""
    game = parlour.make("whot", players=2, rules="nigerian")
    position = {
        "hands": [["7 circle"], ["5 square", "whot", "2 star", "13 cross"]],
        "pile": ["3 circle"],
        "pack": ["1 square", "5 cross", "10 triangle", "4 star"],
        "to_play": 0,
    }
    state = game.new_game(seed=1, position=position)
    state.apply(first)
    record: Record = state.record()
    return record


def test_a_thrown_away_win_is_a_blunder_and_the_win_is_no_mistake() -> None:
    budget = Budget(iterations=200)
    drew = analyse(_win_or_draw("draw"), 0, budget, seed=2)
    (d,) = drew.decisions
    assert d.best.move == "play 7 circle" and d.best.estimate == 1.0
    assert d.played == "draw" and d.loss >= 0.2 and d.mark == "blunder"
    won = analyse(_win_or_draw("play 7 circle"), 0, budget, seed=2)
    (w,) = won.decisions
    assert w.played == w.best.move == "play 7 circle" and w.loss == 0 and w.mark is None
    assert won.result == 1.0 and drew.summary()["marks"]["blunder"] == 1


def test_marks_need_the_threshold_and_the_noise() -> None:
    m = Marks()
    assert m.mark(0.0, 0.0) is None
    assert m.mark(0.049, 0.001) is None
    assert m.mark(0.05, 0.001) == "inaccuracy"
    assert m.mark(0.10, 0.01) == "mistake"
    assert m.mark(0.25, 0.01) == "blunder"
    assert m.mark(0.25, 0.2) is None  # a loss within two standard errors is not a clear one
    assert m.mark(0.25, None) is None  # unknown noise: no mark
    strict = Marks(inaccuracy=0.08, mistake=0.15, blunder=0.3, z=3)
    assert strict.mark(0.10, 0.02) == "inaccuracy" and strict.mark(0.10, 0.04) is None
    for bad in (dict(inaccuracy=0.2, mistake=0.1), dict(blunder=1.5), dict(z=-1)):
        with pytest.raises(RulesError):
            Marks(**bad)


def test_the_budget_is_checked_and_spread_over_the_moves() -> None:
    b = Budget(iterations=1000, min_visits=20)
    assert b.iterations_for(3) == 1002 and b.iterations_for(40) == 1000
    assert b.iterations_for(69) == 69 * 20  # at least min_visits a move
    assert Budget(seconds=0.5).bot_params(4)["seconds"] == "0.5"
    for bad in (
        dict(iterations=0),
        dict(min_visits=1),
        dict(seconds=0.0),
        dict(seconds=float("nan")),
    ):
        with pytest.raises(RulesError):
            Budget(**bad)
    assert Budget.from_dict(b.to_dict()) == b


def test_a_seconds_budget_still_pairs_the_moves() -> None:
    record = head(played("whot", 2, "nigerian"), 20)
    a = analyse(record, 0, Budget(seconds=0.05), seed=0)
    for d in a.decisions:
        visits = [m.visits for m in d.moves]
        assert max(visits) - min(visits) <= 1 and sum(visits) == d.iterations


def test_bad_input_is_an_error_in_words() -> None:
    record = played("whot", 2, "nigerian")
    with pytest.raises(RulesError, match="seat must be from 0 to 1"):
        analyse(record, 2)
    broken = Record(record.game, 2, record.rules, record.seed, {}, ("play 99 circle",))
    with pytest.raises(LoadError, match="record move 1"):
        analyse(broken, 0)
    with pytest.raises(LoadError):
        analyse({"game": "whot"}, 0)


def test_decision_points_hand_out_views_not_states() -> None:
    record = head(played("whoswho-tricks", 4, "standard"), 40)
    _, points, _, _ = decision_points(record, 2)
    assert points
    for p in points:
        assert type(p.view) is dict and p.view["viewer"] == 2
        assert p.played in p.legal


def test_every_round_of_a_decision_draws_its_own_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    # the standard error of a gap treats the rounds as independent draws of the hidden cards: a
    # recycled pool of deals (the search's default, 100) would make it look smaller than it is
    record = head(played("whot", 2, "nigerian"), 20)
    game, points, _, _ = decision_points(record, 0)
    point = points[0]
    draws = 0
    sample = game.sample_state

    def counted(view: Any, rng: Any) -> Any:
        nonlocal draws
        draws += 1
        return sample(view, rng)

    monkeypatch.setattr(game, "sample_state", counted)
    budget = Budget(iterations=150 * len(point.legal))
    judge(game, point.view, point.legal, point.played, budget=budget)
    assert draws == 150
