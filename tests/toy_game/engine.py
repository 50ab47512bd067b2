"""High Card's rules, moves, events and engine: everything the protocol asks of a game, small."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from parlour.core import (
    Game,
    GameRng,
    IllegalMove,
    Move,
    Result,
    SetupError,
    State,
    View,
    events_from_wire,
    option,
    to_wire,
)
from parlour.core.rng import fresh_seed


@dataclass(frozen=True)
class ToyRules:
    hand: int = option(3, "Cards dealt to each player.", "toy rule", low=1, high=6)


PRESETS = {"standard": ToyRules(), "long": ToyRules(hand=5)}
PACK = [n for n in range(1, 10) for _ in range(2)]


class Play(Move):
    __slots__ = ("card",)

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", card)

    card: int

    def __str__(self) -> str:
        return f"play {self.card}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.card == self.card

    def __hash__(self) -> int:
        return hash(("toy", self.card))

    def fields(self) -> dict[str, Any]:
        return {"kind": "play", "card": self.card}


class Played(NamedTuple):
    player: int
    card: int
    kind: str = "play"


class Drew(NamedTuple):
    player: int
    kind: str = "draw"


KINDS = {"play": Played, "draw": Drew}


def parse_move(text: str) -> Play:
    words = str(text).split()
    if len(words) != 2 or words[0] != "play" or not words[1].isdigit():
        raise IllegalMove(f"{text!r} is not a move: write 'play 7'")
    card = int(words[1])
    if not 1 <= card <= 9:
        raise IllegalMove(f"there is no card {card}: cards are 1 to 9")
    return Play(card)


class ToyGame(Game[ToyRules, "ToyState"]):
    name = "toy"

    def setup_for(self, starter: int) -> dict[str, Any]:
        return {"first": starter}

    def new_game(self, seed: int | None = None, **setup: Any) -> ToyState:
        if "position" in setup:
            return self.from_position(setup["position"], seed)
        first = setup.pop("first", 0)
        if setup:
            raise SetupError(f"unknown setup: {', '.join(setup)}")
        seed = fresh_seed() if seed is None else seed
        rng = GameRng(seed)
        pack = list(PACK)
        rng.shuffle(pack)
        hands = [[pack.pop() for _ in range(self.rules.hand)] for _ in range(self.players)]
        setup = {"first": first} if first else {}
        return ToyState(self, seed, setup, hands, pack, [0] * self.players, first, rng)

    def from_position(self, spec: Mapping[str, Any], seed: int | None = None) -> ToyState:
        seed = fresh_seed() if seed is None else seed
        try:
            hands = [[int(c) for c in h] for h in spec["hands"]]
            top = [int(c) for c in spec.get("pack", [])]
            pile = [int(c) for c in spec.get("pile", [])]
            scores = [int(x) for x in spec.get("scores", [0] * self.players)]
            to_play = int(spec.get("to_play", 0))
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"not a High Card position: {exc}") from None
        if len(hands) != self.players or not 0 <= to_play < self.players:
            raise SetupError("a hand per player and a seat to play")
        left = Counter(PACK)
        left.subtract(c for h in hands for c in h)
        left.subtract(top)
        left.subtract(pile)
        if any(k < 0 for k in left.values()):
            raise SetupError("more cards than the pack has")
        rng = GameRng(seed)
        rest = sorted(left.elements())
        rng.shuffle(rest)
        pack = rest + top[::-1]
        s = ToyState(self, seed, {"position": dict(spec)}, hands, pack, scores, to_play, rng)
        s.pile = pile
        return s

    def parse_move(self, text: str) -> Play:
        return parse_move(text)

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        s = ToyState(
            self,
            data["seed"],
            data["setup"],
            data["hands"],
            data["pack"],
            data["scores"],
            data["turn"],
            GameRng.from_jsonable(data["rng"]),
        )
        s.pile = list(data["pile"])
        s.events = events_from_wire(data["events"], KINDS, parse_move)
        s.history = [parse_move(t) for t in data["history"]]
        return s

    def sample_state(self, view: Mapping[str, Any], rng: GameRng) -> ToyState:
        me = view["viewer"]
        left = Counter(PACK)
        left.subtract(view["hand"])
        left.subtract(view["pile"])
        pool = sorted(left.elements())
        rng.shuffle(pool)
        hands = []
        for p, n in enumerate(view["hand_counts"]):
            hands.append(list(view["hand"]) if p == me else [pool.pop() for _ in range(n)])
        s = ToyState(self, 0, {}, hands, pool, list(view["scores"]), view["turn"], GameRng(1))
        s.pile = list(view["pile"])
        s.events = events_from_wire(view["events"], KINDS, parse_move)
        return s


class ToyView(View, total=False):
    """High Card's keys beyond the envelope."""

    turn: int
    scores: list[int]
    pile: list[int]
    pack: int
    hand: list[int]


class ToyState(State):
    game: ToyGame

    def __init__(
        self,
        game: ToyGame,
        seed: int,
        setup: dict[str, Any],
        hands: list[list[int]],
        pack: list[int],
        scores: list[int],
        turn: int,
        rng: GameRng,
    ) -> None:
        self.game, self.seed, self.setup = game, seed, setup
        self.hands, self.pack, self.scores, self.turn, self.rng = hands, pack, scores, turn, rng
        self.pile: list[int] = []
        self.events: list[Any] = []
        self.history = []
        self._legal = None

    @property
    def to_play(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    def _legal_moves(self) -> list[Move]:
        return [] if self.is_over else [Play(c) for c in sorted(set(self.hands[self.turn]))]

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Play)
        p = self.turn
        self.hands[p].remove(move.card)
        self.pile.append(move.card)
        self.scores[p] += move.card
        self.events.append(Played(p, move.card))
        if self.pack:
            self.hands[p].append(self.pack.pop())
            self.events.append(Drew(p))
        n = self.game.players
        for k in range(1, n + 1):
            q = (p + k) % n
            if self.hands[q]:
                self.turn = q
                break

    def view(self, player: int | None) -> ToyView:
        # the envelope, typed as this game's view (a cast: no copy); its own keys follow
        v = cast(ToyView, self._envelope(player, [len(h) for h in self.hands]))
        v["events"] = list(self.events)
        v["turn"], v["scores"], v["pile"], v["pack"] = (
            self.turn,
            list(self.scores),
            list(self.pile),
            len(self.pack),
        )
        if player is not None:
            v["hand"] = sorted(self.hands[player])
        return v

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("the game is not over")
        best = max(self.scores)
        winners = tuple(i for i, x in enumerate(self.scores) if x == best)
        return Result.ranked(winners, tuple(self.scores), False, "the highest total wins")

    def copy(self) -> ToyState:
        s = ToyState(
            self.game,
            self.seed,
            self.setup,
            [h[:] for h in self.hands],
            self.pack[:],
            self.scores[:],
            self.turn,
            self.rng.copy(),
        )
        s.pile, s.events, s.history = self.pile[:], self.events[:], self.history[:]
        return s

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "toy",
            "players": self.game.players,
            "seed": self.seed,
            "setup": self.setup,
            "hands": [h[:] for h in self.hands],
            "pack": self.pack[:],
            "scores": self.scores[:],
            "turn": self.turn,
            "pile": self.pile[:],
            "events": [to_wire(e) for e in self.events],
            "history": [str(m) for m in self.history],
            "rng": self.rng.to_jsonable(),
        }

    def position(self) -> dict[str, Any]:
        return {
            "hands": [h[:] for h in self.hands],
            "pack": self.pack[::-1],
            "scores": self.scores[:],
            "to_play": self.turn,
            "pile": self.pile[:],
        }

    def permute_hidden(self, player: int, rng: GameRng) -> ToyState:
        s = self.copy()
        pool = [c for q, h in enumerate(s.hands) if q != player for c in h] + s.pack
        random.Random(rng.getrandbits(32)).shuffle(pool)
        for q, h in enumerate(s.hands):
            if q != player:
                s.hands[q] = [pool.pop() for _ in h]
        s.pack = pool
        return s
