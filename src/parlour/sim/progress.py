"""The progress bar over games that the simulator, the benchmarks and the tools show alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["game_bar"]


@contextmanager
def game_bar(
    label: str,
    total: int,
    console: Console,
    *,
    transient: bool = False,
    unit: str = "games",
) -> Iterator[Callable[[int], None]]:
    """A bar of games (or other `unit`s: decisions) done out of `total`, with the rate, time
    elapsed and ETA; yields `advance(k)`, to call as they finish. `transient` clears it when done
    (where the figures printed afterwards are what matters)."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=transient,
    )
    with progress:
        task = progress.add_task(label, total=total, rate="")

        def advance(k: int) -> None:
            progress.advance(task, k)
            t = progress.tasks[0]
            el = t.elapsed or 0.0
            if el > 0:
                progress.update(task, rate=f"{t.completed / el:.1f} {unit}/s")

        yield advance
