"""Every message that crosses a seam of the server, by direction (docs/protocol.md says each one):

* **client → gateway** (`ClientIn`): what a browser, or any websocket client, sends — `parse_client`
  reads one from the socket's text, with the sentence a client gets for anything else;
* **gateway → worker** (`Request`, and `Adopt`): a request to a table's owner over the bus, and the
  owner's `Reply` (an `Answer` of the request's own kind, or a `Refusal`);
* **worker → gateway** (`Update`): what a table's channel carries to every gateway watching it and
  to its owner — the owner's numbered changes, who is connected where, chat lines, a rematch;
* **server → client** (`ClientOut`): what a gateway sends a browser, plain JSON (TypedDicts, built
  by `wire.py`).

The messages in are frozen dataclasses; each bus message has `kind` (its name on the wire) and
`to_json`, and `decode` turns the JSON the bus carried back into one (a message of no known kind
raises `BadMessage`). A table's owner and the gateways decide what to do by `match` over these
types, and mypy checks that every kind is handled (`assert_never`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Generic, Literal, TypeAlias, TypeGuard, TypeVar

# FastAPI reads a route's TypedDict through pydantic, which wants typing_extensions' on 3.11
from typing_extensions import TypedDict

from .tables import TableError

__all__ = [
    "PROTOCOL",
    "Adopt",
    "Answer",
    "Ask",
    "BadMessage",
    "BusMessage",
    "ChatLines",
    "ChatLinesAnswer",
    "ChatRemoved",
    "ChatSaid",
    "ClientIn",
    "ClientOut",
    "Close",
    "Closed",
    "HelloIn",
    "Join",
    "Joined",
    "MoveIn",
    "MoveStored",
    "Moved",
    "Next",
    "NextStarted",
    "Owner",
    "Play",
    "Presence",
    "QuickMatched",
    "Ready",
    "ReadyAnswer",
    "Refusal",
    "Rematched",
    "Reply",
    "Request",
    "ResultStored",
    "SeatsChanged",
    "Started",
    "StatusChanged",
    "Suspended",
    "Update",
    "decode",
    "is_update",
    "parse_client",
]

#: The protocol's version, in every `welcome` (docs/protocol.md, "Versions").
PROTOCOL = 2


class BadMessage(ValueError):
    """JSON off the bus that is no message of this protocol."""


# --- client → gateway ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HelloIn:
    """The first message: the seat's token, or none to watch."""

    token: str | None = None
    type: ClassVar[str] = "hello"


@dataclass(frozen=True, slots=True)
class MoveIn:
    """A move, as the text of one of the seat's legal moves, at the ply the client saw."""

    move: str
    ply: int | None = None
    type: ClassVar[str] = "move"


@dataclass(frozen=True, slots=True)
class NextIn:
    """Host: the match's next game."""

    type: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class CloseIn:
    """Host: close the table."""

    type: ClassVar[str] = "close"


@dataclass(frozen=True, slots=True)
class ViewIn:
    """Send the current view again, whole."""

    type: ClassVar[str] = "view"


@dataclass(frozen=True, slots=True)
class HintIn:
    """On the seat's turn: the move the hint bot would make."""

    type: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class WhyIn:
    """Whether a move is legal for the seat now, and if not why."""

    move: str
    type: ClassVar[str] = "why"


@dataclass(frozen=True, slots=True)
class ChatIn:
    """A line said to the table (checked by `chat.clean_line`)."""

    text: object
    type: ClassVar[str] = "chat"


@dataclass(frozen=True, slots=True)
class RematchIn:
    """Host: the same seats at a new table."""

    type: ClassVar[str] = "rematch"


@dataclass(frozen=True, slots=True)
class PingIn:
    """Answered by a pong."""

    type: ClassVar[str] = "ping"


ClientIn: TypeAlias = (
    HelloIn | MoveIn | NextIn | CloseIn | ViewIn | HintIn | WhyIn | ChatIn | RematchIn | PingIn
)
CLIENT_IN: tuple[type[ClientIn], ...] = (
    HelloIn, MoveIn, NextIn, CloseIn, ViewIn, HintIn, WhyIn, ChatIn, RematchIn, PingIn,
)  # fmt: skip
_CLIENT_TYPES = {c.type: c for c in CLIENT_IN}
MAX_MOVE_TEXT = 200


def parse_client(raw: str | bytes, limit: int) -> ClientIn:
    """One websocket message from a client; TableError (`too_large`, `malformed`) says what is
    wrong with anything else."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise TableError(f"message too large: {size} bytes, the limit is {limit}", 413, "too_large")
    if isinstance(raw, bytes):
        raise TableError("send text frames holding JSON objects", 400, "malformed")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise TableError(f"not JSON: {exc}", 400, "malformed") from None
    except RecursionError:  # [[[[…]]]] thousands deep: an answer, not a dropped socket
        raise TableError("not a message: JSON nested too deeply", 400, "malformed") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise TableError('a message is a JSON object with a "type"', 400, "malformed")
    kind = _CLIENT_TYPES.get(data["type"])
    if kind is None:
        names = ", ".join(c.type for c in CLIENT_IN if c is not HelloIn)
        raise TableError(f"unknown message type {data['type']!r}: use {names}", 400, "malformed")
    if kind is MoveIn:
        text, ply = data.get("move"), data.get("ply")
        if not isinstance(text, str) or not _move_text(text):
            raise TableError('a move message needs "move": the move text', 400, "malformed")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise TableError('"ply" must be a whole number', 400, "malformed")
        return MoveIn(text, ply)
    if kind is WhyIn:
        text = data.get("move")
        if not isinstance(text, str) or not _move_text(text):
            raise TableError('a why message needs "move": the move text', 400, "malformed")
        return WhyIn(text)
    if kind is HelloIn:
        token = data.get("token")
        # a token that is no text is no seat's: "" is refused as an unknown token
        return HelloIn(token if isinstance(token, str) or token is None else "")
    if kind is ChatIn:
        return ChatIn(data.get("text"))
    plain: ClientIn = kind()  # type: ignore[call-arg]
    return plain


def _move_text(text: str) -> bool:
    return bool(text.strip()) and len(text) <= MAX_MOVE_TEXT


# --- the bus: one codec for every message on it ---------------------------------------------------
_BUS: dict[str, type[Any]] = {}


def _bus(cls: type[Any]) -> type[Any]:
    """Register a bus message class under its `kind`."""
    _BUS[cls.kind] = cls
    return cls


def decode(data: Any) -> BusMessage:
    """A message the bus carried, from its JSON form."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise BadMessage(f"not a bus message: {str(data)[:80]!r}")
    cls = _BUS.get(data["kind"])
    if cls is None:
        raise BadMessage(f"no bus message is of kind {data['kind']!r}")
    try:
        out: BusMessage = cls.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadMessage(f"a {data['kind']} message that does not read: {exc}") from None
    return out


class _Plain:
    """A bus message whose JSON is its fields, plus its kind."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}  # type: ignore[call-overload]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        return cls(**{f.name: data[f.name] for f in fields(cls)})  # type: ignore[arg-type]


# --- gateway → worker: requests, and the owner's answers ------------------------------------------
@_bus
@dataclass(frozen=True, slots=True)
class Joined(_Plain):
    """A seat taken: which, and its token (shown once, to whoever joined)."""

    seat: int
    token: str
    kind: ClassVar[str] = "joined"


@_bus
@dataclass(frozen=True, slots=True)
class MoveStored(_Plain):
    """A move stored and played: the table's change number after it."""

    seq: int
    kind: ClassVar[str] = "move_stored"


@_bus
@dataclass(frozen=True, slots=True)
class NextStarted(_Plain):
    """The match's next game dealt."""

    game_number: int
    kind: ClassVar[str] = "next_started"


@_bus
@dataclass(frozen=True, slots=True)
class Closed(_Plain):
    """The table is closed."""

    closed: str
    kind: ClassVar[str] = "closed"


@_bus
@dataclass(frozen=True, slots=True)
class ChatLinesAnswer(_Plain):
    """The recent chat lines the owner heard, for a gateway new to the table."""

    lines: list[dict[str, Any]]
    kind: ClassVar[str] = "chat_lines_answer"


@_bus
@dataclass(frozen=True, slots=True)
class ReadyAnswer(_Plain):
    """A new table, loaded by its owner (its game started if every seat is taken)."""

    status: str
    kind: ClassVar[str] = "ready_answer"


Answer: TypeAlias = Joined | MoveStored | NextStarted | Closed | ChatLinesAnswer | ReadyAnswer
A = TypeVar("A", Joined, MoveStored, NextStarted, Closed, ChatLinesAnswer, ReadyAnswer)


class Ask(Generic[A]):
    """What a request asks of a table's owner; `answer` is the kind of its answer."""

    kind: ClassVar[str]
    answer: ClassVar[type[Any]]


@dataclass(frozen=True, slots=True)
class Join(Ask[Joined], _Plain):
    """Take a seat (`seat`: which, or None for the first free), as a guest or an account."""

    name: object
    seat: int | None = None
    account: int | None = None
    account_name: str | None = None
    kind: ClassVar[str] = "join"
    answer: ClassVar[type[Any]] = Joined


@dataclass(frozen=True, slots=True)
class Play(Ask[MoveStored], _Plain):
    """A seat's move, at the ply its player saw."""

    seat: int
    move: str
    ply: int | None
    kind: ClassVar[str] = "move"
    answer: ClassVar[type[Any]] = MoveStored


@dataclass(frozen=True, slots=True)
class Next(Ask[NextStarted], _Plain):
    """Host: deal the match's next game."""

    kind: ClassVar[str] = "next"
    answer: ClassVar[type[Any]] = NextStarted


@dataclass(frozen=True, slots=True)
class Close(Ask[Closed], _Plain):
    """Host: close the table (`moderator`: a moderator closes it: a rated game is not rated)."""

    moderator: bool = False
    kind: ClassVar[str] = "close"
    answer: ClassVar[type[Any]] = Closed

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Close:
        return cls(bool(data.get("moderator", False)))  # a process of before moderation sends {}


@dataclass(frozen=True, slots=True)
class ChatLines(Ask[ChatLinesAnswer], _Plain):
    """The recent chat lines (chat is not stored: the owner keeps the last ones it heard)."""

    kind: ClassVar[str] = "chat_lines"
    answer: ClassVar[type[Any]] = ChatLinesAnswer


@dataclass(frozen=True, slots=True)
class Ready(Ask[ReadyAnswer], _Plain):
    """Whether a new table is loaded (asked after opening a rematch)."""

    kind: ClassVar[str] = "ready"
    answer: ClassVar[type[Any]] = ReadyAnswer


Asking: TypeAlias = Join | Play | Next | Close | ChatLines | Ready
_ASKS: dict[str, type[Asking]] = {c.kind: c for c in (Join, Play, Next, Close, ChatLines, Ready)}


@_bus
@dataclass(frozen=True, slots=True)
class Request:
    """A request to a table's owner, on the owner's channel (`worker:<id>`). `id` is the same on
    every try, so that an owner answers a request sent again from memory; `reply` is the asking
    gateway (the answer goes to `gateway:<reply>`)."""

    id: str
    table: str
    reply: str
    ask: Asking
    kind: ClassVar[str] = "request"

    def to_json(self) -> dict[str, Any]:
        ask = self.ask.to_json()
        return {"kind": self.kind, "id": self.id, "table": self.table, "reply": self.reply,
                "ask": ask}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Request:
        ask = data["ask"]
        return cls(str(data["id"]), str(data["table"]), str(data["reply"]),
                   _ASKS[ask["kind"]].from_json(ask))  # fmt: skip


@_bus
@dataclass(frozen=True, slots=True)
class Adopt(_Plain):
    """A prompt to a worker: this table is yours now, load it (the database says whether)."""

    table: str
    kind: ClassVar[str] = "adopt"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request refused: the error a client is shown (`legal` for an illegal move)."""

    code: str
    message: str
    status: int = 400
    legal: list[str] | None = None

    def error(self) -> TableError:
        return TableError(self.message, self.status, self.code, legal=self.legal)


@_bus
@dataclass(frozen=True, slots=True)
class Reply:
    """The owner's answer to the request `id`: an `Answer`, or a `Refusal`."""

    id: str
    answer: Answer | None = None
    refusal: Refusal | None = None
    kind: ClassVar[str] = "reply"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "answer": None if self.answer is None else self.answer.to_json(),
            "refusal": None if self.refusal is None else asdict(self.refusal),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reply:
        answer = data.get("answer")
        refusal = data.get("refusal")
        return cls(
            str(data["id"]),
            None if answer is None else _BUS[answer["kind"]].from_json(answer),
            None if refusal is None else Refusal(**refusal),
        )


# --- worker → gateway: a table's channel (`table:<code>`) ----------------------------------------
@_bus
@dataclass(frozen=True, slots=True)
class Owner(_Plain):
    """A worker loaded the table: requests go to it first from now on."""

    table: str
    owner: str
    epoch: int
    kind: ClassVar[str] = "owner"


@_bus
@dataclass(frozen=True, slots=True)
class Presence(_Plain):
    """A gateway's count of the connections of each seat there (its owner and the other gateways
    merge them: the "connected" dots, idle seats)."""

    table: str
    gateway: str
    seats: dict[int, int]
    kind: ClassVar[str] = "presence"

    def to_json(self) -> dict[str, Any]:
        seats = {str(k): v for k, v in self.seats.items()}
        return {"kind": self.kind, "table": self.table, "gateway": self.gateway, "seats": seats}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Presence:
        seats = {int(k): int(v) for k, v in (data.get("seats") or {}).items()}
        return cls(str(data["table"]), str(data["gateway"]), seats)


@_bus
@dataclass(frozen=True, slots=True)
class ChatSaid(_Plain):
    """A line said at the table, through any gateway (`chat.new_line`)."""

    table: str
    line: dict[str, Any]
    kind: ClassVar[str] = "chat"


@_bus
@dataclass(frozen=True, slots=True)
class ChatRemoved(_Plain):
    """A moderator removed a chat line (`parlour admin remove-line`): forget it, and tell
    everyone watching to take it off their screens."""

    table: str
    line: str
    kind: ClassVar[str] = "chat_removed"


@_bus
@dataclass(frozen=True, slots=True)
class Rematched(_Plain):
    """The host opened the rematch: its table's code."""

    table: str
    code: str
    kind: ClassVar[str] = "rematch"


@_bus
@dataclass(frozen=True, slots=True)
class Moved(_Plain):
    """Change `seq`: a move stored and played, at `ply` of game `game` (`deadline`: the next move
    clock's end, wall clock; `forced`: the clock ran out and the forced move was played).

    `asked`: the id of the request that played it, when a person's: the asking gateway takes
    this update for the request's answer (`MoveStored(seq)`), so that a move costs one message on
    the bus less. The owner sends the `Reply` itself only to a request asked again."""

    table: str
    seq: int
    game: int
    ply: int
    move: str
    deadline: float | None = None
    forced: bool = False
    asked: str | None = None
    kind: ClassVar[str] = "move"


@_bus
@dataclass(frozen=True, slots=True)
class Started(_Plain):
    """Change `seq`: the match's game `game` dealt (stored as `game_id`)."""

    table: str
    seq: int
    game: int
    game_id: int
    deadline: float | None = None
    kind: ClassVar[str] = "start"


@_bus
@dataclass(frozen=True, slots=True)
class SeatsChanged(_Plain):
    """Change `seq`: someone sat down, or a seat was handed on (`handed`: which)."""

    table: str
    seq: int
    handed: int | None = None
    kind: ClassVar[str] = "seats"


@_bus
@dataclass(frozen=True, slots=True)
class StatusChanged(_Plain):
    """Change `seq`: the table closed or expired (`message` says why, to show)."""

    table: str
    seq: int
    message: str = ""
    kind: ClassVar[str] = "status"


@_bus
@dataclass(frozen=True, slots=True)
class ResultStored(_Plain):
    """Change `seq`: a game's result stored (after its last move was told)."""

    table: str
    seq: int
    kind: ClassVar[str] = "result"


Update: TypeAlias = (
    Owner
    | Presence
    | ChatSaid
    | ChatRemoved
    | Rematched
    | Moved
    | Started
    | SeatsChanged
    | StatusChanged
    | ResultStored
)


# --- the quick-match channel ----------------------------------------------------------------------
@_bus
@dataclass(frozen=True, slots=True)
class QuickMatched(_Plain):
    """Queue entries matched (or left): every gateway wakes their long polls."""

    entries: list[int] = field(default_factory=list)
    kind: ClassVar[str] = "quick_matched"


# --- the moderation channel: every gateway -------------------------------------------------------
@_bus
@dataclass(frozen=True, slots=True)
class Suspended(_Plain):
    """An account suspended (or, `lifted`, no longer): every gateway closes the connections of its
    seats, and refuses them until it is lifted (server/moderation.py)."""

    account: int
    lifted: bool = False
    kind: ClassVar[str] = "suspended"


BusMessage: TypeAlias = Request | Adopt | Reply | Update | QuickMatched | Suspended
UPDATES = (
    Owner, Presence, ChatSaid, ChatRemoved, Rematched, Moved, Started, SeatsChanged, StatusChanged,
    ResultStored,
)  # fmt: skip


def is_update(message: BusMessage) -> TypeGuard[Update]:
    """Whether a message is one a table's channel carries."""
    return isinstance(message, UPDATES)


# --- server → client: JSON only -------------------------------------------------------------------
class WelcomeOut(TypedDict):
    type: Literal["welcome"]
    protocol: int
    table: dict[str, Any]
    seat: int | None
    host: bool


class TableOut(TypedDict):
    type: Literal["table"]
    table: dict[str, Any]


class ViewOut(TypedDict, total=False):
    type: Literal["view"]
    table: str
    game_number: int
    ply: int
    seat: int | None
    to_play: int | None
    view: dict[str, Any]
    patch: bool
    removed: list[str]
    seats: list[int]
    events_from: int
    events: list[Any]
    log: list[str]
    moves: list[dict[str, Any]]  # each with its text (protocol 1's `legal` texts: docs/protocol.md)
    clock: dict[str, Any] | None
    status: str
    result: dict[str, Any]
    scoreboard: dict[str, Any]


class HintOut(TypedDict):
    type: Literal["hint"]
    ply: int
    move: str
    fields: dict[str, Any]
    why: str


class WhyOut(TypedDict):
    type: Literal["why"]
    move: str
    legal: bool
    reason: str | None


class ClockOut(TypedDict):
    type: Literal["clock"]
    seat: int | None
    ply: int
    move: str
    fields: dict[str, Any]


class ChatOut(TypedDict):
    type: Literal["chat"]
    lines: list[dict[str, Any]]


class ChatRemovedOut(TypedDict):
    type: Literal["chat_removed"]
    id: str


class RematchOut(TypedDict):
    type: Literal["rematch"]
    code: str
    link: str


class ClosedOut(TypedDict):
    type: Literal["closed"]
    message: str


class ErrorOut(TypedDict, total=False):
    type: Literal["error"]
    code: str
    message: str
    legal: list[str]


class PongOut(TypedDict):
    type: Literal["pong"]


ClientOut: TypeAlias = (
    WelcomeOut
    | TableOut
    | ViewOut
    | HintOut
    | WhyOut
    | ClockOut
    | ChatOut
    | ChatRemovedOut
    | RematchOut
    | ClosedOut
    | ErrorOut
    | PongOut
)
