"""The server's process pools die with the server: a gateway's review analyses and a worker's bot
searches run in pool processes, which must not outlive a gateway or worker that was SIGKILLed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# a server process's pool, busy: every pool process in the middle of a long job
PARENT = """
import json, sys, time
kind, workers = sys.argv[1], int(sys.argv[2])
if kind == "review":
    from parlour.server.review import Reviews
    from parlour.server.settings import Settings
    pool = Reviews(None, Settings(analysis_workers=workers))._executor()
else:
    from parlour.server.thinking import Thinker
    pool = Thinker(workers)._executor()
jobs = [pool.submit(time.sleep, 120) for _ in range(workers)]
while len(pool._processes) < workers:
    time.sleep(0.05)
print(json.dumps(list(pool._processes)), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not reaped by whoever adopted it, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("kind", ["review", "thinking"])
def test_pool_processes_exit_within_seconds_of_their_server_being_killed(kind: str) -> None:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, kind, "2"], stdout=subprocess.PIPE, env=env, text=True
    )
    children: list[int] = []
    try:
        assert parent.stdout is not None
        children = json.loads(parent.stdout.readline())
        assert len(children) == 2 and all(_alive(pid) for pid in children)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        killed = time.monotonic()
        while any(_alive(pid) for pid in children) and time.monotonic() - killed < 10:
            time.sleep(0.05)
        left = [pid for pid in children if _alive(pid)]
        took = time.monotonic() - killed
        assert not left, f"pool processes {left} outlived their killed parent by 10 s"
        print(f"{kind} pool: {len(children)} processes, gone {took:.2f} s after the kill")
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in children:  # never leave an orphan behind, whatever the outcome
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
