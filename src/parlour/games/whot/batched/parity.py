"""Side-by-side play of the batched engine and the reference engine: the parity check.

`check_parity(players, rules, games)` deals `games` games with seeds `seed, seed + 1, …` in both
engines, plays them in lockstep with random legal actions drawn from the batched engine's masks
(a seeded `numpy.random.Generator`), and compares, before every move and at the end:

* the legal action set (the batched `legal` bits against `WhotEncoding`'s ids of the reference's
  `legal_moves()`), and the player to move;
* that both games end at the same move, with the same winners, points and kind of ending;
* optionally (`observe_every`), the observation against `WhotEncoding.observe(state.view(p))`.

Half the games choose uniformly among the legal actions; the other half play a card whenever one
is legal ("eager"). Uniform play draws often, so it reaches reshuffles and hands counted when the
market runs dry; eager play empties hands, so it reaches wins and long chains of powers. A game
longer than `max_moves` (two-player Nigerian games under uniform play average thousands of moves)
is compared move for move up to that point and counted as `capped`.

Used by tests/vector (a small count) and `benchmarks/vector_speed.py --parity N` (a large one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import parlour
from parlour.core import Move, State
from parlour.games.whot.encoding import WhotEncoding
from parlour.games.whot.rules import WhotRules

from .engine import DRAW_BIT, WhotBatch, pick_legal

__all__ = ["ParityReport", "check_parity"]


@dataclass
class ParityReport:
    """What a parity run compared."""

    players: int
    rules: str
    games: int = 0
    moves: int = 0
    finished: int = 0  # compared to the end, result included
    capped: int = 0  # compared for their first max_moves moves only
    by_count: int = 0  # of the finished: ended with hands counted (a draw nothing could supply)
    observations: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def __str__(self) -> str:
        verdict = "identical" if self.ok else f"{len(self.mismatches)} MISMATCH(ES)"
        return (
            f"{self.rules} {self.players}p: {self.games:,} games, {self.moves:,} moves, "
            f"{self.finished:,} to the end ({self.by_count:,} by count), {self.capped:,} capped, "
            f"{self.observations:,} observations: {verdict}"
        )


def check_parity(
    players: int,
    rules: str | WhotRules,
    games: int,
    seed: int = 0,
    chunk: int = 256,
    max_moves: int = 2_000,
    observe_every: int = 0,
    max_mismatches: int = 5,
    engine: WhotBatch | None = None,
) -> ParityReport:
    """Play `games` games in both engines side by side, `chunk` at a time; see the module
    docstring. `engine`: the batched engine to check (by default `WhotBatch(players, rules)`)."""
    vec = WhotBatch(players, rules) if engine is None else engine
    name = rules if isinstance(rules, str) else "custom"
    ref = parlour.make("whot", players=players, rules=rules)
    enc = WhotEncoding(ref)
    ids: dict[Move, int] = dict(enc.index)
    report = ParityReport(players, name)
    for start in range(0, games, chunk):
        size = min(chunk, games - start)
        seeds = np.arange(seed + start, seed + start + size, dtype=np.int64)
        _compare_batch(vec, ref, enc, ids, seeds, max_moves, observe_every, report)
        if len(report.mismatches) >= max_mismatches:
            break
    return report


def _bits(moves: list[Move], ids: dict[Move, int]) -> int:
    out = 0
    for m in moves:
        out |= 1 << ids[m]
    return out


def _compare_batch(
    vec: WhotBatch,
    ref: Any,
    enc: WhotEncoding,
    ids: dict[Move, int],
    seeds: np.ndarray[Any, Any],
    max_moves: int,
    observe_every: int,
    report: ParityReport,
) -> None:
    rng = np.random.default_rng([int(seeds[0]), len(seeds), 2024])
    eager = rng.random(len(seeds)) < 0.5
    st = vec.deal(seeds)
    states: list[State] = [ref.new_game(seed=int(s)) for s in seeds]
    moves_of = [enc.moves[a] for a in range(enc.num_actions)]
    history: list[list[int]] = [[] for _ in seeds]
    live = list(range(len(seeds)))
    report.games += len(seeds)

    def fail(g: int, what: str) -> None:
        report.mismatches.append(
            f"seed {int(seeds[g])} ({'eager' if eager[g] else 'uniform'} play), "
            f"after moves {history[g]}: {what}"
        )

    for move_no in range(max_moves + 1):
        legal = st.legal.tolist()
        cur = st.cur.tolist()
        done = st.done.tolist()
        still: list[int] = []
        for g in live:
            s = states[g]
            if s.is_over or done[g]:
                if not (s.is_over and done[g]):
                    fail(g, f"reference over: {s.is_over}, batched over: {done[g]}")
                    continue
                _compare_result(vec, st, s, g, fail, report)
                if observe_every:
                    _compare_obs(vec, enc, st, s, g, int(st.mover[g]), fail, report)
                continue
            want = _bits(s.legal_moves(), ids)
            if legal[g] != want or cur[g] != s.to_play:
                fail(
                    g,
                    f"to move {s.to_play} legal {_ids(want)}; batched: to move {cur[g]} "
                    f"legal {_ids(legal[g])}",
                )
                continue
            if observe_every and move_no % observe_every == 0:
                _compare_obs(vec, enc, st, s, g, cur[g], fail, report)
            still.append(g)
        if len(report.mismatches) > 0 or not still:
            live = still
            break
        if move_no == max_moves:
            report.capped += len(still)
            live = []
            break
        live = still
        u = rng.random(len(seeds))
        plays = st.legal & ~np.uint64(DRAW_BIT)
        pool = np.where(eager & (plays != 0), plays, st.legal)
        actions = pick_legal(pool, u)
        for g in live:
            a = int(actions[g])
            states[g].apply(moves_of[a])
            history[g].append(a)
        report.moves += len(live)
        st = vec.step(st, actions)


def _ids(bits: int) -> list[int]:
    return [i for i in range(bits.bit_length()) if bits >> i & 1]


def _compare_result(
    vec: WhotBatch, st: Any, s: State, g: int, fail: Any, report: ParityReport
) -> None:
    res = s.result()
    winners = tuple(int(p) for p in np.flatnonzero(st.winners[g]))
    points = tuple(int(x) for x in st.points[g])
    by_count = "lowest hand wins" in res.reason
    if winners != tuple(res.winners) or points != tuple(res.points) or by_count != st.by_count[g]:
        fail(
            g,
            f"result: reference winners {res.winners} points {res.points} ({res.reason}); "
            f"batched winners {winners} points {points} by count {bool(st.by_count[g])}",
        )
        return
    report.finished += 1
    report.by_count += by_count


def _compare_obs(
    vec: WhotBatch,
    enc: WhotEncoding,
    st: Any,
    s: State,
    g: int,
    viewer: int,
    fail: Any,
    report: ParityReport,
) -> None:
    want = enc.observe(s.view(viewer))
    got = vec.observe(st.take(slice(g, g + 1)))[0]
    if not np.array_equal(want, got):
        fields = enc.layout.split(want)
        mine = enc.layout.split(got)
        diff = [k for k in fields if not np.array_equal(fields[k], mine[k])]
        fail(g, f"observation for P{viewer} differs in {diff}")
        return
    report.observations += 1
