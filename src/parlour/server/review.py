"""Game review on the server: a finished game's positions step by step, analyses in the
background, and puzzles (docs/protocol.md, "Game review").

*Steps.* A record is replayed once and every position is sent, as the game's browser module reads
a `view` message: from one seat's view, or "open" — the spectator's table with every player's
private part of the view (the hand) beside it. Only a finished game is ever shown: a stored game
that is still being played is refused whole (its seed decides every hidden card), and an uploaded
record is shown open only when it is finished.

*Analyses.* `parlour.review.analyse`, cut into its decisions: each decision is judged in a small
pool of spawned processes (off the event loop and its interpreter lock, like the bots' searches in
`thinking.py`, but a pool of its own, so that a long analysis never keeps a table's bot waiting),
one decision per job at a time, so progress is known after each, a cancel stops between two, and
the result equals the terminal's `parlour analyse` with the same seed. The queue is in the database
(`storage/analysis_jobs.py`), not in a gateway: any gateway answers a job's progress, result and
cancel, each gateway's `analysis_workers` runners take jobs from it, and every judged decision is
kept with its job, so a job whose gateway stopped (or died: its beat goes stale) is taken over by
another from where it was. At most `analysis_queue` analyses wait or run, one per client; the
budget a decision is the server's `analysis_iterations` at most. A finished analysis is cached in
the database by the record's hash, seat and budget, and its clear decisions are saved as puzzles.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gzip
import hashlib
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, cast

from parlour.core import GameRng, LoadError, ParlourError, Record, State, info, make
from parlour.core.events import view_to_wire
from parlour.review import (
    Analysis,
    Budget,
    Decision,
    Marks,
    Puzzle,
    assemble,
    decision_points,
    find_puzzles,
    record_hash,
)
from parlour.review.files import GameEntry, default_names, read_games
from parlour.review.step import private_parts

from .clients import RateMeter
from .database import Database
from .judging import judge_decision
from .logs import Failures
from .pools import process_pool, stop_pool
from .settings import Settings
from .storage.analysis_jobs import JobRow, NewJob
from .tables import TableError
from .wire import web_assets

__all__ = [
    "NOT_FINISHED",
    "ReviewCache",
    "Reviews",
    "budget_key",
    "check_replays",
    "checked_puzzle",
    "game_steps",
    "packed",
    "parse_upload",
    "puzzle_id",
    "puzzle_message",
]

log = logging.getLogger("parlour.server")

SEED = 0  # every analysis on the server: the same seed, so a cached one is the one you would get
PUZZLES_A_GAME = 5
KEEP_JOBS = 600.0  # seconds a finished job's state stays to be polled (its result stays cached)
BEAT_EVERY = 2.0  # seconds between a runner's signs of life on its running jobs
TAKE_EVERY = 1.0  # seconds between looks at the queue for jobs asked through other gateways
NOT_FINISHED = "this game is still being played: it can be reviewed once it is finished"


# --- steps ----------------------------------------------------------------------------------------
def game_steps(
    record: Record, names: list[str], viewer: int | None, open_hands: bool = False
) -> dict[str, Any]:
    """Every position of `record` for the browser: step 0 before the first move, step i after
    move i. Each step is what the game's module needs of a `view` message — the view (whole at
    step 0, then only the keys that changed, and the keys gone), the events the move made (as
    objects and in words); open, each player's private part of the view too. `viewer` is a seat
    (from 0) or None for a spectator; `open_hands` needs a finished game. A step where the viewer
    (or, open, anyone) is to move holds `choices`: the legal moves with their fields."""
    game = make(record.game, players=record.players, rules=record.rules)
    gi = info(record.game)
    state: State = game.new_game(seed=record.seed, **record.setup)
    n = record.players
    if viewer is not None and not 0 <= viewer < n:
        raise ParlourError(f"the seat must be from 1 to {n}")
    look = None if open_hands else viewer
    if open_hands:
        final = game.new_game(seed=record.seed, **record.setup)
        for text in record.moves:
            final.apply(text)
        if not final.is_over:
            raise TableError(
                "every hand is shown of a finished game only; this one is not finished",
                409,
                "not_finished",
            )
    steps: list[dict[str, Any]] = []
    sent: dict[str, Any] | None = None
    seen = 0  # events of `look`'s view sent so far

    def step(ply: int, move: str | None, mover: int | None, words: list[str] | None) -> None:
        nonlocal sent, seen
        typed = state.view(look)
        events = cast(dict[str, Any], typed).pop("events")  # apart: out of this fresh view
        whole = view_to_wire(typed)
        new = events[seen:]
        entry: dict[str, Any] = {
            "ply": ply,
            "move": move,
            "mover": mover,
            "to_play": None if state.is_over else state.to_play,
            "events": view_to_wire({"e": new})["e"],
            "log": words if words is not None else [gi.describe_event(e, names) for e in new],
        }
        if sent is None:
            entry["view"] = whole
        else:
            entry["view"] = {k: v for k, v in whole.items() if k not in sent or sent[k] != v}
            gone = [k for k in sent if k not in whole]
            if gone:
                entry["removed"] = gone
        if open_hands:
            entry["hands"] = [view_to_wire(private_parts(state, p)) for p in range(n)]
        # the legal moves of a decision the viewer could see (their own, or every one with the
        # hands open), with their fields: the browser says a move in the game's words from them
        p = None if state.is_over else state.to_play
        if p is not None and (open_hands or p == viewer):
            entry["choices"] = [m.to_wire() for m in state.legal_moves()]
        sent, seen = whole, len(events)
        steps.append(entry)

    step(0, None, None, None)
    for ply, text in enumerate(record.moves, start=1):
        mover = state.to_play
        # open, each move is told as its mover saw it (what they drew, say), like `parlour replay`
        before = len(state.view(mover)["events"]) if open_hands and mover is not None else 0
        try:
            state.apply(text)
        except ParlourError as exc:
            raise ParlourError(f"move {ply} ({text!r}) cannot be played: {exc}") from None
        words = None
        if open_hands and mover is not None:
            told = state.view(mover)["events"][before:]
            words = [gi.describe_event(e, names) for e in told]
        step(ply, text, mover, words)
    result = state.result().to_dict() if state.is_over else None
    return {
        "game": record.game,
        "title": gi.title,
        "players": n,
        "rules": game.spec()["rules"],
        "names": names,
        "viewer": "open" if open_hands else viewer,
        "finished": state.is_over,
        "result": result,
        "web": web_assets(gi),
        "hash": record_hash(record),
        "steps": steps,
    }


def parse_upload(body: bytes, number: int | None, max_moves: int) -> GameEntry:
    """The game of an uploaded file (a record, a match file or a table's records; `number` from 1
    picks one of several), checked: JSON, a known game, legal moves, not too long."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ParlourError(f"the file is not JSON: {exc}") from None
    except RecursionError:  # [[[[…]]]] thousands deep: an answer, not a 500
        raise ParlourError("the file is not a record: its JSON is nested too deeply") from None
    try:
        entries = read_games(data)
    except (LoadError, ParlourError) as exc:
        raise ParlourError(f"not a parlour record: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ParlourError(f"not a parlour record: {exc!r}") from None
    if not entries:
        raise ParlourError("the file holds no game")
    k = 1 if number is None else number
    if not 1 <= k <= len(entries):
        raise ParlourError(f"game {k}: the file holds {len(entries)} game(s)")
    entry = entries[k - 1]
    if len(entry.record.moves) > max_moves:
        raise ParlourError(f"a record of {max_moves} moves at most is reviewed here")
    try:
        make(entry.record.game, players=entry.record.players, rules=entry.record.rules)
    except ParlourError as exc:
        raise ParlourError(f"the record's game cannot be set up: {exc}") from None
    return entry


def check_replays(record: Record) -> None:
    """That a record sets up its game and plays every one of its moves, or ParlourError saying
    where it stops: an analysis is queued only for a record it can judge."""
    try:
        game = make(record.game, players=record.players, rules=record.rules)
        state = game.new_game(seed=record.seed, **record.setup)
    except ParlourError as exc:
        raise ParlourError(f"the record's game cannot be set up: {exc}") from None
    except Exception as exc:  # a setup a game cannot read, in whatever way it fails
        raise ParlourError(f"the record's game cannot be set up: {exc!r}") from None
    for ply, text in enumerate(record.moves, start=1):
        try:
            state.apply(text)
        except ParlourError as exc:
            raise ParlourError(f"move {ply} ({text!r}) cannot be played: {exc}") from None


def packed(out: dict[str, Any]) -> bytes:
    """An answer as gzip-compressed JSON: made once, off the event loop, and sent as it is (the
    app's compression would otherwise compress it again on the event loop at every request)."""
    return gzip.compress(json.dumps(out, separators=(",", ":")).encode(), compresslevel=6)


class ReviewCache:
    """Finished games' reviews, packed, most recently used kept, up to `max_bytes` in all. A
    finished game never changes; what may (its players' names, when an account is deleted, and
    the seats analysed) is part of the key."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self.hashes: dict[int, str] = {}  # a stored game's record hash, once its review was made

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: tuple[Any, ...], body: bytes) -> None:
        if len(body) > self.max_bytes // 4:
            return  # one answer never takes the place of many
        old = self._items.pop(key, None)
        self.bytes -= len(old or b"")
        self._items[key] = body
        self.bytes += len(body)
        while self.bytes > self.max_bytes:
            _, gone = self._items.popitem(last=False)
            self.bytes -= len(gone)
        if len(self.hashes) > 100_000:
            self.hashes.clear()


def stored_names(names: list[str | None]) -> list[str]:
    return [n or f"Seat {i + 1}" for i, n in enumerate(names)]


# --- puzzles --------------------------------------------------------------------------------------
def checked_puzzle(puzzle: Puzzle, max_bytes: int) -> Puzzle:
    """An uploaded puzzle as the server keeps it, or ParlourError saying what is wrong: its
    position set up by its game and written again by it, its history read back into the game's
    own events and written again (no field the events do not have), its moves and answer legal
    there, its numbers finite, its source the three facts a puzzle's source holds — and the whole
    at most `max_bytes` of JSON. Nothing of the file is kept that its game did not read."""
    state = puzzle.state()  # LoadError: the position does not hold the answer
    legal = {str(m) for m in state.legal_moves()}
    names = [m.move for m in puzzle.moves]
    if not set(names) <= legal or len(set(names)) != len(names) or puzzle.answer != names[0]:
        raise ParlourError("its moves are not the position's legal moves, the answer first")
    numbers = [puzzle.margin] + [m.estimate for m in puzzle.moves]
    numbers += [m.gap_se for m in puzzle.moves if m.gap_se is not None]
    if not all(math.isfinite(x) for x in numbers) or not 0 <= puzzle.margin <= 1:
        raise ParlourError("its margin and estimates must be finite numbers (margin 0 to 1)")
    view = view_to_wire(state.view(puzzle.seat))
    try:  # the events as objects again, the way a bot reads a view that came as JSON
        sampled = state.game.sample_state({**view, "events": puzzle.history}, GameRng(0))
        history = view_to_wire(sampled.view(puzzle.seat))["events"]
    except Exception as exc:  # whatever a game raises on events it never made
        raise ParlourError(f"its history is not events of {puzzle.game}: {exc!r}") from None
    source = puzzle.source
    record, ply, played = source.get("record"), source.get("ply"), source.get("played")
    if not (
        isinstance(record, str)
        and len(record) <= 80
        and isinstance(ply, int)
        and not isinstance(ply, bool)
        and 0 <= ply <= 1_000_000
        and isinstance(played, str)
        and len(played) <= 200
    ):
        raise ParlourError('its source is {"record": its hash, "ply": a number, "played": a move}')
    kept = dataclasses.replace(
        puzzle,
        rules=state.game.spec()["rules"],
        position=state.position(),
        history=history,
        source={"record": record, "ply": ply, "played": played},
    )
    size = len(json.dumps(kept.to_dict()))
    if size > max_bytes:
        raise ParlourError(f"a puzzle is kept up to {max_bytes} bytes of JSON; this one is {size}")
    return kept


def puzzle_id(puzzle: Puzzle) -> str:
    """A puzzle's id: the hash of its JSON (the same puzzle found twice is saved once)."""
    text = json.dumps(puzzle.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def puzzle_message(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as the page shows it: the seat's view as a `view` message with its legal moves
    (the game's module draws it and offers them), the events it had seen in words — and not the
    answer, nor any estimate."""
    state = puzzle.state()
    gi = info(puzzle.game)
    seat = puzzle.seat
    typed = state.view(seat)
    cast(dict[str, Any], typed).pop("events")  # sent apart: out of this fresh view
    names = [f"Player {p + 1}" + (" (you)" if p == seat else "") for p in range(puzzle.players)]
    words: list[str] = []
    try:  # the events as objects again, the way a bot reads a view that came as JSON
        wire = {**view_to_wire(typed), "events": puzzle.history}
        again = state.game.sample_state(wire, GameRng(0)).view(seat)["events"]
        words = [gi.describe_event(e, names) for e in again]
    except Exception:  # the words are a help; the position stands without them
        log.exception("puzzle: the history could not be put into words")
    legal = state.legal_moves()
    return {
        "game": puzzle.game,
        "title": gi.title,
        "players": puzzle.players,
        "rules": state.game.spec()["rules"],
        "seat": seat,
        "names": names,
        "web": web_assets(gi),
        "source": {"ply": puzzle.source.get("ply")},
        "message": {
            "type": "view",
            "table": None,
            "game_number": 0,
            "ply": 0,
            "seat": seat,
            "to_play": seat,
            "view": view_to_wire(typed),
            "seats": list(range(puzzle.players)),
            "events_from": 0,
            "events": puzzle.history,
            "log": words,
            "moves": [m.to_wire() for m in legal],
            "clock": None,
            "status": "playing",
        },
    }


# --- analyses -------------------------------------------------------------------------------------
def budget_key(budget: Budget) -> str:
    """A budget as the cache keys it (with the server's fixed seed)."""
    return f"i{budget.iterations}v{budget.min_visits}s{SEED}"


class Reviews:
    """A gateway's part of the analysis queue (see the module doc): asking, polling and
    cancelling read and write the job's row, so any gateway answers for any job; this gateway's
    runners take queued jobs (and jobs of runners gone silent) from the database in turn."""

    def __init__(self, db: Database, settings: Settings, runner: str | None = None) -> None:
        self.db = db
        self.settings = settings
        self.runner = runner or f"review-{secrets.token_hex(4)}"
        per_minute = settings.uploads_per_minute
        self.uploads = RateMeter(per_minute, max(1, int(per_minute)))
        per_minute = settings.review_plies_per_minute
        self.review_plies = RateMeter(per_minute, max(1, int(per_minute)))
        self.cache = ReviewCache(settings.review_cache_bytes)
        # one review made at a time per gateway: each is a burst of CPU in a thread, and several
        # at once starve the event loop every other request waits on
        self.stepping = asyncio.Semaphore(1)
        per_minute = settings.puzzle_bytes_per_minute
        self.puzzle_bytes = RateMeter(per_minute, max(settings.max_puzzle, int(per_minute)))
        self._wake = asyncio.Event()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._loops: list[asyncio.Task[None]] = []
        self._pool: ProcessPoolExecutor | None = None

    # --- life ------------------------------------------------------------------------------------
    def start(self) -> None:
        self._loops = [
            asyncio.ensure_future(self._taking()),
            asyncio.ensure_future(self._every(BEAT_EVERY, self._beat)),
            asyncio.ensure_future(self._every(self.settings.sweep_interval, self._sweep)),
        ]

    async def _every(self, seconds: float, job: Any) -> None:
        failures = Failures(log, f"review: {getattr(job, '__name__', job)}")  # said once a spell
        while True:
            await asyncio.sleep(seconds)
            await failures.run(job())

    async def _beat(self) -> None:
        if self._running:
            await self.db.call(self.db.store.analysis_jobs.beat, self.runner, time.time())

    async def _sweep(self) -> None:
        await self.prune()
        await self.db.call(self.db.store.analysis_jobs.prune, time.time() - KEEP_JOBS)

    async def stop(self) -> None:
        """Stop judging; the jobs under way here go back to the queue where they were, for
        another gateway (or this one, started again) to go on with."""
        tasks = [*self._loops, *self._running.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._running.clear()
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
        with contextlib.suppress(Exception):  # a database gone: its beat goes stale instead
            await self.db.call(self.db.store.analysis_jobs.release, self.runner)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:  # its processes exit if this gateway is killed (pools.py)
            self._pool = process_pool(self.settings.analysis_workers)
        return self._pool

    # --- asking ----------------------------------------------------------------------------------
    def budget(self, iterations: int | None) -> Budget:
        """The budget a request may have: the server's, or less."""
        most = self.settings.analysis_iterations
        if iterations is None:
            return Budget(iterations=most)
        if not 1 <= iterations <= most:
            raise TableError(
                f"an analysis may take 1 to {most} iterations a decision here", 400, "bad_budget"
            )
        return Budget(iterations=iterations)

    def check_upload(self, client: str) -> None:
        if not self.uploads.take(client):
            raise TableError("too many uploads from you: wait a minute", 429, "rate_limited")

    def check_plies(self, client: str, plies: int) -> None:
        """The moves of the games a client has reviewed step by step, metered per minute."""
        most = self.settings.max_review_moves
        if plies > most:
            raise TableError(
                f"a game of {most} moves at most is reviewed here; this one has {plies}",
                400,
                "too_long",
            )
        if not self.review_plies.take(client, max(1, plies)):
            raise TableError(
                "you reviewed too many moves this minute: wait a minute", 429, "rate_limited"
            )

    def check_puzzle_bytes(self, client: str, size: int) -> None:
        """The bytes of the uploaded puzzles a client may have kept, metered per minute."""
        if not self.puzzle_bytes.take(client, size):
            raise TableError(
                "you shared too many puzzles' bytes this minute: wait a minute", 429, "rate_limited"
            )

    async def cached(self, record: Record, seat: int, budget: Budget) -> dict[str, Any] | None:
        text = await self.db.call(
            self.db.store.review.load_analysis, record_hash(record), seat, budget_key(budget)
        )
        return None if text is None else json.loads(text)

    async def submit(
        self, client: str, record: Record, seat: int, budget: Budget, game_id: int | None
    ) -> dict[str, Any]:
        """An analysis's state: done at once from the cache, the state of the same analysis if one
        is under way, else a new one queued (429 when this client has one under way already, 503
        when the queue is full)."""
        if not 0 <= seat < record.players:
            raise TableError(f"the seat must be from 0 to {record.players - 1}", 400, "bad_seat")
        found = await self.cached(record, seat, budget)
        if found is not None:
            puzzles = await self._save_puzzles(Analysis.from_dict(found), record, game_id is None)
            return {
                "job": None,
                "status": "done",
                "cached": True,
                "done": len(found["decisions"]),
                "total": found["total"],
                "seat": seat,
                "budget": budget.to_dict(),
                "analysis": found,
                "puzzles": puzzles,
                "error": None,
            }
        new = NewJob(
            id=secrets.token_urlsafe(9),
            client=client,
            record=record.to_json(),
            record_hash=record_hash(record),
            seat=seat,
            budget=budget.to_dict(),
            budget_key=budget_key(budget),
            game_id=game_id,
        )
        most = self.settings.analysis_queue
        job, made = await self.db.call(self.db.store.analysis_jobs.submit, new, most, time.time())
        if made:
            self._wake.set()
        return await self.state(job.id)

    async def state(self, job_id: str) -> dict[str, Any]:
        """A job's state as the API answers it, read from the database (any gateway's job)."""
        found = await self.db.call(self.db.store.analysis_jobs.job_state, job_id)
        if found is None:
            raise TableError(f"no analysis {job_id!r} (finished ones are cached)", 404, "unknown")
        job, ahead = found
        analysis = None
        if job.status == "done":
            text = await self.db.call(
                self.db.store.review.load_analysis, job.record_hash, job.seat, job.budget_key
            )
            analysis = None if text is None else json.loads(text)
        return {
            "job": job.id,
            "status": job.status,
            "cached": False,
            "done": job.done,
            "total": job.total,
            "queued_ahead": ahead,
            "seat": job.seat,
            "budget": job.budget,
            "analysis": analysis,
            "puzzles": job.puzzles,
            "error": job.error,
        }

    async def cancel(self, job_id: str, client: str) -> dict[str, Any]:
        job = await self.db.call(self.db.store.analysis_jobs.cancel, job_id, client, time.time())
        if job is None:
            raise TableError(f"no analysis {job_id!r} (finished ones are cached)", 404, "unknown")
        return await self.state(job_id)

    # --- running ---------------------------------------------------------------------------------
    async def _taking(self) -> None:
        """Take jobs from the queue while this gateway has a runner free: at once when one is
        queued here, else every `TAKE_EVERY` seconds (jobs queued through other gateways, and
        jobs whose runner stopped beating)."""
        taking = Failures(log, "review: taking a job from the queue")
        while True:
            self._wake.clear()
            if len(self._running) < self.settings.analysis_workers:
                now = time.time()
                got = await taking.run(
                    self.db.call(
                        self.db.store.analysis_jobs.claim,
                        self.runner,
                        now,
                        now - self.settings.analysis_takeover,
                    )
                )
                if got is not None:
                    job, judged = got
                    task = asyncio.ensure_future(self._run(job, judged))
                    self._running[job.id] = task
                    task.add_done_callback(functools.partial(self._ran, job.id))
                    continue
            with contextlib.suppress(TimeoutError):
                # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation
                # that comes as the awaited event is set, and a runner cancelled by `stop` sets
                # it, so `stop` waited for this loop for ever (a test hung so, now and then)
                async with asyncio.timeout(TAKE_EVERY):
                    await self._wake.wait()

    def _ran(self, job_id: str, _: asyncio.Task[None]) -> None:
        self._running.pop(job_id, None)
        self._wake.set()  # a runner is free: the next job

    async def _run(self, job: JobRow, judged_before: list[str]) -> None:
        try:
            await self._judge(job, judged_before)
        except asyncio.CancelledError:
            raise  # the gateway stops: `stop` puts the job back in the queue
        except Exception as exc:
            log.exception("analysis %s failed", job.id)
            if isinstance(exc, BrokenProcessPool):  # a worker died: the next job, a new pool
                self._pool = None
            with contextlib.suppress(Exception):
                await self._end(job, "failed", f"the analysis failed: {exc}")

    async def _end(
        self,
        job: JobRow,
        status: str,
        error: str | None = None,
        puzzles: list[dict[str, Any]] | None = None,
    ) -> None:
        await self.db.call(
            self.db.store.analysis_jobs.finish,
            job.id,
            self.runner,
            status,
            time.time(),
            error,
            puzzles,
        )

    async def _judge(self, job: JobRow, judged_before: list[str]) -> None:
        """Judge the job's decisions from the first one not judged yet, keeping each as it is
        judged; stop between two when it is cancelled or no longer this runner's."""
        store, me = self.db.store, self.runner
        rec = Record.from_json(job.record)
        _, points, forced, end = await asyncio.to_thread(decision_points, rec, job.seat)
        said = await self.db.call(
            store.analysis_jobs.set_total, job.id, me, len(points), time.time()
        )
        judged = [Decision.from_dict(json.loads(x)) for x in judged_before]
        seconds = job.seconds
        loop = asyncio.get_running_loop()
        while said == "go" and len(judged) < len(points):
            start = time.perf_counter()
            data = await loop.run_in_executor(
                self._executor(),
                judge_decision,
                job.record,
                job.seat,
                len(judged),
                job.budget,
                SEED,
            )
            took = time.perf_counter() - start
            said = await self.db.call(
                store.analysis_jobs.record_decision,
                job.id,
                me,
                len(judged),
                json.dumps(data),
                took,
                time.time(),
            )
            judged.append(Decision.from_dict(data))
            seconds += took
        if said == "cancel":
            await self._end(job, "cancelled")
        if said != "go":
            return  # cancelled, or taken over by another runner: nothing more of it here
        budget = Budget.from_dict(job.budget)
        analysis = assemble(
            rec,
            job.seat,
            budget,
            Marks(),
            SEED,
            judged,
            total=len(points),
            forced=forced,
            end=end,
            complete=True,
            seconds=seconds,
        )
        data = analysis.to_dict()
        await self.db.call(
            store.review.save_analysis,
            analysis.record["hash"],
            job.seat,
            job.budget_key,
            job.game_id,
            json.dumps(data),
        )
        puzzles = await self._save_puzzles(analysis, rec, job.game_id is None)
        await self._end(job, "done", puzzles=puzzles)

    async def _save_puzzles(
        self, analysis: Analysis, record: Record, uploaded: bool
    ) -> list[dict[str, Any]]:
        """The analysis's clearest decisions as puzzles, saved to be shared by their links
        (`uploaded`: of an uploaded record, not a stored game)."""
        found = await asyncio.to_thread(
            find_puzzles, analysis, record, seed=SEED, limit=PUZZLES_A_GAME
        )
        out = []
        for p in found:
            pid = puzzle_id(p)
            text = json.dumps(p.to_dict())
            # puzzles of an uploaded record go when its analysis does (`prune`)
            await self.db.call(self.db.store.puzzles.save_puzzle, pid, p.game, text, uploaded)
            out.append(
                {"id": pid, "ply": p.source["ply"], "margin": p.margin, "link": f"/puzzle/{pid}"}
            )
        return out

    async def prune(self) -> int:
        """Delete what uploads left older than the retention time: the analyses of uploaded
        records and the puzzles of uploaded files (a stored game's stay)."""
        before = time.time() - self.settings.retention_days * 86400
        gone = await self.db.call(self.db.store.review.prune_uploaded_analyses, before)
        return gone + await self.db.call(self.db.store.puzzles.prune_uploaded_puzzles, before)


def stored_entry(row: dict[str, Any]) -> GameEntry:
    """A stored game's record and names, for a finished game only (else 409: see the module doc)."""
    if not row["finished"] or row["record"] is None:
        raise TableError(NOT_FINISHED, 409, "not_finished")
    record = Record.from_dict(row["record"])
    names = stored_names(row["names"]) if row["names"] else default_names(record.players)
    return GameEntry(record, names)
