"""The database itself: its URL, its engine (SQLite's pragmas), its migrations, the lock on a
SQLite file, the store's errors, and what every repository shares: the engine and a snapshot."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

__all__ = [
    "MIGRATIONS",
    "Fenced",
    "Repository",
    "Rollback",
    "StoreError",
    "database_url",
    "lock_sqlite",
    "make_engine",
    "migrate",
    "reason",
]

MIGRATIONS = Path(__file__).parent.parent / "migrations"
MIGRATION_LOCK = 0x7061726C6F7572  # "parlour": PostgreSQL's advisory lock for migrating


class StoreError(RuntimeError):
    """The database cannot be used as asked (held by another server, read-only, full): the message
    says what to do."""


class Fenced(StoreError):
    """A write refused because the writer no longer owns the table (another worker took it over,
    at a later epoch) or does not know its latest change: nothing was written."""


class Rollback(Exception):
    """Leave a transaction with nothing written."""


class Repository:
    """One subject's SQL over the store's one engine (each repository's methods are their own
    transactions; a transaction across subjects calls the other's functions on its connection)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _snapshot(self) -> Any:
        """A connection whose reads all see the database at one moment. PostgreSQL's default
        (read committed) gives each statement its own: a table read while its owner wrote could
        come back with the change number of one moment and the games of a later one."""
        conn = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        return conn


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


def head_revision() -> str:
    """The newest migration's revision, read from the file names (`0014_closed_why.py`: "0014"),
    without loading Alembic (a test holds it to Alembic's own head)."""
    return max(f.name[:4] for f in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def at_head(engine: Engine) -> bool:
    """Whether the database's schema is the newest migration's already."""
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
    except SQLAlchemyError:  # a new database: no version table yet
        return False
    return [r[0] for r in rows] == [head_revision()]


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (run at every start). A database at the newest
    one already is only read: Alembic, and its lock, are for a schema to change."""
    if at_head(engine):
        return
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # the processes of a cluster start together: one migrates, the others wait here (the
            # lock ends with the transaction) and then find the schema up to date
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def lock_sqlite(url: str) -> IO[str] | None:
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


def reason(exc: SQLAlchemyError) -> str:
    """The database's own words for an error, without SQLAlchemy's statement dump."""
    orig = getattr(exc, "orig", None)
    return str(orig or exc).splitlines()[0]
