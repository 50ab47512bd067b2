"""Quick match in a real browser: two people, each in their own browser, join the queue from
/quick and end up seated at the same table, which shows both their names. A reload and a second
tab show the same waiting state; leaving the queue brings the form back. Every page passes axe."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PHONE, Server, new_person, shoot
from .test_app import axe_problems


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # two entries from one address are never matched: each person's browser says its own
    # address (X-Forwarded-For, as a proxy in front would, trusted here)
    s = Server(tmp_path_factory.mktemp("server"), settings=["trust_forwarded=true"])
    try:
        yield s
    finally:
        s.stop()


def from_address(page: Any, address: str) -> Any:
    page.context.set_extra_http_headers({"X-Forwarded-For": address})
    return page


def join_queue(page: Any, server: Server, name: str, bots: str = "") -> None:
    page.goto(server.url + "/quick")
    page.wait_for_selector("#quick-form")
    page.select_option("#quick-game", "whot")
    page.select_option("#quick-players", "2")
    page.fill("#quick-name", name)
    page.select_option("#quick-bots", bots)
    page.click("#quick-join")


def test_quick_match_between_two_browser_contexts(page: Any, browser: Any, server: Server) -> None:
    from_address(page, "10.0.0.1")
    page.goto(server.url + "/")
    page.click("#quick-link")
    page.wait_for_url("**/quick")
    page.wait_for_selector("#quick-form")
    problems = axe_problems(page)
    assert not problems, "\n".join(problems)
    shoot(page, "quick-form-desktop")

    join_queue(page, server, "Ada")
    waiting = page.locator("#quick-waiting")
    waiting.wait_for()
    assert "Looking for players" in waiting.inner_text()
    # a guest's rating is a newcomer's, 1500 as on the leaderboards; the band widens by the second
    band = page.inner_text("#quick-band")
    assert re.search(r"Players rated 1\d{3} to 1\d{3} \(you: 1500\)", band), band
    assert "No bots" in page.inner_text("#quick-bots-in")
    problems = axe_problems(page)
    assert not problems, "\n".join(problems)
    shoot(page, "quick-waiting-desktop")
    # a reload, and another tab of the same browser: the same place in the queue
    page.reload()
    page.locator("#quick-waiting").wait_for()
    other_tab = page.context.new_page()
    other_tab.goto(server.url + "/quick")
    other_tab.locator("#quick-waiting").wait_for()
    assert "Ada, you are in the queue" in other_tab.inner_text("#quick-waiting")
    other_tab.close()

    bola = from_address(new_person(browser, PHONE), "10.0.0.2")
    try:
        bola.goto(server.url + "/quick")
        bola.wait_for_selector("#quick-form")
        shoot(bola, "quick-form-phone")
        join_queue(bola, server, "Bola")
        bola.wait_for_url("**/t/*")
        page.wait_for_url("**/t/*", timeout=30_000)  # the waiting one's long poll answered
        assert page.url.rsplit("/", 1)[1] == bola.url.rsplit("/", 1)[1]
        for p in (page, bola):  # each table names both players, and its own seat "you"
            players = p.locator("#players")
            players.get_by_text("Ada", exact=True).wait_for()
            players.get_by_text("Bola", exact=True).wait_for()
            assert p.locator("#players .player.me").count() == 1
        assert "Ada" in page.inner_text("#players .player.me")
        assert "Bola" in bola.inner_text("#players .player.me")
        shoot(page, "quick-table-desktop")
        shoot(bola, "quick-table-phone")
        # back on /quick: the match is named, with a link back to the table
        bola.goto(server.url + "/quick")
        bola.locator("#quick-table").wait_for()
        shoot(bola, "quick-matched-phone")
    finally:
        bola.context.close()


def test_a_visit_asks_nothing_that_fails(page: Any, server: Server) -> None:
    """Issue 31, item 18: /quick logged a 404 (POST /api/quick/status) on every visit."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('parlour:quick', 'a-ticket-long-gone')")
    for _ in range(2):  # a stale ticket, then none
        page.goto(server.url + "/quick")
        page.wait_for_selector("#quick-form")
    assert failed == []
    assert page.evaluate("localStorage.getItem('parlour:quick')") is None  # forgotten


def test_leaving_the_quick_match_queue(page: Any, server: Server) -> None:
    page.set_viewport_size(PHONE)
    join_queue(page, server, "Chidi", bots="60")
    page.locator("#quick-waiting").wait_for()
    assert "Bots take the empty seats in" in page.inner_text("#quick-bots-in")
    shoot(page, "quick-waiting-phone")
    page.click("#quick-leave")
    page.wait_for_selector("#quick-form")
    page.reload()
    page.wait_for_selector("#quick-form")  # no place in the queue any more
