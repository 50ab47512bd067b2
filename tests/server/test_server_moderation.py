"""Moderation (server/moderation.py, `parlour admin`): people at a table report chat lines, and
the server's moderators read the reports, remove a line from every screen, close a table and
suspend an account — which can then neither log in nor act, and whose sessions end. Each rule
is checked through the command a moderator types and the screens the players see, in both
server modes (in a cluster the players' connections are spread over the gateways)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from server_testkit import ADMIN_TOKEN, CLUSTER_MODE, Seat, client, join, new_table
from starlette.websockets import WebSocketDisconnect
from test_server_health import sample

from parlour.cli import main
from parlour.server import admin_cli
from parlour.server.moderation import SUSPENDED_CLOSE

PASSWORD = "correct horse battery"


@pytest.fixture
def moderator(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`parlour admin` with the server's token from the environment, as an operator sets it,
    sending through the test's client (in process there is no port to reach)."""
    monkeypatch.setenv("PARLOUR_ADMIN_TOKEN", ADMIN_TOKEN)
    monkeypatch.delenv("PARLOUR_CONFIG", raising=False)
    target: dict[str, Any] = {}

    def make(base: str, token: str) -> admin_cli.Send:
        def send(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
            kw: dict[str, Any] = {"headers": {"Authorization": f"Bearer {token}"}}
            if body is not None:
                kw["json"] = body
            r = getattr(target["c"], method.lower())(path, **kw)
            return r.status_code, r.json()

        return send

    monkeypatch.setattr(admin_cli, "SENDER", make)

    def use(c: Any) -> None:
        target["c"] = c

    yield use


def parlour_admin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["admin", *args])
    return code, capsys.readouterr().out


@contextmanager
def a_table_of_three(c: Any) -> Iterator[tuple[str, dict[str, Seat], dict[str, str]]]:
    t = new_table(c, game="whot", players=3, name="Ada")
    tokens = {"Ada": t["token"]}
    for name in ("Bo", "Cy"):
        tokens[name] = join(c, t["code"], name)["token"]
    seats = {name: Seat(c, t["code"], tok, i) for i, (name, tok) in enumerate(tokens.items())}
    try:
        yield t["code"], seats, tokens
    finally:
        for s in seats.values():
            s.close()


def say(seats: dict[str, Seat], who: str, text: str) -> str:
    """`who` says a line; everyone sees it. Its id."""
    seats[who].send({"type": "chat", "text": text})
    ids = {s.until("chat")["lines"][-1]["id"] for s in seats.values()}
    assert len(ids) == 1
    return str(ids.pop())


def report(c: Any, code: str, line: str, token: str | None, **body: Any) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return c.post(f"/api/tables/{code}/chat/{line}/report", json=body, headers=headers)


def test_a_reported_line_reaches_the_moderators_who_remove_it_from_every_screen(
    db_url: str, moderator: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db_url) as c, a_table_of_three(c) as (code, seats, tokens):
        moderator(c)
        rude = say(seats, "Bo", "you play like a potato")
        kind = say(seats, "Cy", "good game all")
        r = report(c, code, rude, tokens["Ada"], reason="insults")
        assert r.status_code == 200 and r.json() == {"reported": True, "new": True}
        assert report(c, code, rude, tokens["Ada"]).json()["new"] is False  # once a seat
        assert report(c, code, rude, tokens["Cy"]).json()["new"] is True
        assert report(c, code, rude, tokens["Bo"]).status_code == 400  # one's own line
        assert report(c, code, "nosuchline", tokens["Ada"]).status_code == 404
        assert report(c, code, rude, None).status_code == 401  # a spectator has no seat
        assert report(c, code, rude, "not-a-token").status_code == 403

        status, out = parlour_admin(capsys, "reports")
        assert status == 0
        assert out.count("you play like a potato") == 2  # Ada's report and Cy's
        assert "Bo (seat 2)" in out and "Ada (seat 1)" in out and "insults" in out
        assert "good game all" not in out
        status, out = parlour_admin(capsys, "chat", code)
        assert status == 0 and f"{rude}" in out and f"{kind}" in out

        status, out = parlour_admin(capsys, "remove-line", code, rude)
        assert status == 0 and "2 reports" in out
        for s in seats.values():  # off every screen, whichever gateway it is on
            assert s.until("chat_removed")["id"] == rude
        late = Seat(c, code, None, None)  # who arrives now never sees it
        assert [x["text"] for x in late.until("chat")["lines"]] == ["good game all"]
        late.close()
        assert parlour_admin(capsys, "reports")[1].strip() == "No reports."
        status, out = parlour_admin(capsys, "reports", "--all")
        assert "[removed]" in out
        status, out = parlour_admin(capsys, "remove-line", code, rude)  # gone already
        assert status == 2 and "404" in out


def test_reports_are_rate_limited_per_client_and_counted(
    db_url: str, moderator: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # 2 a minute per client and gateway: in a cluster of two gateways, 4 at the most
    with client(db_url, reports_per_minute=2.0) as c, a_table_of_three(c) as (code, seats, tk):
        route = "/api/tables/{code}/chat/{line}/report"
        before = sample(c, "parlour_rate_limited_total", route=route)
        lines = [say(seats, who, f"line {i}") for i, who in enumerate(["Bo", "Cy"] * 3)]
        statuses = [report(c, code, line, tk["Ada"]).status_code for line in lines]
        assert statuses.count(200) == (4 if CLUSTER_MODE else 2), statuses
        assert set(statuses) == {200, 429}
        refused = statuses.count(429)
        assert sample(c, "parlour_rate_limited_total", route=route) == before + refused
        moderator(c)
        assert parlour_admin(capsys, "reports")[1].count("): line ") == statuses.count(200)


def test_a_moderator_closes_a_table_and_only_a_moderator_may(
    db_url: str, moderator: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db_url) as c, a_table_of_three(c) as (code, seats, tokens):
        moderator(c)
        for token in (None, "guess", tokens["Ada"]):  # not even the host's
            headers = {} if token is None else {"Authorization": f"Bearer {token}"}
            r = c.post(f"/api/admin/tables/{code}/close", headers=headers)
            assert r.status_code == 403 and r.json()["error"] == "not_moderator", r.text
        assert c.get("/api/admin/reports").status_code == 403
        status, out = parlour_admin(capsys, "close", code.lower())
        assert (status, out.strip()) == (0, f"table {code}: closed")
        for s in seats.values():
            assert s.until("closed")["message"] == "a moderator closed the table"
        assert c.get(f"/api/tables/{code}").status_code == 404  # no open table of that code
        status, out = parlour_admin(capsys, "close", code)  # closed tables are nobody's to close
        assert status == 2 and "no open table" in out
        status, out = parlour_admin(capsys, "close", "NOSUCH")
        assert status == 2 and "404" in out


def browser(c: Any) -> Any:
    """One browser: its cookies kept (in a cluster, one gateway's; the others' are another
    browser's)."""
    return c if not CLUSTER_MODE else httpx.Client(base_url=c.bases[0], timeout=30)


def as_guest(c: Any, act: Any) -> Any:
    """Act with no session cookie (in process, Ada's browser is the test client)."""
    if CLUSTER_MODE:
        return act()
    saved = dict(c.cookies)
    c.cookies.clear()
    try:
        return act()
    finally:
        c.cookies.update(saved)


def disconnected(seat: Seat) -> int:
    """Read until the server closes the connection: its close code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            seat.recv()
    with contextlib.suppress(Exception):  # closed by the server: let the client side go too
        seat.close()
    return int(closed.value.code)


def test_a_suspended_account_cannot_log_in_or_act_and_its_sessions_end(
    db_url: str, moderator: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db_url) as c:
        moderator(c)
        ada = browser(c)
        r = ada.post("/api/account/signup", json={"username": "Ada", "password": PASSWORD})
        assert r.status_code == 200, r.text
        csrf = {"x-csrf-token": r.json()["csrf"]}
        body = {"game": "whot", "players": 2, "name": "Ada"}  # an account host sits as the account
        t = ada.post("/api/tables", json=body, headers=csrf).json()
        assert t["seat"] == 0, t
        code = t["code"]
        bo = as_guest(c, lambda: join(c, code, "Bo"))
        # Ada's seat twice (two tabs; in a cluster, on both gateways) and Bo's
        tabs = [Seat(c, code, t["token"], 0), Seat(c, code, t["token"], 0)]
        bo_seat = Seat(c, code, bo["token"], 1)
        for s in [*tabs, bo_seat]:
            s.until("view")

        assert ada.get("/api/account").status_code == 200  # logged in
        status, out = parlour_admin(capsys, "suspend", "ada", "--reason", "spam")
        assert status == 0 and "suspended Ada: 1 sessions ended" in out
        assert [disconnected(s) for s in tabs] == [SUSPENDED_CLOSE] * 2
        assert ada.get("/api/account").status_code == 401  # the session ended
        r = ada.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
        assert (r.status_code, r.json()["error"]) == (403, "suspended")
        wrong = ada.post("/api/account/login", json={"username": "Ada", "password": "nope" * 3})
        assert wrong.status_code == 401  # the suspension is said only to whoever knows it
        again = Seat(c, code, t["token"], 0)  # the seat cannot act: refused at hello
        assert again.until("error")["code"] == "suspended"
        assert disconnected(again) == SUSPENDED_CLOSE
        bo_seat.send({"type": "ping"})  # everyone else plays on
        assert bo_seat.until("pong")["type"] == "pong"

        status, out = parlour_admin(capsys, "unsuspend", "Ada")
        assert status == 0 and "may log in and play again" in out
        r = ada.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
        assert r.status_code == 200, r.text
        back = Seat(c, code, t["token"], 0)
        assert back.until("view")["seat"] == 0
        back.close()
        bo_seat.close()
        assert parlour_admin(capsys, "suspend", "nobody")[0] == 2
        if ada is not c:
            ada.close()


@pytest.mark.in_process("a server of its own without a moderators' token")
def test_without_an_admin_token_moderation_is_off_and_says_how_to_turn_it_on(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(sqlite_url, admin_token=None) as c:
        r = c.get("/api/admin/reports", headers={"Authorization": "Bearer anything"})
        assert r.status_code == 403 and "admin_token" in r.json()["message"]
    monkeypatch.delenv("PARLOUR_ADMIN_TOKEN", raising=False)
    monkeypatch.delenv("PARLOUR_ADMIN_TOKEN_FILE", raising=False)
    monkeypatch.delenv("PARLOUR_CONFIG", raising=False)
    status, out = parlour_admin(capsys, "reports")
    assert status == 2 and "no moderators' token" in out
