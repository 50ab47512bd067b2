"""A fourth game, from outside parlour: its own folder (`tests/toy_game/`) and one registry line.

docs/architecture.md promises that adding a game touches nothing outside its folder but that one
line. Here the toy game High Card is registered and then served, with no other change, by the
conformance suite, the bots (its own from its manifest, and the generic ones), the terminal, the
simulator, the RL adapters and the server; `tests/browser/test_toy_game.py` plays it in a browser.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour.core import registry
from parlour.testing.conformance import CHECKS

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """High Card registered for one test (the registry is as it was afterwards)."""
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry.games()))
    monkeypatch.setattr(registry, "_loaded", set(registry._loaded))
    registry.register_package("toy_game")  # the one registry line
    yield


@pytest.mark.parametrize("players", [2, 4])
def test_it_passes_the_conformance_suite(toy: None, players: int) -> None:
    game = parlour.make("toy", players=players)
    for check in CHECKS.values():
        for seed in range(2):
            check(game, seed)


def test_its_own_bot_and_the_generic_bots_play_it(toy: None) -> None:
    from parlour.bots import bot_names, make_bot

    game = parlour.make("toy", players=2)
    assert bot_names("toy") == ["greedy", "ismcts", "random"]
    assert type(make_bot("greedy", game)).__module__ == "toy_game.bots"
    for spec in ("greedy", "random", "ismcts:iterations=50"):
        bot = make_bot(spec, game, seed=1)
        state = game.new_game(seed=3)
        while not state.is_over:
            p = state.to_play
            assert p is not None
            state.apply(bot.choose(state.view(p), state.legal_moves()))
        assert state.result().winners


def test_the_terminal_lists_explains_and_plays_it(
    toy: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from parlour.cli import main

    assert main(["games"]) == 0
    assert "toy" in capsys.readouterr().out
    assert main(["rules", "toy"]) == 0
    assert "Cards dealt to each player" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 20))
    assert main(["play", "toy", "--seed", "4", "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "Your hand:" in out and "Winner:" in out


def test_a_child_process_finds_it_by_the_environment_variable() -> None:
    env = {**os.environ, "PARLOUR_GAMES": "toy_game"}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "games"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    ).stdout
    assert "High Card" in out


def test_the_simulator_plays_it_in_worker_processes(toy: None, tmp_path: Path) -> None:
    from parlour.sim.simulate import SimSpec, run

    spec = SimSpec(game="toy", players=2, bots=("greedy", "random"), rules=None, seed=5)
    res = run(spec, 40, jobs=2)
    assert len(res.rows) == 40 and res.complete
    assert {tuple(r["bots"]) for r in res.rows} == {("greedy", "random"), ("random", "greedy")}
    assert all(r["winners"] and r["moves"] == 18 for r in res.rows)  # every card of the pack


def test_the_adapters_serve_it(toy: None) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from parlour.adapters import pettingzoo
    from parlour.adapters.gymnasium import SeatEnv

    api_test(pettingzoo.env("toy", players=3), num_cycles=100)
    env = SeatEnv("toy", opponents=["greedy"])
    _, info = env.reset(seed=2)
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))
        done = terminated or truncated
    assert reward in (-1.0, 1.0)


def test_the_server_opens_a_table_and_plays_it(toy: None, tmp_path: Path) -> None:
    sys.path.insert(0, str(TESTS / "server"))
    try:
        from server_testkit import Seat, client, new_table
    finally:
        sys.path.remove(str(TESTS / "server"))
    with client(f"sqlite:///{tmp_path / 'parlour.sqlite3'}") as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        assert games["toy"]["web"] == {
            "module": "/games/toy/toy.js",
            "stylesheet": "/games/toy/toy.css",
            "tutorial": None,  # a game's folder may hold a tutorial.json; the toy's does not
        }
        assert "export function mount" in c.get("/games/toy/toy.js").text
        t = new_table(c, game="toy", players=2, name="Ada", bots={"1": "greedy"})
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        while v["to_play"] is not None:
            if v["to_play"] == 0:
                move: dict[str, Any] = v["moves"][0]
                assert move["kind"] == "play" and move["text"] == f"play {move['card']}"
                ada.send({"type": "move", "move": move["text"], "ply": v["ply"]})
            v = ada.until("view", ply=v["ply"] + 1)
        assert v["result"]["winners"]
        ada.send({"type": "view"})  # the whole log again, in the game's own words
        whole = ada.until("view", events_from=0)
        assert any(line.startswith("Ada plays") for line in whole["log"])
