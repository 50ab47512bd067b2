"""Puzzles from real games: one clearly best move, a position that gives nothing hidden away."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from review_testkit import GAMES, IDS, head, hidden_pairs, played

import parlour
from parlour.core import LoadError, RulesError, view_to_wire
from parlour.review import Budget, Marks, analyse, record_hash
from parlour.review.puzzles import (
    PUZZLE_FORMAT,
    PUZZLES_FORMAT,
    Puzzle,
    find_puzzles,
    puzzles_to_json,
)

BUDGET = Budget(iterations=120, min_visits=10)


def _no_events(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_puzzles_set_up_the_players_view_with_its_moves(
    name: str, players: int, rules: str
) -> None:
    """Every decision with a single best move, made a puzzle (no margin, no noise test): set up,
    it is the seat's turn with the same moves, and the seat sees what it saw in the game."""
    record = head(played(name, players, rules), 120)
    analysis = analyse(record, 0, BUDGET, seed=1, marks=Marks(z=0))
    puzzles = find_puzzles(analysis, record, margin=1e-6, seed=4)
    unique = [d for d in analysis.decisions if d.moves[0].estimate - d.moves[1].estimate >= 1e-6]
    assert puzzles and len(puzzles) == len(unique)  # none lost in setting up its position
    by_ply = {d.ply: d for d in analysis.decisions}
    margins = [p.margin for p in puzzles]
    assert margins == sorted(margins, reverse=True)  # the clearest first
    for p in puzzles:
        ply = p.source["ply"]
        d = by_ply[ply]
        assert p.moves == d.moves and p.answer == d.best.move
        assert p.margin == pytest.approx(d.moves[0].estimate - d.moves[1].estimate, abs=1e-6)
        assert p.source == {"record": record_hash(record), "ply": ply, "played": d.played}
        state = p.state()
        real = parlour.replay(record, upto=ply)
        assert state.to_play == p.seat == 0
        assert {str(m) for m in state.legal_moves()} == {m.move for m in p.moves}
        assert _no_events(state.view(0)) == _no_events(real.view(0))
        assert p.history == view_to_wire(real.view(0))["events"]
        data = json.loads(json.dumps(p.to_dict(), allow_nan=False))  # plain JSON, and back
        assert data["format"] == PUZZLE_FORMAT and Puzzle.from_dict(data) == p


def test_a_puzzle_is_a_clear_choice() -> None:
    """At the defaults a puzzle's answer leads every other move by 15 points of win chance and by
    two standard errors of that lead."""
    record = played("whot", 2, "nigerian")
    analysis = analyse(record, 0, BUDGET, seed=1)
    puzzles = find_puzzles(analysis, record, seed=4)
    assert puzzles, "a random player's game of Whot! has a clear choice somewhere"
    clear = {
        d.ply
        for d in analysis.decisions
        if d.moves[0].estimate - d.moves[1].estimate >= 0.15 - 1e-9
        and d.moves[0].estimate - d.moves[1].estimate >= 2 * (d.moves[1].gap_se or 1)
    }
    assert {p.source["ply"] for p in puzzles} == clear
    assert all(p.margin >= 0.15 for p in puzzles)


@pytest.mark.parametrize(("name", "players", "rules"), GAMES, ids=IDS)
def test_a_puzzle_does_not_depend_on_the_hidden_cards(name: str, players: int, rules: str) -> None:
    """Two games that differ only in what the player could not see give the very same puzzle:
    its hidden cards are drawn from the player's view, not copied from the game."""
    found = 0
    lenient = Marks(z=0)
    for one, two in hidden_pairs(name, players, rules, 0, 4):
        got = []
        for record in (one, two):
            a = analyse(record, 0, BUDGET, seed=6, marks=lenient)
            got.append([q.to_dict() for q in find_puzzles(a, record, margin=1e-6, seed=6)])
        first, second = got
        for q in first + second:
            q["source"]["record"] = None  # the records' hashes differ, by their hidden cards
        assert first == second
        found += len(first)
    assert found > 0


def test_puzzles_are_checked_against_their_record() -> None:
    record = head(played("whot", 2, "nigerian"), 60)
    analysis = analyse(record, 0, BUDGET, seed=1)
    with pytest.raises(RulesError, match="another record"):
        find_puzzles(analysis, head(record, 50))
    with pytest.raises(RulesError, match="margin"):
        find_puzzles(analysis, record, margin=0)
    everything = find_puzzles(analysis, record, margin=0.05)
    assert find_puzzles(analysis, record, margin=0.05, limit=1) == everything[:1]
    data = json.loads(puzzles_to_json(everything))
    assert data["format"] == PUZZLES_FORMAT and len(data["puzzles"]) == len(everything)
    with pytest.raises(LoadError):
        Puzzle.from_dict({"format": "parlour-puzzle/0"})
    if everything:
        broken = dict(everything[0].to_dict(), answer="play 99 circle")
        with pytest.raises(LoadError, match="not legal"):
            Puzzle.from_dict(broken).state()
