"""Where a running server waits: `kill -USR2 <pid>` writes every task of its event loop with its
stack to the log (warning level, so that it shows at any `--log-level`); and a step of stopping
that overruns its time (`bounded`) writes the same before it is given up.

A thread's stack (py-spy's `dump`) shows an event loop waiting in `epoll` and nothing of the
coroutines under it; a server that does not stop after SIGTERM, or a table that does not move,
waits in one of them (a lock, a future, a socket), and this names which."""

from __future__ import annotations

import asyncio
import io
import logging
import signal
from collections.abc import Callable, Coroutine
from types import FrameType
from typing import Any, TypeVar

__all__ = ["answer_sigusr2", "bounded", "task_stacks"]

T = TypeVar("T")

log = logging.getLogger("parlour.server")


def task_stacks(loop: asyncio.AbstractEventLoop) -> str:
    """Every task of `loop`, by name, each with its chain of awaits down to what it waits on."""
    out = io.StringIO()
    tasks = sorted(asyncio.all_tasks(loop), key=lambda t: t.get_name())
    out.write(f"{len(tasks)} tasks of the event loop, each where it waits:\n")
    for task in tasks:
        out.write(f"task {task.get_name()}:\n")
        for line in _awaits(task.get_coro()):
            out.write(f"    {line}\n")
    return out.getvalue()


def _awaits(awaitable: object, most: int = 40) -> list[str]:
    """The chain of a coroutine's awaits, outermost first: a task's own frame tells only the
    first (`Task.get_stack` stops there), where it waits is at the end of the chain."""
    lines: list[str] = []
    while awaitable is not None and len(lines) < most:
        frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
        if frame is None:  # a future, a finished coroutine, a C awaitable: what is waited on
            lines.append(f"waits on {awaitable!r:.200}")
            break
        code = frame.f_code
        lines.append(f"{code.co_filename}:{frame.f_lineno} in {code.co_qualname}")
        awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    return lines


def _write(signum: int, frame: FrameType | None) -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        log.warning("SIGUSR2: no event loop is running in this process yet")
        return
    log.warning("SIGUSR2: %s", task_stacks(loop))


def answer_sigusr2() -> Callable[[int, FrameType | None], Any] | int | None:
    """From now on SIGUSR2 writes the tasks' stacks to the log; returns the handler it replaced."""
    return signal.signal(signal.SIGUSR2, _write)


async def bounded(job: Coroutine[Any, Any, T], seconds: float, what: str) -> T | None:
    """Await `job` for at most `seconds`; past them, log where every task waits (taken while the
    job still waits, before it is cancelled), cancel it and return None. A process asked to stop
    must stop: one step that waits for ever (a lock never released, an answer that never comes)
    would otherwise keep it alive until its supervisor kills it, with nothing said about why."""
    task = asyncio.ensure_future(job)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if done:
        return task.result()
    log.error(
        "stopping: %s took more than %g s and is given up; %s",
        what,
        seconds,
        task_stacks(asyncio.get_running_loop()),
    )
    task.cancel()
    await asyncio.wait({task}, timeout=1.0)  # its clean-up, if it lets itself be cancelled
    return None
