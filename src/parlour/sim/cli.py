"""`parlour simulate` and `parlour tournament` (a plug-in of the `parlour` command)."""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlour.bots.levels import bot_specs, levels_help, split_specs
from parlour.core import RulesError
from parlour.core.options import parse_assignments
from parlour.core.registry import games, info
from parlour.extras import require

from .progress import game_bar
from .simulate import RunResult, SimSpec, run
from .stats import Rate, Summary, summarize

__all__ = ["add_commands", "write_rows"]

Handler = Callable[[argparse.Namespace, Console], int]


def add_commands(sub: Any, commands: dict[str, Handler]) -> None:
    s = sub.add_parser(
        "simulate",
        help="play many games between bots and summarise them",
        description="Play many games between bots, reproducibly; summarise win rates with 95% "
        "intervals, points, game lengths and the first player's advantage.",
        epilog=levels_help(sorted(games())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _common(s)
    s.add_argument(
        "--bots",
        "-b",
        default="random",
        help="comma-separated bot specs or levels in seat order, e.g. ismcts,hint,random,random "
        "or hard,easy (one name fills every seat); bots rotate round the table from game to "
        "game",
    )
    s.add_argument("--no-rotate", action="store_true", help="keep every bot in its seat")
    s.add_argument(
        "--out",
        "-o",
        help="write one row per game as it finishes (in game order once the run ends): "
        "FILE.csv or FILE.jsonl",
    )
    s.add_argument(
        "--plot",
        help="draw win rates and the game-length histogram: FILE.png (the plots extra)",
    )
    commands["simulate"] = cmd_simulate

    t = sub.add_parser(
        "tournament",
        help="play bots round-robin across seats and rate them (openskill)",
        description="Every choice of bots for the seats, each in every rotation, in turn; "
        "openskill (Plackett-Luce) ratings from the results.",
        epilog=levels_help(sorted(games())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _common(t)
    t.add_argument(
        "--bots", "-b", required=True, help="comma-separated bot specs or levels to rate"
    )
    t.add_argument(
        "--out",
        "-o",
        help="write one row per game as it finishes (in game order once the run ends): "
        "FILE.csv or FILE.jsonl",
    )
    commands["tournament"] = cmd_tournament


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="the game's name (see `parlour games`)")
    p.add_argument("--rules", "-r", help="rule preset name or house-rules .toml file")
    p.add_argument(
        "--set", "-s", action="append", metavar="KEY=VALUE", help="override one rule option"
    )
    p.add_argument("--players", "-p", type=int, help="table size (default: the number of bots)")
    p.add_argument("--games", "-n", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="local processes or Ray"
    )
    p.add_argument("--address", help="Ray cluster address (with --backend ray)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument(
        "--max-moves",
        type=int,
        metavar="N",
        help="cut a game short after N moves: no winner, a tie for every seat (default: no "
        "limit; some house rules let bots go round for ever)",
    )


def _spec(args: argparse.Namespace, tournament: bool) -> SimSpec:
    gi = info(args.game)
    asked = split_specs(args.bots)
    if not asked:
        raise RulesError("name at least one bot")
    players = args.players
    if players is None:
        players = len(asked) if len(asked) > 1 else gi.default_players
        players = max(gi.min_players, min(gi.max_players, players))
    # a level's name is its bot's spec, at this table (a level is offered where it was separated)
    preset = None if args.set else (args.rules or gi.default_preset)
    bots = tuple(bot_specs(args.bots, gi.name, preset, players))
    if not tournament and len(bots) == 1:
        bots = bots * players
    if args.games < 1:
        raise RulesError("--games must be at least 1")
    if args.max_moves is not None and args.max_moves < 1:
        raise RulesError("--max-moves must be at least 1")
    overrides = tuple(sorted(parse_assignments(args.set).items()))
    return SimSpec(
        game=gi.name,
        players=players,
        bots=bots,
        rules=args.rules,
        overrides=overrides,
        seed=args.seed,
        rotate=not getattr(args, "no_rotate", False),
        tournament=tournament,
        max_moves=args.max_moves,
    )


def _play(args: argparse.Namespace, spec: SimSpec, console: Console) -> RunResult:
    """Play the run; with --out each finished game's row is written as it comes (in the order
    games finish: `_finish` writes them again in the games' order once the run ends)."""
    if args.out:
        _check_out(args.out)
    spec.check()
    label = f"{spec.game} x{args.games}"
    writer = RowWriter(args.out, spec.players) if args.out else None
    on_rows = writer.add if writer is not None else None
    try:
        if args.quiet:
            return run(spec, args.games, args.jobs, args.backend, args.address, on_rows=on_rows)
        with game_bar(label, args.games, console) as advance:
            return run(
                spec, args.games, args.jobs, args.backend, args.address, advance, on_rows=on_rows
            )
    finally:
        if writer is not None:
            writer.close()


def _check_out(path: str) -> None:
    if not (path.endswith(".csv") or path.endswith(".jsonl")):
        raise RulesError(f"--out {path!r}: name a .csv or .jsonl file")


class RowWriter:
    """One row per game into a file as games finish: JSONL as is; CSV with a column per seat for
    bots, points and ranks (a header first). Each row is flushed, so a run killed outright keeps
    the games it finished."""

    def __init__(self, path: str | Path, players: int) -> None:
        self.path = Path(path)
        if self.path.suffix not in (".jsonl", ".csv"):
            raise RulesError(f"--out {str(path)!r}: name a .csv or .jsonl file")
        self.file = self.path.open("w", newline="")
        self.csv = csv.writer(self.file) if self.path.suffix == ".csv" else None
        if self.csv is not None:
            per_seat = [f"{k}_{s}" for k in ("bot", "points", "rank") for s in range(players)]
            self.csv.writerow(
                ["game", "seed", "first", "winners", "moves", "reason", "seconds", *per_seat]
            )
        self.file.flush()

    def add(self, rows: Sequence[dict[str, Any]]) -> None:
        for r in rows:
            if self.csv is None:
                self.file.write(json.dumps(r, separators=(",", ":")) + "\n")
            else:
                self.csv.writerow(
                    [
                        r["game"],
                        r["seed"],
                        r["first"],
                        " ".join(str(x) for x in r["winners"]),
                        r["moves"],
                        r["reason"],
                        r["seconds"],
                        *r["bots"],
                        *r["points"],
                        *r["ranks"],
                    ]
                )
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def write_rows(rows: Sequence[dict[str, Any]], path: str | Path, players: int) -> Path:
    """One row per game into a file, in the order given (see `RowWriter`)."""
    writer = RowWriter(path, players)
    try:
        writer.add(rows)
    finally:
        writer.close()
    return writer.path


def _rate_row(r: Rate, fair: float) -> list[str]:
    lo, hi = r.interval
    mark = "[green]above[/]" if lo > fair else "[red]below[/]" if hi < fair else "—"
    return [
        escape(r.label),
        f"{r.wins:g}/{r.trials}",
        f"{r.rate:.1%}",
        f"{lo:.1%} – {hi:.1%}",
        mark,
        f"{r.points:.2f}",
    ]


def print_summary(s: Summary, console: Console, title: str) -> None:
    fair = 1.0 / s.players
    for name, rates in (("by bot", s.by_bot), ("by seat", s.by_seat)):
        t = Table(title=f"{title}: win rate {name} ({s.games} games)")
        for col in ("", "wins", "win rate", "95% interval", f"vs fair {fair:.0%}", "mean points"):
            t.add_column(col, justify="right" if col else "left")
        for r in rates:
            t.add_row(*_rate_row(r, fair))
        console.print(t)
    f = s.first_player
    lo, hi = f.interval
    console.print(
        f"First player wins {f.rate:.1%} (95% {lo:.1%} – {hi:.1%}; fair share {fair:.1%}); "
        f"advantage {f.rate - fair:+.1%}."
    )
    console.print(
        f"Game length in moves: mean {s.length_mean:.1f}, median {s.length_median:g}, "
        f"p95 {s.length_p95:.1f}."
    )
    if s.cut_short:
        console.print(
            f"[yellow]{s.cut_short:,} of {s.games:,} games were cut short at --max-moves: each "
            "counts as a tie with no winner.[/]"
        )


def _finish(
    args: argparse.Namespace, spec: SimSpec, res: RunResult, console: Console
) -> Summary | None:
    if res.interrupted:
        console.print(
            f"[yellow]Stopped: {len(res.rows)} of {res.requested} games finished; keeping those.[/]"
        )
    if args.out:
        write_rows(res.rows, args.out, spec.players)
        console.print(f"Wrote {len(res.rows)} rows to {args.out}.")
    if not res.rows:
        return None
    return summarize(res.rows, spec.players)


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    spec = _spec(args, tournament=False)
    if args.plot and not str(args.plot).endswith(".png"):
        raise RulesError(f"--plot {args.plot!r}: name a .png file")
    if args.plot:  # said before the games are played, not after
        require("plots", "parlour simulate --plot", "matplotlib")
    res = _play(args, spec, console)
    s = _finish(args, spec, res, console)
    if s is not None:
        title = f"{spec.game} {spec.rules or ''} {spec.players}p".replace("  ", " ")
        print_summary(s, console, title)
        if args.plot:
            from .plots import plot_summary

            plot_summary(s, args.plot, title=f"{title}: {', '.join(spec.bots)}")
            console.print(f"Plot written to {args.plot}.")
    console.print(f"{len(res.rows)} games in {res.seconds:.1f} s (seed {spec.seed}).")
    return 130 if res.interrupted else 0


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    spec = _spec(args, tournament=True)
    res = _play(args, spec, console)
    s = _finish(args, spec, res, console)
    if s is None:
        return 130 if res.interrupted else 0
    from .ratings import rate_games

    t = Table(title=f"{spec.game} tournament, {spec.players} seats, {len(res.rows)} games")
    for col in ("bot", "ordinal (mu-3σ)", "mu", "sigma", "games", "win rate", "95% interval"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    by_bot = {r.label: r for r in s.by_bot}
    for r in rate_games(res.rows):
        rate = by_bot[r.bot]
        lo, hi = rate.interval
        t.add_row(
            escape(r.bot),
            f"{r.ordinal:.2f}",
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            str(r.games),
            f"{rate.rate:.1%}",
            f"{lo:.1%} – {hi:.1%}",
        )
    console.print(t)
    return 130 if res.interrupted else 0
