"""The bot ladder: every bot in every game, rated with intervals, and the difficulty levels.

Plays each bot against its neighbours in strength (`--reach`; 0: against every other bot) in each
game of TABLES, with fixed seeds (every pairing plays the same deals) and the two bots alternating
round the table, turned one seat a game, so each sits every seat equally often
(`parlour.sim.ladder`). Prints per game the openskill ratings with 95% intervals, each pairing's
head-to-head rate with its 95% Wilson interval, and min/median/max seconds a game.

Two players in the pool are references, not bots anyone can choose (`parlour.bots.reference`):
`cheat-mcts` reads the full state — it CHEATS, by design, as a ceiling — and `openspiel-ismcts`
is OpenSpiel's ISMCTS through `parlour.adapters.openspiel`.

With `--duplicate` every deal is played once per seat assignment with the same seed (between two
players: twice, seats swapped; `SimSpec(duplicate=True)`), so that the deal's luck cancels, and a
pairing's rate is the mean over deals with its 95% interval from the deals' spread (the paired
design: `parlour.sim.stats.paired_rate`); `--games` is then the number of deals.

With `--write-levels` it writes the difficulty levels of LEVELS with each level's measured rate
against the level below to src/parlour/bots/levels.json, which the lobby and `--bots` read.
`--rows FILE` keeps every game as a JSONL row; `--from-rows FILE ...` prints (and writes) from
such files again without playing.

    .venv/bin/python benchmarks/ladder.py            # the full ladder: many CPU hours
    .venv/bin/python benchmarks/ladder.py --only whot-storey-1935 --games 40 --reach 1
    .venv/bin/python benchmarks/ladder.py --from-rows build/ladder.jsonl --write-levels
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import resource
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from parlour.bots.levels import LEVEL_NAMES, LEVELS_FILE, split_specs
from parlour.bots.reference import make_reference_bot
from parlour.core import RulesError
from parlour.sim import SimSpec, run
from parlour.sim.ladder import head_to_head, ladder_ratings, lineup, pairings
from parlour.sim.progress import game_bar
from parlour.sim.stats import paired_rate


@dataclass(frozen=True)
class Table:
    game: str
    rules: str
    players: int


TABLES = {
    "whot-nigerian": Table("whot", "nigerian", 2),
    "whot-storey-1935": Table("whot", "storey-1935", 2),
    "sorry": Table("sorry", "regular", 4),
    "whoswho-tricks": Table("whoswho-tricks", "standard", 4),
    "whoswho-books": Table("whoswho-books", "standard", 4),
}

# Weakest first, as far as is known: `--reach` pairs each with the bots listed after it.
BOTS = (
    "random",
    "greedy",
    "hint",
    "counter",  # Whot! only: greedy's race with the cards counted (left out at the other tables)
    "learned",  # Whot! only: the trained network (master), where weights ship for the table
    "sleuth",  # Who's Who Game No. 2 only
    "detective",  # Who's Who Game No. 2 only: the sleuth, also reading what a caller lacks
    "lookahead",  # Who's Who Game No. 1 only
    "expectimax",  # Sorry! only: every card the others may draw counted, not sampled
    "ismcts:iterations=100",
    "ismcts:iterations=300",
    "ismcts:iterations=1000",
    "openspiel-ismcts:simulations=100",
    "cheat-mcts:iterations=1000",
)

# The bot of each level per game, easiest first, chosen on this ladder's figures (docs/bots.md,
# "Ladder"): as many levels (at most easy, medium, hard, expert) as the ladder separates — each
# beats the level below with its whole 95% interval above 50% on every table of the game. Each
# level's pairing with the one below is always played.
# Measured on 2026-11-26 (docs/lab/ladder.md has the figures): in Whot! greedy beats hint, no search
# was separated from greedy, and counter beats greedy (52.8% nigerian, 51.9% storey-1935 over
# 20,000 games each, both intervals above 50%: build/ladder/r10*-whot-counter*.jsonl); in Sorry!
# and Who's Who Game No. 1 greedy and hint, level over 400 games, were told apart over 4,000 (each
# game the other way round), and the search or the lookahead beats the stronger of the two; in
# Game No. 2 (where hint and greedy are one bot) the sleuth and the detective beat hint.
# Whot!'s master is the learned bot, measured against counter on duplicate deals (--duplicate;
# docs/bots.md, "The learned bot").
LEVELS: dict[str, tuple[str, ...]] = {
    "whot": ("random", "hint", "greedy", "counter", "learned"),
    # greedy beats hint in 52.2% [50.7%, 53.8%] of 4,000 games (seed 2024, r15-greedy-hint; level
    # over r0's 400), ismcts beats greedy in 58.0% [54.5%, 61.4%] of 800 (r15-sorry-greedy-ismcts)
    "sorry": ("random", "hint", "greedy", "ismcts:iterations=100"),
    # hint beats greedy in 53.3% [51.7%, 54.8%] of 4,000 games (seed 2024, r15-greedy-hint);
    # lookahead beats hint in 54.4% [52.6%, 56.2%] of 3,000 games (seed 2024, r11-tricks-lookahead)
    "whoswho-tricks": ("random", "greedy", "hint", "lookahead"),
    # sleuth beats hint in 67.0% [65.0%, 69.1%] of 2,000 games (seed 2024, r11-books-sleuth),
    # detective beats sleuth in 61.8% [59.6%, 63.9%] of 2,000 (seed 2024, r14-books-detective)
    "whoswho-books": ("random", "hint", "sleuth", "detective"),
}

REFERENCE_NOTE = {
    "cheat-mcts": "REFERENCE, CHEATS: reads the full state",
    "openspiel-ismcts": "reference: OpenSpiel's ISMCTS",
}


def label(bot: str) -> str:
    """The bot's spec, with what a reference is."""
    note = REFERENCE_NOTE.get(bot.partition(":")[0])
    return f"{bot}  [{note}]" if note else bot


def level_pairs(game: str, pool: Sequence[str]) -> list[tuple[str, str]]:
    bots = LEVELS.get(game, ())
    return [(a, b) for a, b in itertools.pairwise(bots) if a in pool and b in pool]


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def playable(bot: str, table: Table) -> str | None:
    """Why `bot` cannot play at `table` (None: it can)."""
    spec = SimSpec(
        game=table.game,
        players=table.players,
        bots=lineup(bot, bot, table.players),
        rules=table.rules,
        maker=make_reference_bot,
    )
    try:
        spec.check()
    except RulesError as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class Figure:
    """A pairing's rate with its 95% interval: Wilson's over games, or over duplicate deals the
    paired one."""

    rate: float
    low: float
    high: float
    games: int
    wins: float
    deals: int | None  # duplicate deals (None: independent games)


def pairing_figure(rows: list[dict[str, Any]], a: str, b: str, players: int) -> Figure:
    """How often `a` finished ahead of `b` in the games of `rows` where both played."""
    h = head_to_head(rows, a, b)
    lo, hi = h.interval
    if rows and all(r.get("duplicate") for r in rows):

        def ahead(r: dict[str, Any]) -> float:
            return head_to_head([r], a, b).wins

        p = paired_rate(rows, players, ahead)
        if p.deals:
            lo, hi = p.interval
            return Figure(p.rate, lo, hi, p.games, p.rate * p.games, p.deals)
    return Figure(h.rate, lo, hi, h.trials, h.wins, None)


def play_table(
    key: str,
    table: Table,
    pairs: list[tuple[str, str]],
    games: int,
    jobs: int,
    seed: int,
    duplicate: bool = False,
    max_moves: int | None = None,
) -> list[dict[str, Any]]:
    """Every pairing's games at one table, each row marked with its table and pairing. With
    `duplicate`, `games` deals, each played once per seat assignment; a game still going after
    `max_moves` moves is a tie with no winner."""
    rows: list[dict[str, Any]] = []
    if duplicate:
        games *= table.players
    label_ = f"{key} {len(pairs)} pairings"
    # A bar on stderr while the games run (gone when they are done); the figures go to stdout.
    with game_bar(label_, games * len(pairs), Console(stderr=True), transient=True) as tick:
        for a, b in pairs:
            spec = SimSpec(
                game=table.game,
                players=table.players,
                bots=lineup(a, b, table.players),
                rules=table.rules,
                seed=seed,
                duplicate=duplicate,
                maker=make_reference_bot,
                max_moves=max_moves,
            )
            res = run(spec, games, jobs=jobs, progress=tick)
            for r in res.rows:
                rows.append({**r, "table": key, "pairing": [a, b], "duplicate": duplicate})
            if res.interrupted:
                raise KeyboardInterrupt
    return rows


def print_table(key: str, table: Table, rows: list[dict[str, Any]]) -> None:
    pairs: list[tuple[str, str]] = []
    for r in rows:
        p = (r["pairing"][0], r["pairing"][1])
        if p not in pairs:
            pairs.append(p)
    per = {p: [r for r in rows if (r["pairing"][0], r["pairing"][1]) == p] for p in pairs}
    counts = sorted({len(v) for v in per.values()})
    print(
        f"\n== {key}: {table.game} {table.rules}, {table.players} players — {len(rows)} games, "
        f"{len(pairs)} pairings of {'/'.join(map(str, counts))} games =="
    )
    print("ratings (openskill Plackett-Luce; 95% interval mu ± 1.96 sigma), strongest first:")
    for i, r in enumerate(ladder_ratings(rows), 1):
        print(
            f"  {i}. {label(r.bot):58s} mu {r.mu:5.1f}  [{r.low:5.1f}, {r.high:5.1f}]"
            f"  games {r.games:5d}  wins {r.wins / r.games:6.1%}"
        )
    print(
        "head to head (first bot ahead of the second; 95% interval: Wilson's over games, or over"
        " duplicate deals the paired one), seconds a game:"
    )
    for a, b in pairs:
        h = pairing_figure(per[(a, b)], a, b, table.players)
        secs = [float(r["seconds"]) for r in per[(a, b)]]
        verdict = "above" if h.low > 0.5 else "below" if h.high < 0.5 else "not separated from"
        n = f"deals={h.deals:5d}" if h.deals is not None else f"n={h.games:5d}"
        print(
            f"  {a:34s} vs {b:34s} {h.rate:6.1%}  [{h.low:5.1%}, {h.high:5.1%}]  {n}  "
            f"{verdict} 50%  s/game min {min(secs):.2f} median {statistics.median(secs):.2f} "
            f"max {max(secs):.2f}"
        )


def levels_entry(game: str, tables: dict[str, list[dict[str, Any]]]) -> Any:
    """The levels of `game` with each one's rate against the level below on each of its tables,
    and the ladder commands that played those games."""
    bots = LEVELS[game]
    commands = sorted(
        {str(r["command"]) for k, rows in tables.items() if TABLES[k].game == game for r in rows}
    )
    if not 1 <= len(bots) <= len(LEVEL_NAMES):
        raise SystemExit(f"{game}: from 1 to {len(LEVEL_NAMES)} levels, not {len(bots)}")
    out = []
    for k, (name, bot) in enumerate(zip(LEVEL_NAMES, bots, strict=False)):
        vs_below = []
        for key, rows in tables.items():
            table = TABLES[key]
            if k == 0 or table.game != game:
                continue
            below = bots[k - 1]
            played = [r for r in rows if set(r["pairing"]) == {below, bot}]
            if not played:
                raise SystemExit(f"{key}: no games of {bot} against {below} (level {name})")
            h = pairing_figure(played, bot, below, table.players)
            verdict = "above" if h.low > 0.5 else "NOT above"
            over = f"{h.deals} duplicate deals" if h.deals is not None else f"{h.games} games"
            print(
                f"  {game} {name} {bot} vs {LEVEL_NAMES[k - 1]} {below} at {key}: {h.rate:.1%} "
                f"[{h.low:.1%}, {h.high:.1%}] over {over}, {verdict} 50%"
            )
            entry: dict[str, Any] = {
                "rules": table.rules,
                "players": table.players,
                "wins": round(h.wins, 1),
                "games": h.games,
                "rate": round(h.rate, 4),
                "low": round(h.low, 4),
                "high": round(h.high, 4),
            }
            if h.deals is not None:
                entry["deals"] = h.deals
            vs_below.append(entry)
        out.append({"name": name, "bot": bot, "vs_below": vs_below})
    today = datetime.date.today().isoformat()
    return {"command": "; ".join(commands), "written": today, "levels": out}


def write_levels(tables: dict[str, list[dict[str, Any]]], path: Path) -> None:
    """Write the levels of every game measured here; keep the other games' entries."""
    old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"games": {}}
    games = sorted({TABLES[k].game for k in tables} & set(LEVELS))
    print("\nlevels, each against the level below (95% interval: Wilson's, or paired over deals):")
    data = {
        "about": "Written by benchmarks/ladder.py --write-levels (docs/lab/ladder.md): the bot "
        "of each level, and its rate against the level below on the ladder. Do not edit.",
        "games": {**old["games"], **{g: levels_entry(g, tables) for g in games}},
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"\nwrote the levels of {', '.join(games)} to {path}")


def read_rows(paths: Sequence[str]) -> list[dict[str, Any]]:
    """The rows of several runs. A game played again — the same table, pairing, seed and index —
    is the same game (the seed decides the deal and the bots' choices) and is counted once."""
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for line in filter(str.strip, f):
                r = json.loads(line)
                rows.setdefault((r["table"], *r["pairing"], r["seed"], r["game"]), r)
    return list(rows.values())


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    ap.add_argument(
        "--games-4p", type=int, help="games per pairing at tables of four (default: --games)"
    )
    ap.add_argument("--only", help=f"comma-separated tables (default all: {', '.join(TABLES)})")
    ap.add_argument("--bots", help="comma-separated bot specs, weakest first (default: BOTS)")
    ap.add_argument(
        "--reach",
        type=int,
        default=0,
        help="each bot plays the next N bots of the list (default 0: every other bot)",
    )
    ap.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per seat assignment (2 players: twice, swapped) with the same "
        "seed, and give intervals from the paired design; --games counts deals",
    )
    ap.add_argument(
        "--max-moves",
        type=int,
        help="cut a game still going after this many moves, a tie with no winner (default: no "
        "cap; two bots can go round for ever under some rules)",
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rows", help="write every game as a row to this JSONL file")
    ap.add_argument("--from-rows", nargs="+", help="print from saved rows instead of playing")
    ap.add_argument(
        "--write-levels", action="store_true", help=f"write the levels of LEVELS to {LEVELS_FILE}"
    )
    args = ap.parse_args(argv)
    keys = args.only.split(",") if args.only else list(TABLES)
    unknown = [k for k in keys if k not in TABLES]
    if unknown:
        ap.error(f"no table {', '.join(unknown)}; the tables are {', '.join(TABLES)}")
    command = "benchmarks/ladder.py " + shlex.join(sys.argv[1:] if argv is None else argv)

    tables: dict[str, list[dict[str, Any]]] = {}
    if args.from_rows:
        for r in read_rows(args.from_rows):
            if r["table"] in keys:
                tables.setdefault(r["table"], []).append(r)
    else:
        pool = split_specs(args.bots) if args.bots else list(BOTS)
        print(f"parlour bot ladder: seed {args.seed}, --jobs {args.jobs}, reach {args.reach}")
        out = open(args.rows, "w", encoding="utf-8") if args.rows else None  # noqa: SIM115
        try:
            for key in keys:
                table = TABLES[key]
                here = []
                for bot in pool:
                    why = playable(bot, table)
                    if why:
                        print(f"{key}: leaving out {bot}: {why}")
                    else:
                        here.append(bot)
                pairs = pairings(here, args.reach, level_pairs(table.game, here))
                games = args.games_4p if table.players > 2 and args.games_4p else args.games
                t0, c0 = time.perf_counter(), cpu_seconds()
                rows = play_table(
                    key, table, pairs, games, args.jobs, args.seed, args.duplicate, args.max_moves
                )
                for r in rows:
                    r["command"] = command
                    if out is not None:
                        out.write(json.dumps(r, separators=(",", ":")) + "\n")
                if out is not None:
                    out.flush()
                tables[key] = rows
                print_table(key, table, rows)
                print(
                    f"  {time.perf_counter() - t0:.0f} s wall, {cpu_seconds() - c0:.0f} CPU s",
                    flush=True,
                )
        finally:
            if out is not None:
                out.close()
    if args.from_rows:
        for key in keys:
            if key in tables:
                print_table(key, TABLES[key], tables[key])
    if args.write_levels:
        write_levels(tables, LEVELS_FILE)


if __name__ == "__main__":
    main()
