"""Where the CPU of a person's move goes: the server's own parts, and the websocket stack alone.

`benchmarks/server_load.py` measures a whole server (CPU a move, ~1.4-1.8 ms on the 2-core
machine). This script takes it apart, each part in runs of its own (min / median / max):

* **parts**: the server's parts as `parlour serve` runs them (database thread, bus, table worker,
  gateway, views, each connection's messages encoded), without sockets: four-seat Whot! tables,
  every seat a connection whose queue is emptied as its writer would. With `--tables 1` each
  move is stored alone (its own commit, its own hand-over to the database thread), as at a
  person's pace; with many tables at once the moves are stored in groups. Split by thread: the
  event loop's, and the rest (the database thread's).
* **websockets**: the websocket stack alone, as parlour serves it (uvicorn on uvloop, Starlette's
  WebSocket, parlour's compression of large messages only, one writer task a connection): a
  message on any socket of a group of four goes to all four, as a move goes out to four seats;
  the server's CPU for each message in.

    .venv/bin/python benchmarks/server_move_cost.py
    .venv/bin/python benchmarks/server_move_cost.py --runs 5 --moves 6000 --groups 300
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAYLOAD = 600  # bytes a message out: a typical view patch (under the compression threshold)


def spread(values: list[float]) -> str:
    return f"{min(values):7.0f} {statistics.median(values):7.0f} {max(values):7.0f}"


# --- the server's parts, without sockets -----------------------------------------------------
async def parts_run(tables: int, moves: int, seed: int) -> tuple[float, float]:
    """CPU a move in µs: (all threads, the event loop's thread alone)."""
    from parlour.server.app import serving
    from parlour.server.connections import Conn
    from parlour.server.gateway import Replica
    from parlour.server.settings import Settings

    many = 10**6
    with tempfile.TemporaryDirectory(prefix="parlour-cost-") as tmp:
        settings = Settings(
            database=f"sqlite:///{Path(tmp) / 'cost.sqlite3'}",
            freeze_gc=False,
            tables_per_minute=many,
            joins_per_minute=many,
            seats_per_client=many,
            tables_per_client=many,
            max_tables=many,
        )
        async with serving(settings) as parts:
            gateway = parts.gateway
            assert gateway is not None
            rng = random.Random(seed)
            seated = []
            for i in range(tables):
                code, _, _, _ = await gateway.create(
                    f"host{i}", game="whot", players=4, host_name="Ada",
                    match="rounds-100", auto_next=True,
                )  # fmt: skip
                for s in range(1, 4):
                    await gateway.join(code, f"P{s}", None, f"guest{i}-{s}")
                rep = await gateway.replica(code)
                conns = [Conn(s, s == 0) for s in range(4)]
                for conn in conns:
                    await gateway.attach(rep, conn)
                seated.append((rep, conns))

            async def play(rep: Replica, conns: list[Conn], n: int) -> None:
                for _ in range(n):
                    # (the replica's table is read each time: reading the table again from the
                    # database gives it a new one)
                    while (t := rep.table).state is None or t.seat_to_play() is None:
                        if t.status != "playing":
                            raise SystemExit(f"the match at table {t.code} is over: fewer --moves")
                        await conns[0].queue.get()  # the next game's first view
                    seat, ply, game = t.seat_to_play(), t.ply, t.game_number
                    assert seat is not None and t.state is not None
                    move = rng.choice(t.state.legal_moves())
                    await gateway.move(rep, seat, str(move), ply)
                    while (rep.table.ply, rep.table.game_number) == (ply, game):
                        await conns[0].queue.get()  # each seat is sent the view it made
                    for conn in conns:  # as the writers would: everything sent goes out
                        while not conn.queue.empty():
                            conn.queue.get_nowait()

            each = max(1, moves // tables)
            await asyncio.gather(*(play(r, c, 20) for r, c in seated))  # warm up
            cpu, loop_cpu = time.process_time(), time.thread_time()
            await asyncio.gather(*(play(r, c, each) for r, c in seated))
            done = each * tables
            return (
                (time.process_time() - cpu) / done * 1e6,
                (time.thread_time() - loop_cpu) / done * 1e6,
            )


def measure_parts(args: argparse.Namespace) -> None:
    import uvloop

    for tables in args.tables:
        runs = [
            uvloop.run(parts_run(tables, args.moves, seed)) for seed in range(args.runs)
        ]  # fmt: skip
        alls, loops = [r[0] for r in runs], [r[1] for r in runs]
        rest = [a - b for a, b in runs]
        how = "each move stored alone" if tables == 1 else "moves stored in groups"
        print(f"parts, {tables} table(s) at once ({how}), CPU a move in µs, min / median / max:")
        print(f"  all threads      {spread(alls)}")
        print(f"  event loop       {spread(loops)}")
        print(f"  database thread  {spread(rest)}")


# --- the websocket stack alone ---------------------------------------------------------------
def fanout_app() -> object:
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    groups: dict[str, list[asyncio.Queue[str]]] = {}
    text = "x" * PAYLOAD

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        queue: asyncio.Queue[str] = asyncio.Queue(512)
        group = groups.setdefault(ws.path_params["group"], [])
        group.append(queue)

        async def writer() -> None:
            while True:
                await ws.send_text(await queue.get())

        writing = asyncio.ensure_future(writer())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                for q in group:
                    q.put_nowait(text)
        finally:
            group.remove(queue)
            writing.cancel()

    return Starlette(routes=[WebSocketRoute("/ws/{group}", endpoint)])


def serve_fanout(port: int) -> None:
    import uvicorn

    from parlour.server.compression import websocket_protocol

    uvicorn.run(
        fanout_app(),  # type: ignore[arg-type]
        host="127.0.0.1",
        port=port,
        loop="uvloop",
        ws=websocket_protocol(),
        log_level="warning",
    )


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def fanout_load(port: int, groups: int, seconds: float, pid: int) -> float:
    """The server's CPU in µs for each message in (each going out to four sockets)."""
    from websockets.asyncio.client import connect

    sent = 0
    stop = asyncio.Event()

    async def group(g: int) -> None:
        nonlocal sent
        socks = [await connect(f"ws://127.0.0.1:{port}/ws/{g}") for _ in range(4)]

        async def read(ws: object) -> None:
            async for _ in ws:  # type: ignore[attr-defined]
                pass

        readers = [asyncio.ensure_future(read(ws)) for ws in socks]
        rng = random.Random(g)
        while not stop.is_set():
            await asyncio.sleep(rng.random() * 4)  # a person's thinking, 2 s on average
            await socks[rng.randrange(4)].send("m")
            sent += 1
        for ws in socks:
            await ws.close()
        for r in readers:
            r.cancel()

    tasks = [asyncio.ensure_future(group(g)) for g in range(groups)]
    await asyncio.sleep(3)
    sent0, cpu0 = sent, cpu_seconds(pid)
    await asyncio.sleep(seconds)
    n, cpu = sent - sent0, cpu_seconds(pid) - cpu0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return cpu / max(1, n) * 1e6


def measure_websockets(args: argparse.Namespace) -> None:
    runs = []
    for _ in range(args.runs):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        server = subprocess.Popen([sys.executable, __file__, "--serve-fanout", str(port)])
        try:
            time.sleep(2.0)
            runs.append(asyncio.run(fanout_load(port, args.groups, args.seconds, server.pid)))
        finally:
            server.terminate()
            server.wait(30)
    print(
        f"websockets alone, {args.groups} groups of 4 sockets, one message in, four out "
        f"({PAYLOAD} bytes), server CPU a message in µs, min / median / max:"
    )
    print(f"  uvicorn + Starlette {spread(runs)}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--moves", type=int, default=4000, help="moves a run of the parts")
    p.add_argument(
        "--tables", type=lambda s: [int(x) for x in s.split(",")], default=[1, 40],
        help="tables played at once, comma-separated (default 1,40)",
    )  # fmt: skip
    p.add_argument("--groups", type=int, default=300, help="websockets: groups of 4 sockets")
    p.add_argument("--seconds", type=float, default=15.0, help="websockets: seconds a run")
    p.add_argument("--only", choices=["parts", "websockets"], default=None)
    p.add_argument("--serve-fanout", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve_fanout:
        serve_fanout(args.serve_fanout)
        return 0
    print(f"parlour: the CPU of a move taken apart ({os.cpu_count()} CPUs)")
    if args.only in (None, "parts"):
        measure_parts(args)
    if args.only in (None, "websockets"):
        measure_websockets(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
