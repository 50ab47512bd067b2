"""Server hardening, findings 3 and 8 and a smaller one: the decks of games still to be played
cannot be worked out from published records; a match has a bounded length; one server owns a
SQLite file; a database the server cannot write is refused with a sentence, not a traceback."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Seat, client, free_port, new_table

import parlour
from parlour.server.storage import Store, StoreError
from parlour.server.tables import game_seeder


def finished_seeds(c: object, code: str) -> list[int]:
    games = c.get(f"/api/tables/{code}/records").json()["games"]  # type: ignore[attr-defined]
    return [int(g["seed"]) for g in games]


def test_each_games_seed_is_keyed_by_the_servers_secret(sqlite_url: str) -> None:
    """The seed of game i is HMAC(secret, "CODE:i"): records still replay exactly, but no number of
    published seeds tells the next one without the secret (which no answer ever contains)."""
    with client(sqlite_url) as c:
        t = new_table(
            c, game="whot", players=2, match="rounds-3", auto_next=True, bot_delay=0,
            bots={"0": "greedy", "1": "greedy"},
        )  # fmt: skip
        watcher = Seat(c, t["code"], None, None)
        while len(finished_seeds(c, t["code"])) < 3:
            watcher.recv()
        seeds = finished_seeds(c, t["code"])
        secret = bytes.fromhex(_stored_secret(c, sqlite_url))
        for i, seed in enumerate(seeds):
            digest = hmac.new(secret, f"{t['code']}:{i}".encode(), hashlib.sha256).digest()
            assert seed == int.from_bytes(digest[:8], "big") >> 1
        for rec in c.get(f"/api/tables/{t['code']}/records").json()["games"]:
            assert parlour.replay(rec).is_over  # a finished game's record replays exactly
        # the secret is in no answer the server gives
        for path in ("/api/games", f"/api/tables/{t['code']}", "/api/history", "/openapi.json"):
            assert secret.hex() not in c.get(path).text


def _stored_secret(c: Any, sqlite_url: str) -> str:
    """The seeds' secret as a bystander reads it: from the test's SQLite file (read-only: the
    server holds it), or in cluster mode from the cluster's PostgreSQL database."""
    query = "SELECT value FROM parlour_secrets WHERE name = 'seeds'"
    database = getattr(c, "database", None)
    if database is None:
        path = sqlite_url.removeprefix("sqlite:///")
        return str(sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(query).fetchone()[0])
    import sqlalchemy

    from parlour.server.storage import database_url

    engine = sqlalchemy.create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            return str(conn.execute(sqlalchemy.text(query)).scalar_one())
    finally:
        engine.dispose()


def test_another_secret_deals_other_games_for_the_same_public_facts() -> None:
    a, b = game_seeder(b"\x01" * 32, "ABCDEF"), game_seeder(b"\x02" * 32, "ABCDEF")
    assert [a(i) for i in range(5)] != [b(i) for i in range(5)]
    assert len({a(i) for i in range(1000)}) == 1000 and all(0 <= a(i) < 2**63 for i in range(9))


@pytest.mark.parametrize("match", ["rounds-1000000", "series-101", "elimination-99999"])
def test_a_match_has_a_bounded_length(sqlite_url: str, match: str) -> None:
    with client(sqlite_url) as c:
        r = c.post("/api/tables", json={"game": "whot", "players": 2, "match": match})
        assert r.status_code == 400 and "at most" in r.json()["message"]


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
    first = Store(url)
    try:
        with pytest.raises(StoreError, match="already using"):
            Store(url)
        # and from the command line: a sentence and exit code 2, no traceback
        out = subprocess.run(
            [sys.executable, "-m", "parlour.cli", "serve", "--database", url,
             "--port", str(free_port())],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert out.returncode == 2, out.stdout + out.stderr
        assert "another parlour server" in out.stdout and "Traceback" not in out.stdout + out.stderr
    finally:
        first.close()
    Store(url).close()  # once the first has gone, the file is free again


def test_a_database_that_cannot_be_written_is_a_clear_message(tmp_path: Path) -> None:
    """A read-only database (here opened read-only, as a read-only file would be for anyone but
    root) is refused at startup with SQLite's own reason, not a traceback later."""
    path = tmp_path / "parlour.sqlite3"
    Store(f"sqlite:///{path}").close()
    with pytest.raises(StoreError, match=r"cannot use the database.*readonly"):
        Store(f"sqlite:///file:{path}?mode=ro&uri=true")
