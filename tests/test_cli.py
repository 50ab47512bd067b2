"""The `parlour` command as a person uses it: list, read the rules, play a whole match, replay."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import parlour

PARLOUR = [sys.executable, "-m", "parlour.cli"]


def run(*args: str, stdin: str = "", timeout: float = 600) -> subprocess.CompletedProcess[str]:
    # the bound catches a command that hangs, not a slow one: a whole game in the terminal took
    # over 120 s on a loaded 2-core machine (the test's own limit is pytest's, 900 s)
    return subprocess.run(
        [*PARLOUR, *args], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def test_games_lists_every_game() -> None:
    out = run("games").stdout
    for name in parlour.core.games():
        assert name in out


def test_rules_shows_options_with_sources() -> None:
    out = run("rules", "whot", "--rules", "english").stdout
    assert "whot_powers" in out and "reverse, skip" in out
    assert "seed 002" in out


def test_bad_option_is_a_clear_error_not_a_traceback() -> None:
    res = run("play", "whot", "--set", "deal=lots")
    assert res.returncode == 2
    assert "deal takes a whole number" in res.stdout
    assert "Traceback" not in res.stdout + res.stderr


def test_play_a_whole_storey_rubber_to_its_scoreboard(tmp_path: Path) -> None:
    # Always answer "1" (the first legal move): the match must run to its final scoreboard.
    record = tmp_path / "match.json"
    res = run(
        "play",
        "whot",
        "--rules",
        "storey-1935",
        "--players",
        "3",
        "--seed",
        "2",
        "--bots",
        "greedy,random",
        "--record",
        str(record),
        "--quiet",
        stdin="1\n" * 20000,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    out = res.stdout
    assert "Your hand:" in out and "Legal moves:" in out
    assert "Match result (rubber-5)" in out and "Match winner:" in out and "kitty" in out
    saved = json.loads(record.read_text())
    assert len(saved["games"]) == 5
    # each saved game replays to its recorded result
    for rec in saved["games"]:
        assert parlour.replay(rec).is_over
    rep = run("replay", str(record))
    assert rep.returncode == 0 and rep.stdout.count("Winner:") == 5


def test_play_accepts_notation_and_explains_mistakes() -> None:
    res = run(
        "play",
        "whot",
        "--players",
        "2",
        "--seed",
        "1",
        "--match",
        "single",
        stdin="play 6 circle\n99\nhelp\nhint\nquit\n",
    )
    assert res.returncode == 0
    out = res.stdout
    assert "there is no 6 circle in the Whot! pack" in out
    assert "There is no move 99" in out
    assert "hint (medium bot):" in out and "You left the table." in out


def test_end_of_input_leaves_cleanly() -> None:
    res = run("play", "whot", "--players", "2", "--seed", "1", stdin="")
    assert res.returncode == 0 and "Traceback" not in res.stderr


@pytest.mark.parametrize("game", sorted(parlour.core.games()))
def test_every_game_plays_a_match_in_the_terminal(game: str) -> None:
    res = run(
        "play",
        game,
        "--seed",
        "3",
        "--bots",
        "random",
        "--quiet",
        "--match",
        "single",
        stdin="1\n" * 20000,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "Match winner:" in res.stdout


@pytest.mark.parametrize("game", ["whot", "sorry", "whoswho-tricks", "whoswho-books"])
def test_the_terminal_speaks_to_you_in_good_grammar(game: str) -> None:
    # the person at the terminal is "You": "You play", "You have", "Your pawn", "1 card"
    args = ("play", game, "--players", "3", "--seed", "3", "--match", "single")
    out = run(*args, stdin="1\n" * 3000).stdout
    assert "You " in out
    bad = re.findall(r"\bYou (?:plays|has|goes|is|was|calls|says|draws|wins|lays|names)\b", out)
    bad += re.findall(r"\b1 cards\b|\bYou's\b|\bYou say [^\n]* and keeps\b", out)
    assert not bad, bad[:5]


def test_replay_names_the_players(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    res = run(
        "play", "whot", "--players", "2", "--seed", "5", "--bots", "greedy", "--name", "Ada",
        "--match", "single", "--record", str(record), "--quiet", stdin="1\n" * 3000,
    )  # fmt: skip
    assert res.returncode == 0, res.stdout[-500:]
    # the greedy bot is named as the lobby names it: after its level
    assert json.loads(record.read_text())["games"][0]["names"] == ["Ada", "hard bot"]
    rep = run("replay", str(record), "--moves")
    assert "Ada" in rep.stdout and "hard bot" in rep.stdout
    assert not re.search(r"\bP[12]\b", rep.stdout)


def test_serve_refuses_a_port_out_of_range() -> None:
    res = run("serve", "--port", "99999")
    assert res.returncode == 2
    assert "ports go from 1 to 65535" in res.stderr
