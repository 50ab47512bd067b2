"""`parlour train GAME`: Deep Monte-Carlo self-play on the game's batched engine (docs/training.md).

Needs the `train` extra (JAX, optax, equinox): `pip install 'parlour[train]'`. The run writes to
its folder (`--out`, default build/train/GAME-RULES-Np/): `log.jsonl` (one line per report and
evaluation), `checkpoint.pkl` (everything needed to resume exactly), `weights.npz` (the NumPy
network the `learned` bot plays) and `card.json` (how the run was made). Run it again with the
same settings and it resumes from the checkpoint; `--fresh` starts over.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any

from rich.console import Console

from parlour.core import ParlourError
from parlour.core.registry import games, info
from parlour.extras import require

__all__ = ["add_commands"]

TRAIN_HELP = """\
How it works: B games are played side by side on the game's batched engine, every seat by the
same network. Each decision's legal moves are scored by Q(s, a), a small network over features of
the mover's view and of the move; the best is played, or with probability ε a random legal one.
When a game ends, each of its decisions is a sample whose target is the final reward of the seat
that made it (+1 win, -1 loss: the Monte-Carlo return), and a jitted Adam step regresses Q on a
minibatch of them (DouZero's Deep Monte-Carlo). Every --eval-minutes the weights of the moment
play --eval-deals duplicate deals against the ladder's bots in another process. Ctrl-C saves a
checkpoint and the weights, and the same command resumes. docs/training.md says more.
"""


def _ints(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not comma-separated numbers") from exc
    if any(x < 1 for x in out):
        raise argparse.ArgumentTypeError("layer widths must be at least 1")
    return out


def _count(text: str) -> int:
    """A count such as 600000000, 600M or 1.2G."""
    t = text.strip().upper().replace("_", "").replace(",", "")
    scale = {"K": 10**3, "M": 10**6, "G": 10**9, "B": 10**9}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale > 1 else t) * scale
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (e.g. 600M)") from exc
    if value < 1:
        raise argparse.ArgumentTypeError("the count must be at least 1")
    return int(value)


def add_commands(sub: Any, commands: dict[str, Any]) -> None:
    from .config import TrainConfig

    d = TrainConfig(game="", rules="")
    t = sub.add_parser(
        "train",
        help="train a game's learned bot by self-play (the `train` extra: JAX)",
        description=__doc__.split("\n\n")[0] + "\n\n" + TRAIN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument(
        "game", help="a game whose manifest offers self-play on its batched engine (`train`)"
    )
    t.add_argument("--rules", "-r", help="rule preset (default: the game's default preset)")
    t.add_argument("--players", "-n", type=int, default=d.players, help="players (default 2)")
    t.add_argument(
        "--decisions",
        type=_count,
        default=d.decisions,
        help="moves to play in self-play, every seat and forced moves counted (600M, 1.2G; "
        f"default {d.decisions / 1e6:.0f}M; docs/training.md gives the hours that takes)",
    )
    t.add_argument(
        "--hours",
        type=float,
        default=d.hours,
        help="stop after this many hours of wall clock as well (default 0: no limit); the "
        "schedules then follow whichever of --decisions and --hours is further on (a run "
        "stopped by time is not reproducible move for move)",
    )
    t.add_argument(
        "--batch",
        type=int,
        default=d.batch,
        help=f"games played side by side (default {d.batch}): more amortises Python's overhead",
    )
    t.add_argument(
        "--minibatch",
        type=int,
        default=d.minibatch,
        help=f"samples per Adam step (default {d.minibatch}); each sample is used once",
    )
    t.add_argument(
        "--tower",
        type=_ints,
        default=d.tower,
        help="widths of the state tower's layers, run once per decision (default "
        f"{','.join(map(str, d.tower))})",
    )
    t.add_argument(
        "--pairs",
        type=_ints,
        default=d.pairs,
        help="widths of the layers run per legal move, the first where the move joins the state "
        f"(default {','.join(map(str, d.pairs))})",
    )
    t.add_argument("--lr", type=float, default=d.lr, help=f"peak learning rate (default {d.lr})")
    t.add_argument(
        "--final-lr",
        type=float,
        default=d.final_lr,
        help="the learning rate at the end, as a share of the peak: after a warm-up over the "
        f"first 1%% it decays along a cosine (default {d.final_lr})",
    )
    t.add_argument(
        "--eps-start",
        type=float,
        default=d.eps_start,
        help=f"ε at the start: the chance of a random legal move (default {d.eps_start})",
    )
    t.add_argument("--eps-end", type=float, default=d.eps_end, help=f"ε at the end ({d.eps_end})")
    t.add_argument(
        "--eps-decay",
        type=float,
        default=d.eps_decay,
        help=f"share of the run over which ε falls linearly to --eps-end (default {d.eps_decay})",
    )
    t.add_argument(
        "--max-moves",
        type=int,
        default=d.max_moves,
        help="a self-play game still going after this many moves is stopped and scored as a "
        "market run dry: the fewest cards win (default "
        f"{d.max_moves}; a trained player's games are far shorter, and the log counts the cut)",
    )
    t.add_argument("--seed", type=int, default=d.seed, help="the run's seed (default 0)")
    t.add_argument(
        "--eval-minutes",
        type=float,
        default=d.eval_minutes,
        help=f"minutes between evaluations (default {d.eval_minutes:g}; 0: none)",
    )
    t.add_argument(
        "--eval-deals",
        type=int,
        default=d.eval_deals,
        help="duplicate deals per evaluation, each played from every seat (default "
        f"{d.eval_deals}); the same deals each time, so evaluations compare",
    )
    t.add_argument(
        "--eval-bots",
        default=",".join(d.eval_bots),
        help="bot specs or levels to evaluate against (default expert's bot: "
        f"{','.join(d.eval_bots)})",
    )
    t.add_argument(
        "--checkpoint-minutes",
        type=float,
        default=d.checkpoint_minutes,
        help=f"minutes between checkpoints (default {d.checkpoint_minutes:g})",
    )
    t.add_argument(
        "--init",
        help="start from these weights (.npz) instead of a random network; --tower and --pairs "
        "are then those of the weights",
    )
    t.add_argument("--out", help="the run's folder (default build/train/GAME-RULES-Np)")
    t.add_argument("--fresh", action="store_true", help="start over even if a checkpoint exists")
    t.add_argument(
        "--quiet", action="store_true", help="no live display: a line per report instead"
    )
    commands["train"] = cmd_train


def cmd_train(args: argparse.Namespace, out: Console) -> int:
    # The engine and the features are NumPy on one thread; JAX has its own threads for the
    # network. OpenBLAS's threads would only spin against them on a small machine.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gi = info(args.game)
    if gi.self_play is None:
        have = [n for n, g in sorted(games().items()) if g.self_play is not None]
        raise ParlourError(
            f"{gi.title} has no self-play to train on yet; the games that have: {', '.join(have)}"
        )
    require("train", "parlour train", "jax", "optax", "equinox")
    from parlour.bots.levels import bot_specs

    from .config import TrainConfig
    from .run import run_training

    rules = args.rules or gi.default_preset
    if rules not in gi.presets:
        raise ParlourError(f"{gi.name} has no preset {rules!r}; the presets are: "
                           f"{', '.join(gi.presets)}")  # fmt: skip
    for name, value, least in (
        ("--batch", args.batch, 1),
        ("--minibatch", args.minibatch, 1),
        ("--max-moves", args.max_moves, 1),
        ("--eval-deals", args.eval_deals, 1),
    ):
        if value < least:
            raise ParlourError(f"{name} must be at least {least}")
    for name, value in (("--eps-start", args.eps_start), ("--eps-end", args.eps_end)):
        if not 0 <= value <= 1:
            raise ParlourError(f"{name} must be between 0 and 1")
    bots = tuple(bot_specs(args.eval_bots, gi.name)) if args.eval_bots else ()
    folder = args.out or os.path.join("build", "train", f"{gi.name}-{rules}-{args.players}p")
    cfg = TrainConfig(
        game=gi.name,
        rules=rules,
        players=args.players,
        decisions=args.decisions,
        hours=args.hours,
        batch=args.batch,
        minibatch=args.minibatch,
        tower=args.tower,
        pairs=args.pairs,
        lr=args.lr,
        final_lr=args.final_lr,
        eps_start=args.eps_start,
        eps_end=args.eps_end,
        eps_decay=args.eps_decay,
        max_moves=args.max_moves,
        seed=args.seed,
        eval_minutes=args.eval_minutes,
        eval_deals=args.eval_deals,
        eval_bots=bots,
        checkpoint_minutes=args.checkpoint_minutes,
        out=folder,
        init=args.init or "",
    )
    if args.init:
        from parlour.learn.qnet import load

        if not os.path.exists(args.init):
            raise ParlourError(f"no weights at {args.init}")
        start = load(args.init)
        cfg.tower, cfg.pairs = start.tower_sizes, start.pair_sizes
    command = "parlour " + shlex.join(sys.argv[1:])
    try:
        return run_training(cfg, fresh=args.fresh, quiet=args.quiet, command=command, out=out)
    except (ValueError, NotImplementedError) as exc:
        raise ParlourError(str(exc)) from None
