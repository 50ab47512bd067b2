"""Worker processes that die with the process that started them: the server's pools (bots'
searches, review analyses; `server/pools.py`) and the simulator's workers (`sim/simulate.py`).

A pool process waits for work on a pipe whose writing end it holds itself (a spawned process gets
the queue whole; a forked one inherits it), so a parent that is SIGKILLed — a crash, the OOM
killer, `systemctl kill`, a closed terminal's kill — never closes it: the process would wait for
ever, or finish a long search or a thousand games for nobody, holding memory and a core. Each
pool process therefore runs `exit_with_parent` first: a daemon thread that looks every
`WATCH_EVERY` seconds whether its parent is still the process that started it, and ends the
process at once when it is not (its parent gone, it was handed to init or a subreaper).

Why not Linux's `prctl(PR_SET_PDEATHSIG)`: the kernel sends that signal when the parent *thread*
that started the process ends, not the parent process, and a pool starts its processes from
whichever thread submits work first (under the server's test client, a portal thread that ends
with the client). Looking at `getppid()` follows the process, and works wherever `os.getppid`
does.

Standard library only: a spawned pool process imports this module, and nothing of the web server.
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["WATCH_EVERY", "exit_with_parent"]

WATCH_EVERY = 0.5  # seconds between a pool process's looks at its parent


def exit_with_parent(parent: int) -> None:
    """In a pool process: end it as soon as `parent` (the pid that started it) is no longer its
    parent. A daemon thread, so it holds up no normal exit."""
    if os.getppid() != parent:  # the parent died while this process was starting
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="exit-with-parent", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_EVERY)
        if os.getppid() != parent:
            # at once, even in the middle of a search or a game: nobody is left to take its
            # answer, and a normal exit would wait for the pool's threads, which wait for the
            # dead parent
            os._exit(1)
