"""Server hardening, finding 1: bot settings are bounded, and searching bots cannot starve other
tables (they think in worker processes, capped in number and budget; quick bots never wait)."""

from __future__ import annotations

from typing import Any

import pytest
from server_testkit import Seat, client, move_texts, new_table

from parlour.bots import BotLimits

BAD_SPECS = [
    ("ismcts:seconds=nan", "finite"),
    ("ismcts:seconds=inf", "finite"),
    ("ismcts:seconds=-1", "finite"),
    ("ismcts:iterations=1000000000000", "iterations=1000000000000 is over this host's limit"),
    ("ismcts:pool=1000000000", "pool=1000000000 is over this host's limit"),
    ("ismcts:seconds=30", "seconds=30 is over this host's limit of 5.0"),
    ("ismcts:c=nan", "finite"),
    ("ismcts:max_playout=99999999", "max_playout"),
    # the ladder's reference players are in no registry: the cheat reads the full state
    ("cheat-mcts:iterations=10", "no bot 'cheat-mcts'"),
    ("openspiel-ismcts", "no bot 'openspiel-ismcts'"),
]


@pytest.mark.parametrize(("spec", "why"), BAD_SPECS)
def test_a_bot_spec_beyond_the_limits_is_refused(sqlite_url: str, spec: str, why: str) -> None:
    with client(sqlite_url) as c:
        r = c.post("/api/tables", json={"game": "whot", "players": 2, "bots": {"0": spec}})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_bot" and why in r.json()["message"]


@pytest.mark.in_process("bot_limits is a BotLimits set in code, not a `parlour serve --setting`")
def test_the_limits_are_the_servers_to_set(sqlite_url: str) -> None:
    with client(sqlite_url, bot_limits=BotLimits(iterations=100)) as c:
        r = c.post("/api/tables", json={"game": "whot", "players": 2, "bots": {"0": "ismcts"}})
        assert r.status_code == 400 and "limit of 100" in r.json()["message"]
        ok = {"game": "whot", "players": 2, "bots": {"0": "ismcts:iterations=100"}}
        assert c.post("/api/tables", json=ok).status_code == 200


def test_searching_tables_do_not_stop_the_other_tables_bots(sqlite_url: str) -> None:
    """Six tables whose first move is a five-second search, beside a table of quick bots: the
    quick table's bots play ten moves before the searches are through (they queue for the one
    worker process; quick bots never queue behind them). Five seconds, the most a bot may search:
    the searches take 30 s one after another, so a loaded machine (a run at load average 20 took
    over 6 s for the quick table's twenty moves) still plays the quick moves inside them."""
    with client(sqlite_url, bot_workers=1, bot_delay=0.0) as c:
        searching = [
            new_table(c, game="whot", players=2, bots={"0": "ismcts:seconds=5", "1": "random"})
            for _ in range(6)
        ]
        t = new_table(c, game="whot", players=2, name="Ada", bots={"1": "random"})
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        bot_moves = 0
        while bot_moves < 10 and v["to_play"] is not None:
            if v["to_play"] == 0:
                ada.send({"type": "move", "move": move_texts(v)[-1], "ply": v["ply"]})
            else:
                bot_moves += 1
            v = ada.until("view", ply=v["ply"] + 1)
        searched = sum(
            searcher_moved(c.get(f"/api/tables/{s['code']}/view").json()) for s in searching
        )
        assert searched < 6, "the quick table waited for every search"


def searcher_moved(msg: dict[str, Any]) -> bool:
    """Whether seat 0 (the searching bot) has made a move: its events in the whole log."""
    return any(e.get("player") == 0 and e["kind"] in ("play", "draw") for e in msg["events"])
