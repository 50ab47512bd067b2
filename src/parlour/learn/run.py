"""A training run from start (or checkpoint) to shipped weights, with its display and its log."""

from __future__ import annotations

import datetime
import json
import platform
import resource
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from parlour.core.registry import info

from .evaluate import Evaluator
from .qnet import save
from .trainer import TrainConfig, Trainer, git_commit, schedule

__all__ = ["run_training"]

REPORT_SECONDS = 15.0


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def device() -> str:
    import jax

    d = jax.devices()[0]
    kind = getattr(d, "device_kind", "")
    return f"{d.platform} ({kind})" if kind and kind != d.platform else d.platform


def run_training(
    cfg: TrainConfig,
    fresh: bool = False,
    quiet: bool = False,
    command: str = "",
    out: Console | None = None,
) -> int:
    out = out or Console()
    gi = info(cfg.game)
    assert gi.self_play is not None
    sp = gi.self_play(cfg.players, cfg.rules, cfg.batch, cfg.seed, cfg.max_moves)
    trainer = Trainer(cfg, sp)
    folder = Path(cfg.out)
    resumed = False
    if trainer.checkpoint_path().exists() and not fresh:
        trainer.load_checkpoint()
        resumed = True
    elif fresh:
        for name in ("log.jsonl", "checkpoint.pkl"):
            (folder / name).unlink(missing_ok=True)
    cpu0 = cpu_seconds()
    base_cpu = trainer.cpu
    commit = git_commit()  # the code that trains: the card names it, not the code at the end
    trainer.log(
        {
            "kind": "resume" if resumed else "start",
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "config": cfg.to_json(),
            "command": command,
            "device": device(),
            "commit": commit,
            "python": platform.python_version(),
            "decisions": trainer.decisions,
            "state_size": sp.state_size,
        }
    )
    what = f"{cfg.game} {cfg.rules} {cfg.players}p"
    out.print(
        f"{'Resuming' if resumed else 'Training'} {what} on {device()}: "
        f"{trainer.decisions:,} of {cfg.decisions:,} decisions done; writing to {folder}"
    )
    evaluator = Evaluator() if cfg.eval_minutes > 0 and cfg.eval_bots else None
    last_eval = time.perf_counter() - (cfg.eval_minutes * 60 if not resumed else 0)
    last_ckpt = time.perf_counter()
    last_report = time.perf_counter()
    mark = (trainer.decisions, trainer.games, trainer.choices, sp.cut, cpu_seconds())
    status = {"loss": "–", "eval": "–"}
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[info]}"),
        console=out,
        disable=quiet,
    )

    def elapsed() -> float:
        return trainer.elapsed

    def cpu_total() -> float:
        return base_cpu + cpu_seconds() - cpu0

    def report(task: Any) -> None:
        nonlocal mark, last_report
        now = time.perf_counter()
        dt = now - last_report
        d0, g0, c0, cut0, cpu_0 = mark
        dec = trainer.decisions - d0
        games = trainer.games - g0
        loss = trainer.take_loss()
        lr, eps = schedule(trainer.progress(), cfg)
        entry = {
            "kind": "report",
            "decisions": trainer.decisions,
            "seconds": round(elapsed(), 1),
            "cpu_seconds": round(cpu_total(), 1),
            "decisions_per_s": round(dec / dt) if dt > 0 else None,
            "decisions_per_cpu_s": round(dec / max(1e-9, cpu_seconds() - cpu_0)),
            "choice_share": round((trainer.choices - c0) / max(1, dec), 3),
            "loss": None if loss is None else round(loss, 5),
            "lr": lr,
            "eps": round(eps, 4),
            "games": trainer.games,
            "moves_per_game": round(dec / games, 1) if games else None,
            "cut_share": round((sp.cut - cut0) / games, 4) if games else None,
            "samples": trainer.samples,
            "updates": trainer.updates,
            "time_split": trainer.timing.report(),
        }
        trainer.log(entry)
        mark = (trainer.decisions, trainer.games, trainer.choices, sp.cut, cpu_seconds())
        last_report = now
        if loss is not None:
            status["loss"] = f"{loss:.4f}"
        info_ = (
            f"{entry['decisions_per_s'] or 0:,}/s  loss {status['loss']}  ε {eps:.3f}  "
            f"game {entry['moves_per_game'] or 0} moves  eval {status['eval']}"
        )
        if quiet:
            out.print(
                f"{trainer.decisions:,} decisions, {elapsed():.0f} s: {info_}", highlight=False
            )
        progress.update(task, completed=trainer.decisions, info=info_)

    def take_eval(wait: bool = False) -> None:
        if evaluator is None:
            return
        done = evaluator.wait() if wait else evaluator.result()
        if done is None:
            return
        about, results = done
        for r in results:
            trainer.log({"kind": "eval", **about, **r})
        first = results[0]
        status["eval"] = (
            f"{first['rate']:.1%} [{first['low']:.1%}, {first['high']:.1%}] vs {first['opponent']}"
        )
        out.print(
            f"eval at {about['decisions']:,} decisions: "
            + "; ".join(
                f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}] of {r['deals']:,} duplicate "
                f"deals vs {r['opponent']}"
                for r in results
            )
        )

    def start_eval() -> None:
        assert evaluator is not None
        evaluator.start(
            cfg.game,
            cfg.players,
            cfg.rules,
            trainer.qnet(),
            cfg.eval_bots,
            cfg.eval_deals,
            seed=1,
            about={"decisions": trainer.decisions, "seconds": round(elapsed(), 1)},
        )

    def finish(interrupted: bool) -> None:
        trainer.cpu = cpu_total()
        trainer.save_checkpoint()
        net = trainer.qnet()
        save(net, folder / "weights.npz")
        card = {
            "game": cfg.game,
            "rules": cfg.rules,
            "players": cfg.players,
            "command": command,
            "seed": cfg.seed,
            "decisions": trainer.decisions,
            "games": trainer.games,
            "samples": trainer.samples,
            "updates": trainer.updates,
            "wall_hours": round(trainer.seconds / 3600, 3),
            "cpu_hours": round(trainer.cpu / 3600, 3),
            "device": device(),
            "commit": commit,
            "finished": not interrupted,
            "decisions_per_s": round(trainer.decisions / max(1e-9, trainer.seconds)),
            "time_split": trainer.timing.report(),
            "config": cfg.to_json(),
            "written": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        }
        (folder / "card.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")

    interrupted = False
    try:
        with progress:
            task = progress.add_task(
                what, total=cfg.decisions, completed=trainer.decisions, info=""
            )
            while not trainer.finished():
                trainer.step()
                now = time.perf_counter()
                if now - last_report >= REPORT_SECONDS:
                    report(task)
                    take_eval()
                if (
                    evaluator is not None
                    and not evaluator.busy
                    and now - last_eval >= cfg.eval_minutes * 60
                ):
                    take_eval()
                    start_eval()
                    last_eval = now
                if now - last_ckpt >= cfg.checkpoint_minutes * 60:
                    trainer.cpu = cpu_total()
                    trainer.save_checkpoint()
                    last_ckpt = now
            report(task)
    except KeyboardInterrupt:
        interrupted = True
        out.print("Interrupted: saving a checkpoint and the weights…")
    finish(interrupted)
    if evaluator is not None:
        if not interrupted:
            take_eval(wait=True)  # the last evaluation started
            start_eval()
            take_eval(wait=True)  # and one of the final weights
        evaluator.close()
    speed = trainer.decisions / max(1e-9, trainer.seconds)
    hours = trainer.seconds / 3600
    out.print(
        f"{'Stopped' if interrupted else 'Done'}: {trainer.decisions:,} decisions in "
        f"{hours:.2f} h ({speed:,.0f} a second); weights in "
        f"{folder / 'weights.npz'}, card in {folder / 'card.json'}, log in {trainer.log_path}"
    )
    split = ", ".join(f"{k} {v:.0%}" for k, v in trainer.timing.report().items())
    out.print(f"where the time went: {split}")
    if interrupted:
        out.print("Run the same command again to resume.")
    return 130 if interrupted else 0
