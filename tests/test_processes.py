"""Worker processes die with the process that started them (`parlour.processes`): a gateway's
review analyses and a table worker's bot searches run in pool processes, which must not outlive a
gateway or worker that was SIGKILLed; nor may `parlour simulate --jobs N`'s workers outlive it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def _python(*args: str, **popen: Any) -> subprocess.Popen[Any]:
    """This checkout's parlour in a new Python process."""
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, *args], env=env, **popen)


def _kill(parent: subprocess.Popen[Any], children: list[int]) -> tuple[list[int], float]:
    """SIGKILL `parent`; the children still alive 10 s on (none, rightly), and how long the
    others took to go."""
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(10)
    killed = time.monotonic()
    while any(_alive(pid) for pid in children) and time.monotonic() - killed < 10:
        time.sleep(0.05)
    return [pid for pid in children if _alive(pid)], time.monotonic() - killed


def _reap(parent: subprocess.Popen[Any], children: list[int]) -> None:
    """Never leave an orphan behind, whatever the outcome."""
    if parent.poll() is None:
        parent.kill()
    for pid in children:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("kind", ["review", "thinking"])
def test_pool_processes_exit_within_seconds_of_their_server_being_killed(kind: str) -> None:
    parent = _python("-c", PARENT, kind, "2", stdout=subprocess.PIPE, text=True)
    children: list[int] = []
    try:
        assert parent.stdout is not None
        children = json.loads(parent.stdout.readline())
        assert len(children) == 2 and all(_alive(pid) for pid in children)
        left, took = _kill(parent, children)
        assert not left, f"pool processes {left} outlived their killed parent by 10 s"
        print(f"{kind} pool: {len(children)} processes, gone {took:.2f} s after the kill")
    finally:
        _reap(parent, children)


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone while we looked
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds workers through /proc")
def test_simulation_workers_exit_within_seconds_of_a_killed_simulate() -> None:
    run = "from parlour.cli import main; main('simulate whot -n 1000000 -j 2 -q'.split())"
    parent = _python("-c", run, stdout=subprocess.DEVNULL)
    children: list[int] = []
    try:
        started = time.monotonic()
        while len(children) < 2 and time.monotonic() - started < 60:
            time.sleep(0.1)
            children = _children(parent.pid)
        assert len(children) == 2, f"simulate --jobs 2 started {children} in 60 s"
        time.sleep(1)  # the workers are playing games now
        assert all(_alive(pid) for pid in children)
        left, _took = _kill(parent, children)
        assert not left, f"simulation workers {left} outlived their killed parent by 10 s"
    finally:
        _reap(parent, children)
