"""Game review: analysis time per decision at the default budget, per game, and its noise.

For each game of the issue, plays `--games` typical games (every seat the hint bot), analyses seat
1's decisions with `parlour.review.analyse` at the given budget (default: the analysis's own,
1,000 iterations a decision) and reports CPU seconds (time.process_time: other load on the machine
does not count) per decision — min, median, max — and per game, with the legal moves a decision
weighed. Then the noise, on a game where seat 1 plays at random (mistakes to find): analysed
with two seeds, how far the runs' figures lie apart (the played move's estimate, the loss; each
run's standard deviation) and how often their marks agree.

    .venv/bin/python benchmarks/analysis_speed.py                 # 5 games a table: a few minutes
    .venv/bin/python benchmarks/analysis_speed.py --only whot --games 20 --budget 2000
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from rich.console import Console

import parlour
from parlour.bots import make_bot
from parlour.core import Record
from parlour.review import Analysis, Budget, analyse
from parlour.sim.progress import game_bar

TABLES = [
    ("whot", "nigerian", 2),
    ("sorry", "regular", 4),
    ("whoswho-tricks", "standard", 4),
    ("whoswho-books", "standard", 4),
]


def typical_game(name: str, rules: str, players: int, seed: int, first: str = "hint") -> Record:
    """A game between hint bots (the bots a person plays at the table); seat 1 plays as `first`
    says (`random`: a game with mistakes to find)."""
    game = parlour.make(name, players=players, rules=rules)
    bots = [make_bot(first if p == 0 else "hint", game, seed * 10 + p) for p in range(players)]
    state = game.new_game(seed=seed)
    while not state.is_over:
        p = state.to_play
        assert p is not None
        state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    record: Record = state.record()
    return record


def timed(record: Record, budget: Budget, seed: int) -> tuple[Analysis, list[float]]:
    """The analysis of seat 0 and the CPU seconds of each decision (between progress calls)."""
    stamps: list[float] = []
    a = analyse(
        record, 0, budget, seed=seed, progress=lambda d, t: stamps.append(time.process_time())
    )
    return a, [y - x for x, y in itertools.pairwise(stamps)]


def noise(one: Analysis, two: Analysis) -> dict[str, float]:
    """How far two analyses of the same game with different seeds lie apart."""
    pairs = list(zip(one.decisions, two.decisions, strict=True))
    if len(pairs) < 2:
        return {}
    d_played = [a.played_move.estimate - b.played_move.estimate for a, b in pairs]
    d_loss = [a.loss - b.loss for a, b in pairs]
    marked = [(a.mark, b.mark) for a, b in pairs if a.mark or b.mark]
    return {
        # the SD of a difference of two independent runs is sqrt(2) times one run's SD
        "played_sd": statistics.pstdev(d_played) / 2**0.5,
        "loss_sd": statistics.pstdev(d_loss) / 2**0.5,
        "same_best": sum(a.best.move == b.best.move for a, b in pairs) / len(pairs),
        "marked": len(marked),
        "both": sum(1 for x, y in marked if x and y),
        "marks_agree": sum(x == y for x, y in marked) / len(marked) if marked else 1.0,
        "mean_loss_se": statistics.fmean(a.loss_se or 0.0 for a, _ in pairs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=5, help="games a table (default 5)")
    ap.add_argument("--budget", type=int, default=Budget().iterations, help="iterations a decision")
    ap.add_argument("--seed", type=int, default=2024, help="first game's seed (default 2024)")
    ap.add_argument("--only", help="only tables whose game name starts with this")
    ap.add_argument("--no-noise", action="store_true", help="skip the noise measurement")
    args = ap.parse_args()
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True)
    budget = Budget(iterations=args.budget)
    out.print(
        f"parlour analysis benchmark: {args.games} hint-played games a table, seat 1 judged, "
        f"{budget.iterations} iterations a decision (at least {budget.min_visits} visits a move), "
        f"seed {args.seed}; CPU seconds on one core"
    )
    for name, rules, players in TABLES:
        if args.only and not name.startswith(args.only):
            continue
        per_decision: list[float] = []
        per_game: list[float] = []
        decisions: list[int] = []
        moves: list[int] = []
        with game_bar(f"{name} {rules} {players}p", args.games, err, transient=True) as advance:
            for g in range(args.games):
                record = typical_game(name, rules, players, args.seed + g)
                a, times = timed(record, budget, seed=0)
                per_decision += times
                per_game.append(sum(times))
                decisions.append(len(a.decisions))
                moves += [len(d.moves) for d in a.decisions]
                advance(1)
        label = f"{name:15s} {rules:9s} {players}p"
        out.print(
            f"{label}  per decision min {min(per_decision):.3f}  median "
            f"{statistics.median(per_decision):.3f}  max {max(per_decision):.3f} s  "
            f"({len(per_decision)} decisions, legal moves median {statistics.median(moves):g}, "
            f"max {max(moves)})"
        )
        out.print(
            f"{'':29s}  per game  mean {statistics.fmean(per_game):.1f}  max {max(per_game):.1f} s"
            f"  ({statistics.fmean(decisions):.1f} decisions a game)"
        )
        if not args.no_noise:
            # the noise where there are mistakes to find: seat 1 plays at random, twice analysed
            record = typical_game(name, rules, players, args.seed, first="random")
            n = noise(analyse(record, 0, budget, seed=0), analyse(record, 0, budget, seed=1))
            if n:
                out.print(
                    f"{'':29s}  noise (seat 1 random, two seeds): played estimate SD "
                    f"{n['played_sd'] * 100:.1f} points, loss SD {n['loss_sd'] * 100:.1f} (mean "
                    f"reported SE {n['mean_loss_se'] * 100:.1f}); same best move "
                    f"{n['same_best']:.0%}; marked by either {n['marked']:g}, by both "
                    f"{n['both']:g}, the same mark {n['marks_agree']:.0%}"
                )


if __name__ == "__main__":
    main()
