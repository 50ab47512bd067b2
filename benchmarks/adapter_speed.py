"""Steps per second of each RL adapter beside the bare engine, random play (one core).

For each game, every column plays random legal moves, starting new games as they end, and the
table shows decisions per CPU-second (time.process_time, so that other processes on the machine
count less):

* engine      — `state.legal_moves()`, a random choice, `state.apply(move)`;
* view+enc    — the same plus the whole re-encoding an agent needed before observers:
                `encoding.observe(state.view(player))` and `encoding.legal_mask(legal)`;
* observer    — the same plus what the Gymnasium adapter does each step: the seat's
                `encoding.observer(state, seat).observe()` and `encoding.mask(legal)` (the
                PettingZoo environment keeps one `encoding.table_observer(state)` instead);
* pettingzoo  — `env.last()` (observation and mask) and `env.step(action)` per agent turn;
* gymnasium   — `env.step(action)` of the learning seat; the opponents (`random` bots) move inside
                the step, so one step is several moves: the column counts every move;
* openspiel   — `state.legal_actions()`, a random choice, `state.apply_action(a)`.

Every column's agent is the same cheap uniform choice: `random.Random(seed).choice` among the
legal moves (engine, view+enc, observer), among the mask's legal ids (pettingzoo, gymnasium), or
among the legal actions (openspiel) — its cost is part of each step. The mask is read as booleans,
`mask.view(np.bool_).nonzero()[0]`, as a masked agent converts it: NumPy finds the nonzero
entries of an int8 array one element at a time, 86 µs for Sorry!'s 43,140 ids against 6 µs for
booleans, which alone would hold Sorry! under 10% (`--agent int8` measures it that way).

Each cell's time is split into rounds taken in turn with every other cell, so a change in the
machine's load falls on all alike; each round's figure is divided by the engine's figure of the
same game in the same round, and the table prints the min/median/max of the figures and of those
ratios. The target of issue 21 is pettingzoo and gymnasium at ≥ 25% of the engine.

    python benchmarks/adapter_speed.py                 # 3 rounds of 1 s per cell
    python benchmarks/adapter_speed.py --rounds 5 --seconds 0.5 --games whot sorry
    python benchmarks/adapter_speed.py --columns pettingzoo gymnasium   # (and the engine)
    python benchmarks/adapter_speed.py --profile --games sorry --columns pettingzoo
                             # cProfile (CPU time) of each cell instead: where a step's time goes
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import parlour
from parlour.adapters import openspiel as osp
from parlour.adapters import pettingzoo as pz
from parlour.adapters.encoding import encoding_for
from parlour.adapters.gymnasium import SeatEnv

#: label: (game, table)
TABLES: dict[str, tuple[str, dict[str, object]]] = {
    "whot": ("whot", {"players": 4, "rules": "nigerian"}),
    "whot-storey": ("whot", {"players": 4, "rules": "storey-1935"}),
    "sorry": ("sorry", {"players": 4, "rules": "regular"}),
    "whoswho-tricks": ("whoswho-tricks", {"players": 4}),
    "whoswho-books": ("whoswho-books", {"players": 4}),
}
COLUMNS = ("engine", "view+enc", "observer", "pettingzoo", "gymnasium", "openspiel")
TARGET = 0.25  # pettingzoo and gymnasium steps/s ÷ engine moves/s (issue 21)

PlayGame = Callable[[int], int]
Ids = Callable[[np.ndarray], np.ndarray]


def bool_ids(mask: np.ndarray) -> np.ndarray:
    return mask.view(np.bool_).nonzero()[0]


def int8_ids(mask: np.ndarray) -> np.ndarray:
    return mask.nonzero()[0]


def timed(seconds: float, play_one: PlayGame, seed: int) -> tuple[float, int]:
    """Play whole games (seeds `seed`, `seed + 1`, …) for `seconds` of CPU time: moves per
    CPU-second, and the next seed."""
    moves, t0 = 0, time.process_time()
    while True:
        moves += play_one(seed)
        seed += 1
        elapsed = time.process_time() - t0
        if elapsed >= seconds:
            return moves / elapsed, seed


def engine(name: str, kw: dict[str, object], extra: str) -> PlayGame:
    game = parlour.make(name, **kw)  # type: ignore[arg-type]
    enc = encoding_for(game)

    def play(seed: int) -> int:
        state, choice, n = game.new_game(seed=seed), random.Random(seed).choice, 0
        observers = (
            [enc.observer(state, p) for p in range(game.players)] if extra == "observer" else []
        )
        while not state.is_over:
            legal = state.legal_moves()
            p = state.to_play
            assert p is not None
            if extra == "view+enc":
                enc.observe(state.view(p))
                enc.legal_mask(legal)
            elif extra == "observer":
                observers[p].observe()
                enc.mask(legal)
            state.apply(choice(legal))
            n += 1
        return n

    return play


def pettingzoo(name: str, kw: dict[str, object], ids: Ids) -> PlayGame:
    env = pz.env(name, **kw)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        choice, n = random.Random(seed).choice, 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(choice(ids(obs["action_mask"])))
            n += 1
        return n

    return play


def gymnasium(name: str, kw: dict[str, object], ids: Ids) -> PlayGame:
    env = SeatEnv(name, opponents=["random"], **kw)  # type: ignore[arg-type]

    def play(seed: int) -> int:
        _obs, info = env.reset(seed=seed)
        choice = random.Random(seed).choice
        while True:
            action = choice(ids(info["action_mask"]))
            _obs, _r, term, trunc, info = env.step(action)
            if term or trunc:
                return env.moves

    return play


def openspiel(name: str, kw: dict[str, object]) -> PlayGame:
    game = osp.load(name, seed=0, **kw)  # type: ignore[arg-type]

    def play(seed: int) -> int:
        state, choice, n = game.new_initial_state(), random.Random(seed).choice, 0
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            n += 1
        return n

    return play


def player(column: str, label: str, ids: Ids = bool_ids) -> PlayGame:
    name, kw = TABLES[label]
    if column in ("engine", "view+enc", "observer"):
        return engine(name, kw, column)
    if column == "pettingzoo":
        return pettingzoo(name, kw, ids)
    if column == "gymnasium":
        return gymnasium(name, kw, ids)
    return openspiel(name, kw)


def profile(plays: dict[tuple[str, str], PlayGame], seconds: float, top: int) -> None:
    """Each cell under cProfile for `seconds` of CPU time: the functions that took longest."""
    for (label, column), play in plays.items():
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        rate, _seed = timed(seconds, play, 0)
        prof.disable()
        print(f"\n=== {label} {column}: {rate / 1000:,.1f}k moves per CPU-second, profiled")
        pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def spread(xs: list[float], fmt: str) -> str:
    return "/".join(format(x, fmt) for x in (min(xs), statistics.median(xs), max(xs)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per cell per round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--games", nargs="*", default=list(TABLES), choices=list(TABLES))
    ap.add_argument(
        "--agent",
        choices=("bool", "int8"),
        default="bool",
        help="read the mask as booleans (default) or as the int8 array itself",
    )
    ap.add_argument(
        "--profile", action="store_true", help="profile each cell once instead of timing rounds"
    )
    ap.add_argument("--top", type=int, default=20, help="functions listed per profile")
    ap.add_argument(
        "--columns",
        nargs="*",
        default=list(COLUMNS),
        choices=list(COLUMNS),
        help="the columns to measure (engine is always measured: the ratios need it)",
    )
    args = ap.parse_args()
    columns = tuple(c for c in COLUMNS if c == "engine" or c in args.columns)
    cells = [(g, c) for g in args.games for c in columns]
    ids = bool_ids if args.agent == "bool" else int8_ids
    plays = {cell: player(cell[1], cell[0], ids) for cell in cells}
    for play in plays.values():  # warm up: imports, caches, lazily built tables
        play(10**9)
    if args.profile:
        profile(plays, args.seconds, args.top)
        return
    rates: dict[tuple[str, str], list[float]] = {cell: [] for cell in cells}
    seeds = dict.fromkeys(cells, 0)
    for r in range(args.rounds):
        order = cells if r % 2 == 0 else cells[::-1]  # early in one round, late in the next
        for cell in order:
            rate, seeds[cell] = timed(args.seconds, plays[cell], seeds[cell])
            rates[cell].append(rate)

    print(
        f"random play, moves per CPU-second: min/median/max over {args.rounds} interleaved "
        f"rounds of {args.seconds:g} s per cell; the agents read the mask as {args.agent}\n"
    )
    width = 22
    print(f"{'game':<18}" + "".join(f"{c:>{width}}" for c in columns))
    for name in args.games:
        label = f"{name} {TABLES[name][1]['players']}p"
        row = [spread([x / 1000 for x in rates[(name, c)]], ",.1f") + "k" for c in columns]
        print(f"{label:<18}" + "".join(f"{x:>{width}}" for x in row))
    print(
        f"\nthe same ÷ the engine's figure of the same round, min/median/max "
        f"(target: pettingzoo and gymnasium ≥ {TARGET:.0%})\n"
    )
    print(f"{'game':<18}" + "".join(f"{c:>{width}}" for c in columns[1:]))
    for name in args.games:
        label = f"{name} {TABLES[name][1]['players']}p"
        base = rates[(name, "engine")]
        row = []
        for c in columns[1:]:
            ratios = [x / b for x, b in zip(rates[(name, c)], base, strict=True)]
            verdict = ""
            if c in ("pettingzoo", "gymnasium"):
                verdict = " met" if statistics.median(ratios) >= TARGET else " NOT met"
            row.append(spread([x * 100 for x in ratios], ".1f") + "%" + verdict)
        row = [f"{x:>{width}}" if len(x) < width else " " + x for x in row]
        print(f"{label:<18}" + "".join(f"{x:>{width}}" for x in row))


if __name__ == "__main__":
    main()
