"""`parlour backup` and `parlour restore`: a server's store copied whole, while it runs.

**SQLite**: SQLite's online backup API (`sqlite3.Connection.backup`) copies the database page by
page from a read-only connection, beside the running server (WAL mode lets it read while the
server writes); the copy is one moment's database, checked (`PRAGMA quick_check`) and renamed
into place only when whole. Restoring copies it the same way into a new file, which a server is
then started on; a file a running server holds (its `.lock`) is refused.

**PostgreSQL**: `pg_dump --format=custom`, PostgreSQL's own consistent snapshot of a live
database, and `pg_restore` into an empty database (docs/deploy.md, "Backups"). The command run
is printed, the password kept out of it (`PGPASSWORD`); `--print` prints it without running.

A restored store is served as it was: its open tables are adopted by the new server's worker
(their old owner is long dead) and play goes on from the last stored move.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from parlour.core import ParlourError

from .storage.engine import StoreError, database_url, lock_sqlite

__all__ = ["backup", "pg_command", "restore"]

PAGES = 256  # pages copied a step (a step holds SQLite's read lock briefly)

Say = Callable[[str], None]
Progress = Callable[[int, int], None]  # (pages copied, pages in all)


def _url(database: str) -> URL:
    return make_url(database_url(database))


def _sqlite_path(url: URL) -> Path:
    name = url.database or ""
    if not name or name == ":memory:" or name.startswith("file:"):
        raise ParlourError(f"{name or 'an in-memory database'} cannot be backed up: give a file")
    return Path(name)


def _copy(src: sqlite3.Connection, dst: sqlite3.Connection, progress: Progress | None) -> None:
    def step(_status: int, remaining: int, total: int) -> None:
        if progress is not None:
            progress(total - remaining, total)

    src.backup(dst, pages=PAGES, progress=step)
    dst.execute("PRAGMA journal_mode=DELETE")  # one file, no WAL beside it
    ok = dst.execute("PRAGMA quick_check").fetchone()
    if ok is None or ok[0] != "ok":
        raise ParlourError(f"the copy does not check: {ok}")


def _check_out(out: Path, force: bool) -> None:
    if out.exists() and not force:
        raise ParlourError(f"{out} exists: give another name, or --force to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)


def backup(
    database: str,
    out: Path,
    *,
    force: bool = False,
    dry_run: bool = False,
    say: Say = print,
    progress: Progress | None = None,
) -> Path:
    """Back up a server's store to `out` (a SQLite file, or pg_dump's custom format)."""
    url = _url(database)
    if url.get_backend_name() == "postgresql":
        command, env = pg_command("pg_dump", url, "--format=custom", "--no-owner", f"--file={out}")
        return _run(command, env, out, force, dry_run, say)
    if url.get_backend_name() != "sqlite":
        raise ParlourError(f"parlour backs up SQLite and PostgreSQL, not {url.get_backend_name()}")
    path = _sqlite_path(url)
    if not path.exists():
        raise ParlourError(f"no database at {path}")
    _check_out(out, force)
    part = out.with_name(out.name + ".part")
    part.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(part)
        try:
            _copy(src, dst, progress)
        finally:
            dst.close()
    finally:
        src.close()
    part.replace(out)
    say(f"backed up {path} to {out} ({out.stat().st_size:,} bytes, checked)")
    return out


def restore(
    backup_file: Path,
    database: str,
    *,
    force: bool = False,
    dry_run: bool = False,
    say: Say = print,
    progress: Progress | None = None,
) -> None:
    """Restore a backup into `database`: a new SQLite file (or, with `force`, over one no server
    is using), or an empty PostgreSQL database."""
    if not backup_file.exists():
        raise ParlourError(f"no backup at {backup_file}")
    url = _url(database)
    if url.get_backend_name() == "postgresql":
        extra = ["--clean", "--if-exists"] if force else []
        command, env = pg_command(
            "pg_restore", url, "--no-owner", "--exit-on-error", *extra, str(backup_file)
        )
        _run(command, env, None, True, dry_run, say)
        return
    if url.get_backend_name() != "sqlite":
        raise ParlourError(f"parlour restores SQLite and PostgreSQL, not {url.get_backend_name()}")
    path = _sqlite_path(url)
    _check_out(path, force)
    try:  # a server using the file holds its lock: refused in words
        lock = lock_sqlite(str(url))
    except StoreError as exc:
        raise ParlourError(str(exc)) from None
    try:
        for log in ("-wal", "-shm"):  # a replaced database's log must not be replayed onto it
            Path(f"{path}{log}").unlink(missing_ok=True)
        src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(path)
            try:
                _copy(src, dst, progress)
                dst.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
            finally:
                dst.close()
        finally:
            src.close()
    finally:
        if lock is not None:
            lock.close()
    say(f"restored {backup_file} into {path}: serve it with parlour serve --database {path}")


def pg_command(tool: str, url: URL, *args: str) -> tuple[list[str], dict[str, str]]:
    """A PostgreSQL client tool's command for a database URL, its password in the environment
    (PGPASSWORD), never on the command line where `ps` shows it."""
    binary = _pg_tool(tool)
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    target = plain.render_as_string(hide_password=False)
    return [binary, f"--dbname={target}", *args], env


def _pg_tool(tool: str) -> str:
    found = shutil.which(tool)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))  # Debian's layout
    if versions:
        return versions[-1]
    raise ParlourError(
        f"{tool} not found: install PostgreSQL's client tools (Debian: postgresql-client)"
    )


def _run(
    command: list[str],
    env: dict[str, str],
    out: Path | None,
    force: bool,
    dry_run: bool,
    say: Say,
) -> Path:
    shown = " ".join(command)
    if dry_run:
        say(shown)
        return out or Path(".")
    if out is not None:
        _check_out(out, force)
    say(f"running: {shown}")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ParlourError(f"{Path(command[0]).name} failed: {done.stderr.strip()[:2000]}")
    if out is not None:
        say(f"backed up to {out} ({out.stat().st_size:,} bytes)")
    else:
        say("restored")
    return out or Path(".")
