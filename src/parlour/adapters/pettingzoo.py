"""PettingZoo AEC environments for every parlour game.

    from parlour.adapters import pettingzoo as pz
    env = pz.env("whot", rules="nigerian", players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        done = termination or truncation
        env.step(None if done else choose(obs["observation"], obs["action_mask"]))

Agents are `player_0` … `player_{n-1}` (seat numbers). Each observation is a dict:
`"observation"` — the game encoding's float32 vector of that agent's view (never more), and
`"action_mask"` — int8, 1 at the id of each legal move (all zeros when it is not that agent's move).
The action space is `Discrete(encoding.num_actions)`. An agent keeps the turn for as long as the
game says (a Whot! turn of several cards). Rewards come at the end only: +1 to each winner, -1 to
every other player. An action that is not legal raises `IllegalMove` (a ValueError) naming the legal
ids; it is never replaced by another move, and the game is unchanged.
"""

from __future__ import annotations

import functools
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import parlour
from parlour.core import State
from parlour.core.rng import fresh_seed

from ._render import render_text
from .encoding import Encoding, encoding_for, outcome_rewards

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
        self.moves = 0

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
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        st = self.state
        obs = self.encoding.observe(st.view(seat))
        if st.is_over or st.to_play != seat:
            mask = np.zeros(self.encoding.num_actions, np.int8)
        else:
            mask = self.encoding.legal_mask(st.legal_moves()).astype(np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise parlour.IllegalMove(f"{agent} is to move: give an action id, not None")
        st = self.state
        move = self.encoding.move_of(action, st)  # IllegalMove (ValueError) when not legal
        self._cumulative_rewards[agent] = 0.0
        st.apply(move)
        self.moves += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if st.is_over:
            for a, r in zip(self.possible_agents, outcome_rewards(st), strict=True):
                self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if st.is_over or self.truncations[agent]:
            # every agent now steps once with None, in seat order, to leave the game
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._agent_to_move()
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


def raw_env(game: str, **kwargs: Any) -> ParlourAECEnv:
    """The environment itself (no wrapper)."""
    return ParlourAECEnv(game, **kwargs)


def env(game: str, **kwargs: Any) -> OrderEnforcingWrapper:
    """The environment in PettingZoo's order-enforcing wrapper (reset before step, etc.).

    `kwargs`: `players`, `rules` (preset name, house-rules path or options), `render_mode`
    ("ansi" or "human"), `max_moves` (truncate after this many moves), and any rule option.
    """
    return OrderEnforcingWrapper(raw_env(game, **kwargs))
