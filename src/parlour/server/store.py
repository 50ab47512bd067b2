"""Storage through SQLAlchemy 2: an embedded SQLite file by default, PostgreSQL by URL.

`Store` is synchronous and small; the server calls it from one worker thread so that writes to a
table are ordered and SQLite has a single writer. Every call is its own transaction: when
`add_move` returns, the move is on disk (SQLite in WAL mode survives a killed process).

One server process owns a SQLite file: the store holds an exclusive lock on `<file>.lock` for its
lifetime, and a second server on the same file is refused with a clear message instead of
overwriting the first one's seats. (Several processes on one PostgreSQL database are the
scale-out design's, not an accident.)
"""

from __future__ import annotations

import fcntl
import os
import secrets as secrets_module
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError, SQLAlchemyError

from . import ratings as rating_model
from .levels import seat_bot
from .schema import (
    accounts,
    analyses,
    games,
    moves,
    puzzles,
    rating_history,
    ratings,
    seats,
    secrets,
    sessions,
    tables,
    tournament_entrants,
    tournament_tables,
    tournaments,
    workers,
)

__all__ = [
    "KEEP_ACCOUNT",
    "Fence",
    "Fenced",
    "GameRow",
    "MoveRow",
    "SeatRow",
    "Store",
    "StoreError",
    "TableRow",
    "database_url",
    "make_engine",
    "migrate",
]


KEEP_ACCOUNT = -1  # fill_seat: leave the seat's account as it is (a bot standing in for it)
DELETED_NAME = "deleted player"


class StoreError(RuntimeError):
    """The database cannot be used as asked (held by another server, read-only, full): the message
    says what to do."""


class Fenced(StoreError):
    """A write refused because the writer no longer owns the table (another worker took it over,
    at a later epoch) or does not know its latest change: nothing was written."""


@dataclass(frozen=True)
class Fence:
    """Who may write a table: its owner, at the epoch of its taking over, at the table's change
    number. Every write checks it and moves `seq` on by one (compare-and-set), so a stalled old
    owner can never write after another worker took the table."""

    code: str
    owner: str
    epoch: int
    seq: int

    def next(self) -> Fence:
        return Fence(self.code, self.owner, self.epoch, self.seq + 1)


@dataclass(frozen=True)
class MoveRow:
    """A move to store: its game, ply and text, behind its table's fence, and the move clock's
    deadline it leaves (wall clock; None: no clock running)."""

    fence: Fence
    game_id: int
    ply: int
    text: str
    deadline: float | None = None


@lru_cache(maxsize=32)
def _advancing(columns: tuple[str, ...]) -> Any:
    """The fence's compare-and-set as one statement per set of other columns written with it,
    built once: building and keying the statement again for every move was half the CPU of
    storing one (0.9 ms of the worker's on PostgreSQL, 0.5 ms without)."""
    return (
        update(tables)
        .where(
            tables.c.code == bindparam("f_code"),
            tables.c.owner == bindparam("f_owner"),
            tables.c.epoch == bindparam("f_epoch"),
            tables.c.seq == bindparam("f_seq"),
        )
        .values(
            seq=bindparam("f_next"),
            last_active=bindparam("f_now"),
            **{c: bindparam(f"v_{c}") for c in columns},
        )
    )


def _advance(conn: Any, fence: Fence, status: str | None = None, **values: Any) -> Fence:
    """The compare-and-set every write of a table starts with (and its new status, if any)."""
    if status is not None:
        values["status"] = status
    params = {f"v_{c}": v for c, v in values.items()}
    params.update(
        f_code=fence.code,
        f_owner=fence.owner,
        f_epoch=fence.epoch,
        f_seq=fence.seq,
        f_next=fence.seq + 1,
        f_now=time.time(),
    )
    res = conn.execute(_advancing(tuple(sorted(values))), params)
    if res.rowcount != 1:
        raise Fenced(f"table {fence.code}: not owned at epoch {fence.epoch}, change {fence.seq}")
    return fence.next()


_INSERT_MOVES = insert(moves)


def _insert_table(conn: Any, row: TableRow, owner: str | None) -> None:
    """A new table and its seats, owned by `owner` from epoch 1."""
    conn.execute(
        insert(tables).values(
            code=row.code,
            created_at=row.created_at,
            game=row.game,
            players=row.players,
            preset=row.preset,
            rules=row.rules,
            match_format=row.match_format,
            match_seed=row.match_seed,
            move_clock=row.move_clock,
            bot_delay=row.bot_delay,
            auto_next=row.auto_next,
            status=row.status,
            host_hash=row.host_hash,
            private=row.private,
            creator=row.creator,
            idle_timeout=row.idle_timeout,
            on_idle=row.on_idle,
            correspondence=row.correspondence,
            on_timeout=row.on_timeout,
            last_active=row.created_at,
            owner=owner,
            epoch=1,
            seq=0,
            rated=row.rated,
        )
    )
    conn.execute(
        insert(seats),
        [
            {
                "table_code": row.code,
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "token_hash": s.token_hash,
                "account_id": s.account_id,
            }
            for s in row.seats
        ],
    )


def _rate_game(conn: Any, game_id: int) -> bool:
    """Inside a transaction: move the ratings of the players of a finished game of a rated table,
    once. `rated_at` is set by a compare-and-set first, so a finish processed twice (a retry, a
    worker adopting the table after a crash) finds it set and changes nothing."""
    g = conn.execute(
        select(games, tables.c.game, tables.c.preset, tables.c.rated)
        .join(tables, tables.c.code == games.c.table_code)
        .where(games.c.id == game_id)
    ).first()
    if g is None or not g.rated or g.result is None or g.rated_at is not None:
        return False
    now = time.time()
    res = conn.execute(
        update(games).where(games.c.id == game_id, games.c.rated_at.is_(None)).values(rated_at=now)
    )
    if res.rowcount != 1:
        return False
    by_seat = {
        r.seat: rating_model.player_of_seat(r.account_id, r.bot)
        for r in conn.execute(select(seats).where(seats.c.table_code == g.table_code))
    }
    result = dict(g.result)
    ranks: dict[str, int] = {}
    won: dict[str, float] = {}
    winners = list(result.get("winners") or [])
    for index, seat in enumerate(g.seats):
        player = by_seat.get(seat)
        if player is None or index >= len(result["ranks"]):
            continue  # a guest (a seat freed and taken again unrated): not rated
        rank = int(result["ranks"][index])
        ranks[player] = min(ranks.get(player, rank), rank)  # a bot in two seats: its best
        if index in winners:
            won[player] = won.get(player, 0.0) + 1.0 / len(winners)
    preset = g.preset or ""
    before: dict[str, rating_model.Rating] = {}
    counts: dict[str, tuple[int, float]] = {}
    for player in ranks:
        r = conn.execute(
            select(ratings).where(
                ratings.c.player == player, ratings.c.game == g.game, ratings.c.preset == preset
            )
        ).first()
        if r is None:
            before[player] = rating_model.fresh()
        else:
            before[player] = rating_model.Rating(float(r.mu), float(r.sigma))
            counts[player] = (int(r.games), float(r.wins))
    after = rating_model.rate(before, ranks)
    for player, new in after.items():
        played, wins = counts.get(player, (0, 0.0))
        values = {
            "mu": new.mu,
            "sigma": new.sigma,
            "games": played + 1,
            "wins": wins + won.get(player, 0.0),
            "updated_at": now,
        }
        if player in counts:
            conn.execute(
                update(ratings)
                .where(
                    ratings.c.player == player, ratings.c.game == g.game, ratings.c.preset == preset
                )
                .values(**values)
            )
        else:
            conn.execute(
                insert(ratings).values(player=player, game=g.game, preset=preset, **values)
            )
        conn.execute(
            insert(rating_history).values(
                game_id=game_id,
                player=player,
                game=g.game,
                preset=preset,
                rank=ranks[player],
                mu=new.mu,
                sigma=new.sigma,
                at=now,
            )
        )
    return True


MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x7061726C6F7572  # "parlour": PostgreSQL's advisory lock for migrating


def database_url(url: str) -> str:
    """Normalize a database URL: a plain file path is a SQLite file (relative or absolute, as
    given), and plain `postgresql://` uses psycopg 3, the driver we ship."""
    if "://" not in url:
        url = "sqlite:///" + url
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str) -> Engine:
    url = database_url(url)
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        if u.database and u.database != ":memory:" and not u.database.startswith("file:"):
            Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + NORMAL: a commit survives the process being killed (not a power cut).
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (run at every start; cheap when up to date)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # the processes of a cluster start together: one migrates, the others wait here (the
            # lock ends with the transaction) and then find the schema up to date
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@dataclass
class SeatRow:
    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None
    account_id: int | None = None


@dataclass
class GameRow:
    id: int
    number: int
    players: int
    seats: list[int]
    seed: int
    setup: dict[str, Any]
    rules: dict[str, Any]
    finished_at: float | None
    result: dict[str, Any] | None
    moves: list[str] = field(default_factory=list)


def _lock_sqlite(url: str) -> IO[str] | None:
    """An exclusive lock on a SQLite file's `.lock` neighbour, held while the process runs."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    name = u.database
    if name.startswith("file:"):  # SQLite's URI form: file:/path?mode=ro
        name = name[len("file:") :].split("?")[0]
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = open(f"{path}.lock", "a+", encoding="utf-8")  # noqa: SIM115 - held until close()
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "another process"
        lock.close()
        raise StoreError(
            f"another parlour server (pid {holder}) is already using {path}: stop it, or give "
            "this one another --database"
        ) from None
    lock.seek(0)
    lock.truncate()
    lock.write(str(os.getpid()))
    lock.flush()
    return lock


@dataclass
class TableRow:
    code: str
    created_at: float
    game: str
    players: int
    preset: str | None
    rules: dict[str, Any]
    match_format: str
    match_seed: int
    move_clock: float
    bot_delay: float
    auto_next: bool
    status: str
    host_hash: str
    seats: list[SeatRow] = field(default_factory=list)
    games: list[GameRow] = field(default_factory=list)
    private: bool = False
    creator: str | None = None
    idle_timeout: float = 0.0
    on_idle: str = "bot"
    last_active: float | None = None
    owner: str | None = None
    epoch: int = 0
    seq: int = 0
    clock_deadline: float | None = None
    rematch: str | None = None
    correspondence: bool = False
    on_timeout: str = "move"
    rated: bool = False


class Store:
    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        try:
            make_url(self.url)
        except (ArgumentError, ValueError):  # not a URL; a port that is not a number
            raise StoreError(
                f"{url!r} is not a database: give a SQLite file's path (var/parlour.sqlite3), "
                "sqlite:///path or postgresql://user@host/db"
            ) from None
        self._lock = _lock_sqlite(self.url)
        try:
            self.engine = make_engine(url)
            migrate(self.engine)
            self._check_writable()
        except OperationalError as exc:
            self._unlock()
            raise StoreError(f"cannot use the database {self._shown()}: {_reason(exc)}") from None
        except BaseException:
            self._unlock()
            raise

    def _shown(self) -> str:
        return self.url.split("@")[-1] if "@" in self.url else self.url

    def _check_writable(self) -> None:
        """Fail now, with words, if the database cannot be written (a read-only file or mount)."""
        with self.engine.begin() as conn:
            conn.execute(delete(secrets).where(secrets.c.name == "_probe"))

    def _unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def close(self) -> None:
        self.engine.dispose()
        self._unlock()

    def secret(self, name: str) -> bytes:
        """A random secret kept in the database (made on first use): the same after a restart."""
        query = select(secrets.c.value).where(secrets.c.name == name)
        try:
            with self.engine.begin() as conn:
                value = conn.execute(query).scalar()
                if value is None:
                    value = secrets_module.token_hex(32)
                    conn.execute(insert(secrets).values(name=name, value=value))
        except IntegrityError:
            # processes of a cluster starting together on a new database: another one made it
            # first, and everyone must use that one (the seeds of every game depend on it)
            with self.engine.connect() as conn:
                value = conn.execute(query).scalar_one()
        return bytes.fromhex(value)

    # --- tables and seats ------------------------------------------------------------------
    def create_table(self, row: TableRow, owner: str | None = None) -> Fence | None:
        """Store a new table owned by `owner` (a worker); returns the owner's first fence."""
        with self.engine.begin() as conn:
            _insert_table(conn, row, owner)
        return None if owner is None else Fence(row.code, owner, 1, 0)

    def open_rematch(self, old: str, row: TableRow, owner: str) -> str | None:
        """A rematch in one transaction: table `old` names it — a write-once compare-and-set on
        its `rematch` being empty, outside the owner's fence (it is no part of the game, and a
        finished table may have no live owner) — and the new table is stored, owned by `owner`,
        as `create_table` stores any table. Returns None when done, or the code of the rematch
        another request opened first (then nothing was written)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tables)
                .where(tables.c.code == old, tables.c.rematch.is_(None))
                .values(rematch=row.code)
            )
            if res.rowcount != 1:
                made = conn.execute(select(tables.c.rematch).where(tables.c.code == old)).scalar()
                return str(made or "")
            _insert_table(conn, row, owner)
        return None

    def rematches(self, codes: list[str]) -> dict[str, str]:
        """The rematches some tables name (how a gateway checks it missed none on the bus)."""
        if not codes:
            return {}
        with self.engine.connect() as conn:
            q = select(tables.c.code, tables.c.rematch).where(
                tables.c.code.in_(codes), tables.c.rematch.is_not(None)
            )
            return {r.code: str(r.rematch) for r in conn.execute(q)}

    def seats_of_tokens(self, hashes: list[str]) -> list[tuple[str, int]]:
        """(table code, seat) of the open tables where these token hashes hold a seat."""
        if not hashes:
            return []
        with self.engine.connect() as conn:
            q = (
                select(seats.c.table_code, seats.c.seat)
                .join(tables, tables.c.code == seats.c.table_code)
                .where(
                    seats.c.token_hash.in_(hashes),
                    tables.c.status.in_(("waiting", "playing")),
                )
                .order_by(tables.c.last_active.desc())
            )
            return [(r.table_code, int(r.seat)) for r in conn.execute(q)]

    def code_exists(self, code: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(select(tables.c.code).where(tables.c.code == code)).first()
            return found is not None

    def fill_seat(
        self,
        fence: Fence,
        seat: int,
        name: str | None,
        token_hash: str | None,
        bot: str | None = None,
        account_id: int | None = KEEP_ACCOUNT,
    ) -> Fence:
        """Seat a person (or a bot, or nobody: a freed seat) at a table; `account_id` the account
        of the person (None: a guest), or KEEP_ACCOUNT (a bot standing in for the seat's person)."""
        values: dict[str, Any] = {"name": name, "token_hash": token_hash, "bot": bot}
        if account_id != KEEP_ACCOUNT:
            values["account_id"] = account_id
        with self.engine.begin() as conn:
            after = _advance(conn, fence)
            conn.execute(
                update(seats)
                .where(seats.c.table_code == fence.code, seats.c.seat == seat)
                .values(**values)
            )
        return after

    def set_status(self, fence: Fence, status: str) -> Fence:
        with self.engine.begin() as conn:
            return _advance(conn, fence, status=status)

    # --- games and moves -------------------------------------------------------------------
    def start_game(
        self,
        fence: Fence,
        number: int,
        players: int,
        seat_list: list[int],
        seed: int,
        setup: dict[str, Any],
        rules: dict[str, Any],
        deadline: float | None = None,
    ) -> tuple[int, Fence]:
        """Store a new game of a table; returns its id and the next fence."""
        with self.engine.begin() as conn:
            after = _advance(conn, fence, status="playing", clock_deadline=deadline)
            res = conn.execute(
                insert(games).values(
                    table_code=fence.code,
                    number=number,
                    players=players,
                    seats=seat_list,
                    seed=seed,
                    setup=setup,
                    rules=rules,
                    started_at=time.time(),
                )
            )
            key = res.inserted_primary_key
            assert key is not None
            return int(key[0]), after

    def add_moves(self, rows: list[MoveRow]) -> list[Fence]:
        """Moves of several tables, each behind its table's fence, in one transaction: one commit
        for all. A fence that fails fails the batch (Fenced): store them one by one then."""
        now = time.time()
        out = []
        with self.engine.begin() as conn:
            for r in rows:
                out.append(_advance(conn, r.fence, clock_deadline=r.deadline))
            conn.execute(
                _INSERT_MOVES,
                [{"game_id": r.game_id, "ply": r.ply, "text": r.text, "at": now} for r in rows],
            )
        return out

    def finish_game(
        self, fence: Fence, game_id: int, result: dict[str, Any], status: str | None = None
    ) -> Fence:
        """A game's result (once: a result stored already stays), and on a rated table the players'
        new ratings, in the same transaction."""
        with self.engine.begin() as conn:
            after = _advance(conn, fence, status=status)
            conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.finished_at.is_(None))
                .values(finished_at=time.time(), result=result)
            )
            _rate_game(conn, game_id)
        return after

    def rate_game(self, game_id: int) -> bool:
        """Move the ratings by a finished game of a rated table, if not done already (whether it
        was done now). `finish_game` does it; this is for a game finished before, and tests."""
        with self.engine.begin() as conn:
            return _rate_game(conn, game_id)

    # --- owners ------------------------------------------------------------------------------
    def register_worker(self, worker: str) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(workers).where(workers.c.id == worker))
            conn.execute(insert(workers).values(id=worker, started_at=now, heartbeat_at=now))

    def heartbeat(self, worker: str, owned: int, draining: bool = False) -> None:
        """A worker says it is alive (and how many tables it holds, for placing new ones)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(workers)
                .where(workers.c.id == worker)
                .values(heartbeat_at=time.time(), tables=owned, draining=draining)
            )
            if res.rowcount == 0:  # declared dead and removed meanwhile: back, as a new life
                now = time.time()
                conn.execute(
                    insert(workers).values(
                        id=worker, started_at=now, heartbeat_at=now, tables=owned, draining=draining
                    )
                )

    def drop_worker(self, worker: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(workers).where(workers.c.id == worker))

    def live_workers(self, since: float) -> list[dict[str, Any]]:
        """Workers heard from since `since`, least loaded first (draining ones last)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(workers)
                .where(workers.c.heartbeat_at >= since)
                .order_by(workers.c.draining, workers.c.tables, workers.c.id)
            ).all()
        return [dict(r._mapping) for r in rows]

    def claim(self, code: str, me: str, owner: str | None, epoch: int) -> Fence | None:
        """Take a table over from `owner` at `epoch` (None: it has no owner); the new fence, or
        None when someone else took it first."""
        with self.engine.begin() as conn:
            now_owner = tables.c.owner.is_(None) if owner is None else tables.c.owner == owner
            res = conn.execute(
                update(tables)
                .where(tables.c.code == code, now_owner, tables.c.epoch == epoch)
                .values(owner=me, epoch=epoch + 1)
            )
            if res.rowcount != 1:
                return None
            seq = conn.execute(select(tables.c.seq).where(tables.c.code == code)).scalar_one()
        return Fence(code, me, epoch + 1, int(seq))

    def release(self, fence: Fence) -> bool:
        """Give a table up (no owner): the next worker to look adopts it."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tables)
                .where(
                    tables.c.code == fence.code,
                    tables.c.owner == fence.owner,
                    tables.c.epoch == fence.epoch,
                )
                .values(owner=None)
            )
            return res.rowcount == 1

    def orphans(self, alive: list[str], limit: int) -> list[tuple[str, str | None, int]]:
        """Open tables whose owner is no live worker: (code, owner, epoch), oldest first."""
        with self.engine.connect() as conn:
            q = (
                select(tables.c.code, tables.c.owner, tables.c.epoch)
                .where(
                    tables.c.status.in_(("waiting", "playing")),
                    tables.c.owner.is_(None) | tables.c.owner.not_in(alive or [""]),
                )
                .order_by(tables.c.created_at)
                .limit(limit)
            )
            return [(r.code, r.owner, int(r.epoch)) for r in conn.execute(q)]

    def owned_by(self, worker: str) -> dict[str, int]:
        """The open tables a worker owns, with their epochs."""
        with self.engine.connect() as conn:
            q = select(tables.c.code, tables.c.epoch).where(
                tables.c.owner == worker, tables.c.status.in_(("waiting", "playing"))
            )
            return {r.code: int(r.epoch) for r in conn.execute(q)}

    def owner_of(self, code: str) -> tuple[str | None, int, int, str] | None:
        """(owner, epoch, seq, status) of a table, or None if there is none."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(tables.c.owner, tables.c.epoch, tables.c.seq, tables.c.status).where(
                    tables.c.code == code
                )
            ).first()
        return None if r is None else (r.owner, int(r.epoch), int(r.seq), r.status)

    def seqs(self, codes: list[str]) -> dict[str, int]:
        """The change numbers of some tables (how a gateway checks it missed nothing)."""
        if not codes:
            return {}
        with self.engine.connect() as conn:
            q = select(tables.c.code, tables.c.seq).where(tables.c.code.in_(codes))
            return {r.code: int(r.seq) for r in conn.execute(q)}

    def waiting_tables(self, limit: int = 200) -> list[TableRow]:
        """Public tables waiting for players, newest first (their seats, no games). A table whose
        seats are all taken waits only for its worker to deal, for a moment: it waits for nobody
        who reads the list, so it is not on it."""
        free_seat = (
            select(seats.c.table_code)
            .where(seats.c.table_code == tables.c.code, seats.c.name.is_(None))
            .exists()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables)
                .where(tables.c.status == "waiting", tables.c.private.is_(False), free_seat)
                .order_by(tables.c.created_at.desc())
                .limit(limit)
            ).all()
            out = [TableRow(**r._mapping) for r in rows]
            for t in out:
                t.seats = self._seats(conn, t.code)
        return out

    # --- limits, expiry and retention -----------------------------------------------------------
    def open_counts(self, creator: str | None) -> dict[str, int]:
        """Open (waiting or playing) tables: in all, of bots only, and opened by `creator`."""
        is_open = tables.c.status.in_(("waiting", "playing"))
        has_person = select(seats.c.table_code).where(seats.c.bot.is_(None)).scalar_subquery()
        with self.engine.connect() as conn:

            def count(*where: Any) -> int:
                q = select(func.count()).select_from(tables).where(is_open, *where)
                return int(conn.execute(q).scalar_one())

            bots_only = tables.c.code.not_in(has_person)
            out = {"all": count(), "bots": count(bots_only)}
            if creator is not None:
                out["mine"] = count(tables.c.creator == creator)
                out["my_bots"] = count(tables.c.creator == creator, bots_only)
        return out

    def open_tables_by(self, creator: str) -> int:
        """How many waiting or playing tables a client has opened."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(tables)
                    .where(tables.c.creator == creator, tables.c.status.in_(("waiting", "playing")))
                ).scalar_one()
            )

    def prune(self, abandoned_before: float) -> int:
        """Delete tables with no finished game that nobody has touched since `abandoned_before`
        and that are not being played (closed, expired, or waiting): their seats, games and moves
        go; a table with a finished game is kept whole. Returns how many were deleted."""
        with self.engine.begin() as conn:
            finished = select(games.c.table_code).where(games.c.finished_at.is_not(None))
            stale = select(tables.c.code).where(
                tables.c.status.in_(("closed", "expired", "waiting")),
                tables.c.correspondence.is_(False),  # kept however long the game takes
                func.coalesce(tables.c.last_active, tables.c.created_at) < abandoned_before,
                tables.c.code.not_in(finished),
                # a tournament's tables are its record: kept as long as the tournament
                tables.c.code.not_in(
                    select(tournament_tables.c.table_code).where(
                        tournament_tables.c.table_code.is_not(None)
                    )
                ),
            )
            codes = list(conn.execute(stale).scalars())
            if not codes:
                return 0
            game_ids = select(games.c.id).where(games.c.table_code.in_(codes))
            conn.execute(delete(moves).where(moves.c.game_id.in_(game_ids)))
            conn.execute(delete(games).where(games.c.table_code.in_(codes)))
            conn.execute(delete(seats).where(seats.c.table_code.in_(codes)))
            conn.execute(delete(tables).where(tables.c.code.in_(codes)))
            return len(codes)

    def prune_uploaded_analyses(self, before: float) -> int:
        """Delete the cached analyses of uploaded records (no stored game) made before `before`."""
        with self.engine.begin() as conn:
            res = conn.execute(
                delete(analyses).where(analyses.c.game_id.is_(None), analyses.c.created_at < before)
            )
            return int(res.rowcount or 0)

    def load_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[TableRow]:
        """Tables in the given states, with their seats and games (and the last game's moves),
        oldest first."""
        with self._snapshot() as conn:
            rows = conn.execute(
                select(tables).where(tables.c.status.in_(statuses)).order_by(tables.c.created_at)
            ).all()
            return [self._whole(conn, TableRow(**r._mapping)) for r in rows]

    def _snapshot(self) -> Any:
        """A connection whose reads all see the database at one moment. PostgreSQL's default
        (read committed) gives each statement its own: a table read while its owner wrote could
        come back with the change number of one moment and the games of a later one."""
        conn = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        return conn

    def load_table(self, code: str) -> TableRow | None:
        """One table with its seats and games (and the last game's moves), whatever its state."""
        with self._snapshot() as conn:
            r = conn.execute(select(tables).where(tables.c.code == code)).first()
            return None if r is None else self._whole(conn, TableRow(**r._mapping))

    def _whole(self, conn: Any, t: TableRow) -> TableRow:
        t.seats = self._seats(conn, t.code)
        stored = conn.execute(
            select(games).where(games.c.table_code == t.code).order_by(games.c.number)
        ).all()
        for k, g in enumerate(stored):
            row = GameRow(
                g.id,
                g.number,
                g.players,
                list(g.seats),
                int(g.seed),
                dict(g.setup),
                dict(g.rules),
                g.finished_at,
                g.result,
            )
            # only the last game is played again on loading (and one whose result was never
            # stored: killed between its last move and its result)
            if k == len(stored) - 1 or g.result is None:
                row.moves = self._moves(conn, g.id)
            t.games.append(row)
        return t

    @staticmethod
    def _seats(conn: Any, code: str) -> list[SeatRow]:
        return [
            SeatRow(r.seat, r.name, r.bot, r.token_hash, r.account_id)
            for r in conn.execute(
                select(seats).where(seats.c.table_code == code).order_by(seats.c.seat)
            )
        ]

    def game_moves(self, game_id: int) -> list[str]:
        with self.engine.connect() as conn:
            return self._moves(conn, game_id)

    @staticmethod
    def _moves(conn: Any, game_id: int) -> list[str]:
        return list(
            conn.execute(
                select(moves.c.text).where(moves.c.game_id == game_id).order_by(moves.c.ply)
            ).scalars()
        )

    def history(self, limit: int = 50, offset: int = 0, code: str | None = None) -> dict[str, Any]:
        """Finished games, newest first, with the names at the table."""
        with self.engine.connect() as conn:
            q = (
                select(
                    games.c.id,
                    games.c.table_code,
                    games.c.number,
                    games.c.players,
                    games.c.seats,
                    games.c.started_at,
                    games.c.finished_at,
                    games.c.result,
                    tables.c.game,
                    tables.c.preset,
                )
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.finished_at.is_not(None))
            )
            done = games.c.finished_at.is_not(None)
            count_q = select(func.count()).select_from(games).where(done)
            if code is not None:
                q = q.where(games.c.table_code == code)
                count_q = count_q.where(games.c.table_code == code)
            total = conn.execute(count_q).scalar_one()
            rows = conn.execute(
                q.order_by(games.c.finished_at.desc(), games.c.id.desc())
                .limit(limit)
                .offset(offset)
            ).all()
            codes = {r.table_code for r in rows}
            names: dict[tuple[str, int], str | None] = {}
            if codes:
                for s in conn.execute(select(seats).where(seats.c.table_code.in_(codes))):
                    names[(s.table_code, s.seat)] = s.name
            items = []
            for r in rows:
                items.append(
                    {
                        "id": r.id,
                        "table": r.table_code,
                        "number": r.number,
                        "game": r.game,
                        "preset": r.preset,
                        "players": [names.get((r.table_code, s)) for s in r.seats],
                        "started_at": r.started_at,
                        "finished_at": r.finished_at,
                        "result": r.result,
                    }
                )
            return {"total": total, "games": items}

    def finished_record(self, game_id: int) -> dict[str, Any] | None:
        """The record (`Record.to_dict()` form) of a finished game; None for unknown or unfinished.

        An unfinished game's record is never given out: its seed decides every hidden card.
        """
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games, tables.c.game)
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.id == game_id)
            ).first()
            if g is None or g.finished_at is None:
                return None
            texts = list(
                conn.execute(
                    select(moves.c.text).where(moves.c.game_id == game_id).order_by(moves.c.ply)
                ).scalars()
            )
            by_seat = {
                s.seat: s.name
                for s in conn.execute(select(seats).where(seats.c.table_code == g.table_code))
            }
        return {
            "format": "parlour-record/1",
            "game": g.game,
            "players": g.players,
            "rules": dict(g.rules),
            "seed": int(g.seed),
            "setup": dict(g.setup),
            "moves": texts,
            # the players' names in the game's order (its seats), for `parlour replay`
            "names": [by_seat.get(s) or f"Seat {s + 1}" for s in g.seats],
        }

    def finished_ids(self, code: str, limit: int | None = None, offset: int = 0) -> list[int]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games.c.id)
                    .where(games.c.table_code == code, games.c.finished_at.is_not(None))
                    .order_by(games.c.number)
                    .limit(limit)
                    .offset(offset)
                ).scalars()
            )

    def finished_count(self, code: str) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(games)
                    .where(games.c.table_code == code, games.c.finished_at.is_not(None))
                ).scalar_one()
            )

    # --- game review -----------------------------------------------------------------------------
    def review_header(self, game_id: int) -> dict[str, Any] | None:
        """What a review asks of a stored game before its record (None: no such game): its
        players' names, whether it is finished, and how many moves it has."""
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games.c.table_code, games.c.seats, games.c.finished_at).where(
                    games.c.id == game_id
                )
            ).first()
            if g is None:
                return None
            names = {s.seat: s.name for s in self._seats(conn, g.table_code)}
            plies = conn.execute(
                select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
            ).scalar()
        return {
            "names": [names.get(s) for s in g.seats],
            "finished": g.finished_at is not None,
            "plies": int(plies or 0),
        }

    def review_game(self, game_id: int) -> dict[str, Any] | None:
        """A stored game as the review sees it (None: no such game): its table, number, players'
        names, whether it is finished, and its record only when it is — an unfinished game's seed
        decides every hidden card, so its record is never given out."""
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games, tables.c.game, tables.c.preset)
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.id == game_id)
            ).first()
            if g is None:
                return None
            names = {s.seat: s.name for s in self._seats(conn, g.table_code)}
        out: dict[str, Any] = {
            "id": g.id,
            "table": g.table_code,
            "number": g.number,
            "preset": g.preset,
            "names": [names.get(s) for s in g.seats],
            "finished": g.finished_at is not None,
            "record": None,
        }
        if out["finished"]:
            out["record"] = self.finished_record(game_id)
        return out

    def load_analysis(self, record_hash: str, seat: int, budget: str) -> str | None:
        """A cached analysis's JSON text, if the record was analysed for this seat and budget."""
        with self.engine.connect() as conn:
            text = conn.execute(
                select(analyses.c.analysis).where(
                    analyses.c.record_hash == record_hash,
                    analyses.c.seat == seat,
                    analyses.c.budget == budget,
                )
            ).scalar()
        return None if text is None else str(text)

    def save_analysis(
        self, record_hash: str, seat: int, budget: str, game_id: int | None, text: str
    ) -> None:
        """Cache an analysis (a second one of the same record, seat and budget is not kept)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(analyses).values(
                        record_hash=record_hash,
                        seat=seat,
                        budget=budget,
                        game_id=game_id,
                        created_at=time.time(),
                        analysis=text,
                    )
                )
        except IntegrityError:
            pass  # analysed meanwhile by another request: the first one stays

    def analysed_seats(self, record_hash: str, budget: str) -> list[int]:
        """The seats of a record with a cached analysis at this budget."""
        with self.engine.connect() as conn:
            return sorted(
                conn.execute(
                    select(analyses.c.seat).where(
                        analyses.c.record_hash == record_hash, analyses.c.budget == budget
                    )
                ).scalars()
            )

    def save_puzzle(self, puzzle_id: str, game: str, text: str, uploaded: bool = False) -> None:
        """Keep a puzzle (once: its id is its content's hash). `uploaded`: from an uploaded file,
        pruned after the retention time; the same puzzle found in a stored game is kept."""
        try:
            with self.engine.begin() as conn:
                found = conn.execute(
                    select(puzzles.c.uploaded).where(puzzles.c.id == puzzle_id)
                ).first()
                if found is not None:
                    if found.uploaded and not uploaded:
                        conn.execute(
                            update(puzzles).where(puzzles.c.id == puzzle_id).values(uploaded=False)
                        )
                    return
                conn.execute(
                    insert(puzzles).values(
                        id=puzzle_id,
                        game=game,
                        created_at=time.time(),
                        puzzle=text,
                        uploaded=uploaded,
                    )
                )
        except IntegrityError:
            pass  # the same puzzle saved meanwhile: its id is its content's hash

    def prune_uploaded_puzzles(self, before: float) -> int:
        """Delete the puzzles of uploaded files saved before `before`."""
        with self.engine.begin() as conn:
            res = conn.execute(
                delete(puzzles).where(puzzles.c.uploaded.is_(True), puzzles.c.created_at < before)
            )
            return int(res.rowcount or 0)

    def load_puzzle(self, puzzle_id: str) -> str | None:
        with self.engine.connect() as conn:
            text = conn.execute(select(puzzles.c.puzzle).where(puzzles.c.id == puzzle_id)).scalar()
        return None if text is None else str(text)

    # --- tournaments (server/tournament.py, server/director.py) ---------------------------------
    def create_tournament(self, values: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tournaments).values(**values))

    def tournament_counts(self, creator: str | None) -> dict[str, int]:
        """Tournaments not finished: in all, and made by `creator`."""
        alive = tournaments.c.status.in_(("open", "running"))
        with self.engine.connect() as conn:
            q = select(func.count()).select_from(tournaments).where(alive)
            out = {"all": int(conn.execute(q).scalar_one())}
            if creator is not None:
                mine = q.where(tournaments.c.creator == creator)
                out["mine"] = int(conn.execute(mine).scalar_one())
        return out

    def add_entrant(
        self, tid: str, name: str, bot: str | None, token_hash: str | None
    ) -> tuple[int | None, str]:
        """An entrant joins an open tournament: (their number, "ok"), or (None, why not: "unknown",
        "closed", "full", "name")."""
        try:
            with self.engine.begin() as conn:
                t = conn.execute(
                    select(tournaments.c.status, tournaments.c.max_entrants).where(
                        tournaments.c.id == tid
                    )
                ).first()
                if t is None:
                    return None, "unknown"
                if t.status != "open":
                    return None, "closed"
                taken = conn.execute(
                    select(tournament_entrants.c.number, tournament_entrants.c.name).where(
                        tournament_entrants.c.tournament_id == tid
                    )
                ).all()
                if len(taken) >= t.max_entrants:
                    return None, "full"
                if any(r.name.casefold() == name.casefold() for r in taken):
                    return None, "name"
                number = max((r.number for r in taken), default=0) + 1
                conn.execute(
                    insert(tournament_entrants).values(
                        tournament_id=tid,
                        number=number,
                        name=name,
                        bot=bot,
                        token_hash=token_hash,
                        joined_at=time.time(),
                    )
                )
                return number, "ok"
        except IntegrityError:  # joined at the same moment as another: the caller may retry
            return None, "race"

    def start_tournament(self, tid: str, rounds_for: Any) -> str:
        try:
            return self._start_tournament(tid, rounds_for)
        except _Rollback:
            return "started"

    def _start_tournament(self, tid: str, rounds_for: Any) -> str:
        """Open -> running: the empty places filled with the tournament's bot (if it has one), the
        number of Swiss rounds fixed (`rounds_for(entrants)`, unless set). Returns "ok", or why
        not: "unknown", "started", "few" (fewer than a table's worth)."""
        with self.engine.begin() as conn:
            t = conn.execute(select(tournaments).where(tournaments.c.id == tid)).first()
            if t is None:
                return "unknown"
            if t.status != "open":
                return "started"
            taken = conn.execute(
                select(tournament_entrants.c.number, tournament_entrants.c.name).where(
                    tournament_entrants.c.tournament_id == tid
                )
            ).all()
            number = max((r.number for r in taken), default=0)
            names = {r.name.casefold() for r in taken}
            bots = []
            if t.bot_fill:
                # a level's name plays the level's bot of today, kept by each entrant from here
                spec, kind = seat_bot(t.bot_fill, t.game)
                k = 0
                for _ in range(t.max_entrants - len(taken)):
                    k += 1
                    while f"{kind} bot {k}".casefold() in names:
                        k += 1
                    number += 1
                    bots.append(
                        {
                            "tournament_id": tid,
                            "number": number,
                            "name": f"{kind} bot {k}",
                            "bot": spec,
                            "joined_at": time.time(),
                        }
                    )
            count = len(taken) + len(bots)
            if count < (2 if t.format == "swiss" else 3):
                return "few"
            if bots:
                conn.execute(insert(tournament_entrants), bots)
            res = conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tid, tournaments.c.status == "open")
                .values(
                    status="running",
                    started_at=time.time(),
                    rounds=t.rounds or (rounds_for(count) if t.format == "swiss" else None),
                )
            )
            if res.rowcount != 1:
                raise _Rollback  # started meanwhile by another request: nothing written
        return "ok"

    def running_tournaments(self, limit: int = 1000) -> list[str]:
        with self.engine.connect() as conn:
            q = (
                select(tournaments.c.id)
                .where(tournaments.c.status == "running")
                .order_by(tournaments.c.created_at)
                .limit(limit)
            )
            return list(conn.execute(q).scalars())

    def load_tournament(self, tid: str) -> dict[str, Any] | None:
        """A tournament whole: its row, entrants (by number), and every table of every round with
        the table's status and its game's id and result (the first game: tables play one)."""
        with self._snapshot() as conn:
            t = conn.execute(select(tournaments).where(tournaments.c.id == tid)).first()
            if t is None:
                return None
            entrants = [
                dict(r._mapping)
                for r in conn.execute(
                    select(tournament_entrants)
                    .where(tournament_entrants.c.tournament_id == tid)
                    .order_by(tournament_entrants.c.number)
                )
            ]
            first = (
                select(games.c.table_code, games.c.id, games.c.seats, games.c.result)
                .where(games.c.number == 0)
                .subquery()
            )
            q = (
                select(
                    tournament_tables.c.round,
                    tournament_tables.c.table_code,
                    tournament_tables.c.entrants,
                    tables.c.status,
                    first.c.id.label("game_id"),
                    first.c.seats,
                    first.c.result,
                )
                .select_from(
                    tournament_tables.outerjoin(
                        tables, tables.c.code == tournament_tables.c.table_code
                    ).outerjoin(first, first.c.table_code == tournament_tables.c.table_code)
                )
                .where(tournament_tables.c.tournament_id == tid)
                .order_by(tournament_tables.c.round, tournament_tables.c.id)
            )
            rounds = [dict(r._mapping) for r in conn.execute(q)]
        return {"tournament": dict(t._mapping), "entrants": entrants, "tables": rounds}

    def open_round(
        self,
        tid: str,
        expected: int,
        number: int,
        rows: list[tuple[TableRow, list[int]]],
        byes: list[int],
        owner: str,
    ) -> bool:
        """Round `number` in one transaction: a compare-and-set of the tournament's round from
        `expected` (so two workers never open it twice), its tables (owned by `owner`) and its
        byes. False: another worker moved the tournament on first (nothing was written)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tid,
                    tournaments.c.status == "running",
                    tournaments.c.round == expected,
                )
                .values(round=number)
            )
            if res.rowcount != 1:
                return False
            for row, _ in rows:
                _insert_table(conn, row, owner)
            links = [
                {"tournament_id": tid, "round": number, "table_code": r.code, "entrants": e}
                for r, e in rows
            ] + [
                {"tournament_id": tid, "round": number, "table_code": None, "entrants": [n]}
                for n in byes
            ]
            if links:
                conn.execute(insert(tournament_tables), links)
        return True

    def finish_tournament(self, tid: str, expected: int, final: list[dict[str, Any]]) -> bool:
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tid,
                    tournaments.c.status == "running",
                    tournaments.c.round == expected,
                )
                .values(status="finished", finished_at=time.time(), standings=final)
            )
            return res.rowcount == 1

    def list_tournaments(self, limit: int = 50) -> list[dict[str, Any]]:
        """Tournaments, open ones first, then running, then the finished, newest first in each."""
        with self.engine.connect() as conn:
            counts = (
                select(tournament_entrants.c.tournament_id, func.count().label("entrants"))
                .group_by(tournament_entrants.c.tournament_id)
                .subquery()
            )
            out: list[dict[str, Any]] = []
            for status in ("open", "running", "finished"):
                q = (
                    select(tournaments, func.coalesce(counts.c.entrants, 0).label("count"))
                    .outerjoin(counts, counts.c.tournament_id == tournaments.c.id)
                    .where(tournaments.c.status == status)
                    .order_by(tournaments.c.created_at.desc())
                    .limit(limit)
                )
                out.extend(dict(r._mapping) for r in conn.execute(q))
        return out[:limit]

    # --- accounts and sessions -------------------------------------------------------------------
    def create_account(
        self, username: str, key: str, password_hash: str, skeleton: str | None = None
    ) -> int | None:
        """A new account; None when its name is taken (by its key, or its confusable skeleton)."""
        try:
            with self.engine.begin() as conn:
                res = conn.execute(
                    insert(accounts).values(
                        username=username,
                        name_key=key,
                        name_skeleton=skeleton,
                        password_hash=password_hash,
                        created_at=time.time(),
                    )
                )
                pk = res.inserted_primary_key
                assert pk is not None
                return int(pk[0])
        except IntegrityError:
            return None

    def account_by_key(self, key: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(
                select(accounts).where(accounts.c.name_key == key, accounts.c.deleted_at.is_(None))
            ).first()
        return None if r is None else dict(r._mapping)

    def account_by_id(self, account_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(
                select(accounts).where(accounts.c.id == account_id, accounts.c.deleted_at.is_(None))
            ).first()
        return None if r is None else dict(r._mapping)

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def new_session(self, account_id: int, token_hash: str) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, account_id=account_id, created_at=now, last_seen=now
                )
            )

    def session_account(self, token_hash: str, since: float) -> dict[str, Any] | None:
        """The account of a session seen since `since` (an older one has expired and goes)."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(sessions.c.last_seen, accounts.c.id, accounts.c.username)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.token_hash == token_hash, accounts.c.deleted_at.is_(None))
            ).first()
        if r is None:
            return None
        now = time.time()
        if r.last_seen < since:
            self.drop_session(token_hash)
            return None
        if now - r.last_seen > 3600:  # kept fresh once an hour, not on every request
            with self.engine.begin() as conn:
                conn.execute(
                    update(sessions)
                    .where(sessions.c.token_hash == token_hash)
                    .values(last_seen=now)
                )
        return {"id": int(r.id), "username": str(r.username)}

    def drop_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    def prune_sessions(self, unused_since: float) -> int:
        """Delete the sessions not used since `unused_since` (expired): how many."""
        with self.engine.begin() as conn:
            res = conn.execute(delete(sessions).where(sessions.c.last_seen < unused_since))
            return int(res.rowcount or 0)

    def drop_sessions(self, account_id: int, keep: str | None = None) -> int:
        """End every session of an account (but `keep`, the one asking): how many ended."""
        with self.engine.begin() as conn:
            q = delete(sessions).where(sessions.c.account_id == account_id)
            if keep is not None:
                q = q.where(sessions.c.token_hash != keep)
            return int(conn.execute(q).rowcount or 0)

    def delete_account(self, account_id: int) -> None:
        """Delete an account: its sessions and ratings go; its row stays nameless, and its name
        in every stored game becomes "deleted player" (the games stay whole)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(ratings).where(ratings.c.player == f"a:{account_id}"))
            conn.execute(
                update(seats).where(seats.c.account_id == account_id).values(name=DELETED_NAME)
            )
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    username=DELETED_NAME,
                    name_key=f"#deleted-{account_id}",
                    name_skeleton=None,
                    password_hash="",
                    deleted_at=time.time(),
                )
            )

    def claim_seats(self, account_id: int, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """A guest's seats, by (table code, token hash) as the browser holds them, become the
        account's — only seats no account has, whose token is that one. No part of the game: a
        compare-and-set outside the owner's fence. Returns the seats claimed."""
        out = []
        with self.engine.begin() as conn:
            for code, token_hash in held:
                found = conn.execute(
                    select(seats.c.seat).where(
                        seats.c.table_code == code,
                        seats.c.token_hash == token_hash,
                        seats.c.account_id.is_(None),
                        seats.c.bot.is_(None),
                    )
                ).all()
                for r in found:
                    res = conn.execute(
                        update(seats)
                        .where(
                            seats.c.table_code == code,
                            seats.c.seat == r.seat,
                            seats.c.account_id.is_(None),
                        )
                        .values(account_id=account_id)
                    )
                    if res.rowcount == 1:
                        out.append({"table": code, "seat": int(r.seat)})
        return out

    # --- ratings, leaderboards and profiles ------------------------------------------------------
    def _names(self, conn: Any, players: list[str]) -> dict[str, str]:
        ids = [int(p[2:]) for p in players if p.startswith("a:")]
        out = {p: p[4:] + " bot" for p in players if p.startswith("bot:")}
        if ids:
            q = select(accounts.c.id, accounts.c.username).where(
                accounts.c.id.in_(ids), accounts.c.deleted_at.is_(None)
            )
            for r in conn.execute(q):
                out[f"a:{r.id}"] = str(r.username)
        return out

    def leaderboard(self, game: str, preset: str, limit: int = 100) -> list[dict[str, Any]]:
        """The rated players of a game and preset, best first (by ordinal: mu - 3 sigma)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings).where(ratings.c.game == game, ratings.c.preset == preset)
            ).all()
            names = self._names(conn, [r.player for r in rows])
        out = []
        for r in rows:
            if r.player not in names:
                continue  # a deleted account
            out.append(_rating_entry(r, names[r.player]))
        out.sort(key=lambda e: (-e["ordinal"], e["name"]))
        for rank, e in enumerate(out[:limit], 1):
            e["rank"] = rank
        return out[:limit]

    def profile(self, player: str, games_limit: int = 100) -> dict[str, Any] | None:
        """A player's ratings, rating history, and finished games (an account's: every game it
        sat at; a bot's: its rated games); None for no such player."""
        with self.engine.connect() as conn:
            name = self._names(conn, [player]).get(player)
            if name is None:
                return None
            rated = conn.execute(
                select(ratings).where(ratings.c.player == player).order_by(ratings.c.game)
            ).all()
            if player.startswith("bot:") and not rated:
                return None  # a bot kind is a player once it has played a rated game
            history = conn.execute(
                select(rating_history)
                .where(rating_history.c.player == player)
                .order_by(rating_history.c.at, rating_history.c.id)
            ).all()
            q = (
                select(games, tables.c.game, tables.c.preset, tables.c.rated)
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.finished_at.is_not(None))
            )
            mine: dict[int, set[int]] = {}  # game id -> the player's seats in it
            if player.startswith("a:"):
                account_id = int(player[2:])
                for r in conn.execute(
                    select(seats.c.table_code, seats.c.seat).where(seats.c.account_id == account_id)
                ):
                    for gid in conn.execute(
                        select(games.c.id).where(games.c.table_code == r.table_code)
                    ).scalars():
                        mine.setdefault(int(gid), set()).add(int(r.seat))
            else:
                for h in history:
                    mine.setdefault(int(h.game_id), set())
                kind = player[4:]
                if mine:
                    for b in conn.execute(
                        select(seats.c.seat, seats.c.bot, games.c.id)
                        .join(games, games.c.table_code == seats.c.table_code)
                        .where(games.c.id.in_(list(mine)))
                    ):
                        if b.bot is not None and b.bot.split(":")[0] == kind:
                            mine[int(b.id)].add(int(b.seat))
            found = conn.execute(
                q.where(games.c.id.in_(list(mine) or [-1])).order_by(games.c.finished_at.desc())
            ).all()
            codes = {g.table_code for g in found}
            seat_names: dict[tuple[str, int], str | None] = {}
            if codes:
                for s in conn.execute(select(seats).where(seats.c.table_code.in_(codes))):
                    seat_names[(s.table_code, s.seat)] = s.name
        played: list[dict[str, Any]] = []
        by_game: dict[str, dict[str, float]] = {}
        for g in found:
            result = dict(g.result or {})
            indexes = [i for i, s in enumerate(g.seats) if s in mine.get(g.id, set())]
            if not indexes:
                continue
            winners = set(result.get("winners") or [])
            won = any(i in winners for i in indexes)
            ranks = result.get("ranks") or []
            rank = min((int(ranks[i]) for i in indexes if i < len(ranks)), default=None)
            tally = by_game.setdefault(g.game, {"played": 0, "won": 0})
            tally["played"] += 1
            tally["won"] += int(won)
            if len(played) < games_limit:
                played.append(
                    {
                        "id": g.id,
                        "table": g.table_code,
                        "number": g.number,
                        "game": g.game,
                        "preset": g.preset,
                        "rated": bool(g.rated),
                        "players": [seat_names.get((g.table_code, s)) for s in g.seats],
                        "won": won,
                        "rank": rank,
                        "finished_at": g.finished_at,
                        "review": f"/review/{g.id}",
                        "record": f"/api/history/{g.id}/record",
                    }
                )
        win_rate = {
            game: {
                "played": int(t["played"]),
                "won": int(t["won"]),
                "rate": t["won"] / t["played"] if t["played"] else 0.0,
            }
            for game, t in sorted(by_game.items())
        }
        return {
            "player": player,
            "name": name,
            "kind": "account" if player.startswith("a:") else "bot",
            "ratings": [_rating_entry(r, name) for r in rated],
            "history": [
                {
                    "game_id": h.game_id,
                    "game": h.game,
                    "preset": h.preset,
                    "rank": h.rank,
                    "mu": h.mu,
                    "sigma": h.sigma,
                    "ordinal": rating_model.ordinal(h.mu, h.sigma),
                    "at": h.at,
                }
                for h in history
            ],
            "games": played,
            "win_rate": win_rate,
        }


class _Rollback(Exception):
    """Leave a transaction with nothing written."""


def _rating_entry(r: Any, name: str) -> dict[str, Any]:
    player = str(r.player)
    return {
        "player": player,
        "name": name,
        "kind": "account" if player.startswith("a:") else "bot",
        "game": r.game,
        "preset": r.preset,
        "mu": float(r.mu),
        "sigma": float(r.sigma),
        "ordinal": rating_model.ordinal(float(r.mu), float(r.sigma)),
        "games": int(r.games),
        "wins": float(r.wins),
        "win_rate": float(r.wins) / int(r.games) if r.games else 0.0,
    }


def _reason(exc: SQLAlchemyError) -> str:
    """The database's own words for an error, without SQLAlchemy's statement dump."""
    orig = getattr(exc, "orig", None)
    return str(orig or exc).splitlines()[0]
