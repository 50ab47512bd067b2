"""What every test run shares: the stacks of a server test its watchdog ended
(tests/server/conftest.py writes them to build/test-watchdog/), printed in the run's summary. It is
here because pytest-xdist's controller loads only this top conftest when run without paths, and
the summary is the controller's."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

WATCHDOG_DIR = Path(__file__).resolve().parents[1] / "build" / "test-watchdog"
SINCE = time.time()  # when this run began: older stacks are an earlier run's


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for dump in sorted(WATCHDOG_DIR.glob("*.txt")):
        if dump.stat().st_mtime >= SINCE:
            terminalreporter.section(f"watchdog: a hung server test ({dump.name})", red=True)
            terminalreporter.write(dump.read_text(errors="replace"))
