"""Records of real games for the review's tests: one per game, seat 0 a random player (so it
makes mistakes to find), the others the hint bot."""

from __future__ import annotations

from functools import cache

import parlour
from parlour.bots import make_bot
from parlour.core import GameRng, Record
from parlour.review import Budget

# (game, players, rules): every registered game of the issue, at a table size the search knows
GAMES = [
    ("whot", 2, "nigerian"),
    ("sorry", 4, "regular"),
    ("whoswho-tricks", 4, "standard"),
    ("whoswho-books", 3, "standard"),
]
IDS = [g for g, _, _ in GAMES]

# A small search: enough to rank the moves of a test's positions, cheap enough for many of them.
SMALL = Budget(iterations=48, min_visits=6)


@cache
def played(name: str, players: int, rules: str, seed: int = 1) -> Record:
    """A finished game: seat 0 plays at random, the others by the hint bot's rules."""
    game = parlour.make(name, players=players, rules=rules)
    state = game.new_game(seed=seed)
    bots = [make_bot("random" if p == 0 else "hint", game, seed=seed + p) for p in range(players)]
    while not state.is_over:
        p = state.to_play
        assert p is not None
        state.apply(bots[p].choose(state.view(p), state.legal_moves()))
    record: Record = state.record()
    return record


def head(record: Record, moves: int) -> Record:
    """The record's first `moves` moves (fewer if need be: always an unfinished game)."""
    moves = min(moves, len(record.moves) - 1)
    return Record(
        record.game, record.players, record.rules, record.seed, record.setup, record.moves[:moves]
    )


def hidden_pairs(
    name: str, players: int, rules: str, seat: int, count: int
) -> list[tuple[Record, Record]]:
    """Records of one decision of `seat` in a real game: the position before it, and the same
    position with everything hidden from `seat` redrawn (`permute_hidden`); then the move played.
    The first `count` decisions where something hidden did move."""
    record = played(name, players, rules)
    state = parlour.replay(record, upto=0)
    out: list[tuple[Record, Record]] = []
    for ply, text in enumerate(record.moves):
        if state.to_play == seat and len(state.legal_moves()) > 1 and len(out) < count:
            real = state.position()
            other = state.permute_hidden(seat, GameRng(1000 + ply)).position()
            if other != real:
                rec = record
                one, two = (
                    Record(rec.game, players, rec.rules, rec.seed, {"position": p}, (text,))
                    for p in (real, other)
                )
                out.append((one, two))
        state.apply(text)
    assert len(out) == count, "too few decisions with something hidden to redraw"
    return out
