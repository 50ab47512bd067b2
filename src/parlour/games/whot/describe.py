"""Whot! events in words: `Played(0, play 7 cross)` -> "Ada plays 7 cross".

The one place where Whot!'s events become sentences, for every edge: the terminal log, the web
log, replays. Plain text: an edge that shows it in a markup escapes it there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.events import counted, says

__all__ = ["card_words", "describe_event", "describe_move"]

SAYINGS = {"last card": "Last card!", "semi-last card": "Semi-last card!", "check up": "Check up!"}
_POWER = {"reverse": " to reverse the direction", "skip": " to skip the next player"}
_HOW = {
    "market ran out": "The market ran out: the lowest hand wins",
    "nothing to draw": "No card was left to draw: the lowest hand wins",
    "blocked": "Every player went to market and found nothing: the lowest hand wins",
}


def card_words(text: str) -> str:
    """A card as words: "7 cross", "WHOT"."""
    return "WHOT" if text == "whot" else text


def _name(names: Sequence[str], i: int) -> str:
    return names[i] if 0 <= i < len(names) else f"P{i + 1}"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe_move(fields: dict[str, Any]) -> str:
    """A move's fields in words, as its player would say it: "plays WHOT and calls for star,
    saying “Last card!”", "goes to market", "ends the turn"."""
    kind = fields["kind"]
    if kind == "play":
        if fields["card"] == "whot":
            out = f"plays {card_words('whot')}{_POWER.get(fields['power'] or '', '')}"
            out += f" and calls for {fields['call']}"
        else:
            out = "plays " + card_words(fields["card"])
            if fields.get("power") == "reverse":  # seed 002: "Pick two and change direction"
                out += " and changes the direction"
    else:
        out = {"draw": "goes to market", "end": "ends the turn", "pass": "lets the skip stand"}[
            kind
        ]
    if fields.get("say"):
        out += f", saying “{SAYINGS.get(fields['say'], fields['say'])}”"
    return out


def describe_event(event: Any, names: Sequence[str]) -> str:
    """One event in words, players by name: `Drew(1, 1)` -> "Bob goes to market"."""
    kind = event.kind
    if kind == "deal":
        k = event.cards
        return says(_name(names, event.dealer), f"deals {counted(k, 'card')} to each player")
    if kind == "turn_up":
        return "The first call card is turned up: " + card_words(event.card)
    if kind == "play":
        return says(_name(names, event.player), describe_move(event.move.fields()))
    if kind == "draw":
        who = _name(names, event.player)
        picks = f" and picks {event.cards}" if event.cards > 1 else ""
        return says(who, "goes to market" + picks)
    if kind == "skip":
        return says(_name(names, event.player), "is skipped")
    if kind == "reverse":
        return "Play now passes the other way"
    if kind == "general_market":
        return f"General market: everyone but {_name(names, event.player)} picks one card"
    if kind == "suspend":
        return says(_name(names, event.player), "is suspended and misses a turn")
    if kind == "penalty":
        said = SAYINGS.get(event.forgot, event.forgot).rstrip("!")
        return (
            f"{_name(names, event.player)} forgot to say “{said}” and "
            + ("pick" if _name(names, event.player).lower() == "you" else "picks")
            + f" {event.cards}"
        )
    if kind == "nothing_to_draw":
        return "Nothing is left to draw: " + says(
            _name(names, event.player), f"goes without {counted(event.cards, 'card')}"
        )
    if kind == "refill":
        how = "shuffled into a new market" if event.shuffled else "turned over as a new market"
        return f"The market ran out: the played cards were {how}"
    if kind == "game_over":
        winners = _join([_name(names, w) for w in event.winners])
        if event.how == "last card":
            return f"{winners} played the last card and " + ("win" if winners == "You" else "wins")
        verb = "wins" if len(event.winners) == 1 and winners != "You" else "win"
        return f"{_HOW[event.how]}. {winners} {verb}"
    return f"{kind}"  # pragma: no cover - every kind is above
