"""Storage through SQLAlchemy 2: an embedded SQLite file by default, PostgreSQL by URL.

`Store` holds the one engine and a repository per subject, each owning its SQL:

| repository | its subject |
|---|---|
| `tables` | tables, seats, games and moves, written behind each table's fence; history; retention |
| `owners` | the table workers and who owns which table |
| `accounts` | accounts, their log-in sessions, a guest's seats claimed |
| `ratings` | ratings, their history, leaderboards and profiles |
| `tournaments` | tournaments, entrants, every round's tables |
| `quick` | quick match's queue |
| `review` | a stored game as the review reads it; the cached analyses |
| `analysis_jobs` | the analysis queue shared by every gateway |
| `puzzles` | shared puzzles |
| `reports` | chat lines people reported, for the moderators |

A transaction across subjects (a game's result and the ratings it moves, a tournament's round and
its tables) is one repository's method calling the other's functions on its connection.

The store is synchronous; the server calls it from one worker thread (`Database.call`) so that
writes to a table are ordered and SQLite has a single writer. Every method is its own transaction:
when `tables.add_moves` returns, the moves are on disk (SQLite in WAL mode survives a killed
process). One server process owns a SQLite file: the store holds an exclusive lock on
`<file>.lock` for its lifetime, and a second server on the same file is refused with a clear
message instead of overwriting the first one's seats. (Several processes on one PostgreSQL
database are the scale-out design's, not an accident.)
"""

from __future__ import annotations

import secrets as secrets_module

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError

from ..schema import secrets
from .accounts import AccountsRepo
from .analysis_jobs import AnalysisJobsRepo
from .engine import (
    MIGRATIONS,
    Fenced,
    StoreError,
    database_url,
    lock_sqlite,
    make_engine,
    migrate,
    reason,
)
from .fence import Fence
from .matchmaking import QuickRepo
from .owners import OwnersRepo
from .puzzles import PuzzlesRepo
from .ratings import RatingsRepo
from .reports import ReportsRepo
from .review import ReviewRepo
from .rows import GameRow, MoveRow, SeatRow, TableRow
from .tables import KEEP_ACCOUNT, TablesRepo
from .tournaments import TournamentsRepo

__all__ = [
    "KEEP_ACCOUNT",
    "MIGRATIONS",
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


class Store:
    """The database: its engine (migrated to the newest schema at start) and its repositories."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        try:
            make_url(self.url)
        except (ArgumentError, ValueError):  # not a URL; a port that is not a number
            raise StoreError(
                f"{url!r} is not a database: give a SQLite file's path (var/parlour.sqlite3), "
                "sqlite:///path or postgresql://user@host/db"
            ) from None
        self._lock = lock_sqlite(self.url)
        try:
            self.engine = make_engine(url)
            migrate(self.engine)
            self._check_writable()
        except OperationalError as exc:
            self._unlock()
            raise StoreError(f"cannot use the database {self._shown()}: {reason(exc)}") from None
        except BaseException:
            self._unlock()
            raise
        self.tables = TablesRepo(self.engine)
        self.owners = OwnersRepo(self.engine)
        self.accounts = AccountsRepo(self.engine)
        self.ratings = RatingsRepo(self.engine)
        self.tournaments = TournamentsRepo(self.engine)
        self.quick = QuickRepo(self.engine)
        self.review = ReviewRepo(self.engine, self.tables)
        self.analysis_jobs = AnalysisJobsRepo(self.engine)
        self.puzzles = PuzzlesRepo(self.engine)
        self.reports = ReportsRepo(self.engine)

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

    def ping(self) -> None:
        """A query that needs the database to answer (`/readyz`)."""
        with self.engine.connect() as conn:
            conn.execute(select(1)).scalar()

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
