"""Game files as the terminal and the server write them: one record, a match, a table's records.

A record may carry the players' names (`names`, one per player); a match file (`parlour play
--record`) names its match seats and says in its scoreboard which seats played each game, so each
game's players get their names back even after eliminations.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.core import ParlourError, Record

__all__ = ["GameEntry", "choose_game", "default_names", "load_games", "read_games"]


@dataclass(frozen=True)
class GameEntry:
    """One game of a file: its record and its players' names (by player, `P1`… when unknown)."""

    record: Record
    names: list[str]


def default_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def _names(value: Any, players: int) -> list[str] | None:
    if isinstance(value, list) and len(value) == players:
        return [str(n) if n is not None else f"P{i + 1}" for i, n in enumerate(value)]
    return None


def read_games(data: Any) -> list[GameEntry]:
    """The games of a file's JSON: a record, or an object listing records under `games`."""
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        raw = data["games"]
        match_names = data.get("names") if isinstance(data.get("names"), list) else None
        rows = (data.get("scoreboard") or {}).get("rows") if isinstance(data, dict) else None
    else:
        raw, match_names, rows = [data], None, None
    out = []
    for k, item in enumerate(raw):
        record = Record.from_dict(item)
        names = _names(item.get("names") if isinstance(item, dict) else None, record.players)
        if names is None and match_names is not None:
            names = _match_names(match_names, rows, k, record.players)
        out.append(GameEntry(record, names or default_names(record.players)))
    return out


def _match_names(names: list[Any], rows: Any, k: int, players: int) -> list[str] | None:
    """The names of game `k`'s players: the match seats that scored in it, in seat order."""
    if len(names) == players:
        return _names(names, players)
    if isinstance(rows, list):
        seats = [
            r.get("seat", i)
            for i, r in enumerate(rows)
            if isinstance(r, dict)
            and isinstance(r.get("games"), list)
            and k < len(r["games"])
            and r["games"][k] is not None
        ]
        if len(seats) == players and all(isinstance(s, int) and 0 <= s < len(names) for s in seats):
            return _names([names[s] for s in seats], players)
    return None


def load_games(path: str | Path) -> list[GameEntry]:
    """The games of a file (ParlourError, in words, for a missing or bad one)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ParlourError(f"no file {str(p)!r}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ParlourError(f"cannot read {p}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ParlourError(f"{p} is not JSON: {exc}") from None
    games = read_games(data)
    if not games:
        raise ParlourError(f"{p} holds no game")
    return games


def choose_game(games: list[GameEntry], number: int | None) -> tuple[int, GameEntry]:
    """Game `number` (from 1) of a file; the first when not given. ParlourError if out of range."""
    k = 1 if number is None else number
    if not 1 <= k <= len(games):
        many = "1" if len(games) == 1 else f"1 to {len(games)}"
        raise ParlourError(f"--game must be {many}: the file holds {len(games)} game(s)")
    return k, games[k - 1]
