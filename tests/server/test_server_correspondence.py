"""Correspondence play: a move clock of hours to days, the table kept however long the game takes,
the clock's timeout (the forced move, or a bot in the seat) tested with an injected clock, and the
"your turn" list of the tokens a browser holds."""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_testkit import Seat, client, join, move_texts, new_table

DAY = 86400.0
WHOT2 = {"game": "whot", "players": 2, "preset": "nigerian"}

drives_the_worker = pytest.mark.in_process(
    "drives the table worker's sweep with an injected clock (app.state.worker)"
)


def worker_of(c: Any) -> Any:
    return c.app.state.worker


def run(c: Any, fn: Any, *args: Any) -> Any:
    return c.portal.call(fn, *args)


def my_turns(c: Any, *tokens: str) -> list[dict[str, Any]]:
    r = c.get("/api/my-turns", headers={"X-Seat-Tokens": ",".join(tokens)})
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()
    return out


def ada_to_play(c: Any, on_timeout: str) -> tuple[dict[str, Any], Seat, dict[str, Any]]:
    t = new_table(
        c, **WHOT2, name="Ada", bots={1: "hint"}, correspondence=True, move_clock=DAY,
        on_timeout=on_timeout,
    )  # fmt: skip
    ada = Seat(c, t["code"], t["token"], 0)
    view = ada.until("view")
    while not move_texts(view):
        view = ada.until("view")
    return t, ada, view


@drives_the_worker
def test_a_move_out_of_time_is_played_for_the_person(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t, ada, view = ada_to_play(c, "move")
        info = c.get(f"/api/tables/{t['code']}").json()
        assert info["correspondence"] and info["move_clock"] == DAY and info["idle_timeout"] == 0
        assert my_turns(c, t["token"])[0] | {"deadline": None} == {
            "code": t["code"], "link": f"/t/{t['code']}", "game": "whot", "title": "Whot!",
            "seat": 0, "status": "playing", "your_turn": True, "deadline": None,
            "correspondence": True,
        }  # fmt: skip
        deadline = my_turns(c, t["token"])[0]["deadline"]
        assert DAY - 60 < deadline - time.time() <= DAY
        # 23 hours later: nothing happens; a day and a second later: the forced move
        worker = worker_of(c)
        assert run(c, worker.sweep, time.monotonic(), time.time() + 23 * 3600)["timeouts"] == 0
        assert run(c, worker.sweep, time.monotonic(), time.time() + DAY + 1)["timeouts"] == 1
        told = ada.until("clock")
        assert told["seat"] == 0 and told["ply"] == view["ply"]
        assert c.get(f"/api/tables/{t['code']}").json()["seats"][0]["name"] == "Ada"


@drives_the_worker
def test_a_bot_takes_the_seat_of_a_person_out_of_time(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t, ada, _ = ada_to_play(c, "bot")
        worker = worker_of(c)
        assert run(c, worker.sweep, time.monotonic(), time.time() + DAY + 1)["timeouts"] == 1
        seat = c.get(f"/api/tables/{t['code']}").json()["seats"][0]
        # the hint bot plays on, named as people know it: after its level (issue 31, item 11)
        assert seat["bot"] == "hint" and seat["name"] == "medium bot (for Ada)"
        for _ in range(10_000):  # two bots now: the game plays on to its end
            msg = ada.recv()
            if msg.get("type") == "view" and msg["view"].get("is_over"):
                break
        else:
            raise AssertionError("the game did not go on")
        assert move_texts(msg) == [], "Ada watches now"
        assert my_turns(c, t["token"]) == [], "the token no longer holds a seat there"


@drives_the_worker
def test_a_correspondence_table_is_never_expired_nor_deleted(sqlite_url: str) -> None:
    with client(sqlite_url, waiting_ttl=60, retention_days=1) as c:
        t = new_table(c, **WHOT2, name="Ada", correspondence=True)  # waiting for a friend
        plain = new_table(c, **WHOT2, name="Ada")
        end = time.monotonic() + 30  # the worker loads new tables as the gateway tells it
        while not {t["code"], plain["code"]} <= set(worker_of(c).tables):
            assert time.monotonic() < end
            time.sleep(0.02)
        month = 31 * DAY
        done = run(c, worker_of(c).sweep, time.monotonic() + month, time.time() + month)
        assert done["expired"] == 1  # the ordinary table
        assert c.get(f"/api/tables/{plain['code']}").status_code == 404
        store = c.app.state.db.store
        assert run(c, c.app.state.db.call, store.tables.prune, time.time() + month) >= 1
        assert c.get(f"/api/tables/{t['code']}").json()["status"] == "waiting"
        join(c, t["code"], "Bob")
        assert c.get(f"/api/tables/{t['code']}").json()["move_clock"] == DAY


def test_the_bounds_of_correspondence_tables(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        for body in (
            {"correspondence": True, "move_clock": 600},
            {"correspondence": True, "move_clock": 8 * DAY},
            {"on_timeout": "bot"},
            {"correspondence": True, "on_timeout": "later"},
        ):
            r = c.post("/api/tables", json={**WHOT2, "name": "Ada", **body})
            assert r.status_code in (400, 422), (body, r.text)
        hours = new_table(c, **WHOT2, name="Ada", correspondence=True, move_clock=3 * 3600)
        assert c.get(f"/api/tables/{hours['code']}").json()["move_clock"] == 3 * 3600
        too_many = c.get("/api/my-turns", headers={"X-Seat-Tokens": ",".join(["x"] * 51)})
        assert too_many.status_code == 400
        assert my_turns(c, "not-a-token") == []
        assert my_turns(c) == []
        assert "/api/my-turns" in c.get("/openapi.json").json()["paths"]
