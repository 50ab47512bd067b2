"""Tournaments through the server: Swiss and elimination, played to the end at real tables by the
server's bots, the standings checked against the stored games independently; the pairing rules;
the API's bounds; a restart in the middle."""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any

import pytest
from server_testkit import Seat, client
from sqlalchemy import create_engine, select

from parlour.server.schema import games, tournament_entrants, tournament_tables
from parlour.server.tournament import Entrant, Outcome, swiss_round

SWISS_GAME = "whoswho-books"  # two players, and the hint bot ends a game in about 50 moves
ELIM_GAME = "whot"  # tables of four: the hint bot ends a game in about 140 moves


def make(c: Any, **body: Any) -> dict[str, Any]:
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def start(c: Any, made: dict[str, Any]) -> None:
    auth = {"Authorization": f"Bearer {made['host_token']}"}
    r = c.post(f"/api/tournaments/{made['id']}/start", headers=auth)
    assert r.status_code == 200, r.text


def wait_finished(c: Any, tid: str, limit: float = 600.0) -> dict[str, Any]:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        got: dict[str, Any] = c.get(f"/api/tournaments/{tid}").json()
        if got["status"] == "finished":
            return got
        time.sleep(0.2)
    raise AssertionError(f"tournament {tid} did not finish: round {got['round']}")


def stored(url: str, tid: str) -> tuple[dict[int, str], list[dict[str, Any]]]:
    """Straight from the database: entrants' names, and every round's tables with the stored
    result of their game (mapped to entrants by the game's seats)."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        names = {
            r.number: r.name
            for r in conn.execute(
                select(tournament_entrants).where(tournament_entrants.c.tournament_id == tid)
            )
        }
        rows = []
        for r in conn.execute(
            select(tournament_tables)
            .where(tournament_tables.c.tournament_id == tid)
            .order_by(tournament_tables.c.round, tournament_tables.c.id)
        ):
            entry: dict[str, Any] = {"round": r.round, "code": r.table_code, "entrants": r.entrants}
            if r.table_code is not None:
                g = conn.execute(select(games).where(games.c.table_code == r.table_code)).one()
                assert g.finished_at is not None, r.table_code
                by_player = [r.entrants[s] for s in g.seats]
                entry["by_player"] = by_player
                entry["result"] = g.result
            rows.append(entry)
    engine.dispose()
    return names, rows


def check_swiss(url: str, got: dict[str, Any], n: int, rounds: int) -> None:
    names, rows = stored(url, got["id"])
    assert len(names) == n
    score = {k: 0.0 for k in names}
    opponents: dict[int, list[int]] = {k: [] for k in names}
    for r in range(1, rounds + 1):
        this = [x for x in rows if x["round"] == r]
        seated = [e for x in this for e in x["entrants"]]
        assert sorted(seated) == sorted(names), f"round {r}: everyone plays once"
        for x in this:
            if x["code"] is None:
                score[x["entrants"][0]] += 1.0
                continue
            a, b = x["by_player"]
            ra, rb = x["result"]["ranks"]
            if ra == rb:
                score[a] += 0.5
                score[b] += 0.5
            else:
                score[a if ra < rb else b] += 1.0
            opponents[a].append(b)
            opponents[b].append(a)
    assert max(x["round"] for x in rows) == rounds
    for k, opp in opponents.items():
        assert len(opp) == len(set(opp)), f"entrant {k} met someone twice: {opp}"
    buchholz = {k: sum(score[o] for o in opp) for k, opp in opponents.items()}
    table = got["standings"]
    assert [x["place"] for x in table] == list(range(1, n + 1))
    for x in table:
        assert x["name"] == names[x["number"]]
        assert x["score"] == score[x["number"]], x
        assert x["buchholz"] == buchholz[x["number"]], x
    keys = [(-score[x["number"]], -buchholz[x["number"]]) for x in table]
    assert keys == sorted(keys), "standings in the order of score, then Buchholz"


def check_elimination(url: str, got: dict[str, Any], n: int) -> None:
    names, rows = stored(url, got["id"])
    assert len(names) == n
    last = max(x["round"] for x in rows)

    def best_first(x: dict[str, Any]) -> list[int]:
        res = x["result"]
        hands = res.get("hand_counts") or [0] * len(res["ranks"])
        sign = 1 if res["lower_is_better"] else -1
        order = sorted(
            range(len(x["by_player"])),
            key=lambda p: (res["ranks"][p], sign * res["points"][p], hands[p], x["by_player"][p]),
        )
        return [x["by_player"][p] for p in order]

    field = set(names)
    for r in range(1, last + 1):
        this = [x for x in rows if x["round"] == r]
        assert all(x["code"] is not None for x in this), "no byes in an elimination"
        assert all(3 <= len(x["entrants"]) <= 4 for x in this) or len(this) == 1
        assert sorted(e for x in this for e in x["entrants"]) == sorted(field), f"round {r}"
        field = {e for x in this for e in best_first(x)[: math.ceil(len(x["entrants"]) / 2)]}
    final = [x for x in rows if x["round"] == last]
    assert len(final) == 1
    top = best_first(final[0])
    table = got["standings"]
    assert [x["place"] for x in table] == list(range(1, n + 1))
    assert [x["number"] for x in table[: len(top)]] == top, "the final table's places first"
    assert table[0]["status"] == "winner"
    out_round = {x["number"]: x["round"] for x in table}
    rounds_in = [out_round[x["number"]] for x in table]
    assert rounds_in == sorted(rounds_in, reverse=True), "the later out, the better placed"


@pytest.mark.in_process("reads the test's own database")
def test_64_bot_swiss_through_the_server(db_url: str) -> None:
    with client(db_url, tournament_poll=0.2) as c:
        made = make(c, game=SWISS_GAME, format="swiss", size=64, bot_fill="hint", bot_delay=0)
        start(c, made)
        t0 = time.monotonic()
        got = wait_finished(c, made["id"])
        took = time.monotonic() - t0
    kind = db_url.split(":")[0]
    print(f"\n64-entrant Swiss ({SWISS_GAME}, 6 rounds, hint bots, {kind}): {took:.1f} s")
    assert got["rounds"] == 6
    check_swiss(db_url, got, 64, 6)


@pytest.mark.in_process("reads the test's own database")
def test_64_bot_elimination_through_the_server(db_url: str) -> None:
    with client(db_url, tournament_poll=0.2) as c:
        made = make(
            c, game=ELIM_GAME, format="elimination", size=64, table_size=4, bot_fill="hint",
            bot_delay=0,
        )  # fmt: skip
        start(c, made)
        t0 = time.monotonic()
        got = wait_finished(c, made["id"])
        took = time.monotonic() - t0
    kind = db_url.split(":")[0]
    print(f"\n64-entrant elimination ({ELIM_GAME}, tables of 4, hint bots, {kind}): {took:.1f} s")
    assert [len(r["tables"]) for r in got["rounds_played"]] == [16, 8, 4, 2, 1]
    check_elimination(db_url, got, 64)


@pytest.mark.in_process("restarts the server on its database file")
def test_a_tournament_carries_on_after_a_restart(sqlite_url: str) -> None:
    """Stopped in its first round, the server comes back and the tournament plays on to the end
    (the state is in the database, the tables are adopted again)."""
    with client(sqlite_url, tournament_poll=0.2) as c:
        made = make(c, game=SWISS_GAME, format="swiss", size=11, bot_fill="hint", bot_delay=0.02)
        start(c, made)
        end = time.monotonic() + 30
        while c.get(f"/api/tournaments/{made['id']}").json()["round"] < 1:
            assert time.monotonic() < end
            time.sleep(0.05)
        assert c.get(f"/api/tournaments/{made['id']}").json()["status"] == "running"
    with client(sqlite_url, tournament_poll=0.2) as c:
        got = wait_finished(c, made["id"])
    assert got["rounds"] == 4
    check_swiss(sqlite_url, got, 11, 4)


def test_swiss_pairs_by_score_with_no_repeat_and_one_bye_each() -> None:
    entrants = [Entrant(k, f"p{k}") for k in range(1, 8)]
    outcomes: list[Outcome] = []
    byes = []
    for r in range(1, 6):
        seating = swiss_round(entrants, outcomes, r)
        assert len(seating.byes) == 1
        byes.extend(seating.byes)
        for n in seating.byes:
            outcomes.append(Outcome(r, [n], done=True))
        for a, b in seating.tables:  # the lower number wins
            ranks = [1, 2] if a < b else [2, 1]
            result = {"ranks": ranks, "points": [0, 0], "lower_is_better": False}
            outcomes.append(Outcome(r, [a, b], code=f"T{r}{a}", result=result, done=True))
        if r == 1:  # the first round: neighbours in the order of joining
            assert sorted(sorted(t) for t in seating.tables) == [[1, 2], [3, 4], [5, 6]]
    assert len(byes) == len(set(byes)), "nobody sits out twice while another has not"
    met = [tuple(sorted(o.entrants)) for o in outcomes if not o.bye]
    assert len(met) == len(set(met)), "no pairing repeats"


@pytest.mark.in_process("lists the tournaments of a database of its own")
def test_the_bounds_of_tournaments(sqlite_url: str) -> None:
    with client(sqlite_url, tournaments_per_client=1, max_entrants=8) as c:
        too_big = c.post(
            "/api/tournaments", json={"game": SWISS_GAME, "format": "swiss", "size": 9}
        )
        assert too_big.status_code == 400
        made = make(c, game=SWISS_GAME, format="swiss", size=3, name="Ada")
        assert made["number"] == 1
        again = c.post("/api/tournaments", json={"game": SWISS_GAME, "format": "swiss", "size": 3})
        assert again.status_code == 429, again.text
        tid = made["id"]
        same = c.post(f"/api/tournaments/{tid}/join", json={"name": "ada"})
        assert same.status_code == 409 and same.json()["error"] == "name"
        assert c.post(f"/api/tournaments/{tid}/join", json={"name": "Bo"}).status_code == 200
        assert c.post(f"/api/tournaments/{tid}/join", json={"name": "Cy"}).status_code == 200
        full = c.post(f"/api/tournaments/{tid}/join", json={"name": "Di"})
        assert full.status_code == 409 and full.json()["error"] == "full"
        assert c.post(f"/api/tournaments/{tid}/start").status_code == 401
        bad = {"Authorization": "Bearer nope"}
        assert c.post(f"/api/tournaments/{tid}/start", headers=bad).status_code == 403
        start(c, made)
        late = c.post(f"/api/tournaments/{tid}/join", json={"name": "Ed"})
        assert late.status_code == 409 and late.json()["error"] == "closed"
        listed = c.get("/api/tournaments").json()
        assert [t["id"] for t in listed] == [tid] and listed[0]["entrants"] == 3
        assert c.get("/api/tournaments/NOPE1234").status_code == 404
        paths = c.get("/openapi.json").json()["paths"]
        for path in (
            "/api/tournaments", "/api/tournaments/{tid}", "/api/tournaments/{tid}/standings",
            "/api/tournaments/{tid}/join", "/api/tournaments/{tid}/start",
        ):  # fmt: skip
            assert path in paths, path


def test_elimination_tables_hold_three_or_four_and_fit_the_game() -> None:
    from parlour.server.tournament import _tables_for

    for n in range(6, 130):
        for size in (3, 4):
            sizes = _tables_for(n, size, most=4)
            assert sum(sizes) == n and all(3 <= k <= 4 for k in sizes), (n, size, sizes)
            assert max(sizes) - min(sizes) <= 1
    assert _tables_for(5, 4, most=17) == [5]
    assert _tables_for(5, 4, most=4) == [3, 2]
    assert _tables_for(4, 3, most=4) == [4]
    assert _tables_for(64, 4) == [4] * 16


@pytest.mark.in_process("reads the test's own database")
def test_a_person_plays_their_rounds_with_their_entrant_token(sqlite_url: str) -> None:
    """A person among bots: at each round's table their entrant token is their seat token."""
    rng = random.Random(3)
    with client(sqlite_url, tournament_poll=0.2) as c:
        # the bots move at once: the other table of each round must not keep Ada's next round
        # waiting behind a whole game at a person's pace (a loaded machine took over 60 s)
        made = make(
            c, game=SWISS_GAME, format="swiss", size=4, bot_fill="hint", name="Ada", bot_delay=0
        )
        start(c, made)
        for number in (1, 2):
            # the round seated (or played already: a bot that calls first may sweep every book
            # before Ada has a turn, and a whole tournament end in under a second)
            end = time.monotonic() + 180
            while True:
                got = c.get(f"/api/tournaments/{made['id']}").json()
                if len(got["rounds_played"]) >= number:
                    break
                assert time.monotonic() < end, json.dumps(got)
                time.sleep(0.05)
            (mine,) = [
                t
                for t in got["rounds_played"][number - 1]["tables"]
                if any(e["name"] == "Ada" for e in t["entrants"])
            ]
            seat = [e["name"] for e in mine["entrants"]].index("Ada")
            ada = Seat(c, mine["code"], made["token"], seat)
            assert ada.until("welcome")["seat"] == seat
            while True:
                msg = ada.until("view")
                if msg["view"]["is_over"]:
                    break
                if msg["legal"]:
                    ada.send({"type": "move", "move": rng.choice(msg["legal"]), "ply": msg["ply"]})
            ada.close()
        got = wait_finished(c, made["id"], 60)
    assert "Ada" in [s["name"] for s in got["standings"]]
    check_swiss(sqlite_url, got, 4, 2)


def test_a_round_is_opened_once_however_many_directors_race(db_url: str) -> None:
    """The compare-and-set on the round: the second opening of round 1 writes nothing."""
    from parlour.bots import BotLimits
    from parlour.server.storage import Store
    from parlour.server.tables import plan_table

    store = Store(db_url)
    try:
        store.tournaments.create_tournament(
            {
                "id": "RACE0001", "created_at": time.time(), "title": "race", "game": SWISS_GAME,
                "preset": None, "options": {}, "format": "swiss", "rounds": 1, "table_size": 2,
                "max_entrants": 2, "bot_fill": "random", "bot_delay": 0.0, "status": "open",
                "round": 0, "host_hash": "x", "creator": None,
            }
        )  # fmt: skip
        assert store.tournaments.start_tournament("RACE0001", lambda n: 1) == "ok"
        assert store.tournaments.start_tournament("RACE0001", lambda n: 1) == "started"

        def row(code: str) -> Any:
            planned, _, _ = plan_table(
                code, SWISS_GAME, players=2, bots={0: "random", 1: "random"},
                bot_delay=0.0, bot_limits=BotLimits(),
            )  # fmt: skip
            return planned

        assert store.tournaments.open_round("RACE0001", 0, 1, [(row("RACEAA"), [1, 2])], [], "w1")
        assert not store.tournaments.open_round(
            "RACE0001", 0, 1, [(row("RACEBB"), [1, 2])], [], "w2"
        )
        data = store.tournaments.load_tournament("RACE0001")
        assert data is not None
        assert [t["table_code"] for t in data["tables"]] == ["RACEAA"]
        assert not store.tables.code_exists("RACEBB"), "the loser's table was never written"
        assert data["tournament"]["round"] == 1
    finally:
        store.close()


def test_the_migrations_go_down_to_0006_and_up_again(db_url: str) -> None:
    """Down to 0006_accounts (below 0007_tournaments and 0008_correspondence), and up again."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from parlour.server.storage import MIGRATIONS, Store

    store = Store(db_url)  # at head
    try:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0006")
        names = set(inspect(store.engine).get_table_names())
        assert "parlour_tournaments" not in names and "parlour_tables" in names
        assert "parlour_accounts" in names
        columns = {c["name"] for c in inspect(store.engine).get_columns("parlour_tables")}
        assert "correspondence" not in columns
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        names = set(inspect(store.engine).get_table_names())
        assert {"parlour_tournaments", "parlour_tournament_entrants"} <= names
    finally:
        store.close()


def test_tournaments_through_the_api_alone(db_url: str) -> None:
    """Checked by what the API says only, so that it runs on a cluster too (PARLOUR_SERVER_MODE=
    cluster: two workers' directors race to move each tournament on)."""
    with client(db_url) as c:
        swiss = make(c, game=SWISS_GAME, format="swiss", size=16, bot_fill="hint", bot_delay=0)
        elim = make(c, game=ELIM_GAME, format="elimination", size=12, bot_fill="hint", bot_delay=0)
        start(c, swiss)
        start(c, elim)
        got = wait_finished(c, swiss["id"], 180)
        assert got["rounds"] == 4 and len(got["rounds_played"]) == 4
        pairs = set()
        for r in got["rounds_played"]:
            assert len(r["tables"]) == 8 and not r["byes"]
            seated = [e["number"] for t in r["tables"] for e in t["entrants"]]
            assert sorted(seated) == list(range(1, 17))
            for t in r["tables"]:
                assert t["review"] == f"/review/{t['game_id']}"
                pairs.add(frozenset(e["number"] for e in t["entrants"]))
        assert len(pairs) == 32, "nobody met anyone twice"
        table = got["standings"]
        assert [s["place"] for s in table] == list(range(1, 17))
        assert sum(s["score"] for s in table) == 32  # a point a game
        got = wait_finished(c, elim["id"], 180)
        assert [len(r["tables"]) for r in got["rounds_played"]] == [3, 2, 1]
        (final,) = got["rounds_played"][-1]["tables"]
        assert [s["name"] for s in got["standings"][:4]] == final["places"]
        assert [s["place"] for s in got["standings"]] == list(range(1, 13))


@pytest.mark.in_process("reads the test's own database")
def test_the_empty_places_may_be_a_level_and_its_bots_are_named_after_it(sqlite_url: str) -> None:
    """The lobby offers bots by level (docs/bots.md, Levels): a tournament filled with `medium`
    plays the medium level's bot, and its entrants say "medium bot", not the bot's kind."""
    with client(sqlite_url, tournament_poll=0.2) as c:
        games = {g["name"]: [lv["name"] for lv in g["levels"]] for g in c.get("/api/games").json()}
        medium = next(
            lv["bot"]
            for g in c.get("/api/games").json()
            if g["name"] == SWISS_GAME
            for lv in g["levels"]
            if lv["name"] == "medium"
        )
        # a name that is neither a level nor a bot: the answer lists the game's levels and bots
        # (every game has all four levels now; a level a game lacks is refused in the same words
        # as at a table, tests/bots/test_bots_levels.py)
        r = c.post(
            "/api/tournaments",
            json={"game": SWISS_GAME, "format": "swiss", "size": 3, "bot_fill": "grandmaster"},
        )
        assert r.status_code == 400
        offered = ", ".join(games[SWISS_GAME])
        assert (
            f"no bot 'grandmaster' for {SWISS_GAME}; the levels are: {offered}"
            in (r.json()["message"])
        )
        made = make(c, game=SWISS_GAME, format="swiss", size=3, bot_fill="medium", bot_delay=0)
        start(c, made)
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        rows = conn.execute(
            select(tournament_entrants.c.name, tournament_entrants.c.bot).where(
                tournament_entrants.c.tournament_id == made["id"]
            )
        ).all()
    assert sorted(rows) == [(f"medium bot {k}", medium) for k in (1, 2, 3)]


# --- the caps on tables of bots hold for tournaments (docs/architecture.md, "Tournaments") -------
CAPS = {"max_bot_tables": 4, "bot_tables_per_client": 3}


def test_a_tournament_that_could_fill_more_tables_of_bots_than_its_maker_may_run_does_not_start(
    db_url: str,
) -> None:
    with client(db_url, **CAPS) as c:
        made = make(c, game=SWISS_GAME, format="swiss", size=128, bot_fill="hint", bot_delay=0)
        r = c.post(
            f"/api/tournaments/{made['id']}/start",
            headers={"Authorization": f"Bearer {made['host_token']}"},
        )
        assert r.status_code == 429 and r.json()["error"] == "too_many_bots", r.text
        assert "64 tables of bots" in r.json()["message"] and "3" in r.json()["message"]
        got = c.get(f"/api/tournaments/{made['id']}").json()
        assert got["status"] == "open" and got["rounds_played"] == []
        # nothing was opened: anyone may still open a table of bots
        body = {"game": "whot", "players": 2, "bots": {"0": "random", "1": "random"}}
        assert c.post("/api/tables", json={**body, "bot_delay": 1}).status_code == 200


def test_a_tournaments_tables_of_bots_count_against_its_makers_caps(db_url: str) -> None:
    with client(db_url, **CAPS) as c:
        # six bots in pairs: three tables of bots only, as many as the maker may run
        made = make(c, game=SWISS_GAME, format="swiss", size=6, bot_fill="hint", bot_delay=10)
        start(c, made)
        end = time.monotonic() + 60
        while not c.get(f"/api/tournaments/{made['id']}").json()["rounds_played"]:
            assert time.monotonic() < end, "the first round was not opened"
            time.sleep(0.1)
        body = {"game": "whot", "players": 2, "bots": {"0": "random", "1": "random"}}
        r = c.post("/api/tables", json={**body, "bot_delay": 1})
        assert r.status_code == 429 and "3 tables of bots" in r.json()["message"], r.text
        tables = c.get(f"/api/tournaments/{made['id']}").json()["rounds_played"][0]["tables"]
        assert len(tables) == 3
        for t in tables:  # the maker closes nothing of the tournament's: the tables play on
            assert not t["over"]
