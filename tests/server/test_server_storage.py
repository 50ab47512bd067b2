"""Storage against SQLite and a real PostgreSQL: tables, moves, finished games, history, and a
server restarted on the same database resuming every table where it was."""

from __future__ import annotations

import json
import time
from typing import Any

from server_testkit import Seat, client, greedy_chooser, join, new_table

import parlour
from parlour.server.store import Store


def wait_for(pred: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_migrations_run_twice(db_url: str) -> None:
    Store(db_url).close()
    store = Store(db_url)  # already at head: nothing to do
    assert store.load_tables() == []
    store.close()


def test_bot_match_is_stored_and_downloadable(db_url: str) -> None:
    with client(db_url) as c:
        t = new_table(
            c, game="whot", preset="nigerian", match="rounds-2", auto_next=True,
            bots={"0": "greedy", "1": "random", "2": "greedy", "3": "random"},
        )  # fmt: skip
        code = t["code"]
        wait_for(lambda: c.get(f"/api/tables/{code}").json()["status"] == "finished")
        table = c.get(f"/api/tables/{code}").json()
        assert table["scoreboard"]["games_played"] == 2 and table["scoreboard"]["over"]
        hist = c.get("/api/history", params={"table": code}).json()
        assert hist["total"] == 2
        for item in hist["games"]:
            r = c.get(f"/api/history/{item['id']}/record")
            assert r.status_code == 200
            assert "attachment" in r.headers["content-disposition"]
            record = r.json()
            state = parlour.replay(record)
            assert state.is_over
            assert state.result().to_dict()["winners"] == item["result"]["winners"]
        both = c.get(f"/api/tables/{code}/records").json()
        assert [g["seed"] for g in both["games"]] == sorted(
            (g["seed"] for g in both["games"]), key=[g["seed"] for g in both["games"]].index
        )
        assert len(both["games"]) == 2


def test_restart_resumes_tables_mid_game(db_url: str) -> None:
    with client(db_url) as c:
        t = new_table(
            c,
            game="whot",
            preset="storey-1935",
            players=3,
            match="single",
            name="Ada",
            bots={"1": "greedy"},
        )
        code, token = t["code"], t["token"]
        bob = join(c, code, "Bob")
        ada = Seat(c, code, token, 0)
        b = Seat(c, code, bob["token"], 2)
        g = parlour.make("whot", players=3, rules="storey-1935")
        choose = greedy_chooser(g)
        # play a few moves by hand
        for _ in range(6):
            v = ada.until("view")
            while v["to_play"] not in (0, 2) and v["to_play"] is not None:
                v = ada.until("view")
            if v["to_play"] is None:
                break
            mover = ada if v["to_play"] == 0 else b
            while mover.last is None or mover.last["ply"] != v["ply"]:
                mover.until("view")
            mover.send({"type": "move", "move": choose(mover), "ply": v["ply"]})
        before = c.get(f"/api/tables/{code}/view").json()
    # a new server on the same database
    with client(db_url) as c:
        after = c.get(f"/api/tables/{code}/view").json()
        assert after["ply"] >= before["ply"]
        assert after["game_number"] == before["game_number"]
        if after["ply"] == before["ply"]:
            assert after["view"] == before["view"]
        ada = Seat(c, code, token, 0)
        b = Seat(c, code, bob["token"], 2)
        seats = {0: ada, 2: b}
        # the bot seat moves on the server; the two people play the game to its end
        final = _finish(seats, choose)
        assert final["result"]
        hist = c.get("/api/history", params={"table": code}).json()
        assert hist["total"] == 1
        record = c.get(f"/api/history/{hist['games'][0]['id']}/record").json()
        assert json.loads(json.dumps(record))["moves"][: before["ply"]]


def _finish(seats: dict[int, Seat], choose: Any) -> dict[str, Any]:
    first = next(iter(seats.values()))
    while True:
        v = first.until("view")
        if v["to_play"] is None:
            return v
        if v["to_play"] in seats:
            mover = seats[v["to_play"]]
            while mover.last is None or mover.last["ply"] != v["ply"]:
                mover.until("view")
            mover.send({"type": "move", "move": choose(mover), "ply": v["ply"]})
