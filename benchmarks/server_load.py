"""Load on the game server: N concurrent tables of bot-played websocket clients on loopback.

Starts `parlour serve` (embedded SQLite in a temporary directory, unless --database is given),
opens N tables of S seats each, every seat a websocket client that plays like a bot from its own
view, and runs for a bounded time. Prints the tables held, moves per second and the move latency
(a move sent → that seat's next view received) at p50 and p99.

    .venv/bin/python benchmarks/server_load.py --tables 200 --seats 4 --duration 30

Loopback only; every number is bounded (tables ≤ 1000, duration ≤ 300 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
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

import parlour
from parlour.bots import make_bot


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.games = 0
        self.connected = 0
        self.measuring = False


async def seat_client(
    base: str, code: str, token: str, seat: int, game: parlour.Game[Any], bot: str,
    think: float, stats: Stats, stop: asyncio.Event,
) -> None:  # fmt: skip
    player = make_bot(bot, game, seed=seat)
    events: list[Any] = []
    async with connect(f"ws://{base}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        stats.connected += 1
        sent_at: float | None = None
        sent_ply = -1
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors += 1
                sent_at = None
                continue
            if kind != "view":
                continue
            if msg["events_from"] == 0:
                events = []
            events.extend(msg["events"])
            if sent_at is not None and msg["ply"] > sent_ply:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.moves += 1
                sent_at = None
            if msg.get("result") and seat == 0 and stats.measuring:
                stats.games += 1
            if msg["legal"] and sent_at is None:
                if think:
                    await asyncio.sleep(think * random.random() * 2)
                legal = [game.parse_move(t) for t in msg["legal"]]
                view = {**msg["view"], "events": events}
                move = player.choose(view, legal)
                sent_ply = msg["ply"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": str(move), "ply": msg["ply"]}))


async def run(args: argparse.Namespace, base: str) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    game = parlour.make(args.game, players=args.seats, rules=args.preset)
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as api:
        tables = []
        for _ in range(args.tables):
            r = await api.post(
                "/api/tables",
                json={"game": args.game, "players": args.seats, "preset": args.preset,
                      "match": "rounds-100000", "auto_next": True, "bot_delay": 0.0,
                      "name": "seat 0"},
            )  # fmt: skip
            r.raise_for_status()
            t = r.json()
            tokens = [t["token"]]
            for s in range(1, args.seats):
                j = await api.post(f"/api/tables/{t['code']}/join", json={"name": f"seat {s}"})
                j.raise_for_status()
                tokens.append(j.json()["token"])
            tables.append((t["code"], tokens))
    tasks = [
        asyncio.create_task(
            seat_client(base, code, tok, s, game, args.bot, args.think, stats, stop)
        )
        for code, tokens in tables
        for s, tok in enumerate(tokens)
    ]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats.elapsed = elapsed  # type: ignore[attr-defined]
    stats.held = len(tables)  # type: ignore[attr-defined]
    return stats


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--game", default="whot")
    p.add_argument("--preset", default=None)
    p.add_argument("--bot", default="random", help="how each client chooses (a bot name)")
    p.add_argument("--think", type=float, default=0.05, help="mean pause before a move, s")
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--database", default=None, help="default: SQLite in a temporary directory")
    args = p.parse_args()
    args.tables = max(1, min(args.tables, 1000))
    args.duration = max(1.0, min(args.duration, 300.0))
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="parlour-load-") as tmp:
        db = args.database or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        server = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--database", db, "--log-level", "warning"],
        )  # fmt: skip
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
            stats = asyncio.run(run(args, f"127.0.0.1:{port}"))
        finally:
            server.terminate()
            server.wait(20)
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [float("nan")] * 99
    elapsed = stats.elapsed  # type: ignore[attr-defined]
    print(f"game {args.game}, {args.seats} seats, clients play '{args.bot}', think {args.think}s")
    print(f"tables held     {stats.held} ({stats.connected} websocket seats)")  # type: ignore[attr-defined]
    print(f"moves/s         {stats.moves / elapsed:.1f}  ({stats.moves} in {elapsed:.1f} s)")
    print(f"games finished  {stats.games}")
    print(f"latency p50     {q[49] * 1000:.1f} ms")
    print(f"latency p99     {q[98] * 1000:.1f} ms")
    print(f"errors          {stats.errors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
