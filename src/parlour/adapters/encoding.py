"""Encodings: a game's moves as integer ids and a player's view as a tensor.

An `Encoding` belongs to one `Game` (name, table size, rules). It gives

* a fixed-size action space: `num_actions` ids, one for every move the game could ever offer at
  this table under these rules, with `action_id(move)` and `move_of(id)` inverse to each other;
* `legal_mask(legal)`: a boolean vector with True at the id of every legal move;
* `observe(view)`: a float32 vector built from `state.view(player)` **only** — the same wall the
  bots stand behind, so an agent trained on it never learns from a hidden card;
* `fields()`: the observation's layout, field by field (name, shape, bounds, meaning);
* `observer(state, seat)`: an `Observer` that gives `observe(state.view(seat))` again and again as
  the game goes on, for less than a whole re-encoding each time: a game's encoding may keep the
  vector and update it from what changed; by default it re-encodes the view;
* `table_observer(state)`: a `TableObserver` giving every seat's observation (what the PettingZoo
  environment asks each step): by default one `Observer` a seat; a game's encoding may follow each
  move once for the whole table instead;
* `mask(legal)`: `legal_mask` as int8, built the cheapest way (the adapters' masks).

Each game names the factory of its encoding in its manifest (`GameInfo.encoding`, a module of its
own folder); `encoding_for(game)` builds it from there, so adding a game touches nothing here. The
game packages never import their encoding module themselves: the engine stays free of NumPy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from parlour.core import Game, IllegalMove, Move, State
from parlour.core.registry import info
from parlour.extras import needs

with needs("rl", "parlour's RL adapters"):
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BaseEncoding",
    "Encoding",
    "EncodingFactory",
    "Field",
    "Layout",
    "Observer",
    "SeatOfTable",
    "TableEncoding",
    "TableObserver",
    "as_action",
    "encoding_for",
    "outcome_rewards",
    "read_only",
    "relative_seats",
]

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
Int8Array = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Field:
    """One named block of an observation vector."""

    name: str
    shape: tuple[int, ...]
    doc: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


class Layout:
    """Fields laid end to end in one flat float32 vector, with named, reshaped views into it."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        self.offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for f in self.fields:
            if f.name in self.offsets:
                raise ValueError(f"field {f.name!r} appears twice")
            self.offsets[f.name] = (at, at + f.size)
            at += f.size
        self.size = at
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])

    def blank(self) -> tuple[FloatArray, dict[str, FloatArray]]:
        """A zero vector and a dict of its fields as views (writing a view writes the vector)."""
        vec = np.zeros(self.size, np.float32)
        parts = {
            f.name: vec[a:b].reshape(f.shape) if f.shape else vec[a:b]
            for f, (a, b) in zip(self.fields, self.offsets.values(), strict=True)
        }
        return vec, parts

    def split(self, vec: FloatArray) -> dict[str, FloatArray]:
        """The named fields of an observation vector (for reading one back)."""
        return {
            f.name: vec[a:b].reshape(f.shape) if f.shape else vec[a:b]
            for f, (a, b) in zip(self.fields, self.offsets.values(), strict=True)
        }


@runtime_checkable
class Encoding(Protocol):
    """What every adapter needs from a game (see the module docstring)."""

    game: Game[Any, Any]
    num_actions: int
    observation_shape: tuple[int, ...]
    observation_low: FloatArray
    observation_high: FloatArray

    def action_id(self, move: Move) -> int: ...

    def move_of(
        self, action: int, state_or_legal: State | Sequence[Move] | None = None
    ) -> Move: ...

    def legal_mask(self, legal: Iterable[Move]) -> BoolArray: ...

    def observe(self, view: Mapping[str, Any]) -> FloatArray: ...

    def observer(self, state: State, seat: int) -> Observer: ...

    def table_observer(self, state: State) -> TableObserver: ...

    def seat_follower(self, state: State, seat: int) -> Observer: ...

    def mask(self, legal: Sequence[Move]) -> Int8Array: ...

    def fields(self) -> tuple[Field, ...]: ...

    def field_docs(self) -> list[dict[str, Any]]: ...

    def action_docs(self) -> str: ...


EncodingFactory = Callable[[Game[Any, Any]], Encoding]


class Observer:
    """One seat's observation of one game as it goes on: `observe()` is always equal to
    `encoding.observe(state.view(seat))` for the state as it is now (a new array each call).

    This one re-encodes the whole view every time: right for any encoding, and what a game's own
    observer (`BaseEncoding.observer`) must agree with. An observer reads the state it was given
    until the adapter makes a new one for the next game."""

    def __init__(self, encoding: BaseEncoding, state: State, seat: int) -> None:
        self.encoding = encoding
        self.state = state
        self.seat = seat

    def observe(self) -> FloatArray:
        return self.encoding.observe(self.state.view(self.seat))

    def follow(self) -> None:
        """Be told that a move was made. An observer that updates move by move may do it now,
        one move's update each time; this one encodes the view when asked, so it waits."""


class TableObserver:
    """Every seat's observation of one game as it goes on: `observe(seat)` is always equal to
    `encoding.observe(state.view(seat))` for the state as it is now (a new array each call).

    This one keeps one `Observer` a seat, each catching up on what it missed when its seat is
    looked at. A game's encoding may override `BaseEncoding.table_observer` to follow each move
    once for the whole table instead (docs/adapters.md, "Table observers")."""

    def __init__(self, encoding: Encoding, state: State) -> None:
        self.state = state
        self.observers = [encoding.observer(state, p) for p in range(state.game.players)]

    def observe(self, seat: int) -> FloatArray:
        return self.observers[seat].observe()

    def follow(self) -> None:
        """Catch up with the moves made since the last look, without an observation: a table
        that updates move by move does it here, so that a caller may follow every move. (This
        one's observers catch up when looked at, so it has nothing to do now.)"""


class SeatOfTable(Observer):
    """One seat's observations read from a `TableObserver`, followed move by move."""

    def __init__(self, table: TableObserver, seat: int) -> None:
        self.table = table
        self.seat = seat

    def observe(self) -> FloatArray:
        return self.table.observe(self.seat)

    def follow(self) -> None:
        self.table.follow()


def read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A read-only view of `array` that cannot be made writeable again (its base is read-only
    too), for arrays handed out more than once."""
    array.flags.writeable = False
    return array.view()


class BaseEncoding:
    """Shared behaviour: masks, checked decoding, observation layout. Games subclass it."""

    #: How the ids are enumerated, in words (for docs and `action_docs()`).
    ACTIONS_DOC = ""

    def __init__(self, game: Game[Any, Any], layout: Layout, num_actions: int) -> None:
        self.game = game
        self.layout = layout
        self.num_actions = num_actions
        self.observation_shape: tuple[int, ...] = (layout.size,)
        self.observation_low: FloatArray = layout.low
        self.observation_high: FloatArray = layout.high
        self._no_moves: Int8Array = np.zeros(num_actions, np.int8)

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} players={self.game.players} "
            f"actions={self.num_actions} observation={self.observation_shape}>"
        )

    # --- actions ---------------------------------------------------------------------------------
    def action_id(self, move: Move) -> int:
        raise NotImplementedError

    def _move(self, action: int) -> Move:
        raise NotImplementedError

    def move_of(self, action: int, state_or_legal: State | Sequence[Move] | None = None) -> Move:
        """The move with id `action`. Given a state or the legal moves, it must also be legal:
        an id out of range or not legal now raises IllegalMove naming the legal ids."""
        a = as_action(action)
        if not 0 <= a < self.num_actions:
            raise IllegalMove(
                f"action {a} is out of range: {self.game.name} has actions "
                f"0..{self.num_actions - 1}"
            )
        move = self._move(a)
        if state_or_legal is None:
            return move
        legal = (
            state_or_legal.legal_moves() if isinstance(state_or_legal, State) else state_or_legal
        )
        if move not in legal:
            ids = sorted(self.action_id(m) for m in legal)
            shown = ", ".join(f"{i} ({self._move(i)})" for i in ids[:12])
            more = f", … {len(ids) - 12} more" if len(ids) > 12 else ""
            raise IllegalMove(
                f"action {a} ({move}) is not legal now; the legal actions are {shown}{more}", legal
            )
        return move

    def legal_mask(self, legal: Iterable[Move]) -> BoolArray:
        mask = np.zeros(self.num_actions, np.bool_)
        ids = [self.action_id(m) for m in legal]
        if ids:
            mask[ids] = True
        return mask

    def mask(self, legal: Sequence[Move]) -> Int8Array:
        """`legal_mask(legal)` as int8 (the adapters' dtype), a new array each call: a copy of a
        kept zero mask and one write per legal move, cheaper for the handful of moves a turn
        offers than a list of ids, a scatter and a cast."""
        ids = self._ids(legal)
        mask = self._no_moves.copy()
        view: Any = mask.data if len(ids) >= VIEW_FROM else mask  # (see VIEW_FROM)
        for i in ids:
            view[i] = 1
        return mask

    def _ids(self, legal: Sequence[Move]) -> list[int]:
        """The ids of `legal`, in order (IllegalMove for a move without one)."""
        return [self.action_id(m) for m in legal]

    def legal_ids(self, legal: Iterable[Move]) -> list[int]:
        """The ids of `legal`, ascending (OpenSpiel's order)."""
        return sorted(self.action_id(m) for m in legal)

    def action_docs(self) -> str:
        return self.ACTIONS_DOC

    # --- observations ----------------------------------------------------------------------------
    def fields(self) -> tuple[Field, ...]:
        return self.layout.fields

    def field_docs(self) -> list[dict[str, Any]]:
        """The observation's layout: one dict per field, in order, with its slice of the vector."""
        out = []
        for f in self.layout.fields:
            a, b = self.layout.offsets[f.name]
            out.append(
                {
                    "name": f.name,
                    "shape": list(f.shape),
                    "slice": [a, b],
                    "low": f.low,
                    "high": f.high,
                    "doc": f.doc,
                }
            )
        return out

    def observe(self, view: Mapping[str, Any]) -> FloatArray:
        vec, parts = self.layout.blank()
        self._fill(view, parts)
        np.clip(vec, self.observation_low, self.observation_high, out=vec)
        return vec

    def _fill(self, view: Mapping[str, Any], parts: dict[str, FloatArray]) -> None:
        raise NotImplementedError

    def observer(self, state: State, seat: int) -> Observer:
        """An `Observer` of `seat` in `state`. Games whose encoding can follow a game move by move
        override this; this one re-encodes the view each time."""
        return Observer(self, state, seat)

    def table_observer(self, state: State) -> TableObserver:
        """A `TableObserver` of every seat in `state`: one `observer` a seat, unless the game's
        encoding overrides this."""
        return TableObserver(self, state)

    def seat_follower(self, state: State, seat: int) -> Observer:
        """An `Observer` of `seat` in `state` for a caller that calls its `follow()` after every
        move (the Gymnasium environment, after the learner's move and each opponent's):
        `observer(state, seat)`, unless the game's encoding has one that costs less so."""
        return self.observer(state, seat)


#: From how many legal moves `TableEncoding.mask` scatters their ids at once instead of writing
#: them one by one: a write costs ~0.05 µs a move, the scatter ~0.8 µs more to start (random play
#: of every table-encoded game; an encoding whose own loop costs more per move starts sooner).
SCATTER_FROM = 24

#: From how many legal moves a mask's ones are written through a memoryview of it rather than on
#: the array itself: making the view costs about 0.25 µs, and a write through it saves about 0.04
#: µs of the array's own (storey-1935's random play offers 1 to 4 moves at most turns, where this
#: saves 0.1–0.2 µs a mask).
VIEW_FROM = 7


class TableEncoding(BaseEncoding):
    """Actions numbered by position in a list of every possible move (for small move sets)."""

    def __init__(self, game: Game[Any, Any], layout: Layout, moves: Sequence[Move]) -> None:
        super().__init__(game, layout, len(moves))
        self.moves: tuple[Move, ...] = tuple(moves)
        self.index: dict[Move, int] = {}
        for i, m in enumerate(self.moves):
            if m in self.index:
                raise ValueError(f"move {m} is listed twice in the action table")
            self.index[m] = i

    def action_id(self, move: Move) -> int:
        try:
            return self.index[move]
        except KeyError:
            raise IllegalMove(
                f"{move} has no action id in {self.game.name} under these rules"
            ) from None

    def _ids(self, legal: Sequence[Move]) -> list[int]:
        index = self.index
        try:
            return [index[m] for m in legal]  # (a lookup each, not a call each)
        except KeyError:
            return super()._ids(legal)  # raises, naming the move

    def mask(self, legal: Sequence[Move]) -> Int8Array:
        # `BaseEncoding.mask` with the ids looked up in place (no list, no call)
        if len(legal) > SCATTER_FROM:
            return self.scattered_mask(legal)
        mask = self._no_moves.copy()
        view: Any = mask.data if len(legal) >= VIEW_FROM else mask  # (see VIEW_FROM)
        index = self.index
        try:
            for m in legal:
                view[index[m]] = 1
        except KeyError:
            return super().mask(legal)  # raises, naming the move
        return mask

    def scattered_mask(self, legal: Sequence[Move]) -> Int8Array:
        """`mask(legal)` for many moves: their ids read by the dict's own lookup, mapped in C
        (no Python line a move), into one array for one NumPy scatter: for a game whose random
        player is offered ~50 moves a turn, 7.9 → 3.3 µs a mask."""
        try:
            ids = np.fromiter(map(self.index.__getitem__, legal), np.intp, len(legal))
        except KeyError:
            return BaseEncoding.mask(self, legal)  # raises, naming the move
        mask = self._no_moves.copy()
        mask[ids] = 1
        return mask

    def _move(self, action: int) -> Move:
        return self.moves[action]

    def move_of(self, action: int, state_or_legal: State | Sequence[Move] | None = None) -> Move:
        # (every step of the adapters: an int or a NumPy integer is looked up at once)
        cls = action.__class__
        if state_or_legal is None and (cls is int or cls in _NUMPY_INTEGERS):
            a = int(action)
            if 0 <= a < self.num_actions:
                return self.moves[a]
        return super().move_of(action, state_or_legal)


_INTEGERS = (int, np.integer)  # (a tuple: `int | np.integer` would build a union every call)
# What an agent's NumPy choice or argmax gives: known by its class at once.
_NUMPY_INTEGERS = frozenset(
    (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
)


def as_action(action: Any) -> int:
    """An action id from an int, a NumPy integer or a 0-d integer array; IllegalMove otherwise."""
    cls = action.__class__
    if cls is int:
        return action  # type: ignore[no-any-return]
    if cls in _NUMPY_INTEGERS:
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, bool) or not isinstance(action, _INTEGERS):
        raise IllegalMove(f"an action is an integer id, not {action!r}")
    return int(action)


def relative_seats(viewer: int | None, players: int) -> list[int]:
    """Seats in the order the observation lists them: the viewer first, then on round the table
    (a spectator, viewer None, sees seat 0 first)."""
    me = viewer or 0
    return [(me + k) % players for k in range(players)]


def outcome_rewards(state: State) -> list[float]:
    """The reward every adapter gives at the end of a game: +1 to each winner, -1 to each other
    player (two players: zero-sum). Ties of several winners give each of them +1."""
    winners = set(state.result().winners)
    return [1.0 if p in winners else -1.0 for p in range(state.game.players)]


_CACHE: dict[Game[Any, Any], Encoding] = {}


def encoding_for(game: Game[Any, Any]) -> Encoding:
    """The encoding of `game`: the factory its manifest names (`GameInfo.encoding`)."""
    got = _CACHE.get(game)
    if got is not None:
        return got
    factory = info(game.name).encoding
    if factory is None:
        raise LookupError(f"{game.name} has no encoding: its manifest names none")
    enc: Encoding = factory(game)
    _CACHE[game] = enc
    return enc
