"""Nothing lost: a real server process is killed with SIGKILL in the middle of games and started
again on the same database; every table resumes where it was, people reconnect with their
tokens, bots carry on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_testkit import free_port, move_texts
from websockets.sync.client import ClientConnection, connect


class Server:
    def __init__(self, db: str, port: int, log: Path) -> None:
        self.db, self.port, self.log = db, port, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port),
                 "--database", self.db, "--bot-delay", "0.05", "--log-level", "warning",
                 "--setting", "bot_table_min_delay=0"],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if httpx.get(self.base + "/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("server did not start: " + self.log.read_text()[-2000:])

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'parlour.sqlite3'}", free_port(), tmp_path / "server.log")
    s.start()
    yield s
    s.stop()


class Client:
    def __init__(self, server: Server, code: str, token: str) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/{code}", open_timeout=10
        ).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.views: list[dict[str, Any]] = []

    def until_view(self, pred: Any = lambda v: True) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            assert msg["type"] != "error", msg
            if msg["type"] == "welcome":
                self.welcome = msg
            if msg["type"] == "view":
                self.views.append(msg)
                if pred(msg):
                    return msg

    def close(self) -> None:
        self.ws.close()


def play(people: dict[int, Client], moves: int | None) -> int:
    """People move (first legal move) until `moves` were made or the game ends; the last ply."""
    first = next(iter(people.values()))
    made = 0
    v = first.views[-1] if first.views else first.until_view()
    while True:
        if v["to_play"] is None or (moves is not None and made >= moves):
            return int(v["ply"])
        if v["to_play"] in people:
            mover = people[v["to_play"]]
            mv = mover.views[-1] if mover.views and mover.views[-1]["ply"] == v["ply"] else None
            if mv is None:
                mv = mover.until_view(lambda x, p=v["ply"]: x["ply"] >= p)
            mover.ws.send(json.dumps({"type": "move", "move": move_texts(mv)[0], "ply": mv["ply"]}))
            made += 1
        v = first.until_view(lambda x, p=v["ply"]: x["ply"] > p)


@pytest.mark.in_process(
    "runs its own one-process server on SQLite, the same in both modes (a cluster's workers "
    "are killed in test_server_cluster.py)"
)
def test_sigkill_and_restart_resumes_every_table(server: Server) -> None:
    api = httpx.Client(base_url=server.base, timeout=10)
    bots = api.post(
        "/api/tables",
        json={"game": "whot", "match": "rounds-5", "auto_next": True, "bot_delay": 0.05,
              "bots": {str(i): "greedy" for i in range(4)}},
    ).json()  # fmt: skip
    t = api.post(
        "/api/tables",
        json={"game": "whot", "players": 3, "preset": "storey-1935", "match": "single",
              "name": "Ada", "bots": {"1": "greedy"}, "bot_delay": 0.05},
    ).json()  # fmt: skip
    code = t["code"]
    bob = api.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
    people = {0: Client(server, code, t["token"]), 2: Client(server, code, bob["token"])}
    seen = play(people, 4)
    seen = max(v["ply"] for c in people.values() for v in c.views)
    time.sleep(0.3)  # let the bot table play on a little
    bot_before = api.get(f"/api/tables/{bots['code']}/view").json()

    server.kill()
    server.start()

    after = api.get(f"/api/tables/{code}/view").json()
    assert after["ply"] >= seen, "a move that was broadcast was lost"
    people = {0: Client(server, code, t["token"]), 2: Client(server, code, bob["token"])}
    for seat, client in people.items():
        v = client.until_view()
        assert client.welcome["seat"] == seat
        assert v["seat"] == seat
    last = play(people, None)
    assert last > after["ply"] - 1
    # the bot table carried on by itself
    end = time.monotonic() + 30
    while time.monotonic() < end:
        bot_after = api.get(f"/api/tables/{bots['code']}/view").json()
        if (bot_after["game_number"], bot_after["ply"]) > (
            bot_before["game_number"],
            bot_before["ply"],
        ):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the bots did not carry on after the restart")
    # the finished game is in the history, and its record holds every move anyone saw
    hist = api.get("/api/history", params={"table": code}).json()
    assert hist["total"] == 1
    record = api.get(f"/api/history/{hist['games'][0]['id']}/record").json()
    assert len(record["moves"]) == last
    for client in people.values():
        client.close()
