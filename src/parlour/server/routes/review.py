"""Game review over HTTP: a finished game step by step, an uploaded record, analyses in the
background, puzzles (docs/protocol.md, "Game review")."""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from parlour.core import LoadError, ParlourError, Record
from parlour.review import Puzzle

from ..review import (
    NOT_FINISHED,
    Reviews,
    budget_key,
    check_replays,
    checked_puzzle,
    game_steps,
    packed,
    parse_upload,
    puzzle_id,
    puzzle_message,
    stored_entry,
)
from ..tables import TableError
from .deps import ClientDep, DbDep, SettingsDep
from .history import BIG
from .models import ERRORS

__all__ = ["router"]

router = APIRouter(tags=["review"])

Seat = Annotated[
    str | None,
    Query(
        max_length=8,
        description="whose view: a seat from 0, `open` (every hand: finished games only), "
        "or none for a spectator's",
    ),
]


def get_reviews(request: Request) -> Reviews:
    reviews: Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        raise TableError("this process is a table worker: ask a gateway", 503, "busy")
    return reviews


def _viewer(seat: str | None) -> tuple[int | None, bool]:
    if seat is None or seat in ("", "spectator"):
        return None, False
    if seat == "open":
        return None, True
    if not seat.isdigit():
        raise TableError(f"seat must be a number from 0, open or spectator: {seat!r}", 400)
    return int(seat), False


async def _steps(reviews: Reviews, record: Record, names: list[str], seat: str | None) -> Any:
    viewer, open_hands = _viewer(seat)
    return await asyncio.to_thread(game_steps, record, names, viewer, open_hands)


def _packed(request: Request, body: bytes) -> Response:
    """A packed answer (gzip-compressed JSON) as it is, or unpacked for a client that does not
    take gzip."""
    vary = {"vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(
            body, media_type="application/json", headers={**vary, "content-encoding": "gzip"}
        )
    return Response(gzip.decompress(body), media_type="application/json", headers=vary)


@router.get(
    "/api/review/games/{game_id}",
    summary="A finished game's positions, step by step, from a seat's view or open",
    responses={**ERRORS, 429: ERRORS[400]},
)
async def review_game(
    request: Request,
    game_id: Annotated[int, Path(ge=0, le=BIG)],
    db: DbDep,
    client: ClientDep,
    seat: Seat = None,
) -> Response:
    reviews = get_reviews(request)
    head = await db.call(db.store.review.review_header, game_id)
    if head is None:
        raise TableError(f"no game {game_id}", 404, "unknown_game")
    if not head["finished"]:  # nothing of a game being played is shown
        raise TableError(NOT_FINISHED, 409, "not_finished")
    budget = budget_key(reviews.budget(None))
    # a finished game never changes: its review is made once, unless a player's name changed
    # (an account deleted) or a seat was analysed since (the page shows which)
    key: tuple[Any, ...] = (game_id, _viewer(seat), tuple(head["names"]))
    known = reviews.cache.hashes.get(game_id)
    if known is not None:
        analysed = await db.call(db.store.review.analysed_seats, known, budget)
        hit = reviews.cache.get((*key, tuple(analysed)))
        if hit is not None:
            return _packed(request, hit)
    reviews.check_plies(client, head["plies"])  # 400 past max_review_moves, 429 too many
    row = await db.call(db.store.review.review_game, game_id)
    if row is None:
        raise TableError(f"no game {game_id}", 404, "unknown_game")
    entry = stored_entry(row)
    async with reviews.stepping:
        out: dict[str, Any] = await _steps(reviews, entry.record, entry.names, seat)
        out.update(id=game_id, table=row["table"], number=row["number"], preset=row["preset"])
        # the seats already analysed at the server's budget: the page shows them at once
        out["analysed"] = await db.call(db.store.review.analysed_seats, out["hash"], budget)
        body = await asyncio.to_thread(packed, out)
    reviews.cache.hashes[game_id] = out["hash"]
    reviews.cache.put((*key, tuple(out["analysed"])), body)
    return _packed(request, body)


@router.post(
    "/api/review/records",
    summary="An uploaded record's positions (the file of `parlour play --record`, a table's "
    "records or one record), step by step",
    responses={**ERRORS, 429: ERRORS[400]},
)
async def review_upload(
    request: Request,
    client: ClientDep,
    settings: SettingsDep,
    seat: Seat = None,
    game: Annotated[int | None, Query(ge=1, le=10_000, description="game of the file")] = None,
) -> Response:
    reviews = get_reviews(request)
    reviews.check_upload(client)
    body = await request.body()
    entry = parse_upload(body, game, settings.max_review_moves)
    reviews.check_plies(client, len(entry.record.moves))
    async with reviews.stepping:
        try:
            out: dict[str, Any] = await _steps(reviews, entry.record, entry.names, seat)
        except (LoadError, ParlourError) as exc:
            if isinstance(exc, TableError):
                raise
            raise TableError(f"the record cannot be replayed: {exc}", 400, "bad_record") from None
        out.update(id=None, record=entry.record.to_dict())
        return _packed(request, await asyncio.to_thread(packed, out))


class AnalysisRequest(BaseModel):
    game_id: int | None = Field(None, ge=0, le=BIG, description="a stored finished game")
    record: dict[str, Any] | None = Field(None, description="or a record (parlour-record/1)")
    seat: int = Field(ge=0, le=64, description="the seat whose decisions are judged, from 0")
    iterations: int | None = Field(
        None, description="search iterations a decision (default and most: the server's)"
    )


@router.post(
    "/api/review/analyses",
    summary="Analyse a seat's decisions in the background (or answer from the cache)",
    responses={**ERRORS, 429: ERRORS[409], 503: ERRORS[409]},
)
async def start_analysis(
    request: Request,
    body: AnalysisRequest,
    db: DbDep,
    client: ClientDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    reviews = get_reviews(request)
    budget = reviews.budget(body.iterations)
    if (body.game_id is None) == (body.record is None):
        raise TableError("give a game_id or a record", 400)
    game_id = body.game_id
    if game_id is not None:
        row = await db.call(db.store.review.review_game, game_id)
        if row is None:
            raise TableError(f"no game {game_id}", 404, "unknown_game")
        record = stored_entry(row).record  # a game still being played is refused (409)
    else:
        try:
            record = Record.from_dict(body.record)
        except (LoadError, ParlourError) as exc:
            raise TableError(f"not a parlour record: {exc}", 400, "bad_record") from None
        if len(record.moves) > settings.max_review_moves:
            raise TableError(
                f"a record of {settings.max_review_moves} moves at most is analysed here", 400
            )
        reviews.check_plies(client, len(record.moves))  # replaying it costs what stepping does
        try:  # queued only if it can be judged: its game set up, every move played
            await asyncio.to_thread(check_replays, record)
        except ParlourError as exc:
            raise TableError(f"the record cannot be analysed: {exc}", 400, "bad_record") from None
    return await reviews.submit(client, record, body.seat, budget, game_id)


@router.get("/api/review/analyses/{job}", summary="An analysis's progress", responses=ERRORS)
async def analysis_state(request: Request, job: Annotated[str, Path(max_length=32)]) -> Any:
    return await get_reviews(request).state(job)


@router.delete("/api/review/analyses/{job}", summary="Cancel your analysis", responses=ERRORS)
async def cancel_analysis(
    request: Request, job: Annotated[str, Path(max_length=32)], client: ClientDep
) -> Any:
    return await get_reviews(request).cancel(job, client)


# --- puzzles --------------------------------------------------------------------------------------
async def _puzzle(db: DbDep, pid: str) -> Puzzle:
    text = await db.call(db.store.puzzles.load_puzzle, pid)
    if text is None:
        raise TableError(f"no puzzle {pid!r}", 404, "unknown_puzzle")
    return Puzzle.from_dict(json.loads(text))


PuzzleId = Annotated[str, Path(max_length=16, pattern="^[0-9a-f]+$")]


@router.get("/api/puzzles/{pid}", summary="A puzzle: find the best move", responses=ERRORS)
async def get_puzzle(pid: PuzzleId, db: DbDep) -> dict[str, Any]:
    puzzle = await _puzzle(db, pid)
    out: dict[str, Any] = await asyncio.to_thread(puzzle_message, puzzle)
    out["id"] = pid
    return out


class Answer(BaseModel):
    move: str = Field(max_length=256, description="the move chosen, as its text")


@router.post("/api/puzzles/{pid}/answer", summary="Was it the best move?", responses=ERRORS)
async def answer_puzzle(pid: PuzzleId, body: Answer, db: DbDep) -> dict[str, Any]:
    puzzle = await _puzzle(db, pid)
    moves = [m.to_dict() for m in puzzle.moves]
    if body.move not in {m["move"] for m in moves}:
        raise TableError(f"{body.move!r} is not a legal move in this puzzle", 400, "illegal")
    return {
        "correct": body.move == puzzle.answer,
        "move": body.move,
        "answer": puzzle.answer,
        "margin": puzzle.margin,
        "moves": moves,
    }


@router.get("/api/puzzles/{pid}/file", summary="A puzzle's file (parlour-puzzle/1)")
async def puzzle_file(pid: PuzzleId, db: DbDep) -> Response:
    puzzle = await _puzzle(db, pid)
    return Response(
        json.dumps(puzzle.to_dict(), indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="parlour-puzzle-{pid}.json"'},
    )


@router.post("/api/puzzles", summary="Share a puzzle file (from `parlour analyse --puzzles`)")
async def upload_puzzle(
    request: Request,
    db: DbDep,
    client: ClientDep,
    settings: SettingsDep,
    body: Annotated[Any, Body(description="a parlour-puzzle/1, or a parlour-puzzles/1 file")],
    number: Annotated[int, Query(ge=1, le=1000, description="which puzzle of a file")] = 1,
) -> dict[str, Any]:
    reviews = get_reviews(request)
    reviews.check_upload(client)
    if isinstance(body, dict) and isinstance(body.get("puzzles"), list):
        items = body["puzzles"]
        if not 1 <= number <= len(items):
            raise TableError(f"puzzle {number}: the file holds {len(items)}", 400)
        body = items[number - 1]
    try:
        puzzle = Puzzle.from_dict(body)
        # its position must hold its answer; only what its game reads back is kept
        puzzle = await asyncio.to_thread(checked_puzzle, puzzle, settings.max_puzzle)
    except (LoadError, ParlourError) as exc:
        raise TableError(f"not a puzzle: {exc}", 400, "bad_puzzle") from None
    except Exception as exc:  # a position a game cannot set up, in whatever way it fails
        raise TableError(f"not a puzzle: {exc!r}", 400, "bad_puzzle") from None
    pid = puzzle_id(puzzle)
    text = json.dumps(puzzle.to_dict())
    reviews.check_puzzle_bytes(client, len(text))
    await db.call(db.store.puzzles.save_puzzle, pid, puzzle.game, text, True)
    return {"id": pid, "link": f"/puzzle/{pid}"}
