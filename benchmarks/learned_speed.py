"""How fast the learned Whot! bot decides, and how fast `parlour train` trains.

Inference: positions are those of games between `learned` and `counter` (every decision of the
learned seat with more than one legal move, from seed 2024 on); each is decided by `learned`,
`counter` (expert) and `greedy` (hard) in turn, each timed in CPU seconds
(`time.process_time`) and printed as min / median / max per decision, with the ratios of the
medians. Training: `Trainer.step` for `--train-seconds` of wall clock after a warm-up, at the
default settings (or `--batch`), from the shipped network where there is one (a run's main
phase: games as long as a trained player's), printed as decisions per second of wall clock and
per CPU-second, with where the time went.

    .venv/bin/python benchmarks/learned_speed.py                  # both, nigerian 2 players
    .venv/bin/python benchmarks/learned_speed.py --rules storey-1935 --train-seconds 0
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

import parlour
from parlour.bots import make_bot


def positions(rules: str, players: int, count: int) -> list[tuple[dict, list]]:  # type: ignore[type-arg]
    game = parlour.make("whot", players=players, rules=rules)
    out: list[tuple[dict, list]] = []  # type: ignore[type-arg]
    seed = 2024
    while len(out) < count:
        bots = [
            make_bot("learned" if s == 0 else "counter", game, seed=seed + s)
            for s in range(players)
        ]
        state = game.new_game(seed=seed)
        while not state.is_over and len(out) < count:
            p = state.to_play
            assert p is not None
            legal = state.legal_moves()
            view = state.view(p)
            if p == 0 and len(legal) > 1:
                out.append((view, legal))
            state.apply(bots[p].choose(view, legal))
        seed += 1
    return out


def time_bots(rules: str, players: int, count: int) -> None:
    game = parlour.make("whot", players=players, rules=rules)
    pos = positions(rules, players, count)
    bots = {b: make_bot(b, game, seed=1) for b in ("learned", "counter", "greedy")}
    times: dict[str, list[float]] = {b: [] for b in bots}
    clock = time.process_time
    for view, legal in pos:
        for name, bot in bots.items():  # in turn, so a change of load falls on all alike
            t = clock()
            bot.choose(view, legal)
            times[name].append(clock() - t)
    print(f"\ninference: {len(pos)} decisions with a choice, whot {rules} {players}p (CPU ms)")
    print(f"{'bot':10s} {'min':>8s} {'median':>8s} {'max':>8s}")
    med = {}
    for name, ts in times.items():
        ms = [1000 * t for t in ts]
        med[name] = statistics.median(ms)
        print(f"{name:10s} {min(ms):8.3f} {med[name]:8.3f} {max(ms):8.3f}")
    print(
        f"learned / counter (expert) median: {med['learned'] / med['counter']:.2f}x; "
        f"learned / greedy (hard): {med['learned'] / med['greedy']:.2f}x; "
        f"target < 1 ms median: {'met' if med['learned'] < 1 else 'NOT met'}"
    )


def time_training(rules: str, players: int, seconds: float, batch: int, rounds: int) -> None:
    from parlour.games.whot.learned.bot import weights_path
    from parlour.games.whot.learned.selfplay import WhotSelfPlay
    from parlour.learn.trainer import TrainConfig, Trainer

    # From the shipped network, where there is one: a run's main phase, its games as long as a
    # trained player's (a fresh network's first games run to the move cap, and nothing is learnt
    # until they end). Then a warm-up of 10 Adam steps: the jitted shapes, the queue filled.
    shipped = weights_path(rules, players)
    cfg = TrainConfig(
        game="whot",
        rules=rules,
        players=players,
        batch=batch,
        out="build/bench-train",
        init=str(shipped) if shipped.exists() else "",
    )
    trainer = Trainer(cfg, WhotSelfPlay(players, rules, batch, 0, cfg.max_moves))
    while trainer.updates < 10:
        trainer.step()
    net = trainer.qnet()
    start = f"from {shipped.name}" if cfg.init else "from a fresh network"
    print(
        f"\ntraining: whot {rules} {players}p, batch {batch}, tower {net.tower_sizes}, pairs "
        f"{net.pair_sizes}, minibatch {cfg.minibatch}, {start}; {rounds} rounds of "
        f"{seconds:g} s wall"
    )
    walls, cpus = [], []
    trainer.timing.parts.clear()
    for _ in range(rounds):
        d, w, c = trainer.decisions, time.perf_counter(), time.process_time()
        while time.perf_counter() - w < seconds:
            trainer.step()
        dw, dc = time.perf_counter() - w, time.process_time() - c
        walls.append((trainer.decisions - d) / dw)
        cpus.append((trainer.decisions - d) / dc)
    for label, xs in (("per second (wall)", walls), ("per CPU-second", cpus)):
        print(
            f"decisions {label:18s} min {min(xs):10,.0f} median {statistics.median(xs):10,.0f} "
            f"max {max(xs):10,.0f}"
        )
    split = ", ".join(f"{k} {v:.0%}" for k, v in trainer.timing.report().items())
    print(f"where the time went: {split}")
    probe = 64_000
    print(
        f"median wall rate / the issue's NumPy probe (64k/s, quoted, not measured here): "
        f"{statistics.median(walls) / probe:.2f}x (target >= 3x: 192k/s)"
    )
    load = os.getloadavg()
    print(f"load average during the run: {load[0]:.1f} (2 cores: above 2 means shared)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="nigerian")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=1000, help="positions timed (default 1000)")
    ap.add_argument("--train-seconds", type=float, default=20.0, help="per round; 0: skip")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=4096)
    args = ap.parse_args()
    print(
        f"parlour learned bot speed: Python {platform.python_version()}, NumPy {np.__version__}, "
        f"{os.cpu_count()} cores"
    )
    time_bots(args.rules, args.players, args.decisions)
    if args.train_seconds > 0:
        time_training(args.rules, args.players, args.train_seconds, args.batch, args.rounds)


if __name__ == "__main__":
    main()
