"""Correspondence play in a browser: a table opened with a move a day shows its clock in hours,
and the lobby lists the tables where it is this browser's turn."""

from __future__ import annotations

import re
from typing import Any

from .conftest import PHONE, Server, more_options, shoot


def test_a_correspondence_table_and_the_your_turn_list(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#players", "2")
    page.select_option("select[data-seat='1']", "hint")
    more_options(page)
    assert page.locator("#on-timeout").is_hidden()
    page.select_option("#correspondence", "86400")
    page.select_option("#on-timeout", "bot")
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    info = server.api(f"/api/tables/{code}")
    assert info["correspondence"] and info["move_clock"] == 86400 and info["on_timeout"] == "bot"
    page.wait_for_selector("#turn.mine")
    assert "by correspondence: a move within 24 h" in page.inner_text("body")
    clock = page.inner_text("#clock")
    assert re.fullmatch(r"2[34] h( \d+ min)?", clock), clock
    page.goto(server.url + "/")
    page.wait_for_selector("#turns-card:not([hidden])")
    line = page.locator(f'#my-turns li:has(a[href="/t/{code}"])')
    assert "your turn" in line.inner_text() and "by correspondence" in line.inner_text()
    assert re.search(r"2[34] h( \d+ min)? left", line.inner_text())
    # the tab says so too, among the other tabs (issue 31: "your turn" signals inside the app)
    page.wait_for_function("document.title.startsWith('(1) Your turn')")
    shoot(page, "lobby-your-turn-desktop")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "lobby-your-turn-phone")


def test_no_your_turn_list_without_a_seat(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form")
    page.wait_for_selector("#open-tables li")  # the lobby's lists are drawn (the turns first)
    assert page.locator("#turns-card").is_hidden()
