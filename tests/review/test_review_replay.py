"""`parlour replay --step`: every step is the record's position; game files and their names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from review_testkit import GAMES, IDS, head, played
from rich.console import Console

import parlour
from parlour.core import ParlourError
from parlour.review.files import choose_game, load_games, read_games
from parlour.review.step import Stepper, private_parts, step_through

PARLOUR = [sys.executable, "-m", "parlour.cli"]


def _console() -> Console:
    return Console(record=True, width=140, highlight=False, color_system=None)


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_every_step_is_the_records_position(name: str, players: int, rules: str) -> None:
    record = played(name, players, rules)
    steps = Stepper(record)
    assert len(steps) == len(record.moves)
    for i in range(len(steps) + 1):
        assert steps.state(i) == parlour.replay(record, upto=i)


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_stepping_forward_back_and_jumping(name: str, players: int, rules: str) -> None:
    record = played(name, players, rules)
    names = [f"Name{i}" for i in range(players)]
    keys = iter(["", "", "b", "7", "x", "e", "", "0", "b", "q"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(keys)

    out = _console()
    assert step_through(record, names, out, seat=1, read=read) == 0
    n = len(record.moves)
    shown = [int(p.split()[1].split("/")[0]) for p in prompts]
    # Enter, Enter, back, jump to 7, a bad key (stays), end, Enter at the end (stays), 0, back
    assert shown == [0, 1, 2, 1, 7, 7, n, n, 0, 0]
    text = out.export_text()
    assert f"move 7 of {n}" in text and "Not a step" in text and "That was the last move" in text
    assert "This is the start of the game" in text
    mover = parlour.replay(record, upto=6).to_play
    assert mover is not None
    assert f"{names[mover]}: {record.moves[6]}" in text
    assert "Winner:" in text


def test_the_seats_view_is_drawn_and_an_open_replay_lists_every_hand() -> None:
    record = played("whot", 2, "nigerian")
    names = ["Ada", "Bob"]
    seat_view = _console()
    step_through(record, names, seat_view, seat=0, read=lambda _: "q")
    assert "Ada (you)" in seat_view.export_text()
    opened = _console()
    step_through(record, names, opened, open_hands=True, read=lambda _: "q")
    text = opened.export_text()
    start = parlour.replay(record, upto=0)
    for p, name in enumerate(names):
        hand = private_parts(start, p)["hand"]
        assert f"{name} — hand: {', '.join(hand)}" in text
    with pytest.raises(ParlourError, match="finished game only"):
        step_through(head(record, 10), names, _console(), open_hands=True, read=lambda _: "q")


def test_files_give_each_game_its_names(tmp_path: Path) -> None:
    rec = played("whot", 2, "nigerian").to_dict()
    single = read_games(dict(rec, names=["Ada", "Bob"]))
    assert [g.names for g in single] == [["Ada", "Bob"]]
    assert read_games(rec)[0].names == ["P1", "P2"]
    # a match of three whose second game had only seats 0 and 2 (seat 1 was out)
    match = {
        "format": "parlour-match/1",
        "names": ["Ada", "Bob", "Cy"],
        "scoreboard": {
            "rows": [
                {"seat": 0, "games": [3, 0]},
                {"seat": 1, "games": [0, None]},
                {"seat": 2, "games": [5, 7]},
            ]
        },
        "games": [dict(rec, players=3), rec],
    }
    games = read_games(match)
    assert games[1].names == ["Ada", "Cy"]
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"games": [rec, rec]}))
    assert len(load_games(path)) == 2
    assert choose_game(load_games(path), 2)[0] == 2
    with pytest.raises(ParlourError, match="--game must be 1 to 2"):
        choose_game(load_games(path), 3)
    with pytest.raises(ParlourError, match="no file"):
        load_games(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ParlourError, match="not JSON"):
        load_games(tmp_path / "bad.json")


def test_replay_step_at_the_command_line(tmp_path: Path) -> None:
    record = played("whoswho-tricks", 4, "standard")
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(dict(record.to_dict(), names=["Ada", "Bob", "Cy", "Di"])))
    res = subprocess.run(
        [*PARLOUR, "replay", str(path), "--step", "--seat", "2"],
        input="\n\nb\n12\nq\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert f"move 12 of {len(record.moves)}" in res.stdout and "Bob (you)" in res.stdout
    assert "Traceback" not in res.stdout + res.stderr
    both = subprocess.run(
        [*PARLOUR, "replay", str(path), "--step", "--seat", "2", "--open"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert both.returncode == 2 and "not both" in both.stdout
    # without --step: the final table from the seat's view, names and all
    final = subprocess.run(
        [*PARLOUR, "replay", str(path), "--seat", "3"], capture_output=True, text=True, timeout=120
    )
    assert final.returncode == 0 and "Cy (you)" in final.stdout and "Winner:" in final.stdout
