"""`server_load.py --processes 1,2`: clusters of table workers and gateways under person-paced load.

For each worker count N it starts N `parlour serve --role worker` and N (or `--gateways`)
`--role gateway` processes on one PostgreSQL database and one Redis bus, then adds person-paced
tables in steps; every seat is a websocket client (spread over the gateways) that thinks and plays a
random legal move. At each step it measures moves/s and the latency of a person's move (sent → that
seat's next view); it stops after two steps in a row at 100 ms or more at p99, or when more tables
bring no more moves. The figure for N is the most moves/s (median of one-second samples) of a step
that stayed under 100 ms at p99; the most at any latency (saturation) is printed beside it.

PostgreSQL and Redis are throwaway servers on loopback in a temporary directory unless `--database`
and `--bus` name running ones (PostgreSQL: Debian's binaries under /usr/lib/postgresql/*/bin).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from server_load import Stats, cpu_seconds, free_port, human_seat, spread

PEOPLE_P99 = 100.0  # ms: the latency a step must stay under to count


class Postgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1 (fsync off: a benchmark, not a store)."""

    def __init__(self, root: Path) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        initdb = found[-1] if found else shutil.which("initdb")
        if initdb is None:
            raise SystemExit("server_load --processes: no PostgreSQL initdb (apt postgresql)")
        self.bindir = Path(initdb).parent
        self.dir = root / "pg"
        self.dir.mkdir()
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            user = "postgres"
            try:
                pw = pwd.getpwnam(user)
            except KeyError:
                user, pw = "nobody", pwd.getpwnam("nobody")
            os.chown(root, pw.pw_uid, pw.pw_gid)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.prefix = ["runuser", "-u", user, "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, cwd=self.dir)

    def start(self) -> None:
        data = str(self.dir / "data")
        self._run(str(self.bindir / "initdb"), "-D", data, "-U", "parlour", "--auth=trust",
                  "-E", "UTF8", "--no-sync")  # fmt: skip
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F -c max_connections=300"
        self._run(str(self.bindir / "pg_ctl"), "-D", data, "-o", opts,
                  "-l", str(self.dir / "log"), "-w", "-t", "60", "start")  # fmt: skip

    def new_database(self) -> str:
        import psycopg

        name = "bench_" + uuid.uuid4().hex[:10]
        url = f"postgresql://parlour@127.0.0.1:{self.port}"
        with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"{url}/{name}"

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "stop")


class Redis:
    def __init__(self, root: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("server_load --processes: redis-server not found (apt redis-server)")
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(root)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(0.3)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


class Cluster:
    """N workers and G gateways, each a `parlour serve` process."""

    def __init__(
        self, database: str, bus: str, workers: int, gateways: int, settings: list[str]
    ) -> None:
        self.database = database
        self.ports = [free_port() for _ in range(gateways)]
        common = ["--bus", bus, "--database", database, "--log-level", "warning"]
        for s in settings:
            common += ["--setting", s]
        serve = [sys.executable, "-m", "parlour.cli", "serve"]
        self.argv = [[*serve, "--role", "worker", *common] for _ in range(workers)] + [
            [*serve, "--role", "gateway", "--port", str(port), *common] for port in self.ports
        ]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.workers = workers

    @property
    def bases(self) -> list[str]:
        return [f"127.0.0.1:{port}" for port in self.ports]

    def start(self) -> None:
        from parlour.server.store import Store

        store = Store(self.database)  # migrated once, before the processes race to
        store.secret("seeds")
        self.procs = [subprocess.Popen(argv) for argv in self.argv]
        end = time.monotonic() + 120
        while True:
            live = store.live_workers(time.time() - 3)
            up = 0
            for base in self.bases:
                with contextlib.suppress(httpx.HTTPError):
                    up += httpx.get(f"http://{base}/api/games", timeout=2).status_code == 200
            if len(live) >= self.workers and up == len(self.bases):
                break
            if time.monotonic() > end or any(p.poll() is not None for p in self.procs):
                self.stop()
                raise SystemExit("server_load --processes: the cluster did not start")
            time.sleep(0.2)
        store.close()

    def cpu(self) -> tuple[float, float]:
        """CPU seconds used so far by the workers and by the gateways."""
        w = sum(cpu_seconds(p.pid) for p in self.procs[: self.workers])
        g = sum(cpu_seconds(p.pid) for p in self.procs[self.workers :])
        return w, g

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()


@dataclass
class Step:
    tables: int
    samples: list[int] = field(default_factory=list)  # person moves in each second
    latencies: list[float] = field(default_factory=list)  # ms
    errors: int = 0
    worker_cpu: float = 0.0  # share of one core, all workers together
    gateway_cpu: float = 0.0
    own_cpu: float = 0.0

    def p(self, q: int) -> float:
        lat = sorted(self.latencies)
        if len(lat) < 2:
            return float("inf")
        return statistics.quantiles(lat, n=100, method="inclusive")[q - 1]

    @property
    def rate(self) -> float:
        return statistics.median(self.samples) if self.samples else 0.0

    @property
    def holds(self) -> bool:
        return self.errors == 0 and self.p(99) < PEOPLE_P99


async def ramp(args: argparse.Namespace, cluster: Cluster, steps: list[int]) -> list[Step]:
    """Add person-paced tables step by step, measuring each step, until p99 reaches 100 ms."""
    stats = Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    bases = cluster.bases
    body = {"game": args.game, "players": args.seats, "preset": args.preset,
            "match": "rounds-100", "auto_next": True, "idle_timeout": 0}  # fmt: skip
    out: list[Step] = []
    turn = 0
    clients = [httpx.AsyncClient(base_url=f"http://{b}", timeout=60) for b in bases]
    try:
        for target in steps:
            opened = len(tasks) // args.seats
            for _ in range(target - opened):
                api = clients[turn % len(clients)]
                r = await api.post("/api/tables", json={**body, "name": "seat 0"})
                r.raise_for_status()
                t = r.json()
                tokens = [t["token"]]
                for s in range(1, args.seats):
                    j = await api.post(f"/api/tables/{t['code']}/join", json={"name": f"s{s}"})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                for tok in tokens:  # each seat through the next gateway
                    base = bases[turn % len(bases)]
                    turn += 1
                    tasks.append(
                        asyncio.create_task(
                            human_seat(base, t["code"], tok, args.think, stats, stop)
                        )
                    )
            await asyncio.sleep(args.warmup)
            step = Step(target)
            stats.latencies, stats.samples, stats.human_moves, stats.errors = [], [], 0, 0
            stats.measuring = True
            (w0, g0), own0, t0 = cluster.cpu(), time.process_time(), time.perf_counter()
            last = 0
            for _ in range(int(args.duration)):
                await asyncio.sleep(1.0)
                step.samples.append(stats.human_moves - last)
                last = stats.human_moves
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            w1, g1 = cluster.cpu()
            step.worker_cpu, step.gateway_cpu = (w1 - w0) / elapsed, (g1 - g0) / elapsed
            step.own_cpu = (time.process_time() - own0) / elapsed
            step.latencies = [x * 1000 for x in stats.latencies]
            step.errors = stats.errors
            out.append(step)
            load = os.getloadavg()[0]
            # CPU a move does not depend on what else the machine runs, as latency does
            moved = max(1.0, sum(step.samples) / len(step.samples))
            print(
                f"  {target:5d} tables  moves/s {spread([float(x) for x in step.samples])}  "
                f"p50 {step.p(50):6.1f}  p99 {step.p(99):6.1f}  max "
                f"{max(step.latencies, default=0):7.1f} ms  CPU workers "
                f"{step.worker_cpu * 100:4.0f}% gateways {step.gateway_cpu * 100:4.0f}% "
                f"generator {step.own_cpu * 100:4.0f}%  CPU a move: workers "
                f"{step.worker_cpu / moved * 1000:.1f} ms gateways "
                f"{step.gateway_cpu / moved * 1000:.1f} ms  errors {step.errors}  "
                f"(load avg {load:.1f})",
                flush=True,
            )
            # two steps over the bound in a row (one may be a neighbour's burst on a shared
            # machine), or no more moves for more tables: past what this cluster holds
            over = len(out) >= 2 and not out[-1].holds and not out[-2].holds
            if over or (len(out) >= 2 and step.rate < out[-2].rate * 1.1):
                break
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for c in clients:
            await c.aclose()
    return out


def cluster_main(args: argparse.Namespace, settings: list[str]) -> int:
    counts = [max(1, min(int(n), 16)) for n in args.processes.split(",")]
    steps = [max(1, min(int(n), 2000)) for n in args.steps.split(",")]
    args.duration = max(1.0, min(args.duration, 600.0))
    best: dict[int, Step | None] = {}
    most: dict[int, Step] = {}  # the most moves/s at any latency: where it saturates
    with tempfile.TemporaryDirectory(prefix="parlour-load-") as tmp:
        pg = Postgres(Path(tmp)) if args.database is None else None
        redis = Redis(Path(tmp)) if args.bus is None else None
        try:
            if pg is not None:
                pg.start()
            bus = args.bus or (redis.url if redis else "")
            print(
                f"parlour cluster load: {args.game}, {args.seats} seats a table, person-paced "
                f"(think {args.think:g} s mean), {os.cpu_count()} CPUs; step: {args.warmup:g} s "
                f"warm-up, {args.duration:g} s measured"
            )
            print("                 person moves/s (1-s samples)")
            print("                      min   median      max")
            for n in counts:
                gateways = args.gateways or n
                database = pg.new_database() if pg is not None else args.database
                print(f"{n} worker(s), {gateways} gateway(s):", flush=True)
                cluster = Cluster(database, bus, n, gateways, settings)
                cluster.start()
                try:
                    done = asyncio.run(ramp(args, cluster, steps))
                finally:
                    cluster.stop()
                held = [s for s in done if s.holds]
                best[n] = max(held, key=lambda s: s.rate) if held else None
                most[n] = max(done, key=lambda s: s.rate)
        finally:
            if redis is not None:
                redis.stop()
            if pg is not None:
                pg.stop()
    print(f"most person moves/s at p99 < {PEOPLE_P99:g} ms:")
    for n, step in best.items():
        if step is None:
            print(f"  {n} worker(s): none (the first step was over)")
        else:
            samples = spread([float(x) for x in step.samples])
            print(
                f"  {n} worker(s): {step.rate:.0f}/s median ({samples} min/median/max) at "
                f"{step.tables} tables, p99 {step.p(99):.1f} ms"
            )
    rates = {n: s.rate for n, s in best.items() if s is not None}
    if len(rates) >= 2:
        lo, hi = min(rates), max(rates)
        print(
            f"ratio {hi} : {lo} workers at p99 < {PEOPLE_P99:g} ms = {rates[hi] / rates[lo]:.2f}x"
        )
    print("most person moves/s at any latency (saturation):")
    for n, step in most.items():
        print(
            f"  {n} worker(s): {step.rate:.0f}/s median at {step.tables} tables, p99 "
            f"{step.p(99):.1f} ms"
        )
    if len(most) >= 2:
        lo, hi = min(most), max(most)
        print(f"ratio {hi} : {lo} workers at saturation = {most[hi].rate / most[lo].rate:.2f}x")
    return 0
