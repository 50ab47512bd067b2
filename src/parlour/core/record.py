"""Game records: game, rules, seed, setup and moves — enough to rebuild any game exactly.

A record is plain data and knows no game; `parlour.core.replay` plays one back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import LoadError

__all__ = ["Record"]


@dataclass(frozen=True)
class Record:
    game: str
    players: int
    rules: dict[str, Any]
    seed: int
    setup: dict[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # the players' names, in player order (optional)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "format": "parlour-record/1",
            "game": self.game,
            "players": self.players,
            "rules": self.rules,
            "seed": self.seed,
            "setup": self.setup,
            "moves": list(self.moves),
        }
        if self.names:
            out["names"] = list(self.names)
        return out

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
        names = data.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise LoadError("record names must be a list of names")
        if names and len(names) != data["players"]:
            raise LoadError(f"record names must name all {data['players']} players")
        return cls(
            game=str(data["game"]),
            players=data["players"],
            rules=dict(data["rules"]),
            seed=data["seed"],
            setup=dict(data.get("setup") or {}),
            moves=tuple(moves),
            names=tuple(names),
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise LoadError(f"not a record (invalid JSON: {exc})") from None
