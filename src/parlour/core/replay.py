"""Play a record back: the game it names, rebuilt move by move."""

from __future__ import annotations

from typing import Any

from .errors import IllegalMove, LoadError
from .protocol import State
from .record import Record
from .registry import make

__all__ = ["replay"]


def replay(record: Record | dict[str, Any] | str, upto: int | None = None) -> State:
    """Rebuild the game a record describes (its first `upto` moves, or all of them)."""
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
