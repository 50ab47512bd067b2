"""Ratings over HTTP: a game's leaderboard by rule preset, and a player's profile — an account's
or a bot kind's (`bot:hint`): ratings, rating history, games with links to their review. Each
rating comes with the number people see (`rating`, 1500-based, and `provisional`:
`ratings.shown`), and a bot with the name people know it by (its level's: "hard bot")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from parlour.bots.levels import bot_name
from parlour.core.registry import games as all_games

from ..accounts import name_key
from ..ratings import for_people, shown
from ..tables import TableError
from .deps import DbDep
from .models import ERRORS

__all__ = ["router"]

router = APIRouter(tags=["ratings"])


def game_and_preset(game: str, preset: str | None) -> tuple[str, str]:
    """A known game and one of its presets (default: the game's own), or 404/400."""
    info = all_games().get(game)
    if info is None:
        raise TableError(f"no game {game!r}", 404, "unknown_game")
    preset = preset or info.default_preset
    if preset not in info.presets:
        raise TableError(
            f"{game} has no preset {preset!r} (it has {', '.join(sorted(info.presets))})", 400
        )
    return game, preset


@router.get(
    "/api/leaderboard/{game}",
    summary="A game's rated players (accounts and bots), best first, for one rule preset",
    responses=ERRORS,
)
async def leaderboard(
    db: DbDep,
    game: Annotated[str, Path(max_length=64)],
    preset: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    game, preset = game_and_preset(game, preset)
    rows = await db.call(db.store.ratings.leaderboard, game, preset, limit)
    for row in rows:
        row["link"] = _link(row)
        name_bot(row, game)
    presets = sorted(all_games()[game].presets)
    return {"game": game, "preset": preset, "presets": presets, "players": for_people(rows)}


def _link(row: dict[str, Any]) -> str:
    return f"/players/{row['name'] if row['kind'] == 'account' else row['player']}"


def name_bot(row: dict[str, Any], game: str) -> None:
    """A bot's row named as people know it in `game`: after its level ("hard bot"), its kind
    (`bot`: "greedy") kept for the details."""
    if row["kind"] == "bot":
        row["bot"] = row["player"].removeprefix("bot:")
        row["name"] = bot_name(row["bot"], game)


@router.get(
    "/api/players/{name}",
    summary="A player's profile: ratings by game and preset, rating history, games, win rates",
    responses=ERRORS,
)
async def player(name: Annotated[str, Path(max_length=64)], db: DbDep) -> dict[str, Any]:
    key: str | None = None
    if name.startswith("bot:"):
        key = name if len(name) > 4 else None
    else:
        found = await db.call(db.store.accounts.account_by_key, name_key(name))
        key = None if found is None else f"a:{found['id']}"
    out = None if key is None else await db.call(db.store.ratings.profile, key)
    if out is None:
        raise TableError(f"no player {name!r}", 404, "unknown_player")
    for r in out["ratings"]:
        r["leaderboard"] = f"/leaderboard/{r['game']}?preset={r['preset']}"
        r["rating"], r["provisional"] = shown(r["mu"], r["sigma"])
        name_bot(r, r["game"])
    for h in out["history"]:
        h["rating"], h["provisional"] = shown(h["mu"], h["sigma"])
    if out["kind"] == "bot":
        # a bot kind may be a different level in each game: named by each, the kind beside
        out["bot"] = key.removeprefix("bot:") if key else ""
        names = sorted({r["name"] for r in out["ratings"]})
        out["name"] = " / ".join(names) if names else f"{out['bot']} bot"
    return out
