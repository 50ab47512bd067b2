"""Game records: game, rules, seed, setup and moves — enough to rebuild any game exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove, LoadError
from .protocol import State

__all__ = ["Record", "replay"]


@dataclass(frozen=True)
class Record:
    game: str
    players: int
    rules: dict[str, Any]
    seed: int
    setup: dict[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "parlour-record/1",
            "game": self.game,
            "players": self.players,
            "rules": self.rules,
            "seed": self.seed,
            "setup": self.setup,
            "moves": list(self.moves),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise LoadError("a record is a JSON object")
        missing = [k for k in ("game", "players", "rules", "seed", "moves") if k not in data]
        if missing:
            raise LoadError(f"record lacks {', '.join(missing)}")
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise LoadError("record moves must be a list of move texts")
        if not isinstance(data["seed"], int) or not isinstance(data["players"], int):
            raise LoadError("record seed and players must be whole numbers")
        if not isinstance(data["rules"], dict):
            raise LoadError("record rules must be an object of options")
        return cls(
            game=str(data["game"]),
            players=data["players"],
            rules=dict(data["rules"]),
            seed=data["seed"],
            setup=dict(data.get("setup") or {}),
            moves=tuple(moves),
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise LoadError(f"not a record (invalid JSON: {exc})") from None


def replay(record: Record | dict[str, Any] | str, upto: int | None = None) -> State:
    """Rebuild the game a record describes (its first `upto` moves, or all of them)."""
    from .registry import make

    if isinstance(record, str):
        record = Record.from_json(record)
    elif isinstance(record, dict):
        record = Record.from_dict(record)
    game = make(record.game, players=record.players, rules=record.rules)
    state: State = game.new_game(seed=record.seed, **record.setup)
    for i, text in enumerate(record.moves[:upto]):
        try:
            state.apply(text)
        except IllegalMove as exc:
            raise LoadError(f"record move {i + 1} ({text!r}) cannot be played: {exc}") from None
    return state
