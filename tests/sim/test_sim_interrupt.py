"""Ctrl-C stops a simulation cleanly and keeps the finished games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.usefixtures("ctrl_c_reaches_children")
def test_sigint_keeps_finished_games(tmp_path: Path, jobs: str) -> None:
    out = tmp_path / "partial.jsonl"
    cmd = [sys.executable, "-m", "parlour.cli", "simulate", "whot", "--rules", "storey-1935"]
    cmd += ["--bots", "random", "-p", "2", "--games", "1000000", "--jobs", jobs, "-q"]
    cmd += ["--out", str(out)]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ)
    )
    try:
        # the rows are written as games finish: once one is there, a game was kept for certain
        end = time.monotonic() + 300
        while not (out.exists() and out.read_text().count("\n") >= 1):
            assert proc.poll() is None, proc.communicate()[0]
            assert time.monotonic() < end, "no game finished in 300 s"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        text, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # a million games must not go on beside the rest of the suite
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, text
    assert "Stopped" in text and "keeping" in text
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert 0 < len(rows) < 1_000_000
    assert "First player wins" in text
    # The kept games are whole games, sorted (with two workers a few may be missing in between).
    assert all(r["moves"] > 0 for r in rows)
    assert [r["game"] for r in rows] == sorted(r["game"] for r in rows)
