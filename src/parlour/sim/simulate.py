"""Play many games between bots, reproducibly, in local processes or on a Ray cluster.

Reproducible from one master seed: game `i` is dealt from `game_seed(seed, i)` and its bots are
seeded from that game seed and their seat, so a row depends only on `(spec, seed, i)` — never on
`--jobs`, the backend or the order in which workers finish. Rows come back sorted by `i`.

Duplicate deals (`duplicate`): each deal is played once per seat assignment — game `i` is deal
`i // players` in rotation `i % players`, dealt from `game_seed(seed, i // players)` — so the
bots swap the same cards and card luck cancels between the games of a deal (between two players:
each deal twice, seats swapped). `parlour.sim.stats.paired_rate` scores such runs by deal.

Seats. `bots` are listed in seat order. With `rotate` (the default) they turn round the table from
game to game — in game `i` bot `k` sits in seat `(k + i) mod players` — so every bot plays every
seat equally often and a seat's advantage does not pass for a bot's strength. A tournament instead
plays each lineup from `lineups` (every choice of bots for the seats, each in every rotation).

Bots come from the registry (`make_bot`), or from `maker` where a run names one: the bot ladder
(benchmarks/ladder.py) seats its reference players so (`parlour.bots.reference`), and only those
may be `FullStateBot`s, handed the whole state instead of a view.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import parlour
from parlour.bots import make_bot
from parlour.bots.reference import FullStateBot
from parlour.core import Game, RulesError
from parlour.processes import exit_with_parent

__all__ = [
    "Row",
    "SimSpec",
    "game_seed",
    "play_game",
    "play_games",
    "run",
]

Row = dict[str, Any]
Progress = Callable[[int], None]
#: Builds a seat's bot from its spec, the game and a seed (the signature of `make_bot`).
BotMaker = Callable[[str, Game[Any, Any], int], Any]


def game_seed(master: int, i: int) -> int:
    """The seed of game `i` of a run: 63 bits of BLAKE2b of the master seed and the index."""
    h = hashlib.blake2b(f"parlour-sim:{master}:{i}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") >> 1


@dataclass(frozen=True)
class SimSpec:
    """Everything that decides a run's games (the CLI builds one; so can a script)."""

    game: str
    players: int
    bots: tuple[str, ...]
    rules: str | None = None
    overrides: tuple[tuple[str, str], ...] = ()
    seed: int = 0
    rotate: bool = True
    tournament: bool = False
    # Each deal once per seat assignment (see the module docstring); needs `rotate`.
    duplicate: bool = False
    # A game still going after this many moves is cut short: no winner, a tie for every seat.
    # (Bots can loop for ever under some house rules: see `play_game`.)
    max_moves: int | None = None
    lineups: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    # A module-level function, so that worker processes find it by name.
    maker: BotMaker | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.max_moves is not None and self.max_moves < 1:
            raise RulesError(f"max_moves must be at least 1, not {self.max_moves}")
        n = self.players
        if self.tournament:
            pool = self.bots
            if len(pool) >= n:
                combos = list(itertools.combinations(pool, n))
            else:
                combos = [tuple(pool[k % len(pool)] for k in range(n))]
            object.__setattr__(self, "lineups", tuple(combos))
        elif len(self.bots) != n:
            raise RulesError(f"{len(self.bots)} bots named for {n} seats")
        if self.duplicate and (self.tournament or not self.rotate):
            raise RulesError(
                "duplicate deals turn the bots round the table: not with a fixed seating"
            )

    def deal_seed(self, i: int) -> int:
        """The seed game `i` is dealt from (with `duplicate`, shared by the games of a deal)."""
        return game_seed(self.seed, i // self.players if self.duplicate else i)

    def make_game(self) -> Game[Any, Any]:
        return _game(self.game, self.players, self.rules, self.overrides)

    def seating(self, i: int) -> tuple[str, ...]:
        """The bot in each seat for game `i` (see the module docstring)."""
        n = self.players
        if self.tournament:
            lineup = self.lineups[i % len(self.lineups)]
            r = (i // len(self.lineups)) % n
            return tuple(lineup[(s - r) % n] for s in range(n))
        if not self.rotate:
            return self.bots
        return tuple(self.bots[(s - i) % n] for s in range(n))

    def check(self) -> None:
        """Raise RulesError now, in the parent, for a bad game, rule or bot name."""
        g = self.make_game()
        make = self.maker or make_bot
        for b in set(self.bots):
            make(b, g, 0)


@functools.lru_cache(maxsize=16)
def _game(
    name: str, players: int, rules: str | None, overrides: tuple[tuple[str, str], ...]
) -> Game[Any, Any]:
    g: Game[Any, Any] = parlour.make(name, players=players, rules=rules, **dict(overrides))
    return g


def play_game(spec: SimSpec, i: int) -> Row:
    """Play game `i` of the run and describe it in one row.

    A game still going after `spec.max_moves` moves is cut short (`finished` False): no winner,
    no points and every seat ranked first, so that it counts as a tie. Most games end by
    themselves, but a house rule can leave bots going round for ever (docs/lab/studies.md has one
    where two hint bots hand a card back and forth), and a run without a cap would then never
    end."""
    game = spec.make_game()
    seed = spec.deal_seed(i)
    seats = spec.seating(i)
    make = spec.maker or make_bot
    bots = [
        make(b, game, seed ^ (0x9E3779B97F4A7C15 * (s + 1) & ((1 << 63) - 1)))
        for s, b in enumerate(seats)
    ]
    sees_all = [isinstance(b, FullStateBot) for b in bots]
    state = game.new_game(seed=seed)
    first = state.to_play
    t0 = time.perf_counter()
    cap = spec.max_moves
    while not state.is_over and (cap is None or len(state.history) < cap):
        p = state.to_play
        assert p is not None
        if sees_all[p]:  # a reference that cheats by design (parlour.bots.reference)
            state.apply(bots[p].choose_from_state(state))
        else:
            state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    n = game.players
    if state.is_over:
        res = state.result()
        winners, points, ranks = list(res.winners), list(res.points), list(res.ranks)
        reason = res.reason
    else:  # cut short: a tie with no winner
        winners, points, ranks = [], [0.0] * n, [1] * n
        reason = f"cut short after {cap} moves"
    return {
        "game": i,
        "seed": seed,
        "bots": list(seats),
        "first": first,
        "winners": winners,
        "points": points,
        "ranks": ranks,
        "moves": len(state.history),
        "reason": reason,
        "finished": bool(state.is_over),
        "seconds": round(time.perf_counter() - t0, 4),
    }


def play_games(spec: SimSpec, indices: Sequence[int]) -> list[Row]:
    return [play_game(spec, i) for i in indices]


def _quiet_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, which stops handing out work and keeps what is done,
    and end when the parent is killed (nobody is left to take their games)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


def _chunks(n: int, size: int) -> Iterator[list[int]]:
    for start in range(0, n, size):
        yield list(range(start, min(n, start + size)))


def _chunk_size(games: int, jobs: int) -> int:
    return max(1, min(10, games // (jobs * 8) or 1))


@dataclass
class RunResult:
    rows: list[Row]
    requested: int
    interrupted: bool
    seconds: float

    @property
    def complete(self) -> bool:
        return not self.interrupted and len(self.rows) == self.requested


def run(
    spec: SimSpec,
    games: int,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    on_rows: Callable[[list[Row]], None] | None = None,
) -> RunResult:
    """Play `games` games. Ctrl-C (KeyboardInterrupt) stops the run and keeps the finished games.
    `on_rows` is told each batch of finished games as it comes (in the order they finish)."""
    spec.check()
    t0 = time.perf_counter()
    rows: list[Row] = []
    interrupted = False

    def done(batch: list[Row]) -> None:
        rows.extend(batch)
        if on_rows is not None:
            on_rows(batch)
        if progress is not None:
            progress(len(batch))

    try:
        if backend == "ray":
            _run_ray(spec, games, jobs, address, done)
        elif backend != "local":
            raise RulesError(f"no backend {backend!r}; use local or ray")
        elif jobs <= 1:
            for i in range(games):
                done([play_game(spec, i)])
        else:
            _run_local(spec, games, jobs, done)
    except KeyboardInterrupt:
        interrupted = True
    rows.sort(key=lambda r: int(r["game"]))
    return RunResult(rows, games, interrupted, time.perf_counter() - t0)


def _run_local(spec: SimSpec, games: int, jobs: int, done: Callable[[list[Row]], None]) -> None:
    size = _chunk_size(games, jobs)
    pending = _chunks(games, size)
    ex = ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_worker, initargs=(os.getpid(),))
    running: set[Future[list[Row]]] = set()
    try:
        for chunk in itertools.islice(pending, jobs * 2):
            running.add(ex.submit(play_games, spec, chunk))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                done(f.result())
                nxt = next(pending, None)
                if nxt is not None:
                    running.add(ex.submit(play_games, spec, nxt))
    except KeyboardInterrupt:
        # Stop at once: the games in flight are lost, the finished ones are kept.
        procs = getattr(ex, "_processes", None) or {}
        for proc in list(procs.values()):
            proc.terminate()
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown()


def _run_ray(
    spec: SimSpec, games: int, jobs: int, address: str | None, done: Callable[[list[Row]], None]
) -> None:
    import importlib

    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise RulesError("the Ray backend needs Ray: pip install 'parlour[cluster]'") from None
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), log_to_driver=False, include_dashboard=False)
    remote = ray.remote(play_games)
    width = max(1, int(ray.cluster_resources().get("CPU", jobs)))
    size = _chunk_size(games, width)
    pending = _chunks(games, size)
    running = [remote.remote(spec, c) for c in itertools.islice(pending, width * 2)]
    try:
        while running:
            ready, running = ray.wait(running, num_returns=1)
            for ref in ready:
                done(ray.get(ref))
                nxt = next(pending, None)
                if nxt is not None:
                    running.append(remote.remote(spec, nxt))
    except KeyboardInterrupt:
        for ref in running:
            ray.cancel(ref, force=True)
        raise


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 1))
