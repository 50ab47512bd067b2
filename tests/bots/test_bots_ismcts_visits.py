"""ISMCTS's root visits, pinned: the same seed gives the same search, move for move.

Each case is a position from a real game (a seed, then random moves), searched by a bot with a
fixed seed, in one of the search's modes: the game's own help (model, settle, paired, likely,
horizon, rollout, worth), a named playout, branching on every seat (`model=0`), a depth, the
paired guard, the review's `all_moves` with a trace, and the toy game's plain random playouts to
the end (capped by `max_playout`). The table below is what the search said when it was written;
a change to how the search is written (not what it does) must leave every visit count and mean as
it is.

A change that means to change the search's results prints the new table with
`.venv/bin/python tests/bots/test_bots_ismcts_visits.py` — and says in its commit why the
visits moved.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

import parlour
from parlour.bots import ISMCTSBot, make_bot
from parlour.core import State, registry

TESTS = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    rules: str | None
    spec: str
    seed: int  # the game's seed; the bot's is seed + 1
    plies: int  # random moves played before the decision (then on to a real choice)
    all_moves: bool = False  # the review's search (every legal move, with a trace)


CASES = {
    "whot-nigerian-2": Case("whot", 2, "nigerian", "ismcts:iterations=150", 3, 6),
    "whot-storey-3-likely-greedy": Case(
        "whot", 3, "storey-1935", "ismcts:iterations=120,likely=1,playout=greedy", 5, 4
    ),
    "whot-nigerian-2-no-model": Case(
        "whot", 2, "nigerian", "ismcts:iterations=150,model=0,depth=4", 8, 3
    ),
    "whot-english-4-review": Case(
        "whot", 4, "english", "ismcts:iterations=100,c=1.2", 2, 5, all_moves=True
    ),
    "sorry-regular-4-paired": Case("sorry", 4, "regular", "ismcts:iterations=120", 4, 30),
    "sorry-regular-4-guard": Case("sorry", 4, "regular", "ismcts:iterations=120,guard=0.5", 6, 40),
    "sorry-points-2-unpaired": Case(
        "sorry", 2, "points", "ismcts:iterations=100,paired=0,pool=7", 1, 12
    ),
    "sorry-partnership-4-no-model": Case(
        "sorry", 4, "partnership", "ismcts:iterations=100,model=0,paired=0,depth=3", 9, 25
    ),
    "tricks-4": Case("whoswho-tricks", 4, None, "ismcts:iterations=120", 2, 3),
    "tricks-4-no-model-unlikely": Case(
        "whoswho-tricks", 4, None, "ismcts:iterations=120,model=0,likely=0", 4, 5
    ),
    "books-3": Case("whoswho-books", 3, None, "ismcts:iterations=120", 3, 2),
    "books-3-review": Case("whoswho-books", 3, None, "ismcts:iterations=100", 5, 3, all_moves=True),
    "toy-3-random-capped": Case("toy", 3, None, "ismcts:iterations=90,max_playout=15", 1, 1),
    "toy-2-random-c0": Case("toy", 2, None, "ismcts:iterations=60,c=0", 2, 0),
}

# (iterations, ((move, visits, mean rounded to 9 places), ...) most visited or best first,
# and with a trace, its length and the sum of its rewards rounded to 9 places)
Pinned = tuple[int, tuple[tuple[str, int, float], ...], tuple[int, float] | None]
PINNED: dict[str, Pinned] = {
    "whot-nigerian-2": (
        150,
        (
            ("play 4 triangle", 45, 0.420845092),
            ("draw", 41, 0.387562675),
            ("play 3 triangle", 36, 0.370893499),
            ("play 5 triangle", 28, 0.328483976),
        ),
        None,
    ),
    "whot-storey-3-likely-greedy": (
        120,
        (("play 1 square", 79, 0.288908413), ("draw", 41, 0.220637055)),
        None,
    ),
    "whot-nigerian-2-no-model": (
        150,
        (("play 11 circle", 104, 0.471745166), ("draw", 46, 0.416427793)),
        None,
    ),
    "whot-english-4-review": (
        100,
        (("play 11 triangle", 63, 0.171432887), ("draw", 37, 0.074197911)),
        (100, 13.545594633),
    ),
    "sorry-regular-4-paired": (
        120,
        (("4 y13", 40, 0.263228719), ("4 b12", 40, 0.260060288), ("4 g8", 40, 0.25826453)),
        None,
    ),
    "sorry-regular-4-guard": (
        120,
        (("5 y11", 40, 0.244613597), ("5 b4", 40, 0.22075107), ("5 r4", 40, 0.216054949)),
        None,
    ),
    "sorry-points-2-unpaired": (
        100,
        (
            ("11 y11", 7, 0.521455318),
            ("2 enter r", 7, 0.520611039),
            ("2 r14", 6, 0.492735334),
            ("11 r14", 6, 0.499644279),
            ("11 y11<>y4", 6, 0.489113524),
            ("2 y11", 6, 0.487269239),
            ("2 r13", 6, 0.499252142),
            ("4 r13", 5, 0.451723326),
            ("1 enter r", 5, 0.459791288),
            ("11 r14<>y4", 5, 0.46944566),
            ("11 r13<>y4", 5, 0.479770684),
            ("4 y11", 5, 0.461144108),
            ("4 r14", 5, 0.447821892),
            ("8 y11", 5, 0.474954971),
            ("1 r14", 5, 0.479654838),
            ("8 r14", 4, 0.422882433),
            ("11 r13", 4, 0.434546847),
            ("8 r13", 4, 0.415337409),
            ("1 y11", 4, 0.43784041),
        ),
        None,
    ),
    "sorry-partnership-4-no-model": (
        100,
        (("4 r4", 50, 0.288376452), ("4 r14", 25, 0.240638556), ("4 g14", 25, 0.241281953)),
        None,
    ),
    "tricks-4": (
        120,
        (("play 12 money", 66, 0.334847525), ("play 11 money", 54, 0.330170863)),
        None,
    ),
    "tricks-4-no-model-unlikely": (
        120,
        (
            ("play 12 society", 43, 0.370907635),
            ("play 15 sport", 42, 0.368215473),
            ("play 5 money", 19, 0.318969801),
            ("play 7 sport", 16, 0.306667621),
        ),
        None,
    ),
    "books-3": (
        120,
        (
            ("ask 3 for 11 money", 5, 0.515737115),
            ("ask 1 for 8 brains", 4, 0.487279553),
            ("ask 1 for 5 money", 4, 0.408235127),
            ("ask 1 for 15 society", 4, 0.565165527),
            ("ask 3 for 5 money", 4, 0.402742534),
            ("ask 1 for 12 sport", 3, 0.424139645),
            ("ask 1 for 14 brains", 3, 0.45675747),
            ("ask 3 for 5 sport", 3, 0.247462594),
            ("ask 1 for 5 society", 3, 0.426991508),
            ("ask 1 for 7 money", 3, 0.279884341),
            ("ask 1 for 3 brains", 3, 0.451661576),
            ("ask 3 for 3 society", 3, 0.31233301),
            ("ask 1 for 11 sport", 3, 0.458572201),
            ("ask 3 for 15 money", 3, 0.259777581),
            ("ask 3 for 14 money", 3, 0.258678092),
            ("ask 3 for 8 sport", 3, 0.452814862),
            ("ask 3 for 5 society", 3, 0.40575911),
            ("ask 1 for 14 money", 3, 0.351417372),
            ("ask 3 for 6 money", 3, 0.481961513),
            ("ask 1 for 8 money", 3, 0.386592464),
            ("ask 1 for 5 sport", 3, 0.46639345),
            ("ask 3 for 8 brains", 3, 0.487961028),
            ("ask 3 for 14 brains", 2, 0.19288877),
            ("ask 3 for 3 brains", 2, 0.244246981),
            ("ask 1 for 11 money", 2, 0.221484601),
            ("ask 3 for 9 money", 2, 0.296210931),
            ("ask 3 for 15 sport", 2, 0.251383126),
            ("ask 1 for 15 sport", 2, 0.189461883),
            ("ask 1 for 6 society", 2, 0.187306502),
            ("ask 3 for 9 sport", 2, 0.320441989),
            ("ask 1 for 7 brains", 2, 0.182422073),
            ("ask 1 for 8 sport", 2, 0.305885127),
            ("ask 3 for 6 society", 2, 0.129028969),
            ("ask 1 for 9 sport", 2, 0.241601771),
            ("ask 3 for 11 sport", 2, 0.073300549),
            ("ask 1 for 9 money", 2, 0.090797986),
            ("ask 3 for 7 brains", 2, 0.277272727),
            ("ask 1 for 6 money", 2, 0.207205104),
            ("ask 3 for 12 sport", 2, 0.198438418),
            ("ask 3 for 8 money", 2, 0.314233888),
            ("ask 1 for 15 money", 2, 0.322222222),
            ("ask 3 for 9 society", 2, 0.251402957),
            ("ask 3 for 15 society", 2, 0.244588572),
            ("ask 1 for 9 society", 2, 0.129724628),
            ("ask 1 for 3 society", 2, 0.202196722),
            ("ask 3 for 7 money", 2, 0.125961318),
        ),
        None,
    ),
    "books-3-review": (
        100,
        (
            ("ask 3 for 11 brains", 3, 0.493309403),
            ("ask 3 for 9 sport", 3, 0.641883378),
            ("ask 2 for 11 sport", 3, 0.620412682),
            ("ask 3 for 3 brains", 3, 0.496988942),
            ("ask 2 for 10 society", 3, 0.746811943),
            ("ask 2 for 5 money", 2, 0.434120285),
            ("ask 2 for 15 society", 2, 0.355191108),
            ("ask 2 for 3 society", 2, 0.431187619),
            ("ask 2 for 12 money", 2, 0.487661575),
            ("ask 2 for 4 brains", 2, 0.476944366),
            ("ask 2 for 10 money", 2, 0.286511679),
            ("ask 2 for 9 sport", 2, 0.352249489),
            ("ask 2 for 13 brains", 2, 0.466605703),
            ("ask 3 for 14 sport", 2, 0.35350516),
            ("ask 3 for 8 money", 2, 0.616731518),
            ("ask 2 for 8 society", 2, 0.611642024),
            ("ask 2 for 11 brains", 2, 0.466766293),
            ("ask 2 for 4 money", 2, 0.495863455),
            ("ask 3 for 13 brains", 2, 0.418047048),
            ("ask 2 for 13 society", 2, 0.483174678),
            ("ask 2 for 14 society", 2, 0.298195777),
            ("ask 2 for 3 brains", 2, 0.413727905),
            ("ask 3 for 12 brains", 2, 0.333333333),
            ("ask 3 for 7 sport", 2, 0.493768288),
            ("ask 2 for 7 society", 2, 0.412266197),
            ("ask 3 for 10 money", 2, 0.517787413),
            ("ask 2 for 5 sport", 2, 0.156590494),
            ("ask 3 for 11 sport", 2, 0.56670535),
            ("ask 3 for 4 money", 2, 0.446522111),
            ("ask 3 for 14 society", 2, 0.236170647),
            ("ask 2 for 12 sport", 2, 0.399967384),
            ("ask 3 for 15 society", 2, 0.506501958),
            ("ask 3 for 12 money", 2, 0.412621359),
            ("ask 3 for 10 sport", 2, 0.336753456),
            ("ask 2 for 9 society", 2, 0.394674392),
            ("ask 2 for 7 sport", 1, 0.017509728),
            ("ask 3 for 10 society", 1, 0.152647975),
            ("ask 3 for 8 society", 1, 0.168965517),
            ("ask 3 for 8 sport", 1, 0.163879599),
            ("ask 2 for 5 brains", 1, 0.119047619),
            ("ask 2 for 12 brains", 1, 0.041474654),
            ("ask 3 for 7 society", 1, 0.132275132),
            ("ask 2 for 9 brains", 1, 0.003597122),
            ("ask 3 for 3 society", 1, 0.057109557),
            ("ask 3 for 5 sport", 1, 0.163879599),
            ("ask 3 for 3 money", 1, 0.12195122),
            ("ask 2 for 8 money", 1, 0.03960396),
            ("ask 2 for 3 money", 1, 0.21686747),
            ("ask 2 for 14 sport", 1, 0.168224299),
            ("ask 2 for 8 sport", 1, 0.1),
            ("ask 3 for 5 money", 1, 0.086206897),
            ("ask 3 for 13 society", 1, 0.121212121),
            ("ask 3 for 5 brains", 1, 0.039130435),
            ("ask 3 for 9 brains", 1, 0.085034014),
            ("ask 2 for 10 sport", 1, 0.102880658),
            ("ask 3 for 12 sport", 1, 0.089775561),
            ("ask 3 for 9 society", 1, 0.03874092),
            ("ask 2 for 11 society", 1, 0.163879599),
            ("ask 3 for 11 society", 1, 0.213973799),
            ("ask 3 for 4 brains", 1, 0.223744292),
        ),
        (100, 37.15340692),
    ),
    "toy-3-random-capped": (
        90,
        (("play 1", 36, 0.226851852), ("play 4", 30, 0.161111111), ("play 7", 24, 0.131944444)),
        None,
    ),
    "toy-2-random-c0": (
        60,
        (("play 1", 58, 0.25862069), ("play 9", 1, 0.0), ("play 2", 1, 0.0)),
        None,
    ),
}


@contextmanager
def toy_registered() -> Iterator[None]:
    """High Card registered (the registry as it was afterwards)."""
    saved = dict(registry._REGISTRY), set(registry._loaded)
    sys.path.insert(0, str(TESTS))
    try:
        registry.register_package("toy_game")
        yield
    finally:
        sys.path.remove(str(TESTS))
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved[0])
        registry._loaded.clear()
        registry._loaded.update(saved[1])


@pytest.fixture(scope="module", autouse=True)
def toy() -> Iterator[None]:
    with toy_registered():
        yield


def position(case: Case) -> State:
    """The case's decision: random moves from the seed, then on to a choice of two or more."""
    game = parlour.make(case.game, players=case.players, rules=case.rules)
    state: State = game.new_game(seed=case.seed)
    rng = random.Random(case.seed)
    ply = 0
    while ply < case.plies or len(state.legal_moves()) < 2:
        assert not state.is_over, "the case's game ended before its decision"
        state.apply(rng.choice(state.legal_moves()))
        ply += 1
    return state


def search(case: Case) -> Pinned:
    state = position(case)
    bot = make_bot(case.spec, state.game, seed=case.seed + 1)
    assert isinstance(bot, ISMCTSBot)
    seat = state.to_play
    assert seat is not None
    trace: list[tuple[parlour.core.Move, float]] | None = [] if case.all_moves else None
    stats = bot.search(state.view(seat), state.legal_moves(), trace, all_moves=case.all_moves)
    moves = tuple((str(m), visits, round(mean, 9)) for m, visits, mean in stats.moves)
    traced = None if trace is None else (len(trace), round(sum(r for _, r in trace), 9))
    return stats.iterations, moves, traced


@pytest.mark.parametrize("name", list(CASES))
def test_the_search_visits_each_root_move_as_pinned(name: str) -> None:
    assert search(CASES[name]) == PINNED[name]


def test_every_game_and_mode_is_pinned() -> None:
    games = {c.game for c in CASES.values()}
    assert games >= {"whot", "sorry", "whoswho-tricks", "whoswho-books"}
    assert set(PINNED) == set(CASES)


if __name__ == "__main__":  # print the table (see the module's docstring)
    with toy_registered():
        print("PINNED: dict[str, Pinned] = {")
        for key, case in CASES.items():
            print(f"    {key!r}: {search(case)!r},")
        print("}")
