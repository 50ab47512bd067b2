"""Every page under the server's Content-Security-Policy, as a person's browser loads it (the other
browser tests bypass the policy: Playwright's waits evaluate text in the page, which the policy
refuses). Nothing may be refused: no inline script or style, no source but the server itself, the
websocket of a table allowed, the API page's one inline script allowed by its hash."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core.registry import games as all_games
from parlour.review import Budget, analyse, find_puzzles

from .conftest import DESKTOP, Server, watch_policy


def strict_page(browser: Any) -> tuple[Any, list[str], list[str]]:
    ctx = browser.new_context(viewport=DESKTOP)  # the policy enforced, as in a person's browser
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, watch_policy(page), errors


def a_shared_puzzle(server: Server) -> str:
    game = parlour.make("whot", players=2, rules="nigerian")
    state = game.new_game(seed=4)
    bots = [make_bot("greedy", game, seed=4 + p) for p in range(2)]
    while not state.is_over:
        p = state.to_play
        assert p is not None
        state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    record = state.record()
    found = find_puzzles(
        analyse(record, 0, Budget(iterations=20, min_visits=2)), record, margin=0.01
    )
    req = urllib.request.Request(
        server.url + "/api/puzzles",
        data=json.dumps(found[0].to_dict()).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(json.loads(r.read())["id"])


@pytest.fixture(scope="module")
def pages(server: Server) -> list[tuple[str, str]]:
    """(address, a selector that shows the page was drawn) for every kind of page."""
    out = [
        ("/", "#create-form"),
        ("/rules/whot", ".rule"),
        ("/learn/whot", "#learn-say"),
        ("/review", "main :is(h1, h2)"),
        ("/tournaments", "main :is(h1, h2)"),
        ("/account", "#signup-form"),
        ("/quick", "main :is(h1, h2)"),
        ("/leaderboard/whot", "main :is(h1, h2)"),
        ("/docs", ".swagger-ui .opblock-tag"),
    ]
    for name, gi in sorted(all_games().items()):
        if name.startswith("highcard"):
            continue
        players = gi.default_players
        bots = {str(i): "random" for i in range(1, players)}
        body = {"game": name, "players": players, "bots": bots, "name": "Ada"}
        t = server.api("/api/tables", body)
        out.append((t["link"], "section.board > *"))  # a spectator's: the board drawn
    out.append((f"/puzzle/{a_shared_puzzle(server)}", "main :is(h1, h2)"))
    return out


def test_every_page_runs_under_the_policy_with_nothing_refused(
    browser: Any, server: Server, pages: list[tuple[str, str]]
) -> None:
    page, refused, errors = strict_page(browser)
    try:
        for path, drawn in pages:
            page.goto(server.url + path)
            try:
                page.wait_for_selector(drawn, state="attached")
            except Exception as exc:
                raise AssertionError(f"{path} was not drawn; refused: {refused}") from exc
            page.wait_for_load_state("networkidle")
            assert not refused, f"{path}: the policy refused {refused}"
            assert not errors, f"{path}: JavaScript errors {errors}"
    finally:
        page.context.close()
