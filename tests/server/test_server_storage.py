"""Storage against SQLite and a real PostgreSQL: tables, moves, finished games, history, and a
server restarted on the same database resuming every table where it was."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cluster_kit import PostgresServer
from server_testkit import Seat, client, greedy_chooser, join, new_table

import parlour
from parlour.server.messages import Adopt
from parlour.server.storage import Store, StoreError, database_url


def wait_for(pred: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_migrations_run_twice(empty_db_url: str) -> None:
    Store(empty_db_url).close()
    store = Store(empty_db_url)  # already at head: nothing to do
    assert store.tables.load_tables() == []
    store.close()


def test_the_head_read_from_the_file_names_is_alembics_own() -> None:
    """A start skips Alembic where the database is at the newest migration, named by the files
    (`0014_closed_why.py`): that must be the revision Alembic would upgrade to."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from parlour.server.storage import MIGRATIONS
    from parlour.server.storage.engine import head_revision

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_heads() == [head_revision()]


def test_a_database_one_migration_behind_is_brought_to_the_head(db_url: str) -> None:
    from sqlalchemy import inspect, text

    from parlour.server.storage.engine import head_revision

    store = Store(db_url)
    with store.engine.begin() as conn:  # as the database was before 0014_closed_why
        conn.execute(text("UPDATE alembic_version SET version_num = '0013'"))
    with store.engine.begin() as conn:
        conn.execute(text("ALTER TABLE parlour_tables DROP COLUMN closed_why"))
    store.close()
    store = Store(db_url)
    try:
        columns = {c["name"] for c in inspect(store.engine).get_columns("parlour_tables")}
        assert "closed_why" in columns
        with store.engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == head_revision()
    finally:
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


def test_processes_starting_together_on_a_new_database_all_start(pg_cluster: Any) -> None:
    """The processes of a cluster start at once on a new PostgreSQL database: one migrates it
    and makes its secret, the others wait for that and use the same."""
    url = pg_cluster.new_database()
    barrier = threading.Barrier(4)
    secrets: list[bytes] = []
    failures: list[BaseException] = []

    def start() -> None:
        barrier.wait()
        try:
            store = Store(url)
            secrets.append(store.secret("seeds"))
            store.close()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures[0]
    assert len(secrets) == 4 and len(set(secrets)) == 1


def test_a_table_is_read_as_it_was_at_one_moment_while_its_owner_writes(pg_cluster: Any) -> None:
    """A gateway reads a table again while its owner writes: the change number and the seats,
    games and moves it reads are all of one moment (otherwise a replica holds a number that does
    not go with its game, and the next update is applied to the wrong game)."""
    from sqlalchemy import event

    from parlour.bots import BotLimits
    from parlour.server.tables import hash_token, plan_table

    url = pg_cluster.new_database()
    reader, owner = Store(url), Store(url)
    row, _, _ = plan_table(
        "SNAPSH", "whot", players=2, host_name="Ada", bot_delay=0.0, bot_limits=BotLimits()
    )
    fence = owner.tables.create_table(row, "worker-1")
    assert fence is not None
    wrote: list[int] = []

    def write_between(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        # the owner takes a seat after the table's row was read, before its seats are
        if "parlour_seats" in statement and not wrote:
            wrote.append(owner.tables.fill_seat(fence, 1, "Bob", hash_token("bob")).seq)

    event.listen(reader.engine, "before_cursor_execute", write_between)
    read = reader.tables.load_table("SNAPSH")
    event.remove(reader.engine, "before_cursor_execute", write_between)
    assert read is not None and wrote == [fence.seq + 1]
    assert read.seq == fence.seq and read.seats[1].name is None, "seats of a later moment"
    again = reader.tables.load_table("SNAPSH")
    assert again is not None and again.seq == fence.seq + 1 and again.seats[1].name == "Bob"
    reader.close()
    owner.close()


def test_a_plain_file_path_is_a_sqlite_database_and_a_bad_url_is_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `parlour serve --database var/x.sqlite3` as well as sqlite:///var/x.sqlite3: a path gave a
    # traceback from the URL parser before
    assert database_url("/srv/p.sqlite3") == "sqlite:////srv/p.sqlite3"  # absolute stays so
    assert database_url("var/p.sqlite3") == "sqlite:///var/p.sqlite3"
    monkeypatch.chdir(tmp_path)
    store = Store("here/p.sqlite3")
    try:
        assert (tmp_path / "here" / "p.sqlite3").exists()
    finally:
        store.close()
    with pytest.raises(StoreError, match="is not a database: give a SQLite file's path"):
        Store("postgresql://:not-a-port")


@pytest.mark.in_process("stops a PostgreSQL server of its own under a server in the test process")
def test_with_postgresql_down_a_request_is_refused_as_storage_not_a_500(
    pg_cluster: Any, caplog: pytest.LogCaptureFixture
) -> None:
    pg = PostgresServer()  # its own (pg_cluster: PostgreSQL is there, or CI fails loudly)
    pg.start()
    try:
        with client(pg.new_database()) as c:
            body = {"game": "whot", "players": 2, "name": "Ada"}
            assert c.post("/api/tables", json=body).status_code == 200
            pg.halt()
            caplog.clear()
            for r in (c.post("/api/tables", json=body), c.get("/api/tables")):
                assert r.status_code == 503, r.text
                assert r.json()["error"] == "storage" and "try again" in r.json()["message"]
            # a prompt to adopt a table, as a new table's gateway sends its worker (the one of
            # the table just opened may come now, racing the outage): one line too
            c.portal.call(c.app.state.worker._serve, Adopt("ADOPTME"))
            answered = [x for x in caplog.records if x.name == "parlour.server"]
            assert not any(x.exc_info for x in answered)  # one line each, no traceback
            assert any("failed for the database" in x.getMessage() for x in answered)
            pg.resume()
            deadline = time.monotonic() + 30
            while c.post("/api/tables", json=body).status_code != 200:
                assert time.monotonic() < deadline, "the server did not come back with PostgreSQL"
                time.sleep(0.2)
    finally:
        pg.stop()


@pytest.mark.in_process("stops a PostgreSQL server of its own under a server in the test process")
def test_with_postgresql_down_each_loop_logs_one_traceback_not_one_a_round(
    pg_cluster: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The heartbeat, adopting rounds, replicas' checks, quick match and the review's jobs each
    fail every second or so while PostgreSQL is down: each says so once, with its traceback, and
    once more when it works again — not a traceback a round."""
    pg = PostgresServer()
    pg.start()
    try:
        with client(pg.new_database(), quick_tick=0.2) as c:
            body = {"game": "whot", "players": 2, "name": "Ada"}
            assert c.post("/api/tables", json=body).status_code == 200
            worker = c.app.state.worker
            pg.halt()
            caplog.clear()
            assert c.post("/api/tables", json=body).status_code == 503
            # three heartbeats missed: every loop has failed several rounds by then
            deadline = time.monotonic() + 60
            while worker.last_beat is None or time.monotonic() - worker.last_beat < 3.5:
                assert time.monotonic() < deadline, "the heartbeat did not fail"
                time.sleep(0.1)
            tracebacks = Counter(r.getMessage() for r in caplog.records if r.exc_info)
            assert tracebacks, "no loop said it failed"
            assert all(n == 1 for n in tracebacks.values()), tracebacks
            assert any("_beat failed" in m for m in tracebacks), tracebacks
            pg.resume()
            deadline = time.monotonic() + 30
            while c.post("/api/tables", json=body).status_code != 200:
                assert time.monotonic() < deadline, "the server did not come back with PostgreSQL"
                time.sleep(0.2)
            while not any("_beat works again" in r.getMessage() for r in caplog.records):
                assert time.monotonic() < deadline, "the heartbeat did not say it works again"
                time.sleep(0.1)
    finally:
        pg.stop()


@pytest.mark.in_process("writes through the store of the server in the test process")
def test_a_statement_run_through_the_driver_writes_what_sqlalchemy_would(db_url: str) -> None:
    """The hot path's statements (the fence's compare-and-set, a move's row) go to the driver as
    compiled once: positional on SQLite, named on PostgreSQL; a column's conversion on the way
    in (a Float's) is still made; a fence that does not hold still writes nothing."""
    from sqlalchemy import insert, select

    from parlour.server.schema import moves
    from parlour.server.storage.driver import DriverStatement
    from parlour.server.storage.fence import Fence, advance
    from parlour.server.storage.rows import MoveRow

    with client(db_url) as c:
        t = new_table(c, game="whot", players=2, name="Ada")
        join(c, t["code"], "Bob")
        app: Any = c.app
        wait_for(lambda: t["code"] in app.state.worker.tables)
        owned = app.state.worker.tables[t["code"]]
        wait_for(lambda: owned.table.game_id is not None)
        store = app.state.db.store
        game = owned.table.game_id
        statement = DriverStatement(insert(moves))
        with store.engine.begin() as conn:
            statement.execute(conn, {"game_id": game, "ply": 900, "text": "one", "at": 7})
            statement.execute(
                conn,
                [{"game_id": game, "ply": p, "text": f"m{p}", "at": 8.5} for p in (901, 902)],
            )
        with store.engine.connect() as conn:
            rows = conn.execute(
                select(moves.c.ply, moves.c.text, moves.c.at)
                .where(moves.c.game_id == game, moves.c.ply >= 900)
                .order_by(moves.c.ply)
            ).all()
        assert [tuple(r) for r in rows] == [
            (900, "one", 7.0),
            (901, "m901", 8.5),
            (902, "m902", 8.5),
        ]
        assert all(type(r.at) is float for r in rows)
        stale = Fence(owned.fence.code, owned.fence.owner, owned.fence.epoch, owned.fence.seq - 1)
        with pytest.raises(Exception, match="not owned"), store.engine.begin() as conn:
            advance(conn, stale)
        (after,) = store.tables.add_moves([MoveRow(owned.fence, game, 903, "m903", None)])
        assert after.seq == owned.fence.seq + 1
        owned.fence = after  # the table's owner goes on from the fence this test moved
