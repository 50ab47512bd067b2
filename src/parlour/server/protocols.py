"""uvicorn's HTTP protocol with two guards it lacks: a request must arrive whole within a time
limit (no half-sent request holds a connection for minutes), and one address may hold only so
many connections at once (no one client holds thousands of idle sockets).

A connection that upgrades to a websocket leaves these books: the websocket session keeps its
own (a per-client cap, a hello timeout, an idle timeout, pings from uvicorn).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["guarded_http"]


def guarded_http(request_timeout: float, per_client: int) -> type[HttpToolsProtocol]:
    """An HTTP protocol class for `uvicorn.run(http=...)` with the two guards."""

    class GuardedHttp(HttpToolsProtocol):
        held: ClassVar[Counter[str]] = Counter()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._deadline: asyncio.TimerHandle | None = None
            self._address = self.client[0] if self.client else "unknown"
            self._counted = GuardedHttp.held[self._address] < per_client
            if not self._counted:
                transport.close()  # this address holds its share of connections already
                return
            GuardedHttp.held[self._address] += 1
            self._arm()  # the first request must come, whole, in time

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if getattr(self, "_deadline", None) is not None:
                assert self._deadline is not None
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            """Headers or a body still trickling in after the time limit: hang up."""
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def _release(self) -> None:
            if getattr(self, "_counted", False):
                self._counted = False
                GuardedHttp.held[self._address] -= 1
                if GuardedHttp.held[self._address] <= 0:
                    del GuardedHttp.held[self._address]

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()  # the next request on a kept-alive connection: the same limit

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._release()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

    return GuardedHttp
