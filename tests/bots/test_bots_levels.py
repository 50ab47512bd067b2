"""Difficulty levels (parlour.bots.levels): easy to master, each a bot, calibrated on the bot ladder
— each with its measured rate against the level below, read from the file the ladder writes — and
offered by name wherever people choose bots (`--bots easy,expert`)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import parlour
from parlour.bots import levels as lv
from parlour.bots import make_bot
from parlour.cli import main
from parlour.core import RulesError
from parlour.server.levels import levels_for

GAMES = sorted(parlour.core.games())
PLAY = [sys.executable, "-m", "parlour.cli", "play"]


def test_the_levels_file_is_the_ladders() -> None:
    data = json.loads(lv.LEVELS_FILE.read_text(encoding="utf-8"))
    assert set(data["games"]) == set(GAMES), "every built-in game is measured"
    for entry in data["games"].values():
        assert entry["command"].startswith("benchmarks/ladder.py")


@pytest.mark.parametrize("game", GAMES)
def test_each_level_beat_the_one_below_with_its_whole_interval_above_even(game: str) -> None:
    levels = lv.levels(game)
    names = [level.name for level in levels]
    assert len(names) >= 2 and names == list(lv.LEVEL_NAMES[: len(names)]), "easy, then up"
    assert levels[0].vs_below == ()
    for level in levels:
        # a registered bot that a seat can take, at every table it was measured at (a learned
        # bot plays only the tables it was trained for)
        for m in level.vs_below or (None,):
            g = parlour.make(game) if m is None else parlour.make(game, m.players, m.rules)
            make_bot(level.bot, g)
    for level in levels[1:]:
        assert level.vs_below, f"{level.name} has no figure against the level below"
        assert any(m.low > 0.5 for m in level.vs_below), f"{level.name} beat the level below"
        for m in level.vs_below:
            assert 0 <= m.low <= m.rate <= m.high <= 1, f"{level.name} at {m.rules}"
            assert m.games > 0 and m.rate == pytest.approx(m.wins / m.games, abs=5e-5)
            if m.low <= 0.5:  # not separated at this table: the level is not offered there
                with pytest.raises(RulesError, match=f"no {level.name} level for {m.rules}"):
                    lv.resolve(level.name, game, m.rules, m.players)
            else:
                assert lv.resolve(level.name, game, m.rules, m.players) == level.bot


def test_a_game_the_ladder_has_not_measured_gets_the_default_levels_without_figures() -> None:
    levels = lv.levels("a-game-nobody-measured")
    assert [level.bot for level in levels] == list(lv.DEFAULT_LEVELS)
    assert all(level.vs_below == () for level in levels)


def test_a_level_is_its_bot_in_each_game_and_other_specs_pass_through() -> None:
    for game in GAMES:
        for level in lv.levels(game):
            assert lv.resolve(level.name, game) == level.bot
            assert lv.resolve(f" {level.name} ", game) == level.bot
    assert lv.resolve("ismcts:iterations=5", GAMES[0]) == "ismcts:iterations=5"
    for game in GAMES:
        have = [level.name for level in lv.levels(game)]
        for missing in lv.LEVEL_NAMES[len(have) :]:
            with pytest.raises(RulesError, match=f"{game} has the levels {', '.join(have)}"):
                lv.resolve(missing, game)
    assert lv.split_specs("easy,ismcts:iterations=200,c=1,hint") == [
        "easy",
        "ismcts:iterations=200,c=1",
        "hint",
    ]


def test_the_figure_for_a_rule_set_is_its_own_where_the_ladder_has_one() -> None:
    m1 = lv.Measured("one", 2, 6.0, 10, 0.6, 0.3, 0.8)
    m2 = lv.Measured("two", 2, 9.0, 10, 0.9, 0.6, 0.98)
    level = lv.Level("hard", "hint", (m1, m2))
    assert level.measured("two") is m2
    assert level.measured("unmeasured") is m1
    assert m2.sentence("medium") == (
        "beats medium in 90% of games (95% interval 60–98%; 10 2-player two games on the ladder)"
    )


def test_a_large_number_of_games_is_written_with_thousands_marked() -> None:
    m = lv.Measured("storey-1935", 2, 10_380.0, 20_000, 0.519, 0.512, 0.526)
    assert "; 20,000 2-player storey-1935 games on the ladder)" in m.sentence("hard")


@pytest.mark.parametrize("game", GAMES)
def test_the_lobby_gets_each_level_with_its_words_and_figures(game: str) -> None:
    offered = levels_for(game)
    assert [o["name"] for o in offered] == [level.name for level in lv.levels(game)]
    assert offered[0]["vs_below"] == []
    for below, o in itertools.pairwise(offered):
        assert o["words"] and o["vs_below"]
        assert all(f["text"].startswith(f"beats {below['name']} in ") for f in o["vs_below"])


def test_play_help_lists_each_games_levels_with_their_figures() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "play", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "levels (easy, medium, hard, expert, master in --bots)" in out
    for game in GAMES:
        assert f"  {game}:" in out
        below, top = lv.levels(game)[-2:]
        m = top.measured()
        assert m is not None
        line = f"{top.name} {top.bot}; beats {below.name} in {m.rate:.0%} of games"
        assert line in " ".join(out.split())


def test_play_seats_bots_by_level_and_names_them_so() -> None:
    out = subprocess.run(
        [*PLAY, "whot", "--players", "3", "--bots", "easy,medium", "--seed", "1"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    # each bot named after its level, numbered only when two share a name
    assert "easy bot" in out and "medium bot" in out
    assert "easy bot 2" not in out and "medium bot 3" not in out


def test_simulate_takes_levels_for_bots(capsys: pytest.CaptureFixture[str]) -> None:
    game = "whot"
    args = ["simulate", game, "--rules", "storey-1935", "--bots", "easy,medium", "-n", "2", "-q"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert lv.resolve("easy", game) in out and lv.resolve("medium", game) in out


def test_the_levels_and_their_figures_are_read_from_the_ladders_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    figure = {"rules": "r", "players": 3, "wins": 7.5, "games": 10, "rate": 0.75}
    data = {
        "games": {
            "whot": {
                "command": "benchmarks/ladder.py --games 10",
                "levels": [
                    {"name": "easy", "bot": "greedy", "vs_below": []},
                    {"name": "medium", "bot": "ismcts:iterations=7", "vs_below": [
                        {**figure, "low": 0.51, "high": 0.9}
                    ]},
                ],
            }
        }
    }  # fmt: skip
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(data))
    monkeypatch.setattr(lv, "LEVELS_FILE", path)
    lv._file.cache_clear()
    try:
        assert [(x.name, x.bot) for x in lv.levels("whot")] == [
            ("easy", "greedy"),
            ("medium", "ismcts:iterations=7"),
        ]
        assert lv.resolve("medium", "whot") == "ismcts:iterations=7"
        offered = levels_for("whot")
        assert offered[1]["vs_below"][0]["text"] == (
            "beats easy in 75% of games (95% interval 51–90%; 10 3-player r games on the ladder)"
        )
        with pytest.raises(RulesError, match="whot has the levels easy, medium"):
            lv.resolve("hard", "whot")
    finally:
        lv._file.cache_clear()


def test_a_name_that_is_neither_a_level_nor_a_bot_lists_both(
    capfd: pytest.CaptureFixture[str],
) -> None:
    have = ", ".join(level.name for level in lv.levels("whot"))
    assert main(["simulate", "whot", "--bots", "hrad", "-n", "2", "-q"]) != 0
    out, err = capfd.readouterr()
    err = " ".join((out + err).split())
    bots = "counter, greedy, hint"
    assert f"no bot 'hrad' for whot; the levels are: {have}; the bots are: {bots}" in err


def test_a_level_is_offered_at_the_tables_where_the_ladder_separated_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    def figure(rules: str, rate: float, low: float) -> dict[str, object]:
        return {"rules": rules, "players": 2, "wins": rate * 100, "games": 100, "deals": 50,
                "rate": rate, "low": low, "high": rate + 0.05}  # fmt: skip

    data = {
        "games": {
            "whot": {
                "command": "benchmarks/ladder.py --duplicate",
                "levels": [
                    {"name": "easy", "bot": "random", "vs_below": []},
                    {"name": "medium", "bot": "greedy", "vs_below": [
                        figure("nigerian", 0.62, 0.55), figure("storey-1935", 0.47, 0.42),
                    ]},
                ],
            }
        }
    }  # fmt: skip
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(data))
    monkeypatch.setattr(lv, "LEVELS_FILE", path)
    lv._file.cache_clear()
    try:
        assert lv.resolve("medium", "whot", "nigerian", 2) == "greedy"
        assert lv.resolve("medium", "whot", "english", 2) == "greedy", "not measured: offered"
        assert lv.resolve("medium", "whot") == "greedy", "no table given: offered"
        with pytest.raises(RulesError) as err:
            lv.resolve("medium", "whot", "storey-1935", 2)
        assert str(err.value).startswith(
            "whot has no medium level for storey-1935 at 2 players: there the ladder did not "
            "separate it from easy (greedy: beats easy in 47% of games (95% interval 42–52%; 50 "
            "2-player storey-1935 deals on the ladder, each played from every seat)); it is "
            "offered for nigerian at 2 players"
        )
        args = ["simulate", "whot", "--rules", "storey-1935", "--bots", "medium,easy", "-q"]
        assert main([*args, "-n", "2"]) != 0
        said = " ".join("".join(capfd.readouterr()).split())
        assert "whot has no medium level for storey-1935 at 2 players" in said
        assert main(["simulate", "whot", "--rules", "nigerian", "--bots", "medium,easy", "-n",
                     "2", "-q"]) == 0  # fmt: skip
    finally:
        lv._file.cache_clear()
