"""The rows the store reads and writes: a table with its seats and games, and a move to store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fence import Fence

__all__ = ["GameRow", "MoveRow", "SeatRow", "TableRow"]


@dataclass(frozen=True)
class MoveRow:
    """A move to store: its game, ply and text, behind its table's fence, and the move clock's
    deadline it leaves (wall clock; None: no clock running)."""

    fence: Fence
    game_id: int
    ply: int
    text: str
    deadline: float | None = None


@dataclass
class SeatRow:
    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None
    account_id: int | None = None


@dataclass
class GameRow:
    id: int
    number: int
    players: int
    seats: list[int]
    seed: int
    setup: dict[str, Any]
    rules: dict[str, Any]
    finished_at: float | None
    result: dict[str, Any] | None
    moves: list[str] = field(default_factory=list)


@dataclass
class TableRow:
    code: str
    created_at: float
    game: str
    players: int
    preset: str | None
    rules: dict[str, Any]
    match_format: str
    match_seed: int
    move_clock: float
    bot_delay: float
    auto_next: bool
    status: str
    host_hash: str
    seats: list[SeatRow] = field(default_factory=list)
    games: list[GameRow] = field(default_factory=list)
    private: bool = False
    creator: str | None = None
    idle_timeout: float = 0.0
    on_idle: str = "bot"
    last_active: float | None = None
    owner: str | None = None
    epoch: int = 0
    seq: int = 0
    clock_deadline: float | None = None
    rematch: str | None = None
    correspondence: bool = False
    on_timeout: str = "move"
    rated: bool = False
    closed_why: str | None = None
