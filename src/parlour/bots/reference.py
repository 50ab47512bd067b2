"""Reference players for the bot ladder (benchmarks/ladder.py) — never offered to people.

Two players the ladder measures every bot against, kept out of the bot registry on purpose:
`make_bot` does not know their names, so no `--bots`, lobby level, hint or server seat can ever
seat one. Only the simulator's `maker` hook (`SimSpec.maker = make_reference_bot`) builds them.

- **`cheat-mcts`: a CEILING REFERENCE THAT CHEATS.** It reads the full state — every hand, the
  stock's order, the generator that will shuffle the next pack — and so breaks the
  hidden-information wall (docs/architecture.md, principle 3) by design. It is parlour's ISMCTS
  (same parameters, playout policy, model and evaluation) searching the true state itself in
  place of states sampled from its view, so the gap between it and `ismcts` at the same budget is
  what the hidden information costs the search. It has no `choose(view, legal)`: a host that only
  hands out views cannot run it, and the simulator hands it the state only because it is a
  `FullStateBot`.
- **`openspiel-ismcts`**: OpenSpiel's own ISMCTS (`open_spiel.python.algorithms.ismcts`) through
  `parlour.adapters.openspiel`, as an outside reference. It keeps to the wall: it is given a state
  sampled from its view, and OpenSpiel's ISMCTS redraws every simulation's state with
  `resample_from_infostate` (the game's `sample_state`) anyway. Its evaluator plays each
  simulation's state out with the game's own playout policy (the one parlour's ISMCTS uses, on the
  determinized state): the adapter's `BotRolloutEvaluator` builds a view a move and was 98% of a
  decision's time. Needs open-spiel (the dev extra).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from parlour.core import Game, Move, RulesError, State
from parlour.core.rng import GameRng

from .base import Bot, make_bot
from .ismcts import ISMCTSBot, search_help

__all__ = [
    "REFERENCE_BOTS",
    "ClairvoyantMCTS",
    "FullStateBot",
    "OpenSpielISMCTS",
    "is_reference",
    "make_reference_bot",
]


class FullStateBot(ABC):
    """A player that decides from the whole state, hidden cards and all (a cheat, by design)."""

    name = "full-state"
    searches = True

    @abstractmethod
    def choose_from_state(self, state: State) -> Move: ...


class _TrueStateGame:
    """Stands in for the game inside the search: every "sample" is a copy of the true state.

    ISMCTS reaches hidden cards only through `game.sampler(view)` (each draw a `sample_state`);
    answering with the true state turns the same search into a perfect-information one, changing
    nothing else."""

    def __init__(self, game: Game[Any, Any], state: State) -> None:
        self.name = game.name
        self.players = game.players
        self._state = state

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> State:
        return self._state.copy()

    def sampler(self, view: dict[str, Any]) -> Callable[[GameRng], State]:
        return lambda rng: self.sample_state(view, rng)


class ClairvoyantMCTS(FullStateBot):
    """`cheat-mcts`: parlour's ISMCTS searching the true state (see the module docstring)."""

    name = "cheat-mcts"

    def __init__(self, game: Game[Any, Any], rng: random.Random, **params: str) -> None:
        self.game = game
        # The search keeps every ismcts parameter and default; it samples a pool of one state.
        self._search = ISMCTSBot(game, rng, **{"pool": "1", **params})

    def choose_from_state(self, state: State) -> Move:
        me = state.to_play
        if me is None:
            raise RulesError("the game is over: there is no move to choose")
        legal = state.legal_moves()
        self._search.game = _TrueStateGame(self.game, state)  # type: ignore[assignment]
        try:
            return self._search.choose(state.view(me), legal)
        finally:
            self._search.game = self.game


class OpenSpielISMCTS(Bot):
    """`openspiel-ismcts`: OpenSpiel's ISMCTS bot on the game's OpenSpiel form.

    Parameters: `simulations` (default 100) and `c` (UCT exploration, default 2.0, as in
    OpenSpiel's own examples). Its rewards are +1 to a winner and -1 to the others."""

    name = "openspiel-ismcts"
    searches = True

    def __init__(self, game: Game[Any, Any], rng: random.Random, **params: str) -> None:
        super().__init__(game, rng)
        known = {"simulations", "c"}
        bad = sorted(set(params) - known)
        if bad:
            raise RulesError(f"openspiel-ismcts takes {', '.join(sorted(known))}; not {bad}")
        try:
            import numpy as np
            from open_spiel.python.algorithms import ismcts

            from parlour.adapters import openspiel
        except ImportError:
            raise RulesError(
                "openspiel-ismcts needs OpenSpiel, which comes with parlour's rl extra: "
                "pip install 'parlour[rl]'"
            ) from None
        self._spiel = openspiel.load(game.name, players=game.players, rules=game.preset)
        if self._spiel.pgame.rules != game.rules:
            # The OpenSpiel game is loaded by preset name; house rules would silently differ.
            raise RulesError("openspiel-ismcts plays a rule preset as it is, without overrides")
        evaluator = _PolicyRollouts(game, random.Random(rng.getrandbits(63)))
        self._bot = ismcts.ISMCTSBot(
            self._spiel,
            evaluator,
            uct_c=float(params.get("c", 2.0)),
            max_simulations=int(params.get("simulations", 100)),
            random_state=np.random.RandomState(rng.getrandbits(32)),
        )
        self._encoding = self._spiel.encoding

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        # A state consistent with the view, never the true one; the search redraws its own.
        sampled = self.game.sample_state(view, GameRng(self.rng.getrandbits(63)))
        action = self._bot.step(self._spiel.new_initial_state(sampled))
        move = self._encoding.move_of(action, sampled)
        return next((m for m in legal if m == move), move)


class _PolicyRollouts:
    """An OpenSpiel evaluator: play the state out with the game's playout policy (uniformly random
    moves where it has none), +1 to the winners and -1 to the others; a uniform prior."""

    def __init__(self, game: Game[Any, Any], rng: random.Random, max_moves: int = 5000) -> None:
        self.policy = search_help(game.name).policy
        self.rng = rng
        self.max_moves = max_moves

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        from parlour.adapters.encoding import outcome_rewards

        ps = state.pstate.copy()
        for _ in range(self.max_moves):
            if ps.is_over:
                return np.array(outcome_rewards(ps))
            if self.policy is not None:
                ps.apply(self.policy(ps, self.rng))
            else:
                ps.apply(self.rng.choice(ps.legal_moves()))
        return np.zeros(ps.game.players)  # cut off: nobody's game

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


REFERENCE_BOTS: dict[str, Any] = {
    ClairvoyantMCTS.name: ClairvoyantMCTS,
    OpenSpielISMCTS.name: OpenSpielISMCTS,
}


def is_reference(spec: str) -> bool:
    """Whether a spec names one of the reference players (not a registered bot)."""
    return spec.strip().partition(":")[0] in REFERENCE_BOTS


def make_reference_bot(spec: str, game: Game[Any, Any], seed: int | None = None) -> Any:
    """Build a reference player from its spec, or any registered bot through `make_bot`."""
    name, _, rest = spec.strip().partition(":")
    factory = REFERENCE_BOTS.get(name)
    if factory is None:
        return make_bot(spec, game, seed)
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise RulesError(f"bot parameter {part!r} in {spec!r} is not key=value")
        params[key.strip()] = value.strip()
    return factory(game, random.Random(seed), **params)
