"""Fixtures for the server tests: a database URL for SQLite and for a real PostgreSQL server, and
the cluster mode.

`make test` runs the PostgreSQL tests against a throwaway cluster started here on 127.0.0.1
(Debian's binaries under /usr/lib/postgresql/*/bin). Without them the tests are skipped with a
loud reason — except under CI=true, where a missing PostgreSQL is a failure.

With `PARLOUR_SERVER_MODE=cluster` the same tests run against 2 gateways and 2 table workers,
each a `parlour serve` process, on PostgreSQL and a Redis bus (`cluster_kit.ClusterPool`): every
`server_testkit.client()` is then a `RemoteClient`. A test that needs the server in its own process
(its internals, a SQLite file, monkeypatching) is marked `@pytest.mark.in_process("why")` and is
skipped there with that reason. Without redis-server the cluster mode is skipped loudly, or fails
under CI=true.
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
from typing import Any

import pytest
import server_testkit
from server_testkit import free_port

CLUSTER_MODE = server_testkit.CLUSTER_MODE


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "in_process(reason): the test needs the server inside the test process; skipped with "
        "the reason when PARLOUR_SERVER_MODE=cluster",
    )
    config.addinivalue_line(
        "markers", "cluster: starts clusters of its own (gateways, workers, Redis, PostgreSQL)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not CLUSTER_MODE:
        return
    for item in items:
        mark = item.get_closest_marker("in_process")
        if mark is not None:
            why = mark.args[0] if mark.args else "needs the server in the test process"
            item.add_marker(pytest.mark.skip(reason=f"in-process only: {why}"))


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


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
def _watchdog(request: pytest.FixtureRequest) -> Iterator[None]:
    """A hung server test dumps every thread's stack and exits instead of blocking the suite (a
    test of whole clusters under load gets three times as long)."""
    import faulthandler

    bound = float(os.environ.get("PARLOUR_TEST_WATCHDOG", "240"))
    if request.node.get_closest_marker("cluster") is not None:
        bound *= 3
    faulthandler.dump_traceback_later(bound, exit=True)
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
        _missing(reason)
    assert bindir is not None  # _missing raised otherwise
    cluster = PgCluster(bindir)
    try:
        cluster.start()
    except subprocess.CalledProcessError as exc:
        log = (cluster.dir / "log").read_text() if (cluster.dir / "log").exists() else ""
        cluster.stop()
        pytest.fail(f"could not start PostgreSQL: {exc.stderr!r} {log}")
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session", autouse=True)
def _cluster_pool(request: pytest.FixtureRequest) -> Iterator[None]:
    """In cluster mode: the clusters every `client()` of the session runs on."""
    if not CLUSTER_MODE:
        yield
        return
    from cluster_kit import ClusterPool

    if shutil.which("redis-server") is None:
        _missing(
            "redis-server not found: the server tests in cluster mode (PARLOUR_SERVER_MODE="
            "cluster) are NOT RUN. Install Debian's `redis-server` package (see .ci/run)."
        )
    pg: PgCluster = request.getfixturevalue("pg_cluster")
    pool = ClusterPool(pg.new_database, server_testkit.server_settings())
    server_testkit.POOL = pool
    try:
        yield
    finally:
        server_testkit.POOL = None
        pool.close()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Any]:
    """A throwaway redis-server on loopback (the bus of the cluster tests)."""
    from cluster_kit import RedisServer

    if not RedisServer.available():
        _missing("redis-server not found: the tests of the bus are NOT RUN (see .ci/run)")
    r = RedisServer()
    r.start()
    yield r
    r.stop()


# in cluster mode every server is on PostgreSQL: a SQLite variant would be the same test again
@pytest.fixture(params=["postgresql"] if CLUSTER_MODE else ["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
