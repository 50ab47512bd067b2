"""Sorry! events in words: `Played(0, "red", 5 r4, …)` -> "Ada (red) plays a 5: the pawn on r4
forward 5 to r9".

The one place where Sorry!'s events become sentences, for every edge: the terminal log, the web
log, replays. Plain text, players by name: an edge that shows it in a markup escapes it there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.events import possessive, says

__all__ = ["card_words", "describe_event", "square_words"]


def card_words(token: str) -> str:
    """A card with its article: "a 5", "an 8", "an 11", "SORRY!"."""
    if token.upper() == "S":
        return "SORRY!"
    return f"an {token}" if token in ("8", "11") else f"a {token}"


def square_words(square: str) -> str:
    """A square of a pawn's path: "r9", "HOME", "START"."""
    return square.upper() if square in ("start", "home") else square


def _name(names: Sequence[str], i: int) -> str:
    return names[i] if 0 <= i < len(names) else f"P{i + 1}"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _who(names: Sequence[str], player: int, colour: str) -> str:
    return f"{_name(names, player)} ({colour})"


def _way(steps: int) -> str:
    return f"forward {steps}" if steps >= 0 else f"back {-steps}"


def _pawn(colour: str, square: str, mover: str) -> str:
    """ "the pawn on r4", or "the yellow pawn on y9" when it is a partner's."""
    return f"the pawn on {square}" if colour == mover else f"the {colour} pawn on {square}"


def _played(event: Any, names: Sequence[str]) -> str:
    f = event.move.fields()
    kind = f["kind"]
    who = _who(names, event.player, event.colour)
    pawns = event.pawns
    card = f["card"]
    if kind == "sorry":
        return (
            says(who, f"plays SORRY!: a {f['colour']} pawn leaves START for {f['target']}, ")
            + "sending the pawn there back to its START"
        )
    play = says(who, f"plays {card_words(card)}")
    if kind == "enter":
        return f"{play}: a {f['colour']} pawn leaves START for {pawns[0][2]}"
    if kind == "swap":
        return f"{play}: the pawn on {f['pawn']} changes places with the pawn on {f['with']}"
    if kind == "split":
        (c1, a, to1), (c2, b, to2) = pawns
        return (
            f"{play}, split: {_pawn(c1, a, event.colour)} {_way(f['steps'])}, then "
            f"{_pawn(c2, b, event.colour)} {_way(f['steps2'])} "
            f"(to {square_words(to1)} and {square_words(to2)})"
        )
    colour, source, dest = pawns[0]
    return (
        f"{play}: {_pawn(colour, source, event.colour)} {_way(f['steps'])} to {square_words(dest)}"
    )


def describe_event(event: Any, names: Sequence[str]) -> str:
    """One event in words, players by name: `Bumped(1, "blue", "r4")` -> "Bob's blue pawn on r4
    goes back to START"."""
    kind = event.kind
    if kind == "play":
        return _played(event, names)
    if kind == "slide":
        who = _name(names, event.player)
        return f"{possessive(who)} {event.colour} pawn slides from {event.source} to {event.dest}"
    if kind == "bump":
        who = _name(names, event.player)
        return f"{possessive(who)} {event.colour} pawn on {event.square} goes back to START"
    if kind == "forfeit":
        who = _who(names, event.player, event.colour)
        if event.declined:  # the 11 could have changed places: the player chose not to
            if event.from_hand:
                return (
                    f"{who} declines the 11's change of places: discards "
                    f"{card_words(event.card)} and the turn is forfeited"
                )
            return f"{who} declines the 11's change of places: the turn is forfeited"
        if event.from_hand:
            return (
                says(who, f"can use no card in hand: discards {card_words(event.card)} ")
                + "and the turn is forfeited"
            )
        if event.card == "11":  # the change of places may have been declined (it is optional)
            return says(who, "makes no move with the 11: the turn is forfeited")
        return f"{who} cannot use {card_words(event.card)}: the turn is forfeited"
    if kind == "draw":
        return says(_who(names, event.player, event.colour), "draws a card")
    if kind == "reshuffle":
        return "The discards are shuffled into a new pack"
    if kind == "win":
        seats: dict[int, list[str]] = {}
        for p, c in zip(event.players, event.colours, strict=True):
            seats.setdefault(p, []).append(c)
        who = _join([f"{_name(names, p)} ({_join(cs)})" for p, cs in seats.items()])
        if len(seats) > 1:
            return f"{who} bring every pawn HOME and win"
        return says(who, "brings every pawn HOME and wins")
    return f"{kind}"  # pragma: no cover - every kind is above
