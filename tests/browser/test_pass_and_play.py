"""Pass and play (issue 31, item 1): several people at one device, each with a seat of their own;
between their turns a hand-off screen hides the table ("Pass to Bob — tap when ready"), and each
one sees only their own hand."""

from __future__ import annotations

import json
import re
import urllib.request
from collections import Counter
from typing import Any

from .conftest import PHONE, Server, new_person, shoot
from .test_whot import HAND, SETTLED, click_one_move, drawn_hand, msg

CURTAIN = "#handoff:not([hidden])"


def open_pass_and_play(page: Any, server: Server, players: int, here: dict[int, str]) -> str:
    """The lobby form as a family fills it: seats for people here by name, bots in the others."""
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#preset", "nigerian")
    page.select_option("#players", str(players))
    for i, sel in enumerate(page.locator("select[data-seat]").all(), start=1):
        if i in here:
            sel.select_option("here")
            page.fill(f'input[data-here="{i}"]', here[i])
        else:
            sel.select_option("random")
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code: str = page.url.rsplit("/", 1)[1]
    return code


def tokens_here(page: Any, code: str) -> dict[int, str]:
    entry = page.evaluate(f"JSON.parse(localStorage.getItem('parlour:tables'))['{code}']")
    out = {entry["seat"]: entry["token"]}
    out.update({x["seat"]: x["token"] for x in entry["here"]})
    return out


def server_view(server: Server, code: str, token: str) -> dict[str, Any]:
    req = urllib.request.Request(
        f"{server.url}/api/tables/{code}/view", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        view: dict[str, Any] = json.loads(r.read())
    return view


def test_a_family_passes_one_phone_between_turns_and_each_sees_only_their_hand(
    browser: Any, server: Server
) -> None:
    page = new_person(browser, PHONE)
    code = open_pass_and_play(page, server, 3, {1: "Bob"})
    tokens = tokens_here(page, code)
    names = {0: "Ada", 1: "Bob"}
    assert sorted(tokens) == [0, 1] and tokens[0] != tokens[1]
    # both seats are held by this device, each present (connected) at the table
    page.wait_for_function(
        f"fetch('/api/tables/{code}').then(r => r.json()).then(t => "
        "t.seats[0].connected && t.seats[1].connected)"
    )
    seen: dict[int, list[str]] = {}
    used: Counter[str] = Counter()
    turns = 0
    while turns < 8:
        page.wait_for_selector(CURTAIN + " #handoff-go", timeout=30_000)
        title = page.inner_text("#handoff-title")
        found = re.fullmatch(r"Pass to (Ada|Bob) — tap when ready", title)
        assert found, title
        who = {v: k for k, v in names.items()}[found.group(1)]
        # behind the hand-off screen nothing of the table can be seen: no hand, no board
        assert not page.locator("#board").is_visible()
        assert not any(c.is_visible() for c in page.locator(HAND).all())
        if turns == 0:
            shoot(page, "pass-and-play-handoff-phone")
        page.click("#handoff-go")
        page.wait_for_selector(CURTAIN, state="hidden")
        page.wait_for_function(f"window.parlourTable.seat === {who}")
        page.wait_for_function(SETTLED)
        if msg(page).get("result"):
            break
        # the hand shown is this person's, as the server deals it to their token, and only it
        hand = server_view(server, code, tokens[who])["view"]["hand"]
        page.wait_for_selector(HAND)
        assert Counter(drawn_hand(page)) == Counter(hand)
        other = seen.get(1 - who)
        if other is not None:
            assert Counter(drawn_hand(page)) != Counter(other)
        assert page.inner_text("#turn") == f"Your turn, {names[who]}."  # whose hand, by name
        if turns == 1:
            shoot(page, "pass-and-play-phone")
        seen[who] = hand
        # a turn may hold several moves (a HOLD ON, a pick answered): play until it is over, and
        # the screen hides this person's hand at once
        while True:
            click_one_move(page, used, settle=False)
            page.wait_for_function(
                "(() => { const t = window.parlourTable; return !t.pending && t.msg && "
                "(t.msg.legal.length > 0 || !!t.msg.result || "
                "!document.getElementById('handoff').hidden); })()"
            )
            if not msg(page)["legal"] or msg(page).get("result") or page.is_visible(CURTAIN):
                break
        turns += 1
        if msg(page).get("result"):
            break
    assert set(seen) == {0, 1}, seen
    page.context.close()


def test_someone_seated_seats_another_person_here_from_the_table(
    browser: Any, server: Server
) -> None:
    page = new_person(browser)
    page.goto(server.url + "/")
    page.select_option("#game", "whot")
    page.select_option("#players", "2")
    page.locator("select[data-seat]").first.select_option("")  # a friend (invite)
    page.fill("#name", "Ada")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#here-name")
    page.fill("#here-name", "Bob")
    page.click("#here-btn")
    # the game starts; the device holds both seats and asks for whoever is to play
    page.wait_for_selector(CURTAIN + " #handoff-go", timeout=30_000)
    assert re.fullmatch(r"Pass to (Ada|Bob) — tap when ready", page.inner_text("#handoff-title"))
    page.click("#handoff-go")
    page.wait_for_selector(CURTAIN, state="hidden")
    page.wait_for_function(SETTLED)
    assert page.locator(HAND).count() > 0
    page.context.close()
