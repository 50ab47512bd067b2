"""The analysis queue in the database (`parlour_analysis_jobs`), so that it belongs to no one
gateway: a job asked for through one gateway is polled, cancelled and run through any, and a job
whose runner stops beating is taken over from the next decision it had not judged.

Every method here is one transaction on the store's engine, run on the database thread
(`Database.call`). A runner is a gateway (its id); each write of a running job is a
compare-and-set of its runner, so a runner that stalled and lost its job cannot write to it
again. The bounds hold across the cluster: one job under way for a record, seat and budget, and
one per client (unique columns set while a job is under way), and at most `most` under way in all
(counted in the asking transaction: two gateways asking at the same instant may pass it by one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import TableError
from ..schema import analysis_decisions as d
from ..schema import analysis_jobs as j
from .engine import Repository

__all__ = ["AnalysisJobsRepo", "JobRow", "NewJob"]

UNDER_WAY = ("queued", "running")


@dataclass(frozen=True)
class NewJob:
    id: str
    client: str
    record: str  # the record as JSON
    record_hash: str
    seat: int
    budget: dict[str, Any]
    budget_key: str
    game_id: int | None

    @property
    def key(self) -> str:
        return f"{self.record_hash}|{self.seat}|{self.budget_key}"


@dataclass(frozen=True)
class JobRow:
    """A job as stored: what it judges, where it is, and how it ended."""

    id: str
    client: str
    record: str
    record_hash: str
    seat: int
    budget: dict[str, Any]
    budget_key: str
    game_id: int | None
    status: str  # queued | running | done | failed | cancelled
    runner: str | None
    cancel: bool
    total: int | None
    done: int
    seconds: float
    puzzles: list[dict[str, Any]]
    error: str | None

    @property
    def under_way(self) -> bool:
        return self.status in UNDER_WAY


def _job(r: Any) -> JobRow:
    return JobRow(
        id=r.id,
        client=r.client,
        record=r.record,
        record_hash=r.record_hash,
        seat=int(r.seat),
        budget=json.loads(r.budget),
        budget_key=r.budget_key,
        game_id=r.game_id,
        status=r.status,
        runner=r.runner,
        cancel=bool(r.cancel),
        total=r.total,
        done=int(r.done),
        seconds=float(r.seconds),
        puzzles=json.loads(r.puzzles) if r.puzzles else [],
        error=r.error,
    )


def _mine(job_id: str, runner: str) -> Any:
    return and_(j.c.id == job_id, j.c.runner == runner, j.c.status == "running")


def _outcome(conn: Any, job_id: str, changed: int) -> str:
    if changed != 1:
        return "lost"
    asked = conn.execute(select(j.c.cancel).where(j.c.id == job_id)).scalar()
    return "cancel" if asked else "go"


class AnalysisJobsRepo(Repository):
    """The analysis queue (see the module doc)."""

    def submit(self, job: NewJob, most: int, now: float) -> tuple[JobRow, bool]:
        """Queue `job`, or answer the job under way for the same record, seat and budget (and False:
        not made now). 429 when this client has a job under way, 503 when `most` are."""
        for _ in range(3):
            try:
                with self.engine.begin() as conn:
                    same = conn.execute(select(j).where(j.c.active_key == job.key)).first()
                    if same is not None:
                        return _job(same), False
                    if conn.execute(select(j.c.id).where(j.c.active_client == job.client)).first():
                        raise TableError(
                            "you have an analysis under way already: wait for it to finish, or "
                            "cancel it",
                            429,
                            "analysis_busy",
                        )
                    count = select(func.count()).select_from(j).where(j.c.status.in_(UNDER_WAY))
                    if (conn.execute(count).scalar() or 0) >= most:
                        raise TableError(
                            "the server is analysing as many games as it may: try again in a while",
                            503,
                            "busy",
                        )
                    conn.execute(
                        insert(j).values(
                            id=job.id,
                            client=job.client,
                            record=job.record,
                            record_hash=job.record_hash,
                            seat=job.seat,
                            budget=json.dumps(job.budget),
                            budget_key=job.budget_key,
                            game_id=job.game_id,
                            status="queued",
                            queued_at=now,
                            cancel=False,
                            done=0,
                            seconds=0.0,
                            active_key=job.key,
                            active_client=job.client,
                        )
                    )
                    made = conn.execute(select(j).where(j.c.id == job.id)).one()
                    return _job(made), True
            except IntegrityError:
                continue  # another gateway queued the same analysis, or this client's, meanwhile
        raise TableError("the analysis queue is busy: try again", 503, "busy")

    def job_state(self, job_id: str) -> tuple[JobRow, int | None] | None:
        """A job and, while it is queued, how many queued jobs are before it."""
        with self.engine.connect() as conn:
            r = conn.execute(select(j).where(j.c.id == job_id)).first()
            if r is None:
                return None
            ahead = None
            if r.status == "queued":
                before = or_(
                    j.c.queued_at < r.queued_at, and_(j.c.queued_at == r.queued_at, j.c.id < r.id)
                )
                count = select(func.count()).select_from(j).where(j.c.status == "queued", before)
                ahead = int(conn.execute(count).scalar() or 0)
            return _job(r), ahead

    def claim(
        self, runner: str, now: float, stale_before: float
    ) -> tuple[JobRow, list[str]] | None:
        """The oldest job queued, or running on a runner not heard from since `stale_before`,
        now `runner`'s, with the decisions judged so far (as JSON, in order); None when there is
        none."""
        waiting = or_(
            j.c.status == "queued",
            and_(j.c.status == "running", or_(j.c.beat_at < stale_before, j.c.beat_at.is_(None))),
        )
        with self.engine.begin() as conn:
            found = conn.execute(
                select(j.c.id, j.c.status, j.c.runner)
                .where(waiting)
                .order_by(j.c.queued_at, j.c.id)
                .limit(8)
            ).all()
            for r in found:
                if r.status == "queued":
                    was = j.c.status == "queued"
                else:  # taken from a runner that stopped beating (a compare-and-set on it)
                    was = and_(
                        j.c.status == "running",
                        j.c.runner == r.runner if r.runner is not None else j.c.runner.is_(None),
                        or_(j.c.beat_at < stale_before, j.c.beat_at.is_(None)),
                    )
                took = conn.execute(
                    update(j)
                    .where(j.c.id == r.id, was)
                    .values(status="running", runner=runner, beat_at=now)
                )
                if took.rowcount == 1:
                    row = conn.execute(select(j).where(j.c.id == r.id)).one()
                    judged = conn.execute(
                        select(d.c.decision).where(d.c.job_id == r.id).order_by(d.c.number)
                    ).all()
                    return _job(row), [x.decision for x in judged]
            return None

    def set_total(self, job_id: str, runner: str, total: int, now: float) -> str:
        """Note how many decisions the job has. `go` on, `cancel` (asked for), or `lost` (the job is
        no longer this runner's)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(j).where(_mine(job_id, runner)).values(total=total, beat_at=now)
            )
            return _outcome(conn, job_id, res.rowcount)

    def record_decision(
        self, job_id: str, runner: str, number: int, decision: str, seconds: float, now: float
    ) -> str:
        """Keep decision `number` (from 0) of the job, judged by `runner`; answers as `set_total`
        does."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(j)
                .where(_mine(job_id, runner), j.c.done == number)
                .values(done=number + 1, seconds=j.c.seconds + seconds, beat_at=now)
            )
            if res.rowcount == 1:
                conn.execute(insert(d).values(job_id=job_id, number=number, decision=decision))
            return _outcome(conn, job_id, res.rowcount)

    def finish(
        self,
        job_id: str,
        runner: str,
        status: str,
        now: float,
        error: str | None = None,
        puzzles: list[dict[str, Any]] | None = None,
    ) -> bool:
        """End a running job of `runner`'s (done, failed or cancelled); its decisions go (a done
        job's analysis is in `parlour_analyses`)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(j)
                .where(_mine(job_id, runner))
                .values(
                    status=status,
                    error=error,
                    puzzles=None if puzzles is None else json.dumps(puzzles),
                    ended_at=now,
                    beat_at=None,
                    active_key=None,
                    active_client=None,
                )
            )
            if res.rowcount != 1:
                return False
            conn.execute(delete(d).where(d.c.job_id == job_id))
            return True

    def cancel(self, job_id: str, client: str, now: float) -> JobRow | None:
        """Cancel a client's job: a queued one at once, a running one between two decisions (its
        runner reads the mark). None: no such job; 403 for another client's."""
        with self.engine.begin() as conn:
            r = conn.execute(select(j).where(j.c.id == job_id)).first()
            if r is None:
                return None
            if r.client != client:
                raise TableError("only who asked for an analysis may cancel it", 403, "not_yours")
            if r.status in UNDER_WAY:
                conn.execute(update(j).where(j.c.id == job_id).values(cancel=True))
                conn.execute(
                    update(j)
                    .where(j.c.id == job_id, j.c.status == "queued")
                    .values(
                        status="cancelled",
                        ended_at=now,
                        active_key=None,
                        active_client=None,
                    )
                )
            return _job(conn.execute(select(j).where(j.c.id == job_id)).one())

    def beat(self, runner: str, now: float) -> None:
        """`runner` is at its running jobs still."""
        with self.engine.begin() as conn:
            conn.execute(
                update(j).where(j.c.runner == runner, j.c.status == "running").values(beat_at=now)
            )

    def release(self, runner: str) -> int:
        """A runner stopping puts its running jobs back in the queue, where they were (their
        decisions kept): the next runner goes on from there."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(j)
                .where(j.c.runner == runner, j.c.status == "running")
                .values(status="queued", runner=None, beat_at=None)
            )
            return int(res.rowcount)

    def prune(self, ended_before: float) -> int:
        """Forget the jobs that ended before `ended_before` (their results stay in the cache)."""
        with self.engine.begin() as conn:
            old = select(j.c.id).where(j.c.ended_at < ended_before)
            conn.execute(delete(d).where(d.c.job_id.in_(old)))
            res = conn.execute(delete(j).where(j.c.ended_at < ended_before))
            return int(res.rowcount)
