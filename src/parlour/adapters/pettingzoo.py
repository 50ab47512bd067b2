"""PettingZoo AEC environments for every parlour game.

    from parlour.adapters import pettingzoo as pz
    env = pz.env(GAME, rules=PRESET, players=4)   # GAME: a name of parlour.games()
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        done = termination or truncation
        env.step(None if done else choose(obs["observation"], obs["action_mask"]))

Agents are `player_0` … `player_{n-1}` (seat numbers). Each observation is a dict:
`"observation"` — the game encoding's float32 vector of that agent's view (never more), and
`"action_mask"` — int8, 1 at the id of each legal move (all zeros when it is not that agent's move).
The action space is `Discrete(encoding.num_actions)`. An agent keeps the turn for as long as the
game says (a turn of several cards). Rewards come at the end only: +1 to each winner, -1 to
every other player. An action that is not legal raises `IllegalMove` (a ValueError) naming the legal
ids; it is never replaced by another move, and the game is unchanged.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any, ClassVar

import parlour
from parlour.core import State
from parlour.core.rng import fresh_seed
from parlour.extras import needs

from ._render import render_text
from .encoding import (
    _NUMPY_INTEGERS,
    Encoding,
    TableEncoding,
    TableObserver,
    encoding_for,
    outcome_rewards,
    read_only,
)

with needs("rl", "parlour's RL adapters"):
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable

__all__ = ["ParlourAECEnv", "env", "raw_env"]


class ParlourAECEnv(AECEnv):  # type: ignore[misc]
    """One parlour game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "parlour_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        rules: Any = None,
        render_mode: str | None = None,
        max_moves: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = parlour.make(game, players=players, rules=rules, **options)
        self.encoding: Encoding = encoding_for(self.game)
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.name = f"parlour_{game}_v0"
        n = self.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.encoding
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    enc.observation_low, enc.observation_high, enc.observation_shape, np.float32
                ),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {
            a: obs_space if i == 0 else _copy_space(obs_space)
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self._seeder = random.Random(fresh_seed())
        self.state: State = self.game.new_game(seed=0)
        self._table: TableObserver | None = None
        # (read-only: the same zeros are every waiting agent's mask)
        self._no_moves = read_only(np.zeros(enc.num_actions, np.int8))
        self._ended = False
        self.moves = 0
        # A table encoding's moves by id, for `step`'s lookup; the wrapper, if any, for `step`
        # to tell it a step was taken.
        self._moves = enc.moves if isinstance(enc, TableEncoding) else None
        self._order: _OrderEnforcing | None = None

    def __str__(self) -> str:
        return self.name

    # --- the PettingZoo API ----------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` fixes it and every later unseeded reset; `options` may carry
        `setup` (the game's `new_game` setup, e.g. a chosen position)."""
        if seed is not None:
            self._seeder = random.Random(seed)
        setup = dict((options or {}).get("setup", {}))
        self.state = self.game.new_game(seed=self._seeder.getrandbits(63), **setup)
        # every seat's observation, kept and updated from what changed
        self._table = self.encoding.table_observer(self.state)
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ended = False
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation (a new vector each call) and the legal moves' mask: a new
        array for the agent to move; every waiting agent's all-zero mask is one read-only array
        (a copy each call cost 0.5 µs, more for a game of tens of thousands of ids)."""
        seat = self._seat[agent]
        st = self.state
        table = self._table
        if table is None:  # observed before the first reset (the wrapper allows it raw)
            table = self._table = self.encoding.table_observer(st)
        # (to_play is None once the game is over)
        mask = self.encoding.mask(st.legal_moves()) if st.to_play == seat else self._no_moves
        return {"observation": table.observe(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # (`AECEnv.last` with `observe` written in: one call fewer, every step)
        agent = self.agent_selection
        obs = None
        if observe:
            st = self.state
            table = self._table
            if table is None:
                table = self._table = self.encoding.table_observer(st)
            # (the agent selected is the one to move until the game ends or is cut short)
            mask = self._no_moves if self._ended else self.encoding.mask(st.legal_moves())
            obs = {"observation": table.observe(self._seat[agent]), "action_mask": mask}
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        order = self._order
        if order is not None:  # (what the wrapper's step sets, when its step is this one)
            order._has_updated = True
        agent = self.agent_selection
        if self._ended:  # (every agent is terminated or truncated, or none is)
            if not self.agents:  # (the wrapper's own check, when its step is this one)
                EnvLogger.warn_step_after_terminated_truncated()
                return
            self._was_dead_step(action)
            return
        if action is None:
            raise parlour.IllegalMove(f"{agent} is to move: give an action id, not None")
        st = self.state
        # the id's move (IllegalMove: not an id at all): a table's lookup written out for an int
        # or a NumPy integer, as `TableEncoding.move_of` does it (one call fewer)
        moves = self._moves
        cls = action.__class__
        if moves is not None and (cls is int or cls in _NUMPY_INTEGERS):
            a = int(action)
            move = moves[a] if 0 <= a < len(moves) else self.encoding.move_of(a)
        else:
            move = self.encoding.move_of(action)
        try:
            st.apply(move)  # the game's gate: a refused move changes nothing
        except parlour.IllegalMove:
            self.encoding.move_of(action, st)  # raises IllegalMove naming the legal ids
            raise
        self.moves += 1
        # Rewards are 0 until the end, so until then neither this step's rewards nor the agent's
        # cumulative reward need writing again (PettingZoo's usual step zeroes both every time).
        p = st.to_play  # (None once the game is over)
        if p is not None and (self.max_moves is None or self.moves < self.max_moves):
            self.agent_selection = self.possible_agents[p]
        else:
            self._end()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        text = render_text(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # --- helpers ---------------------------------------------------------------------------------
    def _end(self) -> None:
        """The game is over (the rewards) or cut short by `max_moves`: every agent now steps once
        with None, in seat order, to leave the game."""
        st = self.state
        if st.is_over:
            for a, r in zip(self.possible_agents, outcome_rewards(st), strict=True):
                self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.truncations = dict.fromkeys(self.agents, True)
        self._ended = True
        self.agent_selection = self.agents[0]

    def _agent_to_move(self) -> str:
        p = self.state.to_play
        return self.possible_agents[0 if p is None else p]


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    """An equal but distinct space object (each agent seeds its own)."""
    return spaces.Dict({k: _copy_box(v) for k, v in space.spaces.items()})


@functools.singledispatch
def _copy_box(space: spaces.Space[Any]) -> spaces.Space[Any]:
    raise TypeError(space)


@_copy_box.register
def _(space: spaces.Box) -> spaces.Space[Any]:
    return spaces.Box(space.low, space.high, space.shape, space.dtype)


class _OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the same checks, but reaching the environment
    directly for what every turn reads: the base class's `last` reads five attributes, and the
    agent iterator two, through the wrapper's `__getattr__` (a failed lookup, then a forward),
    which took as long as the environment's whole step."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # Once reset, `last` and `step` are the environment's own, called without a frame of
        # the wrapper's (a fifth of a step's overhead): the environment's step sets the flag the
        # agent iterator checks and warns of a step after the end, as the wrapper's did.
        env = self.env
        env._order = self
        self.last = env.last  # type: ignore[method-assign]
        self.step = env.step  # type: ignore[method-assign]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # (before the first reset only: `reset` puts the environment's own in its place)
        if not self._has_reset:  # what the wrapper's attribute check says before a reset
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        # (before the first reset only, as `last`)
        super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _AgentIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> Iterator[str]:
        return _agents(self.env, self.max_iter)


def _agents(wrapper: _OrderEnforcing, max_iter: int) -> Iterator[str]:
    """The order-enforcing agent iterator's checks, reading the environment itself: a generator,
    since resuming one costs less than calling a Python `__next__` through the type's slot (0.2
    to 0.3 µs of a 10 µs step, docs/adapters.md "Speed"). Like every generator, it ends for good:
    a new loop over `agent_iter()` after a reset starts a new one."""
    env = wrapper.env
    while env.agents and max_iter > 0:
        max_iter -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        yield env.agent_selection


def raw_env(game: str, **kwargs: Any) -> ParlourAECEnv:
    """The environment itself (no wrapper)."""
    return ParlourAECEnv(game, **kwargs)


def env(game: str, **kwargs: Any) -> OrderEnforcingWrapper:
    """The environment in PettingZoo's order-enforcing wrapper (reset before step, etc.).

    `kwargs`: `players`, `rules` (preset name, house-rules path or options), `render_mode`
    ("ansi" or "human"), `max_moves` (truncate after this many moves), and any rule option.
    """
    return _OrderEnforcing(raw_env(game, **kwargs))
