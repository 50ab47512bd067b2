"""Chat at a table: short lines (and quick reactions, which are lines too) from seated people.

A line is text only — 1 to `MAX_CHAT` printable characters, whitespace folded — and each seat may
say `BURST` lines at once and one every `1 / RATE` seconds on average (counted by the gateway the
seat's connection is on). A line is published on the table's channel of the bus, so that it
reaches the sockets on every gateway; each gateway's replica and the table's owner keep the last
`KEEP` lines in memory for people who arrive or reload (a gateway new to the table asks the owner
for them). Chat is not stored: a restart forgets it. A moderator may remove a line
(`ChatRemoved`, on the same channel: every replica and the owner forget it, and every screen
takes it off), and anyone seated may report one (server/moderation.py: the report keeps the
line). Names and text go to clients as data; the browser puts them in as text, never as markup,
and each viewer may mute a seat for themselves (client-side).
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from .tables import TableError

__all__ = ["BURST", "KEEP", "MAX_CHAT", "RATE", "ChatLog", "clean_line", "new_line"]

MAX_CHAT = 200  # characters in a line
RATE = 0.5  # lines a second per seat, on average
BURST = 5  # … and at most this many at once
KEEP = 50  # lines a table remembers


def clean_line(text: Any) -> str:
    """A chat line: text of 1 to MAX_CHAT printable characters; TableError says what is wrong."""
    if not isinstance(text, str):
        raise TableError('a chat message needs "text": the line to say', 400, "malformed")
    line = " ".join(text.split())
    if not line:
        raise TableError("a chat line must not be empty", 400, "malformed")
    if len(line) > MAX_CHAT:
        raise TableError(f"a chat line is at most {MAX_CHAT} characters", 413, "too_large")
    if any(not ch.isprintable() for ch in line):
        raise TableError("a chat line must not contain control characters", 400, "malformed")
    return line


def new_line(seat: int, name: str, text: str) -> dict[str, Any]:
    """A line as it travels: its `id` tells the same line apart when it comes twice (over the
    bus and again in the owner's recent lines)."""
    return {"id": secrets.token_hex(6), "seat": seat, "name": name, "text": text, "at": time.time()}


class ChatLog:
    """A table's recent lines and each seat's allowance."""

    def __init__(self) -> None:
        self.lines: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self._allow: dict[int, tuple[float, float]] = {}  # seat -> (tokens, at)
        # lines a moderator removed: never taken back (from an owner that had not heard yet)
        self.removed: deque[str] = deque(maxlen=KEEP)

    def check_rate(self, seat: int) -> None:
        now = time.monotonic()
        tokens, at = self._allow.get(seat, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - at) * RATE)
        if tokens < 1:
            self._allow[seat] = (tokens, now)
            raise TableError(
                f"slow down: at most {BURST} chat lines at once, then one every "
                f"{1 / RATE:g} seconds",
                429,
                "rate_limited",
            )
        self._allow[seat] = (tokens - 1, now)

    def add(self, line: dict[str, Any]) -> bool:
        """Keep a line; False if it is here already (heard twice)."""
        if line.get("id") in self.removed or any(x.get("id") == line.get("id") for x in self.lines):
            return False
        self.lines.append(line)
        return True

    def find(self, line_id: str) -> dict[str, Any] | None:
        return next((x for x in self.lines if x.get("id") == line_id), None)

    def remove(self, line_id: str) -> bool:
        """Forget a line (a moderator removed it); False if it is not here."""
        if line_id not in self.removed:
            self.removed.append(line_id)
        found = self.find(line_id)
        if found is None:
            return False
        self.lines.remove(found)
        return True

    def merge(self, lines: Iterable[dict[str, Any]]) -> None:
        """Lines from elsewhere (the owner's recent ones) among these, in the order said."""
        for line in lines:
            self.add(line)
        ordered = sorted(self.lines, key=lambda x: float(x.get("at") or 0.0))
        self.lines = deque(ordered, maxlen=KEEP)
