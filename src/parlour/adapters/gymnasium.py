"""A Gymnasium single-agent environment: one seat learns, parlour bots play the other seats.

    from parlour.adapters.gymnasium import SeatEnv
    env = SeatEnv(GAME, rules=PRESET, players=3, opponents=["hint", "random"])
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])      # any legal action
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The observation is the game encoding's float32 vector of the learning seat's view (a `Box`); the
action space is `Discrete(encoding.num_actions)`. `info["action_mask"]` (int8) marks the legal ids,
and `env.action_masks()` returns it as booleans (the MaskablePPO convention). After each action the
bots move until it is the learner's turn again or the game ends. The reward is 0 until the end,
then +1 if the learner won and -1 if not.

An action that is not legal: with `illegal="lose"` (the default, so that Gymnasium's `check_env`,
which steps unmasked random actions, runs) it ends the episode at once with reward -1 and
`info["illegal"]` saying why; with `illegal="raise"` it raises `IllegalMove` and changes nothing. It
is never replaced by a legal move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import parlour
from parlour.bots import Bot, make_bot
from parlour.core import IllegalMove, State
from parlour.core.registry import games
from parlour.core.rng import fresh_seed
from parlour.extras import needs

from ._render import render_text
from .encoding import FloatArray, Observer, encoding_for, outcome_rewards

with needs("rl", "parlour's RL adapters"):
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.envs.registration import register, registry

__all__ = ["SeatEnv", "register_envs"]


class SeatEnv(gymnasium.Env[FloatArray, np.int64]):
    """One seat of a parlour game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int | None = None,
        rules: Any = None,
        opponents: Sequence[str] = ("random",),
        seat: int | None = 0,
        illegal: str = "lose",
        max_moves: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """`opponents`: bot specs (`random`, `greedy`, `hint`, `ismcts:iterations=200`, …) for the
        other seats in seat order after the learner's, one per seat or one for all. `seat`: the
        learner's seat, or None for a random seat each episode. `max_moves`: truncate after this
        many moves (all players' moves)."""
        super().__init__()
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = parlour.make(game, players=players, rules=rules, **options)
        n = self.game.players
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(
                f"{n} players need {n - 1} opponents (or one for all), not {len(specs)}"
            )
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1} or None")
        self.opponent_specs = specs
        for spec in specs:  # fail now, not at the first reset, on a bot name that does not exist
            make_bot(spec, self.game, seed=0)
        self.fixed_seat = seat
        self.seat = seat or 0
        self.illegal = illegal
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.encoding = enc = encoding_for(self.game)
        self.observation_space = spaces.Box(
            enc.observation_low, enc.observation_high, enc.observation_shape, np.float32
        )
        self.action_space = spaces.Discrete(enc.num_actions)
        self.state: State = self.game.new_game(seed=fresh_seed())
        # The learner's observer, told of every move (`_bots_play`): one that updates move by
        # move then makes one move's update each time, not the learner's and every opponent's
        # move at once.
        self.observer: Observer = enc.seat_follower(self.state, self.seat)
        self.bots: dict[int, Bot] = {}
        self.moves = 0

    # --- the Gymnasium API -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """A new game; `options` may carry `setup` (the game's `new_game` setup)."""
        super().reset(seed=seed)
        rng = self.np_random
        setup = dict((options or {}).get("setup", {}))
        n = self.game.players
        while True:
            self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
            others = [(self.seat + k) % n for k in range(1, n)]
            self.bots = {
                q: make_bot(spec, self.game, seed=int(rng.integers(2**63)))
                for q, spec in zip(others, self.opponent_specs, strict=True)
            }
            self.state = self.game.new_game(seed=int(rng.integers(2**63)), **setup)
            self.observer = self.encoding.seat_follower(self.state, self.seat)
            self.moves = 0
            self._bots_play()
            if not self.state.is_over:  # the bots cannot finish before the learner moves, but…
                break
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        st = self.state
        if st.is_over:
            raise IllegalMove("the game is over: call reset()")
        enc = self.encoding
        try:
            move = enc.move_of(action)  # the id's move (IllegalMove: not an id at all)
            try:
                st.apply(move)  # the game's gate: a refused move changes nothing
            except IllegalMove:
                enc.move_of(action, st)  # raises IllegalMove naming the legal ids
                raise
        except IllegalMove as exc:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal"] = str(exc)
            return self._obs(), -1.0, True, False, info
        self.moves += 1
        self._bots_play()
        terminated = st.is_over
        reward = outcome_rewards(st)[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_moves is not None and self.moves >= self.max_moves
        if self.render_mode == "human":
            self.render()
        return self.observer.observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """Booleans, True at each legal action id (none once the game is over)."""
        return self._mask().astype(np.bool_)

    # --- helpers ---------------------------------------------------------------------------------
    def _bots_play(self) -> None:
        st, seat, bots, most = self.state, self.seat, self.bots, self.max_moves
        follow = self.observer.follow
        follow()  # (the learner's move)
        while True:
            p = st.to_play  # (None once the game is over)
            if p is None or p == seat or (most is not None and self.moves >= most):
                return
            bot = bots[p]
            # (a bot that chooses from the legal moves alone is spared building the view)
            st.apply(bot.choose(st.view(p) if bot.reads_view else {}, st.legal_moves()))
            self.moves += 1
            follow()

    def _obs(self) -> FloatArray:
        return self.observer.observe()

    def _mask(self) -> np.ndarray:
        if self.state.is_over:
            return np.zeros(self.encoding.num_actions, np.int8)
        return self.encoding.mask(self.state.legal_moves())

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}


def register_envs() -> list[str]:
    """Register `parlour/<game>-v0` with Gymnasium for every game; returns the ids.

    `gymnasium.make(f"parlour/{GAME}-v0", rules=PRESET, opponents=["hint"])` then works.
    """
    ids = []
    for name in games():
        env_id = f"parlour/{name}-v0"
        if env_id not in registry:
            register(
                env_id, entry_point="parlour.adapters.gymnasium:SeatEnv", kwargs={"game": name}
            )
        ids.append(env_id)
    return ids
