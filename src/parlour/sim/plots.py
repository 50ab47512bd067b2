"""Plots of simulated games (matplotlib, Agg backend: files, never windows)."""

from __future__ import annotations

from pathlib import Path

from parlour.extras import needs

from .stats import Rate, Summary

with needs("plots", "parlour.sim.plots"):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

__all__ = ["plot_rates", "plot_summary"]


def _bars(ax: Axes, rates: tuple[Rate, ...] | list[Rate], fair: float, title: str) -> None:
    labels = [r.label for r in rates]
    vals = [r.rate for r in rates]
    lo = [r.rate - r.interval[0] for r in rates]
    hi = [r.interval[1] - r.rate for r in rates]
    ax.bar(range(len(rates)), vals, yerr=[lo, hi], capsize=4, color="#4c72b0")
    ax.axhline(fair, color="#c44e52", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(len(rates)), labels, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(fontsize=8)


def plot_summary(summary: Summary, path: str | Path, title: str = "") -> Path:
    """Win rate by bot and by seat with error bars, and the distribution of game lengths."""
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    fair = 1.0 / summary.players
    _bots_ax, seats_ax, len_ax = axes
    _bars(_bots_ax, summary.by_bot, fair, "by bot")
    _bars(seats_ax, summary.by_seat, fair, "by seat")
    len_ax.hist(summary.lengths, bins=40, color="#55a868")
    len_ax.axvline(summary.length_median, color="k", linestyle="--", linewidth=1, label="median")
    len_ax.set_xlabel("moves per game")
    len_ax.set_ylabel("games")
    len_ax.set_title(f"game length: mean {summary.length_mean:.0f}, p95 {summary.length_p95:.0f}")
    len_ax.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_rates(
    rates: list[Rate], path: str | Path, fair: float, title: str = "", xlabel: str = ""
) -> Path:
    """One bar chart of win rates with 95% error bars (for studies comparing several runs)."""
    fig, ax = plt.subplots(figsize=(7, 4))
    _bars(ax, rates, fair, title)
    if xlabel:
        ax.set_xlabel(xlabel)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
