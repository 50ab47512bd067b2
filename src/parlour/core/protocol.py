"""The game protocol every parlour game follows (see DESIGN.md, "The game protocol").

A `Game` is a rule set at a table size: it starts states and knows the notation. A `State` is one
game in progress: it is mutated by `apply`, tells whose turn it is and what is legal, and shows each
player only their `view`. The terminal, the server, the simulator and the bots use nothing else.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .errors import IllegalMove, LoadError
from .options import rules_to_dict
from .rng import GameRng

if TYPE_CHECKING:
    from .match import MatchFormat
    from .record import Record

__all__ = ["Game", "Move", "Result", "State"]


class Move(ABC):
    """A move: immutable, hashable, and `str(move)` is text that `State.apply` accepts back."""

    __slots__ = ()

    @abstractmethod
    def __str__(self) -> str: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"


@dataclass(frozen=True)
class Result:
    """How a finished game came out.

    `points` are the game's own: in Whot! they count *against* a player (`lower_is_better`), in
    Who's Who they are tricks or books won. `ranks` are 1 for the best, ties sharing a rank.
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


S = TypeVar("S", bound="State")


class Game(ABC, Generic[S]):
    """A rule set at a table size. Cheap to build; immutable; starts and loads states."""

    name: ClassVar[str]

    def __init__(self, players: int, rules: Any, preset: str | None = None) -> None:
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
        """A new game; all chance comes from `seed`. `setup` is game-specific (dealer, …)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move a text names, or IllegalMove saying what is wrong with the text."""

    @abstractmethod
    def state_from_dict(self, data: dict[str, Any]) -> S:
        """Rebuild a state from `State.to_dict()`."""

    @abstractmethod
    def sample_state(self, view: dict[str, Any], rng: GameRng) -> S:
        """A full state consistent with everything `view` shows (a determinization).

        Used by search bots: they never see the true state, only states drawn from those that the
        player cannot tell apart from it.
        """

    def with_players(self, players: int) -> Game[S]:
        """The same rules at another table size (for eliminations in a match)."""
        return type(self)(players, self.rules, self.preset)

    def match_format(self, name: str | None = None) -> MatchFormat:
        """The multi-game format named (or this rule set's usual one). Games override this."""
        from .match import MatchFormat

        return MatchFormat.parse(name or "single")

    def setup_for(self, starter: int) -> dict[str, Any]:
        """`new_game` setup that makes `starter` the dealer (card games) or first player."""
        return {"dealer": starter}

    def cut_for_dealer(self, rng: GameRng) -> tuple[int, str]:
        """Who deals the first game of a match, and words saying how it was decided."""
        d = rng.randrange(self.players)
        return d, f"player {d} was drawn to start"

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

    game: Game[Any]
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
    def view(self, player: int | None) -> dict[str, Any]:
        """What `player` may know, as a JSON-able dict; `None` is a spectator."""

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
    def permute_hidden(self: S, player: int, rng: GameRng) -> S:
        """A copy in which everything hidden from `player` is redrawn at random, consistently.

        The conformance suite checks that `view(player)` does not change: the wall test.
        """

    def forced_move(self) -> Move:
        """The move a move clock makes for a player who runs out of time (game-specific)."""
        return self.legal_moves()[0]

    # --- shared behaviour ------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = self._legal_moves()
        return list(self._legal)

    def apply(self, move: Move | str) -> Move:
        """Play `move` (a Move or its text) and return it; an IllegalMove changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if isinstance(move, str):
            if not legal and self.is_over:
                raise IllegalMove("the game is over")
            move = self.game.parse_move(move)
        if move not in legal:
            if self.is_over:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"{move} is not legal now", legal)
        self._legal = None
        self.history.append(move)
        self._apply(move)
        return move

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def record(self) -> Record:
        from .record import Record

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
