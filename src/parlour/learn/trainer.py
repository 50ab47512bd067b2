"""Deep Monte-Carlo self-play (DouZero's recipe) over a game's batched engine: `parlour train`.

One process plays B games side by side on arrays (the game's `SelfPlay`, named by its manifest's
`train`) and learns from them as they end:

1. **Act.** Every game's mover is scored by one network, Q(s, a) for each legal move (a decision
   with one legal move skips the network). The best move is played, or, with probability ε, a
   uniformly random legal one (ε-greedy; ε falls linearly from `eps_start` to `eps_end` over the
   first `eps_decay` of the run).
2. **Keep.** Each decision with a choice is kept with its game's episode: the state's features, the
   move and its pair features (a step's decisions in one chunk, where they stay: `_flush`).
3. **Return.** When a game ends, every decision of it gets its seat's final reward as the target
   (the Monte-Carlo return, undiscounted: DouZero's every-visit MC).
4. **Learn.** Samples are used once, in minibatches, by a jitted Adam step on the mean squared
   error (`parlour.learn.dmc.Learner`); the learning rate warms up over the first 1% of the run
   and then decays along a cosine to `final_lr` of its peak. The steps are dispatched right after
   a step's acting, so that JAX computes them while NumPy steps the games.

Everything is deterministic from `seed` (the game seeds, ε's draws, the network's start); a
checkpoint holds all of it — the games in flight, the samples waiting, the generators, the
weights and Adam's moments — so a resumed run goes on exactly as the uninterrupted one.
Every `eval_minutes` the weights of the moment play `eval_deals` duplicate deals against the
game's ladder bots in a separate process (`parlour.learn.evaluate`), and the run goes on meanwhile.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .config import TrainConfig

__all__ = ["SelfPlay", "TrainConfig", "Trainer", "schedule"]


F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
RING = 1 << 22  # episodes whose returns are kept at once (far more than are ever in flight)


class SelfPlay(Protocol):
    """A game's B games in self-play on its batched engine (see the module docstring)."""

    game: str
    players: int
    state_size: int
    pair_size: int
    num_actions: int
    action_table: F32
    action_prior: F32  # each action's starting bias in Q (the game's rule of thumb)
    size: int
    games_dealt: int
    cut: int

    def meta(self) -> dict[str, Any]: ...

    def observe(self) -> tuple[F32, Any, npt.NDArray[np.uint64], I64]:
        """State features (B, S), pair tables (`tables.pairs(rows, ids)` -> (P, pair_size)),
        the legal moves as bits (B,) and the mover (B,)."""
        ...

    def step(self, actions: I64) -> tuple[I64, F32]: ...

    def get_state(self) -> dict[str, Any]: ...

    def set_state(self, data: dict[str, Any]) -> None: ...


def schedule(progress: float, cfg: TrainConfig) -> tuple[float, float]:
    """(learning rate, ε) at `progress` (0..1) of the run."""
    p = min(max(progress, 0.0), 1.0)
    warm = 0.01
    if p < warm:
        lr = cfg.lr * (0.1 + 0.9 * p / warm)
    else:
        t = (p - warm) / (1 - warm)
        lr = cfg.lr * (cfg.final_lr + (1 - cfg.final_lr) * 0.5 * (1 + math.cos(math.pi * t)))
    d = max(cfg.eps_decay, 1e-9)
    eps = cfg.eps_start + (cfg.eps_end - cfg.eps_start) * min(p / d, 1.0)
    return lr, eps


def popcount(words: npt.NDArray[np.uint64]) -> I64:
    return np.asarray(np.bitwise_count(words), np.int64)


def legal_pairs(legal: npt.NDArray[np.uint64], num_actions: int) -> tuple[I64, I64]:
    """The legal moves of R decisions as flat pairs: (decision row, action id), row by row."""
    bits = np.ascontiguousarray(legal, dtype="<u8").view(np.uint8).reshape(-1, 8)
    mask = np.unpackbits(bits, axis=1, count=num_actions, bitorder="little").view(np.bool_)
    rows, cols = np.nonzero(mask)
    return rows.astype(np.int64), cols.astype(np.int64)


def first_max(q: F32, rows: I64, r: int) -> I64:
    """Per decision (rows sorted, each present), the index into the pairs of its first best."""
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    best = np.maximum.reduceat(q, starts)
    hit = np.flatnonzero(q >= best[rows])
    first = np.r_[True, rows[hit][1:] != rows[hit][:-1]]
    out: I64 = hit[first]
    assert out.size == r
    return out


def pick_bit(legal: npt.NDArray[np.uint64], u: npt.NDArray[np.float64]) -> I64:
    """A uniformly random set bit of each word (u uniform in [0, 1))."""
    bits = np.ascontiguousarray(legal, dtype="<u8").view(np.uint8).reshape(-1, 8)
    mask = np.unpackbits(bits, axis=1, count=64, bitorder="little").view(np.bool_)
    count = mask.sum(axis=1)
    rank = np.minimum((u * count).astype(np.int64), count - 1)
    pos = np.cumsum(mask, axis=1) - 1
    hit = mask & (pos == rank[:, None])
    out: I64 = np.argmax(hit, axis=1).astype(np.int64)
    return out


def bucket(n: int, least: int) -> int:
    """The shape to pad n rows to: a power of two or 1.5 times one, at least `least` (jitted
    shapes come in few sizes, at most a third wasted)."""
    size = least
    while size < n:
        half = size // 2
        size = size + half if (size & (size - 1)) == 0 and half else 1 << size.bit_length()
    return size


@dataclass
class Timing:
    """Seconds spent per part of the loop (wall clock; the learner's waits included)."""

    parts: dict[str, float] = field(default_factory=dict)

    def add(self, part: str, seconds: float) -> None:
        self.parts[part] = self.parts.get(part, 0.0) + seconds

    def report(self) -> dict[str, float]:
        total = sum(self.parts.values()) or 1.0
        return {k: round(v / total, 4) for k, v in sorted(self.parts.items())}


class Trainer:
    """A run: its self-play games, its learner and its bookkeeping (see the module docstring)."""

    def __init__(
        self,
        cfg: TrainConfig,
        selfplay: SelfPlay,
        on_event: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        import jax

        from .dmc import Learner, QModel

        self.cfg = cfg
        self.sp = selfplay
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        key = jax.random.PRNGKey(cfg.seed)
        model = QModel(
            key,
            selfplay.state_size,
            selfplay.pair_size,
            selfplay.action_table,
            cfg.tower,
            cfg.pairs,
            selfplay.action_prior,
        )
        if cfg.init:
            from .dmc import from_qnet
            from .qnet import load

            start = load(cfg.init)
            if (start.state_size, start.w_pair.shape[0]) != (
                selfplay.state_size,
                selfplay.pair_size,
            ) or start.action_table.shape != selfplay.action_table.shape:
                raise ValueError(f"{cfg.init} was trained on other features than these rules give")
            model = from_qnet(start)
        self.learner = Learner(model)
        self.rng = np.random.default_rng([cfg.seed, 1])
        b = selfplay.size
        self.epi_of_slot = np.arange(b, dtype=np.int64)
        self.next_epi = b
        self.ret = np.zeros((RING, selfplay.players), np.float32)
        self.done = np.zeros(RING, np.bool_)
        self.pending: list[dict[str, np.ndarray[Any, Any]]] = []
        self.queue: list[dict[str, Any]] = []  # row numbers into chunks of `pending`
        self.queued = 0
        self.decisions = 0  # moves played in self-play (every seat, forced ones too)
        self.choices = 0  # of them, decisions with more than one legal move
        self.samples = 0  # samples learned from
        self.updates = 0
        self.games = 0
        self.steps = 0
        self.wins_first = 0.0  # self-play: seat 0's wins (a check of the seats' balance)
        self.loss_sum = 0.0
        self.loss_n = 0
        self.timing = Timing()
        self.seconds = 0.0  # wall seconds of training up to `_t0` (see `elapsed`)
        self._t0 = time.perf_counter()
        self.cpu = 0.0  # CPU seconds of this process's training (the same)
        self.on_event = on_event or (lambda e: None)
        self.log_path = self.out / "log.jsonl"
        self._losses: list[Any] = []

    # --- checkpoints ----------------------------------------------------------------------------
    def checkpoint_path(self) -> Path:
        return self.out / "checkpoint.pkl"

    def save_checkpoint(self) -> None:
        self._drain_losses()
        self.seconds, self._t0 = self.elapsed, time.perf_counter()
        data = {
            "config": self.cfg.to_json(),
            "selfplay": self.sp.get_state(),
            "learner": self.learner.get_state(),
            "rng": self.rng.bit_generator.state,
            "epi_of_slot": self.epi_of_slot,
            "next_epi": self.next_epi,
            "ret": self.ret,
            "done": self.done,
            "pending": self.pending,
            "queue": self.queue,
            "counters": {
                k: getattr(self, k)
                for k in (
                    "queued",
                    "decisions",
                    "choices",
                    "samples",
                    "updates",
                    "games",
                    "steps",
                    "wins_first",
                    "seconds",
                    "cpu",
                    "loss_sum",
                    "loss_n",
                )
            },
            "timing": self.timing.parts,
        }
        tmp = self.checkpoint_path().with_suffix(".tmp")
        with open(tmp, "wb") as f:
            pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, self.checkpoint_path())  # never a half-written checkpoint

    def load_checkpoint(self) -> None:
        with open(self.checkpoint_path(), "rb") as f:
            data = pickle.load(f)  # our own file, written by save_checkpoint
        mine = self.cfg.to_json()
        theirs = data["config"]
        differ = [
            k
            for k in mine
            if k
            not in ("decisions", "hours", "eval_minutes", "checkpoint_minutes", "out", "eval_deals")
            and mine[k] != theirs.get(k)
        ]
        if differ:
            raise ValueError(
                "the checkpoint in "
                f"{self.out} was made with other settings ({', '.join(differ)}); "
                "start a fresh run with --fresh, or another --out"
            )
        self.sp.set_state(data["selfplay"])
        self.learner.set_state(data["learner"])
        self.rng.bit_generator.state = data["rng"]
        self.epi_of_slot = data["epi_of_slot"]
        self.next_epi = data["next_epi"]
        self.ret = data["ret"]
        self.done = data["done"]
        self.pending = [
            c if "left" in c else {**c, "left": np.ones(c["epi"].size, np.bool_)}
            for c in data["pending"]
        ]  # a checkpoint of before the rows were kept in place: every row of a chunk is left
        self.queue = [
            q if "src" in q else {"src": q, "idx": np.arange(q["epi"].size), "target": q["target"]}
            for q in data["queue"]
        ]
        for k, v in data["counters"].items():
            setattr(self, k, v)
        self.timing.parts = dict(data["timing"])
        self._t0 = time.perf_counter()

    # --- the loop --------------------------------------------------------------------------------
    @property
    def elapsed(self) -> float:
        """Wall seconds of training, over every resumed part."""
        return self.seconds + time.perf_counter() - self._t0

    def progress(self) -> float:
        done = self.decisions / max(1, self.cfg.decisions)
        if self.cfg.hours > 0:
            done = max(done, self.elapsed / (self.cfg.hours * 3600))
        return done

    def finished(self) -> bool:
        return self.progress() >= 1.0

    def step(self) -> None:
        """One move in every game: act, keep, step the engine, hand out returns, learn."""
        cfg, sp, t = self.cfg, self.sp, self.timing
        clock = time.perf_counter
        lr, eps = schedule(self.progress(), cfg)
        t0 = clock()
        state, pair, legal, mover = sp.observe()
        t1 = clock()
        t.add("features", t1 - t0)
        count = popcount(legal)
        choice = np.flatnonzero(count > 1)
        # A forced move (one legal action): its lowest set bit.
        actions = np.log2((legal & (~legal + np.uint64(1))).astype(np.float64)).astype(np.int64)
        r = int(choice.size)
        if r:
            rows, ids = legal_pairs(legal[choice], sp.num_actions)
            q = self._act(state[choice], rows, ids, pair.pairs(choice[rows], ids))
            best = ids[first_max(q, rows, r)]
            explore = self.rng.random(r) < eps
            if explore.any():
                k = np.flatnonzero(explore)
                u = self.rng.random(k.size)
                best[k] = pick_bit(legal[choice[k]], u)
            actions[choice] = best
            t2 = clock()
            t.add("acting network", t2 - t1)
            # The Adam steps are dispatched here, on the samples of games ended by the last
            # step: JAX runs them on the other core while NumPy steps the games and derives
            # the next features, and the next step's acting waits for them (so every decision
            # is taken with every update made so far).
            while self.queued >= cfg.minibatch:
                self._learn(lr)
            t1 = clock()
            t.add("learner", t1 - t2)
            t2 = t1
            self.pending.append(
                {
                    "state": state[choice],
                    "action": best.astype(np.int32),
                    "pair": pair.pairs(choice, best),
                    "epi": self.epi_of_slot[choice],
                    "seat": mover[choice],
                    "left": np.ones(r, np.bool_),  # rows not yet handed to the queue
                }
            )
            t1 = clock()
            t.add("samples", t1 - t2)
        ended, returns = sp.step(actions)
        t3 = clock()
        t.add("engine", t3 - t1)
        self.decisions += sp.size
        self.choices += r
        self.steps += 1
        if ended.size:
            e = self.epi_of_slot[ended]
            self.ret[e % RING] = returns
            self.done[e % RING] = True
            fresh = np.arange(self.next_epi, self.next_epi + ended.size, dtype=np.int64)
            self.next_epi += int(ended.size)
            self.done[fresh % RING] = False
            self.epi_of_slot[ended] = fresh
            self.games += int(ended.size)
            self.wins_first += float((returns[:, 0] > 0).sum())
        if self.steps % cfg.flush_every == 0:
            self._flush()
        t4 = clock()
        t.add("samples", t4 - t3)

    def _act(self, state: F32, rows: I64, ids: I64, pair: F32) -> F32:
        """Q of the flat (decision, move) pairs, padded to a few jitted shapes."""
        r, p = state.shape[0], rows.size
        rr, pp = bucket(r, 256), bucket(p, 1024)
        state = np.concatenate([state, np.zeros((rr - r, state.shape[1]), np.float32)])
        rows = np.concatenate([rows, np.zeros(pp - p, np.int64)]).astype(np.int32)
        ids = np.concatenate([ids, np.zeros(pp - p, np.int64)]).astype(np.int32)
        pair = np.concatenate([pair, np.zeros((pp - p, pair.shape[1]), np.float32)])
        q = np.asarray(self.learner.act(state, rows, ids, pair))
        out: F32 = q[:p]
        return out

    def _flush(self) -> None:
        """Hand the samples of ended games, with their returns as targets, to the queue. Each
        step's samples stay where they were written (a chunk, with a mask of the rows not yet
        handed on); the queue holds row numbers into the chunks, and only a minibatch is copied
        out, by `_learn`. A chunk most of whose rows have gone is copied down to the rest (a
        quarter or less of it), so memory stays near what the games in play have made."""
        if self.next_epi - int(self.epi_of_slot.min()) >= RING:
            raise RuntimeError("too many episodes in flight for the return ring")
        kept: list[dict[str, np.ndarray[Any, Any]]] = []
        for chunk in self.pending:
            left = chunk["left"]
            ready = self.done[chunk["epi"] % RING] & left
            idx = np.flatnonzero(ready)
            if idx.size:
                target = self.ret[chunk["epi"][idx] % RING, chunk["seat"][idx]]
                self.queue.append({"src": chunk, "idx": idx, "target": target})
                self.queued += int(idx.size)
                left[idx] = False
            rest = int(np.count_nonzero(left))
            if rest == 0:
                continue
            if 4 * rest <= left.size:
                # a new chunk of the rows left; the queue's rows still read the old one
                keep = np.flatnonzero(left)
                chunk = {k: v[keep] for k, v in chunk.items() if k != "left"}
                chunk["left"] = np.ones(keep.size, np.bool_)
            kept.append(chunk)
        self.pending = kept

    def _learn(self, lr: float) -> None:
        """One update on the oldest `minibatch` samples of the queue."""
        m = self.cfg.minibatch
        parts: list[dict[str, Any]] = []
        need = m
        while need:
            entry = self.queue[0]
            size = int(entry["idx"].size)
            if size <= need:
                parts.append(entry)
                self.queue.pop(0)
                need -= size
            else:
                src, idx, target = entry["src"], entry["idx"], entry["target"]
                parts.append({"src": src, "idx": idx[:need], "target": target[:need]})
                self.queue[0] = {"src": src, "idx": idx[need:], "target": target[need:]}
                need = 0
        batch = {
            k: np.concatenate([p["src"][k][p["idx"]] for p in parts])
            for k in ("state", "action", "pair")
        }
        target = np.concatenate([p["target"] for p in parts])
        self.queued -= m
        loss = self.learner.update(lr, batch["state"], batch["action"], batch["pair"], target)
        self._losses.append(loss)
        self.samples += m
        self.updates += 1
        if len(self._losses) >= 64:
            # read only the older half: those updates are done, or nearly, so reading their
            # losses does not make NumPy wait for the ones just dispatched
            self._drain_losses(32)

    def _drain_losses(self, count: int | None = None) -> None:
        take = self._losses if count is None else self._losses[:count]
        for loss in take:
            self.loss_sum += float(loss)
            self.loss_n += 1
        self._losses = self._losses[len(take) :]

    def take_loss(self) -> float | None:
        """The mean loss since the last call (None: no update yet)."""
        self._drain_losses()
        if not self.loss_n:
            return None
        out = self.loss_sum / self.loss_n
        self.loss_sum, self.loss_n = 0.0, 0
        return out

    # --- the weights -----------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        return {
            **self.sp.meta(),
            "tower": list(self.cfg.tower),
            "pairs": list(self.cfg.pairs),
            "decisions": self.decisions,
            "seed": self.cfg.seed,
        }

    def qnet(self) -> Any:
        from .dmc import to_qnet

        return to_qnet(self.learner.model, self.meta())

    def log(self, entry: dict[str, Any]) -> None:
        with open(self.log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
        self.on_event(entry)


def git_commit() -> str | None:
    """The commit of the code that trains (None outside a git checkout; a copy of the code run
    elsewhere names its commit in PARLOUR_COMMIT)."""
    if os.environ.get("PARLOUR_COMMIT"):
        return os.environ["PARLOUR_COMMIT"]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()
        return out.stdout.strip() + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None
