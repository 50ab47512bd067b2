"""`parlour analyse`: a finished game judged decision by decision (a plug-in of the `parlour`
command). The table and the JSON are those of `parlour.review.analyse`; docs/review.md."""

from __future__ import annotations

import argparse
import itertools
import math
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table

from parlour.core import RulesError
from parlour.core.registry import info

from .analysis import MARKS, Analysis, Budget, analyse
from .files import choose_game, load_games
from .puzzles import find_puzzles, puzzles_to_json

__all__ = ["add_commands", "cmd_analyse", "print_analysis", "sparkline"]

Handler = Callable[[argparse.Namespace, Console], int]

PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
MARK_STYLE = {
    "inaccuracy": ("?!", "yellow"),
    "mistake": ("?", "dark_orange"),
    "blunder": ("??", "bold red"),
}


def add_commands(sub: Any, commands: dict[str, Handler]) -> None:
    a = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="judge each decision of a seat in a finished game, from its own view",
        description="Replay a game and, at each decision of one seat, let the search bot "
        "(ISMCTS, from that seat's view only) estimate the chance of winning after the move "
        "played and after the best move it finds; mark the clear mistakes.",
    )
    a.add_argument("file", help="a record (.json) saved by play, the server or a State.record()")
    a.add_argument("--seat", type=int, default=1, help="the seat to judge, from 1 (default 1)")
    budget = a.add_mutually_exclusive_group()
    budget.add_argument(
        "--budget",
        type=int,
        default=1000,
        metavar="ITERATIONS",
        help="search iterations a decision, spread over its legal moves (default 1000)",
    )
    budget.add_argument(
        "--seconds", type=float, help="search time a decision instead (not reproducible)"
    )
    a.add_argument("--game", type=int, help="which game of a match file, from 1 (default 1)")
    a.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    a.add_argument("--out", "-o", help="write the analysis as JSON to this file")
    a.add_argument("--puzzles", help="write the decisions with one clearly best move as puzzles")
    a.add_argument(
        "--margin",
        type=float,
        default=15.0,
        metavar="POINTS",
        help="a puzzle's best move leads the next by this many points of win chance (15)",
    )
    a.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    commands["analyse"] = cmd_analyse
    commands["analyze"] = cmd_analyse


@contextmanager
def _interruptible() -> Iterator[Callable[[], bool]]:
    """A `cancel` hook that turns true at Ctrl-C (the decisions judged so far are kept)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop.is_set
        return

    def handler(signum: int, frame: Any) -> None:
        stop.set()

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield stop.is_set
    finally:
        signal.signal(signal.SIGINT, old)


def cmd_analyse(args: argparse.Namespace, out: Console) -> int:
    games = load_games(args.file)
    k, entry = choose_game(games, args.game)
    record, names = entry.record, entry.names
    if not 1 <= args.seat <= record.players:
        raise RulesError(f"--seat must be from 1 to {record.players}")
    if not 0 < args.margin <= 100:
        raise RulesError("--margin is in points of win chance: above 0, at most 100")
    for path in (args.out, args.puzzles):
        if path and not str(path).endswith(".json"):
            raise RulesError(f"{path!r}: name a .json file")
    budget = Budget(iterations=args.budget, seconds=args.seconds)
    seat = args.seat - 1
    gi = info(record.game)
    which = f", game {k} of {len(games)}" if len(games) > 1 else ""
    cost = f"{budget.seconds:g} s" if budget.seconds else f"{budget.iterations} iterations"
    out.print(
        f"[bold]{escape(gi.title)}[/]{which}: {record.players} players, {len(record.moves)} moves."
        f" Judging {escape(names[seat])} (seat {args.seat}) from their own view, {cost} a "
        "decision."
    )
    bar = Console(stderr=True, highlight=False)
    with ExitStack() as stack:
        cancel = stack.enter_context(_interruptible())
        advance: list[Callable[[int], None]] = []

        def progress(done: int, total: int) -> None:
            if args.quiet or total == 0:
                return
            if not advance:
                from parlour.sim.progress import game_bar

                advance.append(
                    stack.enter_context(
                        game_bar("analysing", total, bar, transient=True, unit="decisions")
                    )
                )
            if done:
                advance[0](1)

        analysis = analyse(record, seat, budget, seed=args.seed, progress=progress, cancel=cancel)
    print_analysis(analysis, out, names)
    if args.out:
        Path(args.out).write_text(analysis.to_json(indent=1), encoding="utf-8")
        out.print(f"Analysis written to {escape(args.out)}.")
    if args.puzzles:
        found = find_puzzles(analysis, record, margin=args.margin / 100, seed=args.seed)
        Path(args.puzzles).write_text(puzzles_to_json(found), encoding="utf-8")
        out.print(f"{len(found)} puzzle(s) written to {escape(args.puzzles)}.")
    return 0 if analysis.complete else 130


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _loss(loss: float, se: float | None) -> str:
    if loss == 0:
        return "—"
    noise = f" ±{se * 100:.1f}" if se is not None else ""
    return f"{loss * 100:.1f}{noise}"


def sparkline(values: list[float], width: int = 60) -> str:
    """Win chances (0 to 1) as a line of block characters: one a value, or the means of runs of
    them where there are more than `width`."""
    if len(values) > width:
        cuts = [round(i * len(values) / width) for i in range(width + 1)]
        values = [sum(values[a:b]) / (b - a) for a, b in itertools.pairwise(cuts)]
    blocks = "▁▂▃▄▅▆▇█"
    return "".join(blocks[min(7, max(0, math.floor(v * 8)))] for v in values)


def print_analysis(a: Analysis, out: Console, names: list[str]) -> None:
    """The per-decision table, then the summary and the estimate over the game."""
    table = Table(
        title=f"{escape(names[a.seat])}'s decisions",
        title_justify="left",
        caption="win: the chance of winning the search estimates from the seat's view; loss: "
        "points of it below the best move found, ± one standard error",
        caption_justify="left",
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("move", "right"),
        ("played", "left"),
        ("win", "right"),
        ("best found", "left"),
        ("win", "right"),
        ("loss", "right"),
        ("mark", "left"),
    )
    for col, justify in columns:
        table.add_column(col, justify=justify)
    for d in a.decisions:
        played = d.played_move
        same = d.best.move == d.played or d.loss == 0
        mark = ""
        if d.mark is not None:
            sym, style = MARK_STYLE[d.mark]
            mark = f"[{style}]{sym} {d.mark}[/]"
        table.add_row(
            str(d.ply + 1),
            escape(d.played),
            _pct(played.estimate),
            "[dim]the same[/]" if same else escape(d.best.move),
            _pct(d.best.estimate),
            _loss(d.loss, d.loss_se),
            mark,
        )
    out.print(table)
    s = a.summary()
    counts = s["marks"]
    words = ", ".join(f"{counts[m]} {m if counts[m] == 1 else PLURAL[m]}" for m in MARKS)
    out.print(
        f"{s['decisions']} decisions ({a.forced} more turns had one legal move): the best move "
        f"found was played in {s['best_played']}; {words}; average loss "
        f"{s['mean_loss'] * 100:.1f} points of win chance."
    )
    if a.decisions:
        first, last = a.decisions[0].played_move.estimate, a.decisions[-1].played_move.estimate
        out.print(
            f"Win chance after each move played: {sparkline([p for _, p, _ in a.chart()])} "
            f"(from {_pct(first)} to {_pct(last)})"
        )
    if a.result is not None:
        outcome = "won" if a.result == 1 else "lost" if a.result == 0 else f"shared {a.result:.2f}"
        out.print(f"Result: {escape(names[a.seat])} {outcome}.")
    if not a.complete:
        out.print(
            f"[yellow]Stopped: {len(a.decisions)} of {a.total} decisions judged; keeping those.[/]"
        )
