"""Game review over HTTP: a finished game step by step (each step what `parlour.replay` gives),
uploads checked, a running game never shown, analyses in the background equal to `parlour
analyse`, cached, bounded per client; puzzles shared and answered."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_testkit import (
    Seat,
    client,
    forbidden_for,
    greedy_chooser,
    join,
    move_texts,
    new_table,
    play_out,
)

import parlour
from parlour.bots import make_bot
from parlour.core import Record, view_to_wire
from parlour.review import Budget, Puzzle, analyse, find_puzzles
from parlour.review.step import Stepper, private_parts

GAMES = [
    ("whot", 2, "nigerian"),
    ("sorry", 4, "regular"),
    ("whoswho-tricks", 4, "standard"),
    ("whoswho-books", 3, "standard"),
]


def played(name: str, players: int, rules: str, seed: int = 1, moves: int | None = None) -> Record:
    """A game between greedy players (to its end, or its first `moves` moves)."""
    game = parlour.make(name, players=players, rules=rules)
    state = game.new_game(seed=seed)
    bots = [make_bot("greedy", game, seed=seed + p) for p in range(players)]
    while not state.is_over and (moves is None or len(state.history) < moves):
        p = state.to_play
        assert p is not None
        state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    record: Record = state.record()
    return record


def positions(data: dict[str, Any]) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Each step's whole view and every event so far, rebuilt as the page rebuilds them: the
    views' patches laid over each other, the events of each move added to the ones before."""
    view: dict[str, Any] = {}
    events: list[Any] = []
    for step in data["steps"]:
        view = {**view, **step["view"]}
        for key in step.get("removed", ()):
            del view[key]
        events = events + step["events"]
        yield view, events


def wire_view(state: parlour.State, seat: int | None) -> dict[str, Any]:
    return view_to_wire(state.view(seat))


def assert_steps_match_replay(data: dict[str, Any], record: Record, seat: int | None) -> None:
    steps = Stepper(record)
    assert len(data["steps"]) == len(record.moves) + 1
    for i, (view, events) in enumerate(positions(data)):
        expected = wire_view(steps.state(i), seat)
        assert {**view, "events": events} == expected, f"step {i}"
        if i:
            assert data["steps"][i]["move"] == record.moves[i - 1]


def wait_for_analysis(c: TestClient, job: str, seen: list[int] | None = None) -> dict[str, Any]:
    for _ in range(3000):
        state: dict[str, Any] = c.get(f"/api/review/analyses/{job}").json()
        if seen is not None:
            seen.append(state["done"])
        if state["status"] not in ("queued", "running"):
            return state
        time.sleep(0.05)
    raise AssertionError("the analysis did not end")


def finished_bot_game(c: TestClient) -> tuple[int, Record]:
    bots = {"0": "greedy", "1": "hint"}
    t = new_table(c, game="whot", preset="nigerian", players=2, match="single", bots=bots)
    code = t["code"]
    for _ in range(2000):
        if c.get(f"/api/tables/{code}").json()["status"] == "finished":
            break
        time.sleep(0.02)
    else:
        raise AssertionError("the bots did not finish their game")
    (item,) = c.get("/api/history", params={"table": code}).json()["games"]
    record = Record.from_dict(c.get(f"/api/history/{item['id']}/record").json())
    return int(item["id"]), record


# --- steps ----------------------------------------------------------------------------------------
def test_a_finished_game_steps_as_replay_shows_it_from_every_seat_and_open(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        gid, record = finished_bot_game(c)
        for seat in (0, 1, None):
            params = {} if seat is None else {"seat": str(seat)}
            r = c.get(f"/api/review/games/{gid}", params=params)
            assert r.status_code == 200, r.text
            data = r.json()
            assert data["finished"] and data["viewer"] == seat and data["game"] == "whot"
            assert data["names"] == ["hard bot", "medium bot"]  # as the table named them: levels
            assert data["web"]["module"] == "/games/whot/whot.js"
            assert_steps_match_replay(data, record, seat)
        data = c.get(f"/api/review/games/{gid}", params={"seat": "open"}).json()
        assert data["viewer"] == "open"
        assert_steps_match_replay(data, record, None)  # the table: the spectator's
        steps = Stepper(record)
        for i, step in enumerate(data["steps"]):  # beside it, every hand as it was
            hands = [view_to_wire(private_parts(steps.state(i), p)) for p in range(2)]
            assert step["hands"] == hands
        assert all(h["hand"] for h in data["steps"][0]["hands"])  # there were hands to show
        assert data["result"] == parlour.replay(record).result().to_dict()
        assert c.get("/api/review/games/99999").status_code == 404
        assert c.get(f"/api/review/games/{gid}", params={"seat": "7"}).status_code == 400


def test_a_stored_game_longer_than_the_review_allows_is_refused(sqlite_url: str) -> None:
    # a setting of its own from the start: in cluster mode, the same database for both servers
    with client(sqlite_url, max_review_moves=10_000) as c:
        gid, record = finished_bot_game(c)
    most = len(record.moves) - 1
    with client(sqlite_url, max_review_moves=most) as c:
        r = c.get(f"/api/review/games/{gid}")
        assert r.status_code == 400 and r.json()["error"] == "too_long", r.status_code
        assert f"{most} moves at most" in r.json()["message"]


@pytest.mark.in_process("the meter and the cache of reviews are each gateway's own")
def test_reviews_are_metered_by_their_moves_and_a_finished_games_is_made_once(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client may review `review_plies_per_minute` moves a minute; the same finished game seen
    again from the same seat is answered from the cache, costing no replay and nothing of it."""
    import parlour.server.routes.review as routes

    made: list[int | None] = []
    steps = routes.game_steps  # type: ignore[attr-defined]

    def counted(record: Record, names: list[str], viewer: int | None, *rest: Any) -> Any:
        made.append(viewer)
        return steps(record, names, viewer, *rest)

    monkeypatch.setattr(routes, "game_steps", counted)
    with client(sqlite_url) as c:
        gid, record = finished_bot_game(c)
    with client(sqlite_url, review_plies_per_minute=len(record.moves)) as c:
        first = c.get(f"/api/review/games/{gid}", params={"seat": "0"})
        assert first.status_code == 200 and first.headers["content-encoding"] == "gzip"
        for _ in range(5):
            again = c.get(f"/api/review/games/{gid}", params={"seat": "0"})
            assert again.status_code == 200 and again.json() == first.json()
        assert made == [0]  # made once
        other = c.get(f"/api/review/games/{gid}", params={"seat": "1"})
        assert other.status_code == 429 and other.json()["error"] == "rate_limited", other.text
        plain = c.get(f"/api/review/games/{gid}?seat=0", headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.json() == first.json()


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=[g[0] for g in GAMES])
def test_an_uploaded_record_of_each_game_steps_as_replay(
    sqlite_url: str, name: str, players: int, rules: str
) -> None:
    record = played(name, players, rules, moves=120)
    with client(sqlite_url) as c:
        for seat in (0, players - 1):
            r = c.post("/api/review/records", params={"seat": seat}, content=record.to_json())
            assert r.status_code == 200, r.text
            data = r.json()
            assert data["record"] == record.to_dict() and data["id"] is None
            assert_steps_match_replay(data, record, seat)


def test_uploads_are_checked_and_refused_in_words(sqlite_url: str) -> None:
    whole = played("whot", 2, "nigerian")
    unfinished = played("whot", 2, "nigerian", moves=6)
    with client(sqlite_url, max_upload=60_000, max_review_moves=500) as c:

        def refused(body: bytes | str, status: int = 400, **params: Any) -> str:
            r = c.post("/api/review/records", params=params, content=body)
            assert r.status_code == status, r.text
            message: str = r.json()["message"]
            return message

        assert "not JSON" in refused("{nope")
        assert "not a parlour record" in refused(json.dumps({"hello": 1}))
        bad_game = {**whole.to_dict(), "game": "chess"}
        assert "chess" in refused(json.dumps(bad_game))
        illegal = {**whole.to_dict(), "moves": [*whole.moves[:3], "play 99 moon"]}
        assert "move 4" in refused(json.dumps(illegal))
        assert "60000 bytes" in refused(b"[" + b" " * 70_000 + b"]", 413)
        long = {**unfinished.to_dict(), "moves": unfinished.moves * 100}
        assert "500 moves" in refused(json.dumps(long))
        two = json.dumps({"games": [whole.to_dict(), unfinished.to_dict()]})
        assert "holds 2" in refused(two, game=3)
        # an unfinished record: from a seat's view, but no hand is shown open
        r = c.post("/api/review/records", params={"seat": 0, "game": 2}, content=two)
        assert r.status_code == 200 and not r.json()["finished"]
        assert "finished" in refused(two, 409, seat="open", game=2)
        assert (
            c.post("/api/review/records", params={"seat": "open"}, content=two).status_code == 200
        )


def test_a_deeply_nested_upload_is_refused_in_words(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        for body in ("[" * 5000 + "]" * 5000, '{"a": ' * 3000 + "1" + "}" * 3000):
            r = c.post("/api/review/records", content=body.encode())
            assert r.status_code == 400 and "nested too deeply" in r.json()["message"]


def test_an_analysis_is_queued_only_for_a_record_it_can_judge(sqlite_url: str) -> None:
    good = played("whot", 2, "nigerian", seed=2).to_dict()
    cannot = [
        {**good, "rules": {"deal": 999}},  # an option out of range
        {**good, "players": 99},
        {**good, "game": "no such game"},
        {**good, "moves": ["fly away", *good["moves"][1:]]},
        {**good, "moves": [*good["moves"][:3], "play 99 moon"]},
        {**good, "setup": {"position": {"nonsense": 1}}},
    ]
    with client(sqlite_url) as c:
        for record in cannot:
            r = c.post("/api/review/analyses", json={"record": record, "seat": 0})
            assert r.status_code == 400 and r.json()["error"] == "bad_record", r.text
            assert "cannot be analysed" in r.json()["message"]
        r = c.post("/api/review/analyses", json={"record": good, "seat": 0, "iterations": 5})
        assert r.status_code == 200 and r.json()["status"] in ("queued", "running", "done")


@pytest.mark.in_process("reads the store inside the server to find the running game's id")
def test_a_running_game_is_never_shown_through_the_review_api(sqlite_url: str) -> None:
    with client(sqlite_url, analysis_iterations=20) as c:
        t = new_table(c, game="whot", preset="nigerian", players=2, name="Ada")
        code = t["code"]
        bob = join(c, code, "Bob")
        ada, b = Seat(c, code, t["token"], 0), Seat(c, code, bob["token"], 1)
        game = parlour.make("whot", players=2, rules="nigerian")
        choose = greedy_chooser(game)
        for _ in range(4):  # a few moves in: hands, a pile, a market
            seats = {0: ada, 1: b}
            v = ada.until("view")
            b.until("view", ply=v["ply"])
            mover = seats[v["to_play"]]
            mover.send({"type": "move", "move": choose(mover), "ply": v["ply"]})
        store = c.app.state.db.store
        gid = store.tables.load_table(code).games[-1].id
        running = parlour.replay(_record(store, gid))
        cards, strings, _ = forbidden_for(running, None)
        assert cards  # there are hidden cards to give away
        answers = [
            c.get(f"/api/review/games/{gid}", params=p)
            for p in ({}, {"seat": "0"}, {"seat": "1"}, {"seat": "open"})
        ]
        answers.append(c.post("/api/review/analyses", json={"game_id": gid, "seat": 0}))
        answers.append(c.post("/api/review/analyses", json={"game_id": gid, "seat": 1}))
        for r in answers:
            assert r.status_code == 409, r.text
            assert r.json()["error"] == "not_finished"
            for card in cards:
                assert card not in r.text
            for s in strings:
                assert s not in r.text
        # the same game once finished is shown, every hand open (so the refusals above were real)
        play_out({0: ada, 1: b}, [], choose)
        r = c.get(f"/api/review/games/{gid}", params={"seat": "open"})
        assert r.status_code == 200 and r.json()["finished"]
        assert any(card in r.text for card in cards)


def _record(store: Any, gid: int) -> dict[str, Any]:
    """A running game's record, read straight from the database (the test's eyes only)."""
    from parlour.server.schema import games

    with store.engine.connect() as conn:
        g = conn.execute(games.select().where(games.c.id == gid)).first()
    return {
        "game": "whot",
        "players": g.players,
        "rules": dict(g.rules),
        "seed": int(g.seed),
        "setup": dict(g.setup),
        "moves": store.tables.game_moves(gid),
    }


# --- analyses -------------------------------------------------------------------------------------
def test_an_analysis_runs_in_the_background_as_parlour_analyse_and_is_cached(db_url: str) -> None:
    with client(db_url, analysis_iterations=30) as c:
        gid, record = finished_bot_game(c)
        r = c.post("/api/review/analyses", json={"game_id": gid, "seat": 1})
        assert r.status_code == 200, r.text
        first = r.json()
        assert first["status"] in ("queued", "running") and not first["cached"]
        seen: list[int] = []
        done = wait_for_analysis(c, first["job"], seen)
        assert done["status"] == "done", done
        assert seen == sorted(seen) and seen[-1] == done["total"]  # progress only goes forward
        got = done["analysis"]
        expected = analyse(record, 1, Budget(iterations=30), seed=0).to_dict()
        for key in ("record", "seat", "budget", "total", "forced", "result", "summary"):
            assert got[key] == expected[key], key
        strip = [{**d, "seconds": 0} for d in got["decisions"]]
        assert strip == [{**d, "seconds": 0} for d in expected["decisions"]]
        # asked again (the same record, by upload this time): from the cache, at once
        again = c.post("/api/review/analyses", json={"record": record.to_dict(), "seat": 1}).json()
        assert again["cached"] and again["status"] == "done" and again["job"] is None
        assert again["analysis"] == got and again["puzzles"] == done["puzzles"]
        assert c.get(f"/api/review/games/{gid}").json()["analysed"] == [1]
        # another budget is another analysis; more than the server's is refused
        r = c.post("/api/review/analyses", json={"game_id": gid, "seat": 1, "iterations": 31})
        assert r.status_code == 400 and r.json()["error"] == "bad_budget"


@pytest.mark.in_process(
    "one analysis runner in all: a cluster has one a gateway, and the second gateway's runner "
    "(looking at the queue each second) may take the job that this test expects to wait"
)
def test_the_queue_runs_one_analysis_per_client_and_bounds_the_rest(sqlite_url: str) -> None:
    long = played("sorry", 4, "regular", seed=3, moves=400).to_dict()  # minutes of work here
    settings = dict(analysis_iterations=2000, analysis_workers=1, analysis_queue=2)
    with client(sqlite_url, trust_forwarded=True, **settings) as c:

        def ask(who: str, seat: int = 0) -> Any:
            return c.post(
                "/api/review/analyses",
                json={"record": long, "seat": seat},
                headers={"x-forwarded-for": who},
            )

        a = ask("10.0.0.1")
        assert a.status_code == 200, a.text
        job_a = a.json()["job"]
        for _ in range(2000):  # the one worker takes it
            if c.get(f"/api/review/analyses/{job_a}").json()["status"] == "running":
                break
            time.sleep(0.02)
        busy = ask("10.0.0.1", seat=1)  # the same client, another seat: one at a time
        assert busy.status_code == 429 and busy.json()["error"] == "analysis_busy"
        b = ask("10.0.0.2", seat=1)  # another client waits behind it: one worker, one at a time
        assert b.status_code == 200 and b.json()["status"] == "queued"
        assert b.json()["queued_ahead"] == 0
        assert c.get(f"/api/review/analyses/{job_a}").json()["status"] == "running"
        full = ask("10.0.0.3", seat=2)  # the queue holds two
        assert full.status_code == 503 and full.json()["error"] == "busy"
        same = ask("10.0.0.4", seat=0)  # what is under way already is not made twice
        assert same.status_code == 200 and same.json()["job"] == job_a
        job_b = b.json()["job"]
        # only who asked may cancel; a cancelled analysis frees the client and the queue
        r = c.delete(f"/api/review/analyses/{job_a}", headers={"x-forwarded-for": "10.0.0.2"})
        assert r.status_code == 403
        r = c.delete(f"/api/review/analyses/{job_a}", headers={"x-forwarded-for": "10.0.0.1"})
        assert r.status_code == 200
        assert wait_for_analysis(c, job_a)["status"] == "cancelled"
        for _ in range(2000):
            if c.get(f"/api/review/analyses/{job_b}").json()["status"] == "running":
                break
            time.sleep(0.02)
        assert ask("10.0.0.3", seat=2).json()["status"] == "queued"
        c.delete(f"/api/review/analyses/{job_b}", headers={"x-forwarded-for": "10.0.0.2"})


# --- puzzles --------------------------------------------------------------------------------------
def test_puzzles_are_shared_shown_without_their_answer_and_answered(sqlite_url: str) -> None:
    record = played("whot", 2, "nigerian", seed=4)
    budget = Budget(iterations=60)
    found = find_puzzles(analyse(record, 0, budget), record, margin=0.05)
    assert found
    puzzle = found[0]
    with client(sqlite_url) as c:
        r = c.post("/api/puzzles", json=puzzle.to_dict())
        assert r.status_code == 200, r.text
        pid, link = r.json()["id"], r.json()["link"]
        assert link == f"/puzzle/{pid}" and c.get(link).status_code == 200
        shown = c.get(f"/api/puzzles/{pid}")
        assert shown.status_code == 200
        data = shown.json()
        message = data["message"]
        assert message["to_play"] == puzzle.seat and message["seat"] == puzzle.seat
        assert sorted(move_texts(message)) == sorted(m.move for m in puzzle.moves)
        state = puzzle.state()
        expected = wire_view(state, puzzle.seat)
        expected.pop("events")
        assert message["view"] == expected
        assert '"answer"' not in shown.text and '"estimate"' not in shown.text
        wrong = next(m.move for m in puzzle.moves if m.move != puzzle.answer)
        no = c.post(f"/api/puzzles/{pid}/answer", json={"move": wrong}).json()
        yes = c.post(f"/api/puzzles/{pid}/answer", json={"move": puzzle.answer}).json()
        assert not no["correct"] and yes["correct"] and no["answer"] == puzzle.answer
        assert c.post(f"/api/puzzles/{pid}/answer", json={"move": "jump"}).status_code == 400
        assert Puzzle.from_dict(c.get(f"/api/puzzles/{pid}/file").json()) == puzzle
        # a file of puzzles: one of them by its number; a damaged one is refused in words
        many = {"format": "parlour-puzzles/1", "puzzles": [p.to_dict() for p in found]}
        assert c.post("/api/puzzles", json=many, params={"number": 1}).json()["id"] == pid
        bad = {**puzzle.to_dict(), "answer": "play 99 moon"}
        r = c.post("/api/puzzles", json=bad)
        assert r.status_code == 400 and "answer" in r.json()["message"]
        assert c.get("/api/puzzles/0123456789ab").status_code == 404


def a_puzzle(name: str = "whot", players: int = 2, rules: str = "nigerian") -> Puzzle:
    """A genuine puzzle: one `parlour analyse --puzzles` would write."""
    record = played(name, players, rules, seed=4 if name == "whot" else 3)
    found = find_puzzles(
        analyse(record, 0, Budget(iterations=20, min_visits=2)), record, margin=0.01
    )
    assert found
    return max(found, key=lambda p: len(json.dumps(p.to_dict())))


def test_an_uploaded_puzzle_keeps_only_what_its_game_reads_back(sqlite_url: str) -> None:
    """A shared puzzle is set up by its game, its history read back into the game's events and
    its source cut to its three facts: anything else in the file is refused, or not kept."""
    genuine = a_puzzle().to_dict()
    shoddy = [
        {**genuine, "history": ["x" * 1000] * 50},  # not events at all
        {**genuine, "history": [{**genuine["history"][0], "blob": "x" * 1000}]},  # extra fields
        {**genuine, "history": [{"kind": "no such event"}]},
        {**genuine, "source": {"blob": "x" * 1000}},
        {**genuine, "source": {**genuine["source"], "ply": "x" * 1000}},
        {**genuine, "position": {**genuine["position"], "blob": "x" * 1000}},
        {**genuine, "margin": float("nan")},  # JSON.parse would fail on the file served back
        {**genuine, "moves": genuine["moves"][1:]},  # the answer not among its moves
    ]
    with client(sqlite_url) as c:
        for bad in shoddy:
            text = json.dumps(bad)  # NaN too, as Python's json writes it and reads it back
            r = c.post("/api/puzzles", content=text, headers={"content-type": "application/json"})
            assert r.status_code == 400 and r.json()["error"] == "bad_puzzle", r.text
        padded = {**genuine, "source": {**genuine["source"], "blob": "x" * 100_000}, "more": 1}
        r = c.post("/api/puzzles", json=padded)
        assert r.status_code == 200, r.text
        kept = c.get(f"/api/puzzles/{r.json()['id']}/file").json()
        assert kept == genuine  # the same puzzle, nothing of the padding
        assert r.json()["id"] == c.post("/api/puzzles", json=genuine).json()["id"]


def test_an_uploaded_puzzle_is_bounded_in_size(sqlite_url: str) -> None:
    big = a_puzzle("sorry", 4, "regular").to_dict()  # a long history: tens of kilobytes
    size = len(json.dumps(big))
    with client(sqlite_url, max_puzzle=size - 1) as c:
        r = c.post("/api/puzzles", json=big)
        assert r.status_code == 400 and f"up to {size - 1} bytes" in r.json()["message"], r.text


@pytest.mark.in_process("the meter of puzzles' bytes is each gateway's own")
def test_uploaded_puzzles_are_bounded_in_bytes_a_minute(sqlite_url: str) -> None:
    big = a_puzzle("sorry", 4, "regular").to_dict()
    small = a_puzzle().to_dict()
    size = len(json.dumps(big))
    with client(sqlite_url, max_puzzle=size, puzzle_bytes_per_minute=size) as c:
        assert c.post("/api/puzzles", json=big).status_code == 200
        r = c.post("/api/puzzles", json=small)  # this minute's bytes are spent
        assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text


def test_puzzles_of_uploads_go_after_the_retention_those_of_stored_games_stay(
    sqlite_url: str,
) -> None:
    from parlour.server.storage import Store

    store = Store(sqlite_url)
    try:
        store.puzzles.save_puzzle("up", "whot", '{"uploaded": 1}', True)
        store.puzzles.save_puzzle("kept", "whot", '{"stored": 1}')
        store.puzzles.save_puzzle("both", "whot", '{"both": 1}', True)
        store.puzzles.save_puzzle("both", "whot", '{"both": 1}')  # found in a stored game too: kept
        store.puzzles.save_puzzle("kept", "whot", '{"stored": 1}', True)  # still a stored game's
        assert store.puzzles.prune_uploaded_puzzles(time.time() - 3600) == 0  # not old enough yet
        assert store.puzzles.prune_uploaded_puzzles(time.time() + 1) == 1
        assert store.puzzles.load_puzzle("up") is None
        assert store.puzzles.load_puzzle("kept") == '{"stored": 1}'
        assert store.puzzles.load_puzzle("both") == '{"both": 1}'
    finally:
        store.close()


def test_analyses_of_uploads_go_after_the_retention_those_of_stored_games_stay(
    sqlite_url: str,
) -> None:
    from parlour.server.storage import Store

    store = Store(sqlite_url)
    try:
        store.review.save_analysis("sha256:up", 0, "i30", None, '{"uploaded": 1}')
        store.review.save_analysis("sha256:kept", 0, "i30", 7, '{"stored": 1}')
        store.review.save_analysis(
            "sha256:kept", 0, "i30", 7, '{"again": 1}'
        )  # the first one stays
        assert store.review.prune_uploaded_analyses(time.time() - 3600) == 0  # not old enough yet
        assert store.review.prune_uploaded_analyses(time.time() + 1) == 1
        assert store.review.load_analysis("sha256:up", 0, "i30") is None
        assert store.review.load_analysis("sha256:kept", 0, "i30") == '{"stored": 1}'
        assert store.review.analysed_seats("sha256:kept", "i30") == [0]
    finally:
        store.close()
