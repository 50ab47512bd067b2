"""Steps per second of each RL adapter beside the bare engine, random play (one core).

For each game, every adapter plays random legal moves for a time budget, starting new games as
they end, and the table shows decisions per second:

* engine      — `state.legal_moves()`, a random choice, `state.apply(move)`;
* encoding    — the same plus what an agent needs each step: `encoding.observe(view)` and
                `encoding.legal_mask(legal)`;
* pettingzoo  — `env.last()` (observation and mask) and `env.step(action)` per agent turn;
* gymnasium   — `env.step(action)` of the learning seat; the opponents (`random` bots) move inside
                the step, so one step is several moves: the column counts every move;
* openspiel   — `state.legal_actions()`, a random choice, `state.apply_action(a)`.

    python benchmarks/adapter_speed.py                 # 2 s per cell
    python benchmarks/adapter_speed.py --seconds 5 --games whot sorry
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import parlour
from parlour.adapters import openspiel as osp
from parlour.adapters import pettingzoo as pz
from parlour.adapters.encoding import encoding_for
from parlour.adapters.gymnasium import SeatEnv

TABLES: dict[str, dict[str, object]] = {
    "whot": {"players": 4, "rules": "nigerian"},
    "sorry": {"players": 4, "rules": "regular"},
    "whoswho-tricks": {"players": 4},
    "whoswho-books": {"players": 4},
}


def timed(seconds: float, play_one: Callable[[int], int]) -> float:
    """Play whole games (seed 0, 1, …) until the budget is spent; moves per second."""
    moves, seed, t0 = 0, 0, time.perf_counter()
    while True:
        moves += play_one(seed)
        seed += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return moves / elapsed


def engine(name: str, kw: dict[str, object], with_encoding: bool) -> Callable[[int], int]:
    game = parlour.make(name, **kw)  # type: ignore[arg-type]
    enc = encoding_for(game)

    def play(seed: int) -> int:
        state, rng, n = game.new_game(seed=seed), random.Random(seed), 0
        while not state.is_over:
            legal = state.legal_moves()
            if with_encoding:
                enc.observe(state.view(state.to_play))
                enc.legal_mask(legal)
            state.apply(rng.choice(legal))
            n += 1
        return n

    return play


def pettingzoo(name: str, kw: dict[str, object]) -> Callable[[int], int]:
    env = pz.env(name, **kw)
    rng = np.random.default_rng(0)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n

    return play


def gymnasium(name: str, kw: dict[str, object]) -> Callable[[int], int]:
    env = SeatEnv(name, opponents=["random"], **kw)  # type: ignore[arg-type]

    def play(seed: int) -> int:
        _obs, info = env.reset(seed=seed)
        while True:
            _obs, _r, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
            if term or trunc:
                return env.moves

    return play


def openspiel(name: str, kw: dict[str, object]) -> Callable[[int], int]:
    game = osp.load(name, seed=0, **kw)  # type: ignore[arg-type]

    def play(seed: int) -> int:
        state, rng, n = game.new_initial_state(), random.Random(seed), 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return play


def player(column: str, name: str, kw: dict[str, object]) -> Callable[[int], int]:
    if column in ("engine", "encoding"):
        return engine(name, kw, column == "encoding")
    return {"pettingzoo": pettingzoo, "gymnasium": gymnasium, "openspiel": openspiel}[column](
        name, kw
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", nargs="*", default=list(TABLES))
    args = ap.parse_args()
    cols = ("engine", "encoding", "pettingzoo", "gymnasium", "openspiel")
    print(f"random play, moves per second ({args.seconds:g} s per cell, one core)\n")
    print(f"{'game':<20}" + "".join(f"{c:>12}" for c in cols))
    for name in args.games:
        kw = TABLES[name]
        row = [timed(args.seconds, player(c, name, kw)) for c in cols]
        label = f"{name} {kw['players']}p"
        print(f"{label:<20}" + "".join(f"{x:>12,.0f}" for x in row), flush=True)


if __name__ == "__main__":
    main()
