"""Garbage collection for a server process that holds thousands of live tables.

CPython's cyclic collector runs a full (generation 2) pass whenever the objects that survived
into the oldest generation have grown by a quarter since the last one. A full pass walks every
tracked object, and a server with 1,000 four-seat tables tracks about 1.25 million of them
(mostly its 4,000 websockets: the ASGI stack's coroutines, headers, buffers). Measured with
`benchmarks/server_load.py --human-tables 1000`: passes of 0.3-0.9 s every few seconds, during
which no table answers a move, so the 99th percentile of a move was about 1 s.

Reference counting already frees almost everything; the cyclic collector is only for cycles,
and those are nearly all young (a task, its future and a traceback). So the policy here
("generational freezing") keeps the old heap out of routine passes:

* every `freeze_every` second, `gc.freeze()` moves what is alive into the permanent generation,
  which no automatic pass walks; automatic passes then look only at what is younger than that
  (a second of a busy server's survivors), and stay short however many tables it holds;
* frozen objects are still freed by reference counting the moment they are unused; what a
  routine pass can no longer free is a *cycle* among frozen objects. Those are reclaimed by a
  full pass over everything (`gc.unfreeze()` then `gc.collect()`), run when the process's peak
  memory has grown fourfold (`grow`) since the last full pass, or after `full_every` seconds at
  the latest: the old pause, now about hourly instead of every few seconds. (Measured at 1,000
  tables over four minutes, the frozen heap stayed within 5%: cycles among old objects are
  rare.) Memory, not the number of frozen objects, is the measure, because counting those walks
  them all (tens of milliseconds at 1,000 tables);
* a burst that keeps the event loop from freezing for a few seconds (thousands of websockets
  arriving at once) would otherwise meet CPython's rule at its worst: with the old heap frozen,
  a quarter of almost nothing is soon reached, and each automatic pass walks all the burst so
  far (measured: ten passes of 40-420 ms in five seconds). `old_passes` spaces them out.

It is a process-wide policy, so the `parlour serve` command installs it, not `create_app`:
a test process that builds many apps keeps CPython's default.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["FreezingCollector", "peak_memory"]

log = logging.getLogger("parlour.server")


def peak_memory() -> int:
    """The process's peak resident memory (its unit varies by system; only ratios are used);
    0 where it cannot be read (Windows), which leaves the hourly full pass."""
    try:
        import resource
    except ImportError:
        return 0
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


@dataclass
class FreezingCollector:
    freeze_every: float = 1.0
    check_every: float = 10.0
    old_passes: int = 100  # young passes between automatic full passes (CPython: 10)
    grow: float = 3.0  # a full pass once peak memory is this much bigger than after the last
    full_every: float = 3600.0
    memory: Callable[[], int] = field(default=peak_memory, repr=False)
    _memory_after_full: int = 0
    _last_full: float = 0.0

    def full_pass(self) -> float:
        """Collect everything, frozen or not, then freeze what is left; returns the pause in s."""
        start = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._memory_after_full = self.memory()
        self._last_full = time.monotonic()
        return time.perf_counter() - start

    def tick(self, check: bool = True) -> str:
        """One step of the policy; says what it did ("full", "freeze")."""
        gc.freeze()
        if not check:
            return "freeze"
        memory = self.memory()
        grown = self._memory_after_full > 0 and memory > self._memory_after_full * (1 + self.grow)
        if grown or time.monotonic() - self._last_full >= self.full_every:
            pause = self.full_pass()
            log.info("parlour: full garbage collection in %.0f ms", pause * 1000)
            return "full"
        return "freeze"

    async def run(self) -> None:
        """Keep the policy until cancelled (a task of the serving process)."""
        self.full_pass()  # the startup heap: modules, classes, the app itself
        young, middle, old = gc.get_threshold()
        gc.set_threshold(young, middle, self.old_passes)
        try:
            checked = time.monotonic()
            while True:
                await asyncio.sleep(self.freeze_every)
                now = time.monotonic()
                check = now - checked >= self.check_every
                if check:
                    checked = now
                self.tick(check)
        finally:
            gc.set_threshold(young, middle, old)
            gc.unfreeze()
