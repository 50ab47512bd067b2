"""Tournaments in a browser: the page read as a person reads it (names, places from 1, the rounds
with links to their tables and reviews), entering one by name, and the list in the lobby."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

from .conftest import PHONE, Server, shoot
from .test_app import axe_problems


def finished(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    made = server.api("/api/tournaments", body)
    req = urllib.request.Request(
        f"{server.url}/api/tournaments/{made['id']}/start",
        method="POST",
        headers={"Authorization": f"Bearer {made['host_token']}"},
    )
    urllib.request.urlopen(req, timeout=10).read()
    end = time.monotonic() + 120
    while time.monotonic() < end:
        got: dict[str, Any] = server.api(f"/api/tournaments/{made['id']}")
        if got["status"] == "finished":
            return got
        time.sleep(0.3)
    raise AssertionError("the tournament did not finish")


def test_a_finished_swiss_tournament_reads_as_standings_and_rounds(
    page: Any, server: Server
) -> None:
    got = finished(
        server,
        {"game": "whoswho-books", "format": "swiss", "size": 7, "bot_fill": "hint",
         "bot_delay": 0, "title": "Friday Swiss"},
    )  # fmt: skip
    page.goto(f"{server.url}/tournaments/{got['id']}")
    page.wait_for_selector("#t-standings tbody tr")
    assert page.locator("h1").inner_text() == "Friday Swiss"
    assert "finished" in page.locator("#t-status").inner_text()
    rows = page.locator("#t-standings tbody tr")
    assert rows.count() == 7
    places = [rows.nth(i).locator("td.place").inner_text() for i in range(7)]
    assert places == [str(k) for k in range(1, 8)], "places count from 1"
    names = [rows.nth(i).locator("td.name").inner_text() for i in range(7)]
    assert names == [s["name"] for s in got["standings"]]
    assert page.locator("#t-standings h2").inner_text() == "Final standings"
    # every round, newest first; every table a link to it and to its game's review
    rounds = page.locator(".t-round")
    assert rounds.count() == got["rounds"] == 3
    assert rounds.first.locator("h3").inner_text() == "Round 3"
    for r in got["rounds_played"]:
        for t in r["tables"]:
            line = page.locator(f'li[data-code="{t["code"]}"]')
            assert line.locator("a.t-table").get_attribute("href") == f"/t/{t['code']}"
            assert line.locator("a.review-link").get_attribute("href") == t["review"]
            in_words = ", ".join(f"{i}. {n}" for i, n in enumerate(t["places"], 1))
            assert in_words in line.inner_text()
        assert len(r["byes"]) == 1  # seven entrants: one sits out each round
        assert (
            f"{r['byes'][0]['name']}: a bye"
            in page.locator(f'.t-round[data-round="{r["round"]}"]').inner_text()
        )
    assert not axe_problems(page)
    shoot(page, "tournament-swiss-desktop")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "tournament-swiss-phone")
    # a review link opens that game's review
    page.locator("a.review-link").first.click()
    page.wait_for_url("**/review/*")


def test_an_elimination_page_and_the_lobby_list(page: Any, server: Server) -> None:
    got = finished(
        server,
        {"game": "whot", "format": "elimination", "size": 9, "table_size": 3,
         "bot_fill": "hint", "bot_delay": 0, "title": "Knockout night"},
    )  # fmt: skip
    assert [len(r["tables"]) for r in got["rounds_played"]] == [3, 2, 1]  # 9, 6, the final 4
    page.goto(f"{server.url}/tournaments/{got['id']}")
    page.wait_for_selector("#t-standings tbody tr")
    rows = page.locator("#t-standings tbody tr")
    assert rows.count() == 9
    assert rows.first.locator("td.place").inner_text() == "1"
    assert rows.first.locator("td").nth(3).inner_text() == "winner"
    assert "(final)" in page.locator(".t-round").first.locator("h3").inner_text()
    page.set_viewport_size(PHONE)
    shoot(page, "tournament-elimination-phone")
    page.goto(server.url + "/")
    page.wait_for_selector(f'#lobby-tournaments a[href="/tournaments/{got["id"]}"]')
    page.click("#tournaments-link")
    page.wait_for_url("**/tournaments")
    page.wait_for_selector(f'#tournament-list a[href="/tournaments/{got["id"]}"]')
    assert not axe_problems(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "tournaments-phone")


def test_making_and_entering_a_tournament(browser: Any, server: Server) -> None:
    from .conftest import new_person

    host = new_person(browser)
    host.goto(server.url + "/tournaments")
    host.select_option("#t-game", "whot")
    host.select_option("#t-format", "elimination")
    host.fill("#t-size", "4")
    host.fill("#t-title", "Kitchen table cup")
    host.fill("#t-name", "Ada")
    host.click("#t-create")
    host.wait_for_url("**/tournaments/*")
    host.wait_for_selector("text=You are entrant 1.")
    assert host.locator("#t-start").is_visible()
    shoot(host, "tournament-open-desktop")
    friend = new_person(browser, PHONE)
    friend.goto(host.url)
    friend.fill("#t-join-name", "Bo")
    friend.click("#t-join button")
    friend.wait_for_selector("text=You are entrant 2.")
    assert friend.locator("#t-start").count() == 0, "only its maker starts it"
    assert friend.locator("#t-standings td.name").all_inner_texts() == ["Ada", "Bo"]
    assert friend.locator("#t-standings tr.me td.name").inner_text() == "Bo"
    # issue 31, item 18: no places before any game has ended
    assert friend.locator("#t-standings td.place").all_inner_texts() == ["–", "–"]
    assert "places come with the first results" in friend.inner_text("#t-no-places")
    shoot(friend, "tournament-open-phone")
    # the maker starts it: the two empty places are bots, and the one table is the final
    host.reload()
    host.click("#t-start")
    host.wait_for_selector("a.t-table")
    link = host.locator("a.t-table")
    assert link.inner_text() == "Play your game"
    code = link.get_attribute("href").rsplit("/", 1)[1]
    got = server.api(f"/api/tournaments/{host.url.rsplit('/', 1)[1]}")
    (table,) = got["rounds_played"][0]["tables"]
    assert table["code"] == code and len(table["entrants"]) == 4
    seat = [e["name"] for e in table["entrants"]].index("Ada")
    assert set(host.locator("#t-standings td.place").all_inner_texts()) == {"–"}  # none ended
    shoot(host, "tournament-started-desktop")
    link.click()  # the entrant token is the seat token there: Ada sits in her seat
    host.wait_for_function(f"window.parlourTable && window.parlourTable.seat === {seat}")
    host.context.close()
    friend.context.close()
