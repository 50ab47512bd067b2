"""Fixtures for the server tests: a database URL for SQLite and for a real PostgreSQL server.

`make test` runs the PostgreSQL tests against a throwaway cluster started here on 127.0.0.1
(Debian's binaries under /usr/lib/postgresql/*/bin). Without them the tests are skipped with a
loud reason — except under CI=true, where a missing PostgreSQL is a failure.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_testkit import free_port


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PgCluster:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            user = "postgres"
            try:
                pw = pwd.getpwnam(user)
            except KeyError:
                user, pw = "nobody", pwd.getpwnam("nobody")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.prefix = ["runuser", "-u", user, "--"]

    def run(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, *args], check=True, capture_output=True, timeout=120, cwd=self.dir
        )

    def start(self) -> None:
        data = self.dir / "data"
        self.run(
            str(self.bindir / "initdb"), "-D", str(data), "-U", "parlour", "--auth=trust",
            "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F -c max_connections=200"
        self.run(
            str(self.bindir / "pg_ctl"), "-D", str(data), "-o", opts,
            "-l", str(self.dir / "log"), "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop(self) -> None:
        try:
            self.run(
                str(self.bindir / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop"
            )
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://parlour@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(autouse=True)
def _watchdog() -> Iterator[None]:
    """A hung server test dumps every thread's stack and exits instead of blocking the suite."""
    import faulthandler

    faulthandler.dump_traceback_later(
        float(os.environ.get("PARLOUR_TEST_WATCHDOG", "240")), exit=True
    )
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    bindir = _pg_bin()
    if bindir is None:
        reason = (
            "PostgreSQL server binaries (initdb, pg_ctl) not found: the PostgreSQL storage tests "
            "are NOT RUN. Install Debian's `postgresql` package (see .ci/run)."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = PgCluster(bindir)
    try:
        cluster.start()
    except subprocess.CalledProcessError as exc:
        log = (cluster.dir / "log").read_text() if (cluster.dir / "log").exists() else ""
        cluster.stop()
        pytest.fail(f"could not start PostgreSQL: {exc.stderr!r} {log}")
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
