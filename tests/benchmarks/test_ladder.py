"""benchmarks/ladder.py: the bot ladder plays its pairings with fixed seeds, keeps every game as a
row, prints ratings and head-to-head rates with intervals, and writes the difficulty levels with
figures that are exactly those of its games."""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from parlour.sim.ladder import head_to_head

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ladder.py"


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_small_ladder_plays_rates_and_writes_levels_from_its_games(
    ladder: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    levels = tmp_path / "levels.json"
    levels.write_text(json.dumps({"games": {"sorry": {"kept": True}}}))
    monkeypatch.setattr(ladder, "LEVELS_FILE", levels)
    monkeypatch.setitem(ladder.LEVELS, "whot", ("random", "hint", "greedy", "ismcts:iterations=5"))
    rows_file = tmp_path / "rows.jsonl"
    args = ["--only", "whot-storey-1935", "--bots", "random,hint,greedy,ismcts:iterations=5"]
    args += ["--games", "4", "--reach", "1", "--jobs", "1", "--rows", str(rows_file)]
    ladder.main([*args, "--write-levels"])
    out = capsys.readouterr().out
    assert "ratings (openskill" in out and "head to head" in out and "s/game min" in out

    rows = _rows(rows_file)
    pairs = [("random", "hint"), ("hint", "greedy"), ("greedy", "ismcts:iterations=5")]
    assert [tuple(r["pairing"]) for r in rows] == [p for p in pairs for _ in range(4)]
    # every pairing plays the same deals, each bot in each seat equally often
    seeds = [[r["seed"] for r in rows if tuple(r["pairing"]) == p] for p in pairs]
    assert seeds[0] == seeds[1] == seeds[2]
    for a, b in pairs:
        seats = [r["bots"] for r in rows if tuple(r["pairing"]) == (a, b)]
        assert seats == [[a, b], [b, a], [a, b], [b, a]]

    written = json.loads(levels.read_text())
    assert written["games"]["sorry"] == {"kept": True}, "a game not measured here is kept"
    whot = written["games"]["whot"]
    assert whot["command"].startswith("benchmarks/ladder.py --only whot-storey-1935")
    assert [lv["name"] for lv in whot["levels"]] == ["easy", "medium", "hard", "expert"]
    for below, level in itertools.pairwise(whot["levels"]):
        (m,) = level["vs_below"]
        games = [r for r in rows if set(r["pairing"]) == {below["bot"], level["bot"]}]
        h = head_to_head(games, level["bot"], below["bot"])
        assert (m["wins"], m["games"], m["rules"], m["players"]) == (
            h.wins,
            4,
            "storey-1935",
            2,
        )


def test_the_same_figures_come_again_from_the_saved_rows(
    ladder: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows_file = tmp_path / "rows.jsonl"
    monkeypatch.setitem(ladder.LEVELS, "whot", ("random", "hint", "greedy", "ismcts:iterations=5"))
    monkeypatch.setattr(ladder, "LEVELS_FILE", tmp_path / "a.json")
    args = ["--only", "whot-nigerian", "--bots", "random,hint,greedy,ismcts:iterations=5"]
    ladder.main([*args, "--games", "2", "--jobs", "1", "--rows", str(rows_file), "--write-levels"])
    played = capsys.readouterr().out
    monkeypatch.setattr(ladder, "LEVELS_FILE", tmp_path / "b.json")
    ladder.main(["--only", "whot-nigerian", "--from-rows", str(rows_file), "--write-levels"])
    again = capsys.readouterr().out
    table = played[played.index("== whot-nigerian") : played.index("s wall")]
    assert table.rsplit("\n", 1)[0] in again
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a == b


def test_the_cheat_is_labelled_wherever_its_rating_is_printed(ladder: ModuleType) -> None:
    assert "CHEATS" in ladder.label("cheat-mcts:iterations=100")
    assert ladder.label("hint") == "hint"


def test_without_openspiel_the_ladder_says_so_and_how_to_install_it(
    ladder: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # import open_spiel… raises ImportError, also where another test imported it already (a
    # module found in sys.modules by its full name is not looked for again under its package)
    for name in ["open_spiel", *(m for m in sys.modules if m.startswith("open_spiel."))]:
        monkeypatch.setitem(sys.modules, name, None)
    why = ladder.playable("openspiel-ismcts:simulations=5", ladder.TABLES["whot-nigerian"])
    assert why is not None and "needs OpenSpiel" in why and "pip install 'parlour[rl]'" in why
    ladder.main(["--only", "whot-nigerian", "--bots", "random,openspiel-ismcts", "--games", "2"])
    out = capsys.readouterr().out
    assert "whot-nigerian: leaving out openspiel-ismcts: openspiel-ismcts needs OpenSpiel" in out


def test_a_game_kept_in_two_row_files_is_counted_once(
    ladder: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows_file = tmp_path / "rows.jsonl"
    args = ["--only", "whot-nigerian", "--bots", "random,hint", "--games", "3", "--jobs", "1"]
    ladder.main([*args, "--rows", str(rows_file)])
    copy = tmp_path / "copy.jsonl"
    copy.write_text(rows_file.read_text())
    assert len(ladder.read_rows([str(rows_file), str(copy)])) == 3
    ladder.main(["--only", "whot-nigerian", "--from-rows", str(rows_file), str(copy)])
    assert "1 pairings of 3 games" in capsys.readouterr().out


def test_duplicate_deals_play_each_deal_from_both_seats_and_rate_by_deal(
    ladder: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from parlour.sim.stats import paired_rate

    levels = tmp_path / "levels.json"
    monkeypatch.setattr(ladder, "LEVELS_FILE", levels)
    monkeypatch.setitem(ladder.LEVELS, "whot", ("random", "greedy"))
    rows_file = tmp_path / "rows.jsonl"
    args = ["--only", "whot-storey-1935", "--bots", "random,greedy", "--duplicate"]
    ladder.main([*args, "--games", "6", "--jobs", "1", "--rows", str(rows_file), "--write-levels"])
    out = capsys.readouterr().out
    assert "deals=    6" in out, "the pairing's figure is over deals"
    rows = _rows(rows_file)
    assert len(rows) == 12 and all(r["duplicate"] for r in rows)
    for a, b in zip(rows[::2], rows[1::2], strict=True):
        assert a["seed"] == b["seed"] and a["bots"] == b["bots"][::-1], "one deal, seats swapped"
    (m,) = json.loads(levels.read_text())["games"]["whot"]["levels"][1]["vs_below"]
    p = paired_rate(rows, 2, lambda r: head_to_head([r], "greedy", "random").wins)
    assert (m["deals"], m["games"], m["rate"], m["low"]) == (
        6,
        12,
        round(p.rate, 4),
        round(p.interval[0], 4),
    )
