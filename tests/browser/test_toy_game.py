"""The toy game High Card (tests/toy_game/, registered by one line) in a real browser: the lobby
offers it, the shell loads its module and stylesheet from its folder, and a person plays it to the
end by clicking — with no change to the server or the browser client (docs/architecture.md)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, msg, open_table, shoot, wait_turn

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
    env = {"PARLOUR_GAMES": "toy_game", "PYTHONPATH": path}  # the one registry line, for a child
    s = Server(tmp_path_factory.mktemp("toy"), env=env)
    try:
        yield s
    finally:
        s.stop()


def test_a_person_plays_the_toy_game_to_the_end(page: Any, toy_server: Server) -> None:
    open_table(page, toy_server, "toy", players=2, bots="greedy")
    # the shell took the game's stylesheet from the game's own folder
    page.wait_for_selector('link[rel="stylesheet"][href="/games/toy/toy.css"]', state="attached")
    ply = -1
    while True:
        m = wait_turn(page, ply)
        if m.get("result"):
            break
        card = page.locator(".toy-card.legal").first
        assert card.get_attribute("data-move") in m["legal"]
        card.click()
        ply = m["ply"]
    shoot(page, "toy-desktop")
    assert page.is_visible("#result")
    assert "High Card" in page.inner_text("h1")
    assert msg(page)["view"]["pile"]
