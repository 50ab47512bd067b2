"""Fit the place values that Sorry!'s search bots score positions with, and write them to
src/parlour/games/sorry/values.py.

Why learned: the hint bot's progress score (steps made, a premium for safety and HOME) is a good
rule for choosing a move but a poor estimate of who will win. Over hint-played games it gives the
winner a log-loss of 3.36 nats against the 1.39 of a blind guess: it is far too sure. The search
averages its estimates over many dealt futures, so it needs calibrated ones.

The model is a conditional logit over colours: each colour's utility is the sum of a value per
pawn place (START, the 60 track squares, the 5 safety squares and HOME, on the colour's own scale)
plus a term for how many turns away its next move is, and a colour's chance to win is the softmax
of the utilities. It is fitted by maximum likelihood on every decision point of hint-vs-hint
4-player games, with a smoothness penalty on neighbouring squares so rarely visited ones (the
other colours' slide triangles) borrow from the squares around them. What the search makes of
them against three hint bots is measured by benchmarks/strength.py (see docs/lab/ladder.md).

    .venv/bin/python tools/fit_sorry_values.py              # 20,000 games, about 3 minutes
    .venv/bin/python tools/fit_sorry_values.py --games 2000 --out /tmp/values.py

Needs numpy and scipy (the `dev` extra); the engine itself only reads the table it writes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from rich.console import Console
from scipy.optimize import minimize
from scipy.special import logsumexp

from parlour.sim.progress import game_bar

PLACES = 67  # START, track 0..59, safety 60..64, HOME 65: index = place + 1
COLOURS = 4
TURNS = 3  # turn-order terms: 1, 2 and 3 turns away (the colour to move is the reference)
HERE = Path(__file__).resolve().parent
TARGET = HERE.parent / "src" / "parlour" / "games" / "sorry" / "values.py"

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


@dataclass
class Positions:
    """Decision points: pawn places as table indices (N, 4 colours, 4 pawns), the colour to
    move (N) and the colour that went on to win (N)."""

    place: Ints
    mover: Ints
    winner: Ints

    def __len__(self) -> int:
        return len(self.mover)


def play(seed: int) -> tuple[list[list[int]], int]:
    """One hint-vs-hint 4-player game: (pawn places + colour to move) at every decision, winner."""
    from parlour.core import make
    from parlour.games.sorry.engine import SorryState
    from parlour.games.sorry.hint import hint_policy

    state = make("sorry", players=COLOURS).new_game(seed=seed)
    assert isinstance(state, SorryState)
    rng = random.Random(seed)
    rows: list[list[int]] = []
    while not state.is_over:
        rows.append([*state.pos, state.cur])
        state.apply(hint_policy(state, rng))
    return rows, state.winners[0]


def collect(games: int, seed: int, jobs: int) -> Positions:
    rows: list[list[int]] = []
    winners: list[int] = []
    with (
        game_bar("hint games", games, Console(stderr=True), transient=True) as tick,
        ProcessPoolExecutor(jobs) as pool,
    ):
        for game_rows, winner in pool.map(play, range(seed, seed + games), chunksize=50):
            rows.extend(game_rows)
            winners.extend([winner] * len(game_rows))
            tick(1)
    data = np.array(rows, dtype=np.int64)
    return Positions(
        data[:, :16].reshape(-1, COLOURS, 4) + 1, data[:, 16], np.array(winners, dtype=np.int64)
    )


def _smooth_rows() -> list[tuple[int, int, int]]:
    """Index triples (a, b, c) of neighbouring places whose second difference is penalised:
    along the track and along the safety zone, not across START, the zone's entry or HOME."""
    track = [(r, r + 1, r + 2) for r in range(0, 58)]
    safety = [(r, r + 1, r + 2) for r in range(60, 63)]
    return [(a + 1, b + 1, c + 1) for a, b, c in track + safety]


def utilities(theta: Floats, pos: Positions) -> tuple[Floats, Ints]:
    value = theta[:PLACES]
    turn = np.concatenate([[0.0], theta[PLACES:]])
    away = (np.arange(COLOURS)[None, :] - pos.mover[:, None]) % COLOURS
    return value[pos.place].sum(axis=2) + turn[away], away


def log_loss(theta: Floats, pos: Positions) -> float:
    """Mean negative log-likelihood of the winners (nats; a blind guess scores ln 4 = 1.386)."""
    u, _ = utilities(theta, pos)
    picked = u[np.arange(len(pos)), pos.winner]
    return float((logsumexp(u, axis=1) - picked).mean())


def objective(theta: Floats, pos: Positions, smooth: float) -> tuple[float, Floats]:
    """Log-loss plus penalties (START pinned at 0; smoothness), and its gradient."""
    n = len(pos)
    u, away = utilities(theta, pos)
    lse = logsumexp(u, axis=1)
    rows = np.arange(n)
    f = float((lse - u[rows, pos.winner]).mean())
    p = np.exp(u - lse[:, None])
    grad = np.zeros_like(theta)
    won = np.bincount(pos.place[rows, pos.winner].ravel(), minlength=PLACES)
    expected = np.bincount(
        pos.place.reshape(n, -1).ravel(), weights=np.repeat(p, 4, axis=1).ravel(), minlength=PLACES
    )
    grad[:PLACES] = (expected - won) / n
    turn = np.bincount(away.ravel(), weights=p.ravel(), minlength=COLOURS) - np.bincount(
        away[rows, pos.winner], minlength=COLOURS
    )
    grad[PLACES:] = turn[1:] / n
    f += theta[0] ** 2  # utilities are relative: pin START at 0
    grad[0] += 2 * theta[0]
    for a, b, c in _smooth_rows():
        d = theta[a] - 2 * theta[b] + theta[c]
        f += smooth * d * d
        grad[a] += 2 * smooth * d
        grad[b] -= 4 * smooth * d
        grad[c] += 2 * smooth * d
    return f, grad


def fit(pos: Positions, smooth: float) -> Floats:
    start = np.zeros(PLACES + TURNS)
    result = minimize(
        objective, start, args=(pos, smooth), jac=True, method="L-BFGS-B", options={"maxiter": 5000}
    )
    if not result.success:
        raise RuntimeError(f"the fit did not converge: {result.message}")
    return np.asarray(result.x, dtype=np.float64)


def _place_name(index: int) -> str:
    place = index - 1
    if place == -1:
        return "START"
    if place == 65:
        return "HOME"
    if place >= 60:
        return f"safety {place - 59}"
    return f"track {place}" + (" (start exit)" if place == 1 else " (own diamond)" * (place == 59))


def module_text(theta: Floats, summary: str) -> str:
    def num(x: float) -> str:
        return f"{round(x, 4) + 0.0:.4f}"  # + 0.0: no "-0.0000"

    values = "".join(f"    {num(x)},  # {_place_name(i)}\n" for i, x in enumerate(theta[:PLACES]))
    turns = ", ".join(num(x) for x in [0.0, *theta[PLACES:]])
    return f'''"""Learned values of Sorry! positions, the search bots' evaluation (hint.evaluate).

GENERATED by tools/fit_sorry_values.py; do not edit by hand, run it again.

{summary}

A colour's utility is the sum of PLACE_VALUE over its four pawns (index: the pawn's place on the
colour's own scale + 1, so START is index 0 and HOME index 66; track places count from the square
past the colour's own diamond) plus TURN_ORDER[k] when its next move is k turns away; its chance
to win is the softmax of the colours' utilities.
"""

PLACE_VALUE: tuple[float, ...] = (
{values})
TURN_ORDER: tuple[float, ...] = ({turns})
'''


def _lines(text: str, width: int = 99) -> str:
    """`text` folded at spaces into lines of at most `width` characters."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20_000, help="hint games to learn from")
    parser.add_argument("--test-games", type=int, default=4_000, help="held-out games")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first game's seed")
    parser.add_argument("--smooth", type=float, default=0.01, help="smoothness penalty")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=TARGET, help=f"default: {TARGET}")
    args = parser.parse_args(argv)
    if args.games < 1 or args.test_games < 1:
        parser.error("--games and --test-games must be at least 1")
    t0 = time.perf_counter()
    train = collect(args.games, args.seed, args.jobs)
    test = collect(args.test_games, args.seed + args.games, args.jobs)
    print(f"{len(train):,} training and {len(test):,} held-out positions", file=sys.stderr)
    theta = fit(train, args.smooth)
    loss = log_loss(theta, test)
    summary = (
        f"{args.games:,} hint-vs-hint 4-player games from seed {args.seed:,} ({len(train):,} "
        f"decision points), smoothness {args.smooth:g}; winner log-loss on {args.test_games:,} "
        f"held-out games {loss:.4f} nats (a blind guess: {np.log(4):.4f})."
    )
    text = module_text(theta, _lines(summary))
    args.out.write_text(text)
    print(summary)
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
