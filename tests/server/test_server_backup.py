"""`parlour backup` and `parlour restore` (server/backup.py): a table mid-game, backed up while
its server runs, restored into a new database and served again — the game goes on from where it
was when the backup was taken."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Seat, client, greedy_chooser, join, new_table, play_out

import parlour
from parlour.cli import main

pytestmark = pytest.mark.in_process(
    "backs up and restores the database its own server uses (a cluster's is the pool's)"
)


def play_some(c: Any, code: str, seats: dict[int, Seat], moves: int) -> int:
    """Play `moves` moves (each seat as the greedy bot would); the ply reached."""
    choose = greedy_chooser(parlour.make("whot", players=2))
    everyone = list(seats.values())
    for s in everyone:  # the first view of a new connection; later, the last one read
        if s.last is None:
            s.until("view")
    v = everyone[0].last
    assert v is not None
    for _ in range(moves):
        assert v["to_play"] is not None, "the game ended before the moves the test plays"
        mover = seats[v["to_play"]]
        mover.send({"type": "move", "move": choose(mover), "ply": v["ply"]})
        views = [s.until("view", ply=v["ply"] + 1) for s in everyone]  # every seat reads it
        v = views[0]
    return int(v["ply"])


def plays_on_from(url: str, code: str, tokens: dict[int, str], ply: int) -> None:
    """A server on a restored database: the table is where the backup left it, and plays on to
    the game's end."""
    with client(url) as c:
        seats = {i: Seat(c, code, tok, i) for i, tok in tokens.items()}
        first = [s.until("view") for s in seats.values()]
        assert {v["ply"] for v in first} == {ply}, "the game is not where the backup was taken"
        for s in seats.values():  # the play_out below reads each seat's next view afresh
            s.last, s.events = None, []
            s.send({"type": "view"})
        end = play_out(seats, [], greedy_chooser(parlour.make("whot", players=2)))
        assert end["to_play"] is None and end["ply"] > ply
        record = c.get(f"/api/tables/{code}/records").json()["games"][0]
        assert len(record["moves"]) == end["ply"], "the stored game lost or doubled moves"


def started(c: Any) -> tuple[str, dict[int, str], dict[int, Seat]]:
    t = new_table(c, game="whot", players=2, name="Ada", match="single")
    bo = join(c, t["code"], "Bo")
    tokens = {0: t["token"], 1: bo["token"]}
    return t["code"], tokens, {i: Seat(c, t["code"], tok, i) for i, tok in tokens.items()}


def test_a_sqlite_store_backed_up_while_serving_plays_on_restored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "live.sqlite3"
    backup_file = tmp_path / "backups" / "parlour-1.sqlite3"
    with client(f"sqlite:///{live}") as c:
        code, tokens, seats = started(c)
        ply = play_some(c, code, seats, 6)
        # while the server runs and holds the file
        assert main(["backup", "--database", str(live), str(backup_file)]) == 0
        assert "checked" in capsys.readouterr().out
        play_some(c, code, seats, 2)  # after the backup: not in it
        for s in seats.values():
            s.close()
    assert not (tmp_path / "backups" / "parlour-1.sqlite3.part").exists()
    with sqlite3.connect(backup_file) as db:  # one file, whole
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
    restored = tmp_path / "restored.sqlite3"
    assert main(["restore", str(backup_file), "--database", str(restored)]) == 0
    plays_on_from(f"sqlite:///{restored}", code, tokens, ply)


def test_backup_and_restore_refuse_what_would_lose_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "live.sqlite3"
    with client(f"sqlite:///{live}") as c:
        new_table(c, game="whot", players=2, name="Ada")
        out = tmp_path / "b.sqlite3"
        assert main(["backup", "--database", str(live), str(out)]) == 0
        capsys.readouterr()
        assert main(["backup", "--database", str(live), str(out)]) == 2  # no overwrite
        assert "exists" in capsys.readouterr().out
        assert main(["backup", "--database", str(live), "--force", str(out)]) == 0
        # restoring over the file a running server holds is refused
        assert main(["restore", str(out), "--database", str(live), "--force"]) == 2
        assert "already using" in capsys.readouterr().out
    assert main(["restore", str(out), "--database", str(live)]) == 2  # exists: needs --force
    assert main(["backup", "--database", str(tmp_path / "none.db"), str(out)]) == 2
    assert "no database at" in capsys.readouterr().out


def test_a_postgresql_store_is_backed_up_with_pg_dump_and_plays_on_restored(
    pg_cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = pg_cluster.new_database()
    backup_file = tmp_path / "parlour.dump"
    with client(url) as c:
        code, tokens, seats = started(c)
        ply = play_some(c, code, seats, 5)
        assert main(["backup", "--database", url, "--print", str(backup_file)]) == 0
        printed = capsys.readouterr().out
        assert "pg_dump" in printed and "--format=custom" in printed
        assert not backup_file.exists()  # printed, not run
        assert main(["backup", "--database", url, str(backup_file)]) == 0
        assert backup_file.stat().st_size > 0
        play_some(c, code, seats, 2)
        for s in seats.values():
            s.close()
    target = pg_cluster.new_database()  # empty, as pg_restore wants it
    assert main(["restore", str(backup_file), "--database", target]) == 0
    plays_on_from(target, code, tokens, ply)
