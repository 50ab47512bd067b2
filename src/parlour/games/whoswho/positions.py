"""Reading the parts of a Who's Who position (docs/whoswho.md, "Positions"), for both games.

Each reader takes a part of the JSON and says exactly what is wrong with it in a `SetupError`
("position: hand 2: 'x' is not a card; ..."), so that a person writing a position by hand is told
what to fix.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from parlour.core import IllegalMove, SetupError

from .deck import NUMBERS, SUITS, Card, parse_card

__all__ = ["card_list", "check_keys", "counts", "number_list", "seat", "spec_mapping", "suit"]


def spec_mapping(spec: Any, game: str) -> Mapping[str, Any]:
    if not isinstance(spec, Mapping):
        raise SetupError(f"a {game} position is a JSON object (see docs/whoswho.md, 'Positions')")
    return spec


def check_keys(pos: Mapping[str, Any], known: Collection[str]) -> None:
    unknown = sorted(str(k) for k in set(pos) - set(known))
    if unknown:
        raise SetupError(
            f"position: unknown keys {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )


def seat(value: Any, what: str, players: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise SetupError(
            f"position: {what} must be a player from 0 to {players - 1}, not {value!r}"
        )
    return value


def card(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise SetupError(f"position: {what}: a card is text like '11 brains', not {value!r}")
    try:
        return parse_card(value)
    except IllegalMove as exc:
        raise SetupError(f"position: {what}: {exc.reason}") from None


def card_list(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list | tuple):
        raise SetupError(f"position: {what} must be a list of cards like '11 brains'")
    return [card(t, what) for t in value]


def number_list(value: Any, what: str) -> list[int]:
    if not isinstance(value, list | tuple) or any(
        not isinstance(x, int) or isinstance(x, bool) or x not in NUMBERS for x in value
    ):
        raise SetupError(f"position: {what} must be a list of numbers from 3 to 15")
    return list(value)


def counts(value: Any, what: str, players: int) -> list[int]:
    """One whole number (0 or more) per player."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != players
        or any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in value)
    ):
        raise SetupError(f"position: {what} must be {players} whole numbers, one per player")
    return list(value)


def suit(value: Any, what: str) -> str:
    if value not in SUITS:
        raise SetupError(f"position: {what} must be one of {', '.join(SUITS)}, not {value!r}")
    return str(value)
