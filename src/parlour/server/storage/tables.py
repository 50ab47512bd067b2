"""Tables, their seats, games and moves: the rows every game is kept in, each write behind the
table's fence; the history of finished games; the limits' counts and retention."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from ..schema import (
    games,
    moves,
    seats,
    tables,
    tournament_tables,
)
from .driver import DriverStatement
from .engine import Repository
from .fence import Fence, advance
from .ratings import rate_game_in
from .rows import GameRow, MoveRow, SeatRow, TableRow

__all__ = ["KEEP_ACCOUNT", "TablesRepo", "insert_table", "read_moves", "read_seats"]


KEEP_ACCOUNT = -1  # fill_seat: leave the seat's account as it is (a bot standing in for it)
_INSERT_MOVES = DriverStatement(insert(moves))


def insert_table(conn: Any, row: TableRow, owner: str | None) -> None:
    """A new table and its seats, owned by `owner` from epoch 1."""
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
            private=row.private,
            creator=row.creator,
            idle_timeout=row.idle_timeout,
            on_idle=row.on_idle,
            correspondence=row.correspondence,
            on_timeout=row.on_timeout,
            last_active=row.created_at,
            owner=owner,
            epoch=1,
            seq=0,
            rated=row.rated,
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
                "account_id": s.account_id,
            }
            for s in row.seats
        ],
    )


def read_seats(conn: Any, code: str) -> list[SeatRow]:
    return [
        SeatRow(r.seat, r.name, r.bot, r.token_hash, r.account_id)
        for r in conn.execute(
            select(seats).where(seats.c.table_code == code).order_by(seats.c.seat)
        )
    ]


def read_moves(conn: Any, game_id: int) -> list[str]:
    return list(
        conn.execute(
            select(moves.c.text).where(moves.c.game_id == game_id).order_by(moves.c.ply)
        ).scalars()
    )


class TablesRepo(Repository):
    """Tables, seats, games and moves (see the module doc)."""

    def create_table(self, row: TableRow, owner: str | None = None) -> Fence | None:
        """Store a new table owned by `owner` (a worker); returns the owner's first fence."""
        with self.engine.begin() as conn:
            insert_table(conn, row, owner)
        return None if owner is None else Fence(row.code, owner, 1, 0)

    def open_rematch(self, old: str, row: TableRow, owner: str) -> str | None:
        """A rematch in one transaction: table `old` names it — a write-once compare-and-set on
        its `rematch` being empty, outside the owner's fence (it is no part of the game, and a
        finished table may have no live owner) — and the new table is stored, owned by `owner`,
        as `create_table` stores any table. Returns None when done, or the code of the rematch
        another request opened first (then nothing was written)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(tables)
                .where(tables.c.code == old, tables.c.rematch.is_(None))
                .values(rematch=row.code)
            )
            if res.rowcount != 1:
                made = conn.execute(select(tables.c.rematch).where(tables.c.code == old)).scalar()
                return str(made or "")
            insert_table(conn, row, owner)
        return None

    def rematches(self, codes: list[str]) -> dict[str, str]:
        """The rematches some tables name (how a gateway checks it missed none on the bus)."""
        if not codes:
            return {}
        with self.engine.connect() as conn:
            q = select(tables.c.code, tables.c.rematch).where(
                tables.c.code.in_(codes), tables.c.rematch.is_not(None)
            )
            return {r.code: str(r.rematch) for r in conn.execute(q)}

    def seats_of_tokens(self, hashes: list[str]) -> list[tuple[str, int]]:
        """(table code, seat) of the open tables where these token hashes hold a seat."""
        if not hashes:
            return []
        with self.engine.connect() as conn:
            q = (
                select(seats.c.table_code, seats.c.seat)
                .join(tables, tables.c.code == seats.c.table_code)
                .where(
                    seats.c.token_hash.in_(hashes),
                    tables.c.status.in_(("waiting", "playing")),
                )
                .order_by(tables.c.last_active.desc())
            )
            return [(r.table_code, int(r.seat)) for r in conn.execute(q)]

    def code_exists(self, code: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(select(tables.c.code).where(tables.c.code == code)).first()
            return found is not None

    def fill_seat(
        self,
        fence: Fence,
        seat: int,
        name: str | None,
        token_hash: str | None,
        bot: str | None = None,
        account_id: int | None = KEEP_ACCOUNT,
    ) -> Fence:
        """Seat a person (or a bot, or nobody: a freed seat) at a table; `account_id` the account
        of the person (None: a guest), or KEEP_ACCOUNT (a bot standing in for the seat's person)."""
        values: dict[str, Any] = {"name": name, "token_hash": token_hash, "bot": bot}
        if account_id != KEEP_ACCOUNT:
            values["account_id"] = account_id
        with self.engine.begin() as conn:
            after = advance(conn, fence)
            conn.execute(
                update(seats)
                .where(seats.c.table_code == fence.code, seats.c.seat == seat)
                .values(**values)
            )
        return after

    def set_status(self, fence: Fence, status: str, why: str | None = None) -> Fence:
        """A table's status, and for a closed or expired one the words said about it."""
        with self.engine.begin() as conn:
            return advance(conn, fence, status=status, closed_why=why)

    def start_game(
        self,
        fence: Fence,
        number: int,
        players: int,
        seat_list: list[int],
        seed: int,
        setup: dict[str, Any],
        rules: dict[str, Any],
        deadline: float | None = None,
    ) -> tuple[int, Fence]:
        """Store a new game of a table; returns its id and the next fence."""
        with self.engine.begin() as conn:
            after = advance(conn, fence, status="playing", clock_deadline=deadline)
            res = conn.execute(
                insert(games).values(
                    table_code=fence.code,
                    number=number,
                    players=players,
                    seats=seat_list,
                    seed=seed,
                    setup=setup,
                    rules=rules,
                    started_at=time.time(),
                )
            )
            key = res.inserted_primary_key
            assert key is not None
            return int(key[0]), after

    def add_moves(self, rows: list[MoveRow]) -> list[Fence]:
        """Moves of several tables, each behind its table's fence, in one transaction: one commit
        for all. A fence that fails fails the batch (Fenced): store them one by one then."""
        now = time.time()
        out = []
        with self.engine.begin() as conn:
            for r in rows:
                out.append(advance(conn, r.fence, clock_deadline=r.deadline))
            _INSERT_MOVES.execute(
                conn,
                [{"game_id": r.game_id, "ply": r.ply, "text": r.text, "at": now} for r in rows],
            )
        return out

    def finish_game(
        self, fence: Fence, game_id: int, result: dict[str, Any], status: str | None = None
    ) -> Fence:
        """A game's result (once: a result stored already stays), and on a rated table the players'
        new ratings, in the same transaction."""
        with self.engine.begin() as conn:
            after = advance(conn, fence, status=status)
            conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.finished_at.is_(None))
                .values(finished_at=time.time(), result=result)
            )
            rate_game_in(conn, game_id)
        return after

    def close_rated_game(
        self, fence: Fence, game_id: int, closed_by: frozenset[int], why: str | None = None
    ) -> Fence:
        """Close a rated table in the middle of game `game_id`: its status (and `why`), and the
        game rated with the seats of whoever closed it (`closed_by`) last, in one transaction."""
        with self.engine.begin() as conn:
            after = advance(conn, fence, status="closed", closed_why=why)
            rate_game_in(conn, game_id, closed_by)
        return after

    def seqs(self, codes: list[str]) -> dict[str, int]:
        """The change numbers of some tables (how a gateway checks it missed nothing)."""
        if not codes:
            return {}
        with self.engine.connect() as conn:
            q = select(tables.c.code, tables.c.seq).where(tables.c.code.in_(codes))
            return {r.code: int(r.seq) for r in conn.execute(q)}

    def waiting_tables(self, limit: int = 200) -> list[TableRow]:
        """Public tables waiting for players, newest first (their seats, no games). A table whose
        seats are all taken waits only for its worker to deal, for a moment: it waits for nobody
        who reads the list, so it is not on it."""
        free_seat = (
            select(seats.c.table_code)
            .where(seats.c.table_code == tables.c.code, seats.c.name.is_(None))
            .exists()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables)
                .where(tables.c.status == "waiting", tables.c.private.is_(False), free_seat)
                .order_by(tables.c.created_at.desc())
                .limit(limit)
            ).all()
            out = [TableRow(**r._mapping) for r in rows]
            for t in out:
                t.seats = read_seats(conn, t.code)
        return out

    def open_counts(self, creator: str | None) -> dict[str, int]:
        """Open (waiting or playing) tables: in all, of bots only, and opened by `creator`."""
        is_open = tables.c.status.in_(("waiting", "playing"))
        has_person = select(seats.c.table_code).where(seats.c.bot.is_(None)).scalar_subquery()
        with self.engine.connect() as conn:

            def count(*where: Any) -> int:
                q = select(func.count()).select_from(tables).where(is_open, *where)
                return int(conn.execute(q).scalar_one())

            bots_only = tables.c.code.not_in(has_person)
            out = {"all": count(), "bots": count(bots_only)}
            if creator is not None:
                out["mine"] = count(tables.c.creator == creator)
                out["my_bots"] = count(tables.c.creator == creator, bots_only)
        return out

    def open_tables_by(self, creator: str) -> int:
        """How many waiting or playing tables a client has opened."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(tables)
                    .where(tables.c.creator == creator, tables.c.status.in_(("waiting", "playing")))
                ).scalar_one()
            )

    def prune(self, abandoned_before: float) -> int:
        """Delete tables with no finished game that nobody has touched since `abandoned_before`
        and that are not being played (closed, expired, or waiting): their seats, games and moves
        go; a table with a finished game is kept whole. Returns how many were deleted."""
        with self.engine.begin() as conn:
            finished = select(games.c.table_code).where(games.c.finished_at.is_not(None))
            stale = select(tables.c.code).where(
                tables.c.status.in_(("closed", "expired", "waiting")),
                tables.c.correspondence.is_(False),  # kept however long the game takes
                func.coalesce(tables.c.last_active, tables.c.created_at) < abandoned_before,
                tables.c.code.not_in(finished),
                # a tournament's tables are its record: kept as long as the tournament
                tables.c.code.not_in(
                    select(tournament_tables.c.table_code).where(
                        tournament_tables.c.table_code.is_not(None)
                    )
                ),
            )
            codes = list(conn.execute(stale).scalars())
            if not codes:
                return 0
            game_ids = select(games.c.id).where(games.c.table_code.in_(codes))
            conn.execute(delete(moves).where(moves.c.game_id.in_(game_ids)))
            conn.execute(delete(games).where(games.c.table_code.in_(codes)))
            conn.execute(delete(seats).where(seats.c.table_code.in_(codes)))
            conn.execute(delete(tables).where(tables.c.code.in_(codes)))
            return len(codes)

    def load_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[TableRow]:
        """Tables in the given states, with their seats and games (and the last game's moves),
        oldest first."""
        with self._snapshot() as conn:
            rows = conn.execute(
                select(tables).where(tables.c.status.in_(statuses)).order_by(tables.c.created_at)
            ).all()
            return [self._whole(conn, TableRow(**r._mapping)) for r in rows]

    def load_table(self, code: str) -> TableRow | None:
        """One table with its seats and games (and the last game's moves), whatever its state."""
        with self._snapshot() as conn:
            r = conn.execute(select(tables).where(tables.c.code == code)).first()
            return None if r is None else self._whole(conn, TableRow(**r._mapping))

    def _whole(self, conn: Any, t: TableRow) -> TableRow:
        t.seats = read_seats(conn, t.code)
        stored = conn.execute(
            select(games).where(games.c.table_code == t.code).order_by(games.c.number)
        ).all()
        for k, g in enumerate(stored):
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
            # only the last game is played again on loading (and one whose result was never
            # stored: killed between its last move and its result)
            if k == len(stored) - 1 or g.result is None:
                row.moves = read_moves(conn, g.id)
            t.games.append(row)
        return t

    def game_moves(self, game_id: int) -> list[str]:
        with self.engine.connect() as conn:
            return read_moves(conn, game_id)

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
            by_seat = {
                s.seat: s.name
                for s in conn.execute(select(seats).where(seats.c.table_code == g.table_code))
            }
        return {
            "format": "parlour-record/1",
            "game": g.game,
            "players": g.players,
            "rules": dict(g.rules),
            "seed": int(g.seed),
            "setup": dict(g.setup),
            "moves": texts,
            # the players' names in the game's order (its seats), for `parlour replay`
            "names": [by_seat.get(s) or f"Seat {s + 1}" for s in g.seats],
        }

    def finished_ids(self, code: str, limit: int | None = None, offset: int = 0) -> list[int]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games.c.id)
                    .where(games.c.table_code == code, games.c.finished_at.is_not(None))
                    .order_by(games.c.number)
                    .limit(limit)
                    .offset(offset)
                ).scalars()
            )

    def finished_count(self, code: str) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(games)
                    .where(games.c.table_code == code, games.c.finished_at.is_not(None))
                ).scalar_one()
            )
