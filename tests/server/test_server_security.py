"""Security: tokens act only for their own seat, unknown tokens are refused, bad messages get a
clear error and change nothing, limits on size and rate, names kept as text, loopback default."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_testkit import Seat, client, join, move_texts, new_table
from starlette.websockets import WebSocketDisconnect

from parlour.server.app import STATIC
from parlour.server.tables import hash_token


@pytest.fixture
def table(sqlite_url: str) -> Any:
    with client(sqlite_url, rate=20.0, burst=40) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada")
        bob = join(c, t["code"], "Bob")
        yield c, t, bob


def _ply(c: TestClient, code: str) -> int:
    return int(c.get(f"/api/tables/{code}/view").json()["ply"])


def test_unknown_and_foreign_tokens_are_refused(table: Any) -> None:
    c, t, _ = table
    other = new_table(c, game="sorry", players=2, name="Eve")
    for token in ("not-a-token", other["token"], ""):
        with c.websocket_connect(f"/ws/{t['code']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "unknown_token"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4401
    r = c.get(f"/api/tables/{t['code']}/view", headers={"authorization": "Bearer nope"})
    assert r.status_code == 403
    with c.websocket_connect("/ws/NOSUCH") as ws:
        assert ws.receive_json()["code"] == "unknown_table"


@pytest.mark.in_process("reads the SQLite file's bytes")
def test_only_hashes_of_tokens_are_stored(table: Any, sqlite_url: str) -> None:
    _, t, bob = table
    # the server holds the file (one server per SQLite file): read it as a bystander would
    path = sqlite_url.removeprefix("sqlite:///")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        text = json.dumps(db.execute("SELECT * FROM parlour_seats").fetchall())
    assert bob["token"] not in text and t["token"] not in text
    assert hash_token(bob["token"]) in text
    with open(sqlite_url.removeprefix("sqlite:///"), "rb") as f:
        raw = f.read()
    assert bob["token"].encode() not in raw


def test_bad_messages_get_clear_errors_and_change_nothing(table: Any) -> None:
    c, t, bob = table
    code = t["code"]
    ada, b = Seat(c, code, t["token"], 0), Seat(c, code, bob["token"], 1)
    v = ada.until("view")
    mover, waiter = (ada, b) if v["to_play"] == 0 else (b, ada)
    mover.until("view") if mover is b else None
    waiter.until("view") if waiter is b else None
    ply = v["ply"]
    assert mover.last is not None
    good = move_texts(mover.last)[0]

    def expect(seat: Seat, payload: Any, code_: str, raw: bool = False) -> dict[str, Any]:
        if raw:
            seat.ws.send_text(payload)
        else:
            seat.send(payload)
        msg = seat.until("error")
        assert msg["code"] == code_, msg
        assert msg["message"]
        assert _ply(c, code) == ply
        return msg

    expect(waiter, {"type": "move", "move": good, "ply": ply}, "not_your_turn")
    expect(mover, {"type": "move", "move": "play 99 moon", "ply": ply}, "illegal")
    bad = expect(mover, {"type": "move", "move": "fly away"}, "illegal")
    assert bad["legal"] == move_texts(mover.last)  # the refusal lists the texts
    expect(mover, {"type": "move", "move": good, "ply": ply - 1}, "stale")
    expect(mover, "{not json", "malformed", raw=True)
    expect(mover, "[1, 2]", "malformed", raw=True)
    expect(mover, {"type": "move"}, "malformed")
    expect(mover, {"type": "move", "move": good, "ply": "3"}, "malformed")
    expect(mover, {"type": "dance"}, "malformed")
    expect(mover, {"type": "move", "move": "x" * 5000}, "too_large")
    expect(ada, {"type": "next"}, "game_on")  # Ada is the host, but the game is on
    expect(b, {"type": "close"}, "not_host")
    mover.ws.send_bytes(b"\x00\x01")
    assert mover.until("error")["code"] == "malformed"
    spectator = Seat(c, code, None, None)
    spectator.until("view")
    expect(spectator, {"type": "move", "move": good}, "spectator")
    # and the right move still works
    mover.send({"type": "move", "move": good, "ply": ply})
    assert mover.until("view", ply=ply + 1)


def test_rate_limit_per_connection(table: Any) -> None:
    c, t, _ = table
    ada = Seat(c, t["code"], t["token"], 0)
    ada.until("view")
    for _ in range(80):
        ada.send({"type": "ping"})
    kinds = [ada.recv()["type"] for _ in range(80)]
    assert "error" in kinds
    assert kinds.count("pong") < 80


def test_host_powers_need_the_host_token(table: Any) -> None:
    c, t, bob = table
    code = t["code"]
    for token in (bob["token"], "junk"):
        r = c.post(f"/api/tables/{code}/close", headers={"authorization": f"Bearer {token}"})
        assert r.status_code == 403
    assert c.post(f"/api/tables/{code}/close").status_code == 401
    r = c.post(f"/api/tables/{code}/close", headers={"authorization": f"Bearer {t['host_token']}"})
    assert r.status_code == 200
    assert c.get(f"/api/tables/{code}").status_code == 404


CLIENT_SCRIPTS = sorted(str(p.relative_to(STATIC / "js")) for p in (STATIC / "js").rglob("*.js"))


def test_names_are_text(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=3, name="<script>alert(1)</script>")
        assert c.post(f"/api/tables/{t['code']}/join", json={"name": "a\x00b"}).status_code == 400
        assert c.post(f"/api/tables/{t['code']}/join", json={"name": "x" * 33}).status_code == 400
        assert c.post(f"/api/tables/{t['code']}/join", json={"name": "   "}).status_code == 400
        r = c.get(f"/api/tables/{t['code']}")
        assert r.headers["content-type"].startswith("application/json")
        assert r.json()["seats"][0]["name"] == "<script>alert(1)</script>"
        # the browser client never parses text as HTML: no innerHTML & co. anywhere in it
        page = c.get("/").text
        scripts = [page] + [c.get(f"/static/js/{p}").text for p in CLIENT_SCRIPTS]
        for text in scripts:
            for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
                assert sink not in text


def test_unfinished_games_cannot_be_downloaded(table: Any) -> None:
    c = table[0]
    ids = [g["id"] for g in c.get("/api/history").json()["games"]]
    assert ids == []
    for gid in (1, 2, 999):
        assert c.get(f"/api/history/{gid}/record").status_code == 404


def test_serve_binds_loopback_by_default() -> None:
    import argparse

    from parlour.server.cli import add_commands, settings_from

    parser = argparse.ArgumentParser()
    commands: dict[str, Any] = {}
    add_commands(parser.add_subparsers(dest="command"), commands)
    settings = settings_from(parser.parse_args(["serve"]), env={})
    assert settings.host == "127.0.0.1" and settings.port == 8000
    assert settings.database.startswith("sqlite:///")
    assert "serve" in commands


def test_every_answer_forbids_framing_and_sniffing_and_keeps_addresses_home(
    sqlite_url: str,
) -> None:
    """Pages, scripts, API answers and refusals alike: no other site may frame them, no type is
    sniffed, no Referer leaves the site, and pages run only the server's own scripts."""
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada")
        answers = {
            "lobby": c.get("/"),
            "table page": c.get(f"/t/{t['code']}"),
            "module": c.get("/static/js/main.js"),
            "game module": c.get("/games/whot/whot.js"),
            "api": c.get("/api/games"),
            "not found": c.get("/api/tables/NOSUCH"),
            "too large": c.post("/api/tables", content=b"x" * 70_000),
            "api page": c.get("/docs"),
            "openapi": c.get("/openapi.json"),
        }
        for what, r in answers.items():
            policy = r.headers.get("content-security-policy", "")
            assert "frame-ancestors 'none'" in policy, (what, policy)
            assert "object-src 'none'" in policy and "base-uri 'none'" in policy, what
            assert r.headers.get("x-content-type-options") == "nosniff", what
            assert r.headers.get("x-frame-options") == "DENY", what
            assert r.headers.get("referrer-policy") == "same-origin", what
        page = answers["lobby"].headers["content-security-policy"]
        assert "script-src 'self';" in page and "'unsafe-inline'" not in page
        assert "ws://testserver" in page or "ws://127.0.0.1" in page  # the table's websocket
        docs = answers["api page"].headers["content-security-policy"]
        assert "script-src 'self' 'sha256-" in docs and "'unsafe-inline'" not in docs


SECRET = "correct horse \\ud800 battery"  # as JSON writes it: a lone surrogate, no UTF-8 has it


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/account/login", f'{{"username": "\\ud800", "password": "{SECRET}"}}'),
        ("/api/account/login", f'{{"username": 5, "password": "{SECRET}"}}'),
        ("/api/account/signup", f'{{"username": "ada", "password": "{SECRET}"}}'),
        ("/api/tables", '{"game": "whot", "players": 2, "name": "Ada\\ud800"}'),
        ("/api/tables", '{"game": "whot\\udfff", "players": 2}'),
        ("/api/tables", '{"game": "whot", "players": 2, "options": {"deal\\ud800": 5}}'),
        ("/api/quick", '{"game": "whot", "players": 2, "name": "\\ud800"}'),
        ("/api/tournaments", '{"game": "whot", "format": "swiss", "title": "\\udc00"}'),
        ("/api/review/records", '{"format": "parlour-record/1", "game": "\\ud800"}'),
        ("/api/puzzles", '{"format": "parlour-puzzle/1", "game": "\\ud800"}'),
    ],
)
def test_a_lone_surrogate_anywhere_is_a_clear_refusal_and_never_echoes_a_password(
    sqlite_url: str, path: str, body: str
) -> None:
    with client(sqlite_url) as c:
        r = c.post(path, content=body.encode(), headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (r.status_code, r.text)
        assert r.json()["message"]  # in words
        assert "horse" not in r.text and "battery" not in r.text


def test_a_refused_body_is_described_without_its_input(sqlite_url: str) -> None:
    """A password over the longest allowed is refused by the route's model: 422 says where and
    why, never what was sent (FastAPI's own answer echoed it)."""
    password = "correct horse battery " * 100
    with client(sqlite_url) as c:
        r = c.post("/api/account/signup", json={"username": "ada", "password": password})
        assert r.status_code == 422 and r.json()["error"] == "invalid"
        assert "password" in r.json()["message"] and "horse" not in r.text
        r = c.post("/api/tables", json={"game": "whot", "players": "four"})
        assert r.status_code == 422 and "players" in r.json()["message"]
