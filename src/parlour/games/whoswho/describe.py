"""Who's Who events in words: `Played(0, "7 money")` -> "Ada plays 7 money".

The one place where both games' events become sentences, for every edge: the terminal log, the web
log, replays. Plain text, players by name: an edge that shows it in a markup escapes it there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.events import counted, says

from .deck import COLOURS

__all__ = ["describe_event", "name_of", "who_won"]


def name_of(names: Sequence[str], i: int) -> str:
    """Player `i`'s name, or "Player N" (from 1) where no name is given."""
    return names[i] if 0 <= i < len(names) else f"Player {i + 1}"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def describe_event(event: Any, names: Sequence[str]) -> str:
    """One event in words, players by name: `TrickWon(2, "9 sport")` -> "Cy wins the trick with
    9 sport"."""
    kind = event.kind
    who = name_of(names, event.player) if hasattr(event, "player") else ""
    # Game No. 1
    if kind == "play":
        return says(who, f"plays {event.card}")
    if kind == "trick":
        return says(who, f"wins the trick with {event.card}")
    if kind == "prefer":
        suit = event.suit
        return says(who, f"names {suit.capitalize()} ({COLOURS[suit]}) the Preference suit")
    if kind == "deal":
        k = event.cards
        return f"Deal {event.deal} of {event.deals}: " + says(
            name_of(names, event.dealer), f"deals {counted(k, 'card')} to each player"
        )
    if kind == "deal_over":
        tricks = [f"{name_of(names, p)} {w}" for p, w in enumerate(event.won) if w]
        return f"Deal {event.deal} is over: tricks won, " + (", ".join(tricks) or "none")
    # Game No. 2
    if kind == "call":
        target = name_of(names, event.target)
        said = says(who, f"calls on {target} for {event.card}")
        if event.given:
            return f"{said}: " + says(target, "gives it")
        return f"{said}: " + says(target, f"has none, and the call goes to {target}")
    if kind == "thank":
        giver = name_of(names, event.giver)
        return says(who, f"says “Thank you” to {giver} and keeps {event.card}")
    if kind == "return":
        to = name_of(names, event.to)
        return (
            f"{who} called again without saying “Thank you”: {event.card} goes back to {to}, "
            + ("who call next" if to == "You" else "who calls next")
        )
    if kind == "book":
        return says(who, f"lays down the book of {event.number}s")
    if kind == "passed_over":
        return says(who, "has no cards left and is passed over")
    if kind == "deal_around":
        return says(name_of(names, event.dealer), "deals all the cards around")
    # both
    if kind == "game_over":
        return "Game over: " + who_won(event, names)
    return str(kind)  # pragma: no cover - every kind is above


def who_won(event: Any, names: Sequence[str]) -> str:
    """A `GameOver` as "Ada and Cy win with 14 points"."""
    winners = _join([name_of(names, w) for w in event.winners])
    best = event.points[event.winners[0]]
    verb = "wins" if len(event.winners) == 1 and winners != "You" else "win"
    return f"{winners} {verb} with {counted(best, event.unit)}"
