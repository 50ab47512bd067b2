"""Playing at a table: reconnecting to the same seat, the move clock, matches with a scoreboard
and the host's next game, and records that `parlour replay` loads."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Seat, client, join, move_texts, new_table

from parlour.cli import main as parlour_main
from parlour.core import Move


def test_dropped_connection_reconnects_to_the_same_seat(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada")
        bob = join(c, t["code"], "Bob")
        ada = Seat(c, t["code"], t["token"], 0)
        first = ada.until("view")
        ada.close()
        again = Seat(c, t["code"], t["token"], 0)
        welcome = again.until("welcome")
        assert welcome["seat"] == 0 and welcome["host"] is True
        v = again.until("view")
        assert v["seat"] == 0 and v["view"]["hand"] == first["view"]["hand"]
        assert v["events_from"] == 0 and v["events"]  # the whole log again after a reconnect
        b = Seat(c, t["code"], bob["token"], 1)
        assert b.until("welcome")["seat"] == 1


def test_move_clock_plays_the_forced_move(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada", move_clock=1.0)
        # Ada sits down before the game starts, so the clock's first reading reaches her at
        # once rather than after her own connection time (which a loaded machine can stretch
        # past the whole clock)
        ada = Seat(c, t["code"], t["token"], 0)
        ada.until("welcome")
        join(c, t["code"], "Bob")
        v = ada.until("view")
        assert 0 < v["clock"]["remaining"] <= 1.0
        # the forced move is stored and played first (as every move), then the clock is told
        after = ada.until("view", ply=v["ply"] + 1)
        clock = ada.until("clock")
        assert clock["move"] == "draw" and clock["ply"] == v["ply"]  # Whot!: the forced move
        assert after["events"][0]["kind"] == "draw"


def test_match_scoreboard_and_host_starts_next_game(sqlite_url: str, tmp_path: Path) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="rounds-2", name="Ada", bots={"1": "greedy"})
        ada = Seat(c, t["code"], t["token"], 0)
        for number in (0, 1):
            while True:
                v = ada.until("view")
                if v["game_number"] == number and v["to_play"] is None:
                    break
                if move_texts(v):
                    ada.send({"type": "move", "move": move_texts(v)[0], "ply": v["ply"]})
            assert v["scoreboard"]["games_played"] == number + 1
            if number == 0:
                ada.send({"type": "next"})
        assert v["scoreboard"]["over"]
        ada.send({"type": "next"})
        assert ada.until("error")["code"] == "match_over"
        records = c.get(f"/api/tables/{t['code']}/records").json()
        assert len(records["games"]) == 2
        path = tmp_path / "match.json"
        path.write_text(c.get(f"/api/tables/{t['code']}/records").text)
        assert parlour_main(["replay", str(path)]) == 0
        one = c.get("/api/history").json()["games"][0]
        single = tmp_path / "one.json"
        single.write_text(c.get(f"/api/history/{one['id']}/record").text)
        assert parlour_main(["replay", str(single)]) == 0


def test_bots_pause_before_moving(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(
            c, game="sorry", players=2, match="single", name="Ada", bots={"1": "random"},
            bot_delay=0.2,
        )  # fmt: skip
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        while v["to_play"] != 1:
            ada.send({"type": "move", "move": move_texts(v)[0], "ply": v["ply"]})
            v = ada.until("view", ply=v["ply"] + 1)
        start = time.monotonic()
        ada.until("view", ply=v["ply"] + 1)
        assert time.monotonic() - start >= 0.15


def test_games_list_and_openapi(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        assert {"whot", "sorry"} <= set(games)
        assert "greedy" in games["whot"]["bots"]
        paths = c.get("/openapi.json").json()["paths"]
        assert "/api/tables" in paths and "/api/history/{game_id}/record" in paths
        assert c.get("/docs").status_code == 200
        assert c.get("/t/ABCDEF").status_code == 200
        bad = c.post("/api/tables", json={"game": "chess"})
        assert bad.status_code == 400 and "whot" in bad.json()["message"]
        bad = c.post("/api/tables", json={"game": "whot", "options": {"deal": "lots"}})
        assert bad.status_code == 400


@pytest.mark.in_process("registers a slow bot by monkeypatching the registry inside the server")
def test_a_thinking_bot_does_not_hold_the_table(sqlite_url: str, monkeypatch: Any) -> None:
    """A bot searches with the room's lock released: a `view` request is answered while it
    thinks, at the ply it is thinking about (held under the lock, the answer would come only
    after its move)."""
    from parlour.bots import base

    thinking, go = threading.Event(), threading.Event()

    class Sleepy(base.Bot):
        name = "sleepy"

        def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
            thinking.set()
            go.wait(10)
            return legal[0]

    monkeypatch.setitem(base._GENERIC, "sleepy", Sleepy)
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, name="Ada", bots={"1": "sleepy"}, bot_delay=0)
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        while v["to_play"] != 1:
            ada.send({"type": "move", "move": move_texts(v)[-1], "ply": v["ply"]})
            v = ada.until("view", ply=v["ply"] + 1)
        assert thinking.wait(5), "the bot never started thinking"
        ada.send({"type": "view"})
        during = ada.until("view")
        assert during["ply"] == v["ply"] and not go.is_set()
        go.set()
        ada.until("view", ply=v["ply"] + 1)  # and then it plays
