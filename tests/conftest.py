"""What every test run shares: where a server test its watchdog ended leaves its stacks
(`watchdog_dir`: tests/server/conftest.py writes them), printed in the run's summary. It is here
because pytest-xdist's controller loads only this top conftest when run without paths, and the
summary is the controller's."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WATCHDOG_DIR = Path(__file__).resolve().parents[1] / "build" / "test-watchdog"
SINCE = time.time()  # when this run began: older stacks are an earlier run's


@pytest.fixture
def ctrl_c_reaches_children() -> Iterator[None]:
    """Processes this test starts take Ctrl-C (SIGINT) as a terminal's foreground job does, even
    when the suite itself was started with SIGINT ignored — as a shell without job control starts
    a background job (`make test &`, `nohup … &`): an ignored signal stays ignored in every child
    and grandchild, where a handled one is set back to its default by exec. (A clean clone's run
    started so failed the Ctrl-C tests: the simulation never heard it.)"""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@pytest.fixture(scope="session")
def watchdog_dir() -> Path:
    """The folder of hung tests' stacks, one file per test process (`build/test-watchdog/`)."""
    return WATCHDOG_DIR


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for dump in sorted(WATCHDOG_DIR.glob("*.txt")):
        if dump.stat().st_mtime < SINCE:
            continue  # an earlier run's
        text = dump.read_text(errors="replace")
        # a file of one line is a test still running (in another run beside this one, as the
        # two passes of `make test` are): only one with stacks is a test the watchdog ended
        if "Timeout (" in text:
            terminalreporter.section(f"watchdog: a hung server test ({dump.name})", red=True)
            terminalreporter.write(text)
