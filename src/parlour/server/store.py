"""Storage through SQLAlchemy 2: an embedded SQLite file by default, PostgreSQL by URL.

`Store` is synchronous and small; the server calls it from one worker thread so that writes to a
table are ordered and SQLite has a single writer. Every call is its own transaction: when
`add_move` returns, the move is on disk (SQLite in WAL mode survives a killed process).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, insert, select, update
from sqlalchemy.engine import make_url

from .schema import games, moves, seats, tables

__all__ = ["GameRow", "SeatRow", "Store", "TableRow", "database_url", "make_engine", "migrate"]

MIGRATIONS = Path(__file__).parent / "migrations"


def database_url(url: str) -> str:
    """Normalize a database URL: plain `postgresql://` uses psycopg 3, the driver we ship."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str) -> Engine:
    url = database_url(url)
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        if u.database and u.database != ":memory:":
            Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + NORMAL: a commit survives the process being killed (not a power cut).
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (run at every start; cheap when up to date)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@dataclass
class SeatRow:
    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None


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


class Store:
    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.engine = make_engine(url)
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # --- tables and seats ------------------------------------------------------------------
    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables).values(
                    code=row.code,
                    created_at=row.created_at,
                    game=row.game,
                    players=row.players,
                    preset=row.preset,
                    rules=row.rules,
                    match_format=row.match_format,
                    match_seed=row.match_seed,
                    move_clock=row.move_clock,
                    bot_delay=row.bot_delay,
                    auto_next=row.auto_next,
                    status=row.status,
                    host_hash=row.host_hash,
                )
            )
            conn.execute(
                insert(seats),
                [
                    {
                        "table_code": row.code,
                        "seat": s.seat,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                    }
                    for s in row.seats
                ],
            )

    def code_exists(self, code: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(select(tables.c.code).where(tables.c.code == code)).first()
            return found is not None

    def fill_seat(self, code: str, seat: int, name: str, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.table_code == code, seats.c.seat == seat)
                .values(name=name, token_hash=token_hash)
            )

    def set_status(self, code: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.code == code).values(status=status))

    # --- games and moves -------------------------------------------------------------------
    def start_game(
        self,
        code: str,
        number: int,
        players: int,
        seat_list: list[int],
        seed: int,
        setup: dict[str, Any],
        rules: dict[str, Any],
        status: str = "playing",
    ) -> int:
        with self.engine.begin() as conn:
            res = conn.execute(
                insert(games).values(
                    table_code=code,
                    number=number,
                    players=players,
                    seats=seat_list,
                    seed=seed,
                    setup=setup,
                    rules=rules,
                    started_at=time.time(),
                )
            )
            conn.execute(update(tables).where(tables.c.code == code).values(status=status))
            key = res.inserted_primary_key
            assert key is not None
            return int(key[0])

    def add_move(self, game_id: int, ply: int, text: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(moves).values(game_id=game_id, ply=ply, text=text, at=time.time()))

    def finish_game(self, game_id: int, result: dict[str, Any], status: str | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(finished_at=time.time(), result=result)
            )
            if status is not None:
                code = conn.execute(select(games.c.table_code).where(games.c.id == game_id))
                conn.execute(
                    update(tables).where(tables.c.code == code.scalar_one()).values(status=status)
                )

    # --- loading -----------------------------------------------------------------------------
    def load_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[TableRow]:
        """Tables in the given states, with their seats, games and moves, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables).where(tables.c.status.in_(statuses)).order_by(tables.c.created_at)
            ).all()
            out = [TableRow(**r._mapping) for r in rows]
            for t in out:
                t.seats = [
                    SeatRow(r.seat, r.name, r.bot, r.token_hash)
                    for r in conn.execute(
                        select(seats).where(seats.c.table_code == t.code).order_by(seats.c.seat)
                    )
                ]
                for g in conn.execute(
                    select(games).where(games.c.table_code == t.code).order_by(games.c.number)
                ).all():
                    row = GameRow(
                        g.id,
                        g.number,
                        g.players,
                        list(g.seats),
                        int(g.seed),
                        dict(g.setup),
                        dict(g.rules),
                        g.finished_at,
                        g.result,
                    )
                    row.moves = list(
                        conn.execute(
                            select(moves.c.text)
                            .where(moves.c.game_id == g.id)
                            .order_by(moves.c.ply)
                        ).scalars()
                    )
                    t.games.append(row)
            return out

    def history(self, limit: int = 50, offset: int = 0, code: str | None = None) -> dict[str, Any]:
        """Finished games, newest first, with the names at the table."""
        with self.engine.connect() as conn:
            q = (
                select(
                    games.c.id,
                    games.c.table_code,
                    games.c.number,
                    games.c.players,
                    games.c.seats,
                    games.c.started_at,
                    games.c.finished_at,
                    games.c.result,
                    tables.c.game,
                    tables.c.preset,
                )
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.finished_at.is_not(None))
            )
            done = games.c.finished_at.is_not(None)
            count_q = select(func.count()).select_from(games).where(done)
            if code is not None:
                q = q.where(games.c.table_code == code)
                count_q = count_q.where(games.c.table_code == code)
            total = conn.execute(count_q).scalar_one()
            rows = conn.execute(
                q.order_by(games.c.finished_at.desc(), games.c.id.desc())
                .limit(limit)
                .offset(offset)
            ).all()
            codes = {r.table_code for r in rows}
            names: dict[tuple[str, int], str | None] = {}
            if codes:
                for s in conn.execute(select(seats).where(seats.c.table_code.in_(codes))):
                    names[(s.table_code, s.seat)] = s.name
            items = []
            for r in rows:
                items.append(
                    {
                        "id": r.id,
                        "table": r.table_code,
                        "number": r.number,
                        "game": r.game,
                        "preset": r.preset,
                        "players": [names.get((r.table_code, s)) for s in r.seats],
                        "started_at": r.started_at,
                        "finished_at": r.finished_at,
                        "result": r.result,
                    }
                )
            return {"total": total, "games": items}

    def finished_record(self, game_id: int) -> dict[str, Any] | None:
        """The record (`Record.to_dict()` form) of a finished game; None for unknown or unfinished.

        An unfinished game's record is never given out: its seed decides every hidden card.
        """
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games, tables.c.game)
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.id == game_id)
            ).first()
            if g is None or g.finished_at is None:
                return None
            texts = list(
                conn.execute(
                    select(moves.c.text).where(moves.c.game_id == game_id).order_by(moves.c.ply)
                ).scalars()
            )
        return {
            "format": "parlour-record/1",
            "game": g.game,
            "players": g.players,
            "rules": dict(g.rules),
            "seed": int(g.seed),
            "setup": dict(g.setup),
            "moves": texts,
        }

    def finished_ids(self, code: str) -> list[int]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games.c.id)
                    .where(games.c.table_code == code, games.c.finished_at.is_not(None))
                    .order_by(games.c.number)
                ).scalars()
            )
