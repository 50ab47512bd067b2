"""Who is asking, and how much one client may take: so that no one client can fill the server.

A client is its network address (or, behind a trusted proxy, the first address of
`X-Forwarded-For`), kept only as a keyed hash. Per client the server counts open tables, seats
held and open websockets, and meters how fast it opens tables and joins them; the totals the
server allows are bigger than any one client may take.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections import defaultdict
from collections.abc import Mapping

from .tables import TableError

__all__ = ["Clients", "RateMeter", "client_address"]


def client_address(host: str | None, headers: Mapping[str, str], trust_forwarded: bool) -> str:
    if trust_forwarded:
        forwarded = headers.get("x-forwarded-for", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first
    return host or "unknown"


class RateMeter:
    """Token buckets per key: `per_minute` on average, up to `burst` at once (a `take` may cost
    more than one: bytes, plies)."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._tokens: dict[str, tuple[float, float]] = {}

    def take(self, key: str, cost: float = 1.0) -> bool:
        now = time.monotonic()
        tokens, at = self._tokens.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < cost:
            self._tokens[key] = (tokens, now)
            return False
        self._tokens[key] = (tokens - cost, now)
        if len(self._tokens) > 100_000:  # forget the oldest: a bucket refills in a minute anyway
            for k in list(self._tokens)[:50_000]:
                del self._tokens[k]
        return True


class Clients:
    """The per-client books of one server process."""

    def __init__(
        self,
        secret: bytes,
        *,
        tables_per_minute: float,
        joins_per_minute: float,
        seats_per_client: int,
        websockets_per_client: int,
    ) -> None:
        self.secret = secret
        self.tables = RateMeter(tables_per_minute, max(1, int(tables_per_minute)))
        self.joins = RateMeter(joins_per_minute, max(1, int(joins_per_minute)))
        self.seats_per_client = seats_per_client
        self.websockets_per_client = websockets_per_client
        self.seats: dict[str, set[tuple[str, int]]] = defaultdict(set)
        self.websockets: dict[str, int] = defaultdict(int)

    def key(self, address: str) -> str:
        """A client's key: a hash of its address, keyed so that stored keys reveal no address."""
        return hmac.new(self.secret, address.encode(), hashlib.sha256).hexdigest()[:32]

    # --- tables and seats ------------------------------------------------------------------------
    def check_new_table(self, key: str) -> None:
        if not self.tables.take(key):
            raise TableError("too many new tables from you: wait a minute", 429, "rate_limited")

    def check_join(self, key: str) -> None:
        if len(self.seats[key]) >= self.seats_per_client:
            raise TableError(
                f"you hold {self.seats_per_client} seats at open tables already", 429, "too_many"
            )
        if not self.joins.take(key):
            raise TableError("too many joins from you: wait a minute", 429, "rate_limited")

    def check_seats(self, key: str, more: int) -> None:
        """Whether this client may hold `more` seats besides those it holds (the seats a new
        table gives the people at its host's device)."""
        if len(self.seats[key]) + more > self.seats_per_client:
            raise TableError(
                f"you may hold {self.seats_per_client} seats at open tables", 429, "too_many"
            )

    def seated(self, key: str, code: str, seat: int) -> None:
        self.seats[key].add((code, seat))

    def unseated(self, code: str, seat: int | None = None) -> None:
        """A seat (or every seat of a table) is no longer held."""
        for key in list(self.seats):
            held = self.seats[key]
            held -= {(c, s) for c, s in held if c == code and (seat is None or s == seat)}
            if not held:
                del self.seats[key]

    # --- websockets ------------------------------------------------------------------------------
    def open_websocket(self, key: str) -> bool:
        if self.websockets[key] >= self.websockets_per_client:
            return False
        self.websockets[key] += 1
        return True

    def close_websocket(self, key: str) -> None:
        self.websockets[key] -= 1
        if self.websockets[key] <= 0:
            del self.websockets[key]
