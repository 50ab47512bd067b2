"""parlour's ISMCTS against OpenSpiel's ISMCTS at 2-player Whot!, at equal simulations.

Issue 21: "beat OpenSpiel's ISMCTS at equal simulations with the whole 95% interval above 55% over
>= 400 seat-swapped 2-player Whot! games (run through `parlour.adapters.openspiel`)".

* parlour: `ismcts:iterations=N` — the bot as every table seats it, with Whot!'s search help (the
  hint policy as playout policy and as the model of the other seat, playouts of 8 moves settled
  to the searcher's turn, then the hint evaluation).
* OpenSpiel: `open_spiel.python.algorithms.ismcts.ISMCTSBot` with `max_simulations=N` on the game's
  OpenSpiel form (`parlour.adapters.openspiel.load`), UCT c = 2 (OpenSpiel's examples; its rewards
  are +1/-1), the most visited move, a fresh world drawn every simulation by
  `resample_from_infostate` (the game's `sample_state`), its tree keyed by the observation string
  (the view without its event log: with the log, a key is the JSON of every event of the game so
  far, and a decision late in a long game took 0.5-0.8 s at 50 simulations against 0.1 s). Its
  evaluator plays each leaf out to the end with the same playout policy parlour's search uses, on
  the determinized state (+1 to the winner, -1 to the other): the two searches differ in the
  search, not in the knowledge of the game they are given. Like every bot it sees only its view:
  it is handed a state sampled from its view, never the true one.

Games come in pairs on the same deal (seed), parlour in seat 0 in one and seat 1 in the other, so
the luck of the deal and of the first turn cancels. A win is the game's result (Whot!'s winner);
a drawn game counts half. Prints the win rate with its 95% Wilson interval, the simulation count,
and the CPU seconds a decision of each side.

    .venv/bin/python benchmarks/vs_openspiel.py                        # 400 games, N = 25
    .venv/bin/python benchmarks/vs_openspiel.py --games 40 --simulations 100   # a short look
    .venv/bin/python benchmarks/vs_openspiel.py --jobs 2               # both cores
    .venv/bin/python benchmarks/vs_openspiel.py --rows a.jsonl         # keep every game
    .venv/bin/python benchmarks/vs_openspiel.py --from-rows a.jsonl b.jsonl   # figures of runs

Runs over parts of the deals add up to one run over all of them (`--reverse` plays them last
first, so a second run started beside a first meets it in the middle): `--rows` keeps each game
as a JSON line and `--from-rows` prints the figures of the games kept (a game of the same deal and
seat kept twice counts once, the last kept). A game played again need not repeat move for move:
parlour's search is the same for the same seed, but OpenSpiel's ISMCTS, seeded alike, was seen to
choose differently between two runs in one process (not traced); each game is still a fair game
on its deal.

Needs the peers (`pip install -e '.[peers]'`). Nothing is asserted: the script only prints figures.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import parlour
from parlour.bots import make_bot
from parlour.bots.ismcts import search_help
from parlour.core import Game, Move, State
from parlour.core.rng import GameRng

TARGET = 0.55  # issue 21: the whole 95% interval above 55%


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


class PolicyRollouts:
    """An OpenSpiel evaluator: the leaf's parlour state played out to the end with the game's
    playout policy; +1 to the winners and -1 to the others (a cut-off game scores 0); a uniform
    prior."""

    def __init__(self, game: Game[Any, Any], rng: random.Random, max_moves: int = 5000) -> None:
        self.policy = search_help(game.name).policy
        self.rng = rng
        self.max_moves = max_moves

    def evaluate(self, state: Any) -> Any:
        from parlour.adapters.encoding import outcome_rewards

        ps = state.pstate.copy()
        policy, rng = self.policy, self.rng
        for _ in range(self.max_moves):
            if ps.is_over:
                return np.array(outcome_rewards(ps))
            ps.apply(policy(ps, rng) if policy is not None else rng.choice(ps.legal_moves()))
        return np.zeros(ps.game.players)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class SpielSearcher:
    """OpenSpiel's ISMCTS deciding from a parlour view (see the module doc)."""

    def __init__(self, game: Game[Any, Any], rules: str, simulations: int, seed: int) -> None:
        from open_spiel.python.algorithms import ismcts

        from parlour.adapters import openspiel

        self.game = game
        self.rng = random.Random(seed)
        self.spiel = openspiel.load(game.name, players=game.players, rules=rules)
        self.bot = ismcts.ISMCTSBot(
            self.spiel,
            PolicyRollouts(game, random.Random(self.rng.getrandbits(63))),
            uct_c=2.0,
            max_simulations=simulations,
            random_state=np.random.RandomState(self.rng.getrandbits(32)),
            use_observation_string=True,
        )

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        sampled = self.game.sample_state(view, GameRng(self.rng.getrandbits(63)))
        action = self.bot.step(self.spiel.new_initial_state(sampled))
        move = self.spiel.encoding.move_of(action, sampled)
        return next(m for m in legal if m == move)


@dataclass(frozen=True)
class Outcome:
    seed: int
    seat: int  # parlour's seat
    score: float  # 1 won, 0 lost, 0.5 drawn
    moves: int
    ours: tuple[float, ...]  # CPU seconds of parlour's decisions with a choice
    theirs: tuple[float, ...]  # of OpenSpiel's


def play(rules: str, simulations: int, seed: int, seat: int) -> Outcome:
    """One game on deal `seed`, parlour's ISMCTS in `seat` and OpenSpiel's in the other."""
    game = parlour.make("whot", players=2, rules=rules)
    ours = make_bot(f"ismcts:iterations={simulations}", game, seed * 2 + seat)
    theirs = SpielSearcher(game, rules, simulations, seed * 2 + seat + 10**6)
    state: State = game.new_game(seed=seed)
    times: tuple[list[float], list[float]] = ([], [])
    while not state.is_over:
        p = state.to_play
        assert p is not None
        legal = state.legal_moves()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        side = 0 if p == seat else 1
        start = time.process_time()
        move = (ours if side == 0 else theirs).choose(state.view(p), legal)
        times[side].append(time.process_time() - start)
        state.apply(move)
    res = state.result()
    score = 0.5 if len(res.winners) != 1 else float(seat in res.winners)
    return Outcome(seed, seat, score, len(state.history), tuple(times[0]), tuple(times[1]))


def _play(args: tuple[str, int, int, int]) -> Outcome:
    return play(*args)


def progress(outcomes: Sequence[Outcome]) -> None:
    """A line a game on stderr (a long run read part way stands on the games so far)."""
    o = outcomes[-1]
    wins = sum(x.score for x in outcomes)
    print(
        f"  game {len(outcomes)}: deal {o.seed}, parlour in seat {o.seat} scored {o.score:g} in "
        f"{o.moves} moves; parlour {wins:g} of {len(outcomes)}",
        file=sys.stderr,
        flush=True,
    )


def read_rows(paths: Iterable[str]) -> list[Outcome]:
    """The games kept by `--rows`, once each (by deal and seat), in deal order."""
    kept: dict[tuple[int, int], Outcome] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                row["ours"], row["theirs"] = tuple(row["ours"]), tuple(row["theirs"])
                o = Outcome(**row)
                kept[o.seed, o.seat] = o
    return [kept[k] for k in sorted(kept)]


def summary(outcomes: Sequence[Outcome]) -> None:
    wins = sum(o.score for o in outcomes)
    n = len(outcomes)
    lo, hi = wilson(wins, n)
    ours = [t for o in outcomes for t in o.ours]
    theirs = [t for o in outcomes for t in o.theirs]
    by_seat = [sum(o.score for o in outcomes if o.seat == s) for s in (0, 1)]
    seats = [sum(1 for o in outcomes if o.seat == s) for s in (0, 1)]
    verdict = "ABOVE 55% (interval wholly above it)" if lo > TARGET else "not clearly above 55%"
    print(
        f"parlour won {wins:g} of {n} = {wins / n:.1%}  95% interval [{lo:.1%}, {hi:.1%}]  "
        f"{verdict}"
    )
    print(f"  parlour in seat 0: {by_seat[0]:g}/{seats[0]}; in seat 1: {by_seat[1]:g}/{seats[1]}")
    for name, ts in (("parlour ismcts", ours), ("OpenSpiel ISMCTS", theirs)):
        if ts:
            print(
                f"  {name:17s} CPU s/decision: min {min(ts):.3f}  median "
                f"{statistics.median(ts):.3f}  max {max(ts):.3f}  ({len(ts)} decisions with a "
                "choice)"
            )
    print(
        f"  moves a game: median {statistics.median(o.moves for o in outcomes):g}; search CPU "
        f"{(sum(ours) + sum(theirs)) / 60:.1f} min in all"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games, an even number (default 400)")
    ap.add_argument(
        "--simulations", type=int, default=25, help="per decision, both sides (default 25)"
    )
    ap.add_argument("--rules", default="nigerian")
    ap.add_argument("--seed", type=int, default=21, help="first deal's seed (default 21)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--reverse", action="store_true", help="play the deals last first")
    ap.add_argument("--rows", help="append each game to this file as a JSON line")
    ap.add_argument(
        "--from-rows", nargs="+", metavar="FILE", help="print the figures of kept games; play none"
    )
    args = ap.parse_args(argv)
    if args.from_rows:
        kept = read_rows(args.from_rows)
        deals = sorted({o.seed for o in kept})
        print(
            f"{len(kept)} games kept in {', '.join(args.from_rows)}: deals {deals[0]}..{deals[-1]}"
        )
        summary(kept)
        return 0
    pairs = args.games // 2
    work = [
        (args.rules, args.simulations, args.seed + i, seat) for i in range(pairs) for seat in (0, 1)
    ]
    if args.reverse:
        work.reverse()
    print(
        f"parlour ismcts vs OpenSpiel ISMCTS (c=2, policy rollouts), Whot! {args.rules} 2p, "
        f"{args.simulations} simulations a decision each, {len(work)} games = {pairs} deals "
        f"(seeds {args.seed}..{args.seed + pairs - 1}) x both seats; Python "
        f"{platform.python_version()}",
        flush=True,
    )
    start_wall = time.perf_counter()
    outcomes: list[Outcome] = []

    def done(o: Outcome) -> None:
        outcomes.append(o)
        progress(outcomes)
        if args.rows:
            with open(args.rows, "a") as f:
                f.write(json.dumps(o.__dict__) + "\n")

    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for o in pool.map(_play, work, chunksize=2):
                done(o)
    else:
        for w in work:
            done(play(*w))
    summary(outcomes)
    print(f"  wall {time.perf_counter() - start_wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
