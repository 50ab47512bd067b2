"""Fixtures for the server tests: a database URL for SQLite and for a real PostgreSQL server, and
the cluster mode.

`make test` runs the PostgreSQL tests against a throwaway server started here on 127.0.0.1
(`cluster_kit.PostgresServer`: Debian's binaries under /usr/lib/postgresql/*/bin). Without them
the tests are skipped with a loud reason — except under CI=true, where a missing PostgreSQL is a
failure.

With `PARLOUR_SERVER_MODE=cluster` the same tests run against 2 gateways and 2 table workers,
each a `parlour serve` process, on PostgreSQL and a Redis bus (`cluster_kit.ClusterPool`): every
`server_testkit.client()` is then a `RemoteClient`. A test that needs the server in its own process
(its internals, a SQLite file, monkeypatching) is marked `@pytest.mark.in_process("why")` and is
skipped there with that reason. Without redis-server the cluster mode is skipped loudly, or fails
under CI=true.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import server_testkit
from cluster_kit import PostgresServer

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


@pytest.fixture(autouse=True)
def _watchdog(request: pytest.FixtureRequest, watchdog_dir: Path) -> Iterator[None]:
    """A hung server test dumps every thread's stack and exits instead of blocking the suite (a
    test of whole clusters under load gets three times as long). The stacks go to a file in
    `watchdog_dir`, which the run's summary prints (tests/conftest.py): pytest-xdist reports only
    "worker crashed" when the watchdog ends a worker, and the worker's captured stderr goes with
    it."""
    import faulthandler

    bound = float(os.environ.get("PARLOUR_TEST_WATCHDOG", "240"))
    if request.node.get_closest_marker("cluster") is not None:
        bound *= 3
    watchdog_dir.mkdir(parents=True, exist_ok=True)
    path = watchdog_dir / f"{os.getpid()}.txt"
    with path.open("w") as dump:
        started = time.strftime("%H:%M:%S")
        dump.write(f"{request.node.nodeid}: still running {bound:.0f} s after {started}\n")
        dump.flush()
        faulthandler.dump_traceback_later(bound, exit=True, file=dump)
        yield
        faulthandler.cancel_dump_traceback_later()
    path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresServer]:
    if not PostgresServer.available():
        reason = (
            "PostgreSQL server binaries (initdb, pg_ctl) not found: the PostgreSQL storage tests "
            "are NOT RUN. Install Debian's `postgresql` package (see .ci/run)."
        )
        _missing(reason)
    cluster = PostgresServer()
    try:
        cluster.start()
    except subprocess.CalledProcessError as exc:
        cluster.stop()
        pytest.fail(f"could not start PostgreSQL: {exc.stderr!r} {cluster.log_text()}")
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
    pg: PostgresServer = request.getfixturevalue("pg_cluster")
    logs = request.getfixturevalue("tmp_path_factory").mktemp("clusters")
    pool = ClusterPool(pg.migrated_database, server_testkit.server_settings(), logs)
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


@pytest.fixture
def own_redis() -> Iterator[Any]:
    """A redis-server of the test's own, to kill and start again on the same port (an outage of
    the bus) without taking the session's Redis from other tests."""
    from cluster_kit import RedisServer

    if not RedisServer.available():
        _missing("redis-server not found: the tests of a Redis outage are NOT RUN (see .ci/run)")
    r = RedisServer()
    r.start()
    yield r
    r.stop()


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file the migrations ran on once this session, for the tests' databases to copy."""
    from parlour.server.storage import Store

    path = tmp_path_factory.mktemp("migrated") / "parlour.sqlite3"
    Store(f"sqlite:///{path}").close()
    assert not path.with_name(path.name + "-wal").exists()  # all of it in the one file
    return path


def _sqlite_database(tmp_path: Path, migrated: Path) -> str:
    """A test's own SQLite database, its schema at the newest migration (as a server's first
    start leaves it), copied rather than migrated again: a server test's start is then quick."""
    path = tmp_path / "parlour.sqlite3"
    shutil.copyfile(migrated, path)
    return f"sqlite:///{path}"


# in cluster mode every server is on PostgreSQL: a SQLite variant would be the same test again
@pytest.fixture(params=["postgresql"] if CLUSTER_MODE else ["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return _sqlite_database(tmp_path, request.getfixturevalue("sqlite_migrated"))
    cluster: PostgresServer = request.getfixturevalue("pg_cluster")
    return cluster.migrated_database()


@pytest.fixture(params=["postgresql"] if CLUSTER_MODE else ["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database no migration ran on yet (for a test of the migrations themselves)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
    cluster: PostgresServer = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path, sqlite_migrated: Path) -> str:
    return _sqlite_database(tmp_path, sqlite_migrated)
