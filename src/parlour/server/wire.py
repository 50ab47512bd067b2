"""The server's messages, one builder per message type: this module is docs/protocol.md in code.

Everything a client receives is built here, from a `Table`, as plain JSON data: the table's public
facts, a seat's view (the game's view envelope and keys, its new typed events as objects, those
events in words for the log, and its legal moves, each with its text and its fields), hints, clock
timeouts and errors. Words are made here, at the edge, by the game's own `describe` function.
"""

from __future__ import annotations

import json
import time
from typing import Any, cast

from parlour.core import GameInfo, Move, info
from parlour.core.events import to_wire, view_to_wire

from .messages import (
    PROTOCOL,
    ChatOut,
    ChatRemovedOut,
    ClientOut,
    ClockOut,
    ClosedOut,
    ErrorOut,
    HintOut,
    PongOut,
    RematchOut,
    TableOut,
    ViewOut,
    WelcomeOut,
    WhyOut,
)
from .storage import TableRow
from .tables import Table

__all__ = [
    "EventCache",
    "chat",
    "clock",
    "closed",
    "dumps",
    "error",
    "hint",
    "listing",
    "patch",
    "pong",
    "rematch",
    "table",
    "table_info",
    "view",
    "web_assets",
    "welcome",
    "why",
]


def dumps(message: ClientOut | dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def web_assets(gi: GameInfo) -> dict[str, str | None]:
    """Where the browser finds a game's module, stylesheet and tutorial (its folder's files)."""
    web = gi.web
    if web is None:
        return {"module": None, "stylesheet": None, "tutorial": None}
    base = f"/games/{gi.name}/"
    folder = gi.web_folder()
    # a tutorial is a file of the game's folder by convention (played at /learn/{game})
    tutorial = folder is not None and (folder / "tutorial.json").is_file()
    return {
        "module": base + web.module,
        "stylesheet": web.stylesheet and base + web.stylesheet,
        "tutorial": base + "tutorial.json" if tutorial else None,
    }


def table_info(t: Table) -> dict[str, Any]:
    """A table's public facts: game, rules, seats (names, bots, who is connected), scoreboard."""
    return {
        "code": t.code,
        "game": t.game.name,
        "title": t.info.title,
        "players": t.game.players,
        "preset": t.preset,
        "rules": t.game.spec()["rules"],
        "match": t.match.format.name,
        "move_clock": t.move_clock,
        "bot_delay": t.bot_delay,
        "auto_next": t.auto_next,
        "private": t.private,
        "idle_timeout": t.idle_timeout,
        "on_idle": t.on_idle,
        "correspondence": t.correspondence,
        "on_timeout": t.on_timeout,
        "status": t.status,
        "seats": [s.public() for s in t.seats],
        "game_number": t.game_number,
        "scoreboard": t.match.scoreboard(),
        "web": web_assets(t.info),
        "rematch": t.rematch,
        "rated": t.rated,
    }


def listing(row: TableRow) -> dict[str, Any]:
    """A waiting table as the lobby lists it: the game, the rules, the free seats — not the names
    of the people seated (they joined a table, not a directory)."""
    return {
        "code": row.code,
        "game": row.game,
        "title": info(row.game).title,
        "preset": row.preset,
        "players": row.players,
        "free": sum(s.name is None for s in row.seats),
        "bots": sum(s.bot is not None for s in row.seats),
        "rated": row.rated,
        "created_at": row.created_at,
    }


def welcome(t: Table, seat: int | None, host: bool) -> WelcomeOut:
    return {
        "type": "welcome",
        "protocol": PROTOCOL,
        "table": table_info(t),
        "seat": seat,
        "host": host,
    }


def table(t: Table) -> TableOut:
    return {"type": "table", "table": table_info(t)}


class EventCache:
    """Each event of a table's current game on the wire and in words, made once for every
    connection (a view's events are the same objects for every viewer; one that is not — a game
    with private events — is simply made again)."""

    def __init__(self) -> None:
        self.game_number = -1
        self.made: list[tuple[Any, dict[str, Any] | str, str]] = []

    def get(self, t: Table, events: list[Any], start: int) -> tuple[list[Any], list[str]]:
        """The wire forms and the words of `events[start:]`."""
        if self.game_number != t.game_number:
            self.game_number, self.made = t.game_number, []
        made = self.made
        names: list[str] | None = None
        wires: list[Any] = []
        words: list[str] = []
        for i in range(start, len(events)):
            ev = events[i]
            if i < len(made) and made[i][0] is ev:
                _, w, text = made[i]
            else:
                if names is None:
                    names = t.player_names()
                w, text = to_wire(ev), _words(t.info.describe_event, ev, names)
                if i == len(made):
                    made.append((ev, w, text))
            wires.append(w)
            words.append(text)
        return wires, words


def patch(sent: dict[str, Any] | None, view: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """What changed in a view since `sent`: the keys with new values, and the keys gone."""
    if sent is None:
        return view, []
    changed = {k: v for k, v in view.items() if k not in sent or sent[k] != v}
    return changed, [k for k in sent if k not in view]


def view(
    t: Table,
    seat: int | None,
    events_from: int,
    deadline: float | None,
    cache: EventCache | None = None,
) -> ViewOut:
    """The `view` message for one seat (None: a spectator): its view, the events from
    `events_from` on (as objects and in words), its legal moves when it is to play (each with
    its text: protocol 2 sends no separate list of texts), the clock
    (`deadline`: when the player to move runs out, wall clock).
    (A gateway may send the view as a patch of the one sent before: see `patch`.)"""
    state = t.state
    assert state is not None
    typed = state.view(t.local_player(seat))
    # the events go apart in the message: taken out of this fresh view, not copied
    events = cast(dict[str, Any], typed).pop("events")
    start = min(events_from, len(events))
    to_play = t.seat_to_play()
    legal: list[Move] = state.legal_moves() if to_play is not None and to_play == seat else []
    wires, words = (cache or EventCache()).get(t, events, start)
    msg: ViewOut = {
        "type": "view",
        "table": t.code,
        "game_number": t.game_number,
        "ply": t.ply,
        "seat": seat,
        "to_play": to_play,
        "view": view_to_wire(typed),
        "seats": list(t.match.seats),
        "events_from": start,
        "events": wires,
        "log": words,
        "moves": [m.to_wire() for m in legal],
        "clock": (
            {"seat": to_play, "remaining": max(0.0, deadline - time.time())}
            if deadline is not None
            else None
        ),
        "status": t.status,
    }
    if state.is_over:
        msg["result"] = state.result().to_dict()
        msg["scoreboard"] = t.match.scoreboard()
    return msg


def _words(describe: Any, event: Any, names: list[str]) -> str:
    text: str = describe(event, names)
    return text


def hint(ply: int, move: Move, why: str) -> HintOut:
    return {"type": "hint", "ply": ply, "move": str(move), "fields": move.to_wire(), "why": why}


def clock(seat: int | None, ply: int, move: Move) -> ClockOut:
    """A seat's move clock ran out and the forced move was played for it."""
    return {"type": "clock", "seat": seat, "ply": ply, "move": str(move), "fields": move.to_wire()}


def closed(message: str) -> ClosedOut:
    return {"type": "closed", "message": message}


def error(code: str, message: str, legal: list[str] | None = None) -> ErrorOut:
    out: ErrorOut = {"type": "error", "code": code, "message": message}
    if legal is not None:
        out["legal"] = legal
    return out


def pong() -> PongOut:
    return {"type": "pong"}


def chat(lines: list[dict[str, Any]]) -> ChatOut:
    """Chat lines said at the table (one as it is said; the recent ones on arrival)."""
    return {"type": "chat", "lines": lines}


def chat_removed(line_id: str) -> ChatRemovedOut:
    """A chat line a moderator removed: take it off the screen."""
    return {"type": "chat_removed", "id": line_id}


def why(move: str, legal: bool, reason: str | None) -> WhyOut:
    """The answer to a `why` request: whether a move is legal now, and if not, why."""
    return {"type": "why", "move": move, "legal": legal, "reason": reason}


def rematch(code: str) -> RematchOut:
    """The host started a rematch: the same seats at a new table; every token here works there."""
    return {"type": "rematch", "code": code, "link": f"/t/{code}"}
