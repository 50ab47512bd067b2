"""High Card's events in words, and its table for the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def describe_event(event: Any, names: Sequence[str]) -> str:
    who = names[event.player] if event.player < len(names) else f"P{event.player + 1}"
    if event.kind == "play":
        return f"{who} plays {event.card}"
    return f"{who} draws a card"


def render(view: Mapping[str, Any], viewer: int | None, names: list[str]) -> str:
    lines = [f"{names[p]}: {view['scores'][p]} points" for p in range(view["players"])]
    if "hand" in view:
        lines.append("Your hand: " + " ".join(str(c) for c in view["hand"]))
    return "\n".join(lines)
