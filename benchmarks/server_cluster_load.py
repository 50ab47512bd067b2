"""`server_load.py --processes 1,2`: how many moves a second clusters of 1 and 2 table workers take
with a person's move answered within 100 ms at p99, measured in rounds.

The workload is people playing: tables of Whot! for 4, every seat a person — a websocket client,
spread over the gateways, that waits a person's thinking time (uniform 0..2×`--think` seconds,
mean 2 s) and plays a random legal move; after each move every seat is sent its view, as a
browser is. A person's latency is from sending a move to that seat's next view.

Each round measures every worker count N in turn (1, 2, 1, 2, …: a neighbour's burst on a shared
machine falls on both alike). For N, a fresh cluster of N `parlour serve --role worker` and N (or
`--gateways`) `--role gateway` processes on one PostgreSQL database and one Redis bus — the test
kit's throwaway servers (tests/server/cluster_kit.py) unless `--database`/`--bus` name running
ones — gets person-paced tables in steps (`--steps`; each step warmed up `--warmup` s, then
measured `--duration` s) until two steps in a row miss p99 < 100 ms or more tables bring no more
moves. The round's figure for N is the most moves/s (the median of the step's one-second samples)
of a step that held p99 < 100 ms. Printed at the end: per N, the figure's min / median / max over
the rounds, the ratio of the medians, and the CPU a move cost in each role (workers, gateways,
PostgreSQL, Redis, the load generator) at the held steps — and the same after each round before
the last, so that a run cut short (a shared machine's time is short) still says what it saw.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from server_load import Stats, cpu_seconds, human_seat, spread

# the test kit's throwaway PostgreSQL and Redis, and its cluster of `parlour serve` processes
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from cluster_kit import Cluster, PostgresServer, RedisServer

PEOPLE_P99 = 100.0  # ms: the latency a step must stay under to count
ROLES = ("workers", "gateways", "postgres", "redis", "generator")


def process_tree_cpu(root: int) -> float:
    """CPU seconds of a process and its children (PostgreSQL: the postmaster and its backends)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == root or int(stat[1]) == root:
            total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return total


@dataclass
class Meters:
    """Where the CPU of the machine's parts is read: pids by role."""

    workers: list[int]
    gateways: list[int]
    postgres: int | None  # the postmaster (its backends are its children)
    redis: int | None

    def read(self) -> dict[str, float]:
        return {
            "workers": sum(cpu_seconds(p) for p in self.workers),
            "gateways": sum(cpu_seconds(p) for p in self.gateways),
            "postgres": process_tree_cpu(self.postgres) if self.postgres else 0.0,
            "redis": cpu_seconds(self.redis) if self.redis else 0.0,
            "generator": time.process_time(),
        }


@dataclass
class Step:
    tables: int
    samples: list[int] = field(default_factory=list)  # person moves in each second
    latencies: list[float] = field(default_factory=list)  # ms
    errors: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # share of one core, by role

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

    def per_move(self, role: str) -> float:
        """CPU milliseconds a move cost in `role`."""
        moves = sum(self.samples) / max(1, len(self.samples))
        return self.cpu.get(role, 0.0) / max(moves, 1e-9) * 1000


async def ramp(args: argparse.Namespace, cluster: Cluster, meters: Meters) -> list[Step]:
    """Add person-paced tables step by step, measuring each step, until p99 reaches 100 ms."""
    stats = Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    bases = [g.base.removeprefix("http://") for g in cluster.gateways]
    body = {"game": args.game, "players": args.seats, "preset": args.preset,
            "match": "rounds-100", "auto_next": True, "idle_timeout": 0}  # fmt: skip
    out: list[Step] = []
    turn = 0
    clients = [httpx.AsyncClient(base_url=f"http://{b}", timeout=60) for b in bases]
    try:
        for target in args.step_tables:
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
            before, t0 = meters.read(), time.perf_counter()
            last = 0
            for _ in range(int(args.duration)):
                await asyncio.sleep(1.0)
                step.samples.append(stats.human_moves - last)
                last = stats.human_moves
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            after = meters.read()
            step.cpu = {role: (after[role] - before[role]) / elapsed for role in ROLES}
            step.latencies = [x * 1000 for x in stats.latencies]
            step.errors = stats.errors
            out.append(step)
            print(
                f"    {target:5d} tables  moves/s {spread([float(x) for x in step.samples])}  "
                f"p50 {step.p(50):6.1f}  p99 {step.p(99):6.1f} ms  CPU a move (ms): "
                + " ".join(f"{role} {step.per_move(role):.2f}" for role in ROLES)
                + f"  errors {step.errors}  (load avg {os.getloadavg()[0]:.1f})",
                flush=True,
            )
            # two steps over the bound in a row (one may be a neighbour's burst on a shared
            # machine), or no more moves for more tables: past what this cluster holds
            over = len(out) >= 2 and not out[-1].holds and not out[-2].holds
            if over or (len(out) >= 2 and step.rate < out[-2].rate * 1.05):
                break
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for c in clients:
            await c.aclose()
    return out


def postmaster(pg: PostgresServer | None) -> int | None:
    if pg is None:
        return None
    try:
        return int((pg.dir / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def measure(
    args: argparse.Namespace,
    settings: dict[str, Any],
    workers: int,
    pg: PostgresServer | None,
    redis: RedisServer | None,
    bus: str,
) -> Step | None:
    """One cluster of `workers` workers ramped up: its best step under the bound (None: none)."""
    gateways = args.gateways or workers
    database = pg.new_database() if pg is not None else args.database
    cluster = Cluster(database, bus, gateways=gateways, workers=workers, settings=settings)
    print(f"  {workers} worker(s), {gateways} gateway(s):", flush=True)
    cluster.start()
    try:
        meters = Meters(
            workers=[p.pid for p in cluster.workers],
            gateways=[p.pid for p in cluster.gateways],
            postgres=postmaster(pg),
            redis=redis.proc.pid if redis is not None and redis.proc is not None else None,
        )
        steps = asyncio.run(ramp(args, cluster, meters))
    finally:
        cluster.stop()
    held = [s for s in steps if s.holds]
    return max(held, key=lambda s: s.rate) if held else None


def cluster_main(args: argparse.Namespace, settings: list[str]) -> int:
    counts = [max(1, min(int(n), 16)) for n in args.processes.split(",")]
    args.step_tables = [max(1, min(int(n), 2000)) for n in args.steps.split(",")]
    args.duration = max(1.0, min(args.duration, 600.0))
    rounds = max(1, min(args.rounds, 20))
    server_settings: dict[str, Any] = dict(s.split("=", 1) for s in settings)
    best: dict[int, list[Step | None]] = {n: [] for n in counts}
    pg = PostgresServer(max_connections=300) if args.database is None else None
    redis = RedisServer() if args.bus is None else None
    try:
        if pg is not None:
            pg.start()
        if redis is not None:
            redis.start()
        bus = args.bus or (redis.url if redis else "")
        print(
            f"parlour cluster load: {args.game}, {args.seats} people a table thinking "
            f"{args.think:g} s on average, {os.cpu_count()} CPUs; {rounds} round(s); a step: "
            f"{args.warmup:g} s warm-up, {args.duration:g} s measured"
        )
        print("                       person moves/s (1-s samples)")
        print("                            min   median      max")
        for r in range(rounds):
            print(f"round {r + 1}:", flush=True)
            for n in counts:
                best[n].append(measure(args, server_settings, n, pg, redis, bus))
            if r + 1 < rounds:  # the figures so far: a run cut short still says what it saw
                report(best, r + 1, args.gateways)
    finally:
        if redis is not None:
            redis.stop()
        if pg is not None:
            pg.stop()
    report(best, rounds, args.gateways)
    return 0


def ceilings(cost: dict[str, float], workers: int, gateways: int, cores: int) -> dict[str, float]:
    """Moves/s that the CPU a move (`cost`, ms by role) allows at most: `cores` shared by every
    process ("shared"), and with a core for each process ("a core each"), where the bound is the
    busiest single-threaded process. A worker's CPU a move is spent in the one worker owning the
    table, so N workers take N times one's moves; a gateway's is summed over the gateways holding
    a replica of the table, so G gateways take G times one's share; Redis and the load generator
    are one thread each; PostgreSQL runs a backend per connection, so it is bounded only by the
    cores."""
    per_process = {
        "workers": workers * 1000 / cost["workers"] if cost["workers"] else float("inf"),
        "gateways": gateways * 1000 / cost["gateways"] if cost["gateways"] else float("inf"),
        "redis": 1000 / cost["redis"] if cost["redis"] else float("inf"),
        "generator": 1000 / cost["generator"] if cost["generator"] else float("inf"),
    }
    total = sum(cost.values())
    return {
        "shared": min(cores * 1000 / total if total else float("inf"), *per_process.values()),
        "a core each": min(per_process.values()),
    }


def report(best: dict[int, list[Step | None]], rounds: int, gateways: int | None = None) -> None:
    print(f"most person moves/s at p99 < {PEOPLE_P99:g} ms, over {rounds} round(s):")
    print("                  min   median      max   (tables, p99 of the median round)")
    medians: dict[int, float] = {}
    for n, steps in best.items():
        rates = [s.rate if s is not None else 0.0 for s in steps]
        medians[n] = statistics.median(rates)
        middle = sorted((s for s in steps if s is not None), key=lambda s: s.rate)
        mid = middle[len(middle) // 2] if middle else None
        where = f"({mid.tables} tables, p99 {mid.p(99):.0f} ms)" if mid else "(no step held)"
        print(f"  {n} worker(s) {spread(rates)}   {where}")
    if len(medians) >= 2:
        lo, hi = min(medians), max(medians)
        if medians[lo] > 0:
            print(
                f"ratio {hi} : {lo} workers (medians) = {medians[hi] / medians[lo]:.2f}x",
                flush=True,
            )
    print("CPU a move at the held steps, ms (median over rounds):")
    bounds: dict[int, dict[str, float]] = {}
    cores = os.cpu_count() or 1
    for n, steps in best.items():
        held = [s for s in steps if s is not None]
        if held:
            cost = {role: statistics.median(s.per_move(role) for s in held) for role in ROLES}
            print(f"  {n} worker(s): " + "  ".join(f"{r} {v:.2f}" for r, v in cost.items()))
            bounds[n] = ceilings(cost, n, gateways or n, cores)
    if not bounds:
        return
    # Why the ratio is what it is: the most moves/s that CPU a move allows, on this machine's
    # cores shared by every process, and with a core for each process (a bigger machine).
    print(f"ceilings from the CPU a move, moves/s (no latency bound; {cores} cores):")
    for n, b in bounds.items():
        print(
            f"  {n} worker(s): {cores} cores shared {b['shared']:7.0f}   "
            f"a core each {b['a core each']:7.0f}"
        )
    if len(bounds) >= 2:
        lo, hi = min(bounds), max(bounds)
        for where in ("shared", "a core each"):
            print(
                f"  ceiling ratio {hi} : {lo} workers, {where}: "
                f"{bounds[hi][where] / bounds[lo][where]:.2f}x"
            )
