"""What every test run shares: where a server test its watchdog ended leaves its stacks
(`watchdog_dir`: tests/server/conftest.py writes them), printed in the run's summary. It is here
because pytest-xdist's controller loads only this top conftest when run without paths, and the
summary is the controller's."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

WATCHDOG_DIR = Path(__file__).resolve().parents[1] / "build" / "test-watchdog"
SINCE = time.time()  # when this run began: older stacks are an earlier run's


@pytest.fixture(scope="session")
def watchdog_dir() -> Path:
    """The folder of hung tests' stacks, one file per test process (`build/test-watchdog/`)."""
    return WATCHDOG_DIR


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for dump in sorted(WATCHDOG_DIR.glob("*.txt")):
        if dump.stat().st_mtime >= SINCE:
            terminalreporter.section(f"watchdog: a hung server test ({dump.name})", red=True)
            terminalreporter.write(dump.read_text(errors="replace"))
