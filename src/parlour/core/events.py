"""Typed events: what happened in a game, as small immutable records.

Each game declares its event kinds in its own `events` module as `typing.NamedTuple` classes whose
last field is `kind`, with the kind's name as its default:

    class Drew(NamedTuple):
        player: int
        count: int
        kind: str = "draw"

An engine appends events as they happen and every view lists the public ones under `"events"`, as
these objects. Nothing turns them into words but the edges (the terminal, the web log, the
browser), each through the game's own `describe` function; nothing parses words back into data.
A record's `kind` makes two events of different kinds unequal even when their other fields agree.

On the wire an event is a JSON object: `{"kind": "draw", "player": 1, "count": 2}` (`to_wire`);
a move inside an event is its wire form (`{"text": "play 5 circle", "kind": "play", ...}`).
`from_wire` rebuilds the typed events of a view that arrived as JSON, given the game's kinds and
its move parser, so that a bot or a search on the far side of a socket reads the same objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "Event",
    "counted",
    "events_from_wire",
    "jsonable",
    "possessive",
    "says",
    "to_wire",
    "view_to_wire",
    "with_names",
]

# A person at the terminal is "You" (`parlour play --name You`): the verb agrees with them.
_SECOND = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}


def _is_you(subject: str) -> bool:
    """ "You", or "You (red)" (a name with what it plays)."""
    low = subject.lower()
    return low == "you" or low.startswith("you (")


def says(subject: str, phrase: str) -> str:
    """`subject` and a verb phrase in the third person, each verb agreeing with the subject:
    says("Ada", "plays 7 cross") -> "Ada plays 7 cross"; says("You", "goes to market") ->
    "You go to market"; says("You", "is suspended and misses a turn") -> "You are suspended and
    miss a turn" (the verbs are the phrase's first word and each one after " and ")."""
    if not _is_you(subject) or not phrase:
        return f"{subject} {phrase}"
    return f"{subject} " + " and ".join(_second(part) for part in phrase.split(" and "))


def _second(phrase: str) -> str:
    verb, sep, rest = phrase.partition(" ")
    if verb in _SECOND:
        verb = _SECOND[verb]
    elif verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        verb = verb[:-2]
    elif verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith("s") and not verb.endswith("ss") and verb.isalpha():
        verb = verb[:-1]
    return f"{verb}{sep}{rest}"


def possessive(name: str) -> str:
    """ "Ada's", "Your"."""
    return "Your" if _is_you(name) else f"{name}'s"


def counted(n: int, noun: str) -> str:
    """ "1 card", "5 cards"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


@runtime_checkable
class Event(Protocol):
    """What every event is: a NamedTuple with a `kind`."""

    @property
    def kind(self) -> str: ...

    def _asdict(self) -> dict[str, Any]: ...


class _Names(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def with_names(words: str, names: Sequence[str]) -> str:
    """Words that name players as `{P1}`, `{P2}`, … (a bot's reason, how a dealer was chosen),
    with the players' names put in at the edge that knows them."""
    return words.format_map(_Names({f"P{i + 1}": n for i, n in enumerate(names)}))


def _is_event(value: object) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields") and hasattr(value, "kind")


def to_wire(event: Any) -> dict[str, Any]:
    """An event as a JSON object: `kind` first, then its fields."""
    out: dict[str, Any] = {"kind": event.kind}
    for name, value in zip(event._fields, event, strict=True):
        if name != "kind":
            out[name] = jsonable(value)
    return out


# JSON's own values, by exact type: a view is mostly these and lists of them (a hand, the pile)
_PLAIN = frozenset({str, int, float, bool, type(None)})


def jsonable(value: Any) -> Any:
    """Plain JSON data for a value of a view: events and moves become objects, tuples lists."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if (kind is list or kind is tuple) and all(type(v) in _PLAIN for v in value):
        return list(value)  # a new list, as the slow path makes: a view never shares its lists
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if _is_event(value):
        return to_wire(value)
    wire = getattr(value, "to_wire", None)
    if wire is not None:  # a Move
        return wire()
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    raise TypeError(f"{type(value).__name__} is not wire data")


def view_to_wire(view: Mapping[str, Any]) -> dict[str, Any]:
    """A view as plain JSON data (what the server sends; `json.dumps` takes it as it is)."""
    return {k if type(k) is str else str(k): jsonable(v) for k, v in view.items()}


def events_from_wire(
    items: Iterable[Any],
    kinds: Mapping[str, Callable[..., Any]],
    parse_move: Callable[[str], Any],
) -> list[Any]:
    """Typed events from their wire objects (`to_wire`), for a view that arrived as JSON.

    Typed events pass through unchanged, so a view may be given either way. Lists become tuples
    (events are immutable) and a move's wire object becomes the move again.
    """
    out = []
    for item in items:
        if _is_event(item):
            out.append(item)
            continue
        if not isinstance(item, Mapping) or "kind" not in item:
            raise ValueError(f"not an event: {item!r}")
        cls = kinds.get(item["kind"])
        if cls is None:
            raise ValueError(f"unknown event kind {item['kind']!r}")
        fields = {k: _from_json(v, parse_move) for k, v in item.items() if k != "kind"}
        out.append(cls(**fields))
    return out


def _from_json(value: Any, parse_move: Callable[[str], Any]) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v, parse_move) for v in value)
    if isinstance(value, Mapping) and "text" in value and "kind" in value:
        return parse_move(str(value["text"]))
    return value
