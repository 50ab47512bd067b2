"""A rematch: the host opens a new table like the finished one, with the same people in the same
seats. Each seat keeps its token — the new table stores the same token hashes — so every browser
that held a seat here holds the same seat there; bots stay bots.

The gateway opens it the way it opens any table (`Gateway.create`: a fresh code, the limits, the
least-loaded worker, `adopt`), in one transaction with marking the old table's `rematch` column —
a write-once compare-and-set on its being empty, so that two requests cannot open two rematches.
The mark is no part of the game (the owner's fence does not cover it) and a finished table may
have no live owner any more, which is why the gateway, not the owner, writes it. Everyone watching
the old table, on every gateway, is told over the bus (a `rematch` message with the new code), and
the old table's facts name it for anyone who comes back to the old link later.
"""

from __future__ import annotations

import time

from parlour.core.options import rules_to_dict
from parlour.core.rng import fresh_seed

from .storage import SeatRow, TableRow
from .tables import Table, TableError

__all__ = ["check_rematch", "plan_rematch"]


def check_rematch(t: Table) -> None:
    """Whether the host may start a rematch now: once a game is over (or the match)."""
    if t.status in ("waiting", "closed", "expired"):
        raise TableError(f"a rematch follows a game: this table is {t.status}", 409, "no_game")
    if t.live:
        raise TableError("the current game is not over", 409, "game_on")
    if t.rematch is not None:
        raise TableError(f"the rematch is at /t/{t.rematch}", 409, "rematch_made")


def plan_rematch(t: Table, code: str) -> TableRow:
    """The new table's row: the same game, rules, match, clock, bots and seats (names, bots and
    token hashes), a fresh match seed."""
    return TableRow(
        code=code,
        created_at=time.time(),
        game=t.game.name,
        players=t.game.players,
        preset=t.preset,
        rules=rules_to_dict(t.game.rules),
        match_format=t.match.format.name,
        match_seed=fresh_seed(),
        move_clock=t.move_clock,
        bot_delay=t.bot_delay,
        auto_next=t.auto_next,
        status="waiting",
        host_hash=t.host_hash,
        seats=[SeatRow(s.seat, s.name, s.bot, s.token_hash, s.account_id) for s in t.seats],
        private=t.private,
        creator=t.creator,
        idle_timeout=t.idle_timeout,
        on_idle=t.on_idle,
        correspondence=t.correspondence,
        on_timeout=t.on_timeout,
        rated=t.rated,
    )
