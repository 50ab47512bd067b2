"""Game review in a real browser (issue 18): a record of each game stepped through move by move,
each step what `parlour.replay` gives; a stored game reviewed with every control and analysed on
the server with its progress shown; a puzzle played by clicking."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import Record, view_to_wire
from parlour.games.whot.view import WhotView
from parlour.review import Budget, analyse, find_puzzles
from parlour.review.step import Stepper, private_parts

from .conftest import DESKTOP, PHONE, Server, new_person, shoot

GAMES = [
    ("whot", 2, "nigerian"),
    ("sorry", 4, "regular"),
    ("whoswho-tricks", 4, "standard"),
    ("whoswho-books", 3, "standard"),
]
BUDGET = 24  # iterations a decision on this server: an analysis of a whole game in seconds
READY = "window.parlourReview && window.parlourReview.current()"


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(
        tmp_path_factory.mktemp("review"),
        settings=[f"analysis_iterations={BUDGET}", "analysis_workers=1"],
    )
    try:
        yield s
    finally:
        s.stop()


def played(name: str, players: int, rules: str, seed: int = 2) -> Record:
    """A whole game between greedy bots."""
    game = parlour.make(name, players=players, rules=rules)
    state = game.new_game(seed=seed)
    bots = [make_bot("greedy", game, seed=seed + p) for p in range(players)]
    while not state.is_over:
        p = state.to_play
        assert p is not None
        state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    record: Record = state.record()
    return record


def shown(page: Any) -> dict[str, Any]:
    """The `view` message the page last gave the game's module (every event so far in it)."""
    m: dict[str, Any] = page.evaluate("window.parlourReview.current()")
    return m


def step_of(page: Any) -> int:
    i: int = page.evaluate("window.parlourReview.i")
    return i


def upload(page: Any, server: Server, record: Record, tmp_path: Path) -> None:
    path = tmp_path / f"{record.game}.json"
    path.write_text(record.to_json())
    page.goto(server.url + "/review")
    page.set_input_files("#record-file", str(path))
    page.click("#open-record")
    page.wait_for_function(READY)


def log_and_mark_show(page: Any, i: int) -> None:
    """At step i the log holds the last 200 lines told up to that move (each numbered as in the
    whole log) and the list of moves marks move i alone."""
    told_by_step = page.evaluate("window.parlourReview.data.steps.map((s) => s.log)")
    told = [line for k in range(i + 1) for line in told_by_step[k]]
    lines = page.eval_on_selector_all("#log li", "els => els.map((e) => e.textContent)")
    assert lines == told[-200:], f"the log at step {i}"
    assert page.get_attribute("#log", "start") == str(len(told) - len(lines) + 1)
    marked = page.eval_on_selector_all("#moves li.current", "els => els.map((e) => e.dataset.step)")
    assert marked == ([str(i)] if i else []), f"the move marked at step {i}"


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=[g[0] for g in GAMES])
def test_a_record_of_each_game_steps_move_by_move_as_replay_shows_it(
    page: Any, review_server: Server, tmp_path: Path, name: str, players: int, rules: str
) -> None:
    record = played(name, players, rules)
    steps = Stepper(record)
    n = len(record.moves)
    upload(page, review_server, record, tmp_path)
    # a finished game opens with every hand: the table as a spectator saw it, each hand beside it
    assert page.evaluate("window.parlourReview.viewer") == "open"
    page.locator("body").press("Home")
    for i in range(n + 1):
        assert step_of(page) == i
        m = shown(page)
        expected = view_to_wire(steps.state(i).view(None))
        assert {**m["view"], "events": m["events"]} == expected, f"step {i}"
        hands = page.evaluate("window.parlourReview.data.steps[window.parlourReview.i].hands")
        assert hands == [view_to_wire(private_parts(steps.state(i), p)) for p in range(players)]
        if i:
            # issue 31, item 14: the move in the game's words, as the log tells it, not notation
            where = page.inner_text("#where")
            assert f"Move {i} of {n}" in where
            said = page.evaluate(f"window.parlourReview.data.steps[{i}].log[0]")
            assert said and said in where, (said, where)
            if name == "whot":
                assert record.moves[i - 1] not in where
        page.locator("body").press("ArrowRight")
    assert step_of(page) == n and page.is_disabled("#forward")
    assert page.inner_text("#review-result").startswith("Result:")
    # one seat's view: what that player saw, at any step the slider or the move list jumps to
    page.select_option("#viewer", "0")
    page.wait_for_function("window.parlourReview.viewer === 0")
    for i in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        page.locator("#step").fill(str(i))
        page.wait_for_function(f"window.parlourReview.i === {i}")
        m = shown(page)
        expected = view_to_wire(steps.state(i).view(0))
        assert {**m["view"], "events": m["events"]} == expected, f"seat 0, step {i}"
        log_and_mark_show(page, i)
    assert page.locator("#open-hands").is_hidden()
    if name == "whot":  # the module draws the hand the view holds
        page.locator("#step").fill(str(n // 2))
        page.wait_for_function(f"window.parlourReview.i === {n // 2}")
        cards = page.eval_on_selector_all(
            ".whot-hand .whot-card[data-card]", "els => els.map(e => e.dataset.card)"
        )
        hand = cast(WhotView, steps.state(n // 2).view(0))["hand"]
        assert hand and Counter(cards) == Counter(hand)
    page.click(f"#moves li[data-step='{n // 2}'] button")
    assert step_of(page) == n // 2
    log_and_mark_show(page, n // 2)
    shoot(page, f"review-{name}-desktop")


def bot_game(server: Server) -> tuple[str, int, Record]:
    """A finished game of two bots at a table, through the HTTP API."""
    t = server.api(
        "/api/tables",
        {"game": "whot", "preset": "nigerian", "players": 2, "match": "single",
         "bots": {"0": "greedy", "1": "hint"}},
    )  # fmt: skip
    code = t["code"]
    # until it is over, however long the deal makes it (600 looks of 50 ms went on unfinished)
    deadline = time.monotonic() + 300
    while server.api(f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, f"the bots' game at {code} did not end in 300 s"
        time.sleep(0.05)
    (game,) = server.api(f"/api/history?table={code}")["games"]
    record = Record.from_dict(server.api(f"/api/history/{game['id']}/record"))
    return code, int(game["id"]), record


def test_a_stored_game_is_reviewed_with_every_control_and_analysed_with_progress(
    browser: Any, review_server: Server
) -> None:
    code, gid, record = bot_game(review_server)
    n = len(record.moves)
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_person(browser, viewport)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        # from the table's history to the game
        page.goto(review_server.url + f"/review?table={code}")
        page.click(f"a[href='/review/{gid}']")
        page.wait_for_function(READY)
        assert page.evaluate("window.parlourReview.data.id") == gid
        page.click("#forward")
        page.click("#forward")
        assert step_of(page) == 2
        page.click("#back")
        assert step_of(page) == 1
        page.click("#last")
        assert step_of(page) == n and shown(page)["result"]["winners"]
        page.click("#first")
        assert step_of(page) == 0
        body = page.locator("body")
        body.press("End")
        assert step_of(page) == n
        body.press("Home")
        body.press("ArrowRight")
        body.press("ArrowRight")
        body.press("ArrowLeft")
        assert step_of(page) == 1
        body.press(" ")  # autoplay: the moves go on by themselves until paused
        page.wait_for_function("window.parlourReview.i >= 3", timeout=30_000)
        body.press(" ")
        paused = step_of(page)
        page.wait_for_timeout(1500)
        assert step_of(page) == paused
        # the analysis of seat 1's decisions: its progress shown until it is done
        page.evaluate(
            """() => { window.progressSeen = [];
            new MutationObserver(() => {
              const bar = document.querySelector('#analysis-bar');
              const words = document.querySelector('#analysis-words');
              if (bar) window.progressSeen.push([bar.value, bar.max, words && words.textContent]);
            }).observe(document.querySelector('#analysis'), {subtree: true, childList: true}); }"""
        )
        page.select_option("#analyse-seat", "1")
        page.click("#analyse")
        page.wait_for_selector("#analysis-done", timeout=120_000)
        a = page.evaluate("window.parlourReview.analysis")
        if label == "desktop":  # the first asked ran it, with its progress on the way
            seen = page.evaluate("window.progressSeen")
            assert seen, "no progress was shown"
            assert "cache" not in page.inner_text("#analysis-done")
        else:  # the second had it from the cache
            assert "cache" in page.inner_text("#analysis-done")
        expected = analyse(record, 1, Budget(iterations=BUDGET), seed=0).to_dict()
        assert [d["best"] for d in a["decisions"]] == [d["best"] for d in expected["decisions"]]
        assert page.locator("#chart .point").count() == len(a["decisions"])
        assert page.locator("#decisions tbody tr").count() == len(a["decisions"])
        marked = [d for d in a["decisions"] if d["mark"]]
        assert page.locator("#chart .point.mistake, #chart .point.blunder, "
                            "#chart .point.inaccuracy").count() == len(marked)  # fmt: skip
        pick = a["decisions"][len(a["decisions"]) // 2]
        page.click(f"#decisions tr[data-ply='{pick['ply']}']")
        assert step_of(page) == pick["ply"]  # the position of that decision
        shoot(page, f"review-analysis-{label}")
        assert not errors, errors
        page.context.close()


def test_a_puzzle_from_a_real_game_is_played_by_clicking(
    browser: Any, review_server: Server
) -> None:
    record = played("whot", 2, "nigerian", seed=4)
    found = find_puzzles(analyse(record, 0, Budget(iterations=60)), record, margin=0.05)
    assert found
    puzzle = found[0]
    made = review_server.api("/api/puzzles", puzzle.to_dict())
    wrong = next(m.move for m in puzzle.moves if m.move != puzzle.answer)
    for viewport, label, move in ((DESKTOP, "desktop", wrong), (PHONE, "phone", puzzle.answer)):
        page = new_person(browser, viewport)
        page.goto(review_server.url + made["link"])
        page.wait_for_selector("#board [data-move]")
        # the seat's own hand on the board, its legal moves offered; no answer on the page
        assert puzzle.answer not in json.dumps(page.evaluate("window.parlourPuzzle.data.source"))
        board = page.locator(f"#board [data-move='{move}']")
        if board.count():  # a card or a button of the game's own module
            board.first.click()
            if page.locator("#board .whot-chooser:not([hidden]) [data-move]").count():
                page.locator(f"#board [data-move='{move}']").first.click()
        else:
            page.click(f"#puzzle-moves button[data-move='{move}']")
        page.wait_for_selector("#verdict:not([hidden])")
        words = page.inner_text("#verdict-words")
        if move == puzzle.answer:
            assert "The best move!" in words
        else:
            assert "Not the best move." in words
        # issue 31, item 14: the moves in words ("Play the 7 circle"), never notation
        verdict = page.inner_text("#verdict")
        assert not re.search(r"\bplay (\d+ \w+|whot call)|\bdraw\b", verdict), verdict
        answer = page.inner_text(f"#verdict td[data-move='{puzzle.answer}']")
        assert answer.startswith(("Play the", "Go to market")), answer
        assert answer in verdict.split("The best was:")[-1] or move == puzzle.answer
        assert page.locator("#puzzle-moves button:not([disabled])").count() == 0
        shoot(page, f"puzzle-{label}")
        page.context.close()


def test_a_game_still_being_played_is_not_shown(page: Any, review_server: Server) -> None:
    import sqlite3

    t = review_server.api(
        "/api/tables",
        {"game": "whot", "preset": "nigerian", "players": 2, "match": "single", "name": "Ada",
         "bots": {"1": "greedy"}},
    )  # fmt: skip
    for _ in range(200):  # every seat is taken: the game starts
        if review_server.api(f"/api/tables/{t['code']}")["status"] == "playing":
            break
        time.sleep(0.05)
    db = review_server.log.parent / "parlour.sqlite3"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        (gid,) = conn.execute(
            "SELECT id FROM parlour_games WHERE table_code = ? AND finished_at IS NULL",
            (t["code"],),
        ).fetchone()
    for query in ("", "?seat=open", "?seat=0", "?seat=1"):
        page.goto(review_server.url + f"/review/{gid}{query}")
        problem = page.wait_for_selector("#review-problem")
        assert "still being played" in problem.inner_text()
        assert page.locator("#board").count() == 0
