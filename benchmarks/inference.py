"""ISMCTS with inference over its determinizations, against plain ISMCTS and the cheating MCTS.

Plays pairings of bot specs on duplicate deals (each deal twice between two players, seats
swapped, the same seed: `SimSpec(duplicate=True)`) at one Whot! table, and prints each pairing's
rate with its paired 95% interval (`parlour.sim.stats.paired_rate`). Where two searchers met the
same reference on the same deals (`--gap PLAIN INFER REF`), it prints how much of the gap between
PLAIN and REF the other closes: INFER's rate against REF less PLAIN's, deal by deal (a paired 95%
interval), and that as a fraction of PLAIN's shortfall from an even game against REF (0.5 less
PLAIN's rate). Then CPU seconds a decision (min / median / max) of every spec on the same
positions (hint-played games, every fifth decision with a choice), the specs taking turns.

    .venv/bin/python benchmarks/inference.py --deals 200 --iterations 250 \\
        --pair ismcts~cheat-mcts --pair ismcts:infer=draws~cheat-mcts \\
        --gap ismcts ismcts:infer=draws cheat-mcts --rows build/inference.jsonl

`ismcts` in a spec gets `iterations=` from `--iterations` unless it names its own; so does
`cheat-mcts`. Rows are appended to `--rows` as each pairing finishes; `--from-rows` prints from
them again. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from rich.console import Console

from parlour.bots import make_bot
from parlour.bots.reference import make_reference_bot
from parlour.core.registry import make
from parlour.core.rng import GameRng
from parlour.sim import SimSpec, run
from parlour.sim.ladder import head_to_head
from parlour.sim.progress import game_bar
from parlour.sim.stats import paired_rate

Z95 = 1.959964


def with_budget(spec: str, iterations: int) -> str:
    name, _, params = spec.partition(":")
    if name not in ("ismcts", "cheat-mcts") or "iterations=" in params:
        return spec
    return f"{name}:{params + ',' if params else ''}iterations={iterations}"


def deal_scores(rows: list[dict[str, Any]], a: str, b: str) -> dict[tuple[Any, int], float]:
    """`a`'s mean score against `b` per deal (a win 1, a tie half), complete deals only."""
    by: dict[tuple[Any, int], list[float]] = defaultdict(list)
    for r in rows:
        if r["pairing"] == [a, b]:
            by[(r.get("seed"), int(r["game"]) // 2)].append(head_to_head([r], a, b).wins)
    return {k: sum(v) / len(v) for k, v in by.items() if len(v) == 2}


def interval(values: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(values)
    h = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return m, m - h, m + h


def play(pairs: list[tuple[str, str]], args: argparse.Namespace) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for a, b in pairs:
        spec = SimSpec(
            game="whot",
            players=2,
            bots=(a, b),
            rules=args.rules,
            seed=args.seed,
            duplicate=True,
            maker=make_reference_bot,
        )

        def keep(batch: list[dict[str, Any]], a: str = a, b: str = b) -> None:
            # each game kept as it finishes: a run stopped early still has its deals
            if args.rows:
                with open(args.rows, "a", encoding="utf-8") as out:
                    for r in batch:
                        out.write(json.dumps({**r, "pairing": [a, b]}) + "\n")

        with game_bar(f"{a} ~ {b}", 2 * args.deals, Console(stderr=True), transient=True) as tick:
            res = run(spec, 2 * args.deals, jobs=args.jobs, progress=tick, on_rows=keep)
        rows += [{**r, "pairing": [a, b]} for r in res.rows]
        if res.interrupted:
            break
    return rows


def report(rows: list[dict[str, Any]], gaps: list[list[str]], iterations: int) -> None:
    pairs: list[tuple[str, str]] = []
    for r in rows:
        p = (r["pairing"][0], r["pairing"][1])
        if p not in pairs:
            pairs.append(p)
    print("pairing: first's rate against second, duplicate deals, paired 95% interval")
    for a, b in pairs:
        sub = [r for r in rows if r["pairing"] == [a, b]]
        p = paired_rate(sub, 2, lambda r, a=a, b=b: head_to_head([r], a, b).wins)
        lo, hi = p.interval
        print(f"  {a} ~ {b}: {p.rate:.1%} [{lo:.1%}, {hi:.1%}] over {p.deals} deals")
    for plain, infer, ref in gaps:
        plain, infer, ref = (with_budget(x, iterations) for x in (plain, infer, ref))
        base = deal_scores(rows, plain, ref)
        new = deal_scores(rows, infer, ref)
        common = sorted(set(base) & set(new), key=str)
        if len(common) < 2:
            print(f"  gap {plain} -> {infer} against {ref}: too few common deals")
            continue
        diff = [new[k] - base[k] for k in common]
        m, lo, hi = interval(diff)
        short = 0.5 - statistics.fmean(base[k] for k in common)
        frac = f"{m / short:.0%} [{lo / short:.0%}, {hi / short:.0%}]" if short > 0 else "n/a"
        print(
            f"  gap closed against {ref}: {infer} scores {m * 100:+.1f} points "
            f"[{lo * 100:+.1f}, {hi * 100:+.1f}] over {plain} on {len(common)} common deals; "
            f"{plain} was {short * 100:.1f} points short of even: {frac} of the gap"
        )


def hint_positions(game: Any, seed: int) -> Iterator[tuple[Any, Any, list[Any], int]]:
    """Positions of hint-played games from `seed` on, for ever: every fifth decision of a game
    with a choice, as (the state, its mover's view, the legal moves, the decision's number in
    its game). The state is played on once the caller asks for the next one."""
    while True:
        st = game.new_game(seed=seed)
        hint = [make_bot("hint", game, seed=seed + s) for s in range(2)]
        k = 0
        while not st.is_over:
            p = st.to_play
            assert p is not None
            v, legal = st.view(p), st.legal_moves()
            k += 1
            if k % 5 == 0 and len(legal) > 1:
                yield st, v, legal, k
            st.apply(hint[p].choose(v, legal))
        seed += 1


def timing(specs: list[str], args: argparse.Namespace) -> None:
    game = make("whot", 2, args.rules)
    positions = [
        (v, legal) for _, v, legal, _ in islice(hint_positions(game, args.seed), args.decisions)
    ]
    cpu: dict[str, list[float]] = {s: [] for s in specs}
    for i, (v, legal) in enumerate(positions):
        for s in specs:
            if s.startswith("cheat-mcts"):
                continue
            bot = make_bot(s, game, seed=i)
            t = time.process_time()
            bot.choose(v, legal)
            cpu[s].append(time.process_time() - t)
    print(f"CPU seconds a decision over {len(positions)} positions (min / median / max):")
    for s, xs in cpu.items():
        if xs:
            print(f"  {s}: {min(xs):.3f} / {statistics.median(xs):.3f} / {max(xs):.3f}")


def diagnose(models: list[str], args: argparse.Namespace) -> None:
    """How much a model's weights know: on positions of hint-played games (the true hands known
    to this benchmark, never to the model), the share of uniformly drawn hands each model weighs
    down, and where the true hand's weight ranks among theirs (its percentile; 50% is no
    knowledge, ties counted half)."""
    from parlour.games.whot.inference import INFERENCE

    game = make("whot", 2, args.rules)
    print(f"the models' weights over {args.diagnose} positions of hint games, 100 draws each:")
    for name in models:
        model = INFERENCE[name](game, args.temp, args.noise, 8)
        down: list[float] = []
        ranks: list[float] = []
        for st, v, _, k in hint_positions(game, args.seed):
            if len(ranks) >= args.diagnose:
                break
            rng = random.Random(k)
            weigh = model.weigher(v, rng)
            if weigh is None:
                continue
            sample = game.sampler(v)
            drawn = [sample(GameRng(rng.getrandbits(63))) for _ in range(100)]
            w = weigh([st.copy(), *drawn])
            true, rest = w[0], w[1:]
            down.append(sum(x < 0 for x in rest) / len(rest))
            ranks.append(
                (sum(x < true for x in rest) + 0.5 * sum(x == true for x in rest)) / len(rest)
            )
        print(
            f"  infer={name}: draws weighed down {statistics.fmean(down):.0%} (median "
            f"{statistics.median(down):.0%}); the true hand's percentile among them "
            f"{statistics.fmean(ranks):.0%} (median {statistics.median(ranks):.0%})"
        )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="nigerian", help="Whot! preset (default nigerian)")
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals a pairing (200)")
    ap.add_argument("--iterations", type=int, default=1000, help="search budget (default 1000)")
    ap.add_argument("--pair", action="append", default=[], help="A~B: a pairing to play")
    ap.add_argument(
        "--gap", nargs=3, action="append", default=[], metavar=("PLAIN", "INFER", "REF")
    )
    ap.add_argument("--decisions", type=int, default=0, help="positions to time each spec on")
    ap.add_argument("--time", action="append", default=[], help="a spec to time (repeatable)")
    ap.add_argument(
        "--diagnose", type=int, default=0, help="positions to read the models' weights on"
    )
    ap.add_argument("--model", action="append", default=[], help="a model to diagnose (draws)")
    ap.add_argument("--noise", type=float, default=0.05, help="the models' noise (--diagnose)")
    ap.add_argument("--temp", type=float, default=0.1, help="the policy's temperature (--diagnose)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rows", help="append every game as a JSONL row to this file")
    ap.add_argument("--from-rows", nargs="+", help="print from saved rows instead of playing")
    args = ap.parse_args(argv)
    pairs = []
    for p in args.pair:
        a, sep, b = p.partition("~")
        if not sep:
            ap.error(f"--pair takes A~B, not {p!r}")
        pairs.append((with_budget(a, args.iterations), with_budget(b, args.iterations)))
    if args.from_rows:
        rows = [json.loads(x) for f in args.from_rows for x in Path(f).read_text().splitlines()]
    else:
        rows = play(pairs, args)
    if rows:
        report(rows, args.gap, args.iterations)
    if args.diagnose:
        diagnose(args.model or ["draws", "policy"], args)
    if args.decisions:
        timing([with_budget(s, args.iterations) for s in args.time], args)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
