"""The tournament director: runs beside every table worker and moves running tournaments on.

A tournament's state is in the database (`parlour_tournaments`: open → running → finished, and the
round being played). The director looks at each running tournament when one of its worker's tables
finishes a game, and every `tournament_poll` seconds anyway (a table of another worker, a start
through another gateway, a restart): when every table of the current round is over, it seats the
next round (`tournament.next_round`) and opens its tables — real server tables, owned by this
worker, every seat filled (people by their entrant token, which is their seat token at every table
of the tournament; bots by their spec) so that each starts at once — in one transaction with a
compare-and-set of the round (`store.tournaments.open_round`): when two workers' directors race,
one opens the round and the other writes nothing. When there is no next round it stores the final
standings. Nothing is held in memory between looks, so a restarted server carries on where the
database says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from parlour.core.registry import info

from .logs import Failures
from .storage import TableRow
from .tables import IDLE_FALLBACK, TableError, plan_table, random_code
from .tournament import Entrant, Outcome, next_round, standings, swiss_rounds

if TYPE_CHECKING:
    from .worker import TableWorker

__all__ = ["TournamentDirector", "outcomes_of"]

log = logging.getLogger("parlour.server")

OVER = ("finished", "closed", "expired")  # a table in one of these states plays no more


def entrants_of(data: dict[str, Any]) -> list[Entrant]:
    return [Entrant(e["number"], e["name"], e["bot"]) for e in data["entrants"]]


def outcomes_of(data: dict[str, Any]) -> list[Outcome]:
    """The tables (and byes) of every round as `store.tournaments.load_tournament` read them."""
    out = []
    for r in data["tables"]:
        code = r["table_code"]
        out.append(
            Outcome(
                round=int(r["round"]),
                entrants=[int(n) for n in r["entrants"]],
                code=code,
                result=r["result"],
                seats=list(r["seats"]) if r["seats"] is not None else None,
                done=code is None or r["status"] in OVER,
                game_id=r["game_id"],
            )
        )
    return out


class TournamentDirector:
    def __init__(self, worker: TableWorker) -> None:
        self.worker = worker
        self.db = worker.db
        self.settings = worker.settings
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def poke(self) -> None:
        """Look now (a table finished, a tournament started) rather than at the next poll."""
        self._wake.set()

    async def _run(self) -> None:
        looking = Failures(log, f"tournament director on {self.worker.id}")
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.tournament_poll):
                    await self._wake.wait()
            self._wake.clear()
            if self.worker.draining:
                continue
            await looking.run(self.look())  # a database hiccup: the next look tries again

    async def look(self) -> None:
        """Move on every running tournament whose round is over."""
        for tid in await self.db.call(self.db.store.tournaments.running_tournaments):
            try:
                await self.advance(tid)
            except asyncio.CancelledError:
                raise
            except Exception:  # one tournament's trouble must not hold up the others
                log.exception("tournament %s could not move on", tid)

    async def advance(self, tid: str) -> str:
        """One tournament: "playing" (its round is not over), "opened" (the next round's tables),
        "finished", "raced" (another worker moved it on first) or "full" (the server has no room
        for the round's tables now: next time)."""
        store = self.db.store
        data = await self.db.call(store.tournaments.load_tournament, tid)
        if data is None or data["tournament"]["status"] != "running":
            return "gone"
        t = data["tournament"]
        entrants = entrants_of(data)
        outcomes = outcomes_of(data)
        current = int(t["round"])
        if any(not o.done for o in outcomes if o.round == current):
            return "playing"
        rounds = t["rounds"] or swiss_rounds(len(entrants))
        seating = next_round(
            t["format"],
            entrants,
            outcomes,
            current + 1,
            rounds=rounds,
            size=t["table_size"],
            most=info(t["game"]).max_players,
        )
        if seating is None:
            final = standings(t["format"], entrants, outcomes, finished=True)
            done = await self.db.call(store.tournaments.finish_tournament, tid, current, final)
            if done:
                log.info("tournament %s finished after %d rounds", tid, current)
            return "finished" if done else "raced"
        by_number = {e["number"]: e for e in data["entrants"]}
        rows: list[tuple[TableRow, list[int]]] = []
        codes: set[str] = set()
        for seats in seating.tables:
            code = await self._new_code(codes)
            rows.append((self._plan(t, code, [by_number[n] for n in seats]), seats))
        if not await self._room_for([row for row, _ in rows], t["creator"]):
            return "full"
        opened = await self.db.call(
            store.tournaments.open_round,
            tid,
            current,
            seating.round,
            rows,
            seating.byes,
            self.worker.id,
        )
        if not opened:
            return "raced"
        for row, _ in rows:
            await self.worker.adopt(row.code)
        return "opened"

    async def _room_for(self, rows: list[TableRow], creator: str | None) -> bool:
        """Whether a round's tables fit the server's caps now. A table of bots only is the
        tournament's creator's, as if they had opened it (`tables.creator`): it counts against
        their `bot_tables_per_client` and the server's `max_bot_tables`, so that no one client
        fills the server with bots through a tournament (the start refuses a tournament whose
        rounds could not fit; this waits while the creator's other tables of bots play on)."""
        st = self.settings
        counts = await self.db.call(self.db.store.tables.open_counts, creator)
        bots_only = sum(all(s.bot is not None for s in row.seats) for row in rows)
        if counts["all"] + len(rows) > st.max_tables:
            return False
        if counts["bots"] + bots_only > st.max_bot_tables:
            return False
        return creator is None or counts["my_bots"] + bots_only <= st.bot_tables_per_client

    def _plan(self, t: dict[str, Any], code: str, seated: list[dict[str, Any]]) -> TableRow:
        """A round's table: one game, not listed in the lobby, every seat filled."""
        bots = {i: e["bot"] for i, e in enumerate(seated) if e["bot"] is not None}
        row, _, _ = plan_table(
            code,
            t["game"],
            players=len(seated),
            preset=t["preset"],
            options=t["options"],
            bots=bots,
            match="single",
            bot_delay=t["bot_delay"],
            bot_limits=self.settings.bot_limits,
            private=True,
            # a person who does not come is handed to the hint bot, so that every round ends
            # (even on a server whose ordinary tables never hand seats on)
            idle_timeout=self.settings.idle_timeout or IDLE_FALLBACK,
            on_idle="bot",
        )
        for seat, e in zip(row.seats, seated, strict=True):
            seat.name = e["name"]
            if e["bot"] is None:
                seat.token_hash = e["token_hash"]
        if all(e["bot"] is not None for e in seated):
            row.creator = t["creator"]  # its bots think on the creator's share (_room_for)
        return row

    async def _new_code(self, taken: set[str]) -> str:
        for _ in range(50):
            code = random_code()
            if code not in taken and not await self.db.call(self.db.store.tables.code_exists, code):
                taken.add(code)
                return code
        raise TableError("could not find a free table code", 503)
