"""One websocket's outgoing side: the seat it acts for, what it has been sent, and its queue."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from .messages import ClientOut
from .wire import dumps

__all__ = ["QUEUE_LIMIT", "Conn"]

QUEUE_LIMIT = 512  # messages waiting for a slow client before it is dropped


class Conn:
    """One websocket: the seat it acts for (None: spectator) and what it has been sent."""

    def __init__(self, seat: int | None, is_host: bool) -> None:
        self.seat = seat
        self.is_host = is_host
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.game_number = -1
        self.events_sent = 0
        self.view_sent: dict[str, Any] | None = None  # the last whole view (to send patches)
        self.view_seat: int | None = None
        self.dropped = False
        self.close_code, self.close_reason = 1008, "too slow: reconnect to catch up"

    def close(self, code: int, reason: str) -> None:
        """Close the socket once what is queued has gone out."""
        self.close_code, self.close_reason = code, reason
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def send(self, message: ClientOut | str) -> None:
        if self.dropped:
            return
        text = message if isinstance(message, str) else dumps(message)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True  # too slow to keep up: the writer closes it; it may reconnect
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)
