"""The simulator: reproducible from its seed whatever the number of processes; stats; files."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.core import RulesError
from parlour.sim import SimSpec, run, summarize, wilson
from parlour.sim.ladder import head_to_head
from parlour.sim.ratings import rate_games

SPEC = SimSpec(
    game="whot", players=3, bots=("hint", "random", "greedy"), rules="storey-1935", seed=5
)


def _strip(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_same_seed_same_rows_with_one_or_two_jobs() -> None:
    a = run(SPEC, 12, jobs=1)
    b = run(SPEC, 12, jobs=2)
    assert a.complete and b.complete
    assert _strip(a.rows) == _strip(b.rows)
    assert [r["game"] for r in a.rows] == list(range(12))
    c = run(SimSpec(**{**SPEC.__dict__, "seed": 6, "lineups": ()}), 12, jobs=1)
    assert _strip(c.rows) != _strip(a.rows)


def test_bots_rotate_round_the_table() -> None:
    rows = run(SPEC, 3).rows
    assert [r["bots"] for r in rows] == [
        ["hint", "random", "greedy"],
        ["greedy", "hint", "random"],
        ["random", "greedy", "hint"],
    ]
    fixed = SimSpec(game="whot", players=2, bots=("hint", "random"), rotate=False)
    assert {tuple(r["bots"]) for r in run(fixed, 3).rows} == {("hint", "random")}


def test_summary_shares_add_up_and_intervals_hold() -> None:
    rows = run(SPEC, 30).rows
    s = summarize(rows, 3)
    assert s.games == 30
    assert sum(r.wins for r in s.by_seat) == pytest.approx(30)
    assert sum(r.trials for r in s.by_bot) == 90
    for r in (*s.by_seat, *s.by_bot, s.first_player):
        lo, hi = r.interval
        assert 0 <= lo <= r.rate <= hi <= 1
    assert s.length_median <= s.length_p95
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    ratings = rate_games(rows)
    assert {r.bot for r in ratings} == {"hint", "random", "greedy"}


def test_tournament_lineups_cover_every_seat() -> None:
    spec = SimSpec(game="whot", players=2, bots=("hint", "random", "greedy"), tournament=True)
    seats = [spec.seating(i) for i in range(6)]
    assert len(set(seats)) == 6  # three pairs, each both ways round


def test_unknown_bot_is_a_clean_error() -> None:
    with pytest.raises(RulesError):
        run(SimSpec(game="whot", players=2, bots=("hint", "nobody")), 2)


def test_cli_writes_csv_jsonl_and_a_plot(tmp_path: Path) -> None:
    out_csv = tmp_path / "g.csv"
    out_jsonl = tmp_path / "g.jsonl"
    png = tmp_path / "g.png"
    args = ["simulate", "whot", "--rules", "storey-1935", "--bots", "hint,random", "--games", "8"]
    assert main([*args, "--seed", "2", "-q", "--out", str(out_csv), "--plot", str(png)]) == 0
    assert main([*args, "--seed", "2", "-q", "--jobs", "2", "--out", str(out_jsonl)]) == 0
    with out_csv.open() as f:
        table = list(csv.DictReader(f))
    lines = [json.loads(x) for x in out_jsonl.read_text().splitlines()]
    assert len(table) == len(lines) == 8
    for row, line in zip(table, lines, strict=True):
        assert int(row["seed"]) == line["seed"]
        assert int(row["moves"]) == line["moves"]
        assert [row["bot_0"], row["bot_1"]] == line["bots"]
        assert [int(row["points_0"]), int(row["points_1"])] == line["points"]
    assert png.stat().st_size > 1000 and png.read_bytes()[:4] == b"\x89PNG"


def test_cli_set_and_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            ["simulate", "whot", "-r", "storey-1935", "-s", "deal=4", "-b", "hint", "-n", "4", "-q"]
        )
        == 0
    )
    assert (
        main(
            ["tournament", "whot", "-r", "storey-1935", "-b", "hint,random,greedy", "-n", "6", "-q"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "ordinal" in out and "hint" in out
    assert main(["simulate", "whot", "-b", "random", "-n", "2", "--out", "x.txt", "-q"]) == 2


def test_a_game_still_going_at_the_move_cap_is_cut_short_as_a_tie() -> None:
    """No Whot! game ends in 5 moves (each player starts with five cards), so a cap of 5 cuts
    every game: no winner, every seat ranked first, and the summary counts it."""
    capped = SimSpec(game="whot", players=2, bots=("hint", "random"), seed=3, max_moves=5)
    rows = run(capped, 4).rows
    assert [(r["moves"], r["finished"], r["winners"], r["ranks"]) for r in rows] == [
        (5, False, [], [1, 1])
    ] * 4
    assert all(r["reason"] == "cut short after 5 moves" for r in rows)
    s = summarize(rows, 2)
    assert s.cut_short == 4 and sum(r.wins for r in s.by_bot) == 0
    assert head_to_head(rows, "hint", "random").rate == 0.5
    # a cap no game reaches changes no row
    free = SimSpec(game="whot", players=2, bots=("hint", "random"), seed=3)
    high = SimSpec(game="whot", players=2, bots=("hint", "random"), seed=3, max_moves=10**6)
    assert _strip(run(high, 4).rows) == _strip(run(free, 4).rows)
    assert all(r["finished"] for r in run(free, 4).rows)
    with pytest.raises(RulesError, match="at least 1"):
        SimSpec(game="whot", players=2, bots=("hint", "random"), max_moves=0)


def test_the_move_cap_ends_a_run_whose_bots_go_round_for_ever(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Under Game No. 2's house rule `success_keeps_turn = false`, played on without the
    referee's ending (`given_back_ends = 0`), hint bots hand a card back and forth and never
    finish a game: without a cap the run would never end."""
    house = ["-s", "success_keeps_turn=false", "-s", "given_back_ends=0"]
    args = ["simulate", "whoswho-books", *house, "-b", "hint"]
    assert main([*args, "-p", "4", "-n", "2", "--max-moves", "300", "-q"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 games were cut short at --max-moves" in out
    assert main([*args, "-n", "2", "--max-moves", "0", "-q"]) == 2
    assert "--max-moves must be at least 1" in capsys.readouterr().out
