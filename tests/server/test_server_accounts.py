"""Accounts, rated tables, ratings, leaderboards and profiles (docs/architecture.md, "Accounts and
ratings"): each rule of the issue a test of its own.

The HTTP tests keep the session cookie in one test client (the cluster mode's remote client keeps
one cookie jar per gateway), so they run in process; the store's rules run on SQLite and
PostgreSQL.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from server_testkit import Seat, client, join, move_texts, new_table

from parlour.server.accounts import Passwords, check_username, name_key, name_skeleton
from parlour.server.storage import SeatRow, Store, TableRow

# Argon2id at its smallest costs: the rules are the same, the tests run fast
CHEAP = {"password_time_cost": 1, "password_memory_kib": 1024, "password_parallelism": 1}
PASSWORD = "correct horse battery"
in_process = pytest.mark.in_process("keeps the session cookie in one test client")


@contextmanager
def server(url: str, **settings: Any) -> Iterator[Any]:
    with client(url, **{**CHEAP, **settings}) as c:
        yield c


def signup(c: Any, username: str, password: str = PASSWORD, **body: Any) -> dict[str, Any]:
    r = c.post("/api/account/signup", json={"username": username, "password": password, **body})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def login(c: Any, username: str, password: str = PASSWORD, **kw: Any) -> Any:
    return c.post("/api/account/login", json={"username": username, "password": password}, **kw)


def csrf(account: dict[str, Any]) -> dict[str, str]:
    return {"x-csrf-token": account["csrf"]}


def play_to_the_end(c: Any, code: str, token: str, seat: int) -> dict[str, Any]:
    """The person at `seat` plays the first legal move each turn until the game is over (the
    other seats are bots)."""
    me = Seat(c, code, token, seat)
    while True:
        v = me.until("view")
        if v["to_play"] is None:
            me.close()
            return v
        if move_texts(v):
            me.send({"type": "move", "move": move_texts(v)[0], "ply": v["ply"]})


def wait_for(pred: Any, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def rated_game(c: Any, account: dict[str, Any], bots: dict[str, str] | None = None) -> str:
    """A rated Whot! table of the account and bots, played to its end; its code."""
    bots = bots or {"1": "random"}
    body = {"game": "whot", "players": 1 + len(bots), "match": "single", "bots": bots}
    r = c.post("/api/tables", json={**body, "name": "me", "rated": True}, headers=csrf(account))
    assert r.status_code == 200, r.text
    t = r.json()
    play_to_the_end(c, t["code"], t["token"], t["seat"])
    return str(t["code"])


# --- usernames and passwords ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "ab",  # too short
        "a" * 25,  # too long
        "ada!",  # punctuation
        "ada lovelace",  # a space
        "ad\u200bmin",  # a zero-width space
        "p\u0430ypal",  # Latin with a Cyrillic а: mixed scripts
        "\u0430dmin",  # the same, at the front
        "___",  # no letter
        "adx\u0301",  # a combining mark (no precomposed x with acute)
    ],
)
def test_a_username_outside_the_conservative_charset_is_refused(name: str) -> None:
    with pytest.raises(Exception, match="username"):
        check_username(name)


def test_names_that_look_alike_share_one_skeleton() -> None:
    """Unicode's confusable skeletons (UTS #39), from a maintained table — not a hand-made list."""
    assert check_username("\uff21\uff44\uff41") == "Ada"  # full-width letters: NFKC
    assert name_key("Ada") == name_key("ADA") == name_key("ada")  # a log-in's key: case folded
    alike = {
        "alice": ["\u0251lice", "al\u0131ce", "\u0430lice", "a1ice"],  # ɑ, ı, Cyrillic а
        "admin": ["\u1d00dmin", "\u0251dmin"],  # ᴀ: a small capital (ADMIN: by its key)
        "ace": ["\u0430\u0441\u0435", "\uff41\uff43\uff45"],  # all Cyrillic "асе"; full-width
        "bob": ["b0b", "B0B"],
        "lan": ["Ian"],  # a capital I and a small l
        "ada_l": ["ada-l"],
    }
    for name, looks in alike.items():
        for other in looks:
            assert name_skeleton(other) == name_skeleton(name), (other, name)
    for a, b in [("zoe", "zo\u00eb"), ("jose", "jos\u00e9"), ("ada", "adda"), ("bob", "rob")]:
        assert name_skeleton(a) != name_skeleton(b), (a, b)  # different names stay different
    assert check_username("Мария") == "Мария"  # one script, not Latin: welcome


@in_process
def test_usernames_are_unique_case_insensitively_and_by_look(sqlite_url: str) -> None:
    with server(sqlite_url, signups_per_minute=100) as c:
        signup(c, "ace")
        signup(c, "alice")
        signup(c, "admin")
        for taken in ("\u0251lice", "al\u0131ce", "\u1d00dmin", "a1ice"):  # ɑlice, alıce, ᴀdmin
            c.cookies.clear()
            r = c.post("/api/account/signup", json={"username": taken, "password": PASSWORD})
            assert r.status_code == 409 and r.json()["error"] == "taken", (taken, r.text)
            assert "looks too much like" in r.json()["message"]
        c.cookies.clear()
        for taken in ("ACE", "Ace", "\u0430\u0441\u0435", "\uff41\uff43\uff45"):
            r = c.post("/api/account/signup", json={"username": taken, "password": PASSWORD})
            assert r.status_code == 409 and r.json()["error"] == "taken", (taken, r.text)
        r = c.post("/api/account/signup", json={"username": "p\u0430ypal", "password": PASSWORD})
        assert r.status_code == 400 and r.json()["error"] == "bad_username"


@in_process
def test_a_password_is_long_enough_and_not_the_username(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        for password, why in [("short", "at least 10"), ("xxAdaLovelace1", "username")]:
            body = {"username": "AdaLovelace", "password": password}
            r = c.post("/api/account/signup", json=body)
            assert r.status_code == 400 and why in r.json()["message"], r.text


# --- sign up, log in, log out, change, delete -----------------------------------------------------
@in_process
def test_sign_up_log_in_log_out(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        cookie = c.cookies.get("parlour_session")
        assert cookie and ada["csrf"] == c.cookies.get("parlour_csrf")
        assert c.get("/api/account").json()["username"] == "Ada"
        r = c.post("/api/account/logout", headers=csrf(ada))
        assert r.status_code == 200
        assert c.get("/api/account").status_code == 401
        c.cookies.set("parlour_session", cookie)  # a logged-out session is gone for good
        assert c.get("/api/account").status_code == 401
        c.cookies.clear()
        r = login(c, "ADA")  # a username logs in in any case
        assert r.status_code == 200 and r.json()["username"] == "Ada"
        assert c.get("/api/account").json()["username"] == "Ada"


@in_process
def test_the_session_cookie_is_httponly_samesite_lax_and_secure_over_https(
    sqlite_url: str,
) -> None:
    with server(sqlite_url, trust_forwarded=True) as c:
        r = c.post("/api/account/signup", json={"username": "Ada", "password": PASSWORD})
        cookies = r.headers.get_list("set-cookie")
        session = next(h for h in cookies if h.startswith("parlour_session="))
        assert "HttpOnly" in session and "SameSite=lax" in session and "Secure" not in session
        token = next(h for h in cookies if h.startswith("parlour_csrf="))
        assert "HttpOnly" not in token  # the page's script reads it
        r = login(c, "Ada", headers={"x-forwarded-proto": "https"})  # behind a TLS proxy
        assert all("Secure" in h for h in r.headers.get_list("set-cookie"))
    with server(sqlite_url) as c:  # an untrusted X-Forwarded-Proto changes nothing
        r = login(c, "Ada", headers={"x-forwarded-proto": "https"})
        assert not any("Secure" in h for h in r.headers.get_list("set-cookie"))


@in_process
def test_changing_the_password_logs_out_the_other_sessions(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        other = login(c, "Ada").json()  # a second device…
        other_cookie = c.cookies.get("parlour_session")
        login(c, "Ada")
        here = login(c, "Ada").json()  # …and this one
        r = c.post(
            "/api/account/password",
            json={"current": "not the password", "new": "a new long password"},
            headers=csrf(here),
        )
        assert r.status_code == 403
        r = c.post(
            "/api/account/password",
            json={"current": PASSWORD, "new": "a new long password"},
            headers=csrf(here),
        )
        assert r.status_code == 200, r.text
        assert c.get("/api/account").status_code == 200  # this session goes on
        assert login(c, "Ada").status_code == 401  # the old password is gone
        assert login(c, "Ada", "a new long password").status_code == 200
        c.cookies.set("parlour_session", other_cookie or "")
        assert c.get("/api/account").status_code == 401  # the other device is logged out
        assert ada["username"] == other["username"] == "Ada"


@in_process
def test_log_out_everywhere_revokes_every_session(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        signup(c, "Ada")
        first = c.cookies.get("parlour_session")
        now = login(c, "Ada").json()
        r = c.post("/api/account/logout-everywhere", headers=csrf(now))
        assert r.status_code == 200 and r.json()["logged_out"] == 2
        assert c.get("/api/account").status_code == 401
        c.cookies.set("parlour_session", first or "")
        assert c.get("/api/account").status_code == 401


@in_process
def test_deleting_an_account_keeps_its_games_and_anonymises_its_name(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        code = rated_game(c, ada)
        wait_for(lambda: c.get("/api/history", params={"table": code}).json()["total"] == 1)
        gid = c.get("/api/history", params={"table": code}).json()["games"][0]["id"]
        assert "Ada" in c.get(f"/api/review/games/{gid}").json()["names"]  # the review is kept
        r = c.post("/api/account/delete", json={"password": "wrong password"}, headers=csrf(ada))
        assert r.status_code == 403  # the password, to be sure
        r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(ada))
        assert r.status_code == 200, r.text
        game = c.get("/api/history", params={"table": code}).json()["games"][0]
        assert "Ada" not in game["players"] and "deleted player" in game["players"]
        record = c.get(f"/api/history/{game['id']}/record").json()
        assert "Ada" not in record["names"]
        assert "Ada" not in c.get(f"/api/review/games/{gid}").json()["names"]  # nor its review
        assert c.get("/api/players/Ada").status_code == 404
        board = c.get("/api/leaderboard/whot").json()["players"]
        assert [p["name"] for p in board] == ["easy bot"]  # the random bot, as the lobby names it
        assert c.get("/api/account").status_code == 401
        assert login(c, "Ada").status_code == 401
        assert signup(c, "Ada")["username"] == "Ada"  # the name is free again


# --- security -------------------------------------------------------------------------------------
@in_process
def test_a_cookie_authenticated_write_without_the_csrf_token_is_refused(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        writes: list[tuple[str, dict[str, Any] | None]] = [
            ("/api/account/logout", None),
            ("/api/account/logout-everywhere", None),
            ("/api/account/password", {"current": PASSWORD, "new": "another password"}),
            ("/api/account/delete", {"password": PASSWORD}),
            ("/api/account/claim", {"seats": []}),
            ("/api/tables", {"game": "whot", "players": 2, "name": "Ada"}),
        ]
        for headers in ({}, {"x-csrf-token": "0" * 40}):
            for path, body in writes:
                r = c.post(path, json=body, headers=headers)
                assert r.status_code == 403 and r.json()["error"] == "csrf", (path, r.text)
        # the right token from another site's page: refused by its Origin
        r = c.post("/api/account/logout", headers={**csrf(ada), "origin": "https://evil.example"})
        assert r.status_code == 403
        assert c.get("/api/account").status_code == 200  # still logged in
        r = c.post("/api/account/login", json={"username": "Ada", "password": PASSWORD},
                   headers={"origin": "https://evil.example"})  # fmt: skip
        assert r.status_code == 403  # no logging a victim in from elsewhere either
        assert c.post("/api/account/logout", headers=csrf(ada)).status_code == 200


@in_process
def test_a_guest_plays_exactly_as_before_with_no_csrf_token(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada")
        b = join(c, t["code"], "Bob")
        assert b["seat"] == 1 and "parlour_session" not in c.cookies


@in_process
def test_log_in_attempts_are_rate_limited_per_client_and_per_username_from_it(
    sqlite_url: str,
) -> None:
    limits = {"logins_per_minute": 3, "logins_per_name_per_minute": 2, "trust_forwarded": True}
    with server(sqlite_url, **limits) as c:
        signup(c, "Ada")
        here = {"x-forwarded-for": "10.0.0.1"}
        codes = [login(c, f"nobody{i}", headers=here).status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]  # per client: 3 a minute
        # per username from one address: the third guess at Ada's password from there waits
        there = {"x-forwarded-for": "10.0.3.1"}
        codes = [login(c, "Ada", "wrong guess", headers=there).status_code for _ in range(3)]
        assert codes == [401, 401, 429]
        r = login(c, "Ada", headers=there)
        assert r.status_code == 429 and "wait a minute" in r.json()["message"]


@in_process
def test_guesses_from_elsewhere_never_lock_the_owner_out(sqlite_url: str) -> None:
    """Wrong guesses at Ada's password from many addresses, each within its own limits, use up
    none of the attempts of Ada's own address: the owner logs in at once."""
    limits = {"logins_per_minute": 10, "logins_per_name_per_minute": 5, "trust_forwarded": True}
    with server(sqlite_url, **limits) as c:
        signup(c, "Ada")
        c.cookies.clear()
        for i in range(6):
            guesser = {"x-forwarded-for": f"10.0.1.{i}"}
            codes = [login(c, "Ada", "wrong guess", headers=guesser).status_code for _ in range(5)]
            assert codes == [401] * 5
        r = login(c, "ADA", headers={"x-forwarded-for": "10.0.2.1"})  # the owner's address
        assert r.status_code == 200, r.text


@in_process
def test_log_in_errors_do_not_tell_whether_a_username_exists(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str | None] = []
    verify = Passwords.verify

    def counting(self: Passwords, stored: str | None, password: str) -> bool:
        checked.append(stored)
        return verify(self, stored, password)

    monkeypatch.setattr(Passwords, "verify", counting)
    with server(sqlite_url) as c:
        signup(c, "Ada")
        unknown = login(c, "Grace")
        wrong = login(c, "Ada", "wrong password")
        assert unknown.status_code == wrong.status_code == 401
        assert (
            unknown.json()
            == wrong.json()
            == {
                "error": "bad_login",
                "message": "wrong username or password",
            }
        )
        # the unknown name was checked against a dummy hash: the same work, so similar timing
        assert checked == [None, checked[1]] and checked[1] is not None
        # a password longer than any account may have is wrong, whatever it starts with
        assert login(c, "Ada", PASSWORD + "x" * 1024).status_code == 401


@in_process
def test_every_account_action_is_its_own_accounts(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        ada_cookie = c.cookies.get("parlour_session")
        c.cookies.clear()
        signup(c, "Grace")
        # Grace's session with Ada's CSRF token: refused (each token signs its own session)
        r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(ada))
        assert r.status_code == 403
        # a seat Ada holds as her account's cannot be claimed by Grace, even with its token
        c.cookies.clear()
        c.cookies.set("parlour_session", ada_cookie or "")
        body = {"game": "whot", "players": 2, "match": "single", "name": "Ada"}
        t = c.post("/api/tables", json=body, headers=csrf(ada)).json()
        c.cookies.clear()
        grace = login(c, "Grace").json()
        claimed = c.post(
            "/api/account/claim",
            json={"seats": [{"table": t["code"], "token": t["token"]}]},
            headers=csrf(grace),
        ).json()["claimed"]
        assert claimed == []
        # no route acts on an account by name: Grace's password change is Grace's
        r = c.post(
            "/api/account/password",
            json={"current": PASSWORD, "new": "her own new password"},
            headers=csrf(grace),
        )
        assert r.status_code == 200
        c.cookies.clear()
        assert login(c, "Ada").status_code == 200  # Ada's password is as it was


@in_process
def test_passwords_and_tokens_are_never_logged(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        session = c.cookies.get("parlour_session")
        login(c, "Ada", "wrong password")
        c.post(
            "/api/account/password",
            json={"current": PASSWORD, "new": "a second password"},
            headers=csrf(ada),
        )
    text = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (PASSWORD, "wrong password", "a second password", session, ada["csrf"]):
        assert secret and secret not in text


# --- a guest's seats ------------------------------------------------------------------------------
@in_process
def test_a_guests_seats_are_claimed_by_the_account_they_then_create(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada", bots={"1": "random"})
        play_to_the_end(c, t["code"], t["token"], 0)
        held = [{"table": t["code"], "token": t["token"]}, {"table": "NOPE22", "token": "x"}]
        ada = signup(c, "Ada", claim=held)
        assert ada["claimed"] == [{"table": t["code"], "seat": 0}]
        games = wait_for(lambda: c.get("/api/players/Ada").json()["games"])
        assert [g["table"] for g in games] == [t["code"]]
        assert games[0]["review"] == f"/review/{games[0]['id']}" and not games[0]["rated"]
        # a seat is claimed once: a second account with the same token gets nothing
        c.cookies.clear()
        grace = signup(c, "Grace")
        r = c.post("/api/account/claim", json={"seats": held}, headers=csrf(grace))
        assert r.json()["claimed"] == []


# --- rated tables and ratings ---------------------------------------------------------------------
@in_process
def test_a_rated_table_needs_a_logged_in_host(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        body = {"game": "whot", "players": 2, "name": "Ada", "bots": {"1": "random"}}
        r = c.post("/api/tables", json={**body, "rated": True})
        assert r.status_code == 401 and r.json()["error"] == "login_required"
        assert "log in" in r.json()["message"]
        assert c.post("/api/tables", json=body).status_code == 200  # unrated: the default


@in_process
def test_a_rated_table_plays_a_presets_rules_as_they_are(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        body = {"game": "whot", "players": 2, "name": "Ada", "bots": {"1": "random"}}
        house = {**body, "rated": True, "options": {"deal": 1}}
        r = c.post("/api/tables", json=house, headers=csrf(ada))
        assert r.status_code == 400 and "no rule options" in r.json()["message"]
        r = c.post(
            "/api/tables", json={**body, "rated": True, "preset": "english"}, headers=csrf(ada)
        )
        assert r.status_code == 200 and c.get(f"/api/tables/{r.json()['code']}").json()["rated"]


@in_process
def test_a_rated_table_refuses_a_guest_seat(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        r = c.post(
            "/api/tables",
            json={"game": "whot", "players": 2, "name": "whatever", "rated": True},
            headers=csrf(ada),
        )
        t = r.json()
        table = c.get(f"/api/tables/{t['code']}").json()
        assert table["rated"] and table["seats"][0]["name"] == "Ada"  # under the username
        c.cookies.clear()  # a guest
        r = c.post(f"/api/tables/{t['code']}/join", json={"name": "Bob"})
        assert r.status_code == 401 and "rated" in r.json()["message"]
        grace = signup(c, "Grace")
        r = c.post(f"/api/tables/{t['code']}/join", json={"name": "G"}, headers=csrf(grace))
        assert r.status_code == 200
        assert c.get(f"/api/tables/{t['code']}").json()["seats"][1]["name"] == "Grace"


def test_a_rated_game_moves_the_ratings_exactly_once(db_url: str) -> None:
    # the session goes as a header: in the cluster mode each gateway has its own cookie jar
    with server(db_url) as c:
        r = c.post("/api/account/signup", json={"username": "Ada", "password": PASSWORD})
        ada = r.json()
        ada_headers = {**csrf(ada), "cookie": f"parlour_session={r.cookies['parlour_session']}"}
        body = {"game": "whot", "players": 3, "match": "single", "name": "me", "rated": True}
        bots = {"1": "random", "2": "greedy"}
        r = c.post("/api/tables", json={**body, "bots": bots}, headers=ada_headers)
        assert r.status_code == 200, r.text
        t = r.json()
        play_to_the_end(c, t["code"], t["token"], t["seat"])
        board = wait_for(lambda: c.get("/api/leaderboard/whot").json()["players"])
        names = {p["name"]: p.get("bot") for p in board}
        assert names == {"Ada": None, "easy bot": "random", "hard bot": "greedy"}  # level names
        assert all(p["games"] == 1 for p in board)
        assert [p["rank"] for p in board] == [1, 2, 3]
        # after one game everyone is provisional, ranked by the number people see
        assert all(p["provisional"] and isinstance(p["rating"], int) for p in board)
        assert board == sorted(board, key=lambda p: -p["rating"])
        game_id = c.get("/api/history", params={"table": t["code"]}).json()["games"][0]["id"]
        profile = c.get("/api/players/ada").json()
        assert [h["game_id"] for h in profile["history"]] == [game_id]
        assert profile["games"][0]["rated"] and profile["win_rate"]["whot"]["played"] == 1
        bot = c.get("/api/players/bot:random").json()
        assert bot["ratings"][0]["games"] == 1
        assert bot["name"] == "easy bot" and bot["bot"] == "random"  # the kind, in the details
        assert profile["history"][0]["rating"] == profile["ratings"][0]["rating"]
        database = getattr(c, "database", db_url)  # the cluster's own, in the cluster mode
    # the finish processed again (a retry, a worker adopting the table): nothing moves
    store = Store(database)
    try:
        assert store.ratings.rate_game(game_id) is False
        again = store.ratings.leaderboard("whot", "nigerian")
        assert sorted((p["player"], p["mu"], p["games"]) for p in again) == sorted(
            (p["player"], p["mu"], p["games"]) for p in board
        )
        assert len(store.ratings.profile(profile["player"])["history"]) == 1  # type: ignore[index]
    finally:
        store.close()


def test_a_finish_stored_twice_rates_once(db_url: str) -> None:
    """The owner's retry after a database error, or a worker adopting the table and storing a
    result it finds missing, both call `finish_game` again: the ratings move once."""
    store = Store(db_url)
    try:
        ada = store.accounts.create_account("Ada", "ada", "hash")
        row = TableRow(
            code="RATED1", created_at=time.time(), game="whot", players=2, preset="nigerian",
            rules={}, match_format="single", match_seed=1, move_clock=0.0, bot_delay=0.0,
            auto_next=False, status="waiting", host_hash="h", rated=True,
            seats=[SeatRow(0, "Ada", None, "t", ada), SeatRow(1, "hint bot", "hint", None)],
        )  # fmt: skip
        fence = store.tables.create_table(row, "w1")
        assert fence is not None
        game_id, fence = store.tables.start_game(fence, 0, 2, [0, 1], 7, {}, {})
        result = {"winners": [1], "points": [3, 0], "lower_is_better": True, "ranks": [2, 1]}
        fence = store.tables.finish_game(fence, game_id, result, "finished")
        store.tables.finish_game(fence, game_id, result, "finished")  # the same finish again
        assert store.ratings.rate_game(game_id) is False
        board = store.ratings.leaderboard("whot", "nigerian")
        assert [(p["name"], p["games"], p["wins"]) for p in board] == [
            ("hint bot", 1, 1.0),
            ("Ada", 1, 0.0),
        ]
        assert len(store.ratings.profile(f"a:{ada}")["history"]) == 1  # type: ignore[index]
    finally:
        store.close()


def test_an_unrated_game_moves_no_rating(db_url: str) -> None:
    with server(db_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada", bots={"1": "random"})
        play_to_the_end(c, t["code"], t["token"], 0)
        wait_for(lambda: c.get("/api/history", params={"table": t["code"]}).json()["total"])
        assert c.get("/api/leaderboard/whot").json()["players"] == []


def test_leaderboard_of_an_unknown_game_or_preset(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        assert c.get("/api/leaderboard/chess").status_code == 404
        r = c.get("/api/leaderboard/whot", params={"preset": "nope"})
        assert r.status_code == 400 and "nigerian" in r.json()["message"]
        r = c.get("/api/leaderboard/whot", params={"preset": "english"})
        assert r.json()["preset"] == "english" and r.json()["players"] == []
        assert c.get("/api/players/nobody").status_code == 404
        assert c.get("/api/players/bot:nobody").status_code == 404


def test_migration_0006_upgrades_a_database_that_has_tables(db_url: str) -> None:
    """A server of 0005 with tables and seats stored, upgraded: its tables are unrated, its seats
    guests' (SQLite adds the columns in place: copying a table its seats refer to would fail)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from parlour.server.storage import MIGRATIONS, make_engine

    engine = make_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
        conn.execute(
            text(
                "INSERT INTO parlour_tables (code, created_at, game, players, rules, "
                "match_format, match_seed, move_clock, bot_delay, auto_next, status, host_hash, "
                "private, idle_timeout, on_idle, epoch, seq) VALUES ('OLD123', 1, 'whot', 2, "
                "'{}', 'single', 1, 0, 0, false, 'closed', 'h', false, 0, 'bot', 0, 0)"
            )
        )
        conn.execute(
            text("INSERT INTO parlour_seats (table_code, seat, name) VALUES ('OLD123', 0, 'Ada')")
        )
    engine.dispose()
    store = Store(db_url)  # migrates to the head
    try:
        old = store.tables.load_table("OLD123")
        assert old is not None and old.rated is False
        assert old.correspondence is False and old.on_timeout == "move"  # 0008 too, in place
        assert old.seats == [SeatRow(0, "Ada", None, None, None)]
    finally:
        store.close()


def test_migration_0012_keys_names_by_skeleton_and_keeps_earlier_look_alikes(
    empty_db_url: str,
) -> None:
    """Accounts made before skeletons: each is logged in by its name as before (its key written
    again without the old hand-made list); two that look alike both stay, and no third joins."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from parlour.server.storage import MIGRATIONS, make_engine

    engine = make_engine(empty_db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0011")
        # name_key as the hand-made list made it: Cyrillic "асе" was "ace"
        for i, (name, key) in enumerate(
            [("\u0430\u0441\u0435", "ace"), ("alice", "alice"), ("al\u0131ce", "al\u0131ce")]
        ):
            conn.execute(
                text(
                    "INSERT INTO parlour_accounts (id, username, name_key, password_hash, "
                    "created_at) VALUES (:id, :name, :key, 'h', 1)"
                ),
                {"id": i + 1, "name": name, "key": key},
            )
    engine.dispose()
    store = Store(empty_db_url)  # migrates to the head
    try:
        cyrillic = store.accounts.account_by_key(name_key("\u0430\u0441\u0435"))
        assert cyrillic is not None and cyrillic["id"] == 1
        assert (
            store.accounts.account_by_key(name_key("ace")) is None
        )  # Latin "ace" is another name now
        assert store.accounts.account_by_key(name_key("al\u0131ce"))["id"] == 3  # type: ignore[index]
        skeletons = [store.accounts.account_by_id(i)["name_skeleton"] for i in (1, 2, 3)]  # type: ignore[index]
        assert skeletons == [name_skeleton("ace"), name_skeleton("alice"), None]
        made = store.accounts.create_account(
            "\u0251lice", "\u0251lice", "h", name_skeleton("\u0251lice")
        )
        assert made is None  # ɑlice: taken by its look
    finally:
        store.close()


def test_the_store_keeps_accounts_and_sessions(db_url: str) -> None:
    store = Store(db_url)
    try:
        ada = store.accounts.create_account("Ada", "ada", "hash")
        assert ada is not None
        assert store.accounts.create_account("ADA", "ada", "hash") is None  # the key is unique
        store.accounts.new_session(ada, "h1")
        store.accounts.new_session(ada, "h2")
        assert store.accounts.session_account("h1", 0.0) == {"id": ada, "username": "Ada"}
        assert store.accounts.session_account("h1", time.time() + 10) is None  # expired: and gone
        assert store.accounts.session_account("h1", 0.0) is None
        store.accounts.new_session(ada, "h3")
        assert store.accounts.drop_sessions(ada, keep="h3") == 1  # the others: h2
        assert store.accounts.session_account("h3", 0.0) is not None  # the one asking stays
        assert (
            store.accounts.prune_sessions(time.time() + 10) == 1
        )  # the sweep forgets expired ones
        assert store.accounts.session_account("h3", 0.0) is None
        store.accounts.delete_account(ada)
        assert (
            store.accounts.account_by_key("ada") is None
            and store.accounts.account_by_id(ada) is None
        )
        assert (
            store.accounts.create_account("Ada", "ada", "hash") is not None
        )  # the name is free again
    finally:
        store.close()


def test_every_account_route_is_in_the_openapi_page(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        paths = c.get("/openapi.json").json()["paths"]
    for path in (
        "/api/account/signup",
        "/api/account/login",
        "/api/account",
        "/api/account/logout",
        "/api/account/logout-everywhere",
        "/api/account/password",
        "/api/account/delete",
        "/api/account/claim",
        "/api/leaderboard/{game}",
        "/api/players/{name}",
    ):
        assert path in paths, path


# --- the terminal ---------------------------------------------------------------------------------
@in_process
def test_parlour_leaderboard_prints_the_table_from_the_database(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from parlour.cli import main as parlour_main

    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        rated_game(c, ada)
        wait_for(lambda: c.get("/api/leaderboard/whot").json()["players"])
    assert parlour_main(["leaderboard", "whot", "--database", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "Ada" in out and "easy bot (random)" in out and "nigerian" in out
    assert re.search(r"\b1[0-9]{3}\?", out)  # a 1500-based rating, provisional after one game
    assert (
        parlour_main(["leaderboard", "whot", "--preset", "english", "--database", sqlite_url]) == 0
    )
    assert "No rated games of whot (english) yet" in capsys.readouterr().out
    assert parlour_main(["leaderboard", "chess", "--database", sqlite_url]) == 2
    assert parlour_main(["leaderboard", "whot", "--server", "ftp://x"]) == 2


# --- rating integrity: leaving, hints, weakened bots (docs/architecture.md, "Leaving a rated game")
def _rated_table(c: Any, account: dict[str, Any], **body: Any) -> dict[str, Any]:
    body = {"game": "whot", "players": 2, "match": "single", "name": "me", "rated": True, **body}
    r = c.post("/api/tables", json=body, headers=csrf(account))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


@in_process
def test_a_host_who_closes_a_rated_game_loses_it(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        t = _rated_table(c, ada, bots={"1": "medium"})
        me = Seat(c, t["code"], t["token"], t["seat"])
        me.until("view")  # the game has started
        auth = {"Authorization": f"Bearer {t['token']}"}
        assert c.post(f"/api/tables/{t['code']}/close", headers=auth).status_code == 200
        me.close()
        board = wait_for(lambda: c.get("/api/leaderboard/whot").json()["players"])
        by_name = {p["name"]: p for p in board}
        assert set(by_name) == {"Ada", "medium bot"}
        assert by_name["Ada"]["games"] == 1 and by_name["Ada"]["wins"] == 0
        assert by_name["medium bot"]["wins"] == 1  # the one who stayed wins
        assert [p["name"] for p in board] == ["medium bot", "Ada"]


@in_process
def test_closing_a_rated_table_between_games_rates_nothing(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        t = _rated_table(c, ada, bots={"1": "medium"}, match="series-3")
        play_to_the_end(c, t["code"], t["token"], t["seat"])
        board = wait_for(lambda: c.get("/api/leaderboard/whot").json()["players"])
        auth = {"Authorization": f"Bearer {t['token']}"}
        assert c.post(f"/api/tables/{t['code']}/close", headers=auth).status_code == 200
        assert c.get("/api/leaderboard/whot").json()["players"] == board  # one game, once


def test_a_person_a_bot_stood_in_for_loses_the_rated_game(db_url: str) -> None:
    """Ada went away and the hint bot played her seat on (the seat keeps her account): the bot
    won, but Ada left, so Ada ranks last and the bot standing in is not rated."""
    store = Store(db_url)
    try:
        ada = store.accounts.create_account("Ada", "ada", "hash")
        bob = store.accounts.create_account("Bob", "bob", "hash")
        row = TableRow(
            code="LEFT01", created_at=time.time(), game="whot", players=3, preset="nigerian",
            rules={}, match_format="single", match_seed=1, move_clock=0.0, bot_delay=0.0,
            auto_next=False, status="waiting", host_hash="h", rated=True,
            seats=[
                SeatRow(0, "hint bot (for Ada)", "hint", None, ada),
                SeatRow(1, "Bob", None, "t", bob),
                SeatRow(2, "greedy bot", "greedy", None),
            ],
        )  # fmt: skip
        fence = store.tables.create_table(row, "w1")
        assert fence is not None
        game_id, fence = store.tables.start_game(fence, 0, 3, [0, 1, 2], 7, {}, {})
        result = {"winners": [0], "points": [0, 5, 9], "lower_is_better": True, "ranks": [1, 2, 3]}
        store.tables.finish_game(fence, game_id, result, "finished")
        board = store.ratings.leaderboard("whot", "nigerian")
        assert [(p["name"], p["games"], p["wins"]) for p in board] == [
            ("Bob", 1, 0.0),
            ("greedy bot", 1, 0.0),
            ("Ada", 1, 0.0),
        ]
        assert [h["rank"] for h in store.ratings.profile(f"a:{ada}")["history"]] == [3]  # type: ignore[index]
    finally:
        store.close()


@in_process
def test_a_rated_game_left_to_bots_alone_is_stopped_at_the_cap_and_lost_by_who_left(
    sqlite_url: str,
) -> None:
    """Ada went away and the hint bot took her seat: bots alone play on, and past the move cap
    (`bots_only_move_cap`) the table is closed; Ada left the game, so she loses it."""
    with server(sqlite_url, bots_only_move_cap=1, bot_delay=0) as c:
        ada = signup(c, "Ada")
        t = _rated_table(c, ada, bots={"1": "medium"}, bot_delay=0)
        watcher = Seat(c, t["code"], None, None)
        watcher.until("view")  # the game has started
        room = c.app.state.worker.tables[t["code"]]
        c.portal.call(_hand_to_a_bot, room, t["seat"])
        assert "without an end" in watcher.until("closed")["message"]
        board = wait_for(lambda: c.get("/api/leaderboard/whot").json()["players"])
        assert [(p["name"], p["games"], p["wins"]) for p in board] == [
            ("medium bot", 1, 1),
            ("Ada", 1, 0),
        ]


async def _hand_to_a_bot(room: Any, seat: int) -> None:
    async with room.lock:
        await room.seat_idle(seat, "bot")


@in_process
def test_a_rated_table_hands_an_idle_seat_to_a_bot(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        for body, words in (
            ({"idle_timeout": 0}, "idle_timeout"),
            ({"idle_timeout": 60, "on_idle": "free"}, "on_idle"),
        ):
            r = c.post(
                "/api/tables",
                json={"game": "whot", "players": 2, "name": "me", "rated": True, **body},
                headers=csrf(ada),
            )
            assert r.status_code == 400 and words in r.json()["message"], r.text


@in_process
def test_no_hints_at_a_rated_table(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        t = _rated_table(c, ada, bots={"1": "medium"})
        me = Seat(c, t["code"], t["token"], t["seat"])
        v = me.until("view")
        while v["to_play"] != t["seat"]:
            v = me.until("view")
        me.send({"type": "hint"})
        answer = me.recv()
        while answer["type"] not in ("hint", "error"):
            answer = me.recv()
        assert answer["type"] == "error", answer
        assert answer["code"] == "rated" and "rated" in answer["message"]
        assert c.get(f"/api/tables/{t['code']}").json()["rated"]


@in_process
def test_rated_bots_are_levels_and_rated_as_their_level(sqlite_url: str) -> None:
    with server(sqlite_url) as c:
        ada = signup(c, "Ada")
        for weak in ("ismcts:iterations=1", "ismcts", "ismcts:iterations=5000"):
            r = c.post(
                "/api/tables",
                json={"game": "whot", "players": 2, "name": "me", "rated": True,
                      "bots": {"1": weak}},
                headers=csrf(ada),
            )  # fmt: skip
            assert r.status_code == 400 and r.json()["error"] == "bad_bot", r.text
            assert "level" in r.json()["message"]
        rated_game(c, ada, bots={"1": "expert"})  # a level by its name
        rated_game(c, ada, bots={"1": "counter"})  # … or by its bot's spec: the same player
        board = wait_for(lambda: c.get("/api/leaderboard/whot").json()["players"])
        bots = [p for p in board if p["kind"] == "bot"]
        assert [(p["player"], p["games"]) for p in bots] == [("bot:counter", 2)]
