"""Every parlour game as an OpenSpiel Python game, so OpenSpiel's own algorithms run on it.

    import pyspiel
    from parlour.adapters import openspiel
    openspiel.register_all()                       # parlour_<game> for every game
    game = pyspiel.load_game("parlour_" + GAME, {"players": 3, "rules": PRESET})
    game = openspiel.load(GAME, players=3, rules=PRESET, deal=7)   # any rule option

Short names: `parlour_` + the game's name with `-` as `_` (`short_name`). Parameters:
`players` (int), `rules` (a preset name or a house-rules .toml path), `options` (JSON text of rule
options overriding the preset, e.g. `{"deal": 7}`), `seed` (int; -1 draws fresh seeds).

Game type: sequential, imperfect information, general-sum, terminal rewards (+1 to each winner, -1
to every other player). Actions are the game encoding's ids (a fixed `num_distinct_actions`).

**Chance is sampled** (`SAMPLED_STOCHASTIC`): shuffles and draws happen inside the engine's seeded
generator, which each state carries, so a game has no chance nodes. `new_initial_state()` deals a
new game whose seed comes from the game's own generator (seeded by `seed`). A clone carries a copy
of the generator, so a clone played the same way deals the same cards — determinized, as ISMCTS
and MCTS expect. Making every shuffle an explicit chance node would mean chance outcomes over whole
deck orders; sampled chance keeps the engine's real dealing and its speed.

**Information state and observation** are the encoding's tensor of `state.view(player)` (the view
carries the public history a player has seen: played cards, events, tricks, calls); the strings are
the view as compact JSON (the observation string leaves out the event log). The views keep the
public history but not a player's own past hands, so the information state is "what the player
sees now" rather than a strict perfect-recall record; for search (ISMCTS keys on it) that is what
matters. **`resample_from_infostate(player, sampler)`** returns a state drawn by the game's
`sample_state(view, rng)` — a determinization consistent with everything the player has seen —
seeded from the sampler.
"""

from __future__ import annotations

import json
import random
from typing import Any

import parlour
from parlour.bots import Bot, make_bot
from parlour.core import State
from parlour.core.events import view_to_wire
from parlour.core.registry import games
from parlour.core.registry import info as game_info
from parlour.core.rng import GameRng, fresh_seed
from parlour.extras import needs

from ._render import render_text
from .encoding import Encoding, encoding_for, outcome_rewards

with needs("rl", "parlour's RL adapters"):
    import numpy as np
    import pyspiel

__all__ = [
    "BotRolloutEvaluator",
    "ParlourSpielGame",
    "ParlourSpielState",
    "load",
    "play_against",
    "register_all",
    "short_name",
]

#: A bound on game length for OpenSpiel's GameInfo (random card play can run to thousands).
MAX_GAME_LENGTH = 1_000_000
_REGISTERED: dict[str, str] = {}


def short_name(game: str) -> str:
    return "parlour_" + game.replace("-", "_")


def _game_type(name: str) -> pyspiel.GameType:
    gi = game_info(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"parlour {gi.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=gi.max_players,
        min_num_players=gi.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": gi.default_players,
            "rules": gi.default_preset,
            "options": "",
            "seed": -1,
        },
        default_loadable=True,
    )


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A parlour game at one table under one rule set, as an OpenSpiel game."""

    GAME = ""  # the parlour game's name; `register_all` makes one subclass per game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        name = self.GAME
        gi = game_info(name)
        players = int(params.get("players", gi.default_players))
        rules = str(params.get("rules", gi.default_preset))
        options = json.loads(params["options"]) if params.get("options") else {}
        self.pgame = parlour.make(name, players=players, rules=rules, **options)
        self.encoding: Encoding = encoding_for(self.pgame)
        seed = int(params.get("seed", -1))
        self._seeder = random.Random(fresh_seed() if seed < 0 else seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        full = {
            "players": players,
            "rules": rules,
            "options": params.get("options", ""),
            "seed": seed,
        }
        super().__init__(_game_type(name), info, full)

    def new_initial_state(self, pstate: State | None = None) -> ParlourSpielState:
        """A new deal (or, given one, a wrapper around a parlour state of this game)."""
        if pstate is None:
            pstate = self.pgame.new_game(seed=self._seeder.getrandbits(63))
        return ParlourSpielState(self, pstate)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return ViewObserver(self.encoding, with_events=perfect_recall)


class _Held:
    """What a state holds. OpenSpiel's Clone deep-copies a Python state's attributes; this copies
    the parlour state cheaply (`State.copy`) and shares the game and encoding instead of pickling
    them (a sampled-chance OpenSpiel game cannot be pickled)."""

    __slots__ = ("encoding", "game", "pstate")

    def __init__(self, game: ParlourSpielGame, pstate: State) -> None:
        self.game = game
        self.pstate = pstate
        self.encoding = game.encoding

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game, self.pstate.copy())


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state holding a parlour state (`pstate`)."""

    def __init__(self, game: ParlourSpielGame, pstate: State) -> None:
        super().__init__(game)
        self._held = _Held(game, pstate)

    @property
    def pstate(self) -> State:
        return self._held.pstate

    @property
    def encoding(self) -> Encoding:
        return self._held.encoding

    # --- OpenSpiel's state API -------------------------------------------------------------------
    def current_player(self) -> int:
        p = self.pstate.to_play
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        if self.pstate.is_over or player != self.pstate.to_play:
            return []
        return sorted(self.encoding.action_id(m) for m in self.pstate.legal_moves())

    def _apply_action(self, action: int) -> None:
        # a move that is not legal raises IllegalMove and leaves the parlour state unchanged
        self.pstate.apply(self.encoding.move_of(action, self.pstate))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.encoding.move_of(action))

    def is_terminal(self) -> bool:
        return self.pstate.is_over

    def returns(self) -> list[float]:
        if not self.pstate.is_over:
            return [0.0] * self.pstate.game.players
        return outcome_rewards(self.pstate)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> ParlourSpielState:
        """A state the player cannot tell from this one, drawn by the game's `sample_state`."""
        seed = int(probability_sampler() * 2**53)
        view = self.pstate.view(player_id)
        sampled = self.pstate.game.sample_state(view, GameRng(seed))
        return ParlourSpielState(self._held.game, sampled)

    def __str__(self) -> str:
        return render_text(self.pstate)


class ViewObserver:
    """OpenSpiel's PyObserver over a player's view: `tensor` is the encoding's observation."""

    def __init__(self, encoding: Encoding, with_events: bool) -> None:
        self.encoding = encoding
        self.with_events = with_events
        self.tensor = np.zeros(encoding.observation_shape, np.float32)
        layout = getattr(encoding, "layout", None)
        self.dict = layout.split(self.tensor) if layout is not None else {"view": self.tensor}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        self.tensor[:] = self.encoding.observe(state.pstate.view(player))

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        view = state.pstate.view(player)
        if not self.with_events:
            view.pop("events", None)
        return json.dumps(view_to_wire(view), separators=(",", ":"), sort_keys=True)


class BotRolloutEvaluator:
    """An OpenSpiel MCTS/ISMCTS evaluator that plays a state out with parlour bots.

    OpenSpiel's `RandomRolloutEvaluator` works too, but random card play is slow to end (a random
    two-player card game with pick cards can run thousands of moves); rollouts by `greedy` bots end
    in tens of moves and run on the engine directly, without OpenSpiel's per-move overhead. Each
    rollout bot decides from its own view, as parlour bots always do. A rollout cut off at
    `max_moves` scores 0 for everyone. `prior` is uniform over the legal actions.
    """

    def __init__(
        self, bot: str = "greedy", n_rollouts: int = 1, seed: int = 0, max_moves: int = 2000
    ) -> None:
        self.spec = bot
        self.n_rollouts = n_rollouts
        self.max_moves = max_moves
        self._rng = random.Random(seed)
        self._bots: dict[Any, list[Bot]] = {}

    def _bots_for(self, game: Any) -> list[Bot]:
        got = self._bots.get(game)
        if got is None:
            got = self._bots[game] = [
                make_bot(self.spec, game, seed=self._rng.getrandbits(63))
                for _ in range(game.players)
            ]
        return got

    def evaluate(self, state: ParlourSpielState) -> np.ndarray:
        ps0 = state.pstate
        bots = self._bots_for(ps0.game)
        total = np.zeros(ps0.game.players)
        for _ in range(self.n_rollouts):
            ps = ps0.copy()
            for _ in range(self.max_moves):
                p = ps.to_play
                if p is None:
                    break
                ps.apply(bots[p].choose(ps.view(p), ps.legal_moves()))
            if ps.is_over:
                total += outcome_rewards(ps)
        return total / self.n_rollouts

    def prior(self, state: ParlourSpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def register_all() -> list[str]:
    """Register every parlour game with OpenSpiel (idempotent); returns the short names."""
    for name in games():
        sn = short_name(name)
        if sn in _REGISTERED:
            continue

        # A class per game, not a closure: OpenSpiel keeps the factory until the process exits,
        # and a class (unlike a function) is never freed by refcount during shutdown, which would
        # happen without the GIL and abort the interpreter.
        cls = type(
            "ParlourSpielGame_" + sn,
            (ParlourSpielGame,),
            {"GAME": name, "__module__": __name__},
        )
        pyspiel.register_game(_game_type(name), cls)
        _REGISTERED[sn] = name
    return list(_REGISTERED)


def load(game: str, players: int | None = None, rules: str | None = None, **options: Any) -> Any:
    """Register the games and load one through `pyspiel.load_game` (rule options as keywords)."""
    register_all()
    params: dict[str, Any] = {}
    if players is not None:
        params["players"] = players
    if rules is not None:
        params["rules"] = rules
    seed = options.pop("seed", None)
    if seed is not None:
        params["seed"] = int(seed)
    if options:
        params["options"] = json.dumps(options)
    return pyspiel.load_game(short_name(game), params)


def play_against(game: Any, spiel_bot: Any, seat: int, opponent: Bot) -> Any:
    """Play one game to its end: OpenSpiel's `spiel_bot` (anything with `step(state)`) in `seat`,
    the parlour bot `opponent` in every other seat, deciding from its own view only.
    Returns the finished OpenSpiel state (`returns()`, `history()`)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if p == seat:
            action = spiel_bot.step(state)
        else:
            move = opponent.choose(state.pstate.view(p), state.pstate.legal_moves())
            action = game.encoding.action_id(move)
        state.apply_action(action)
    return state
