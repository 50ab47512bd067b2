"""Server hardening: no one client can lock the others out (findings 2, 4, 5, 7, 9).

Per-client limits on tables, joins and connections well below the server's totals; waiting tables
that expire; private tables; idle seats handed on; caps on tables of bots; abandoned tables pruned;
bounded request bodies, nesting and numbers.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from cluster_kit import wait_for
from server_testkit import Seat, client, join, move_texts, new_table
from starlette.websockets import WebSocketDisconnect

from parlour.server.storage import SeatRow, Store, TableRow
from parlour.server.worker import table_channel

WHOT2 = {"game": "whot", "players": 2}

# not run against a cluster (PARLOUR_SERVER_MODE=cluster), and why
per_gateway = pytest.mark.in_process(
    "a per-process limit (settings.py): each gateway of a cluster keeps its own count"
)
drives_the_worker = pytest.mark.in_process(
    "drives the table worker's sweep and idle timers directly (app.state.worker)"
)


def worker_of(c: Any) -> Any:
    """The table worker of the server under test (one process: a gateway and a worker)."""
    return c.app.state.worker


def run(c: Any, fn: Any, *args: Any) -> Any:
    """Call a coroutine function on the test client's event loop (where the hub lives)."""
    return c.portal.call(fn, *args)


# --- finding 2: one client cannot fill the server -------------------------------------------------
def test_one_client_may_hold_only_its_share_of_open_tables(sqlite_url: str) -> None:
    with client(sqlite_url, tables_per_client=3, max_tables=10) as c:
        for _ in range(3):
            new_table(c, **WHOT2, name="Ada")
        r = c.post("/api/tables", json={**WHOT2, "name": "Ada"})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
        # another address still gets a table: the server is not full
        other = c.post(
            "/api/tables", json={**WHOT2, "name": "Bob"}, headers={"x-forwarded-for": "10.0.0.9"}
        )
        assert other.status_code == 429, "X-Forwarded-For is trusted only when set so"
    with client(sqlite_url, tables_per_client=3, trust_forwarded=True) as c:
        other = c.post(
            "/api/tables", json={**WHOT2, "name": "Bob"}, headers={"x-forwarded-for": "10.0.0.9"}
        )
        assert other.status_code == 200


@per_gateway
def test_opening_tables_is_rate_limited_per_client(sqlite_url: str) -> None:
    with client(sqlite_url, tables_per_minute=5) as c:
        codes = [c.post("/api/tables", json={**WHOT2, "name": "A"}).status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}


def test_the_server_total_is_a_503_for_everyone(sqlite_url: str) -> None:
    with client(sqlite_url, max_tables=2) as c:
        new_table(c, **WHOT2, name="Ada")
        new_table(c, **WHOT2, name="Ada")
        r = c.post("/api/tables", json={**WHOT2, "name": "Ada"})
        assert r.status_code == 503 and r.json()["error"] == "busy"


@drives_the_worker
def test_a_waiting_table_nobody_joins_expires_and_stays_gone(sqlite_url: str) -> None:
    with client(sqlite_url, waiting_ttl=60) as c:
        t = new_table(c, **WHOT2, name="Ada")
        ada = Seat(c, t["code"], t["token"], 0)
        ada.until("welcome")
        assert run(c, worker_of(c).sweep, time.monotonic())["expired"] == 0
        done = run(c, worker_of(c).sweep, time.monotonic() + 61)
        assert done["expired"] == 1
        assert ada.until("closed")["message"].startswith("nobody joined")
        assert c.get(f"/api/tables/{t['code']}").status_code == 404
        assert c.post(f"/api/tables/{t['code']}/join", json={"name": "Bob"}).status_code == 404
    with client(sqlite_url) as c:  # and after a restart it does not come back
        assert c.get(f"/api/tables/{t['code']}").status_code == 404


# --- finding 4: seats ----------------------------------------------------------------------------
def test_private_tables_are_not_listed_and_only_waiting_tables_are(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        public = new_table(c, **WHOT2, name="Ada")
        private = new_table(c, **WHOT2, name="Ada", private=True)
        full = new_table(c, **WHOT2, name="Ada")
        join(c, full["code"], "Bob")  # it starts: no longer waiting for players
        listed = c.get("/api/tables").json()
        codes = {t["code"] for t in listed}
        assert public["code"] in codes and private["code"] not in codes
        assert full["code"] not in codes
        assert all("Ada" not in json.dumps(t) for t in listed), "no names in the listing"
        assert join(c, private["code"], "Bob")["seat"] == 1  # the link still works


def test_a_full_table_its_worker_has_not_dealt_yet_is_not_listed(db_url: str) -> None:
    # A table opened with every seat taken (a host and bots) is stored as waiting, and its worker
    # deals a moment later: a lobby read in between must not offer a table with no free seat.
    store = Store(db_url)
    try:
        for code, bot_seat in (
            ("FULL01", SeatRow(1, "hint bot", "hint", None)),
            ("OPEN01", SeatRow(1, None, None, None)),
        ):
            row = TableRow(
                code=code, created_at=time.time(), game="whot", players=2, preset="nigerian",
                rules={}, match_format="single", match_seed=1, move_clock=0.0, bot_delay=0.0,
                auto_next=False, status="waiting", host_hash="h",
                seats=[SeatRow(0, "Ada", None, "t"), bot_seat],
            )  # fmt: skip
            assert store.tables.create_table(row, "w1") is not None
        assert [t.code for t in store.tables.waiting_tables()] == ["OPEN01"]
    finally:
        store.close()


@per_gateway
def test_one_client_may_hold_only_so_many_seats(sqlite_url: str) -> None:
    with client(sqlite_url, seats_per_client=3) as c:
        tables = [new_table(c, game="whot", players=4, name="Ada") for _ in range(2)]
        # the host holds one seat at each: one more join is the limit
        join(c, tables[0]["code"], "Squat")
        r = c.post(f"/api/tables/{tables[1]['code']}/join", json={"name": "Squat"})
        assert r.status_code == 429 and r.json()["error"] == "too_many"


@drives_the_worker
def test_an_idle_seat_goes_to_a_bot_who_plays_on(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, **WHOT2, name="Ada", idle_timeout=30, on_idle="bot")
        join(c, t["code"], "Squat")
        watcher = Seat(c, t["code"], None, None)
        v = watcher.until("view")
        room = worker_of(c).tables[t["code"]]
        idle = v["to_play"]
        # the seat to play does not act: the idle timer fires (here: at once)
        run(c, _fire_idle, room, idle)
        table = watcher.until("table")["table"]
        assert table["seats"][idle]["bot"] == "hint" and "bot" in table["seats"][idle]["name"]
        watcher.until("view", ply=v["ply"] + 1)  # and the bot moved


@drives_the_worker
def test_an_idle_seat_can_be_freed_for_someone_else(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, **WHOT2, name="Ada", idle_timeout=30, on_idle="free")
        squat = join(c, t["code"], "Squat")
        s = Seat(c, t["code"], squat["token"], 1)
        v = s.until("view")
        room = worker_of(c).tables[t["code"]]
        run(c, _fire_idle, room, v["to_play"])
        while True:  # every connection hears of it (the table as it is now)
            msg = s.recv()
            if msg["type"] == "table" and not msg["table"]["seats"][v["to_play"]]["filled"]:
                break
        assert not c.get(f"/api/tables/{t['code']}").json()["seats"][v["to_play"]]["filled"]
        again = join(c, t["code"], "Cleo", v["to_play"])
        assert again["seat"] == v["to_play"]


@drives_the_worker
def test_people_who_joined_a_waiting_table_and_never_came_are_handed_on(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=3, name="Ada", idle_timeout=60)
        join(c, t["code"], "Ghost")
        room = worker_of(c).tables[t["code"]]
        run(c, worker_of(c).sweep, time.monotonic() + 61)
        seats = c.get(f"/api/tables/{t['code']}").json()["seats"]
        assert seats[0]["bot"] == "hint" and seats[1]["bot"] == "hint"  # neither connected
        assert room.table.status == "waiting"  # seat 2 is still free


async def _fire_idle(room: Any, seat: int) -> None:
    async with room.lock:
        await room.seat_idle(seat)


# --- finding 5: connections ----------------------------------------------------------------------
@per_gateway
def test_one_client_may_open_only_so_many_websockets(sqlite_url: str) -> None:
    with client(sqlite_url, websockets_per_client=2) as c:
        t = new_table(c, **WHOT2, name="Ada")
        a, b = Seat(c, t["code"], None, None), Seat(c, t["code"], None, None)
        a.until("welcome")
        b.until("welcome")
        third = Seat(c, t["code"], None, None)
        assert third.recv()["code"] == "too_many"
        with pytest.raises(WebSocketDisconnect) as info:
            third.recv()
        assert info.value.code == 4429


def test_a_silent_websocket_is_closed_with_a_reason(sqlite_url: str) -> None:
    with client(sqlite_url, websocket_idle=0.3) as c:
        t = new_table(c, **WHOT2, name="Ada")
        s = Seat(c, t["code"], None, None)
        s.until("welcome")
        assert s.until("error", code="idle")
        with pytest.raises(WebSocketDisconnect) as info:
            s.recv()
        assert info.value.code == 4408


# --- finding 7: tables of bots, and what is kept ---------------------------------------------
def test_tables_of_bots_are_capped_and_slowed(sqlite_url: str) -> None:
    bots = {"bots": {"0": "random", "1": "random"}}
    with client(sqlite_url, bot_table_min_delay=0.5, bot_tables_per_client=2) as c:
        r = c.post("/api/tables", json={**WHOT2, **bots, "bot_delay": 0})
        assert r.status_code == 400 and "bot_delay 0.5" in r.json()["message"]
        for _ in range(2):
            ok = c.post("/api/tables", json={**WHOT2, **bots, "bot_delay": 0.5})
            assert ok.status_code == 200, ok.text
        r = c.post("/api/tables", json={**WHOT2, **bots, "bot_delay": 0.5})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables"


def test_a_game_of_bots_alone_is_stopped_at_the_move_cap(sqlite_url: str) -> None:
    """Two bots may go round for ever where a player may always draw (Storey's sheet, seed 001:
    "May always draw instead of playing"), with no person there to call it a day: a game of bots
    alone that reaches `bots_only_move_cap` moves is stopped and its table closed."""
    with client(sqlite_url, bots_only_move_cap=12) as c:
        t = new_table(c, **WHOT2, bot_delay=0, match="single", bots={"0": "random", "1": "random"})
        # the bots start at once: a watcher hears why the table closed, or, come after it
        # closed, finds no open table
        said = Seat(c, t["code"], None, None).until_one_of("closed", "error")
        assert said.get("message") in (
            "the bots played 12 moves without an end to the game: the table is closed",
            f"no open table '{t['code']}'",
        )
        gone = c.get(f"/api/tables/{t['code']}")
        assert gone.status_code == 404 and gone.json()["error"] == "unknown_table"  # not open
        database = getattr(c, "database", sqlite_url)  # a cluster's own, or this one
    store = Store(database)  # read once the server is gone (SQLite's file has one server)
    try:
        row = store.tables.load_table(t["code"])
        assert row is not None and row.status == "closed"
        assert [len(g.moves) for g in row.games] == [12] and row.games[0].result is None
    finally:
        store.close()


@drives_the_worker
def test_a_connection_that_finds_its_table_closing_is_told_it_closed(sqlite_url: str) -> None:
    """A websocket finds its table open, and the table closes before the connection is attached
    (the "closed" word went round without it): it is told as it attaches, not left watching."""
    with client(sqlite_url) as c:
        t = new_table(c, **WHOT2, name="Ada")
        gateway = c.app.state.gateway
        rep = run(c, gateway.replica, t["code"])  # found open
        auth = {"Authorization": f"Bearer {t['token']}"}
        assert c.post(f"/api/tables/{t['code']}/close", headers=auth).status_code == 200
        # the word reaches the replica (no connection hears it yet)
        assert wait_for(lambda: rep.table.status == "closed", 10)
        said = run(c, _attach_and_read, gateway, rep)
        assert said[0]["type"] == "welcome"
        assert said[-1] == {"type": "closed", "message": "the host closed the table"}


@drives_the_worker
def test_a_gateway_that_missed_the_closing_word_reads_the_reason_stored_with_the_table(
    sqlite_url: str,
) -> None:
    """The bus may lose the owner's "closed" word; the gateway then finds the change by reading
    the table again, and tells its watchers the reason stored with it, not a host's words."""
    with client(sqlite_url) as c:
        t = new_table(c, **WHOT2, name="Ada")
        gateway = c.app.state.gateway
        rep = run(c, gateway.replica, t["code"])
        run(c, gateway.bus.unsubscribe, table_channel(t["code"]), gateway._on_table)  # lost
        worker = worker_of(c)
        # its owner loads it as the table is placed there (an `adopt`)
        assert wait_for(lambda: t["code"] in worker.tables and t["code"] not in worker._loading, 10)
        room = worker.tables[t["code"]]
        run(c, room.close, "a moderator closed the table", False)
        assert rep.table.status == "waiting"  # it heard nothing
        run(c, gateway.catch_up, rep)
        assert rep.table.status == "closed"
        said = run(c, _attach_and_read, gateway, rep)
        assert said[-1] == {"type": "closed", "message": "a moderator closed the table"}


async def _attach_and_read(gateway: Any, rep: Any) -> list[dict[str, Any]]:
    from parlour.server.connections import Conn

    conn = Conn(None, False)
    await gateway.attach(rep, conn)
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def test_the_move_cap_leaves_a_game_with_a_person_in_it_alone(sqlite_url: str) -> None:
    with client(sqlite_url, bots_only_move_cap=4) as c:
        t = new_table(c, **WHOT2, name="Ada", bot_delay=0, match="single", bots={"1": "random"})
        ada = Seat(c, t["code"], t["token"], t["seat"])
        while True:  # Ada plays her first legal move each turn, past the cap, to the end
            v = ada.until("view")
            if v["to_play"] is None:
                break
            if v["to_play"] == t["seat"]:
                ada.send({"type": "move", "move": move_texts(v)[0], "ply": v["ply"]})
        assert v["ply"] > 4 and v["result"] is not None
        assert c.get(f"/api/tables/{t['code']}").status_code == 200  # still open


@drives_the_worker
def test_abandoned_tables_are_deleted_and_finished_games_kept(sqlite_url: str) -> None:
    with client(sqlite_url, waiting_ttl=1) as c:
        lonely = new_table(c, **WHOT2, name="Ada")
        played = new_table(
            c, **WHOT2, bot_delay=0, match="single", bots={"0": "greedy", "1": "greedy"}
        )
        watcher = Seat(c, played["code"], None, None)
        while watcher.until("view").get("result") is None:
            pass
        worker = worker_of(c)
        run(c, worker.sweep, time.monotonic() + 2)  # the lonely table expires
        far = time.time() + 40 * 86400  # 40 days on: past the 30 days of retention
        pruned = worker.db.store.tables.prune(far - 30 * 86400)
        assert pruned == 1
        assert c.get(f"/api/tables/{played['code']}/records").json()["total"] == 1
        assert lonely["code"] not in json.dumps(c.get("/api/history").json())


# --- finding 9: smaller --------------------------------------------------------------------
def test_a_large_request_body_is_refused_before_it_is_read(sqlite_url: str) -> None:
    with client(sqlite_url, max_body=1024) as c:
        body = b"{" + b" " * 4096 + b"}"
        r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "too_large"


def test_deeply_nested_json_is_answered_not_dropped(sqlite_url: str) -> None:
    with client(sqlite_url, max_message=1_000_000) as c:
        t = new_table(c, **WHOT2, name="Ada")
        s = Seat(c, t["code"], t["token"], 0)
        s.until("welcome")
        # deep, yet within a real server's 64 KiB websocket frame
        s.ws.send_text("[" * 30_000 + "]" * 30_000)
        err = s.until("error")
        assert err["code"] == "malformed" and "nested" in err["message"]
        s.send({"type": "ping"})
        assert s.until("pong")


def test_numbers_beyond_any_row_are_a_422_not_a_500(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert c.get("/api/history", params={"offset": 2**64}).status_code == 422
        assert c.get(f"/api/history/{2**64}/record").status_code == 422
        assert c.get("/api/history", params={"limit": 10**30}).status_code == 422


def test_a_long_matchs_records_come_a_page_at_a_time(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(
            c, **WHOT2, match="rounds-3", auto_next=True, bot_delay=0,
            bots={"0": "greedy", "1": "greedy"},
        )  # fmt: skip
        watcher = Seat(c, t["code"], None, None)
        while c.get(f"/api/tables/{t['code']}/records").json()["total"] < 3:
            watcher.recv()
        page = c.get(f"/api/tables/{t['code']}/records", params={"limit": 2}).json()
        assert page["total"] == 3 and len(page["games"]) == 2
        rest = c.get(page["next"]).json()
        assert len(rest["games"]) == 1 and "next" not in rest


@pytest.mark.in_process("counts the store's reads by monkeypatching it inside the server")
def test_a_restart_does_not_replay_a_long_matchs_finished_games(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finished games come back from their stored results; only the last game is played again,
    so a restart takes no longer for a match of many games."""
    with client(sqlite_url) as c:
        t = new_table(
            c, **WHOT2, match="rounds-20", auto_next=True, bot_delay=0.01,
            bots={"0": "greedy", "1": "greedy"},
        )  # fmt: skip
        watcher = Seat(c, t["code"], None, None)
        while c.get(f"/api/tables/{t['code']}/records").json()["total"] < 3:
            watcher.recv()
        before = c.get(f"/api/tables/{t['code']}").json()["scoreboard"]
        assert not before["over"]
    from parlour.server.storage import tables as table_rows

    loaded: list[int] = []
    real = table_rows.read_moves

    def counted(conn: Any, game_id: int) -> list[str]:
        loaded.append(game_id)
        return real(conn, game_id)

    monkeypatch.setattr(table_rows, "read_moves", counted)
    with client(sqlite_url) as c:
        after = c.get(f"/api/tables/{t['code']}").json()["scoreboard"]
        played = [r["games"][:3] for r in before["rows"]]
        assert [r["games"][:3] for r in after["rows"]] == played
        # the worker and the gateway each read the last game's moves (and those of a game whose
        # result the shutdown cut off, if any), never the scored games'
        games = c.get(f"/api/tables/{t['code']}/records").json()["total"]
        assert games >= 3 and len(set(loaded)) <= 2, "the finished games' moves were read again"
