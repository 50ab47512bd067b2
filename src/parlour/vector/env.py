"""`BatchedVectorEnv`: B games of a game as one Gymnasium vector environment (gymnasium >= 1.0).

    from parlour.vector import BatchedVectorEnv
    env = BatchedVectorEnv("<game>", num_envs=4096, players=2, rules="<preset>")
    obs, info = env.reset(seed=1)
    while training:
        actions = policy(obs, info["action_mask"])       # (B,) ids, legal per the mask
        obs, rewards, terminated, truncated, info = env.step(actions)

It drives the game's batched engine (its manifest's `batched`, built by `parlour.vector.batched`)
and knows no game itself. Every seat plays through the same environment: sub-environment i is one
game, and the action given for it is the move of whoever is to move there (`info["to_play"]`, the
seat the observation was made for). So self-play needs nothing more; a learner that plays one
seat against fixed opponents answers for the other seats itself.

* Observation: the game encoding's float32 vector of the player to move's view, seats relative to
  that player (the engine's `observe`); once a game is over, the view of the player who moved
  last.
* Action: `Discrete(num_actions)` per game, the encoding's ids (`single_action_space`);
  `action_space` is the batch (`MultiDiscrete`). `info["action_mask"]` (B, num_actions) bool
  marks the legal ids. An illegal action raises ValueError and changes nothing.
* Reward: 0 until a game ends; then, for the seat that made the last move, +1 if it is among the
  winners and -1 if not. `info["rewards"]` (B, players) gives every seat's (+1 winners, -1 the
  others, as `outcome_rewards`), `info["mover"]` the seat that moved.
* Termination: the game is over. Truncation: `max_moves` moves were made in the game (if set).
* Autoreset (`metadata["autoreset_mode"]`): NEXT_STEP (default, Gymnasium's), SAME_STEP (the
  final observation and info go to `info["final_obs"]` / `info["final_info"]`) or DISABLED (call
  `reset(options={"reset_mask": mask})`).
* Seeds: `reset(seed=s)` starts a stream of game seeds `first, first + 1, …` with `first` drawn
  from a generator seeded by s; games take them in the order they start. `info["seed"]` is each
  game's seed: `parlour.make(game, players, rules).new_game(seed=...)` replays it exactly.
  `reset(options={"seeds": [...]})` deals the given seeds instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .dealer import Dealer
from .protocol import BatchedGame

__all__ = ["BatchedVectorEnv"]

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


class BatchedVectorEnv(VectorEnv[F32, I64, npt.NDArray[Any]]):
    """B games of one game stepped together (see the module docstring)."""

    def __init__(
        self,
        game: str,
        num_envs: int = 1024,
        players: int | None = None,
        rules: Any = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_moves: int | None = None,
        deal_ahead: int | None = None,
    ) -> None:
        """`deal_ahead`: games dealt at a time for autoresets (default: num_envs, at most 1024;
        see `Dealer`)."""
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_moves is not None and max_moves < 1:
            raise ValueError("max_moves must be at least 1")
        from . import batched

        self.batch: BatchedGame = batched(game, players, rules)
        self.num_envs = num_envs
        self.players = self.batch.players
        self.max_moves = max_moves
        self.autoreset_mode = (
            autoreset_mode
            if isinstance(autoreset_mode, AutoresetMode)
            else AutoresetMode(autoreset_mode)
        )
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        low, high = self.batch.observation_bounds()
        self.single_observation_space = spaces.Box(low, high, low.shape, np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.deal_ahead = deal_ahead or min(num_envs, 1024)
        self.state: Any = self.batch.empty(0)
        self._dealer: Dealer | None = None
        self._pending_reset = np.zeros(num_envs, np.bool_)  # NEXT_STEP: reset at the next step

    # --- the Gymnasium API -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        """New games in every sub-environment, or (`options["reset_mask"]`) in those selected.

        `options["seeds"]`: the seeds of the games to deal (one per game reset), instead of the
        next ones of the stream."""
        super().reset(seed=seed)
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        seeds = options.pop("seeds", None)
        if options:
            raise ValueError(f"unknown reset options: {', '.join(options)}")
        b = self.num_envs
        if mask is None:
            games = np.arange(b)
        else:
            mask = np.asarray(mask)
            if mask.shape != (b,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({b},)")
            if self.state.batch_size != b:
                raise ValueError("reset with a reset_mask needs a first reset of every game")
            games = np.flatnonzero(mask)
        if self._dealer is None or seed is not None or mask is None:
            first = int(self.np_random.integers(2**62))
            self._dealer = Dealer(self.batch, first, self.deal_ahead)
        if seeds is not None:
            seeds = np.asarray(seeds, np.int64).reshape(-1)
            if seeds.size != games.size:
                raise ValueError(
                    f"options['seeds'] gives {seeds.size} seeds for {games.size} games"
                )
            new = self.batch.deal(seeds)
        else:
            new = self._dealer.next(int(games.size))
        if mask is None:
            self.state = new
        else:
            self.state.put(games, new)
        self._pending_reset[games] = False
        mover = np.full(b, -1, np.int64)
        return self.batch.observe(self.state), self._info(mover)

    def step(
        self, actions: Any
    ) -> tuple[
        F32, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        st = self.state
        b = self.num_envs
        if st.batch_size != b:
            raise ValueError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (b,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {b} integer ids, shape ({b},)")
        waiting = self._pending_reset
        if self.autoreset_mode == AutoresetMode.DISABLED and waiting.any():
            raise ValueError(
                "a game is over or truncated: reset it with reset(options={'reset_mask': ...})"
            )
        active = ~waiting
        self.state = st = self.batch.step(st, a, active)
        over = st.done & active
        truncated = np.zeros(b, np.bool_)
        if self.max_moves is not None:
            truncated = ~st.done & active & (st.moves >= self.max_moves)
        seat_rewards = self.batch.rewards(st)
        seat_rewards[~over] = 0.0
        mover = np.where(active, st.mover, -1)
        rewards = np.zeros(b, np.float32)
        rewards[over] = seat_rewards[over, mover[over]]
        finished = over | truncated
        infos: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            restart = np.flatnonzero(waiting)
            if restart.size:
                assert self._dealer is not None
                self._dealer.replace(st, restart)
            self._pending_reset = finished
        elif self.autoreset_mode == AutoresetMode.SAME_STEP:
            done = np.flatnonzero(finished)
            if done.size:
                assert self._dealer is not None
                final_obs = np.full(b, None, dtype=object)
                last = self.batch.observe(st.take(done))
                for k, i in enumerate(done):
                    final_obs[i] = last[k]
                infos["final_obs"] = final_obs
                infos["_final_obs"] = finished.copy()
                infos["final_info"] = self._info(mover, seat_rewards.copy())
                infos["_final_info"] = finished.copy()
                self._dealer.replace(st, done)
                mover = np.where(finished, -1, mover)
                seat_rewards[finished] = 0.0
        else:
            self._pending_reset = finished
        infos.update(self._info(mover, seat_rewards))
        return self.batch.observe(st), rewards, over, truncated, infos

    # --- helpers ---------------------------------------------------------------------------------
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(B, num_actions) bool: the legal actions of the player to move in each game."""
        return self.batch.legal_mask(self.state)

    def _info(
        self, mover: I64, seat_rewards: npt.NDArray[np.float32] | None = None
    ) -> dict[str, Any]:
        st = self.state
        if seat_rewards is None:
            seat_rewards = np.zeros((self.num_envs, self.players), np.float32)
        return {
            "action_mask": self.batch.legal_mask(st),
            "to_play": st.cur.copy(),
            "mover": mover,
            "rewards": seat_rewards,
            "seed": st.seed.copy(),
            "moves": st.moves.copy(),
            "points": np.where(st.done[:, None], st.points, 0).astype(np.int16),
        }
