"""The game protocol every parlour game follows (see docs/architecture.md, "The game protocol").

A `Game` is a rule set at a table size: it starts states, reads notation and builds positions. A
`State` is one game in progress: it is mutated by `apply`, tells whose turn it is and what is
legal, and shows each player only their `view`. The terminal, the server, the simulator, the bots
and the adapters use nothing else.

Legality has one gate, `State.check`: it turns text or a `Move` into the legal move it names, or
raises `NotAMove` (no move of this game at all) or `NotLegalNow` (a move the rules do not allow at
this moment, with the game's reason where it can give one). `apply` goes through it.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

from .errors import IllegalMove, LoadError, NotAMove, NotLegalNow
from .formats import MatchFormat
from .options import rules_to_dict
from .record import Record
from .rng import GameRng

__all__ = ["ENVELOPE", "Game", "Move", "Result", "State", "View"]


class View(TypedDict):
    """What every view of every game holds, the envelope (docs/protocol.md, "The view envelope"):
    `State.view` returns it, each game's own keys in a `total=False` extension in its folder
    (`WhotView`, `SorryView`, …). A type for readers and mypy only: at run time a view is the plain
    dict the engine builds, never converted."""

    game: str
    viewer: int | None  # None: a spectator
    players: int
    to_play: int | None  # None once over
    is_over: bool
    hand_counts: list[int] | None  # None in a game without hands
    events: list[Any]  # typed events (parlour.core.events), oldest first


#: The keys every view has, whatever the game, in order: `View`'s.
ENVELOPE = tuple(View.__annotations__)


class Move(ABC):
    """A move: immutable, hashable, and `str(move)` is text that `State.apply` accepts back.

    `fields()` gives its parts as JSON data (always a `kind`), so that a client never parses the
    text: the wire form is `{"text": "play whot call star", "kind": "play", "card": "whot", ...}`.
    """

    __slots__ = ()

    @abstractmethod
    def __str__(self) -> str: ...

    @abstractmethod
    def fields(self) -> dict[str, Any]:
        """The move's parts as JSON data: `kind` first, then the game's own fields."""

    def to_wire(self) -> dict[str, Any]:
        return {"text": str(self), **self.fields()}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"


@dataclass(frozen=True)
class Result:
    """How a finished game came out.

    `points` are the game's own: in Whot! they count *against* a player (`lower_is_better`), in
    Who's Who they are tricks or books won. `ranks` are 1 for the best, ties sharing a rank.
    `reason` is a short phrase with no player named in it ("the market ran out"): an edge that
    knows the players' names says who.
    """

    winners: tuple[int, ...]
    points: tuple[int, ...]
    lower_is_better: bool
    ranks: tuple[int, ...]
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "points": list(self.points),
            "lower_is_better": self.lower_is_better,
            "ranks": list(self.ranks),
            "reason": self.reason,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Result:
        """A result from `to_dict()` (other keys, such as a server's, are ignored)."""
        return Result(
            tuple(data["winners"]),
            tuple(data["points"]),
            bool(data["lower_is_better"]),
            tuple(data["ranks"]),
            str(data.get("reason", "")),
        )

    @staticmethod
    def ranked(
        winners: tuple[int, ...], points: tuple[int, ...], lower_is_better: bool, reason: str = ""
    ) -> Result:
        """Ranks from points, with the winners first whatever their points."""
        n = len(points)

        def key(i: int) -> tuple[int, int]:
            p = points[i] if lower_is_better else -points[i]
            return (0 if i in winners else 1, p)

        keys = [key(i) for i in range(n)]
        ranks = tuple(1 + sum(1 for j in range(n) if keys[j] < keys[i]) for i in range(n))
        return Result(winners, points, lower_is_better, ranks, reason)


R = TypeVar("R")
S = TypeVar("S", bound="State")


class Game(ABC, Generic[R, S]):
    """A rule set (`rules`, of the game's own options type `R`) at a table size. Cheap to build;
    immutable; starts, loads and sets up states of type `S`."""

    name: ClassVar[str]
    rules: R

    def __init__(self, players: int, rules: R, preset: str | None = None) -> None:
        self.players = players
        self.rules = rules
        self.preset = preset

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} players={self.players} preset={self.preset}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and other.players == self.players
            and other.rules == self.rules
        )

    def __hash__(self) -> int:
        return hash((self.name, self.players, self.rules))

    @abstractmethod
    def new_game(self, seed: int | None = None, **setup: Any) -> S:
        """A new game; all chance comes from `seed`. `setup` is game-specific (dealer, …); every
        game takes `position=` (a `State.position()` dict), which is `from_position`."""

    @abstractmethod
    def from_position(self, spec: Mapping[str, Any], seed: int | None = None) -> S:
        """A game starting from a chosen position (the JSON of `State.position()`, whole or with
        parts left out for the game to fill from `seed`). Raises `SetupError` saying what is wrong.

        `from_position(state.position())` shows the same views (but for the events: a position has
        no history) and the same legal moves as `state`: the conformance suite checks it.
        """

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move a text names, or IllegalMove saying what is wrong with the text."""

    @abstractmethod
    def state_from_dict(self, data: dict[str, Any]) -> S:
        """Rebuild a state from `State.to_dict()`."""

    @abstractmethod
    def sample_state(self, view: Mapping[str, Any], rng: GameRng) -> S:
        """A full state consistent with everything `view` shows (a determinization).

        Used by search bots: they never see the true state, only states drawn from those that the
        player cannot tell apart from it. `view` may be a view as `State.view` gives it or as it
        arrived over the wire (events as JSON objects).
        """

    def sampler(self, view: Mapping[str, Any]) -> Callable[[GameRng], S]:
        """`sample_state` for many draws from one view: `sampler(view)(rng)` is
        `sample_state(view, rng)`, the same state from the same draws. A search draws hundreds of
        determinizations from one view; a game whose reading of the view is much of a draw's cost
        reads it once here."""
        return lambda rng: self.sample_state(view, rng)

    def with_players(self, players: int) -> Game[R, S]:
        """The same rules at another table size (for eliminations in a match)."""
        return type(self)(players, self.rules, self.preset)

    def match_format(self, name: str | None = None) -> MatchFormat:
        """The multi-game format named (or this rule set's usual one). Games override this."""
        return MatchFormat.parse(name or "single")

    def setup_for(self, starter: int) -> dict[str, Any]:
        """`new_game` setup that makes `starter` the dealer (card games) or first player."""
        return {"dealer": starter}

    def cut_for_dealer(self, rng: GameRng) -> tuple[int, str]:
        """Who deals the first game of a match, and words saying how it was decided (players are
        `{P1}`, `{P2}`, … in them: the edges put names in, `core.events.with_names`)."""
        d = rng.randrange(self.players)
        return d, f"{{P{d + 1}}} was drawn to start"

    def load(self, text: str) -> S:
        """A state from `State.to_json()` text, checked to be this game's."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LoadError(f"not a saved game (invalid JSON: {exc})") from None
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise LoadError(f"not a saved {self.name} game")
        try:
            return self.state_from_dict(data)
        except LoadError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LoadError(f"saved {self.name} game is damaged: {exc!r}") from None

    def spec(self) -> dict[str, Any]:
        return {"game": self.name, "players": self.players, "rules": rules_to_dict(self.rules)}


class State(ABC):
    """One game in progress. Mutable; `copy()` gives an independent one."""

    game: Game[Any, Any]
    seed: int
    setup: dict[str, Any]
    history: list[Move]
    _legal: list[Move] | None

    # --- what every game implements -------------------------------------------------------
    @property
    @abstractmethod
    def to_play(self) -> int | None:
        """Index of the player to move; None once the game is over."""

    @abstractmethod
    def _legal_moves(self) -> list[Move]:
        """Every legal move; never empty while the game is not over."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Carry out a move already known to be legal."""

    @abstractmethod
    def view(self, player: int | None) -> View:
        """What `player` may know; `None` is a spectator. The keys of `ENVELOPE` first (built by
        `_envelope`), then the game's own; events are typed (`parlour.core.events`), everything
        else plain JSON data. `parlour.core.events.view_to_wire` gives the JSON form."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """The outcome; raises ValueError while the game is still going."""

    @abstractmethod
    def copy(self: S) -> S: ...

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Everything, hidden parts and generator included: a save file, never sent to a player."""

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The whole situation as JSON data — every hand, the order of the pack, whose turn —
        that `Game.from_position` takes back: for tests, puzzles and teaching. It holds hidden
        cards: it is never sent to a player of a running game."""

    @abstractmethod
    def permute_hidden(self: S, player: int, rng: GameRng) -> S:
        """A copy in which everything hidden from `player` is redrawn at random, consistently.

        The conformance suite checks that `view(player)` does not change: the wall test.
        """

    def forced_move(self) -> Move:
        """The move a move clock makes for a player who runs out of time (game-specific)."""
        return self.legal_moves()[0]

    def why_illegal(self, move: Move) -> str | None:
        """Why the rules refuse `move` now, in words, where the game can say (else None)."""
        return None

    def _resolve_text(self, text: str) -> Move:
        """The move a text names here: the notation, which a game may read more leniently where
        the position settles it (Sorry!'s `1 enter` when one colour can enter)."""
        return self.game.parse_move(text)

    def _envelope(self, viewer: int | None, hand_counts: list[int] | None) -> View:
        """The keys every view starts with (`ENVELOPE`)."""
        return {
            "game": self.game.name,
            "viewer": viewer,
            "players": self.game.players,
            "to_play": self.to_play,
            "is_over": self.is_over,
            "hand_counts": hand_counts,
            "events": [],
        }

    # --- shared behaviour ------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = self._legal_moves()
        return list(self._legal)

    def check(self, move: Move | str) -> Move:
        """The legal move that `move` (a Move or its text) names; raises `NotAMove` or
        `NotLegalNow` (both `IllegalMove`s listing the legal moves), or `IllegalMove` once the
        game is over. The one gate of legality: `apply`, the server and the terminal use it."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if not legal and self.is_over:
            raise IllegalMove("the game is over")
        if isinstance(move, str):
            try:
                move = self._resolve_text(move)
            except IllegalMove as exc:
                raise NotAMove(exc.reason, legal) from None
        elif not isinstance(move, Move):
            raise NotAMove(f"a move is text or a Move, not {type(move).__name__}", legal)
        if move in legal:
            return move
        raise NotLegalNow(f"{move} is not legal now", legal, self.why_illegal(move))

    def apply(self, move: Move | str) -> Move:
        """Play `move` (a Move or its text) and return it; an IllegalMove changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if move.__class__ is str or move not in legal:
            move = self.check(move)
        self._legal = None
        self.history.append(move)
        self._apply(move)
        return move

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def record(self) -> Record:
        spec = self.game.spec()
        return Record(
            game=spec["game"],
            players=spec["players"],
            rules=spec["rules"],
            seed=self.seed,
            setup=dict(self.setup),
            moves=tuple(str(m) for m in self.history),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable
