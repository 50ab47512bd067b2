"""The parts of a table that are the same for every game (issue 7, "Everywhere"): whose turn and
the clock, the log in words, the hint button, reconnecting without losing the seat, keyboard play,
spectators, and names shown as text."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Server, more_options, new_person, open_table

READY = "window.parlourTable && window.parlourTable.msg !== null"


def test_whose_turn_the_clock_and_the_log_in_words(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#players", "2")
    page.select_option("select[data-seat='1']", "random")
    more_options(page)
    page.fill("#clock", "60")
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_function(READY)
    page.wait_for_selector("#turn.mine")  # "whose turn": Ada, with the bot having moved or not
    assert page.inner_text("#turn") == "Your turn."
    assert page.locator(".player.to-play .pname").inner_text() == "Ada"
    clock = page.inner_text("#clock")
    # seconds left beside a stopwatch drawn in SVG: no glyph that needs an emoji font
    assert re.fullmatch(r"\d+ s", clock) and 50 <= int(clock.split()[0]) <= 60, clock
    assert page.locator("#clock svg.clock-icon").count() == 1
    assert all(ord(ch) < 0x2190 for ch in page.inner_text("#clock"))
    log = page.locator("#log li").all_inner_texts()
    assert log and any("Ada" in line or "random bot" in line for line in log)


def test_the_hint_button_shows_a_legal_move(page: Any, server: Server) -> None:
    open_table(page, server, "whot", players=2)
    page.wait_for_selector("#turn.mine")
    legal = page.evaluate("window.parlourTable.msg.legal")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('Hint:')")
    text = page.inner_text("#hint-text")
    # the hint speaks words ("Go to market", "Play the 7 cross"), not notation ("draw")
    moves = page.evaluate("window.parlourTable.msg.moves")
    words = [page.evaluate("(m) => window.parlourTable.moveWords(m.text, m)", m) for m in moves]
    assert any(text.startswith(f"Hint: {w}") for w in words), (text, words)
    assert not any(text.startswith(f"Hint: {m} ") for m in legal), (text, legal)
    assert re.match(r"Hint: (Play the|Go to market|End the turn|Pass)", text), text


def test_keyboard_play_from_the_list_of_legal_moves(page: Any, server: Server) -> None:
    open_table(page, server, "whot", players=2)
    page.wait_for_selector("#turn.mine")
    ply = page.evaluate("window.parlourTable.msg.ply")
    page.locator("details.moves-box summary").focus()
    page.keyboard.press("Enter")  # opens the list
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.move")
    assert focused in page.evaluate("window.parlourTable.msg.legal")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.parlourTable.msg.ply > {ply}")


def test_a_dropped_connection_reconnects_to_the_same_seat(page: Any, server: Server) -> None:
    code = open_table(page, server, "whot", players=2)
    page.wait_for_function(READY)
    hand = page.evaluate("window.parlourTable.msg.view.hand")
    page.evaluate("window.parlourTable.ws.close()")
    page.wait_for_selector("#conn.off")
    page.wait_for_selector("#conn.on", timeout=15_000)
    page.wait_for_function(READY)
    assert page.evaluate("window.parlourTable.seat") == 0
    assert page.url.endswith(code)
    now = page.evaluate("window.parlourTable.msg.view.hand")
    assert now == hand or page.evaluate("window.parlourTable.msg.ply") > 0


def test_a_spectator_sees_no_hand_and_cannot_move(browser: Any, server: Server) -> None:
    host = new_person(browser)
    code = open_table(host, server, "whot", players=2)
    host.wait_for_function(READY)
    watcher = new_person(browser)
    watcher.goto(f"{server.url}/t/{code}")
    watcher.wait_for_function(READY)
    assert watcher.inner_text("#conn") == "watching"
    assert watcher.evaluate("window.parlourTable.msg.view.hand") is None
    assert watcher.evaluate("window.parlourTable.msg.legal") == []
    assert watcher.locator("#hint").is_disabled()
    host.context.close()
    watcher.context.close()


def test_names_are_shown_as_text_never_as_markup(page: Any, server: Server) -> None:
    name = "<img src=x onerror=alert(1)>"
    open_table(page, server, "whot", players=2, name=name)
    page.wait_for_function(READY)
    assert page.locator(".player .pname").first.inner_text() == name
    assert page.locator("img[src=x]").count() == 0
