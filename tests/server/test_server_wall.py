"""Hidden information is a wall: play whole games of every game through the server and scan every
message each seat and a spectator receive for the cards they may not see, the pack order, the
seed and the generator's state (derived from the true state at that very ply)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_testkit import Seat, client, greedy_chooser, join, new_table, play_out, scan

import parlour

GAMES = sorted(parlour.core.games().items())
CASES = [(name, preset) for name, gi in GAMES for preset in gi.presets]
# Whot!'s presets differ in powers, not in what is hidden: two of them are enough here.
CASES = [c for c in CASES if c[0] != "whot" or c[1] in ("nigerian", "storey-1935")]


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_no_seat_ever_receives_a_hidden_card(sqlite_url: str, game: str, preset: str) -> None:
    players = 3 if game.startswith("whoswho") and preset != "partnership" else 4
    with client(sqlite_url) as c:
        t = new_table(c, game=game, preset=preset, players=players, match="single", name="P0")
        tokens = {0: t["token"]}
        for s in range(1, players):
            tokens[s] = join(c, t["code"], f"P{s}")["token"]
        seats = {s: Seat(c, t["code"], tok, s) for s, tok in tokens.items()}
        spectator = Seat(c, t["code"], None, None)
        http: dict[int | None, list[tuple[int, str]]] = {s: [] for s in [*tokens, None]}

        def fetch_http(ply: int) -> None:
            if ply % 25:
                return
            for s, tok in tokens.items():
                r = c.get(
                    f"/api/tables/{t['code']}/view", headers={"authorization": f"Bearer {tok}"}
                )
                http[s].append((ply, r.text))
            for path in ("/view", "", "/records"):
                http[None].append((ply, c.get(f"/api/tables/{t['code']}{path}").text))
            http[None].append((ply, c.get("/api/tables").text))

        g = parlour.make(game, players=players, rules=preset)
        final = play_out(seats, [spectator], greedy_chooser(g), fetch_http)
        assert final["result"]["winners"] is not None
        hist = c.get("/api/history", params={"table": t["code"]}).json()
        assert hist["total"] == 1
        record: dict[str, Any] = c.get(f"/api/history/{hist['games'][0]['id']}/record").json()
        assert len(record["moves"]) == final["ply"]
        messages: dict[int | None, list[tuple[int, str]]] = {
            s: [(ply, text) for _, ply, text in seat.received] + http[s]
            for s, seat in seats.items()
        }
        messages[None] = [(ply, text) for _, ply, text in spectator.received] + http[None]
        checked = scan(record, messages)
        assert checked >= final["ply"] * (players + 1)
        for seat in [*seats.values(), spectator]:
            seat.close()


def test_the_scan_catches_a_leak(sqlite_url: str) -> None:
    """The scan itself works: a message holding another hand's card or the pack order fails."""
    state = parlour.make("whot").new_game(seed=912_345_678_901)
    record = state.record().to_dict()
    d = state.to_dict()
    other_card = next(c for c in d["hands"][1] if c != "whot")
    with pytest.raises(AssertionError):
        scan(record, {0: [(0, f'{{"x": "{other_card}"}}')]})
    with pytest.raises(AssertionError):
        scan(record, {None: [(0, str(d["pack"]))]})
    with pytest.raises(AssertionError):
        scan(record, {2: [(0, state.to_json())]})
    assert scan(record, {0: [(0, json.dumps(parlour.core.view_to_wire(state.view(0))))]}) == 1
