"""Every server process answers `/livez`, `/readyz` and `/metrics` (server/health.py,
server/metrics.py): the one process of `make serve`, and in cluster mode each gateway and each
table worker on its own port. Readiness says why not; the metrics count what the server does."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_testkit import CLUSTER_MODE, Seat, client, move_texts, new_table

Get = Callable[[str], Any]


def processes(c: Any) -> dict[str, Get]:
    """Each server process's HTTP: the app in this process, or every gateway and worker."""
    if not CLUSTER_MODE:
        return {"all": c.get}

    def getter(base: str) -> Get:
        return lambda path: httpx.get(base + path, timeout=10)

    out = {f"gateway{i}": getter(base) for i, base in enumerate(c.bases)}
    out |= {f"worker{i}": getter(base) for i, base in enumerate(c.worker_bases)}
    return out


def sample(c: Any, name: str, **labels: str) -> float:
    """A metric's value summed over every process (and over the labels not given)."""
    total = 0.0
    for get in processes(c).values():
        r = get("/metrics")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        for family in text_string_to_metric_families(r.text):
            for s in family.samples:
                if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                    total += s.value
    return total


def wait_until(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"not within {timeout:g} s: {what}"
        time.sleep(0.1)


def test_every_process_answers_livez_readyz_and_metrics(db_url: str) -> None:
    with client(db_url) as c:
        procs = processes(c)
        assert len(procs) == (4 if CLUSTER_MODE else 1)
        for name, get in procs.items():
            assert get("/livez").json() == {"status": "alive"}, name
            ready = get("/readyz")
            assert ready.status_code == 200, (name, ready.text)
            checks = ready.json()["checks"]
            assert checks["database"] == "ok" and checks["bus"] == "ok", (name, checks)
            assert ("worker" in checks) == (not name.startswith("gateway")), (name, checks)
            text = get("/metrics").text
            role = "gateway" if name.startswith("gateway") else "worker"
            assert 'parlour_process_info{id="' in text and f'role="{role}"' in text, name
            assert "process_cpu_seconds_total" in text  # the process's own
        if CLUSTER_MODE:  # a worker serves nothing but its health and metrics
            worker = procs["worker0"]
            assert worker("/api/games").status_code == 404 and worker("/").status_code == 404
        assert sample(c, "parlour_bus_round_trip_seconds_count") >= 1  # every process probes


def test_parlour_moves_total_rises_while_bots_play(db_url: str) -> None:
    """Bots play a table of their own: the moves counted rise, in the worker that owns it; a
    person's move is timed from request to answer, the bots' thinking and the commits too."""
    with client(db_url) as c:
        before = sample(c, "parlour_moves_total", game="whot")
        thought = sample(c, "parlour_bot_think_seconds_count", game="whot", bot="random")
        commits = sample(c, "parlour_db_commit_seconds_count")
        bots = {"0": "random", "1": "random", "2": "random"}
        # the match's games one after another (a game may end in fewer than 20 moves)
        new_table(c, game="whot", players=3, bots=bots, match="rounds-5", auto_next=True)
        wait_until(
            lambda: sample(c, "parlour_moves_total", game="whot") >= before + 20,
            "20 moves of bots counted",
        )
        assert sample(c, "parlour_bot_think_seconds_count", game="whot", bot="random") > thought
        assert sample(c, "parlour_db_commit_seconds_count") > commits
        assert sample(c, "parlour_tables", state="owned") >= 1

        timed = sample(c, "parlour_move_seconds_count", game="whot")
        t = new_table(c, game="whot", players=2, name="Ada", bots={"1": "random"})
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        while v["to_play"] != 0:
            v = ada.until("view", ply=v["ply"] + 1)
        assert sample(c, "parlour_websockets") >= 1
        ada.send({"type": "move", "move": move_texts(v)[0], "ply": v["ply"]})
        ada.until("view", ply=v["ply"] + 1)
        wait_until(
            lambda: sample(c, "parlour_move_seconds_count", game="whot") >= timed + 1,
            "a person's move timed",
        )
        ada.close()


def test_refusals_for_going_too_fast_are_counted_by_route(db_url: str) -> None:
    with client(db_url, tables_per_minute=2.0) as c:
        before = sample(c, "parlour_rate_limited_total", route="/api/tables")
        body = {"game": "whot", "players": 2, "name": "Ada"}
        statuses = [c.post("/api/tables", json=body).status_code for _ in range(8)]
        assert 429 in statuses, statuses
        refused = statuses.count(429)
        assert sample(c, "parlour_rate_limited_total", route="/api/tables") == before + refused
        seconds = sample(c, "parlour_http_request_seconds_count", route="/api/tables")
        assert seconds >= len(statuses)  # every request timed, by its route's template


@pytest.mark.in_process("makes the worker's heartbeat old inside the server")
def test_readyz_is_503_with_the_reason_when_a_workers_heartbeat_is_old(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        worker = c.app.state.worker
        c.app.state.health.fresh = 0.0  # no answer kept: each probe checks
        worker.last_beat = time.monotonic() - 10  # as if the database had not answered for 10 s
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json()["status"] == "not ready"
        assert "heartbeat 1" in r.json()["reason"] and "adopt" in r.json()["reason"]
        assert c.get("/livez").status_code == 200  # alive all the same: no restart wanted
        worker.draining = True
        assert "draining" in c.get("/readyz").json()["checks"]["worker"]
        worker.draining = False


@pytest.mark.in_process("stops a PostgreSQL server of its own under a server in the test process")
def test_readyz_is_503_with_the_reason_while_postgresql_is_down(pg_cluster: Any) -> None:
    from cluster_kit import PostgresServer

    pg = PostgresServer()
    pg.start()
    try:
        with client(pg.new_database()) as c:
            assert c.get("/readyz").status_code == 200
            c.app.state.health.fresh = 0.0  # no answer kept: each probe checks
            pg.halt()
            r = c.get("/readyz")
            assert r.status_code == 503, r.text
            assert r.json()["checks"]["database"].startswith(("failing:", "no answer"))
            assert r.json()["reason"].startswith("database:")
            pg.resume()
            wait_until(lambda: c.get("/readyz").status_code == 200, "ready again", 30)
    finally:
        pg.stop()
