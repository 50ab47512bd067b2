"""Quick match: choose a game, a preset and a number of players, join a queue, and be seated at a
real table with people of a similar rating — the band of ratings an entry accepts widens with its
waiting time — or, if the entry asked for it, with bots in the seats nobody came for.

**Where the queue lives: the database** (`parlour_quick`, migration 0009). Every gateway of a
cluster answers HTTP, and a person's tabs and reloads may reach different gateways, so the queue
cannot be one gateway's memory; one owner process would need electing and handing over when it
dies, which the database already does for us. Every gateway reads the waiting entries and may
form matches: a match is one transaction that compare-and-sets each of its entries from
`waiting` to `matched` (with the table's code and the entry's seat) and stores the new table, so
two gateways forming overlapping matches at once cannot both succeed — the second one's
compare-and-set finds an entry taken and its whole transaction is rolled back. The table is then
handed to the least-loaded worker as any new table is (`adopt`), and, its seats all filled, the
worker starts the game at once.

**Tickets.** Joining answers a random ticket; the database keeps only its hash. The browser keeps
the ticket (localStorage, so every tab of the browser sees the same entry), and asks with it how
the entry is doing — a long poll that a match wakes at once through the bus (`quick` channel;
the database is read again every second in case the bus lost it). A logged-in person's entry is
found by the session too, in any browser. When matched, the answer holds the table's link and the
seat's token, which is derived from the entry's id under a server secret (HMAC), so it is never
stored, only its hash on the seat, and it is given only to the ticket or the entry's account.

**Ratings and bands.** A logged-in person queues with their rating (openskill's `mu`) for the
game and preset; a guest with the default rating. Two entries may share a table when their
ratings differ by no more than either one's band: ±`quick_band_start` at first, widening by
`quick_band_growth` a second, and unlimited after `quick_band_open` seconds. The oldest entry
of a pool (game, preset, players) is matched first, with the next compatible ones in the order
they came.

**Bots.** An entry may ask for bots after W seconds (`quick_bots_min` to `quick_bots_max`): once
its oldest entry has waited its W, a table is formed with it, the compatible entries that also
accept bots, and `hint` bots in the other seats.

**One address, one seat.** Two entries from one address (the client key every per-client
limit uses) never share a table: two accounts of one person would otherwise be seated against
each other at a rated table. People of one household who want to play each other open a table
and share its link.

**Rated or not.** The table is rated when every person at it is logged in (bots fill seats of
rated tables on main too, and are rated as their level); one guest makes it unrated. The rules
are the preset's as they are, as a rated table needs.

Nobody hosts a quick-match table: it starts by itself, and plays one game (`single`); to play
again, queue again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import parlour
from parlour.core.registry import games as all_games

from .bus import tell
from .clients import RateMeter
from .database import Database
from .gateway import Gateway
from .logs import Failures
from .messages import BusMessage, QuickMatched
from .ratings import SCALE, fresh, points
from .settings import Settings
from .storage.matchmaking import Taken
from .tables import IDLE_FALLBACK, TableError, clean_name, hash_token, plan_table

__all__ = ["BOT", "Entry", "QuickMatch", "band", "band_words", "find_groups"]

log = logging.getLogger("parlour.server")

BOT = "hint"  # the bot that fills seats
CHANNEL = "quick"  # the bus channel on which a match wakes the long polls of every gateway
REREAD_EVERY = 1.0  # seconds between a long poll's reads of its entry (a match wakes it sooner)


# --- the rules of matching: pure functions --------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    id: int
    mu: float
    joined_at: float
    bot_after: float | None = None
    account_id: int | None = None
    client: str | None = None  # the address it joined from (its keyed hash)


def band(waited: float, st: Settings) -> float | None:
    """How far from its own rating an entry that has waited `waited` seconds accepts (in `mu`);
    None: any rating."""
    if waited >= st.quick_band_open:
        return None
    return st.quick_band_start + st.quick_band_growth * max(0.0, waited)


def band_words(mu: float, waited: float, st: Settings) -> str:
    width = band(waited, st)
    if width is None:
        return "Any rating now: you have waited long enough to play anyone."
    left = max(1, round(st.quick_band_open - waited))
    # in the numbers people see (1500-based, as on the leaderboards), not the model's mu
    return (
        f"Players rated {points(mu - width)} to {points(mu + width)} (you: {points(mu)}); "
        f"the range widens as you wait, to anyone in {left} s."
    )


def compatible(a: Entry, b: Entry, now: float, st: Settings) -> bool:
    """Whether two entries may share a table: their ratings are within either one's band, and they
    came from two accounts and two addresses — two accounts of one person (or two tabs) are never
    seated against each other, least of all at a rated table."""
    if a.account_id is not None and a.account_id == b.account_id:
        return False
    if a.client is not None and a.client == b.client:
        return False
    widths = [band(now - e.joined_at, st) for e in (a, b)]
    if None in widths:
        return True
    return abs(a.mu - b.mu) <= max(w for w in widths if w is not None)


def find_groups(
    entries: list[Entry], players: int, now: float, st: Settings
) -> list[tuple[list[Entry], int]]:
    """The tables to form from one pool's waiting entries: (entries, number of bots). Oldest
    first; each with the next entries compatible with every one already chosen; a table short
    of people forms with bots once its oldest entry has waited the wait it chose."""
    order = sorted(entries, key=lambda e: (e.joined_at, e.id))
    used: set[int] = set()
    groups: list[tuple[list[Entry], int]] = []

    def gather(anchor: Entry, ok: Callable[[Entry], bool]) -> list[Entry]:
        chosen = [anchor]
        for e in order:
            if len(chosen) == players:
                break
            if e.id in used or e is anchor or not ok(e):
                continue
            if all(compatible(c, e, now, st) for c in chosen):
                chosen.append(e)
        return chosen

    for anchor in order:
        if anchor.id in used:
            continue
        chosen = gather(anchor, lambda e: True)
        if len(chosen) < players:
            if anchor.bot_after is None or now - anchor.joined_at < anchor.bot_after:
                continue
            chosen = gather(anchor, lambda e: e.bot_after is not None)
        used.update(e.id for e in chosen)
        groups.append((chosen, players - len(chosen)))
    return groups


# --- the gateway's part ---------------------------------------------------------------------------
class QuickMatch:
    """Quick match on a gateway: joining, asking after and leaving entries, and forming matches
    (after each join, and every `quick_tick` seconds for bands widened and bots due)."""

    def __init__(self, db: Database, gateway: Gateway, settings: Settings) -> None:
        self.db, self.gateway, self.settings = db, gateway, settings
        self.clock: Callable[[], float] = time.time  # the tests' clock is their own
        per_minute = settings.quick_joins_per_minute
        self.joins = RateMeter(per_minute, max(1, min(5, int(per_minute))))
        self.key = b""
        self._wake: dict[int, set[asyncio.Event]] = {}
        self._lock = asyncio.Lock()
        self._loop: asyncio.Task[None] | None = None
        self._stopping = False
        self.latencies: list[float] = []  # seconds from a match's last join to its table stored

    async def start(self) -> None:
        self.key = await self.db.call(self.db.store.secret, "quick")
        await self.gateway.bus.subscribe(CHANNEL, self._on_match)
        if self.settings.quick_tick > 0:
            self._loop = asyncio.ensure_future(self._ticking())

    async def stop(self) -> None:
        self._stopping = True  # long polls answer now: a shutdown does not wait for them
        for events in self._wake.values():
            for event in events:
                event.set()
        if self._loop is not None:
            self._loop.cancel()
        await self.gateway.bus.unsubscribe(CHANNEL, self._on_match)

    async def _ticking(self) -> None:
        rounds = Failures(log, "quick match: a round of matching")  # said once a spell
        while True:
            await asyncio.sleep(self.settings.quick_tick)
            await rounds.run(self.tick())

    def seat_token(self, entry_id: int) -> str:
        return hmac.new(self.key, f"seat:{entry_id}".encode(), hashlib.sha256).hexdigest()[:40]

    # --- requests --------------------------------------------------------------------------------
    async def join(
        self,
        client: str | None,
        *,
        game: str,
        preset: str | None,
        players: int | None,
        name: Any,
        bot_after: float | None,
        account: tuple[int, str] | None,
    ) -> tuple[str, dict[str, Any]]:
        """Queue an entry; returns its ticket and how it stands (matched at once if it can)."""
        st = self.settings
        gi = all_games().get(game)
        if gi is None:
            raise TableError(f"no game called {game!r}", 400, "bad_rules")
        preset = preset or gi.default_preset
        if preset not in gi.presets:
            raise TableError(f"{gi.title} has no preset {preset!r}", 400, "bad_rules")
        players = players or gi.default_players
        try:
            parlour.make(game, players=players, rules=preset)
        except Exception as exc:
            raise TableError(str(exc), 400, "bad_rules") from None
        if bot_after is not None and not st.quick_bots_min <= bot_after <= st.quick_bots_max:
            raise TableError(
                f"bots may fill seats after {st.quick_bots_min:g} to {st.quick_bots_max:g} "
                "seconds (or never: null)"
            )
        shown = account[1] if account is not None else clean_name(name)
        mu = fresh().mu
        if account is not None:
            rated = await self.db.call(self.db.store.ratings.mu_of, account[0], game, preset)
            mu = fresh().mu if rated is None else rated
        if client is not None and not self.joins.take(client):
            raise TableError(
                "too many quick-match joins from you: wait a minute", 429, "rate_limited"
            )
        ticket = secrets.token_urlsafe(24)
        now = self.clock()
        values = {
            "ticket_hash": hash_token(ticket),
            "client": client,
            "account_id": None if account is None else account[0],
            "name": shown,
            "game": game,
            "preset": preset,
            "players": players,
            "mu": mu,
            "bot_after": bot_after,
            "joined_at": now,
            "seen_at": now,
            "status": "waiting",
        }
        await self.db.call(self.db.store.quick.join, values, st.quick_per_client)
        try:  # the entry is in: a match that cannot be opened now is tried again each round
            await self.match((game, preset, players))
        except Exception:
            log.exception("quick match: matching after a join failed")
        found = await self.db.call(self.db.store.quick.entry, hash_token(ticket), None, now)
        assert found is not None
        return ticket, self.described(found)

    async def entry(
        self, ticket: str | None, account_id: int | None, wait: float = 0.0
    ) -> dict[str, Any]:
        """How an entry stands; with `wait`, a long poll: the answer comes when it is matched (or
        left, or expired), or after `wait` seconds."""
        th = None if not ticket else hash_token(ticket)
        if th is None and account_id is None:
            raise TableError("send the ticket, or log in", 401, "no_ticket")
        deadline = time.monotonic() + max(0.0, min(wait, self.settings.quick_max_wait))
        found = await self.db.call(self.db.store.quick.entry, th, account_id, self.clock())
        if found is None:
            raise TableError("no such entry in the queue", 404, "no_entry")
        event = asyncio.Event()
        self._wake.setdefault(int(found["id"]), set()).add(event)
        try:
            while (
                found["status"] == "waiting" and time.monotonic() < deadline and not self._stopping
            ):
                left = deadline - time.monotonic()
                # woken by a match on any gateway; the database read again each REREAD_EVERY
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(REREAD_EVERY, left)):
                        await event.wait()
                event.clear()
                again = await self.db.call(self.db.store.quick.entry, th, account_id, self.clock())
                found = again or found
        finally:
            waiting = self._wake.get(int(found["id"]), set())
            waiting.discard(event)
            if not waiting:
                self._wake.pop(int(found["id"]), None)
        return self.described(found)

    async def leave(self, ticket: str | None, account_id: int | None) -> dict[str, Any]:
        th = None if not ticket else hash_token(ticket)
        if th is None and account_id is None:
            raise TableError("send the ticket, or log in", 401, "no_ticket")
        found = await self.db.call(self.db.store.quick.entry, th, account_id, self.clock())
        if found is None:
            raise TableError("no such entry in the queue", 404, "no_entry")
        if found["status"] == "waiting":
            await self.db.call(self.db.store.quick.leave, int(found["id"]))
            found = await self.db.call(self.db.store.quick.entry, th, account_id, self.clock())
            assert found is not None
        await tell(self.gateway.bus, CHANNEL, QuickMatched([int(found["id"])]))
        return self.described(found)

    def described(self, e: dict[str, Any]) -> dict[str, Any]:
        """An entry as the API shows it (the seat's token only to whoever may ask after it)."""
        now = self.clock()
        waited = max(0.0, (e["matched_at"] or now) - e["joined_at"])
        width = band(waited, self.settings)
        out: dict[str, Any] = {
            "status": e["status"],
            "game": e["game"],
            "preset": e["preset"],
            "players": e["players"],
            "name": e["name"],
            "logged_in": e["account_id"] is not None,
            "rating": round(float(e["mu"]), 1),
            "waited": round(waited, 1),
            "band": None
            if width is None
            else {"low": round(e["mu"] - width, 1), "high": round(e["mu"] + width, 1)},
            "band_words": band_words(float(e["mu"]), waited, self.settings),
            # the same in the numbers people see (ratings.points), to draw in words
            "rating_shown": points(float(e["mu"])),
            "band_shown": None
            if width is None
            else {"low": points(e["mu"] - width), "high": points(e["mu"] + width)},
            "band_growth_shown": self.settings.quick_band_growth * SCALE,
            # to draw the band widening between answers: mu a second, and when it opens
            "band_growth": self.settings.quick_band_growth,
            "open_in": round(max(0.0, self.settings.quick_band_open - waited), 1),
            "bot_after": e["bot_after"],
            "bots_in": None
            if e["bot_after"] is None
            else round(max(0.0, e["bot_after"] - waited), 1),
            "table": None,
        }
        if e["status"] == "matched":
            out["table"] = {
                "code": e["table_code"],
                "link": f"/t/{e['table_code']}",
                "seat": e["seat"],
                "token": self.seat_token(int(e["id"])),
            }
        return out

    # --- matching --------------------------------------------------------------------------------
    async def tick(self) -> int:
        """One round: expire entries nobody asks after, and match every pool. Returns the tables
        formed."""
        return await self.match(None)

    async def match(self, pool: tuple[str, str, int] | None) -> int:
        st = self.settings
        async with self._lock:
            now = self.clock()
            rows = await self.db.call(self.db.store.quick.waiting, now, st.quick_ttl)
            pools: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
            for r in rows:
                key = (r["game"], r["preset"], int(r["players"]))
                if pool is None or key == pool:
                    pools.setdefault(key, []).append(r)
            made = 0
            for (game, preset, players), members in pools.items():
                by_id = {int(r["id"]): r for r in members}
                entries = [
                    Entry(
                        int(r["id"]),
                        float(r["mu"]),
                        float(r["joined_at"]),
                        r["bot_after"],
                        r["account_id"],
                        r["client"],
                    )
                    for r in members
                ]
                for group, bots in find_groups(entries, players, now, st):
                    chosen = [by_id[e.id] for e in group]
                    if await self._open(game, preset, players, chosen, bots, now):
                        made += 1
            return made

    async def _open(
        self,
        game: str,
        preset: str,
        players: int,
        chosen: list[dict[str, Any]],
        bots: int,
        now: float,
    ) -> bool:
        """Open the table of one match; False if another gateway took an entry first."""
        st, gw = self.settings, self.gateway
        started = time.perf_counter()
        order = list(range(players))
        random.shuffle(order)  # who sits where (and so who starts) by chance
        people, bot_seats = order[: len(chosen)], order[len(chosen) :]
        code = await gw._new_code()
        row, _host, _ = plan_table(
            code,
            game,
            players=players,
            preset=preset,
            bots=dict.fromkeys(bot_seats, BOT),
            bot_delay=st.bot_delay,
            bot_limits=st.bot_limits,
            match="single",  # one game: play again by queueing again
            private=True,
            # nobody hosts it: an absent person's seat goes to a bot even on a server whose
            # ordinary tables never hand seats on, so every game ends (and, rated, counts)
            idle_timeout=st.idle_timeout or IDLE_FALLBACK,
            bot_table_min_delay=st.bot_table_min_delay,
        )
        names: set[str] = {s.name for s in row.seats if s.name}
        seats: dict[int, int] = {}
        for e, seat in zip(chosen, people, strict=True):
            name, n = str(e["name"]), 2
            while name in names:  # two guests called Ada: "Ada" and "Ada 2"
                name, n = f"{e['name']} {n}", n + 1
            names.add(name)
            s = row.seats[seat]
            s.name, s.account_id = name, e["account_id"]
            s.token_hash = hash_token(self.seat_token(int(e["id"])))
            seats[int(e["id"])] = seat
        row.rated = all(e["account_id"] is not None for e in chosen)
        await gw._check_room(None, False)
        worker = await gw._place()
        try:
            await self.db.call(self.db.store.quick.match, seats, row, worker, now)
        except Taken:
            return False
        await gw._opened(None, row, worker, None)
        await tell(gw.bus, CHANNEL, QuickMatched(list(seats)))
        self.latencies.append(time.perf_counter() - started)
        log.info("quick match: table %s for entries %s (%d bots)", code, list(seats), bots)
        return True

    async def _on_match(self, channel: str, message: BusMessage) -> None:
        if isinstance(message, QuickMatched):
            for entry_id in message.entries:
                for event in self._wake.get(entry_id, set()):
                    event.set()
