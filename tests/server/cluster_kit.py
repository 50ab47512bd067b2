# mypy: disable-error-code="index,no-any-return,assignment,comparison-overlap,unreachable"
# (merged last in the session: its Optional answers and cache keys are not yet typed precisely)
"""A real cluster on loopback for the server tests and `benchmarks/server_load.py --processes`:
throwaway PostgreSQL and Redis servers, table workers and gateways, each its own `parlour serve`
process, and a client that talks to the gateways like the test client talks to the app.

`Cluster` starts `--role worker` and `--role gateway` processes on one database and one bus and
waits until every worker is in `parlour_workers` and every gateway answers HTTP; it can SIGKILL,
SIGTERM and restart any of them. `RemoteClient` has the surface of FastAPI's `TestClient` that the
server tests use (`get`, `post`, `websocket_connect`), over real sockets, round-robin over the
gateways, so that the same tests run against one process or against a cluster.

The test suite's clusters fork their processes from multiprocessing's fork server, which has
imported the server's modules once (`Cluster(fork=True)`; `PARLOUR_CLUSTER_FORK=0` turns it
off): each process then runs `parlour serve`'s own `main` from its argument list on, as a
gunicorn `--preload` worker would, without the ~1.3 s of CPU an interpreter spends importing
FastAPI, SQLAlchemy and parlour. A cluster started so costs ~1.4 s of CPU instead of ~5.5, and
a rolling restart takes ~2 s instead of ~7.5 (docs/lab/test-suite.md). The benchmarks start
every process as its own interpreter, as a deployment does.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import json
import multiprocessing
import multiprocessing.context
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

RECEIVE_TIMEOUT = 60.0  # a websocket message the test waits for longer than this is a failure
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _child_env() -> dict[str, str]:
    """The environment of a server process: this interpreter's `parlour` (PYTHONPATH as is)."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2] / "src")
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if src not in parts:
        parts.insert(0, src)
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL it when the test process dies (a watchdog's exit or a
    kill leaves no cluster behind)."""
    import ctypes

    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


# The modules a `parlour serve --role …` process imports before it serves: the fork server
# imports them once, and each process it forks for a cluster starts with them loaded.
FORK_PRELOAD = [
    "cluster_kit", "parlour.server.cli", "parlour.server.app", "uvicorn.main", "uvloop",
    "psycopg", "redis.asyncio",
]  # fmt: skip
_fork_context: multiprocessing.context.ForkServerContext | None = None
# the test suite's clusters fork their processes (`Cluster(fork=True)`) unless told not to;
# PARLOUR_CLUSTER_FORK=0 starts each as its own interpreter, as `benchmarks/` always does
FORK = os.environ.get("PARLOUR_CLUSTER_FORK", "1") != "0"


def _forkserver() -> multiprocessing.context.ForkServerContext:
    """multiprocessing's fork server, with the server's modules imported once a session: a
    process started from it skips the ~1.3 s of CPU an interpreter spends importing FastAPI,
    SQLAlchemy, pydantic and parlour (measured in docs/lab/test-suite.md)."""
    global _fork_context
    if _fork_context is None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(FORK_PRELOAD)
        _fork_context = ctx
    return _fork_context


def _serve_forked(argv: list[str], env: dict[str, str], log: str) -> None:
    """In a process forked by the fork server: `parlour serve …` as its command line would run
    it, its output to `log`, and its exit status the command's."""
    _die_with_parent()  # the fork server's end: it ends with the test process
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    os.environ.clear()
    os.environ.update(env)
    sys.argv = ["parlour", *argv]
    from parlour.cli import main

    sys.exit(main(argv))


class _Forked:
    """A forked server process with the surface of `subprocess.Popen` the kit uses."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.process = _forkserver().Process(
            target=_serve_forked, args=(argv, env, str(log)), name=log.stem
        )
        self.process.start()
        assert self.process.pid is not None
        self.pid: int = self.process.pid

    def poll(self) -> int | None:
        return self.process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self.process.join(timeout)
        code = self.process.exitcode
        if code is None:
            raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0.0)
        return code

    def send_signal(self, sig: int) -> None:
        if self.process.exitcode is None:
            os.kill(self.pid, sig)


def _tail(path: Path, n: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""


class RedisServer:
    """A throwaway redis-server on 127.0.0.1 (no persistence)."""

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server")
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.dir / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent,
        )  # fmt: skip
        end = time.monotonic() + START_TIMEOUT
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start: " + _tail(self.dir / "redis.log"))

    def kill(self) -> None:
        """SIGKILL (a crash, the OOM killer): every connection drops; `start` brings it back on
        the same port, empty (no persistence: pub/sub keeps nothing anyway)."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def pause(self) -> None:
        """SIGSTOP: connections stay open and nothing answers (a hung server, a partition)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a paused server cannot act on SIGTERM
            self.proc.terminate()
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgresServer:
    """A throwaway PostgreSQL server on 127.0.0.1 (Debian's binaries under
    /usr/lib/postgresql/*/bin, or initdb on the PATH), trusting local connections, without
    fsync: for tests and benchmarks, never a store. As root it runs as `postgres` (or `nobody`):
    PostgreSQL refuses to run as root."""

    @staticmethod
    def bindir() -> Path | None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if found:
            return Path(found[-1]).parent
        initdb = shutil.which("initdb")
        return Path(initdb).parent if initdb else None

    @classmethod
    def available(cls) -> bool:
        return cls.bindir() is not None

    def __init__(self, max_connections: int = 200) -> None:
        bindir = self.bindir()
        if bindir is None:
            raise FileNotFoundError("initdb")
        self.bin = bindir
        self.max_connections = max_connections
        self._migrated: str | None = None  # the database `migrated_database` copies
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
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
            str(self.bin / "initdb"), "-D", str(data), "-U", "parlour", "--auth=trust",
            "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        opts = (
            f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F "
            f"-c max_connections={self.max_connections}"
        )
        self.run(
            str(self.bin / "pg_ctl"), "-D", str(data), "-o", opts,
            "-l", str(self.dir / "log"), "-w", "-t", "60", "start",
        )  # fmt: skip

    def log_text(self) -> str:
        return _tail(self.dir / "log")

    def halt(self) -> None:
        """Stop the server at once (an outage), keeping its data: `resume` starts it again."""
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop")

    def resume(self) -> None:
        opts = (
            f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F "
            f"-c max_connections={self.max_connections}"
        )
        self.run(
            str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-o", opts,
            "-l", str(self.dir / "log"), "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop(self) -> None:
        try:
            self.run(
                str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop"
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass  # never started, or gone: the directory goes all the same
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://parlour@127.0.0.1:{self.port}/{db}"

    def new_database(self, template: str | None = None) -> str:
        """A new database on this server, empty or a copy of `template`: its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        copy = f" TEMPLATE {template}" if template else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}{copy}")
        return self.url(name)

    def migrated_database(self) -> str:
        """A new database whose schema is at the newest migration: a copy of one database the
        migrations ran on once this session, not every migration again for each test."""
        if self._migrated is None:
            from parlour.server.storage import Store

            url = self.new_database()
            Store(url).close()  # migrated; its connections closed, as a template must be
            self._migrated = url.rsplit("/", 1)[1]
        return self.new_database(template=self._migrated)


def serve_args(settings: dict[str, Any]) -> list[str]:
    """`parlour serve` flags for server settings (booleans, numbers, text)."""
    args: list[str] = []
    for key, value in sorted(settings.items()):
        if key == "bot_delay":
            args += ["--bot-delay", str(value)]
        elif isinstance(value, bool):
            args += ["--setting", f"{key}={'true' if value else 'false'}"]
        else:
            args += ["--setting", f"{key}={value}"]
    return args


class Process:
    """One `parlour serve --role …` process of a cluster."""

    def __init__(self, cluster: Cluster, role: str, name: str) -> None:
        self.cluster, self.role, self.name = cluster, role, name
        # a gateway's HTTP; a worker's answers /livez, /readyz and /metrics only
        self.port = free_port()
        self.log = cluster.logs / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | _Forked | None = None
        self.lives = 0  # how many times it was started

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        c = self.cluster
        argv = ["serve", "--role", self.role, "--bus", c.bus, "--database", c.database,
                "--log-level", "warning", *serve_args(c.settings)]  # fmt: skip
        argv += ["--port", str(self.port)]
        with self.log.open("ab") as log:
            log.write(f"--- start {self.name} ({self.role}) ---\n".encode())
            log.flush()
            if c.fork:
                self.proc = _Forked(argv, _child_env(), self.log)
            else:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "parlour.cli", *argv],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=_child_env(),
                    preexec_fn=_die_with_parent,
                )
        self.lives += 1

    def ready(self) -> bool:
        if not self.running:
            raise RuntimeError(f"{self.name} exited: {_tail(self.log)}")
        if self.role == "gateway":
            try:
                return httpx.get(self.base + "/api/games", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False
        return self.worker_id() is not None

    def worker_id(self) -> str | None:
        """This worker's id in `parlour_workers` (`host-pid-random`), once it registered."""
        for wid in self.cluster.live_workers():
            if wid.split("-")[-2] == str(self.pid):
                return wid
        return None

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        end = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > end:
                raise RuntimeError(f"{self.name} did not start: {_tail(self.log)}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no drain, no goodbye (a crash, a pulled plug)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def terminate(self, timeout: float = 60.0) -> int:
        """SIGTERM and wait: a worker drains its tables to its peers first. A process that does
        not stop in `timeout` is a failure that says where it stood (its threads' stacks). A step
        of its stopping that it gave up (server/stacks.py, `bounded`) is a warning in the test's
        report with the process's own account of where it waited: the process stopped, its
        tables are adopted, and the step's hang is a defect to read about, not the test's."""
        said = self.log.stat().st_size if self.log.exists() else 0
        self.signal(signal.SIGTERM)
        try:
            code = self.wait(timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(
                f"{self.name} did not stop {timeout:g} s after SIGTERM; its threads:\n"
                f"{_stacks(self.pid)}\nits event loop's tasks:\n{self.task_stacks()}\n"
                f"its log:\n{_tail(self.log)}"
            ) from None
        with self.log.open("rb") as log:
            log.seek(said)
            for line in log.read().decode(errors="replace").splitlines():
                if "is given up" in line:
                    warnings.warn(f"{self.name} gave up a step of stopping: {line}", stacklevel=2)
        return code

    def task_stacks(self, timeout: float = 10.0) -> str:
        """Where each task of the process's event loop waits (SIGUSR2: server/stacks.py)."""
        self.signal(signal.SIGUSR2)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in reversed(_tail(self.log, 200_000).splitlines()):
                if "tasks of the event loop" in line:
                    with contextlib.suppress(ValueError):
                        return str(json.loads(line).get("event", line))
                    return line
            time.sleep(0.2)
        return f"(none written within {timeout:g} s)"

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def wait(self, timeout: float) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout)

    def restart(self) -> None:
        if self.running:
            self.terminate()
        self.start()
        self.wait_ready()


def _stacks(pid: int) -> str:
    """A live process's Python stacks, every thread's (py-spy, a dev dependency), as text."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    try:
        out = subprocess.run(
            [spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"(py-spy could not read them: {exc})"
    return out.stdout + out.stderr


class Cluster:
    """Workers and gateways on one PostgreSQL database and one Redis bus."""

    def __init__(
        self,
        database: str,
        bus: str,
        *,
        gateways: int = 2,
        workers: int = 2,
        settings: dict[str, Any] | None = None,
        logs: Path,
        fork: bool = False,
    ) -> None:
        self.database, self.bus = database, bus
        self.fork = fork  # processes forked from the fork server (`_forkserver`), not exec'd
        self.settings = dict(settings or {})
        self.logs = logs
        self.logs.mkdir(parents=True, exist_ok=True)
        self.workers = [Process(self, "worker", f"worker{i}") for i in range(workers)]
        self.gateways = [Process(self, "gateway", f"gateway{i}") for i in range(gateways)]
        self._engine: Any = None
        self._store: Any = None

    @property
    def processes(self) -> list[Process]:
        return [*self.workers, *self.gateways]

    def start(self) -> None:
        # all at once, as after a reboot: on a new database too (they migrate it one at a time)
        for p in self.processes:
            p.start()
        try:
            for p in self.processes:
                p.wait_ready()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        # the gateways first, then the workers, each kind told at once and then waited for: a
        # cluster put away needs no worker to hand its tables to a peer that stays
        for kind in (self.gateways, self.workers):
            told = [p for p in kind if p.running]
            for p in told:
                p.signal(signal.SIGTERM)
            for p in told:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the database, read as a bystander -------------------------------------------------------
    def sql(self, query: str, **params: Any) -> list[Any]:
        import sqlalchemy

        from parlour.server.storage import database_url

        if self._engine is None:
            self._engine = sqlalchemy.create_engine(database_url(self.database), pool_size=2)
        with self._engine.connect() as conn:
            return list(conn.execute(sqlalchemy.text(query), params).all())

    def store(self) -> Any:
        """The cluster's database as the server reads it (`parlour.server.storage.Store`)."""
        from parlour.server.storage import Store

        if self._store is None:
            self._store = Store(self.database)
        return self._store

    def live_workers(self, within: float = 3.0) -> list[str]:
        from sqlalchemy.exc import ProgrammingError

        try:
            rows = self._live(within)
        except ProgrammingError:  # not migrated yet: the processes are starting
            return []
        return [r[0] for r in rows]

    def _live(self, within: float) -> list[Any]:
        return self.sql(
            "SELECT id FROM parlour_workers WHERE heartbeat_at >= :since AND NOT draining",
            since=time.time() - within,
        )

    def owner_of(self, code: str) -> Process | None:
        """The worker process that owns a table now (by the pid in its id)."""
        rows = self.sql("SELECT owner FROM parlour_tables WHERE code = :code", code=code)
        owner = rows[0][0] if rows else None
        for p in self.workers:
            if owner is not None and p.running and owner.split("-")[-2] == str(p.pid):
                return p
        return None

    def rolling_restart(self) -> None:
        """Every process in turn: SIGTERM, start again, wait until it is back (workers first, so
        that each drains its tables to a live peer)."""
        for p in self.processes:
            p.restart()

    def logs_text(self) -> str:
        return "\n".join(f"=== {p.name}\n{_tail(p.log, 4000)}" for p in self.processes)

    def client(self) -> RemoteClient:
        return RemoteClient(
            [g.base for g in self.gateways], self.database, [w.base for w in self.workers]
        )


class RemoteClient:
    """What the server tests use of `TestClient`, over loopback, round-robin over gateways: every
    request and every websocket goes to the next gateway in turn (as a balancer without sticky
    sessions may send them)."""

    def __init__(self, bases: list[str], database: str, workers: list[str] | None = None) -> None:
        self.bases = bases
        self.database = database  # the cluster's, for a test that reads it as a bystander
        # the workers' HTTP (health and metrics), for a test that reads every process's
        self.worker_bases = list(workers or [])
        self.http = [httpx.Client(base_url=b, timeout=30) for b in bases]
        self._turn = itertools.count()

    def _next(self) -> int:
        return next(self._turn) % len(self.bases)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.http[self._next()].get(url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.http[self._next()].post(url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.http[self._next()].delete(url, **kwargs)

    def websocket_connect(self, path: str) -> RemoteWebSocket:
        base = self.bases[self._next()]
        return RemoteWebSocket("ws" + base.removeprefix("http") + path)

    def close(self) -> None:
        for h in self.http:
            h.close()


class RemoteWebSocket:
    """A websocket to a gateway with the test client's session surface: a close from the server
    is `WebSocketDisconnect` with its code, as in-process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ws: ClientConnection | None = None

    def __enter__(self) -> RemoteWebSocket:
        self.ws = connect(self.url, open_timeout=20, max_size=None).__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.ws is not None:
            self.ws.close()

    def _conn(self) -> ClientConnection:
        assert self.ws is not None, "use websocket_connect(...) as a context manager"
        return self.ws

    def send_text(self, text: str) -> None:
        self._send(text)

    def send_bytes(self, data: bytes) -> None:
        self._send(data)

    def send_json(self, data: Any) -> None:
        self._send(json.dumps(data))

    def _send(self, data: str | bytes) -> None:
        """A send on a socket the server has closed is `WebSocketDisconnect`, as a receive."""
        try:
            self._conn().send(data)
        except ConnectionClosed as exc:
            raise _disconnect(exc) from None

    def receive_text(self, timeout: float = RECEIVE_TIMEOUT) -> str:
        try:
            msg = self._conn().recv(timeout=timeout)
        except ConnectionClosed as exc:
            raise _disconnect(exc) from None
        except TimeoutError:
            raise AssertionError(f"no message from {self.url} within {timeout:g} s") from None
        return msg if isinstance(msg, str) else msg.decode()

    def receive_json(self) -> Any:
        return json.loads(self.receive_text())

    def close(self, code: int = 1000) -> None:
        self._conn().close(code)


def wait_for(check: Any, timeout: float, every: float = 0.02) -> Any:
    """Poll `check()` until it returns something true; that value, or None after `timeout`."""
    end = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > end:
            return None
        time.sleep(every)


class ClusterPool:
    """The clusters of a test session in cluster mode (`PARLOUR_SERVER_MODE=cluster`).

    Tests with the test kit's default settings share one cluster of 2 gateways and 2 workers
    (their databases are one: a test's own SQLite URL names nothing here). A test that asks for
    other settings gets a cluster of its own on a database of its own (one per test URL, so that
    a test that starts "a new server on the same database" finds its tables). A test that opens
    a client again on a URL it used before is the one-process suite's "restart": here every
    process of the cluster is restarted in turn (`Cluster.rolling_restart`).
    """

    def __init__(
        self, new_database: Callable[[], str], defaults: dict[str, Any], logs: Path
    ) -> None:
        self.new_database = new_database
        self.defaults = defaults
        # each cluster's logs in a folder of its own under `logs` (pytest's temporary folder:
        # kept for the last three sessions, like every tmp_path, never left in /tmp for good)
        self.logs = logs
        self.redis: RedisServer | None = None
        self.shared: Cluster | None = None
        self.shared_urls: set[str] = set()
        self.own: tuple[tuple[Any, ...], Cluster] | None = None
        self.databases: dict[str, str] = {}
        self.started = 0  # clusters started this session

    def _bus(self) -> str:
        if self.redis is None:
            self.redis = RedisServer()
            self.redis.start()
        return self.redis.url

    def _start(self, database: str, settings: dict[str, Any]) -> Cluster:
        logs = self.logs / f"cluster{self.started}"
        cluster = Cluster(database, self._bus(), settings=settings, logs=logs, fork=FORK)
        cluster.start()
        self.started += 1
        return cluster

    def cluster_for(self, url: str, settings: dict[str, Any]) -> Cluster:
        extra = {k: v for k, v in settings.items() if self.defaults.get(k, object()) != v}
        for key, value in extra.items():
            if not isinstance(value, str | int | float | bool):
                raise ValueError(f"setting {key}={value!r} cannot be passed to `parlour serve`")
        if not extra:
            if self.shared is None:
                self.shared = self._start(self.new_database(), settings)
            elif url in self.shared_urls:
                self.shared.rolling_restart()
            self.shared_urls.add(url)
            return self.shared
        database = self.databases.setdefault(url, "") or self.new_database()
        self.databases[url] = database
        key = (database, tuple(sorted((k, repr(v)) for k, v in extra.items())))
        if self.own is not None and self.own[0] == key:
            self.own[1].rolling_restart()
            return self.own[1]
        if self.own is not None:
            self.own[1].stop()
            self.own = None
        cluster = self._start(database, settings)
        self.own = (key, cluster)
        return cluster

    @contextmanager
    def client(self, url: str, settings: dict[str, Any]) -> Iterator[RemoteClient]:
        c = self.cluster_for(url, settings).client()
        try:
            yield c
        finally:
            c.close()

    def close(self) -> None:
        for cluster in (self.shared, self.own[1] if self.own else None):
            if cluster is not None:
                cluster.stop()
        if self.redis is not None:
            self.redis.stop()


def _disconnect(exc: ConnectionClosed) -> WebSocketDisconnect:
    """The server's close of a socket (its code and reason; 1006 when none came)."""
    code = exc.rcvd.code if exc.rcvd is not None else 1006
    reason = exc.rcvd.reason if exc.rcvd is not None else ""
    return WebSocketDisconnect(code, reason)
