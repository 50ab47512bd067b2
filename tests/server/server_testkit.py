"""Helpers shared by the server tests: clients, seats that play, and the hidden-card scan."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import parlour
from parlour.bots import BotLimits, make_bot
from parlour.server import Settings, create_app
from parlour.server.tables import plan_table

# `PARLOUR_SERVER_MODE=cluster`: every `client()` is a RemoteClient on a real cluster of gateways
# and table workers (tests/server/cluster_kit.py; the pool is set up by conftest.py)
CLUSTER_MODE = os.environ.get("PARLOUR_SERVER_MODE", "process") == "cluster"
POOL: Any = None
ADMIN_TOKEN = "the-moderators-test-token"


def server_settings(**settings: Any) -> dict[str, Any]:
    """The server settings of the tests: as asked, over defaults for scripted clients."""
    settings.setdefault("bot_delay", 0.0)
    settings.setdefault("rate", 10_000.0)  # scripted clients move faster than people
    settings.setdefault("burst", 10_000)
    # one test client opens many tables: the per-client limits are tested on their own
    for key in (
        "tables_per_client", "seats_per_client", "websockets_per_client",
        "max_bot_tables", "bot_tables_per_client", "tournaments_per_client",
    ):  # fmt: skip
        settings.setdefault(key, 100_000)
    settings.setdefault("tables_per_minute", 1e9)
    settings.setdefault("joins_per_minute", 1e9)
    settings.setdefault("bot_table_min_delay", 0.0)
    settings.setdefault("admin_token", ADMIN_TOKEN)  # `parlour admin` (test_server_moderation.py)
    return settings


@contextmanager
def client(url: str, **settings: Any) -> Iterator[Any]:
    """A client of a server on `url` with these settings: FastAPI's TestClient on the app in
    this process, or in cluster mode a RemoteClient on gateways and workers."""
    settings = server_settings(**settings)
    if CLUSTER_MODE:
        assert POOL is not None, "cluster mode: the pool is set up by tests/server/conftest.py"
        with POOL.client(url, settings) as remote:
            try:
                yield remote
            finally:
                _close_seats(remote)
        return
    app = create_app(Settings(database=url, **settings))
    with TestClient(app) as c:
        try:
            yield c
        finally:  # an open websocket would keep the test client from shutting down
            _close_seats(c)


def _close_seats(c: Any) -> None:
    for seat in list(OPEN.get(id(c), [])):
        seat.close()
    OPEN.pop(id(c), None)


OPEN: dict[int, list[Seat]] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Seat:
    """One websocket connection; keeps every message it received (as text) for the scan."""

    def __init__(self, c: Any, code: str, token: str | None, seat: int | None) -> None:
        self.cm = c.websocket_connect(f"/ws/{code}")
        self.ws: WebSocketTestSession = self.cm.__enter__()
        self.client_id = id(c)
        OPEN.setdefault(id(c), []).append(self)
        self.closed = False
        self.seat = seat
        self.received: list[tuple[int, int, str]] = []  # (game, ply, text)
        self.last: dict[str, Any] | None = None
        self.game, self.ply = 0, 0
        self.events: list[Any] = []  # the public log, rebuilt from each view's new events
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        self.ws.send_json(hello)

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        msg: dict[str, Any] = json.loads(text)
        if msg.get("type") == "view":
            if msg.get("patch"):  # only what changed: laid over the view sent before
                assert self.last is not None, "a patch came before any whole view"
                view = {**self.last["view"], **msg["view"]}
                for key in msg.get("removed", ()):
                    view.pop(key)
                msg["view"] = view
            if msg["game_number"] != self.game or msg["events_from"] == 0:
                self.events = []
            assert msg["events_from"] == len(self.events), (msg["events_from"], len(self.events))
            self.events.extend(msg["events"])
            self.game, self.ply = msg["game_number"], msg["ply"]
            self.last = msg
        self.received.append((self.game, self.ply, text))
        return msg

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        return self._first({kind}, match)

    def until_one_of(self, *kinds: str) -> dict[str, Any]:
        """The first message of any of these types (an error among them only if named)."""
        return self._first(set(kinds), {})

    def _first(self, kinds: set[str], match: dict[str, Any]) -> dict[str, Any]:
        for _ in range(1000):
            msg = self.recv()
            if msg.get("type") == "error" and "error" not in kinds:
                raise AssertionError(f"seat {self.seat} got an error: {msg}")
            if msg.get("type") in kinds and all(msg.get(k) == v for k, v in match.items()):
                return msg
        raise AssertionError(f"no {' or '.join(sorted(kinds))} {match}")

    def full_view(self) -> dict[str, Any]:
        """The last view with its whole event log, as `state.view(seat)` gives it."""
        assert self.last is not None
        return {**self.last["view"], "events": list(self.events)}

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            OPEN.get(self.client_id, [self]).remove(self)
            self.cm.__exit__(None, None, None)


async def until(check: Callable[[], bool], timeout: float) -> None:
    """Wait, inside a test's event loop, for the bus, the database thread and the server's tasks
    to bring about `check` (looked at every 10 ms); TimeoutError after `timeout` seconds."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


def whot_table_row(code: str) -> Any:
    """A stored Whot! table's row for the worker tests: Ada and a random bot slow to move (10 s),
    so that nothing plays while a test looks."""
    row, _, _ = plan_table(
        code, "whot", players=2, host_name="Ada", bots={1: "random"},
        bot_delay=10.0, bot_limits=BotLimits(), idle_timeout=0.0,
    )  # fmt: skip
    return row


def new_table(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def join(c: TestClient, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
    r = c.post(f"/api/tables/{code}/join", json={"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def move_texts(view: Mapping[str, Any]) -> list[str]:
    """The texts of a `view` message's legal moves (`moves[i].text`; protocol 1's `legal`)."""
    return [m["text"] for m in view["moves"]]


def greedy_chooser(game: parlour.Game[Any, Any], seed: int = 0) -> Callable[[Seat], str]:
    """Each seat plays like the greedy bot, from its own view (games end in reasonable time)."""
    bots: dict[int | None, Any] = {}

    def choose(seat: Seat) -> str:
        assert seat.last is not None
        if seat.seat not in bots:
            bots[seat.seat] = make_bot("greedy", game, seed=seed + (seat.seat or 0))
        legal = [game.parse_move(t) for t in move_texts(seat.last)]
        return str(bots[seat.seat].choose(seat.full_view(), legal))

    return choose


def random_chooser(rng: random.Random) -> Callable[[Seat], str]:
    def choose(seat: Seat) -> str:
        assert seat.last is not None
        return str(rng.choice(move_texts(seat.last)))

    return choose


def play_out(
    seats: dict[int, Seat],
    watchers: list[Seat],
    choose: Callable[[Seat], str],
    on_ply: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play the current game to its end: the seat to play picks a legal move.

    Every connection must receive exactly the views of every ply, in order.
    """
    everyone = [*seats.values(), *watchers]
    views = [s.until("view") for s in everyone]
    while True:
        plies = {v["ply"] for v in views}
        assert len(plies) == 1, plies
        v = views[0]
        if on_ply is not None:
            on_ply(v["ply"])
        if v["to_play"] is None:
            return v
        mover = seats[v["to_play"]]
        assert mover.last is not None and mover.last["moves"], mover.last
        for other in everyone:
            if other is not mover:
                assert other.last is not None and other.last["moves"] == []
        move = choose(mover)
        mover.send({"type": "move", "move": move, "ply": v["ply"]})
        views = [s.until("view", ply=v["ply"] + 1) for s in everyone]


# --- the wall: what a seat may not see ------------------------------------------------------
class CardNames:
    """Finds every card name of a game in a text with one regular expression."""

    def __init__(self, names: set[str]) -> None:
        alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![\w])(?:{alts})(?![\w])") if names else None

    def __call__(self, text: str) -> set[str]:
        return set(self.pattern.findall(text)) if self.pattern else set()


def _hidden_parts(state: parlour.State) -> tuple[list[list[Any]], list[Any]]:
    d = state.to_dict()
    hands: list[list[Any]] = d.get("hands") or []
    pack = d.get("pack") or d.get("stock") or []
    return hands, pack if isinstance(pack, list) else []


class Wall:
    """Strings a message to a seat (a player index; None: spectator) must never contain.

    Cards in the other hands and in the pack, less those the seat holds or everyone may see
    (they appear in the spectator's view); the pack order; the seed; the generator's state.
    """

    def __init__(self, state: parlour.State) -> None:
        hands, pack = _hidden_parts(state)
        self.names = CardNames(
            {c for h in hands for c in h if isinstance(c, str)}
            | {c for c in pack if isinstance(c, str)}
        )

    def forbidden(
        self, state: parlour.State, seat: int | None
    ) -> tuple[set[str], set[str], list[re.Pattern[str]]]:
        """(card names, plain strings, patterns) that `seat` may not receive now."""
        d = state.to_dict()
        hands, pack = _hidden_parts(state)
        public = self.names(json.dumps(parlour.core.view_to_wire(state.view(None))))
        own = {str(c) for c in hands[seat]} if seat is not None and seat < len(hands) else set()
        cards = (
            {
                c
                for c in [*(c for j, h in enumerate(hands) if j != seat for c in h), *pack]
                if isinstance(c, str)
            }
            - own
            - public
        )
        strings: set[str] = {str(state.seed)}
        strings.update(_big_numbers(d.get("rng")))
        for j, h in enumerate(hands):  # number cards (Sorry!): another hand, as a list
            if j != seat and len(h) >= 3 and all(isinstance(c, int) for c in h):
                strings.update(_list_forms(h))
        patterns = []
        if len(pack) >= 6 and not any(isinstance(c, str) for c in pack):  # the pack order
            body = r"\W+".join(re.escape(str(c)) for c in pack[:8])
            patterns.append(re.compile(rf"(?<!\w){body}(?!\w)"))
        return cards, strings, patterns


def forbidden_for(
    state: parlour.State, seat: int | None
) -> tuple[set[str], set[str], list[re.Pattern[str]]]:
    return Wall(state).forbidden(state, seat)


def _big_numbers(rng: Any) -> set[str]:
    """A few of the generator's state words (long numbers no message has a reason to hold)."""
    found: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, int) and not isinstance(x, bool) and x >= 10**8:
            found.append(str(x))
        elif isinstance(x, list | tuple):
            for y in x:
                walk(y)

    walk(rng)
    return set(found[1:8])


def _list_forms(cards: list[Any]) -> set[str]:
    return {
        json.dumps(cards),
        json.dumps(cards, separators=(",", ":")),
        json.dumps([str(c) for c in cards]),
        json.dumps([str(c) for c in cards], separators=(",", ":")),
    }


def _without_legal(state: parlour.State, seat: int | None, text: str) -> str:
    """The text without its list of legal moves, once that list is shown to hide nothing.

    A seat's legal moves may name cards it cannot see (Who's Who: "ask 2 for 6 sport"); they
    tell nothing as long as they do not change when everything hidden from the seat is redrawn.
    """
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        return text
    if not isinstance(msg, dict):
        return text
    # a view's moves (each with its text and fields), or an illegal move's refusal's `legal` texts
    if msg.get("type") == "view" and msg.get("moves"):
        texts = move_texts(msg)
    elif msg.get("type") == "error" and msg.get("legal"):
        texts = list(msg["legal"])
    else:
        return text
    assert seat is not None, "a spectator was sent legal moves"
    assert "legal" not in msg or msg["type"] == "error", "a view repeats its moves' texts"
    for k in range(3):
        other = state.permute_hidden(seat, parlour.GameRng(k))
        assert sorted(str(m) for m in other.legal_moves()) == sorted(texts), (
            f"seat {seat}'s legal moves depend on cards it cannot see"
        )
    if msg["type"] == "view":
        # each move's fields are those of the seat's legal move of that text, so they hide
        # nothing the texts do not (nothing else rides in a field)
        fields = {str(m): m.to_wire() for m in state.legal_moves()}
        assert [fields.get(m["text"]) for m in msg["moves"]] == msg["moves"], "a move's fields"
        msg.pop("moves")
    else:
        msg.pop("legal")
        msg.pop("message")
    return json.dumps(msg)


def scan(record: dict[str, Any], seat_messages: dict[int | None, list[tuple[int, str]]]) -> int:
    """Check every (ply, text) a seat received against the true state at that ply.

    `seat_messages` maps a player index (None: spectator) to its messages. Returns the number
    of messages checked; raises AssertionError naming the leak.
    """
    by_ply: dict[int, list[tuple[int | None, str]]] = {}
    for seat, msgs in seat_messages.items():
        for ply, text in msgs:
            by_ply.setdefault(ply, []).append((seat, text))
    state = parlour.replay(record, upto=0)
    wall = Wall(state)
    checked = 0
    for ply in range(len(record["moves"]) + 1):
        if ply > 0:
            state.apply(record["moves"][ply - 1])
        if state.is_over:  # a finished game's record is public (history downloads)
            break
        cache: dict[int | None, tuple[set[str], set[str], list[re.Pattern[str]]]] = {}
        for seat, text in by_ply.get(ply, []):
            if seat not in cache:
                cache[seat] = wall.forbidden(state, seat)
            cards, strings, patterns = cache[seat]
            text = _without_legal(state, seat, text)
            leaked = wall.names(text) & cards
            assert not leaked, f"seat {seat} at ply {ply} was sent {leaked}: {text[:300]}"
            for s in strings:
                assert s not in text, f"seat {seat} at ply {ply} was sent {s!r}: {text[:300]}"
            for p in patterns:
                m = p.search(text)
                assert m is None, f"seat {seat} at ply {ply} was sent {m.group(0)!r}: {text[:400]}"
            checked += 1
    return checked
