"""What the browser client leans on: the log in words, the player->seat map, hints, and preset
values in the games list (issue 7: "a log of what happened in words", "a hint button (the server's
`hint` for that seat)", "choose a game and a rule preset (with the options shown and editable)")."""

from __future__ import annotations

from server_testkit import Seat, client, join, move_texts, new_table


def test_the_view_carries_the_log_in_words_with_names(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada")
        join(c, t["code"], "Bob")
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        assert len(v["log"]) == len(v["events"]) > 0
        assert all(isinstance(line, str) for line in v["log"])
        # "dealt 5 cards each" is told by the dealer: a name, not a number
        assert any("Ada" in line or "Bob" in line for line in v["log"])
        assert not any("[" in line and "]" in line for line in v["log"])  # no Rich markup left
        assert v["seats"] == [0, 1]


def test_a_hint_is_a_legal_move_for_the_seat_to_play_only(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada")
        b = join(c, t["code"], "Bob")
        ada = Seat(c, t["code"], t["token"], 0)
        bob = Seat(c, t["code"], b["token"], 1)
        va, vb = ada.until("view"), bob.until("view")
        mover, other = (ada, bob) if move_texts(va) else (bob, ada)
        legal = move_texts(va if va["moves"] else vb)
        mover.send({"type": "hint"})
        hint = mover.until("hint")
        assert hint["move"] in legal and hint["why"] and hint["ply"] == va["ply"]
        other.send({"type": "hint"})
        err = other.until("error")
        assert err["code"] == "not_your_turn"


def test_spectators_get_no_hints(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=2, match="single", name="Ada", bots={"1": "greedy"})
        watcher = Seat(c, t["code"], None, None)
        watcher.until("welcome")
        watcher.send({"type": "hint"})
        assert watcher.until("error")["code"] == "spectator"


def test_the_games_list_gives_every_presets_values(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        whot = next(g for g in c.get("/api/games").json() if g["name"] == "whot")
        assert whot["preset_rules"]["storey-1935"]["deal"] == 6
        assert whot["preset_rules"]["nigerian"]["deal"] == 5
        assert {o["name"] for o in whot["options"]} == set(whot["preset_rules"]["nigerian"])
        assert all(o["type"] for o in whot["options"])


def test_the_client_files_are_served_compressed(sqlite_url: str) -> None:
    # issue 7: "keep it small, fast"
    with client(sqlite_url) as c:
        r = c.get("/static/js/table.js", headers={"accept-encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        assert int(r.headers["content-length"]) < len(r.content) / 2
