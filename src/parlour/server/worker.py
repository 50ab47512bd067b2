"""Table workers: the processes that own live tables.

Each open table has exactly one owner at a time, recorded in the database with an epoch. The
owner is the only writer of its tables: it takes requests (joins, moves, the host's commands) from
gateways over the bus, checks them against its `Table`, stores them — every write a transaction
that first compare-and-sets the table's owner, epoch and change number (`store.Fence`), so a
stalled old owner can never write after another worker took over — applies them, and publishes the
change, numbered, for the gateways' replicas. It runs the bots (in worker processes for searches),
the move clocks, idle seats and the next game of a match.

Workers heartbeat every second. A worker not heard from for a few seconds is dead: the others
adopt its tables from the move log, with the move clock's outage credited back to the player on
move, and carry on — bots, clocks, seats. On SIGTERM a worker drains: it hands each table to the
least-loaded live peer (or, with none, releases it for the next worker to adopt) and exits, with
no game aborted. `make serve` runs one worker and one gateway in one process.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Awaitable, Coroutine, Iterable
from typing import Any, assert_never

from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError

from parlour.core import IllegalMove, Move, ParlourError

from . import metrics
from .bus import Bus, tell
from .chat import ChatLog
from .database import Database
from .director import TournamentDirector
from .logs import Failures, bind_contextvars, table_task
from .messages import (
    Adopt,
    Answer,
    BusMessage,
    ChatLines,
    ChatLinesAnswer,
    ChatRemoved,
    ChatSaid,
    Close,
    Closed,
    Join,
    Joined,
    Moved,
    MoveStored,
    Next,
    NextStarted,
    Owner,
    Play,
    Presence,
    Ready,
    ReadyAnswer,
    Refusal,
    Reply,
    Request,
    ResultStored,
    SeatsChanged,
    Started,
    StatusChanged,
    Update,
)
from .settings import Settings
from .storage import Fence, Fenced, MoveRow, TableRow
from .tables import (
    Table,
    TableError,
    game_seeder,
    hash_token,
    new_token,
    rebuild,
    stand_in_name,
)
from .thinking import Thinker

__all__ = ["OwnedTable", "TableWorker", "worker_id"]

log = logging.getLogger("parlour.server")

HEARTBEAT = 1.0  # seconds between heartbeats
DEAD_AFTER = 3.0  # a worker not heard from for this long is dead; its tables are adopted
ADOPT_MARGIN = 0.05  # seconds past a peer's deadline before an adopting round looks again
ADOPT_SOON = 0.05  # the shortest wait between adopting rounds
ADOPT_AGAIN = 0.25  # the wait after a round that left orphans to its peers (or lost a race)
PRESENCE_TTL = 60.0  # a gateway's report of who is connected lasts this long unless repeated


def worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def table_channel(code: str) -> str:
    return f"table:{code}"


# the words everyone watching is told when a table closes or expires (stored with it, and the
# gateway's own for a table closed before the words were stored)
HOST_CLOSED = "the host closed the table"
EXPIRED = "nobody joined this table in time: it has expired"


class OwnedTable:
    """One table this worker owns: its `Table`, its lock, its fence, and the tasks that move bots,
    run clocks, hand on idle seats and start the next game.

    Every change follows one path, under the lock: check (the `Table` says whether it may happen),
    store (committed, behind the fence), apply, publish. A bot thinks with the lock released (the
    table keeps a snapshot of its view) and its move is played only if nothing changed meanwhile.
    """

    def __init__(self, worker: TableWorker, table: Table, fence: Fence) -> None:
        self.worker = worker
        self.table = table
        self.code = table.code
        self.fence = fence
        self.lock = asyncio.Lock()
        self.deadline: float | None = None  # wall clock: when the player to move runs out
        self._task: asyncio.Task[None] | None = None
        self._idle_task: asyncio.Task[None] | None = None
        self._retry = 0
        self.gone = False  # another worker owns it now: do nothing more
        # gateway -> (seat -> connections, when reported): who is there, across every gateway
        self.presence: dict[str, tuple[dict[int, int], float]] = {}
        # the recent chat lines, heard on the table's channel, for gateways new to the table
        self.chat = ChatLog()
        self.away_since: dict[int, float] = {}
        # as long ago as the store says (a table adopted after a restart keeps its age)
        self.last_activity = time.monotonic() - max(0.0, time.time() - table.last_active)
        now = time.monotonic()
        for s in table.seats:
            if s.filled and s.bot is None:
                self.away_since[s.seat] = now

    # --- storing and telling ---------------------------------------------------------------------
    async def _store(self, call: Awaitable[Any]) -> Any:
        """A write of this table; a database failure is a `storage` error (nothing changed), a
        lost fence a `moved` error (another worker owns the table now: the gateway asks again)."""
        try:
            return await call
        except Fenced:
            self.worker.lost(self)
            raise TableError(
                "this table moved to another worker: ask again", 503, "moved"
            ) from None
        except SQLAlchemyError as exc:
            log.error("table %s: storing failed: %s", self.code, str(exc).splitlines()[0])
            raise TableError(
                "the server could not store this (its database is failing); nothing changed: "
                "try again in a moment",
                503,
                "storage",
            ) from None

    async def _write(self, fn: Any, *args: Any) -> Any:
        """A store call behind this table's fence (its first argument); the fence moves on."""
        out = await self._store(self.worker.db.call(fn, self.fence, *args))
        if isinstance(out, tuple):  # (value, fence)
            self.fence = out[1]
            self.table.seq = self.fence.seq
            return out[0]
        self.fence = out
        self.table.seq = self.fence.seq
        return None

    async def publish(self, update: Update) -> None:
        """Tell the gateways what changed (a change carries the table's change number)."""
        # with the bus down the change is still stored: gateways read it from the database, and
        # the bots, clocks and next game that follow it must not wait for Redis
        await tell(self.worker.bus, table_channel(self.code), update)

    # --- requests from gateways ------------------------------------------------------------------
    async def join(
        self, name: Any, seat: int | None, account: int | None = None, account_name: Any = None
    ) -> Joined:
        async with self.lock:
            t = self.table
            if t.rated and account is not None:
                name = account_name  # at a rated table people sit under their usernames
            clean, seat = t.check_join(name, seat, account)
            token = new_token()
            token_hash = hash_token(token)
            store = self.worker.db.store
            await self._write(store.tables.fill_seat, seat, clean, token_hash, None, account)
            t.take_seat(seat, clean, token_hash, account)
            self.away_since[seat] = time.monotonic()
            self.last_activity = time.monotonic()
            await self.publish(SeatsChanged(self.code, self.fence.seq))
            if t.status == "waiting" and t.all_seated:
                await self._start_game()
            elif t.live:
                await self._after_change()  # a freed seat taken mid-game: its clock starts again
            return Joined(seat, token)

    async def move(
        self, seat: int, text: str, ply: int | None, asked: str | None = None
    ) -> MoveStored:
        """A seat's move; `asked`: the request's id, told with the move (see `Moved.asked`)."""
        async with self.lock:
            move = self.table.check_move(seat, text, ply)
            await self._commit(move, asked=asked)
            return MoveStored(self.fence.seq)

    async def next_game(self) -> NextStarted:
        async with self.lock:
            self.table.check_next()
            await self._start_game()
            return NextStarted(self.table.game_number)

    async def close(self, why: str = HOST_CLOSED, by_host: bool = True) -> Closed:
        async with self.lock:
            if self.table.status == "closed":
                return Closed(self.code)
            t = self.table
            # closing a rated game before its end leaves it: the host's seat loses it
            host = frozenset(s.seat for s in t.seats if s.token_hash == t.host_hash)
            await self._close(why, host if by_host and t.rated and t.live else frozenset())
        self.worker.forget(self)
        return Closed(self.code)

    async def _close(self, why: str, losers: frozenset[int]) -> None:
        """Inside the lock: the table closed, a rated game in play rated with `losers` last."""
        self._cancel_tasks()
        self.deadline = None
        t = self.table
        store = self.worker.db.store
        if losers and t.rated and t.game_id is not None:
            await self._write(store.tables.close_rated_game, t.game_id, losers, why)
        else:
            await self._write(store.tables.set_status, "closed", why)
        t.status = "closed"
        await self.publish(StatusChanged(self.code, self.fence.seq, why))

    async def _stop_going_round(self, game_number: int, ply: int) -> None:
        """A game of bots alone past the move cap: closed, as a host would close it. A rated
        table's people have all left it by then (their seats went to bots): they lose it."""
        async with self.lock:
            t = self.table
            if not self._still(game_number, ply):
                return
            left = frozenset(s.seat for s in t.seats if s.account_id is not None)
            why = f"the bots played {t.ply:,} moves without an end to the game: the table is closed"
            await self._on_storage(self._close(why, left))
            if t.status != "closed":
                return  # the database failed: `_on_storage` tries again later
        self.worker.forget(self)
        self.worker.director.poke()  # a tournament's round may be over

    async def expire(self) -> None:
        """A waiting table nobody joined in time: closed for everyone, kept for the record."""
        async with self.lock:
            if self.table.status != "waiting":
                return
            self._cancel_tasks()
            await self._write(self.worker.db.store.tables.set_status, "expired", EXPIRED)
            self.table.status = "expired"
            await self.publish(StatusChanged(self.code, self.fence.seq, EXPIRED))
        self.worker.forget(self)

    def presence_report(self, gateway: str, seats: dict[int, int]) -> None:
        """A gateway says how many connections each seat has there."""
        now = time.monotonic()
        self.presence[gateway] = (seats, now)
        here = self.connected()
        for s in self.table.seats:
            if s.bot is None and s.filled:
                if here.get(s.seat):
                    self.away_since.pop(s.seat, None)
                else:
                    self.away_since.setdefault(s.seat, now)

    def connected(self) -> dict[int, int]:
        now = time.monotonic()
        out: dict[int, int] = {}
        for seats, at in self.presence.values():
            if now - at <= PRESENCE_TTL:
                for seat, n in seats.items():
                    out[seat] = out.get(seat, 0) + n
        return out

    # --- changes, inside the lock ----------------------------------------------------------------
    async def _start_game(self) -> None:
        t = self.table
        undo = t.match.undo_point()
        state = t.deal_next()
        spec = state.game.spec()
        deadline = self._deadline_for(state)
        try:
            game_id = await self._write(
                self.worker.db.store.tables.start_game,
                len(t.match.games),
                spec["players"],
                t.match.seats,
                state.seed,
                dict(state.setup),
                spec["rules"],
                deadline,
            )
        except TableError:
            t.match.undo(undo)  # the game was not stored: it has not started
            raise
        t.begin(state, game_id)
        self.deadline = deadline
        await self.publish(Started(self.code, self.fence.seq, t.game_number, game_id, deadline))
        await self._after_change(new_deadline=False)

    def _deadline_for(self, state: Any) -> float | None:
        """The move clock's deadline for the player to move in `state` (a person; wall clock)."""
        t = self.table
        if t.move_clock <= 0 or state.is_over or state.to_play is None:
            return None
        seat = t.match.seats[state.to_play] if state.to_play < len(t.match.seats) else None
        if seat is None or t.bot_at(seat) is not None:
            return None
        return time.time() + t.move_clock

    async def _commit(self, move: Move, forced: bool = False, asked: str | None = None) -> None:
        """Store a legal move (committed, behind the fence), apply it, then tell the gateways."""
        t = self.table
        assert t.state is not None and t.game_id is not None
        ply = t.ply
        deadline = None
        if t.move_clock > 0:
            # the next player's clock is stored with the move, and the move is stored before it
            # is played: a copy plays it first to see who is next (a table without a move clock,
            # most of them, needs no copy)
            after = t.state.copy()
            after.apply(move)
            deadline = self._deadline_for(after) if not after.is_over else None
        row = MoveRow(self.fence, t.game_id, ply, str(move), deadline)
        self.fence = await self._store(self.worker.db.write_move(row))
        t.seq = self.fence.seq
        t.apply(move)
        metrics.MOVES.labels(t.game.name).inc()
        self.deadline = deadline
        self.last_activity = time.monotonic()
        self._retry = 0
        move_seq = self.fence.seq
        finished = t.state.is_over
        told = False
        if finished:
            # the result is stored before anyone is shown the last move: a client that saw the
            # game end, asking any gateway for its history next, finds it there
            result, status = t.finish()
            if status:
                t.status = status
            try:
                await self._write(
                    self.worker.db.store.tables.finish_game, t.game_id, result, status
                )
                told = True
            except TableError as exc:
                if exc.code != "storage":
                    raise
                # the last move is stored, so a restart scores the game again; meanwhile retry
                self.worker.keep(
                    asyncio.ensure_future(self._store_result(t.game_id, result, status))
                )
        await self.publish(
            Moved(self.code, move_seq, t.game_number, ply, str(move), deadline, forced, asked)
        )
        if told:
            await self.publish(ResultStored(self.code, self.fence.seq))
        if t.status == "finished":
            self.worker.director.poke()  # a tournament's round may be over
        await self._after_change(new_deadline=False)

    async def _store_result(self, game_id: int, result: dict[str, Any], status: str | None) -> None:
        delay = 1.0
        while not self.gone:
            await asyncio.sleep(delay)
            async with self.lock:
                try:
                    await self._write(
                        self.worker.db.store.tables.finish_game, game_id, result, status
                    )
                    await self.publish(ResultStored(self.code, self.fence.seq))
                    return
                except TableError as exc:
                    if exc.code != "storage":
                        return
            delay = min(delay * 2, 30.0)

    async def _after_change(self, new_deadline: bool = True) -> None:
        """Arrange what happens next: a bot's move, a clock, an idle seat, the next game."""
        t = self.table
        self._cancel_tasks()
        if new_deadline:
            self.deadline = self._deadline_for(t.state) if t.state is not None else None
        seat = t.seat_to_play()
        cap = self.worker.settings.bots_only_move_cap
        if t.live and cap and t.ply >= cap and t.bots_only:
            self._spawn(self._stop_going_round(t.game_number, t.ply))
        elif t.live and seat is not None:
            if t.bot_at(seat) is not None:
                self._spawn(self._bot_turn(t.game_number, t.ply))
            elif self.deadline is not None:
                self._spawn(self._clock(t.game_number, t.ply, self.deadline))
            if t.bot_at(seat) is None and t.idle_timeout > 0 and t.seats[seat].filled:
                self._idle_task = table_task(self.code, self._idle(t.game_number, t.ply, seat))
        elif t.state is not None and not t.live and not t.match.is_over and t.auto_next:
            self._spawn(self._auto_next(t.game_number))  # the match's next game, by itself

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        self._task = table_task(self.code, coro)  # its log lines name the table

    def _cancel_tasks(self) -> None:
        for name in ("_task", "_idle_task"):
            task = getattr(self, name)
            setattr(self, name, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _still(self, game_number: int, ply: int) -> bool:
        """Whether the game is still where a task left it (nobody moved, nothing closed)."""
        t = self.table
        return (
            not self.gone
            and t.live
            and t.game_number == game_number
            and t.ply == ply
            and t.status != "closed"
        )

    async def _retry_later(self) -> None:
        """The database failed while a bot, a clock or the next game was being stored: try the
        same again later (nothing changed), backing off to once every 30 s until it works."""
        self._retry += 1
        await asyncio.sleep(min(30.0, 0.5 * 2**self._retry))
        async with self.lock:
            if not self.gone and self.table.status in ("playing", "waiting"):
                await self._after_change()

    async def _on_storage(self, call: Awaitable[None]) -> None:
        """Run a task's change; a storage failure schedules a retry instead of stopping."""
        try:
            await call
        except TableError as exc:
            if exc.code == "moved":
                return  # another worker owns the table now and carries on (see `lost`)
            if exc.code != "storage":
                raise
            self._spawn(self._retry_later())

    async def _bot_turn(self, game_number: int, ply: int) -> None:
        await asyncio.sleep(self.table.bot_delay)
        async with self.lock:
            t = self.table
            if not self._still(game_number, ply):
                return
            assert t.state is not None
            seat = t.seat_to_play()
            assert seat is not None
            bot = t.bot_at(seat)
            spec = t.seats[seat].bot
            assert bot is not None and spec is not None
            view = t.state.view(t.state.to_play)
            legal = t.state.legal_moves()
            seed = t.decision_seed(seat)
        # The bot thinks with the lock released (a search in a worker process).
        try:
            move: Move | None = await self.worker.thinker.choose(
                t.game, bot, spec, view, legal, seed, payer=t.creator or t.code
            )
        except asyncio.CancelledError:
            raise
        except Exception:  # a broken bot must not stop the table: it plays the forced move
            log.exception("bot %s at table %s failed", spec, self.code)
            move = None
        async with self.lock:
            if not self._still(game_number, ply):
                return
            assert t.state is not None
            if move is None or move not in legal:
                if move is not None:
                    log.error("bot %s chose illegal %s", spec, move)
                move = t.state.forced_move()
            await self._on_storage(self._commit(move))

    async def _clock(self, game_number: int, ply: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with self.lock:
            if self._still(game_number, ply):
                await self._on_storage(self._time_out())

    async def clock_due(self, now: float) -> bool:
        """The sweep's check of the move clock at wall-clock time `now` (a clock the sleeping
        task has not acted on yet: a correspondence move's days, or a test's injected time).
        Returns whether the player to move was out of time."""
        async with self.lock:
            if self.deadline is None or now < self.deadline or not self.table.live:
                return False
            await self._on_storage(self._time_out())
            return True

    async def _time_out(self) -> None:
        """Inside the lock: the player to move is out of time. The forced move is played for
        them; at a correspondence table whose host chose it, a bot takes the seat instead and
        plays on (the person's token no longer acts there)."""
        t = self.table
        assert t.state is not None
        seat = t.seat_to_play()
        if t.correspondence and t.on_timeout == "bot" and seat is not None and not t.bot_at(seat):
            await self.seat_idle(seat, "bot")
            return
        await self._commit(t.state.forced_move(), forced=True)

    async def _auto_next(self, number: int) -> None:
        await asyncio.sleep(max(self.table.bot_delay, 0.0) * 4)
        async with self.lock:
            t = self.table
            if self.gone or t.game_number != number or t.live or t.match.is_over:
                return
            if t.status != "playing":
                return
            await self._on_storage(self._start_game())

    async def _idle(self, game_number: int, ply: int, seat: int) -> None:
        """A person to play who has not acted in `idle_timeout`: as the host chose, a bot takes
        the seat and plays on, or the seat is freed for someone else."""
        t = self.table
        await asyncio.sleep(t.idle_timeout)
        async with self.lock:
            if not self._still(game_number, ply) or t.seat_to_play() != seat:
                return
            await self._on_storage(self.seat_idle(seat))

    async def seat_idle(self, seat: int, how: str | None = None) -> None:
        """Inside the lock: act on an idle person's seat as the table's `on_idle` says (or
        `how`)."""
        t = self.table
        store = self.worker.db.store
        if (how or t.on_idle) == "bot":
            name = stand_in_name("hint", t.game.name, t.seats[seat].name)
            await self._write(store.tables.fill_seat, seat, name, None, "hint")
            t.hand_to_bot(seat)
        else:
            await self._write(store.tables.fill_seat, seat, None, None, None, None)
            t.free_seat(seat)
        self.away_since.pop(seat, None)
        await self.publish(SeatsChanged(self.code, self.fence.seq, seat))
        if t.live:
            await self._after_change()

    async def sweep_seats(self, now: float) -> None:
        """Waiting seats whose person has not been connected for `idle_timeout` (squatters)."""
        t = self.table
        if t.idle_timeout <= 0 or t.status != "waiting":
            return
        async with self.lock:
            for s in t.seats:
                since = self.away_since.get(s.seat)
                gone = since is not None and now - since >= t.idle_timeout
                if s.bot is None and s.filled and gone:
                    await self.seat_idle(s.seat)
            if t.status == "waiting" and t.all_seated:
                await self._start_game()

    async def resume(self, credit: float = 0.0) -> None:
        """After adopting or loading: bots, clocks (with `credit` seconds of outage given back to
        the player on move) and the next game carry on."""
        async with self.lock:
            t = self.table
            if t.status not in ("playing", "waiting"):
                return
            if t.status == "waiting" and t.all_seated:
                await self._on_storage(self._start_game())
                return
            if t.state is None:
                return
            if t.clock_deadline is not None and t.live:
                # the time the player had left when the owner died, given back
                self.deadline = max(time.time(), t.clock_deadline + credit)
                await self._after_change(new_deadline=False)
            else:
                await self._after_change()


class TableWorker:
    """A worker process's tables, its heartbeat, and its part in adopting the tables of the dead."""

    def __init__(
        self,
        db: Database,
        bus: Bus,
        settings: Settings,
        secret: bytes,
        ident: str | None = None,
    ) -> None:
        self.db = db
        self.bus = bus
        self.settings = settings
        self.secret = secret
        self.id = ident or worker_id()
        self.thinker = Thinker(settings.bot_workers)
        self.tables: dict[str, OwnedTable] = {}
        self.draining = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._replies: OrderedDict[str, Reply] = OrderedDict()  # request id -> answer
        # requests being answered, by id: the same request sent again meanwhile (its gateway
        # heard nothing in time) waits for the same answer instead of being played again
        self._answering: dict[str, asyncio.Future[Reply]] = {}
        # tables being loaded, and the end of their load: an `adopt` message and the heartbeat's
        # round can both find a new table at once, and a second copy would fence the first out of
        # its own table; a request for a table being loaded waits for the load, however long
        self._loading: dict[str, asyncio.Event] = {}
        self.director = TournamentDirector(self)  # moves running tournaments on
        self.last_beat: float | None = None  # monotonic: the last heartbeat stored

    def keep(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- life ------------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.db.call(self.db.store.owners.register_worker, self.id)
        self.last_beat = time.monotonic()
        await self.bus.subscribe(f"worker:{self.id}", self._on_request)
        await self.adopt_round()
        # the heartbeat has a loop of its own: an adopting round that loads a long table (or
        # many) must not keep this worker from saying it is alive, or its peers adopt its tables
        self._loops = [
            asyncio.ensure_future(self._every(HEARTBEAT, self._beat)),
            asyncio.ensure_future(self._adopting()),
            asyncio.ensure_future(self._every(self.settings.sweep_interval, self.sweep)),
        ]
        await self.director.start()

    async def _every(self, seconds: float, job: Any) -> None:
        # a database hiccup must not stop the next round; an outage is said once, not a second
        failures = Failures(log, f"worker {self.id}: {getattr(job, '__name__', job)}")
        while True:
            await asyncio.sleep(seconds)
            await failures.run(job())

    async def _beat(self) -> None:
        await self.db.call(self.db.store.owners.heartbeat, self.id, len(self.tables), self.draining)
        self.last_beat = time.monotonic()  # for /readyz and the metrics (server/health.py)

    async def _adopting(self) -> None:
        """Adopting rounds, at most HEARTBEAT apart, and one just as a live peer's last
        heartbeat grows DEAD_AFTER old: a dead worker's tables are taken the moment it counts as
        dead, not up to a round later (with rounds a fixed second apart, and each round's own
        time added to the second on a loaded machine, failover took 3-4 s, once 5.5 s)."""
        failures = Failures(log, f"worker {self.id}: adopting")
        while True:
            wait = HEARTBEAT
            if not self.draining:  # a database hiccup must not stop the next round
                got = await failures.run(self.adopt_round())
                wait = HEARTBEAT if got is None else got
            await asyncio.sleep(min(HEARTBEAT, max(ADOPT_SOON, wait)))

    async def stop(self) -> None:
        await self.director.stop()
        for task in self._loops:
            task.cancel()
        for t in self.tables.values():
            t._cancel_tasks()
        for task in list(self._tasks):
            task.cancel()
        self.thinker.shutdown()
        await self.bus.unsubscribe(f"worker:{self.id}", self._on_request)

    async def drain(self) -> int:
        """Hand every table to a live peer (the least loaded first), or release it when there is
        none, and stop taking new ones: a rolling restart aborts no game. Returns how many."""
        self.draining = True
        await self.db.call(self.db.store.owners.heartbeat, self.id, len(self.tables), True)
        since = time.time() - DEAD_AFTER
        peers = [
            w
            for w in await self.db.call(self.db.store.owners.live_workers, since)
            if w["id"] != self.id and not w["draining"]
        ]
        handed = 0
        for i, owned in enumerate(list(self.tables.values())):
            async with owned.lock:
                owned._cancel_tasks()
                peer = peers[i % len(peers)]["id"] if peers else None
                f = owned.fence
                if peer is not None:
                    new = await self.db.call(
                        self.db.store.owners.claim, f.code, peer, f.owner, f.epoch
                    )
                    if new is not None:
                        # a prompt: the peer finds the table in its next adopting round
                        await tell(self.bus, f"worker:{peer}", Adopt(f.code))
                else:
                    await self.db.call(self.db.store.owners.release, f)
                owned.gone = True
                handed += 1
            self.tables.pop(owned.code, None)
            await self.bus.unsubscribe(table_channel(owned.code), self._on_table)
        await self.leave()
        return handed

    async def leave(self) -> None:
        """Out of the list of live workers: the tables still owned here are orphans now, which the
        live workers adopt in their next round (a drain that could not finish)."""
        await self.db.call(self.db.store.owners.drop_worker, self.id)

    # --- owning ----------------------------------------------------------------------------------
    async def adopt_round(self) -> float:
        """Adopt this worker's share of the open tables with no live owner (new tables assigned
        to it that it has not loaded yet, tables of dead workers, released tables). Returns the
        seconds until the next live peer would count as dead if it said nothing more."""
        store = self.db.store
        now = time.time()
        live = await self.db.call(store.owners.live_workers, now - DEAD_AFTER)
        alive = [w["id"] for w in live]
        soonest = min(
            (w["heartbeat_at"] + DEAD_AFTER for w in live if w["id"] != self.id),
            default=now + HEARTBEAT,
        )
        mine = await self.db.call(store.owners.owned_by, self.id)
        # tables are loaded side by side: each load's database reads and bus round trips overlap
        # the others' (one after another, a dozen tables took a loaded machine seconds)
        await self._all(
            self._load(code, Fence(code, self.id, epoch, -1))
            for code, epoch in mine.items()
            if code not in self.tables
        )
        orphans = await self.db.call(store.owners.orphans, alive, 1000)
        wait = soonest + ADOPT_MARGIN - time.time()  # past the moment: a heartbeat may be late
        if orphans:
            # the live workers look at the same moment (each at the peer's deadline): each takes
            # the slice of its place among them (the least loaded first), so that they do not
            # all race for the first tables; what is left or lost in a race is looked at again
            # soon after
            takers = [w["id"] for w in live if not w["draining"]]
            share = math.ceil(len(orphans) / max(1, len(takers)))
            place = takers.index(self.id) if self.id in takers else 0
            taken = orphans[place * share : (place + 1) * share] or orphans[:share]
            credits = {owner: await self._outage(owner) for owner in {o for _, o, _ in taken}}
            await self._all(
                self._take(code, owner, epoch, credits[owner]) for code, owner, epoch in taken
            )
            if len(taken) < len(orphans):
                wait = min(wait, ADOPT_AGAIN)
        return wait

    async def _take(self, code: str, owner: str | None, epoch: int, credit: float) -> None:
        fence = await self.db.call(self.db.store.owners.claim, code, self.id, owner, epoch)
        if fence is not None:
            await self._load(code, fence, credit)

    async def _all(self, loads: Iterable[Awaitable[Any]]) -> None:
        """Run loads side by side; one that fails is logged and does not stop the others."""
        for failed in await asyncio.gather(*loads, return_exceptions=True):
            if isinstance(failed, BaseException):
                log.error("worker %s: a table could not be adopted", self.id, exc_info=failed)

    async def _outage(self, owner: str | None) -> float:
        """How long the dead owner was gone, to give back to a player's move clock."""
        if owner is None:
            return 0.0
        rows = await self.db.call(self.db.store.owners.live_workers, 0.0)
        last = next((w["heartbeat_at"] for w in rows if w["id"] == owner), None)
        return 0.0 if last is None else max(0.0, time.time() - last)

    async def adopt(self, code: str) -> None:
        """A gateway (or a draining peer) says a table is ours: load it if it is."""
        owner = await self.db.call(self.db.store.owners.owner_of, code)
        if owner is None or owner[0] != self.id or code in self.tables:
            return
        await self._load(code, Fence(code, self.id, owner[1], owner[2]))

    async def _load(self, code: str, fence: Fence, credit: float = 0.0) -> OwnedTable | None:
        loading = self._loading.get(code)
        if loading is not None:  # being loaded (say, by the heartbeat's round): once is enough,
            await loading.wait()  # and the caller gets the table whole, its first game dealt
            return self.tables.get(code)
        if code in self.tables:
            return self.tables[code]
        loaded = self._loading[code] = asyncio.Event()
        try:
            return await self._load_once(code, credit)
        finally:
            del self._loading[code]
            loaded.set()

    async def _load_once(self, code: str, credit: float) -> OwnedTable | None:
        row: TableRow | None = await self.db.call(self.db.store.tables.load_table, code)
        if row is None or row.owner != self.id or row.status not in ("waiting", "playing"):
            return None
        fence = Fence(code, self.id, row.epoch, row.seq)
        try:
            table = self._table(row)
            unstored = rebuild(table, row)
        except Exception:
            log.exception("table %s could not be restored", code)
            return None
        owned = OwnedTable(self, table, fence)
        self.tables[code] = owned
        await self.bus.subscribe(table_channel(code), self._on_table)
        for game_id, result, status in unstored:  # killed between a last move and its result
            try:
                async with owned.lock:
                    await owned._write(self.db.store.tables.finish_game, game_id, result, status)
            except TableError:
                log.error("table %s: the result of game %s could not be stored", code, game_id)
        await owned.publish(Owner(code, self.id, owned.fence.epoch))
        await owned.resume(credit)
        return owned

    def _table(self, row: TableRow) -> Table:
        seeder: Any = game_seeder(self.secret, row.code)
        if row.games and row.games[0].seed != seeder(0):
            seeder = None  # stored before seeds were keyed: the match generator's stream
        return Table(row, seeder)

    def lost(self, owned: OwnedTable) -> None:
        """A write was fenced out: another worker owns the table. Let it go."""
        if not owned.gone:
            log.warning("table %s: taken over by another worker; letting it go", owned.code)
        owned.gone = True
        owned._cancel_tasks()
        self._drop(owned)

    def forget(self, owned: OwnedTable) -> None:
        owned.gone = True
        self._drop(owned)
        self.keep(
            asyncio.ensure_future(self.bus.unsubscribe(table_channel(owned.code), self._on_table))
        )

    def _drop(self, owned: OwnedTable) -> None:
        """Let go of this copy of a table, and never of another one of the same code."""
        if self.tables.get(owned.code) is owned:
            del self.tables[owned.code]

    # --- the bus ---------------------------------------------------------------------------------
    async def _on_table(self, channel: str, message: BusMessage) -> None:
        """A table's channel: the worker listens for the gateways' presence reports and keeps
        the chat lines said (its own changes come back too, and are nothing to it)."""
        match message:
            case Presence(table=code, gateway=gateway, seats=seats):
                owned = self.tables.get(code)
                if owned is not None:
                    owned.presence_report(gateway, seats)
            case ChatSaid(table=code, line=line):
                owned = self.tables.get(code)
                if owned is not None:
                    owned.chat.add(line)
            case ChatRemoved(table=code, line=line_id):
                owned = self.tables.get(code)
                if owned is not None:
                    owned.chat.remove(line_id)
            case _:
                pass

    async def _on_request(self, channel: str, message: BusMessage) -> None:
        """A message on this worker's channel, answered in a task of its own: the channel's
        messages are handed over one at a time, and a request that waits (for a commit, a table's
        lock, a table being loaded) must hold up no other table's. Requests to one table keep
        their order at its lock."""
        if isinstance(message, Adopt | Request):
            self.keep(asyncio.ensure_future(self._serve(message)))

    async def _serve(self, message: Adopt | Request) -> None:
        if isinstance(message, Request):  # its log lines: the request, its table and seat
            bind_contextvars(request_id=message.id, table=message.table)
            if isinstance(message.ask, Play | Join) and message.ask.seat is not None:
                bind_contextvars(seat=message.ask.seat)
        try:
            await self._serve_once(message)
        except (OperationalError, InterfaceError) as exc:
            # the database is down: one line, as an HTTP request's refusal has (a table not
            # adopted now is adopted by a later round, whose failures are said once a spell)
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            log.warning("worker %s: %r failed for the database: %s", self.id, message, first)
        except Exception:  # one bad request must not go unsaid in the log
            log.exception("worker %s: a request failed: %r", self.id, message)

    async def _serve_once(self, message: Adopt | Request) -> None:
        if isinstance(message, Adopt):
            await self.adopt(message.table)
            return
        again = message.id in self._replies or message.id in self._answering
        reply = await self.reply(message)
        if isinstance(reply.answer, MoveStored) and not again:
            return  # told with the move itself (Moved.asked); a request asked again is
            # answered from `_replies`
        # lost with the bus down: the gateway asks again with the same id, answered from there
        await tell(self.bus, f"gateway:{message.reply}", reply)

    async def reply(self, request: Request) -> Reply:
        """The answer to a request: a gateway's through the bus, or this process's own gateway's
        directly (no bus between two parts of one process). A request asked again (its answer
        lost) gets the same answer, and is never done twice."""
        rid = request.id
        if rid in self._replies:  # a request sent again (its answer was lost)
            return self._replies[rid]
        if rid in self._answering:  # sent again while it is being answered
            return await asyncio.shield(self._answering[rid])
        pending: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._answering[rid] = pending
        try:
            reply = await self._answer(request)
        except BaseException:
            pending.cancel()  # whoever waits for the same answer gives up too
            raise
        finally:
            self._answering.pop(rid, None)
        pending.set_result(reply)
        self._replies[rid] = reply
        while len(self._replies) > 5000:
            self._replies.popitem(last=False)
        return reply

    async def _answer(self, request: Request) -> Reply:
        code = request.table
        if code not in self.tables or code in self._loading:
            # a request can overtake the `adopt` of a table just placed here (the gateway asks
            # as soon as the row is stored): load it now if the store says it is ours, or wait
            # for the load already under way (its first game dealt, its bots woken), rather
            # than answer `moved` to a table we own or answer for a table half loaded
            await self.adopt(code)
            loading = self._loading.get(code)
            if loading is not None:
                await loading.wait()
        owned = self.tables.get(code)
        if owned is None:
            return _refused(request.id, TableError(f"table {code} is not here", 503, "moved"))
        try:
            answer: Answer
            match request.ask:
                case Join(name=name, seat=seat, account=account, account_name=account_name):
                    answer = await owned.join(name, seat, account, account_name)
                case Play(seat=seat, move=move, ply=ply):
                    answer = await owned.move(seat, move, ply, request.id)
                case Next():
                    answer = await owned.next_game()
                case Close(moderator=True):
                    answer = await owned.close("a moderator closed the table", by_host=False)
                case Close():
                    answer = await owned.close()
                case ChatLines():  # the recent lines, for a gateway new to the table
                    answer = ChatLinesAnswer(list(owned.chat.lines))
                case Ready():  # a new table, loaded here and its game started if all are seated
                    answer = ReadyAnswer(owned.table.status)
                case _:
                    assert_never(request.ask)
        except (IllegalMove, TableError, ParlourError) as exc:
            return _refused(request.id, exc)
        return Reply(request.id, answer)

    # --- sweeping --------------------------------------------------------------------------------
    async def sweep(self, now: float | None = None, wall: float | None = None) -> dict[str, int]:
        """Expire waiting tables nobody joined in `waiting_ttl`, hand on seats of people long
        gone, close abandoned tables, delete abandoned tables older than `retention_days`, and
        act on move clocks run out (at wall-clock time `wall`). Correspondence tables are never
        expired, closed or deleted: they wait however long their game takes. Expired log-in
        sessions are deleted too."""
        mono = time.monotonic() if now is None else now
        wall = time.time() if wall is None else wall
        expired = timeouts = 0
        abandon = self.settings.retention_days * 86400
        for owned in list(self.tables.values()):
            t = owned.table
            idle = mono - owned.last_activity
            try:
                if await owned.clock_due(wall):
                    timeouts += 1
                    continue
                if t.correspondence:
                    continue
                if t.status == "waiting" and idle >= self.settings.waiting_ttl:
                    await owned.expire()
                    expired += 1
                elif t.status == "playing" and idle >= abandon and not owned.connected():
                    await owned.close("nobody has played at this table for a long time")
                else:
                    await owned.sweep_seats(mono)
            except TableError:
                log.exception("sweep of table %s failed", owned.code)
        cutoff = time.time() - abandon
        pruned = await self.db.call(self.db.store.tables.prune, cutoff)
        # expired log-in sessions (a gateway refuses them anyway): the database forgets them
        expiry = time.time() - self.settings.session_days * 86400
        await self.db.call(self.db.store.accounts.prune_sessions, expiry)
        if expired or pruned:
            log.info("sweep: %d tables expired, %d abandoned tables deleted", expired, pruned)
        return {"expired": expired, "pruned": pruned, "timeouts": timeouts}


def _refused(rid: str, exc: Exception) -> Reply:
    """An answer that says a request was refused, as the wire says errors."""
    if isinstance(exc, IllegalMove):
        return Reply(rid, refusal=Refusal("illegal", str(exc), 400, exc.legal))
    if isinstance(exc, TableError):
        return Reply(rid, refusal=Refusal(exc.code, str(exc), exc.status))
    return Reply(rid, refusal=Refusal("bad_request", str(exc), 400))
