"""Random-play speed of the batched Whot! engine (`parlour.games.whot.batched`) beside the scalar
engine and OpenSpiel's C++ loop, in moves per CPU-second, and a large parity check.

    python benchmarks/vector_speed.py                  # 2 CPU-s per figure in 5 rounds
    python benchmarks/vector_speed.py --quick          # a short smoke run
    python benchmarks/vector_speed.py --parity 100000  # parity over 100,000 games, then exit

Every figure counts moves (player decisions) per second of CPU time (`time.process_time`), so a
busy machine slows the clock and the work alike. Each figure's time is split into rounds taken in
turn with the other figures (as `_timing.measure_interleaved` does), and the table gives the
minimum, median and maximum of the per-round rates.

* vector: `WhotBatch` stepping B games in lockstep. Each step draws a uniformly random legal
  action per game from the legal bits (`pick_legal`, a NumPy generator), applies it, and puts a
  new game (the next seed) in place of every game that ended (`Dealer`, dealing ahead in
  chunks). So all B games move at every step, and dealing is timed: the "resets" column gives its
  share of the time and its cost per game. No observations are made.
* vector env: `WhotVectorEnv.step`, the same play through Gymnasium's API: observations (B, obs)
  float32 and masks (B, 57) every step, next-step autoreset.
* scalar: parlour's Whot! engine, one game at a time in Python, the loop of
  `benchmarks/whot_speed.py` (`random.Random(seed).choice(state.legal_moves())`).
* OpenSpiel: `crazy_eights` played by `pyspiel.evaluate_bots` with C++ uniform random bots: the
  whole loop (chance sampling, legal actions, the bots' choices, applying) runs in C++; Python
  only starts each game. Moves are decisions (plays, draws, suit nominations, passes); the
  "+chance" column adds the chance outcomes (deal and draws), the stricter reading. Decisions are
  counted from the finished game's history outside the timed region.

Nothing is asserted: the script only prints figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from whot_speed import (
    cpu_name,
    dist_version,
    fmt,
    import_parlour,
    optional_import,
    parlour_player,
)

PRESETS = ("nigerian", "storey-1935")
PLAYER_COUNTS = (2, 4)
BATCHES = (256, 1024, 4096, 16384)
TARGET_B = 4096
MAX_MOVES = 1_000_000  # the scalar loop's cap per game, as in whot_speed.py


@dataclass
class Slice:
    """What one runner did in one round."""

    moves: int
    seconds: float
    games: int = 0
    chance: int = 0
    reset_seconds: float = 0.0


@dataclass
class Plan:
    """One figure: an engine, rules, table size and batch, and its rounds."""

    engine: str  # vector, env, scalar, openspiel
    rules: str
    players: int
    batch: int  # games stepped together (1 for the one-game loops)
    run: Callable[[float], Slice]
    slices: list[Slice] = field(default_factory=list)

    @property
    def rates(self) -> list[float]:
        return [s.moves / s.seconds for s in self.slices if s.seconds > 0]

    @property
    def median(self) -> float:
        return statistics.median(self.rates) if self.rates else 0.0

    def total(self, attr: str) -> float:
        return float(sum(getattr(s, attr) for s in self.slices))


# --- runners ----------------------------------------------------------------------------------


def vector_runner(whot: ModuleType, rules: str, players: int, b: int, seed: int) -> Plan:
    from parlour.vector import Dealer

    batch = whot.WhotBatch(players, rules)
    dealer = Dealer(batch, first_seed=seed, chunk=max(256, min(b, 4096)))
    rng = np.random.default_rng(seed)
    state = dealer.next(b)
    for _ in range(3):  # warm up (untimed): first calls, lazily built NumPy internals
        state = batch.step(state, whot.pick_legal(state.legal, rng.random(b)))
        dealer.replace(state, np.flatnonzero(state.done))

    def run(seconds: float) -> Slice:
        nonlocal state
        clock = time.process_time
        pick, step, replace = whot.pick_legal, batch.step, dealer.replace
        moves = games = 0
        resetting = 0.0
        start = clock()
        while True:
            for _ in range(8):
                state = step(state, pick(state.legal, rng.random(b)))
                moves += b  # every game moves: the ended ones were replaced after the last step
                over = np.flatnonzero(state.done)
                if over.size:
                    t = clock()
                    replace(state, over)
                    resetting += clock() - t
                    games += int(over.size)
            elapsed = clock() - start
            if elapsed >= seconds:
                return Slice(moves, elapsed, games, reset_seconds=resetting)

    return Plan("vector", rules, players, b, run)


def env_runner(whot: ModuleType, rules: str, players: int, b: int, seed: int) -> Plan:
    from parlour.games.whot.batched.env import WhotVectorEnv

    env = WhotVectorEnv(b, players=players, rules=rules)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    pick = whot.pick_legal

    def run(seconds: float) -> Slice:
        clock = time.process_time
        moves = games = 0
        start = clock()
        while True:
            for _ in range(8):
                # The legal bits behind info["action_mask"]: the sampling is not the env's cost.
                actions = pick(env.state.legal, rng.random(b))
                _, _, terminated, _, info = env.step(actions)
                moves += int((info["mover"] >= 0).sum())
                games += int(terminated.sum())
            elapsed = clock() - start
            if elapsed >= seconds:
                return Slice(moves, elapsed, games)

    return Plan("env", rules, players, b, run)


def scalar_runner(parlour: ModuleType, rules: str, players: int, seed: int) -> Plan:
    play, _ = parlour_player(parlour, players, rules, MAX_MOVES)
    next_seed = seed
    for i in range(2):
        play(seed + 1_000_000_000 + i)  # warm up

    def run(seconds: float) -> Slice:
        nonlocal next_seed
        clock = time.process_time
        moves = games = 0
        start = clock()
        while True:
            moves += play(next_seed).moves
            next_seed += 1
            games += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                return Slice(moves, elapsed, games)

    return Plan("scalar", rules, players, 1, run)


def openspiel_runner(pyspiel: ModuleType, players: int, seed: int) -> Plan:
    game = pyspiel.load_game("crazy_eights", {"players": players})
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
    next_seed = seed

    def run(seconds: float) -> Slice:
        nonlocal next_seed
        clock = time.process_time
        moves = chance = games = 0
        spent = 0.0
        while spent < seconds:
            t = clock()
            state = game.new_initial_state()
            pyspiel.evaluate_bots(state, bots, next_seed)
            spent += clock() - t
            next_seed += 1
            games += 1
            history = state.full_history()  # counted outside the timed region
            c = sum(1 for item in history if item.player == pyspiel.PlayerId.CHANCE)
            chance += c
            moves += len(history) - c
        return Slice(moves, spent, games, chance=chance)

    run(0.05)  # warm up
    return Plan("openspiel", "crazy_eights", players, 1, run)


# --- the run ----------------------------------------------------------------------------------


def deal_cost(whot: ModuleType, rules: str, players: int, games: int) -> tuple[float, float]:
    """CPU microseconds per game to seed (CPython's random.Random) and to deal in all."""
    from parlour.vector import _mt as mt

    batch = whot.WhotBatch(players, rules)
    seeds = np.arange(10**9, 10**9 + games)
    t = time.process_time()
    mt.seed_block(seeds.tolist())
    seeding = time.process_time() - t
    t = time.process_time()
    batch.deal(seeds)
    dealing = time.process_time() - t
    return seeding / games * 1e6, dealing / games * 1e6


def print_table(plans: Sequence[Plan]) -> None:
    head = (
        f"{'engine':<10} {'rules':<12} {'pl':>2} {'B':>6} {'min':>10} {'median':>10} "
        f"{'max':>10} {'games':>9} {'moves/game':>10} {'resets':>16} {'+chance med':>12}"
    )
    print("moves per CPU-second, per round (min / median / max)")
    print(head)
    print("-" * len(head))
    for p in plans:
        rates = p.rates
        games = p.total("games")
        moves = p.total("moves")
        per_game = fmt(moves / games, 1) if games else "-"
        resets = "-"
        if p.engine == "vector" and games:
            share = p.total("reset_seconds") / p.total("seconds")
            resets = f"{share:5.1%} {p.total('reset_seconds') / games * 1e6:5.1f}µs/g"
        with_chance = "-"
        if p.engine == "openspiel":
            with_chance = fmt(statistics.median((s.moves + s.chance) / s.seconds for s in p.slices))
        print(
            f"{p.engine:<10} {p.rules:<12} {p.players:>2} {p.batch:>6} {fmt(min(rates)):>10} "
            f"{fmt(p.median):>10} {fmt(max(rates)):>10} {int(games):>9,} {per_game:>10} "
            f"{resets:>16} {with_chance:>12}"
        )


def print_ratios(plans: Sequence[Plan]) -> None:
    spiel = {p.players: p for p in plans if p.engine == "openspiel"}
    scalar = {(p.rules, p.players): p for p in plans if p.engine == "scalar"}
    vectors = [p for p in plans if p.engine == "vector"]
    if not vectors:
        return
    largest = max(p.batch for p in vectors)
    shown = sorted({TARGET_B, largest} & {p.batch for p in vectors})
    print()
    print(
        "Ratios of medians, measured in this run (target: vector ≥ 1× OpenSpiel's C++ loop at "
        f"B ≥ {TARGET_B:,})"
    )
    head = (
        f"{'rules':<12} {'pl':>2} {'B':>6} {'÷ OpenSpiel':>12} {'':<7} {'÷ OS+chance':>12} "
        f"{'÷ scalar':>9}"
    )
    print(head)
    print("-" * len(head))
    for p in vectors:
        if p.batch not in shown:
            continue
        os_plan = spiel.get(p.players)
        sc = scalar.get((p.rules, p.players))
        vs_os = vs_all = vs_sc = "n/a"
        verdict = ""
        if os_plan is not None:
            ratio = p.median / os_plan.median
            vs_os = f"{ratio:.2f}×"
            verdict = "met" if ratio >= 1.0 else "NOT met"
            chance = statistics.median((s.moves + s.chance) / s.seconds for s in os_plan.slices)
            vs_all = f"{p.median / chance:.2f}×"
        if sc is not None:
            vs_sc = f"{p.median / sc.median:.1f}×"
        print(
            f"{p.rules:<12} {p.players:>2} {p.batch:>6} {vs_os:>12} {verdict:<7} {vs_all:>12} "
            f"{vs_sc:>9}"
        )
    print(
        "(OpenSpiel's game is crazy_eights at the same number of players: a comparison of loops, "
        "not of games.)"
    )


def run_parity(games: int, seed: int, max_moves: int) -> int:
    """Parity over `games` games, split evenly over the presets and table sizes."""
    from parlour.games.whot.batched.parity import check_parity

    configs = [(rules, n) for rules in PRESETS for n in PLAYER_COUNTS]
    print(
        f"Parity: {games:,} random games split over {len(configs)} configurations, game seeds "
        f"from {seed}, each compared move for move up to {max_moves:,} moves."
    )
    bad = 0
    total_games = total_moves = 0
    start = time.perf_counter()
    for k, (rules, n) in enumerate(configs):
        share = games // len(configs) + (1 if k < games % len(configs) else 0)
        if not share:
            continue
        report = check_parity(n, rules, share, seed=seed, max_moves=max_moves, chunk=512)
        print(f"  {report}", flush=True)
        for m in report.mismatches:
            print(f"    {m}")
        bad += len(report.mismatches)
        total_games += report.games
        total_moves += report.moves
    took = time.perf_counter() - start
    verdict = "no mismatch" if not bad else f"{bad} MISMATCH(ES)"
    print(f"Parity total: {total_games:,} games, {total_moves:,} moves, {verdict} ({took:,.0f} s).")
    return 1 if bad else 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="CPU seconds per figure, split over the rounds (default 2; 0.3 with --quick)",
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help="interleaved rounds (default 5; 2 with --quick)"
    )
    parser.add_argument(
        "--batches",
        type=str,
        default=None,
        help=f"comma-separated batch sizes (default {','.join(map(str, BATCHES))})",
    )
    parser.add_argument("--seed", type=int, default=7, help="first game seed (default 7)")
    parser.add_argument("--quick", action="store_true", help="a short run (a smoke test)")
    parser.add_argument(
        "--parity",
        type=int,
        default=0,
        metavar="N",
        help="instead of timing, check parity with the reference engine over N games",
    )
    parser.add_argument(
        "--parity-max-moves",
        type=int,
        default=1_000,
        help="compare each parity game for at most this many moves (default 1000)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    parlour = import_parlour()
    try:
        from parlour.games.whot import batched as whot
    except ImportError as exc:
        print(f"the batched engine needs NumPy and Gymnasium: pip install -e '.[vector]' ({exc})")
        return 1
    if args.parity:
        return run_parity(args.parity, args.seed, args.parity_max_moves)

    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 2.0)
    rounds = args.rounds if args.rounds is not None else (2 if args.quick else 5)
    if args.batches:
        batches = tuple(int(x) for x in args.batches.split(","))
    else:
        batches = (256, TARGET_B) if args.quick else BATCHES
    seed = args.seed

    print("parlour Whot! batched engine: random play, moves per CPU-second")
    print(
        f"Python {platform.python_version()} on {platform.platform()}; NumPy {np.__version__}; "
        f"OpenSpiel {dist_version('open-spiel')}"
    )
    print(f"CPU: {cpu_name()}, {os.cpu_count()} logical cores")
    print(
        f"Each figure: {seconds:g} CPU-s (time.process_time) in {rounds} rounds interleaved with "
        f"the other figures; game seeds from {seed}."
    )
    print()

    plans: list[Plan] = []
    for rules in PRESETS:
        for n in PLAYER_COUNTS:
            for b in batches:
                plans.append(vector_runner(whot, rules, n, b, seed))
            env_b = TARGET_B if TARGET_B in batches else batches[-1]
            plans.append(env_runner(whot, rules, n, env_b, seed))
            plans.append(scalar_runner(parlour, rules, n, seed))
    pyspiel, why = optional_import("pyspiel")
    if pyspiel is None:
        print(f"! OpenSpiel: not installed ({why}); pip install -e '.[peers]'")
    else:
        for n in PLAYER_COUNTS:
            plans.append(openspiel_runner(pyspiel, n, seed))

    for r in range(rounds):
        for i, plan in enumerate(plans):
            print(
                f"  round {r + 1}/{rounds}: {plan.engine} {plan.rules} {plan.players}p "
                f"B={plan.batch} ({i + 1}/{len(plans)})",
                file=sys.stderr,
                flush=True,
            )
            plan.slices.append(plan.run(seconds / rounds))

    print_table(plans)
    print_ratios(plans)
    print()
    print("What resets cost (dealing new games, in CPU-µs per game; in the table, 'resets' is")
    print("the share of the vector loop's time spent dealing, and its cost per game dealt):")
    for rules in PRESETS:
        for n in PLAYER_COUNTS:
            seeding, dealing = deal_cost(whot, rules, n, 4096)
            print(
                f"  {rules:<12} {n}p: {dealing:5.1f} µs/game for 4,096 games at once, of which "
                f"{seeding:4.1f} seeding random.Random(seed) in CPython"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
