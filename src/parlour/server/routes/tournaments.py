"""Tournaments over HTTP: make one, list them, join, start, read its standings, rounds and tables.

The rounds are played at ordinary tables (`/t/CODE`): an entrant's token is their seat token at
each of their tables. The table workers' directors (server/director.py) move a running tournament
on; these routes only read and write the tournament's rows.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Header, Request

import parlour
from parlour.bots import make_bot
from parlour.core import RulesError
from parlour.core.registry import info

from ..director import entrants_of, outcomes_of
from ..levels import seat_bot
from ..tables import TableError, clean_name, hash_token, new_token, random_code
from ..tournament import standings, swiss_rounds, table_places
from .deps import ClientDep, DbDep, GatewayDep, SettingsDep, bearer
from .models import (
    ERRORS,
    CreateTournament,
    JoinedTournament,
    JoinTournament,
    TournamentCreated,
)

__all__ = ["router"]

router = APIRouter(tags=["tournaments"])


@router.post(
    "/api/tournaments",
    summary="Make a tournament (Swiss or elimination)",
    response_model=TournamentCreated,
    responses={**ERRORS, 429: ERRORS[400]},
)
async def create_tournament(
    body: CreateTournament,
    db: DbDep,
    gateway: GatewayDep,
    settings: SettingsDep,
    client: ClientDep,
) -> TournamentCreated:
    size = 2 if body.format == "swiss" else body.table_size
    try:
        gi = info(body.game)
        lo, hi = gi.min_players, gi.max_players
        if not lo <= size <= hi:
            raise TableError(
                f"{gi.title} is played by {lo} to {hi}: no {body.format} tournament "
                f"(tables of {size})",
                400,
                "bad_format",
            )
        # the rules at every table size the tournament may use (an elimination's: 2–5)
        sizes = [size] if body.format == "swiss" else [n for n in (2, 3, 4, 5) if lo <= n <= hi]
        for n in sizes:
            g = parlour.make(body.game, players=n, rules=body.preset, **body.options)
        if body.bot_fill is not None:  # a level's name (`hard`) or a bot spec
            make_bot(seat_bot(body.bot_fill, body.game)[0], g, seed=0, limits=settings.bot_limits)
    except (RulesError, TypeError, ValueError) as exc:
        raise TableError(str(exc), 400, "bad_rules") from None
    least = 2 if body.format == "swiss" else 3
    if not least <= body.size <= settings.max_entrants:
        raise TableError(f"size is from {least} to {settings.max_entrants} entrants", 400)
    bot_delay = settings.bot_delay if body.bot_delay is None else body.bot_delay
    if not 0 <= bot_delay <= 10:
        raise TableError("bot_delay must be from 0 to 10 seconds")
    if body.bot_fill is not None and bot_delay < settings.bot_table_min_delay:
        raise TableError(
            f"a tournament with bots plays with bot_delay {settings.bot_table_min_delay:g} s "
            "or more"
        )
    title = clean_name(body.title) if body.title is not None else f"{gi.title} {body.format}"
    name = clean_name(body.name) if body.name is not None else None
    counts = await db.call(db.store.tournaments.tournament_counts, client)
    if counts["all"] >= settings.max_tournaments:
        raise TableError("the server runs as many tournaments as it takes", 503, "busy")
    if counts.get("mine", 0) >= settings.tournaments_per_client:
        raise TableError(
            f"you have {counts['mine']} tournaments not finished: wait for one to end",
            429,
            "too_many_tournaments",
        )
    gateway.clients.check_new_table(client)
    tid = await _new_id(db)
    host_token = new_token()
    await db.call(
        db.store.tournaments.create_tournament,
        {
            "id": tid,
            "created_at": time.time(),
            "title": title[:64],
            "game": gi.name,
            "preset": body.preset or gi.default_preset,
            "options": body.options,
            "format": body.format,
            "rounds": body.rounds if body.format == "swiss" else None,
            "table_size": size,
            "max_entrants": body.size,
            "bot_fill": body.bot_fill,
            "bot_delay": float(bot_delay),
            "status": "open",
            "round": 0,
            "host_hash": hash_token(host_token),
            "creator": client,
        },
    )
    number = None
    if name is not None:
        number, _ = await db.call(
            db.store.tournaments.add_entrant, tid, name, None, hash_token(host_token)
        )
    return TournamentCreated(
        id=tid,
        link=f"/tournaments/{tid}",
        host_token=host_token,
        number=number,
        token=host_token if number is not None else None,
    )


async def _check_bot_tables(
    db: DbDep, settings: SettingsDep, t: dict[str, Any], entrants: int
) -> None:
    """A tournament's tables of bots only are its creator's (server/director.py): refuse to start
    one whose empty places, filled with bots, could seat more tables of bots in a round than the
    creator may run, so that no one client gets around the caps on tables of bots."""
    if t["bot_fill"] is None or t["creator"] is None:
        return
    bots = max(0, t["max_entrants"] - entrants)
    tables = bots // t["table_size"]  # a round's most tables of bots only
    counts = await db.call(db.store.tables.open_counts, t["creator"])
    allowed = settings.bot_tables_per_client - counts["my_bots"]
    if tables > allowed:
        running = f" (you run {counts['my_bots']} already)" if counts["my_bots"] else ""
        raise TableError(
            f"its {bots} bot places could fill {tables} tables of bots only in a round, and you "
            f"may run {settings.bot_tables_per_client} tables of bots{running}: make it smaller "
            "or wait for more people to enter",
            429,
            "too_many_bots",
        )


async def _new_id(db: DbDep) -> str:
    for _ in range(50):
        tid = random_code(8)
        if await db.call(db.store.tournaments.load_tournament, tid) is None:
            return tid
    raise TableError("could not find a free tournament id", 503)


@router.get("/api/tournaments", summary="Tournaments: open, running, then recently finished")
async def list_tournaments(db: DbDep) -> list[dict[str, Any]]:
    rows = await db.call(db.store.tournaments.list_tournaments, 50)
    return [
        {
            "id": r["id"],
            "link": f"/tournaments/{r['id']}",
            "title": r["title"],
            "game": r["game"],
            "game_title": info(r["game"]).title,
            "format": r["format"],
            "status": r["status"],
            "round": r["round"],
            "rounds": r["rounds"],
            "entrants": r["count"],
            "max_entrants": r["max_entrants"],
            "created_at": r["created_at"],
        }
        for r in rows
    ]


async def _load(db: DbDep, tid: str) -> dict[str, Any]:
    data = await db.call(db.store.tournaments.load_tournament, tid.strip().upper())
    if data is None:
        raise TableError(f"no tournament {tid!r}", 404, "unknown_tournament")
    return data


def _standings(data: dict[str, Any]) -> list[dict[str, Any]]:
    t = data["tournament"]
    if t["standings"] is not None:
        final: list[dict[str, Any]] = t["standings"]
        return final
    return standings(t["format"], entrants_of(data), outcomes_of(data), finished=False)


@router.get(
    "/api/tournaments/{tid}",
    summary="A tournament: its entrants, standings (places from 1) and every round's tables",
    responses=ERRORS,
)
async def get_tournament(tid: str, db: DbDep) -> dict[str, Any]:
    data = await _load(db, tid)
    t = data["tournament"]
    names = {e["number"]: e["name"] for e in data["entrants"]}
    rounds: dict[int, dict[str, Any]] = {}
    for o in outcomes_of(data):
        r = rounds.setdefault(o.round, {"round": o.round, "tables": [], "byes": []})
        if o.bye:
            r["byes"].append({"number": o.entrants[0], "name": names[o.entrants[0]]})
            continue
        finished = o.done and o.result is not None
        r["tables"].append(
            {
                "code": o.code,
                "link": f"/t/{o.code}",
                "over": o.done,
                "entrants": [{"number": n, "name": names[n]} for n in o.entrants],
                "game_id": o.game_id if finished else None,
                "review": f"/review/{o.game_id}" if finished else None,
                # best first, by the tournament's tie-breaks (server/tournament.py)
                "places": [names[n] for n in table_places(o)] if o.done else None,
            }
        )
    rounds_total = t["rounds"]
    if t["format"] == "swiss" and rounds_total is None:
        rounds_total = swiss_rounds(max(len(data["entrants"]), t["max_entrants"]))
    return {
        "id": t["id"],
        "title": t["title"],
        "game": t["game"],
        "game_title": info(t["game"]).title,
        "preset": t["preset"],
        "options": t["options"],
        "format": t["format"],
        "table_size": t["table_size"],
        "status": t["status"],
        "round": t["round"],
        "rounds": rounds_total if t["format"] == "swiss" else None,
        "max_entrants": t["max_entrants"],
        "bot_fill": t["bot_fill"],
        "created_at": t["created_at"],
        "started_at": t["started_at"],
        "finished_at": t["finished_at"],
        "entrants": [
            {"number": e["number"], "name": e["name"], "bot": e["bot"]} for e in data["entrants"]
        ],
        "standings": _standings(data),
        "rounds_played": [rounds[k] for k in sorted(rounds)],
    }


@router.get(
    "/api/tournaments/{tid}/standings",
    summary="A tournament's standings, places from 1 (final once it is finished)",
    responses=ERRORS,
)
async def get_standings(tid: str, db: DbDep) -> dict[str, Any]:
    data = await _load(db, tid)
    t = data["tournament"]
    return {
        "id": t["id"],
        "status": t["status"],
        "round": t["round"],
        "standings": _standings(data),
    }


@router.post(
    "/api/tournaments/{tid}/join",
    summary="Enter an open tournament with a name",
    response_model=JoinedTournament,
    responses={**ERRORS, 429: ERRORS[400]},
)
async def join_tournament(
    tid: str, body: JoinTournament, db: DbDep, gateway: GatewayDep, client: ClientDep
) -> JoinedTournament:
    name = clean_name(body.name)
    if not gateway.clients.joins.take(client):
        raise TableError("too many joins from you: wait a minute", 429, "rate_limited")
    token = new_token()
    for _ in range(3):
        number, why = await db.call(
            db.store.tournaments.add_entrant, tid.strip().upper(), name, None, hash_token(token)
        )
        if why != "race":
            break
    if number is None:
        raise {
            "unknown": TableError(f"no tournament {tid!r}", 404, "unknown_tournament"),
            "closed": TableError("the tournament has started: no more entrants", 409, "closed"),
            "full": TableError("the tournament is full", 409, "full"),
            "name": TableError(f"someone called {name!r} has entered already", 409, "name"),
        }.get(why, TableError("try again", 503, "busy"))
    return JoinedTournament(number=number, token=token)


@router.post(
    "/api/tournaments/{tid}/start",
    summary="Host: start (the empty places become bots, if the tournament has bot_fill)",
    responses=ERRORS,
)
async def start_tournament(
    tid: str,
    request: Request,
    db: DbDep,
    settings: SettingsDep,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    data = await _load(db, tid)
    t = data["tournament"]
    if hash_token(bearer(authorization)) != t["host_hash"]:
        raise TableError("only the host's token may do this", 403, "not_host")
    await _check_bot_tables(db, settings, t, len(data["entrants"]))
    how = await db.call(db.store.tournaments.start_tournament, t["id"], swiss_rounds)
    if how == "started":
        raise TableError("the tournament has started already", 409, "started")
    if how == "few":
        least = 2 if t["format"] == "swiss" else 3
        raise TableError(f"a tournament needs {least} entrants or more", 409, "few")
    worker = getattr(request.app.state, "worker", None)
    if worker is not None:
        worker.director.poke()  # else a worker's director finds it within tournament_poll
    return {"id": t["id"], "status": "running"}
