"""Puzzles from real games: the decisions where one move was clearly best from the player's view.

A puzzle must not give away what its player could not know. Its position (the JSON of
`State.position()`, which `Game.from_position` sets up) is therefore not the game's real one but
the player's *view* dealt out into one consistent full state by `game.sample_state(view, rng)`:
everything the player saw is as it was; every hidden card is a guess drawn from what the view
allows. Show a puzzle from its seat's view only (`from_position(position).view(seat)`), with its
`history` (the events as the player saw them). The answer is the analysis's best move, and the
alternatives carry their estimates (docs/review.md gives the JSON shape).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from parlour.core import GameRng, LoadError, Record, RulesError, State, make, view_to_wire

from .analysis import Analysis, MoveEstimate, _decision_seed, as_record, record_hash

__all__ = ["PUZZLES_FORMAT", "PUZZLE_FORMAT", "Puzzle", "find_puzzles", "puzzles_to_json"]

PUZZLE_FORMAT = "parlour-puzzle/1"
PUZZLES_FORMAT = "parlour-puzzles/1"


@dataclass(frozen=True)
class Puzzle:
    """Find the best move: the seat to play in `position`, the answer and every move's estimate."""

    game: str
    players: int
    rules: dict[str, Any]
    seat: int
    position: dict[str, Any]
    history: list[dict[str, Any]]  # the events the seat had seen, as JSON objects, oldest first
    answer: str
    moves: tuple[MoveEstimate, ...]  # best first
    margin: float  # how far the answer's estimate is above the next best move's
    source: dict[str, Any]  # the game it comes from: record hash, ply, the move played there

    def state(self) -> State:
        """The puzzle's position set up as a game; raises LoadError if it does not fit its answer
        (the seat is not to play, or the answer is not a legal move there)."""
        game = make(self.game, players=self.players, rules=self.rules)
        state: State = game.from_position(self.position)
        if state.to_play != self.seat:
            raise LoadError(f"puzzle: seat {self.seat} is not to play in its position")
        legal = {str(m) for m in state.legal_moves()}
        if self.answer not in legal:
            raise LoadError(f"puzzle: its answer {self.answer!r} is not legal in its position")
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": PUZZLE_FORMAT,
            "game": self.game,
            "players": self.players,
            "rules": dict(self.rules),
            "seat": self.seat,
            "position": self.position,
            "history": self.history,
            "answer": self.answer,
            "margin": self.margin,
            "moves": [m.to_dict() for m in self.moves],
            "source": dict(self.source),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Puzzle:
        if not isinstance(data, dict) or data.get("format") != PUZZLE_FORMAT:
            raise LoadError(f"not a {PUZZLE_FORMAT} puzzle")
        try:
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                rules=dict(data["rules"]),
                seat=int(data["seat"]),
                position=dict(data["position"]),
                history=list(data["history"]),
                answer=str(data["answer"]),
                moves=tuple(MoveEstimate.from_dict(m) for m in data["moves"]),
                margin=float(data["margin"]),
                source=dict(data["source"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LoadError(f"damaged puzzle: {exc!r}") from None


def find_puzzles(
    analysis: Analysis,
    record: Record | Mapping[str, Any] | str,
    *,
    margin: float = 0.15,
    seed: int = 0,
    limit: int | None = None,
) -> list[Puzzle]:
    """The analysis's decisions where the best move's estimate is at least `margin` above every
    other's — and by at least the analysis's `z` standard errors of that gap — as puzzles, the
    clearest first (at most `limit`). `record` is the game analysed (checked by its hash)."""
    rec = as_record(record)
    if record_hash(rec) != analysis.record.get("hash"):
        raise RulesError("this analysis is of another record")
    if not 0 < margin <= 1:
        raise RulesError("a puzzle's margin must be above 0 and at most 1")
    z = analysis.marks.z
    chosen: dict[int, float] = {}
    for d in analysis.decisions:
        best, second = d.moves[0], d.moves[1]
        gap = round(best.estimate - second.estimate, 6)
        if gap >= margin and second.gap_se is not None and gap >= z * second.gap_se:
            chosen[d.ply] = gap
    if not chosen:
        return []
    by_ply = {d.ply: d for d in analysis.decisions}
    game = make(rec.game, players=rec.players, rules=rec.rules)
    state: State = game.new_game(seed=rec.seed, **rec.setup)
    seat = analysis.seat
    out: list[Puzzle] = []
    for ply, text in enumerate(rec.moves):
        if ply in chosen:
            puzzle = _puzzle(state, seat, by_ply[ply].moves, chosen[ply], rec, ply, text, seed)
            if puzzle is not None:
                out.append(puzzle)
        state.apply(text)
    out.sort(key=lambda p: (-p.margin, p.source["ply"]))
    return out if limit is None else out[:limit]


def _puzzle(
    state: State,
    seat: int,
    moves: tuple[MoveEstimate, ...],
    margin: float,
    record: Record,
    ply: int,
    played: str,
    seed: int,
) -> Puzzle | None:
    """The decision at `ply` as a puzzle, its hidden cards drawn from the seat's view alone; None
    if the game's position could not carry it (the seat would not be to play with these moves)."""
    if state.to_play != seat:
        return None
    view = state.view(seat)
    game = state.game
    sampled = game.sample_state(view, GameRng(_decision_seed(seed, ply)))
    position = sampled.position()
    again = game.from_position(position)
    if again.to_play != seat or {str(m) for m in again.legal_moves()} != {m.move for m in moves}:
        return None
    return Puzzle(
        game=record.game,
        players=record.players,
        rules=dict(record.rules),
        seat=seat,
        position=position,
        history=view_to_wire(view)["events"],
        answer=moves[0].move,
        moves=moves,
        margin=margin,
        source={"record": record_hash(record), "ply": ply, "played": played},
    )


def puzzles_to_json(puzzles: list[Puzzle], indent: int | None = 1) -> str:
    """A file of puzzles: `{"format": "parlour-puzzles/1", "puzzles": [...]}`."""
    data = {"format": PUZZLES_FORMAT, "puzzles": [p.to_dict() for p in puzzles]}
    return json.dumps(data, indent=indent)
