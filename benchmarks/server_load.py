"""Load on the game server: many tables at once, played over websockets on loopback.

Starts `parlour serve` (embedded SQLite in a temporary directory unless --database is given) as
its own process and drives it from this one (the load generator), in two profiles at once:

* human-paced tables: every seat a websocket client that waits a person's thinking time
  (uniform 0..2×--think seconds) and then plays a random legal move;
* tables of bots: every seat a server-side bot at the server's default bot delay, with one
  spectator connected, as a lobby of bot games would be.

Every seat's websocket is welcomed (has its first view) before the warm-up begins: opening
4,000 of them takes the server longer than a warm-up, and seconds spent on them would be
counted as seconds without moves. It prints the tables held, the time and CPU the welcomes took,
moves per second (both kinds; min / median / max over one-second
samples), the latency of a person's move (sent → that seat's next view) at p50 / p99 / max, the
server's CPU use and its memory per table.

    .venv/bin/python benchmarks/server_load.py --human-tables 1000 --bot-tables 0 --duration 60
    .venv/bin/python benchmarks/server_load.py --human-tables 200 --bot-tables 200

With `--processes 1,2` it measures clusters instead (benchmarks/server_cluster_load.py,
docs/deploy.md): in each of `--rounds` rounds, for each count N, N table workers and N gateways
(`parlour serve --role worker|gateway`, or `--gateways G` of them) on the test kit's throwaway
PostgreSQL and Redis (or `--database`/`--bus`), with person-paced tables added in steps until a
person's move takes 100 ms or more at p99; then the most moves/s each N held at p99 < 100 ms,
min / median / max over the rounds, the ratio of the medians, and the CPU a move cost in each role.

    .venv/bin/python benchmarks/server_load.py --processes 1,2 --rounds 3

Loopback only; every number is bounded (tables ≤ 2000 of each kind, duration ≤ 600 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlour.server.collector import FreezingCollector


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.human_moves = 0
        self.bot_plies = 0
        self.errors = 0
        self.connected = 0
        self.welcomed = 0  # connections that have had their first view
        self.measuring = False
        self.samples: list[tuple[int, int]] = []  # (human moves, bot plies) each second


def merge(view: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any]:
    """The seat's whole view from a view message (full, or the keys that changed)."""
    if view is None or not msg.get("patch"):
        return dict(msg["view"])
    out = {**view, **msg["view"]}
    for key in msg.get("removed", ()):
        out.pop(key, None)
    return out


async def human_seat(
    base: str, code: str, token: str, think: float, stats: Stats, stop: asyncio.Event
) -> None:
    """One person at a table: waits, then plays a random legal move; times each move."""
    rng = random.Random(hash((code, token)))
    async with connect(f"ws://{base}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        stats.connected += 1
        view: dict[str, Any] | None = None
        sent_at: float | None = None
        sent_ply = -1
        pending: asyncio.Task[None] | None = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors += 1
                sent_at = None
                continue
            if msg["type"] != "view":
                continue
            if view is None:
                stats.welcomed += 1
            view = merge(view, msg)
            if sent_at is not None and msg["ply"] > sent_ply:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.human_moves += 1
                sent_at = None
            if msg["moves"] and sent_at is None and (pending is None or pending.done()):
                legal, ply = [m["text"] for m in msg["moves"]], msg["ply"]

                async def play(legal: list[str] = legal, ply: int = ply) -> None:
                    nonlocal sent_at, sent_ply
                    await asyncio.sleep(think * rng.random() * 2)
                    if stop.is_set():
                        return
                    sent_ply, sent_at = ply, time.perf_counter()
                    move = {"type": "move", "move": rng.choice(legal), "ply": ply}
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(json.dumps(move))

                pending = asyncio.create_task(play())


async def spectator(base: str, code: str, stats: Stats, stop: asyncio.Event) -> None:
    """Watches a table of bots, counting its plies."""
    async with connect(f"ws://{base}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        stats.connected += 1
        last: tuple[int, int] | None = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] == "view":
                if last is None:
                    stats.welcomed += 1
                now = (msg["game_number"], msg["ply"])
                if last is not None and now != last and stats.measuring:
                    stats.bot_plies += 1
                last = now


async def open_tables(
    api: httpx.AsyncClient, args: argparse.Namespace
) -> tuple[list[Any], list[str]]:
    humans: list[tuple[str, list[str]]] = []
    bots: list[str] = []
    body = {"game": args.game, "players": args.seats, "preset": args.preset,
            "match": "rounds-100", "auto_next": True}  # fmt: skip
    for _ in range(args.human_tables):
        r = await api.post("/api/tables", json={**body, "name": "seat 0", "idle_timeout": 0})
        r.raise_for_status()
        t = r.json()
        tokens = [t["token"]]
        for s in range(1, args.seats):
            j = await api.post(f"/api/tables/{t['code']}/join", json={"name": f"seat {s}"})
            j.raise_for_status()
            tokens.append(j.json()["token"])
        humans.append((t["code"], tokens))
    for _ in range(args.bot_tables):
        r = await api.post(
            "/api/tables", json={**body, "bots": {str(s): "random" for s in range(args.seats)}}
        )
        r.raise_for_status()
        bots.append(r.json()["code"])
    return humans, bots


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_times(pid: int) -> tuple[float, float]:
    """A process's CPU seconds so far: (in its own code, in the kernel for it)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    return sum(cpu_times(pid))


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    rss0 = rss_kib(pid)
    # the generator holds thousands of websockets too: without this its own full collections
    # (0.4 s at 1,000 tables) would be counted as the server's latency
    collecting = asyncio.create_task(FreezingCollector().run())
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as api:
        t0 = time.perf_counter()
        humans, bots = await open_tables(api, args)
        opened = time.perf_counter() - t0
    tasks = [
        asyncio.create_task(human_seat(base, code, tok, args.think, stats, stop))
        for code, tokens in humans
        for tok in tokens
    ] + [asyncio.create_task(spectator(base, code, stats, stop)) for code in bots]
    # every websocket welcomed (its first view) before the warm-up starts: 4,000 of them take
    # longer to open than a warm-up, and a measured second spent on them would carry no moves
    t0, cpu0 = time.perf_counter(), cpu_seconds(pid)
    while stats.welcomed < len(tasks) and time.perf_counter() - t0 < 300:
        await asyncio.sleep(0.1)
    welcomed, welcome_cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    await asyncio.sleep(args.warmup)
    rss1 = rss_kib(pid)
    spy = None
    if args.py_spy:  # the server's stacks over the measured seconds, as a flame graph
        exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        fmt = "raw" if args.py_spy.endswith(".txt") else "flamegraph"
        spy = subprocess.Popen(
            [exe, "record", "--pid", str(pid), "--duration", str(int(args.duration)),
             "--rate", "200", "--nonblocking", "--format", fmt, "--output", args.py_spy],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
    stats.measuring = True
    (user0, sys0), start, own0 = cpu_times(pid), time.perf_counter(), time.process_time()
    last = (0, 0)
    for _ in range(int(args.duration)):
        await asyncio.sleep(1.0)
        now = (stats.human_moves, stats.bot_plies)
        stats.samples.append((now[0] - last[0], now[1] - last[1]))
        last = now
    stats.measuring = False
    elapsed = time.perf_counter() - start
    user1, sys1 = cpu_times(pid)
    cpu, kernel = user1 - user0 + sys1 - sys0, sys1 - sys0
    own = time.process_time() - own0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    collecting.cancel()
    if spy is not None:
        spy.wait(60)
    tables = len(humans) + len(bots)
    return {
        "stats": stats,
        "elapsed": elapsed,
        "opened": opened,
        "welcomed": welcomed,
        "welcome_cpu": welcome_cpu / max(1, len(tasks)),
        "tables": tables,
        "humans": len(humans),
        "bots": len(bots),
        "cpu": cpu / elapsed,
        "kernel": kernel / max(cpu, 1e-9),
        "own_cpu": own / elapsed,
        "rss_per_table": (rss1 - rss0) / max(1, tables),
        "rss": rss1,
    }


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{min(values):8.1f} {statistics.median(values):8.1f} {max(values):8.1f}"


MANY = "1000000"
# the load generator is one client: no per-client limit may stand in its way
SETTINGS = [
    f"tables_per_minute={MANY}", f"tables_per_client={MANY}", f"max_tables={MANY}",
    f"max_bot_tables={MANY}", f"bot_tables_per_client={MANY}", f"seats_per_client={MANY}",
    f"joins_per_minute={MANY}", f"websockets_per_client={MANY}",
    f"connections_per_client={MANY}",
]  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--human-tables", type=int, default=200)
    p.add_argument("--bot-tables", type=int, default=0)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--game", default="whot")
    p.add_argument("--preset", default=None)
    p.add_argument("--think", type=float, default=2.0, help="mean thinking time of a person, s")
    p.add_argument("--duration", type=float, default=30.0, help="seconds measured (a step's)")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--database", default=None, help="default: SQLite in a temporary directory")
    p.add_argument(
        "--processes", default=None, help="comma-separated worker counts: measure clusters"
    )
    p.add_argument("--gateways", type=int, default=None, help="gateways a cluster (default: N)")
    p.add_argument("--bus", default=None, help="redis://…; default: a throwaway redis-server")
    p.add_argument(
        "--steps",
        default="16,24,32,48,64,96,128,192,256,384,512,768",
        help="--processes: person-paced tables at each step",
    )
    p.add_argument("--rounds", type=int, default=3, help="--processes: rounds of measurements")
    p.add_argument(
        "--py-spy",
        metavar="FILE",
        help="record the server's stacks over the measured seconds into FILE (.svg: a flame "
        "graph; .txt: folded stacks) with py-spy, which is installed separately "
        "(pip install py-spy)",
    )
    p.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a server setting (as `parlour serve --setting`), e.g. freeze_gc=false",
    )
    args = p.parse_args()
    if args.processes:
        from server_cluster_load import cluster_main

        return cluster_main(args, SETTINGS)
    args.human_tables = max(0, min(args.human_tables, 2000))
    args.bot_tables = max(0, min(args.bot_tables, 2000))
    args.duration = max(1.0, min(args.duration, 600.0))
    port = free_port()
    settings = SETTINGS + args.setting
    with tempfile.TemporaryDirectory(prefix="parlour-load-") as tmp:
        db = args.database or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        cmd = [sys.executable, "-m", "parlour.cli", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--database", db, "--log-level", "warning"]  # fmt: skip
        for s in settings:
            cmd += ["--setting", s]
        server = subprocess.Popen(cmd)
        try:
            end = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > end:
                        raise
                    time.sleep(0.2)
            out = asyncio.run(run(args, f"127.0.0.1:{port}", server.pid))
        finally:
            server.terminate()
            server.wait(30)
    stats: Stats = out["stats"]
    lat = sorted(x * 1000 for x in stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [float("nan")] * 99
    elapsed = out["elapsed"]
    print(f"parlour server load: {args.game}, {args.seats} seats a table, {os.cpu_count()} CPUs")
    print(
        f"tables held      {out['tables']} ({out['humans']} human-paced, think "
        f"{args.think:g} s; {out['bots']} of bots at the default bot delay), "
        f"{stats.connected} websockets; opened in {out['opened']:.1f} s, all welcomed in "
        f"{out['welcomed']:.1f} s ({1000 * out['welcome_cpu']:.1f} ms of the server's CPU a "
        "welcome); then warmed up and measured"
    )
    print("                     min   median      max   (per one-second sample)")
    print(f"human moves/s  {spread([float(h) for h, _ in stats.samples])}")
    print(f"bot plies/s    {spread([float(b) for _, b in stats.samples])}")
    print(f"all moves/s    {spread([float(h + b) for h, b in stats.samples])}")
    total = stats.human_moves + stats.bot_plies
    print(f"moves          {total} in {elapsed:.1f} s ({total / elapsed:.1f}/s)")
    if lat:
        print(
            f"move latency   p50 {q[49]:.1f} ms   p99 {q[98]:.1f} ms   max {lat[-1]:.1f} ms   "
            f"({len(lat)} person moves)"
        )
    if total:
        print(
            f"CPU a move     {1000 * out['cpu'] * elapsed / total:.3f} ms of the server's CPU "
            f"({out['kernel'] * 100:.0f}% of it in the kernel: sockets, files)"
        )
    print(
        f"CPU            server {out['cpu'] * 100:.0f}% of one core, load generator "
        f"{out['own_cpu'] * 100:.0f}% (a generator near 100% limits what is measured)"
    )
    print(f"server memory  {out['rss'] / 1024:.0f} MiB, {out['rss_per_table']:.0f} KiB a table")
    print(f"errors         {stats.errors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
