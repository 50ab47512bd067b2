"""The lobby and the table shell, in a real browser (issue 7: lobby, everywhere)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, Server, more_options, new_person, open_table, shoot
from .test_app import AUTOPLAY


def test_the_lobby_lists_every_game_with_its_presets_and_options(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.locator("#game option").first.wait_for(state="attached")  # the games come after the page
    games = page.locator("#game option").all_inner_texts()
    assert len(games) == 4 and "Whot!" in games and "Sorry!" in games
    page.select_option("#game", "whot")
    presets = page.locator("#preset option").all_inner_texts()
    assert {"nigerian", "storey-1935", "english", "knockout"} <= set(presets)
    page.select_option("#preset", "storey-1935")
    page.click("details.opts summary")
    # the options show the preset's values: Storey deals 6
    assert page.input_value("#opt-deal") == "6"
    page.select_option("#preset", "nigerian")
    assert page.input_value("#opt-deal") == "5"
    page.click("details.opts summary")  # closed again for the picture
    shoot(page, "lobby-desktop")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "lobby-phone")


def test_an_edited_option_reaches_the_table(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#preset", "nigerian")
    page.click("details.opts summary")
    page.fill("#opt-deal", "7")
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    assert server.api(f"/api/tables/{code}")["rules"]["deal"] == 7
    page.wait_for_selector("#turn")


def test_a_friend_joins_by_link_and_a_reload_keeps_each_seat(browser: Any, server: Server) -> None:
    host = new_person(browser)
    code = open_table(host, server, "whot", players=2, friends=1)
    host.wait_for_selector("text=Waiting for 1 more player")
    friend = new_person(browser, PHONE)
    friend.goto(f"{server.url}/t/{code}")
    friend.fill("#join-name", "Bob")
    friend.click("#join-btn")
    for p in (host, friend):
        p.wait_for_function("window.parlourTable && window.parlourTable.msg !== null")
    # (the friend's page may hear the table as a watcher before its join is answered)
    friend.wait_for_function("window.parlourTable.seat != null")
    seats = {p.evaluate("window.parlourTable.seat") for p in (host, friend)}
    assert seats == {0, 1}
    friend.reload()
    friend.wait_for_function("window.parlourTable && window.parlourTable.msg !== null")
    assert friend.evaluate("window.parlourTable.seat") == 1
    assert friend.locator("#join").is_hidden()
    # the two people never see the same hand
    hands = [p.evaluate("window.parlourTable.msg.view.hand") for p in (host, friend)]
    assert hands[0] != hands[1]
    shoot(friend, "lobby-join-phone")
    host.context.close()
    friend.context.close()


def test_the_invited_friend_lands_on_the_join_box_not_the_hosts_furniture(
    browser: Any, server: Server
) -> None:
    """Issue 31, item 4: a friend who opens the link sees first how to take a seat; the invite
    panel and the server's instructions are the host's, and the status speaks to the friend."""
    host = new_person(browser)
    code = open_table(host, server, "whot", players=2, friends=1, name="Ada")
    host.wait_for_selector("#invite")  # the host's page offers the invite at once
    assert "send them the invite link" in host.inner_text("#turn")
    friend = new_person(browser, PHONE)
    friend.goto(f"{server.url}/t/{code}")
    friend.wait_for_selector("#join-name")
    box = friend.locator("#join").bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"]  # in view without scrolling
    assert "Join Ada's game of Whot!" in friend.inner_text("#join")
    assert friend.locator("#invite").count() == 0 or not friend.locator("#invite").is_visible()
    status = friend.inner_text("#turn")
    assert "take a seat" in status and "invite" not in status, status
    assert "`" not in friend.inner_text("main")
    shoot(friend, "invitee-phone")
    host.context.close()
    friend.context.close()


def test_options_of_several_choices_are_checkboxes(page: Any, server: Server) -> None:
    # Whot! declarations: "Last card", "Semi-last card", "Check up" may be on together.
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#preset", "nigerian")
    page.click("details.opts summary")
    boxes = page.locator("#opt-declarations input[type=checkbox]")
    assert boxes.count() >= 3
    for i in range(2):
        boxes.nth(i).check()
    chosen = [boxes.nth(i).get_attribute("value") for i in range(2)]
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    assert server.api(f"/api/tables/{code}")["rules"]["declarations"] == chosen


@pytest.mark.reduced_motion
def test_finished_games_are_listed_in_the_lobby_with_their_records(
    page: Any, server: Server
) -> None:
    # issue 7: "a list of open tables and of one's finished games". The game is played to its
    # end by the page itself, as fast as the server's bots go and without animations (a person
    # who asks for reduced motion): it is the lists that this test reads, and a game's length is
    # luck's (3 to 300 moves; at the lobby's "fast" bots and with every move animated, a long
    # one took 101 s of a clean clone's run, 0.33 s a move, where this takes 0.08 s).
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#players", "2")
    # The hint bot plays a card whenever one goes: with random play a Nigerian game can run to
    # thousands of moves, more than the loop below allows.
    page.select_option("select[data-seat='1']", "hint")
    more_options(page)
    page.select_option("#match", "single")
    page.click("details.opts summary")
    page.fill("#opt-deal", "2")  # a short game
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    page.goto(server.url + "/")
    # a table being played waits for nobody: the lobby does not list it (the list arrives after
    # the page: wait for it)
    page.locator("#open-tables li").first.wait_for()
    assert code not in page.inner_text("#open-tables")
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_function("window.parlourTable && window.parlourTable.msg !== null")
    # until the game is over: the page plays its own turns (a card where one can go), and the
    # test waits for the result however long a loaded machine takes
    page.evaluate(AUTOPLAY)
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert page.locator("#result").is_visible()
    page.goto(server.url + "/")
    mine = page.locator("#my-games")
    mine.locator(f"a[href='/t/{code}']").wait_for()
    record = mine.locator("a", has_text="record").first.get_attribute("href")
    rec = server.api(record)
    assert rec["game"] == "whot" and rec["moves"]


def test_just_play_is_one_tap_at_the_top_and_remembers_the_last_choice(
    browser: Any, server: Server
) -> None:
    """Issue 31, item 9: the lobby opened on Sorry! (alphabetical), the phone form was ~2,500 px
    tall and levels were described in confidence intervals. It opens on Whot!, with one tap to
    play against the computer at the top, the advanced options folded, the levels in words (the
    figures one tap away); the last game, rules and level chosen come back."""
    page = new_person(browser, PHONE)
    page.goto(server.url + "/")
    page.wait_for_selector("#play-now-btn")
    assert page.locator("h1").inner_text() == "Play a game"
    assert page.input_value("#game") == "whot"  # the house's first game, not the alphabet's
    button = page.locator("#play-now-btn")
    assert button.inner_text() == "Play Whot! against the computer"
    box = button.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"]  # in view at once
    assert "you and the medium bot" in page.inner_text("#play-now-what")
    # the form: what most tables never change is folded, levels are said in words
    assert not page.locator("#bot-speed").is_visible() and not page.locator("#private").is_visible()
    legend = page.inner_text(".levels-legend")
    assert "%" not in legend and "interval" not in legend
    assert not page.locator("#levels-figures dd").first.is_visible()
    form = page.locator("#create-form").bounding_box()
    assert form and form["height"] < 1300, form  # it was about 2,500 px
    shoot(page, "lobby-phone")
    page.click("#levels-figures summary")
    assert "95% interval" in page.inner_text("#levels-figures")
    # one tap: a table of two, you and the medium bot, your turn soon
    page.fill("#play-now-name", "Ada")
    button.click()
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    info = server.api(f"/api/tables/{code}")
    assert info["game"] == "whot" and info["players"] == 2
    assert [s["name"] for s in info["seats"]] == ["Ada", "medium bot"]
    page.wait_for_function("window.parlourTable && window.parlourTable.msg !== null")
    # a table opened from the form is remembered: Sorry!, 3 players, the easy level
    page.goto(server.url + "/")
    page.select_option("#game", "sorry")
    page.select_option("#players", "3")
    for sel in page.locator("select[data-seat]").all():
        sel.select_option(label="bot: easy")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.goto(server.url + "/")
    page.wait_for_selector("#play-now-btn")
    assert page.inner_text("#play-now-btn") == "Play Sorry! against the computer"
    assert "you and 2 easy bots" in page.inner_text("#play-now-what")
    assert page.input_value("#game") == "sorry"  # and the form opens on it
    page.context.close()


def test_two_packs_are_said_with_their_reason_and_one_tap_changes_it(
    page: Any, server: Server
) -> None:
    """Issue 31, item 16: from four players the nigerian rules mix in a second pack (seed 002
    advises it), and a player saw "Market 86" and cards twice with no word why."""
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#preset", "nigerian")
    page.select_option("#players", "4")
    note = page.locator("#game-note")
    note.locator("[data-packs='2']").wait_for()
    words = note.inner_text()
    assert "Two packs (108 cards)" in words and "from 4 players" in words and "twice" in words
    page.click("#one-pack")
    note.locator("[data-packs='1']").wait_for()
    assert "One pack (54 cards)" in note.inner_text() and "advise two" in note.inner_text()
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    assert server.api(f"/api/tables/{code}")["rules"]["packs"] == 1
    # and a two-pack table says so beside its market
    open_table(page, server, "whot", preset="nigerian", players=4)
    page.wait_for_selector(".whot-market [data-packs='2']")
    assert page.text_content(".whot-market [data-packs='2']") == "2 packs"
    assert "two packs" in (page.get_attribute(".whot-table-svg", "aria-label") or "")
