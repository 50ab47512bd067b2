"""Quick match (server/matchmaking.py): a queue in the database, matched by a rating band that
widens with waiting time, bots after a chosen wait, tickets that survive reloads.

Time is the queue's own clock, set by the tests (no sleeps); the background round of matching is
off (`quick_tick=0`) and the tests run a round themselves. The HTTP tests reach into the app (its
clock, a round of matching, the ratings table), so they run in process, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Seat, client
from sqlalchemy import insert, select

from parlour.server import matchmaking
from parlour.server.matchmaking import Entry, band, find_groups
from parlour.server.schema import accounts, ratings
from parlour.server.settings import Settings

pytestmark = pytest.mark.in_process("sets the queue's clock and runs its rounds in the test")

CHEAP = {"password_time_cost": 1, "password_memory_kib": 1024, "password_parallelism": 1}
PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def server(url: str, **settings: Any) -> Iterator[tuple[Any, Clock]]:
    # each person queues from an address of their own (X-Forwarded-For, trusted here): two
    # entries from one address never share a table
    settings = {"trust_forwarded": True, **settings}
    with client(url, quick_tick=0, **{**CHEAP, **settings}) as c:
        clock = Clock()
        c.app.state.quick.clock = clock
        yield c, clock


def tick(c: Any) -> int:
    made: int = c.portal.call(c.app.state.quick.tick)
    return made


ADDRESSES = (f"10.7.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def queue(c: Any, name: str | None = "Ada", **body: Any) -> dict[str, Any]:
    """Join the queue as a person of their own address (unless the headers name one)."""
    body = {"game": "whot", "players": 2, "name": name, **body}
    headers = {"x-forwarded-for": next(ADDRESSES), **body.pop("headers", {})}
    r = c.post("/api/quick", json=body, headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def status(c: Any, ticket: str | None, wait: float = 0, **kw: Any) -> dict[str, Any]:
    r = c.post("/api/quick/status", json={"ticket": ticket, "wait": wait}, **kw)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def until(pred: Any, timeout: float = 60.0) -> Any:
    """`pred()` once it is true (a condition, looked at every 20 ms, however slow the machine)."""
    end = time.monotonic() + timeout
    while not (got := pred()):
        assert time.monotonic() < end, "the condition did not come true"
        time.sleep(0.02)
    return got


def until_playing(c: Any, code: str) -> dict[str, Any]:
    info: dict[str, Any] = until(
        lambda: (got := c.get(f"/api/tables/{code}").json())["status"] == "playing" and got
    )
    return info


# --- the rules, without a server ------------------------------------------------------------------
def test_the_band_widens_with_waiting_and_opens_after_a_while() -> None:
    st = Settings()
    assert band(0, st) == st.quick_band_start
    assert band(10, st) == st.quick_band_start + 10 * st.quick_band_growth
    assert band(st.quick_band_open, st) is None


def test_groups_respect_ratings_early_and_widen_later() -> None:
    st = Settings()
    far, near, strong = Entry(1, 25.0, 0.0), Entry(2, 26.0, 0.0), Entry(3, 40.0, 0.0)
    # at once: the two close ratings play, the strong one waits
    assert [[e.id for e in g] for g, _ in find_groups([far, strong, near], 2, 0.0, st)] == [[1, 2]]
    assert find_groups([far, strong], 2, 0.0, st) == []
    assert find_groups([far, strong], 2, 30.0, st) == []  # ±10.5: 15 apart is too far yet
    assert len(find_groups([far, strong], 2, 50.0, st)) == 1  # ±15.5
    assert len(find_groups([far, strong], 2, st.quick_band_open, st)) == 1
    # a newcomer is taken by a long waiter's wide band
    assert len(find_groups([far, Entry(4, 40.0, 49.0)], 2, 50.0, st)) == 1


def test_bots_fill_a_table_only_for_entries_that_asked_after_their_wait() -> None:
    st = Settings()
    alone = Entry(1, 25.0, 0.0, bot_after=10.0)
    assert find_groups([alone], 3, 9.0, st) == []
    assert [(len(g), bots) for g, bots in find_groups([alone], 3, 10.0, st)] == [(1, 2)]
    patient = Entry(2, 25.0, 1.0)  # no bots for this one: it waits for people
    groups = find_groups([alone, patient], 3, 10.0, st)
    assert [([e.id for e in g], bots) for g, bots in groups] == [([1], 2)]
    helped = Entry(3, 25.0, 5.0, bot_after=60.0)  # it accepts bots: it joins the table
    groups = find_groups([alone, patient, helped], 4, 10.0, st)
    assert [([e.id for e in g], bots) for g, bots in groups] == [([1, 3], 2)]
    # three people of three: no bots needed
    assert [bots for _, bots in find_groups([alone, patient, helped], 3, 0.0, st)] == [0]


def test_one_account_never_meets_itself() -> None:
    st = Settings()
    assert find_groups([Entry(1, 25, 0, None, 7), Entry(2, 25, 0, None, 7)], 2, 100, st) == []


def test_one_address_never_meets_itself() -> None:
    """Two accounts of one person, from one address, are never seated against each other (a
    rated table of them would rate whatever they like); with an entry from elsewhere, each of
    them may play."""
    st = Settings()
    same = [Entry(1, 25, 0, None, 7, "home"), Entry(2, 25, 0, None, 8, "home")]
    assert find_groups(same, 2, 100, st) == []
    groups = find_groups([*same, Entry(3, 25, 0, None, 9, "away")], 2, 100, st)
    assert [sorted(e.id for e in g) for g, _ in groups] == [[1, 3]]


def test_two_accounts_queued_from_one_address_are_not_matched(db_url: str) -> None:
    home = {"x-forwarded-for": "10.8.0.2"}
    with server(db_url, signups_per_minute=100) as (c, _):
        tickets = []
        for name in ("twin_one", "twin_two"):
            c.cookies.clear()
            r = c.post("/api/account/signup", json={"username": name, "password": PASSWORD})
            csrf = {"x-csrf-token": r.json()["csrf"]}
            entry = queue(c, None, preset="nigerian", headers={**home, **csrf})
            tickets.append(entry["ticket"])
        c.cookies.clear()
        assert tick(c) == 0
        assert [status(c, t)["status"] for t in tickets] == ["waiting", "waiting"]
        other = queue(c, "Bola", preset="nigerian")  # from an address of its own
        assert other["status"] == "matched"
        assert sorted(status(c, t)["status"] for t in tickets) == ["matched", "waiting"]


# --- over HTTP ------------------------------------------------------------------------------------
def test_two_guests_are_matched_into_one_table(db_url: str) -> None:
    with server(db_url) as (c, _):
        a = queue(c, "Ada")
        assert a["status"] == "waiting" and a["table"] is None
        # in the numbers people see (1500-based): mu 25 ± 3 is 1374 to 1626
        assert "Players rated 1374 to 1626 (you: 1500)" in a["band_words"]
        assert a["rating_shown"] == 1500 and a["band_shown"] == {"low": 1374, "high": 1626}
        b = queue(c, "Bola")
        assert b["status"] == "matched"  # the last one needed is seated at once
        a2 = status(c, a["ticket"])
        assert a2["status"] == "matched"
        assert a2["table"]["code"] == b["table"]["code"]
        assert {a2["table"]["seat"], b["table"]["seat"]} == {0, 1}
        code = b["table"]["code"]
        info = until_playing(c, code)
        assert sorted(s["name"] for s in info["seats"]) == ["Ada", "Bola"]
        assert info["rated"] is False and info["private"] is True
        for mine in (a2, b):  # each token is that seat's
            view = c.get(
                f"/api/tables/{code}/view",
                headers={"authorization": f"Bearer {mine['table']['token']}"},
            ).json()
            assert view["seat"] == mine["table"]["seat"]


def test_the_band_keeps_ratings_apart_early_and_widens_later(db_url: str) -> None:
    with server(db_url) as (c, clock):
        for name in ("strong_one", "new_one"):
            r = c.post("/api/account/signup", json={"username": name, "password": PASSWORD})
            assert r.status_code == 200, r.text
        store = c.app.state.db.store
        with store.engine.begin() as conn:
            strong = conn.execute(
                select(accounts.c.id).where(accounts.c.username == "strong_one")
            ).scalar_one()
            conn.execute(
                insert(ratings).values(
                    player=f"a:{strong}",
                    game="whot",
                    preset="nigerian",
                    mu=35.0,
                    sigma=3.0,
                    games=20,
                    wins=15.0,
                    updated_at=0.0,
                )
            )
        tickets = {}
        for name in ("strong_one", "new_one"):
            r = c.post("/api/account/login", json={"username": name, "password": PASSWORD})
            headers = {"x-csrf-token": r.json()["csrf"]}
            c.headers.update(headers)  # every write of the session carries its token
            e = queue(c, None, preset="nigerian", headers=headers)
            tickets[name] = e["ticket"]
            assert e["status"] == "waiting"
        assert status(c, tickets["strong_one"])["rating"] == 35.0
        assert status(c, tickets["new_one"])["rating"] == 25.0
        # 10 apart: ±3 at first, ±8 after 20 s: still apart
        clock.now += 20
        assert tick(c) == 0
        assert status(c, tickets["new_one"])["band"] == {"low": 17.0, "high": 33.0}
        clock.now += 10  # ±10.5 after 30 s: together
        assert tick(c) == 1
        one, two = status(c, tickets["strong_one"]), status(c, tickets["new_one"])
        assert one["table"]["code"] == two["table"]["code"]
        info = until_playing(c, one["table"]["code"])
        assert sorted(s["name"] for s in info["seats"]) == ["new_one", "strong_one"]
        assert info["rated"] is True  # every person at it is logged in


def test_bots_fill_the_seats_after_the_chosen_wait(db_url: str) -> None:
    with server(db_url) as (c, clock):
        with_bots = queue(c, "Ada", players=3, bot_after=10)
        people_only = queue(c, "Bola", players=3)
        clock.now += 9
        assert tick(c) == 0
        assert status(c, with_bots["ticket"])["bots_in"] == 1.0
        clock.now += 1
        assert tick(c) == 1
        done = status(c, with_bots["ticket"])
        assert done["status"] == "matched"
        assert status(c, people_only["ticket"])["status"] == "waiting"
        info = until_playing(c, done["table"]["code"])
        assert sorted(s["bot"] is not None for s in info["seats"]) == [False, True, True]
        assert info["seats"][done["table"]["seat"]]["name"] == "Ada"


def test_leaving_the_queue(db_url: str) -> None:
    with server(db_url) as (c, _):
        a = queue(c, "Ada")
        r = c.post("/api/quick/leave", json={"ticket": a["ticket"]})
        assert r.status_code == 200 and r.json()["status"] == "left"
        assert queue(c, "Bola")["status"] == "waiting"  # nobody to meet
        assert status(c, a["ticket"])["status"] == "left"


def test_an_entry_nobody_asks_after_expires(db_url: str) -> None:
    with server(db_url, quick_ttl=60) as (c, clock):
        a = queue(c, "Ada")
        clock.now += 30
        assert status(c, a["ticket"])["status"] == "waiting"  # asked after: 60 s more
        clock.now += 59
        tick(c)
        assert status(c, a["ticket"])["status"] == "waiting"
        clock.now += 61
        tick(c)
        assert status(c, a["ticket"])["status"] == "expired"
        assert queue(c, "Bola")["status"] == "waiting"  # not matched with the expired entry


def test_one_entry_at_a_time_and_per_client_limits(db_url: str) -> None:
    home = {"x-forwarded-for": "10.8.0.1"}  # one household's address
    with server(db_url, quick_per_client=2) as (c, _):
        a = queue(c, "Ada", game="sorry", players=4, headers=home)
        again = c.post("/api/quick", json={"game": "whot", "name": "Ada", "ticket": a["ticket"]})
        assert again.status_code == 409 and again.json()["error"] == "queued"
        queue(c, "Bola", game="sorry", players=4, headers=home)
        body = {"game": "sorry", "players": 4, "name": "Chi"}
        third = c.post("/api/quick", json=body, headers=home)
        assert third.status_code == 429 and third.json()["error"] == "too_many"
        r = c.post("/api/account/signup", json={"username": "ada_l", "password": PASSWORD})
        headers = {"x-csrf-token": r.json()["csrf"]}
        left = c.post("/api/quick/leave", json={"ticket": a["ticket"]}, headers=headers)
        assert left.status_code == 200, left.text
        queue(c, None, game="sorry", players=4, headers=headers)
        twice = c.post("/api/quick", json={"game": "whot"}, headers=headers)
        assert twice.status_code == 409 and twice.json()["error"] == "queued"
        # the account's entry is found without its ticket (another browser, logged in)
        assert status(c, None, headers=headers)["name"] == "ada_l"
    with server(db_url, quick_joins_per_minute=2) as (c, _):
        for name in ("A", "B"):
            t = queue(c, name, game="sorry", players=4, headers=home)["ticket"]
            c.post("/api/quick/leave", json={"ticket": t})
        body = {"game": "sorry", "players": 4, "name": "C"}
        r = c.post("/api/quick", json=body, headers=home)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"


def test_bad_requests_are_answered(db_url: str) -> None:
    with server(db_url) as (c, _):
        for body, code in (
            ({"game": "chess", "name": "A"}, 400),
            ({"game": "whot", "preset": "nope", "name": "A"}, 400),
            ({"game": "whot", "players": 1, "name": "A"}, 400),
            ({"game": "whot", "name": "A", "bot_after": 1}, 400),
            ({"game": "whot"}, 400),
        ):
            r = c.post("/api/quick", json=body)
            assert r.status_code == code, (body, r.text)
        assert c.post("/api/quick/status", json={"ticket": "nope"}).status_code == 404
        # a page asking whether it is queued at all is told "none", not an error
        quiet = c.post("/api/quick/status", json={"ticket": "nope", "quiet": True})
        assert quiet.status_code == 200 and quiet.json() == {"status": "none"}
        assert c.post("/api/quick/status", json={}).status_code == 401


def test_a_reconnect_with_the_ticket_gets_the_same_table_and_seat(db_url: str) -> None:
    with server(db_url) as (c, _):
        a = queue(c, "Ada")
        queue(c, "Bola")
        first, again = status(c, a["ticket"]), status(c, a["ticket"])
        assert first["table"] == again["table"] and first["table"]["token"]
        code = first["table"]["code"]
        until_playing(c, code)
        seat = Seat(c, code, first["table"]["token"], first["table"]["seat"])
        welcome = seat.until("welcome")
        assert welcome["seat"] == first["table"]["seat"]
        seat.close()


def test_a_long_poll_is_woken_by_the_match_and_the_latency(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting entry's long poll is answered by the match itself (the matching gateway wakes
    it), not by its periodic read: with that read put off beyond the poll's wait, the answer
    still comes long before the poll would end. Prints the queue-to-table latency: from the last
    needed entry's join to both players holding their table and to the game being played."""
    monkeypatch.setattr(matchmaking, "REREAD_EVERY", 3600.0)
    wait = 20.0
    with server(db_url) as (c, _):
        a = queue(c, "Ada")
        answer: dict[str, Any] = {}
        done_at: dict[str, float] = {}

        def poll() -> None:
            answer.update(status(c, a["ticket"], wait=wait))
            done_at["a"] = time.perf_counter()

        asked = time.perf_counter()
        waiter = threading.Thread(target=poll)
        waiter.start()
        quick = c.app.state.quick
        until(lambda: quick._wake)  # the long poll is waiting
        t0 = time.perf_counter()
        b = queue(c, "Bola")
        t_b = time.perf_counter()
        waiter.join(2 * wait)
        assert answer["status"] == "matched" and answer["table"]["code"] == b["table"]["code"]
        # a poll not woken would have read its entry again only at its end, `wait` s after it
        # was asked: woken, it answered in a fraction of that (however loaded the machine)
        assert done_at["a"] - asked < wait / 2
        until_playing(c, b["table"]["code"])
        t_play = time.perf_counter()
        both = max(t_b, done_at["a"]) - t0
        print(
            f"\nquick match latency ({db_url.split(':')[0]}): joiner {1000 * (t_b - t0):.0f} ms, "
            f"both seated {1000 * both:.0f} ms, game playing {1000 * (t_play - t0):.0f} ms"
        )


def test_two_gateways_racing_one_match_make_one_table(db_url: str) -> None:
    """Cluster mode: any gateway may form a match. The second of two overlapping matches finds an
    entry taken and writes nothing — no second table, no entry moved."""
    from parlour.server.storage import SeatRow, Store, TableRow
    from parlour.server.storage.matchmaking import Taken

    store = Store(db_url)
    try:
        ids = [
            store.quick.join(
                {
                    "ticket_hash": f"t{i}", "client": "c", "account_id": None, "name": f"P{i}",
                    "game": "whot", "preset": "nigerian", "players": 2, "mu": 25.0,
                    "bot_after": None, "joined_at": 0.0, "seen_at": 0.0, "status": "waiting",
                },
                10,
            )
            for i in range(3)
        ]  # fmt: skip

        def row(code: str) -> TableRow:
            return TableRow(
                code=code, created_at=0.0, game="whot", players=2, preset="nigerian", rules={},
                match_format="single", match_seed=1, move_clock=0.0, bot_delay=0.0,
                auto_next=False, status="waiting", host_hash="h",
                seats=[SeatRow(0, "P0", None, "a"), SeatRow(1, "P1", None, "b")],
            )  # fmt: skip

        store.quick.match({ids[0]: 0, ids[1]: 1}, row("AAAAAA"), "w1", 1.0)
        with pytest.raises(Taken):  # another gateway, a moment later: ids[1] is taken
            store.quick.match({ids[2]: 0, ids[1]: 1}, row("BBBBBB"), "w2", 1.0)
        assert store.tables.code_exists("AAAAAA") and not store.tables.code_exists("BBBBBB")
        with store.engine.connect() as conn:
            from parlour.server.schema import quick_entries

            got = dict(conn.execute(select(quick_entries.c.id, quick_entries.c.status)).all())
        assert got == {ids[0]: "matched", ids[1]: "matched", ids[2]: "waiting"}
    finally:
        store.close()


def test_every_quick_match_route_is_in_the_openapi_page(db_url: str) -> None:
    with server(db_url) as (c, _):
        paths = c.get("/openapi.json").json()["paths"]
        assert {"/api/quick", "/api/quick/status", "/api/quick/leave"} <= set(paths)


def test_gateways_of_a_cluster_share_one_queue(tmp_path: Path) -> None:
    """Two gateways and a worker on one bus and one database, as a cluster runs them: a long poll
    on one gateway is woken by a match formed on the other, and two gateways running rounds of
    matching at once over the same entries open each table once."""
    from parlour.server.bus import LocalBus
    from parlour.server.database import Database
    from parlour.server.gateway import Gateway
    from parlour.server.matchmaking import QuickMatch
    from parlour.server.storage import Store
    from parlour.server.worker import TableWorker

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'cluster.sqlite3'}")
        db, bus = Database(store), LocalBus()
        settings = Settings(bot_delay=0.0, quick_tick=0, quick_per_client=100)
        secret = await db.call(store.secret, "seeds")
        worker = TableWorker(db, bus, settings, secret)
        await worker.start()
        gateways = [Gateway(db, bus, settings, secret, f"gw-{n}") for n in "ab"]
        quick = [QuickMatch(db, g, settings) for g in gateways]
        for g, qm in zip(gateways, quick, strict=True):
            await g.start()
            await qm.start()
        clock = Clock()
        for qm in quick:
            qm.clock = clock
        guest: dict[str, Any] = {"game": "whot", "preset": None, "players": 2, "account": None}
        try:
            ticket, _ = await quick[0].join("c-ada", name="Ada", bot_after=None, **guest)
            poll = asyncio.ensure_future(quick[1].entry(ticket, None, wait=10))
            await asyncio.sleep(0.2)
            t0 = time.perf_counter()
            _, bola = await quick[0].join("c-bola", name="Bola", bot_after=None, **guest)
            ada = await poll
            assert time.perf_counter() - t0 < 0.9  # the bus woke it, not the second's read
            assert ada["status"] == "matched" and ada["table"] == {
                **ada["table"],
                "code": bola["table"]["code"],
            }
            assert ada["table"]["token"] != bola["table"]["token"]
            # entries that may sit with bots after 10 s, in two pools: no table at first; then
            # two gateways run a round at once over the same entries, and each pool gets one
            tickets = []
            for n, (game, players) in enumerate([("sorry", 4)] * 3 + [("whot", 3)] * 2):
                t, e = await quick[n % 2].join(
                    f"c{n}",
                    name=f"P{n}",
                    bot_after=10,
                    **{**guest, "game": game, "players": players},
                )
                assert e["status"] == "waiting"
                tickets.append(t)
            clock.now += 10
            made = await asyncio.gather(quick[0].tick(), quick[1].tick())
            assert sum(made) == 2, made
            codes = [(await quick[1].entry(t, None))["table"]["code"] for t in tickets]
            assert len(set(codes[:3])) == 1 and len(set(codes[3:])) == 1
            assert codes[0] != codes[3]
            seats = [(await quick[0].entry(t, None))["table"]["seat"] for t in tickets]
            assert len(set(seats[:3])) == 3 and len(set(seats[3:])) == 2
        finally:
            for qm in quick:
                await qm.stop()
            for g in gateways:
                await g.stop()
            await worker.stop()
            await bus.close()
            db.shutdown()
            store.close()

    asyncio.run(main())
