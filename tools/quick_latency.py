"""Quick match's queue-to-table latency, measured against a real `parlour serve` process.

For each of N pairs of guests: A joins and waits in a long poll; B, the last entry needed, joins.
Measured from just before B's join: B's answer (it is seated at once), A's long poll answered
(both players hold their table and seat token), and the table's game being played (the worker
adopted the table and dealt). Prints the median and the worst of each.

    PYTHONPATH=src python tools/quick_latency.py [--pairs 20] [--database URL]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any


def post(url: str, body: dict[str, Any], address: str = "10.0.0.1") -> Any:
    # each guest from an address of its own (X-Forwarded-For, trusted by the server started
    # here): two entries from one address are never matched
    headers = {"content-type": "application/json", "x-forwarded-for": address}
    req = urllib.request.Request(url, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--database", default=None, help="default: a new SQLite file")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="quick-latency-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    database = args.database or f"sqlite:///{tmp / 'parlour.sqlite3'}"
    cmd = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--database",
           database, "--log-level", "warning"]  # fmt: skip
    for setting in ("quick_joins_per_minute=100000", "quick_per_client=1000",
                    "tables_per_minute=100000", "joins_per_minute=100000",
                    "trust_forwarded=true"):  # fmt: skip
        cmd += ["--setting", setting]
    proc = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                get(base + "/api/games")
                break
            except OSError:
                time.sleep(0.1)
        joiner, both, playing = [], [], []
        for i in range(args.pairs):
            a = post(
                base + "/api/quick", {"game": "whot", "players": 2, "name": f"A{i}"}, "10.0.0.1"
            )
            got: dict[str, Any] = {}

            def poll(ticket: str = a["ticket"], got: dict[str, Any] = got) -> None:
                got["entry"] = post(base + "/api/quick/status", {"ticket": ticket, "wait": 20})
                got["at"] = time.perf_counter()

            waiter = threading.Thread(target=poll)
            waiter.start()
            time.sleep(0.2)  # A's long poll is waiting
            t0 = time.perf_counter()
            b = post(
                base + "/api/quick", {"game": "whot", "players": 2, "name": f"B{i}"}, "10.0.0.2"
            )
            t_b = time.perf_counter()
            waiter.join()
            assert b["status"] == "matched", b
            assert got["entry"]["table"]["code"] == b["table"]["code"], (got, b)
            while get(f"{base}/api/tables/{b['table']['code']}")["status"] != "playing":
                time.sleep(0.005)
            t_play = time.perf_counter()
            joiner.append(t_b - t0)
            both.append(max(t_b, got["at"]) - t0)
            playing.append(t_play - t0)
    finally:
        proc.terminate()
        proc.wait(10)

    def ms(xs: list[float]) -> str:
        return f"median {1000 * statistics.median(xs):.0f} ms, worst {1000 * max(xs):.0f} ms"

    print(f"{args.pairs} pairs on {database.split(':')[0]}")
    print(f"  the last joiner seated:        {ms(joiner)}")
    print(f"  both players hold the table:   {ms(both)}")
    print(f"  the game is being played:      {ms(playing)}")


if __name__ == "__main__":
    main()
