"""The learning curve of training runs, drawn from their logs: win rate against a ladder bot as a
function of decisions trained, with each evaluation's 95% interval.

    python -m parlour.learn.curve RUN/log.jsonl [RUN2/log.jsonl ...] -o docs/img/curve.png

Several logs of one lineage (a run, then runs started from its weights with `--init`) are drawn
as one curve, each later run's decisions counted on from the one before (`--chain`); otherwise
each log is its own curve, labelled by `--labels`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["evals", "main", "plot"]


def evals(path: str | Path) -> list[dict[str, Any]]:
    """The evaluation entries of a run's log, in order."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            if entry.get("kind") == "eval":
                out.append(entry)
    return out


def plot(
    curves: Sequence[tuple[str, list[dict[str, Any]]]],
    out: str | Path,
    title: str = "",
    fair: float | None = 0.5,
) -> None:
    """One line per (label, evaluations): rate against decisions, the intervals as bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=120)
    for label, points in curves:
        if not points:
            continue
        x = [p["decisions"] / 1e6 for p in points]
        y = [100 * p["rate"] for p in points]
        lo = [100 * (p["rate"] - p["low"]) for p in points]
        hi = [100 * (p["high"] - p["rate"]) for p in points]
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", ms=3, capsize=2, label=label)
    if fair is not None:
        ax.axhline(100 * fair, color="grey", lw=0.8, ls="--", label=f"even ({fair:.0%})")
    ax.set_xlabel("decisions trained (millions)")
    ax.set_ylabel("share of wins (%), 95% interval")
    ax.set_title(title or "Learned bot against the ladder's bot, duplicate deals")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("logs", nargs="+", help="log.jsonl files of training runs")
    ap.add_argument("-o", "--out", required=True, help="the PNG to write")
    ap.add_argument("--labels", help="labels separated by semicolons, one per log (or per chain)")
    ap.add_argument(
        "--chain",
        action="append",
        default=[],
        help="comma-separated indices (from 0) of logs forming one lineage, drawn as one curve",
    )
    ap.add_argument("--title", default="")
    ap.add_argument("--fair", type=float, default=0.5, help="the even share (0.5; 0.25 at four)")
    args = ap.parse_args(argv)
    logs = [evals(p) for p in args.logs]
    groups: list[list[int]] = [[int(i) for i in c.split(",")] for c in args.chain]
    chained = {i for g in groups for i in g}
    groups += [[i] for i in range(len(logs)) if i not in chained]
    labels = args.labels.split(";") if args.labels else [str(args.logs[g[0]]) for g in groups]
    curves = []
    for label, group in zip(labels, groups, strict=False):
        points: list[dict[str, Any]] = []
        offset = 0
        for i in group:
            run = logs[i]
            for p in run:
                points.append({**p, "decisions": p["decisions"] + offset})
            if run:
                offset += max(p["decisions"] for p in run)
        curves.append((label, points))
    plot(curves, args.out, args.title, args.fair)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
