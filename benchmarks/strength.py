"""Bot strength: hint vs random and ismcts vs hint in every game, with 95% Wilson intervals.

"Beats" means wins more than its fair share (1/players) with the whole 95% interval above it.
Targets (issue 5): hint beats random in every game; ismcts (1,000 iterations) beats hint in every
game, above 55% in 2-player Whot!, at no more than 0.3 s a move on one core. Also prints ISMCTS
seconds per move — CPU seconds (time.process_time) on one core, so other load on the machine does
not inflate them — and the copy()/apply() speeds the search rests on.

    .venv/bin/python benchmarks/strength.py     # defaults: about an hour on 2 idle cores (--jobs 2)
    .venv/bin/python benchmarks/strength.py --only sorry --ismcts-games-4p 400
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console

import parlour
from parlour.bots import make_bot
from parlour.sim import SimSpec, run, summarize
from parlour.sim.progress import game_bar

TABLES = [
    ("whot", "nigerian", 2),
    ("whot", "storey-1935", 2),
    ("sorry", "regular", 4),
    ("whoswho-tricks", "standard", 4),
]


def speeds(name: str, rules: str, players: int, seconds: float = 1.5) -> tuple[float, float]:
    """Mean microseconds of copy() and of legal_moves()+apply() over hint-played games."""
    game = parlour.make(name, players=players, rules=rules)
    rng = random.Random(1)
    bots = [make_bot("hint", game, q) for q in range(players)]
    n_copy = n_step = 0
    t_copy = t_step = 0.0
    end = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < end:
        s = game.new_game(seed=seed)
        seed += 1
        while not s.is_over:
            p = s.to_play
            assert p is not None
            m = bots[p].choose(s.view(p), s.legal_moves())
            t0 = time.perf_counter()
            s.copy()
            t1 = time.perf_counter()
            s.legal_moves()
            s.apply(m)
            t2 = time.perf_counter()
            t_copy += t1 - t0
            t_step += t2 - t1
            n_copy += 1
            n_step += 1
        _ = rng
    return t_copy / n_copy * 1e6, t_step / n_step * 1e6


def ismcts_seconds(
    name: str, rules: str, players: int, spec: str, decisions: int
) -> tuple[float, float]:
    """Median and mean CPU seconds (time.process_time, so other load on the machine does not count)
    per ISMCTS decision, over positions with a real choice spread through hint-played games: every
    third such decision of seat 0, until `decisions` are timed."""
    game = parlour.make(name, players=players, rules=rules)
    hint = make_bot("hint", game, 0)
    times: list[float] = []
    seed = 0
    k = 0
    while len(times) < decisions:
        s = game.new_game(seed=seed)
        seed += 1
        bot = make_bot(spec, game, seed)
        while not s.is_over and len(times) < decisions:
            p = s.to_play
            assert p is not None
            legal = s.legal_moves()
            if p == 0 and len(legal) > 1:
                k += 1
                if k % 3 == 0:
                    t0 = time.process_time()
                    bot.choose(s.view(p), legal)
                    times.append(time.process_time() - t0)
            s.apply(hint.choose(s.view(p), legal))
    return statistics.median(times), statistics.fmean(times)


def match(
    name: str,
    rules: str,
    players: int,
    hero: str,
    rest: str,
    games: int,
    jobs: int,
    seed: int,
    target: float | None = None,
) -> str:
    spec = SimSpec(
        game=name, players=players, bots=(hero, *[rest] * (players - 1)), rules=rules, seed=seed
    )
    t0 = time.perf_counter()
    # A bar on stderr while the games run (gone when they are done); the figures go to stdout.
    with game_bar(f"{name} {hero} vs {rest}", games, Console(stderr=True), transient=True) as tick:
        res = run(spec, games, jobs=jobs, progress=tick)
    s = summarize(res.rows, players)
    r = next(b for b in s.by_bot if b.label == hero)
    lo, hi = r.interval
    fair = 1 / players
    verdict = "BEATS" if lo > fair else ("loses" if hi < fair else "not separated")
    if target is not None:
        verdict += f"; {'above' if r.rate > target else 'NOT above'} {target:.0%}"
        verdict += f" (interval {'wholly above' if lo > target else 'reaches below'} it)"
    return (
        f"{name:15s} {rules:12s} {players}p  {hero:22s} vs {rest:7s} "
        f"{r.rate:6.1%}  [{lo:5.1%}, {hi:5.1%}]  n={r.trials:4d}  fair {fair:.0%}  {verdict}"
        f"  ({time.perf_counter() - t0:.0f} s)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hint-games", type=int, default=400, help="games of hint vs random")
    ap.add_argument("--ismcts-games", type=int, default=300, help="games of ismcts vs hint (Whot!)")
    ap.add_argument(
        "--ismcts-games-4p", type=int, default=600, help="games of ismcts vs hint (4-player games)"
    )
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument(
        "--params", default="", help="more ismcts parameters, e.g. paired=1,c=0.2 (default: none)"
    )
    ap.add_argument("--decisions", type=int, default=40, help="ISMCTS decisions timed per game")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--only", help="comma-separated games to run (e.g. whot,sorry)")
    args = ap.parse_args()
    tables = [t for t in TABLES if not args.only or t[0] in args.only.split(",")]
    hero = f"ismcts:iterations={args.iterations}" + (f",{args.params}" if args.params else "")

    print(f"parlour strength benchmark: --jobs {args.jobs}, seed {args.seed}")
    print("== engine speed (hint-played games, one core, wall clock) ==")
    for name, rules, players in tables:
        c, a = speeds(name, rules, players)
        print(f"{name:15s} {rules:12s} {players}p  copy() {c:6.1f} us  legal+apply {a:6.1f} us")
    print(
        f"\n== ISMCTS CPU seconds per move on one core (time.process_time), {args.iterations} "
        f"iterations, {args.decisions} decisions =="
    )
    for name, rules, players in tables:
        med, mean = ismcts_seconds(name, rules, players, hero, args.decisions)
        ok = "within" if med <= 0.3 else "OVER"
        print(
            f"{name:15s} {rules:12s} {players}p  median {med:.3f} s/move  mean {mean:.3f}"
            f"  ({ok} the 0.3 s target)"
        )
    print("\n== strength (95% Wilson intervals; bots rotate through the seats) ==")
    for name, rules, players in tables:
        if args.hint_games > 0:  # 0 skips the match (when only the search is being measured)
            print(
                match(name, rules, players, "hint", "random", args.hint_games, args.jobs, args.seed)
            )
    for name, rules, players in tables:
        n = args.ismcts_games if players == 2 else args.ismcts_games_4p
        if n <= 0:
            continue
        target = 0.55 if name == "whot" else None
        print(
            match(name, rules, players, hero, "hint", n, args.jobs, args.seed, target), flush=True
        )


if __name__ == "__main__":
    main()
