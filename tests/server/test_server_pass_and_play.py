"""Pass and play: one device seats several people at a table (`here` in POST /api/tables), each
with a token of their own, so that each hand stays behind its own token however many people
share the device (issue 31, item 1)."""

from __future__ import annotations

from server_testkit import Seat, client, new_table
from test_server_accounts import csrf, in_process, signup


def test_the_people_at_the_hosts_device_sit_at_once_each_with_their_own_token(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as c:
        t = new_table(c, game="whot", players=3, name="Ada", here={"1": "Bob", "2": "Cleo"})
        assert [h["seat"] for h in t["here"]] == [1, 2]
        tokens = {0: t["token"], **{h["seat"]: h["token"] for h in t["here"]}}
        assert len(set(tokens.values())) == 3  # one token per person, none the host's
        seats = c.get(f"/api/tables/{t['code']}").json()["seats"]
        assert [s["name"] for s in seats] == ["Ada", "Bob", "Cleo"]
        hands = {}
        for seat, token in tokens.items():
            s = Seat(c, t["code"], token, seat)
            welcome = s.until("welcome")
            assert welcome["seat"] == seat
            assert welcome["host"] is (seat == 0)  # only the host's token is the host's
            view = s.until("view")  # every seat is filled: the game started at once
            assert view["view"]["viewer"] == seat
            hands[seat] = view["view"]["hand"]
            # the other people's hands are counts, never cards
            assert "hands" not in view["view"]
        assert hands[0] != hands[1] != hands[2]


def test_pass_and_play_seats_are_free_ones_of_an_unrated_table(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        base = {"game": "whot", "players": 2, "name": "Ada"}
        bot_seat = c.post("/api/tables", json={**base, "bots": {"1": "easy"}, "here": {"1": "Bob"}})
        assert bot_seat.status_code == 400 and "not free" in bot_seat.json()["message"]
        nowhere = c.post("/api/tables", json={**base, "here": {"5": "Bob"}})
        assert nowhere.status_code == 400 and "not a seat" in nowhere.json()["message"]
        nameless = c.post("/api/tables", json={**base, "here": {"1": "  "}})
        assert nameless.status_code == 400 and "name" in nameless.json()["message"]


@in_process
def test_a_rated_table_takes_no_pass_and_play_seats(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        ada = signup(c, "ada_here")
        rated = c.post(
            "/api/tables",
            json={"game": "whot", "players": 2, "name": "Ada", "rated": True, "here": {"1": "Bob"}},
            headers=csrf(ada),
        )
        assert rated.status_code == 400 and "pass and play" in rated.json()["message"]
