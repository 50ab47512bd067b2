"""Tables in memory: seats, the match, bots and move clocks, and the connections watching.

The server is a thin driver of the game protocol: it only calls `make`, `Match`, `State.apply`,
`legal_moves`, `forced_move` and `view`, so it knows nothing of any one game. A seat — a person
or a network client — receives only `state.view(its player)`; spectators get `view(None)`.

Every change goes through `Room._commit`: validate, store (committed), apply, then broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.text import Text

import parlour
from parlour.bots import Bot, make_bot
from parlour.bots.advise import advise
from parlour.core import IllegalMove, Match, Move, ParlourError, RulesError, State
from parlour.core.options import rules_to_dict
from parlour.core.registry import info
from parlour.core.rng import fresh_seed

from .store import SeatRow, Store, TableRow

__all__ = ["Conn", "Hub", "Room", "TableError", "hash_token"]

log = logging.getLogger("parlour.server")
T = TypeVar("T")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: easy to read out
CODE_LENGTH = 6
MAX_NAME = 32
QUEUE_LIMIT = 512  # messages waiting for a slow client before it is dropped


class TableError(ParlourError):
    """A request about a table that cannot be done; `status` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400, code: str = "bad_request") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _bot_names(bots: dict[int, str]) -> dict[int, str]:
    """Display names for bot seats: "hint bot", or "random bot 1", "random bot 2" when several
    seats have the same kind (a spec's parameters are left out of the name)."""
    kinds = {seat: spec.split(":")[0] for seat, spec in bots.items()}
    out: dict[int, str] = {}
    for seat in sorted(kinds):
        same = sorted(s for s, k in kinds.items() if k == kinds[seat])
        out[seat] = f"{kinds[seat]} bot" + (f" {same.index(seat) + 1}" if len(same) > 1 else "")
    return out


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(name: Any) -> str:
    """A display name: text, 1–32 printable characters. Escaping is the renderer's job."""
    if not isinstance(name, str):
        raise TableError("name must be text")
    text: str = " ".join(name.split())
    if not text:
        raise TableError("name must not be empty")
    if len(text) > MAX_NAME:
        raise TableError(f"name must be at most {MAX_NAME} characters")
    if any(not ch.isprintable() for ch in text):
        raise TableError("name must not contain control characters")
    return text


class Conn:
    """One websocket: the seat it acts for (None: spectator) and what it has been sent."""

    def __init__(self, seat: int | None, is_host: bool) -> None:
        self.seat = seat
        self.is_host = is_host
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.game_number = -1
        self.events_sent = 0
        self.dropped = False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.dropped:
            return
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True  # too slow to keep up: the writer closes it; it may reconnect
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)


@dataclass
class SeatState:
    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None
    player: Bot | None = None
    conns: int = 0

    @property
    def filled(self) -> bool:
        return self.name is not None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "bot": self.bot,
            "filled": self.filled,
            "connected": self.bot is not None or self.conns > 0,
        }


class Room:
    """One table: its match, seats, connections and the tasks that move bots and clocks."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.code = row.code
        self.created_at = row.created_at
        self.game = parlour.make(row.game, players=row.players, rules=row.rules)
        self.preset = row.preset
        self.move_clock = row.move_clock
        self.bot_delay = row.bot_delay
        self.auto_next = row.auto_next
        self.status = row.status
        self.host_hash = row.host_hash
        self.match_seed = row.match_seed
        self.seats = [SeatState(s.seat, s.name, s.bot, s.token_hash) for s in row.seats]
        for s in self.seats:
            if s.bot is not None:
                s.player = make_bot(s.bot, self.game, seed=(row.match_seed + s.seat) % 2**63)
        self.match = Match(
            self.game,
            row.match_format,
            seed=row.match_seed,
            names=[s.name or f"seat {s.seat + 1}" for s in self.seats],
        )
        self.state: State | None = None  # the current game, or the last one once it is over
        self.game_id: int | None = None
        self.game_number = -1
        self.deadline: float | None = None
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._task_ply = -1
        self.last_activity = time.monotonic()

    # --- what everyone may know ----------------------------------------------------------------
    @property
    def live(self) -> bool:
        return self.state is not None and not self.state.is_over

    @property
    def ply(self) -> int:
        return len(self.state.history) if self.state is not None else 0

    def local_player(self, seat: int | None) -> int | None:
        """The player index in the current game of a match seat (None: not playing it)."""
        if seat is None or self.state is None:
            return None
        seats = self.match.seats  # stays the last game's seats once it is over
        return seats.index(seat) if seat in seats else None

    def seat_to_play(self) -> int | None:
        if self.state is None or self.state.to_play is None:
            return None
        return self.match.seats[self.state.to_play]

    def public(self) -> dict[str, Any]:
        gi = info(self.game.name)
        return {
            "code": self.code,
            "game": self.game.name,
            "title": gi.title,
            "players": self.game.players,
            "preset": self.preset,
            "rules": rules_to_dict(self.game.rules),
            "match": self.match.format.name,
            "move_clock": self.move_clock,
            "bot_delay": self.bot_delay,
            "auto_next": self.auto_next,
            "status": self.status,
            "seats": [s.public() for s in self.seats],
            "game_number": self.game_number,
            "scoreboard": self.match.scoreboard(),
        }

    def view_message(self, conn: Conn) -> dict[str, Any]:
        """The `view` message for one connection: its seat's view, legal moves, new events."""
        assert self.state is not None
        state = self.state
        player = self.local_player(conn.seat)
        view = state.view(player)
        events = view.pop("events", [])
        if conn.game_number != self.game_number:
            conn.game_number, conn.events_sent = self.game_number, 0
        start = min(conn.events_sent, len(events))
        conn.events_sent = len(events)
        to_play = self.seat_to_play()
        new_events = events[start:]
        msg: dict[str, Any] = {
            "type": "view",
            "table": self.code,
            "game_number": self.game_number,
            "ply": self.ply,
            "seat": conn.seat,
            "to_play": to_play,
            "view": view,
            "seats": list(self.match.seats),
            "events_from": start,
            "events": new_events,
            "log": self.describe(new_events),
            "legal": (
                [str(m) for m in state.legal_moves()]
                if to_play is not None and to_play == conn.seat
                else []
            ),
            "clock": (
                {"seat": to_play, "remaining": max(0.0, self.deadline - time.monotonic())}
                if self.deadline is not None
                else None
            ),
            "status": self.status,
        }
        if state.is_over:
            msg["result"] = state.result().to_dict()
            msg["scoreboard"] = self.match.scoreboard()
        return msg

    def describe(self, events: list[Any]) -> list[str]:
        """The events in words, plain text, with players' names (the game's own descriptions)."""
        gi = info(self.game.name)
        names = [self.seats[s].name or f"Seat {s + 1}" for s in self.match.seats]
        if gi.describe_event is None:
            return [str(ev) for ev in events]
        # describe_event speaks Rich markup (for the terminal); the browser wants plain text.
        return [Text.from_markup(gi.describe_event(ev, names)).plain for ev in events]

    async def hint(self, seat: int, bot: str = "hint") -> dict[str, Any]:
        """The `hint` message: the move `bot` would make for `seat` from its view, and why."""
        async with self.lock:
            if not self.live or self.state is None:
                raise TableError("no game is being played at this table now", 409, "no_game")
            if self.seat_to_play() != seat:
                raise TableError("a hint is for your own turn", 409, "not_your_turn")
            player = self.local_player(seat)
            view, legal, ply = self.state.view(player), self.state.legal_moves(), self.ply
        move, why = await asyncio.to_thread(advise, view, legal, self.game, bot)
        return {"type": "hint", "ply": ply, "move": str(move), "why": Text.from_markup(why).plain}

    def broadcast_view(self) -> None:
        for conn in list(self.conns):
            conn.send(self.view_message(conn))

    def broadcast(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        for conn in list(self.conns):
            conn.send(text)

    def broadcast_table(self) -> None:
        self.broadcast({"type": "table", "table": self.public()})

    # --- connections --------------------------------------------------------------------------
    def attach(self, conn: Conn) -> None:
        self.conns.add(conn)
        if conn.seat is not None:
            self.seats[conn.seat].conns += 1
        conn.send(
            {
                "type": "welcome",
                "table": self.public(),
                "seat": conn.seat,
                "host": conn.is_host,
            }
        )
        if self.state is not None:
            conn.send(self.view_message(conn))
        if conn.seat is not None:
            self.broadcast_table()

    def detach(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            if conn.seat is not None:
                self.seats[conn.seat].conns -= 1
                self.broadcast_table()

    def seat_for_token(self, token: str) -> tuple[int | None, bool] | None:
        """(seat or None, is host) for a token of this table; None for a token it does not know."""
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat, secrets.compare_digest(self.host_hash, h)
        if secrets.compare_digest(self.host_hash, h):
            return None, True
        return None

    # --- changes ------------------------------------------------------------------------------
    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        name = clean_name(name)
        async with self.lock:
            if self.status == "closed":
                raise TableError("the table is closed", 409, "closed")
            free = [s.seat for s in self.seats if not s.filled]
            if seat is None:
                if not free:
                    raise TableError("every seat is taken", 409, "full")
                seat = free[0]
            elif not 0 <= seat < len(self.seats):
                raise TableError(f"seat must be from 0 to {len(self.seats) - 1}", 400)
            elif seat not in free:
                raise TableError(f"seat {seat} is taken", 409, "taken")
            token = new_token()
            await self.hub.db(self.hub.store.fill_seat, self.code, seat, name, hash_token(token))
            s = self.seats[seat]
            s.name, s.token_hash = name, hash_token(token)
            self.match.names[seat] = name
            self.broadcast_table()
            if self.status == "waiting" and all(x.filled for x in self.seats):
                await self._start_game()
            return seat, token

    async def move(self, seat: int, text: str, ply: int | None) -> None:
        """A seat's move; IllegalMove or TableError says why it was refused (nothing changes)."""
        async with self.lock:
            if self.status == "closed":
                raise TableError("the table is closed", 409, "closed")
            if not self.live:
                raise TableError("no game is being played at this table now", 409, "no_game")
            if ply is not None and ply != self.ply:
                raise TableError(
                    f"late: the move was for ply {ply} but the game is at ply {self.ply}",
                    409,
                    "late",
                )
            if self.seat_to_play() != seat:
                raise TableError(
                    f"not your turn: seat {self.seat_to_play()} is to play", 409, "not_your_turn"
                )
            assert self.state is not None
            legal = self.state.legal_moves()
            try:
                move = self.state.game.parse_move(text)
            except IllegalMove as exc:
                raise IllegalMove(exc.reason, legal) from None
            if move not in legal:
                raise IllegalMove(f"{move} is not legal now", legal)
            await self._commit(move)

    async def next_game(self) -> None:
        async with self.lock:
            if self.status == "closed":
                raise TableError("the table is closed", 409, "closed")
            if self.status == "waiting":
                raise TableError("the table is still waiting for players", 409, "waiting")
            if self.live:
                raise TableError("the current game is not over", 409, "game_on")
            if self.match.is_over:
                raise TableError("the match is over", 409, "match_over")
            await self._start_game()

    async def close(self) -> None:
        async with self.lock:
            if self.status == "closed":
                return
            self._cancel_task()
            self.deadline = None
            await self.hub.db(self.hub.store.set_status, self.code, "closed")
            self.status = "closed"
            self.broadcast_table()
            self.broadcast({"type": "closed", "message": "the host closed the table"})
        self.hub.forget(self)

    # --- inside the lock ----------------------------------------------------------------------
    async def _start_game(self) -> None:
        state = self.match.next_game()
        number = len(self.match.games)
        spec = state.game.spec()
        self.game_id = await self.hub.db(
            self.hub.store.start_game,
            self.code,
            number,
            spec["players"],
            self.match.seats,
            state.seed,
            dict(state.setup),
            spec["rules"],
        )
        self.state, self.game_number, self.status = state, number, "playing"
        self.broadcast_table()
        self._after_change()

    async def _commit(self, move: Move) -> None:
        """Store a legal move (committed), apply it, then tell everyone."""
        assert self.state is not None and self.game_id is not None
        await self.hub.db(self.hub.store.add_move, self.game_id, self.ply, str(move))
        self.state.apply(move)
        self.last_activity = time.monotonic()
        if self.state.is_over:
            await self._finish()
        self._after_change()

    async def _finish(self) -> None:
        assert self.state is not None and self.game_id is not None
        summary = self.match.finish_game(self.state)
        result = summary.result.to_dict()
        result["points_by_seat"] = {str(k): v for k, v in summary.points.items()}
        status = "finished" if self.match.is_over else None
        await self.hub.db(self.hub.store.finish_game, self.game_id, result, status)
        if status:
            self.status = status

    def _after_change(self) -> None:
        """Broadcast, then arrange what happens next: a bot's move, a clock, the next game."""
        self._cancel_task()
        self.deadline = None
        seat = self.seat_to_play()
        if self.live and seat is not None:
            if self.seats[seat].bot is not None:
                self._spawn(self._bot_turn(self.ply))
            elif self.move_clock > 0:
                self.deadline = time.monotonic() + self.move_clock
                self._spawn(self._clock(self.ply))
        elif (
            self.state is not None
            and not self.live
            and not self.match.is_over
            and self.auto_next
            and self.status == "playing"
        ):
            self._spawn(self._auto_next(self.game_number))
        self.broadcast_view()
        if self.status == "finished":
            self.broadcast_table()

    def _spawn(self, coro: Awaitable[None]) -> None:
        self._task = asyncio.ensure_future(coro)

    def _cancel_task(self) -> None:
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _bot_turn(self, ply: int) -> None:
        await asyncio.sleep(self.bot_delay)
        async with self.lock:
            if not self.live or self.ply != ply or self.status == "closed":
                return
            assert self.state is not None
            seat = self.seat_to_play()
            assert seat is not None
            bot = self.seats[seat].player
            assert bot is not None
            view = self.state.view(self.state.to_play)
            legal = self.state.legal_moves()
            try:
                move = await asyncio.to_thread(bot.choose, view, legal)
            except Exception:  # a broken bot must not stop the table: it plays the forced move
                log.exception("bot %s at table %s failed", self.seats[seat].bot, self.code)
                move = self.state.forced_move()
            if move not in legal:
                log.error("bot %s chose illegal %s", self.seats[seat].bot, move)
                move = self.state.forced_move()
            await self._commit(move)

    async def _clock(self, ply: int) -> None:
        await asyncio.sleep(self.move_clock)
        async with self.lock:
            if not self.live or self.ply != ply or self.status == "closed":
                return
            assert self.state is not None
            seat = self.seat_to_play()
            move = self.state.forced_move()
            self.broadcast({"type": "clock", "seat": seat, "ply": ply, "move": str(move)})
            await self._commit(move)

    async def _auto_next(self, number: int) -> None:
        await asyncio.sleep(max(self.bot_delay, 0.0) * 4)
        async with self.lock:
            if self.game_number != number or self.live or self.match.is_over:
                return
            if self.status != "playing":
                return
            await self._start_game()

    def resume(self) -> None:
        """After loading from storage: bots and clocks carry on."""
        if self.status in ("playing", "waiting") and self.state is not None:
            self._after_change()


class Hub:
    """Every open table, the store, and the one thread that talks to the database."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6) -> None:
        self.store = store
        self.default_bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parlour-db")

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args))

    def shutdown(self) -> None:
        for room in self.rooms.values():
            room._cancel_task()
        self._executor.shutdown(wait=True)

    def forget(self, room: Room) -> None:
        self.rooms.pop(room.code, None)

    def get(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise TableError(f"no open table {code!r}", 404, "unknown_table")
        return room

    # --- creating ---------------------------------------------------------------------------
    async def create(
        self,
        game: str,
        *,
        players: int | None = None,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        bots: dict[int, str] | None = None,
        move_clock: float | None = None,
        match: str | None = None,
        bot_delay: float | None = None,
        auto_next: bool = False,
        host_name: str | None = None,
        seed: int | None = None,
    ) -> tuple[Room, str, int | None]:
        """A new table; returns it, the host token and the host's seat (if they sit down)."""
        try:
            g = parlour.make(game, players=players, rules=preset, **(options or {}))
            fmt = g.match_format(match)
        except (RulesError, TypeError, ValueError) as exc:
            raise TableError(str(exc), 400, "bad_rules") from None
        bots = dict(bots or {})
        for seat, spec in bots.items():
            if not 0 <= seat < g.players:
                raise TableError(f"bot seat {seat} is not a seat (0 to {g.players - 1})")
            try:
                make_bot(spec, g, seed=0)
            except RulesError as exc:
                raise TableError(str(exc), 400, "bad_bot") from None
        if move_clock is None:
            move_clock = float(getattr(g.rules, "move_clock", 0) or 0)
        if not 0 <= move_clock <= 3600:
            raise TableError("move_clock must be from 0 (off) to 3600 seconds")
        delay = self.default_bot_delay if bot_delay is None else bot_delay
        if not 0 <= delay <= 10:
            raise TableError("bot_delay must be from 0 to 10 seconds")
        host_token = new_token()
        bot_names = _bot_names(bots)
        seat_rows = [SeatRow(i, bot_names.get(i), bots.get(i), None) for i in range(g.players)]
        host_seat: int | None = None
        if host_name is not None:
            name = clean_name(host_name)
            free = [s for s in seat_rows if s.bot is None]
            if not free:
                raise TableError("every seat has a bot: there is no seat for the host")
            free[0].name, free[0].token_hash = name, hash_token(host_token)
            host_seat = free[0].seat
        code = await self._new_code()
        filled = all(s.name is not None for s in seat_rows)
        row = TableRow(
            code=code,
            created_at=time.time(),
            game=g.name,
            players=g.players,
            preset=g.preset,
            rules=rules_to_dict(g.rules),
            match_format=fmt.name,
            match_seed=fresh_seed() if seed is None else seed,
            move_clock=float(move_clock),
            bot_delay=float(delay),
            auto_next=auto_next,
            status="waiting",
            host_hash=hash_token(host_token),
            seats=seat_rows,
        )
        await self.db(self.store.create_table, row)
        room = Room(self, row)
        self.rooms[code] = room
        if filled:
            async with room.lock:
                await room._start_game()
        return room, host_token, host_seat

    async def _new_code(self) -> str:
        for _ in range(50):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not await self.db(self.store.code_exists, code):
                return code
        raise TableError("could not find a free table code", 503)

    # --- recovery ---------------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild every open table from its stored records, then let bots and clocks go on."""
        rows = await self.db(self.store.load_tables)
        for row in rows:
            try:
                room = Room(self, row)
                await self._rebuild(room, row)
            except Exception:
                log.exception("table %s could not be restored", row.code)
                continue
            self.rooms[room.code] = room
        for room in self.rooms.values():
            async with room.lock:
                room.resume()

    async def _rebuild(self, room: Room, row: TableRow) -> None:
        match = room.match
        for g in row.games:
            state = match.next_game()
            if state.seed != g.seed or match.seats != g.seats:
                raise ParlourError(f"stored game {g.number} does not follow from the match seed")
            for text in g.moves:
                state.apply(text)
            room.state, room.game_id, room.game_number = state, g.id, g.number
            if state.is_over:
                summary = match.finish_game(state)
                if g.finished_at is None:  # killed between the last move and the result
                    result = summary.result.to_dict()
                    result["points_by_seat"] = {str(k): v for k, v in summary.points.items()}
                    status = "finished" if match.is_over else None
                    await self.db(self.store.finish_game, g.id, result, status)
                    if status:
                        room.status = status
        if room.status == "waiting" and all(s.filled for s in room.seats):
            async with room.lock:
                await room._start_game()
