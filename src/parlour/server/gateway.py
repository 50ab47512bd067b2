"""Gateways: the processes that hold the websockets and answer HTTP.

A gateway owns no table. For each table someone watches through it, it keeps a *replica*: the
same `Table`, rebuilt from the database and kept up to date by the owner's numbered updates on the
bus (a move is a few bytes; the engine replays it exactly), from which it makes every seat's view
itself. Requests that change a table (joins, moves, the host's commands) go over the bus to the
table's owner and are answered there; an answer that does not come in time is asked again of
whoever owns the table by then. The bus is never trusted: an update whose number does not follow
the replica's, or a number the database has and the replica has not (checked every second), makes
the gateway read the table again from the database. Any gateway can serve any seat.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, assert_never

from parlour.bots.advise import advise
from parlour.core import IllegalMove, NotLegalNow, ParlourError

from . import metrics, wire
from .bus import Bus, BusDown, tell
from .chat import ChatLog, clean_line, new_line
from .clients import Clients
from .connections import Conn
from .database import Database
from .logs import Failures, bound_contextvars
from .messages import (
    A,
    Adopt,
    Ask,
    BusMessage,
    ChatLines,
    ChatRemoved,
    ChatSaid,
    ClientOut,
    Close,
    CloseIn,
    HintOut,
    Join,
    Joined,
    Moved,
    MoveStored,
    Next,
    NextIn,
    Owner,
    Play,
    Presence,
    Ready,
    Rematched,
    Reply,
    Request,
    ResultStored,
    SeatsChanged,
    Started,
    StatusChanged,
    Update,
    ViewOut,
    WhyOut,
    is_update,
)
from .rematch import check_rematch, plan_rematch
from .settings import Settings
from .storage import TableRow
from .tables import (
    Table,
    TableError,
    game_seeder,
    plan_table,
    random_code,
    rebuild,
    seat_here,
)
from .worker import DEAD_AFTER, EXPIRED, HOST_CLOSED, TableWorker, table_channel

__all__ = ["Gateway", "Replica"]

log = logging.getLogger("parlour.server")

ASK_TIMEOUT = 3.0  # seconds to wait for an owner's answer before asking again
ASK_TRIES = 4
BUS_RETRY = 1.0  # seconds before asking again when the bus could not be reached
OWNER_CHECK = 0.5  # seconds between looking whether a table that does not answer changed hands
CHECK_EVERY = 1.0  # seconds between comparing replicas with the database
CHAT_WAIT = 1.0  # seconds to wait for the owner's recent chat lines (chat is not worth more)
PRESENCE_EVERY = 20.0


class Replica:
    """A table as a gateway sees it: the `Table`, the connections watching it here, and who is
    connected at every gateway."""

    def __init__(
        self, gateway: Gateway, table: Table, owner: tuple[str | None, int] | None = None
    ) -> None:
        self.gateway = gateway
        self.table = table
        # the table's owner and epoch as last heard (the row read, the owner's `owner` message):
        # a move is sent there first, without reading the database
        self.owner = owner
        self.code = table.code
        self.conns: set[Conn] = set()
        self.events = wire.EventCache()
        self.deadline: float | None = table.clock_deadline if table.live else None
        self.lock = asyncio.Lock()
        self.presence: dict[str, tuple[dict[int, int], float]] = {}
        self.last_used = time.monotonic()
        # why the table closed, as its owner said it (read again by a connection that attaches
        # after the word went round)
        self.closed_why = ""
        self.chat = ChatLog()  # recent lines, and the allowance of the seats connected here
        # asking the owner for the lines said before this gateway watched the table (once)
        self.earlier_chat: asyncio.Future[None] | None = None

    # --- views -----------------------------------------------------------------------------------
    def view_for(self, conn: Conn) -> ViewOut:
        """The `view` message for a connection: the events it has not been sent yet, and only
        what changed in its view since the last one (`patch: true`), or the whole view on a new
        connection, a new game or a request for it."""
        t = self.table
        if conn.game_number != t.game_number:
            conn.game_number, conn.events_sent, conn.view_sent = t.game_number, 0, None
        msg = wire.view(t, conn.seat, conn.events_sent, self.deadline, self.events)
        conn.events_sent = msg["events_from"] + len(msg["events"])
        full = msg["view"]
        if conn.view_sent is not None and conn.view_seat == conn.seat:
            changed, removed = wire.patch(conn.view_sent, full)
            msg["view"], msg["patch"] = changed, True
            if removed:
                msg["removed"] = removed
        conn.view_sent, conn.view_seat = full, conn.seat
        return msg

    def broadcast_view(self) -> None:
        if self.table.state is None:
            return
        for conn in list(self.conns):
            conn.send(self.view_for(conn))

    def broadcast(self, message: ClientOut) -> None:
        text = wire.dumps(message)
        for conn in list(self.conns):
            conn.send(text)

    def broadcast_table(self) -> None:
        self.broadcast(wire.table(self.table))

    def resend_view(self, conn: Conn) -> None:
        if self.table.state is not None:
            conn.events_sent, conn.view_sent = 0, None
            conn.send(self.view_for(conn))

    # --- who is here -----------------------------------------------------------------------------
    def local_presence(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in self.conns:
            if c.seat is not None:
                out[c.seat] = out.get(c.seat, 0) + 1
        return out

    def merge_presence(self) -> None:
        """Every seat's connections across the gateways, for the table's "connected" dots."""
        now = time.monotonic()
        counts = self.local_presence()
        for gateway, (seats, at) in self.presence.items():
            if gateway != self.gateway.id and now - at <= 60.0:
                for seat, n in seats.items():
                    counts[seat] = counts.get(seat, 0) + n
        for s in self.table.seats:
            s.conns = counts.get(s.seat, 0)

    # --- updates from the owner ------------------------------------------------------------------
    async def on_update(self, message: Update) -> None:
        """An update on the table's channel: who owns it, who is connected where, a chat line, a
        rematch — or the owner's next numbered change, played here exactly as there (a move is
        checked again by the one gate, `State.apply`: the replica trusts no text)."""
        match message:
            case Owner(owner=owner, epoch=epoch):  # a worker loaded it: asked first from now on
                if self.owner is None or epoch >= self.owner[1]:
                    self.owner = (owner, epoch)
                    self.gateway.owner_heard(self.code)
            case Presence(gateway=gateway, seats=seats):
                self.presence[gateway] = (seats, time.monotonic())
                before = [s.conns for s in self.table.seats]
                self.merge_presence()
                if [s.conns for s in self.table.seats] != before:
                    self.broadcast_table()
            case ChatSaid(line=line):  # a line said at the table, through any gateway
                if self.chat.add(line):
                    self.broadcast(wire.chat([line]))
            case ChatRemoved(line=line_id):  # a moderator's: off every screen
                self.chat.remove(line_id)
                self.broadcast(wire.chat_removed(line_id))
            case Rematched(code=code):  # the host opened the rematch (through any gateway)
                self.tell_rematch(code)
            case Moved() | Started():
                await self._change(message)
            case SeatsChanged() | StatusChanged() | ResultStored():
                # a change best read whole from the database (seats, names, status, a result)
                async with self.lock:
                    if message.seq > self.table.seq:
                        said = message.message if isinstance(message, StatusChanged) else ""
                        await self.resync(said)
            case _:
                assert_never(message)

    async def _change(self, message: Moved | Started) -> None:
        """The owner's next change, numbered: a gap (a message the bus lost) reads the table
        again from the database."""
        async with self.lock:
            t = self.table
            if message.seq <= t.seq:
                return  # heard already (or a message sent again)
            if message.seq != t.seq + 1:
                await self.resync()
                return
            if isinstance(message, Moved):
                if t.state is None or (message.game, message.ply) != (t.game_number, t.ply):
                    await self.resync()
                    return
                mover = t.seat_to_play()
                t.state.apply(message.move)
                if t.state.is_over:
                    _, status = t.finish()
                    if status:
                        t.status = status
                t.seq = message.seq
                self.deadline = message.deadline
                self.broadcast_view()
                if message.forced:  # the move clock ran out: say so, after the view
                    self.broadcast(wire.clock(mover, t.ply - 1, t.state.history[-1]))
                if t.status == "finished":
                    self.broadcast_table()
            else:  # start: the match's next game, dealt here exactly as the owner dealt it
                if t.state is not None and not t.state.is_over:
                    await self.resync()  # the game before it not over here: read it whole
                    return
                state = t.deal_next()
                t.begin(state, message.game_id)
                t.seq = message.seq
                self.deadline = message.deadline
                self.broadcast_table()
                self.broadcast_view()

    def tell_rematch(self, code: str) -> None:
        """The old table names its rematch; everyone watching it here is told, once."""
        if self.table.rematch == code:
            return
        self.table.rematch = code
        self.broadcast(wire.rematch(code))
        self.broadcast_table()

    async def resync(self, why: str = "") -> None:
        """Read the table again from the database (the one source of truth): inside the lock.
        `why`: the owner's words for a status it changed (a moderator closed the table); without
        them (the bus lost the word), the words stored with a closed table."""
        row = await self.gateway.db.call(self.gateway.db.store.tables.load_table, self.code)
        if row is None:
            return
        old = self.table
        table = self.gateway.table_from(row)
        self.owner = (row.owner, row.epoch)
        for s, before in zip(table.seats, old.seats, strict=True):
            s.conns = before.conns
        if table.rematch is not None and old.rematch is None:  # its bus message was lost
            self.broadcast(wire.rematch(table.rematch))
        self.table = table
        self.deadline = table.clock_deadline if table.live else None
        for conn in self.conns:  # their views start again whole, the log where they were
            conn.view_sent = None
            if conn.seat is not None and table.seats[conn.seat].token_hash is None:
                conn.seat = None  # the seat was handed on: watching now
                conn.send(wire.welcome(table, None, conn.is_host))
        self.merge_presence()
        self.broadcast_table()
        if table.status in ("closed", "expired"):
            self.closed_why = why or row.closed_why or self.closed_why
            self.broadcast(wire.closed(self.closed_message()))
            self.gateway.clients.unseated(self.code)
            return
        self.broadcast_view()

    def closed_message(self) -> str:
        """The words for a closed or expired table: its owner's, or the usual ones."""
        if self.closed_why:
            return self.closed_why
        if self.table.status == "closed":
            return HOST_CLOSED
        return EXPIRED


class Gateway:
    """A gateway's replicas, its requests to owners, and the per-client limits it keeps."""

    def __init__(
        self, db: Database, bus: Bus, settings: Settings, secret: bytes, ident: str | None = None
    ) -> None:
        self.db = db
        self.bus = bus
        self.settings = settings
        self.secret = secret
        self.id = ident or f"gw-{secrets.token_hex(4)}"
        self.clients = Clients(
            secret,
            tables_per_minute=settings.tables_per_minute,
            joins_per_minute=settings.joins_per_minute,
            seats_per_client=settings.seats_per_client,
            websockets_per_client=settings.websockets_per_client,
        )
        self.replicas: dict[str, Replica] = {}
        self._pending: dict[str, asyncio.Future[Reply]] = {}
        # requests waiting for an owner's answer, by table: woken when a worker says it loaded
        # the table (its `owner` message), to look at once whether the table changed hands
        self._owner_news: dict[str, set[asyncio.Future[None]]] = {}
        self._loops: list[asyncio.Task[None]] = []
        self.local_worker: TableWorker | None = None  # in one process: the worker beside it
        # request ids: unique to this process (a gateway started again under the same id must
        # not meet its earlier requests' answers in a worker's memory), without a random draw
        # for each request (a system call)
        self._request_prefix = f"{self.id}-{secrets.token_hex(4)}-"
        self._requests = itertools.count()

    # --- life ------------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.bus.subscribe(f"gateway:{self.id}", self._on_reply)
        self._loops = [
            asyncio.ensure_future(self._every(CHECK_EVERY, self.check_replicas)),
            asyncio.ensure_future(self._every(PRESENCE_EVERY, self.report_presence)),
        ]

    async def stop(self) -> None:
        for task in self._loops:
            task.cancel()
        await self.bus.unsubscribe(f"gateway:{self.id}", self._on_reply)

    async def _every(self, seconds: float, job: Callable[[], Any]) -> None:
        name = getattr(job, "__name__", job)
        failures = Failures(log, f"gateway {self.id}: {name}")  # a traceback once a spell
        while True:
            await asyncio.sleep(seconds)
            await failures.run(job())

    # --- replicas --------------------------------------------------------------------------------
    def table_from(self, row: TableRow) -> Table:
        seeder: Any = game_seeder(self.secret, row.code)
        if row.games and row.games[0].seed != seeder(0):
            seeder = None  # stored before seeds were keyed: the match generator's stream
        table = Table(row, seeder)
        rebuild(table, row)
        return table

    async def replica(self, code: str, fresh: bool = False) -> Replica:
        """The replica of a table, loaded (and its updates listened to) on first use. `fresh`:
        caught up with the database first, for an answer that must not be older than what the
        asker was told elsewhere (a table closed or a seat taken through another gateway, whose
        update may still be on its way or lost on the bus)."""
        code = code.strip().upper()
        got = self.replicas.get(code)
        if got is not None:
            if fresh:
                await self.catch_up(got)
            if got.table.status in ("closed", "expired"):
                await self.drop_replica(got)
                raise TableError(f"no open table {code!r}", 404, "unknown_table")
            got.last_used = time.monotonic()
            return got
        # listen first, then read: an update that comes while reading is not lost (it is
        # applied, or found already in what was read, by its number)
        pending: list[Update] = []

        async def early(channel: str, message: BusMessage) -> None:
            if is_update(message):
                pending.append(message)

        await self.bus.subscribe(table_channel(code), early)
        try:
            row = await self.db.call(self.db.store.tables.load_table, code)
        except BaseException:
            await self.bus.unsubscribe(table_channel(code), early)
            raise
        if code in self.replicas:  # another request loaded it meanwhile
            await self.bus.unsubscribe(table_channel(code), early)
            return self.replicas[code]
        if row is None or row.status in ("closed", "expired"):
            await self.bus.unsubscribe(table_channel(code), early)
            raise TableError(f"no open table {code!r}", 404, "unknown_table")
        rep = Replica(self, self.table_from(row), (row.owner, row.epoch))
        self.replicas[code] = rep
        await self.bus.subscribe(table_channel(code), self._on_table)
        await self.bus.unsubscribe(table_channel(code), early)
        for message in pending:
            await rep.on_update(message)
        return rep

    async def catch_up(self, rep: Replica) -> None:
        """Read a replica again if the database has a change it has not heard of."""
        seqs = await self.db.call(self.db.store.tables.seqs, [rep.code])
        if seqs.get(rep.code, -1) > rep.table.seq:
            async with rep.lock:
                if seqs[rep.code] > rep.table.seq:
                    await rep.resync()

    async def _on_table(self, channel: str, message: BusMessage) -> None:
        if is_update(message):
            rep = self.replicas.get(message.table)
            if rep is not None:
                await rep.on_update(message)
            if isinstance(message, Moved) and message.asked is not None:
                # a person's move told with its request's id: the answer to it (if asked here)
                self._answered(Reply(message.asked, MoveStored(message.seq)))

    async def drop_replica(self, rep: Replica) -> None:
        if self.replicas.get(rep.code) is rep:
            del self.replicas[rep.code]
            await self.bus.unsubscribe(table_channel(rep.code), self._on_table)

    async def check_replicas(self) -> None:
        """Compare every replica's change number with the database's; read again what lags (an
        update the bus lost), and let go of replicas nobody has used for a while."""
        codes = list(self.replicas)
        seqs = await self.db.call(self.db.store.tables.seqs, codes)
        now = time.monotonic()
        for code in codes:
            rep = self.replicas.get(code)
            if rep is None:
                continue
            if code not in seqs:
                await self.drop_replica(rep)
                continue
            if seqs[code] > rep.table.seq:
                async with rep.lock:
                    if seqs[code] > rep.table.seq:
                        await rep.resync()
            if not rep.conns and now - rep.last_used > 60.0:
                await self.drop_replica(rep)
        # a rematch is said on the bus only (it is no change of the game's): the database
        # catches a lost message for the watched tables whose game is over
        over = [
            code
            for code, rep in self.replicas.items()
            if rep.conns
            and rep.table.rematch is None
            and rep.table.state is not None
            and not rep.table.live
        ]
        for code, made in (await self.db.call(self.db.store.tables.rematches, over)).items():
            rep = self.replicas.get(code)
            if rep is not None:
                rep.tell_rematch(made)

    async def report_presence(self, rep: Replica | None = None) -> None:
        """Tell the owners and the other gateways who is connected here."""
        for r in [rep] if rep is not None else list(self.replicas.values()):
            message = Presence(r.code, self.id, r.local_presence())
            if not await tell(self.bus, table_channel(r.code), message):
                return  # the bus is down: the next round (every PRESENCE_EVERY) tells it all

    # --- asking the owner ------------------------------------------------------------------------
    async def ask(
        self,
        code: str,
        ask: Ask[A],
        *,
        tries: int = ASK_TRIES,
        wait: float = ASK_TIMEOUT,
        owner_hint: tuple[str | None, int] | None = None,
    ) -> A:
        """Send a request to the table's owner and wait for its answer; ask whoever owns the
        table then again if none comes (`tries` times in all, `wait` seconds each). The owner is
        read from the database, but for a first try sent to `owner_hint` (owner, epoch) when
        there is one: a replica's, saving a move a database round trip (a stale hint costs a
        `moved` answer, or a wait, and the next try reads it). Raises TableError as the owner
        refused (an illegal move's with the legal moves)."""
        rid = f"{self._request_prefix}{next(self._requests)}"
        request = Request(rid, code, self.id, ask)  # type: ignore[arg-type]
        unreachable = False  # the last try could not be sent: the bus is down
        was_down = False  # a try could not be sent: the bus is down, or only just back
        for attempt in range(tries):
            owner: tuple[str | None, int, int, str] | None
            if attempt == 0 and owner_hint is not None and owner_hint[0] is not None:
                owner = (owner_hint[0], owner_hint[1], -1, "playing")
            else:
                owner = await self.db.call(self.db.store.owners.owner_of, code)
            if owner is None or owner[3] in ("closed", "expired"):
                raise TableError(f"no open table {code!r}", 404, "unknown_table")
            if owner[0] is None:  # released, not yet adopted: give a worker a moment
                await asyncio.sleep(0.5 * (attempt + 1))
                continue
            here = self.local_worker
            if here is not None and owner[0] == here.id:
                # the owner is this process's own worker: asked directly, not over the bus (in
                # `make serve`, every table's owner)
                unreachable = False
                got = await self._ask_here(here, request, wait)
            else:
                future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
                self._pending[rid] = future
                try:
                    await self.bus.publish(f"worker:{owner[0]}", request)
                    unreachable = False
                    # just after Redis is back the owner may not have subscribed again yet, and
                    # the request is lost: ask again soon rather than after a whole `wait`
                    patience = min(wait, BUS_RETRY) if was_down else wait
                    got = await self._answer(future, code, owner, patience)
                except BusDown:
                    # Redis is down (or restarting): wait a moment and send it again with the
                    # same id; the owner answers a request it has already answered from memory
                    unreachable = was_down = True
                    got = None
                    if attempt + 1 < tries:
                        await asyncio.sleep(min(wait, BUS_RETRY))
                finally:
                    self._pending.pop(rid, None)
            if got is None:
                continue  # lost on the bus, or the owner died: ask again
            if got.refusal is None:
                if not isinstance(got.answer, ask.answer):
                    raise TableError(f"the table's server answered {ask.kind} wrongly", 500)
                answer: A = got.answer
                return answer
            if got.refusal.code == "moved" and attempt + 1 < tries:
                await asyncio.sleep(0.3 * (attempt + 1))
                continue
            raise got.refusal.error()
        if unreachable:
            raise TableError(
                "the server cannot reach the table's worker just now (its message bus is down): "
                "try again in a moment",
                503,
                "busy",
            )
        raise TableError("the table's server did not answer: try again", 503, "busy")

    async def _answer(
        self,
        future: asyncio.Future[Reply],
        code: str,
        owner: tuple[str | None, int, int, str],
        wait: float = ASK_TIMEOUT,
    ) -> Reply | None:
        """The owner's answer, or None when none came in `wait` seconds or the table changed hands
        meanwhile. A dead owner's tables are adopted a few seconds after it died: the request
        goes to the new owner at once then, rather than after waiting out the dead one's time
        (a table must take moves again within 5 s of its worker's death)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        while (left := end - loop.time()) > 0:
            # the answer; or, at the latest every OWNER_CHECK, and at once when a worker says it
            # has loaded the table, a look at who owns it now. Only the database says it changed
            # hands: the message is a prompt, not the truth
            news: asyncio.Future[None] = loop.create_future()
            self._owner_news.setdefault(code, set()).add(news)
            try:
                await asyncio.wait(
                    (future, news),
                    timeout=min(left, OWNER_CHECK),
                    return_when=asyncio.FIRST_COMPLETED,
                )
            finally:
                waiting = self._owner_news.get(code)
                if waiting is not None:
                    waiting.discard(news)
                    if not waiting:
                        del self._owner_news[code]
            if future.done():
                return future.result()
            now = await self.db.call(self.db.store.owners.owner_of, code)
            if now is None or now[:2] != owner[:2]:
                return None
        return None

    async def _ask_here(self, worker: TableWorker, request: Request, wait: float) -> Reply | None:
        """A request answered by this process's own worker; None when answering it failed (the
        database down: said in the log, and asked again after `wait`, as a request over the bus
        that got no answer would be)."""
        with bound_contextvars(request_id=request.id):
            try:
                # shielded: the caller (a person's websocket session, an HTTP request) may be
                # cancelled, but a move half stored must be finished by the worker all the same,
                # as the worker's own task for a request over the bus finishes it
                reply: Reply = await asyncio.shield(worker.reply(request))
                return reply
            except ParlourError:  # a refusal in words (TableError is one): the caller's to say
                raise
            except Exception as exc:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                log.warning("worker %s: %r failed: %s", worker.id, request, first)
        await asyncio.sleep(wait)
        return None

    def owner_heard(self, code: str) -> None:
        """A worker says it loaded the table: requests waiting on its old owner look again."""
        for news in self._owner_news.get(code, ()):
            if not news.done():
                news.set_result(None)

    async def _on_reply(self, channel: str, message: BusMessage) -> None:
        if isinstance(message, Reply):
            self._answered(message)

    def _answered(self, reply: Reply) -> None:
        future = self._pending.get(reply.id)
        if future is not None and not future.done():
            future.set_result(reply)

    # --- requests from people --------------------------------------------------------------------
    async def create(
        self, client: str | None, **request: Any
    ) -> tuple[str, str, int | None, dict[int, str]]:
        """Open a table (see `tables.plan_table`): the least-loaded live worker owns it. Answers
        its code, the host's token and seat, and the tokens of the seats taken by other people at
        the host's device (`here`, pass and play: `tables.seat_here`)."""
        st = self.settings
        bot_delay = request.pop("bot_delay", None)
        idle = request.pop("idle_timeout", None)
        here = request.pop("here", None) or {}
        code = await self._new_code()
        row, host_token, host_seat = plan_table(
            code,
            bot_delay=st.bot_delay if bot_delay is None else bot_delay,
            bot_limits=st.bot_limits,
            creator=client,
            idle_timeout=st.idle_timeout if idle is None else idle,
            bot_table_min_delay=st.bot_table_min_delay,
            **request,
        )
        here_tokens = seat_here(row, here)
        await self._check_room(client, all(s.bot is not None for s in row.seats))
        if client is not None and here_tokens:
            self.clients.check_seats(client, len(here_tokens) + (host_seat is not None))
        worker = await self._place()
        await self.db.call(self.db.store.tables.create_table, row, worker)
        await self._opened(client, row, worker, host_seat)
        for seat in here_tokens:
            if client is not None:
                self.clients.seated(client, row.code, seat)
        return code, host_token, host_seat, here_tokens

    async def _check_room(self, client: str | None, bots_only: bool) -> None:
        """Whether the server, and this client, may open another table."""
        st = self.settings
        counts = await self.db.call(self.db.store.tables.open_counts, client)
        if counts["all"] >= st.max_tables:
            raise TableError("the server has as many open tables as it takes", 503, "busy")
        if bots_only and counts["bots"] >= st.max_bot_tables:
            raise TableError("the server runs as many tables of bots as it takes", 503, "busy")
        if client is not None:
            if counts["mine"] >= st.tables_per_client:
                raise TableError(
                    f"you have {counts['mine']} open tables: close one first",
                    429,
                    "too_many_tables",
                )
            if bots_only and counts["my_bots"] >= st.bot_tables_per_client:
                raise TableError(
                    f"you run {st.bot_tables_per_client} tables of bots already",
                    429,
                    "too_many_tables",
                )
            self.clients.check_new_table(client)

    async def _opened(
        self, client: str | None, row: TableRow, worker: str, host_seat: int | None
    ) -> None:
        """A new table is stored: count the host's seat, and tell its worker to take it."""
        if client is not None and host_seat is not None:
            self.clients.seated(client, row.code, host_seat)
        # a prompt: the worker loads the table on its first request, or in its adopting round
        await tell(self.bus, f"worker:{worker}", Adopt(row.code))

    async def _place(self) -> str:
        """The live worker to own a new table: the least loaded one not draining."""
        if self.local_worker is not None and not self.local_worker.draining:
            live = await self.db.call(self.db.store.owners.live_workers, time.time() - DEAD_AFTER)
            others = [w for w in live if not w["draining"] and w["id"] != self.local_worker.id]
            if not others:
                return str(self.local_worker.id)
        for _ in range(20):
            live = await self.db.call(self.db.store.owners.live_workers, time.time() - DEAD_AFTER)
            ready = [w for w in live if not w["draining"]]
            if ready:
                return str(ready[0]["id"])
            await asyncio.sleep(0.5)
        raise TableError("no table worker is running: try again soon", 503, "busy")

    async def _new_code(self) -> str:
        for _ in range(50):
            code = random_code()
            if not await self.db.call(self.db.store.tables.code_exists, code):
                return code
        raise TableError("could not find a free table code", 503)

    async def join(
        self,
        code: str,
        name: Any,
        seat: int | None,
        client: str | None,
        account: tuple[int, str] | None = None,
    ) -> Joined:
        """Take a seat; `account`: the logged-in person's (id, username)."""
        if client is not None:
            self.clients.check_join(client)
        account_id, account_name = account if account is not None else (None, None)
        answer = await self.ask(code.strip().upper(), Join(name, seat, account_id, account_name))
        if client is not None:
            self.clients.seated(client, code.strip().upper(), answer.seat)
        return answer

    async def move(self, rep: Replica, seat: int, text: str, ply: int | None) -> MoveStored:
        """A seat's move, played by its table's owner. It always goes with the ply it was chosen
        at: the client's, or when the client sent none, the replica's here, from which every view
        this client was sent was made. If the owner dies after storing the move and before
        answering, the next owner, asked again, finds that ply gone and answers `stale` rather
        than play the move twice (the same seat may be to play again, and the move legal again,
        in a game where a card lets its player go again)."""
        if ply is None:
            ply = rep.table.ply
        asked = time.perf_counter()
        stored = await self.ask(rep.code, Play(seat, text, ply), owner_hint=rep.owner)
        metrics.MOVE_SECONDS.labels(rep.table.game.name).observe(time.perf_counter() - asked)
        return stored

    async def host_command(self, code: str, command: NextIn | CloseIn) -> None:
        """The host's `next` or `close`, done by the table's owner."""
        if isinstance(command, NextIn):
            await self.ask(code, Next())
        else:
            await self.ask(code, Close())

    async def hint(self, rep: Replica, seat: int, bot: str = "hint") -> HintOut:
        """The `hint` message: the move `bot` would make for `seat` from its view, and why."""
        async with rep.lock:
            t = rep.table
            if not t.live or t.state is None:
                raise TableError("no game is being played at this table now", 409, "no_game")
            if t.seat_to_play() != seat:
                raise TableError("a hint is for your own turn", 409, "not_your_turn")
            if t.rated:
                raise TableError(
                    "no hints at a rated table: its games are yours alone", 403, "rated"
                )
            view, legal, ply = t.state.view(t.local_player(seat)), t.state.legal_moves(), t.ply
            names = t.player_names()
        move, why = await asyncio.to_thread(advise, view, legal, t.game, bot, None, names)
        return wire.hint(ply, move, why)

    async def why(self, rep: Replica, seat: int | None, text: str) -> WhyOut:
        """The `why` message: whether `text` is a legal move for `seat` now, and if not, why (the
        game's own reason where it gives one), answered from the replica. Nothing changes."""
        async with rep.lock:
            t = rep.table
            if not t.live or t.state is None:
                return wire.why(text, False, "no game is being played now")
            to_play = t.seat_to_play()
            if seat is None or to_play != seat:
                who = t.seats[to_play].name if to_play is not None else None
                return wire.why(text, False, f"it is {who or 'another player'}'s turn")
            try:
                t.state.check(text)
            except NotLegalNow as exc:
                return wire.why(text, False, exc.why or exc.reason)
            except IllegalMove as exc:
                return wire.why(text, False, exc.reason)
            return wire.why(text, True, None)

    async def chat(self, rep: Replica, seat: int, text: Any) -> None:
        """A seated person says a line to the table: published on the table's channel, so that
        every gateway's connections hear it (this one's too, from the bus) and the owner keeps it
        for people who arrive later (server/chat.py)."""
        line = clean_line(text)
        t = rep.table
        s = t.seats[seat]
        if s.bot is not None or s.token_hash is None:
            raise TableError(
                "this seat is not yours any more: take a seat to chat", 403, "spectator"
            )
        rep.chat.check_rate(seat)
        said = new_line(seat, s.name or f"Seat {seat + 1}", line)
        try:
            await self.bus.publish(table_channel(rep.code), ChatSaid(rep.code, said))
        except BusDown:  # chat is not stored: a line the bus cannot carry is not said
            raise TableError(
                "the chat is down for a moment (the server's message bus): say it again soon",
                503,
                "busy",
            ) from None

    async def recent_chat(self, rep: Replica) -> None:
        """Once per replica, the lines said at the table before this gateway watched it: every
        connection arriving meanwhile waits for the same answer (a socket that goes away stops
        waiting, not the asking)."""
        if rep.earlier_chat is None:
            rep.earlier_chat = asyncio.ensure_future(self._ask_earlier_chat(rep))
        await asyncio.shield(rep.earlier_chat)

    async def _ask_earlier_chat(self, rep: Replica) -> None:
        """The owner's recent lines (it hears every line). Chat is not stored, so a slow or gone
        owner only means no earlier lines: one short try."""
        if rep.table.status not in ("waiting", "playing"):
            return  # a finished table's owner may be long gone: no waiting for it
        try:
            answer = await self.ask(rep.code, ChatLines(), tries=1, wait=CHAT_WAIT)
        except Exception as exc:  # a database hiccup too: no earlier lines, never no table
            log.info("table %s: no earlier chat lines (%s)", rep.code, exc)
            return
        rep.chat.merge(x for x in answer.lines if isinstance(x, dict))

    async def rematch(self, rep: Replica, client: str | None) -> str:
        """Host: the same seats at a new table (server/rematch.py), opened as `create` opens any
        table, in one transaction with the old table's mark; everyone watching the old table, on
        every gateway, is told over the bus. Returns the new code."""
        code = await self._new_code()
        # the table as this gateway knows it (checked and planned with no wait in between);
        # the database's mark is the sure check
        check_rematch(rep.table)
        row = plan_rematch(rep.table, code)
        await self._check_room(client, all(s.bot is not None for s in row.seats))
        worker = await self._place()
        made = await self.db.call(self.db.store.tables.open_rematch, rep.code, row, worker)
        if made is not None:  # another request opened it first: that one is the rematch
            rep.tell_rematch(made)
            raise TableError(f"the rematch is at /t/{made}", 409, "rematch_made")
        host = next((s.seat for s in row.seats if s.token_hash == row.host_hash), None)
        await self._opened(client, row, worker, host)
        # every seat is taken, so its owner deals the first game as it loads the table: wait for
        # that, so whoever follows the link (through any gateway) finds the game on, not waiting
        try:
            await self.ask(code, Ready(), tries=2)
        except TableError as exc:  # it starts when its owner (or the next) loads it
            log.warning("rematch %s: its owner has not loaded it yet (%s)", code, exc)
        # lost with the bus down: the other gateways find the rematch in the database
        await tell(self.bus, table_channel(rep.code), Rematched(rep.code, code))
        return code

    # --- connections -----------------------------------------------------------------------------
    async def attach(self, rep: Replica, conn: Conn) -> None:
        await self.recent_chat(rep)
        rep.conns.add(conn)
        rep.last_used = time.monotonic()
        rep.merge_presence()
        conn.send(wire.welcome(rep.table, conn.seat, conn.is_host))
        if rep.table.state is not None:
            conn.send(rep.view_for(conn))
        if rep.chat.lines:  # the recent lines, for someone arriving or reloading
            conn.send(wire.chat(list(rep.chat.lines)))
        if rep.table.status in ("closed", "expired"):
            # it closed after this connection found it open, before it was attached: the word
            # went round without it
            conn.send(wire.closed(rep.closed_message()))
            return
        if conn.seat is not None:
            rep.broadcast_table()
            await self.report_presence(rep)

    async def detach(self, rep: Replica, conn: Conn) -> None:
        if conn in rep.conns:
            rep.conns.discard(conn)
            rep.last_used = time.monotonic()
            if conn.seat is not None:
                rep.merge_presence()
                rep.broadcast_table()
                await self.report_presence(rep)
