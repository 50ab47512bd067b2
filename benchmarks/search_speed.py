"""ISMCTS decision time per game: CPU seconds a decision, min/median/p99/max, over positions from
real games.

Issue 21's target: 1,000 iterations within 0.3 s for every decision's median and 0.5 s at the 99th
percentile, in every game. The positions are those hint bots meet playing each other (every seat
the hint bot, as at a table with bots): every third decision with a real choice (more than one
legal move), of whichever seat is to move, game after game from the seed until each table has
`--decisions` of them. Each is searched by a fresh `ismcts` bot from the mover's view, as a seat at
the table would search it; the time is CPU time (time.process_time) on one core, so other processes
on a shared machine weigh less. The tables take turns decision by decision (round-robin), so a
change in the machine's load during the run falls on all of them alike.

    .venv/bin/python benchmarks/search_speed.py                    # 200 decisions a table
    .venv/bin/python benchmarks/search_speed.py --only whoswho --decisions 400
    .venv/bin/python benchmarks/search_speed.py --params pool=50   # a variant of the search

A change to the search's code is timed against the code before it in one run: `--baseline FILE`
loads another version of `parlour/bots/ismcts.py` beside this tree's (the rest of parlour is
shared), and every decision is searched by both, in alternating order, with the same seed:

    git show HEAD~1:src/parlour/bots/ismcts.py > /tmp/ismcts_before.py
    .venv/bin/python benchmarks/search_speed.py --decisions 40 --baseline /tmp/ismcts_before.py

It prints both figures, the ratio of each decision's times (this tree's over the baseline's,
min/median/max) and in how many decisions the two chose the same move.

Nothing is asserted: the script only prints figures. `benchmarks/strength.py` prints the same
figures beside its strength matches (it calls `decision_times`).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import math
import platform
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

import parlour
from parlour.bots import base, ismcts, make_bot
from parlour.core import Move
from parlour.sim.progress import game_bar

TABLES = [
    ("whot", "nigerian", 2),
    ("whot", "storey-1935", 2),
    ("sorry", "regular", 4),
    ("whoswho-tricks", "standard", 4),
    ("whoswho-books", "standard", 4),
]
TARGET_MEDIAN = 0.3  # seconds a decision, issue 21
TARGET_P99 = 0.5
EVERY = 3  # every third decision with a choice: positions spread through the games


@dataclass(frozen=True)
class Position:
    """A decision met in a real game: the mover's view and legal moves, and where it came from."""

    view: dict[str, Any]
    legal: list[Move]
    seed: int  # the game's seed
    ply: int  # moves played before it


def positions(name: str, rules: str, players: int, seed: int) -> Iterator[Position]:
    """The decisions hint bots meet playing each other, game after game from `seed`: every
    `EVERY`th one with more than one legal move, whoever is to move."""
    game = parlour.make(name, players=players, rules=rules)
    k = 0
    while True:
        bots = [make_bot("hint", game, seed * 10 + q) for q in range(players)]
        state = game.new_game(seed=seed)
        while not state.is_over:
            p = state.to_play
            assert p is not None
            view = state.view(p)
            legal = state.legal_moves()
            if len(legal) > 1:
                k += 1
                if k % EVERY == 0:
                    yield Position(view, list(legal), seed, len(state.history))
            state.apply(bots[p].choose(view, legal))
        seed += 1


@functools.cache
def _game(name: str, rules: str, players: int) -> Any:
    return parlour.make(name, players=players, rules=rules)


def time_decision(
    name: str, rules: str, players: int, spec: str, position: Position, bot_class: Any = None
) -> float:
    """CPU seconds of one search of `position` by a fresh bot of `spec` (seeded by the position,
    so a run is repeatable); with `bot_class`, that class stands for `ismcts`."""
    return _decide(name, rules, players, spec, position, bot_class)[0]


def _decide(
    name: str, rules: str, players: int, spec: str, position: Position, bot_class: Any = None
) -> tuple[float, Move]:
    with _ismcts_is(bot_class):
        bot = make_bot(spec, _game(name, rules, players), position.seed * 1000 + position.ply)
    start = time.process_time()
    move = bot.choose(position.view, position.legal)
    return time.process_time() - start, move


@contextlib.contextmanager
def _ismcts_is(bot_class: Any) -> Iterator[None]:
    """`ismcts` names `bot_class` for the length of the block (None: this tree's, unchanged)."""
    if bot_class is None:
        yield
        return
    ours = base._GENERIC["ismcts"]
    base._GENERIC["ismcts"] = bot_class
    try:
        yield
    finally:
        base._GENERIC["ismcts"] = ours


def load_baseline(path: Path) -> Any:
    """The ISMCTSBot of another version of `parlour/bots/ismcts.py`, loaded beside this tree's
    as `parlour.bots._baseline_ismcts` (its relative imports find this tree's parlour); its
    registering itself as `ismcts` is undone, so `ismcts` still names this tree's bot. (A
    baseline from before the manifests' `SearchHelp` would search without the games' help.)"""
    spec = importlib.util.spec_from_file_location("parlour.bots._baseline_ismcts", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--baseline {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    ours = base._GENERIC["ismcts"]
    try:
        spec.loader.exec_module(module)
    finally:
        base._GENERIC["ismcts"] = ours
    # The games' manifests hold this tree's SearchHelp, which the baseline must take for its own.
    module.SearchHelp = ismcts.SearchHelp
    return module.ISMCTSBot


def decision_times(
    name: str, rules: str, players: int, spec: str, decisions: int, seed: int = 0
) -> list[float]:
    """CPU seconds of `decisions` searches of positions from real games (see `positions`)."""
    source = positions(name, rules, players, seed)
    return [time_decision(name, rules, players, spec, next(source)) for _ in range(decisions)]


def percentile(xs: Sequence[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least q% of `xs` at or below it."""
    ordered = sorted(xs)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summary(times: Sequence[float]) -> str:
    return (
        f"min {min(times):.3f}  median {statistics.median(times):.3f}  "
        f"p99 {percentile(times, 99):.3f}  max {max(times):.3f}  mean {statistics.fmean(times):.3f}"
    )


def verdict(times: Sequence[float]) -> str:
    med, p99 = statistics.median(times), percentile(times, 99)
    ok = med <= TARGET_MEDIAN and p99 <= TARGET_P99
    return "met" if ok else "NOT met"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--decisions", type=int, default=200, help="decisions a table (default 200)")
    ap.add_argument("--iterations", type=int, default=1000, help="ISMCTS iterations (default 1000)")
    ap.add_argument("--params", default="", help="more ismcts parameters, e.g. pool=50")
    ap.add_argument("--seed", type=int, default=2024, help="first game's seed (default 2024)")
    ap.add_argument("--only", help="only tables whose game name starts with one of these (a,b)")
    ap.add_argument(
        "--baseline",
        type=Path,
        help="another version of parlour/bots/ismcts.py to time on the same decisions",
    )
    args = ap.parse_args(argv)
    tables = [
        t for t in TABLES if not args.only or any(t[0].startswith(x) for x in args.only.split(","))
    ]
    spec = f"ismcts:iterations={args.iterations}" + (f",{args.params}" if args.params else "")
    out = Console(highlight=False, soft_wrap=True)
    out.print(
        f"parlour search speed: {spec}, {args.decisions} decisions a table from hint-bot games "
        f"(seed {args.seed}, every {EVERY}rd decision with a choice), CPU seconds on one core "
        f"(time.process_time); Python {platform.python_version()}"
    )
    out.print(
        f"target (issue 21): median <= {TARGET_MEDIAN} s and p99 <= {TARGET_P99} s a decision"
    )
    sources = {t: positions(*t, seed=args.seed) for t in tables}
    if args.baseline is not None:
        return _against_baseline(args, tables, spec, sources, out)
    times: dict[tuple[str, str, int], list[float]] = {t: [] for t in tables}
    with game_bar(
        "decisions", args.decisions * len(tables), Console(stderr=True), transient=True
    ) as advance:
        for _ in range(args.decisions):
            for t in tables:  # round-robin: the machine's load falls on every table alike
                times[t].append(time_decision(*t, spec, next(sources[t])))
                advance(1)
    for (name, rules, players), ts in times.items():
        out.print(
            f"{name:15s} {rules:12s} {players}p  n={len(ts)}  {summary(ts)}  s/decision  "
            f"{verdict(ts)}"
        )
    return 0


def _against_baseline(
    args: argparse.Namespace,
    tables: list[tuple[str, str, int]],
    spec: str,
    sources: dict[tuple[str, str, int], Iterator[Position]],
    out: Console,
) -> int:
    """Each decision searched by this tree's bot and the baseline's, in turn (which goes first
    alternates), and the figures side by side."""
    baseline = load_baseline(args.baseline)
    out.print(f"baseline: {args.baseline} (ismcts.py), each decision searched by both in turn")
    ours: dict[tuple[str, str, int], list[float]] = {t: [] for t in tables}
    theirs: dict[tuple[str, str, int], list[float]] = {t: [] for t in tables}
    same = dict.fromkeys(tables, 0)
    with game_bar(
        "decisions", args.decisions * len(tables), Console(stderr=True), transient=True
    ) as advance:
        for i in range(args.decisions):
            for t in tables:
                position = next(sources[t])
                if i % 2:
                    b, mb = _decide(*t, spec, position, baseline)
                    a, ma = _decide(*t, spec, position)
                else:
                    a, ma = _decide(*t, spec, position)
                    b, mb = _decide(*t, spec, position, baseline)
                ours[t].append(a)
                theirs[t].append(b)
                same[t] += ma == mb
                advance(1)
    for t in tables:
        name, rules, players = t
        ratios = [a / b for a, b in zip(ours[t], theirs[t], strict=True) if b > 0]
        out.print(f"{name:15s} {rules:12s} {players}p  n={len(ours[t])}")
        out.print(f"  this tree  {summary(ours[t])}  s/decision")
        out.print(f"  baseline   {summary(theirs[t])}  s/decision")
        out.print(
            f"  this / baseline, decision by decision: min {min(ratios):.3f}  "
            f"median {statistics.median(ratios):.3f}  max {max(ratios):.3f}; "
            f"same move in {same[t]} of {len(ours[t])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
