"""The server's process pools (bots' searches, `thinking.py`; review analyses, `review.py`), made so
that their processes die with the server process that started them (`parlour.processes`: a
thread in each that watches `getppid()`, since a SIGKILLed parent never closes their pipes).

Standard library only: a spawned pool process imports this module, and nothing of the web server.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from parlour.processes import WATCH_EVERY, exit_with_parent

__all__ = ["WATCH_EVERY", "exit_with_parent", "process_pool"]


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` spawned processes (sharing nothing with the server's threads) that exit
    when this process dies."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
