"""The server's process pools (bots' searches, `thinking.py`; review analyses, `review.py`), made so
that their processes die with the server process that started them (`parlour.processes`: a
thread in each that watches `getppid()`, since a SIGKILLed parent never closes their pipes).

Standard library only: a spawned pool process imports this module, and nothing of the web server.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from parlour.processes import WATCH_EVERY, exit_with_parent

__all__ = ["WATCH_EVERY", "exit_with_parent", "process_pool", "stop_pool"]


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` spawned processes (sharing nothing with the server's threads) that exit
    when this process dies."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: a search under way is not waited for — its processes are ended — and
    the pool's queues and locks are closed before the server exits, so that the interpreter's
    resource tracker finds nothing left over ("leaked semaphore objects" on SIGTERM)."""
    # the pool's processes, by the standard library's own map of them (no public way to end a
    # running task)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=5)
    pool.shutdown(wait=True)  # its manager thread ends, its queues are closed
    # its queues' locks are semaphores, unlinked when collected: collected now, not left to an
    # interpreter already exiting
    del processes
    gc.collect()
