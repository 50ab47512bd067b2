"""Train a small policy on parlour's Gymnasium environment and measure it against `random`.

A linear softmax policy over the masked action space (logits = W · observation + b), trained with
REINFORCE and a running-mean baseline in plain NumPy on one CPU core. The learner sits in seat 0 of
two-player Who's Who Game No. 1 (tricks with a Preference suit) against parlour's `random` bot;
afterwards it plays fresh games greedily (its most probable legal action) and the script prints its
win rate with a 95% Wilson interval, beside `random` against `random` for reference.

    python examples/gymnasium_train.py                    # ~1 minute
    python examples/gymnasium_train.py --episodes 6000 --game whot --rules english
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from parlour.adapters.gymnasium import SeatEnv


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


class LinearPolicy:
    def __init__(self, n_obs: int, n_actions: int, scale: np.ndarray, seed: int) -> None:
        self.w = np.zeros((n_actions, n_obs))
        self.b = np.zeros(n_actions)
        self.scale = scale  # observations divided by their upper bounds, so features are in [0, 1]
        self.rng = np.random.default_rng(seed)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = obs / self.scale
        legal = np.flatnonzero(mask)
        z = self.w[legal] @ x + self.b[legal]
        z -= z.max()
        p = np.exp(z)
        return legal, p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        legal, p = self.probs(obs, mask)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[i])


def episode(env: SeatEnv, policy: LinearPolicy | None, seed: int | None, greedy: bool = False):
    obs, info = env.reset(seed=seed)
    steps = []
    while True:
        mask = info["action_mask"]
        if policy is None:
            action = int(env.action_space.sample(mask))
        else:
            action = policy.act(obs, mask, greedy)
        steps.append((obs, mask, action))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return steps, reward


def train(args: argparse.Namespace) -> LinearPolicy:
    env = SeatEnv(args.game, players=2, rules=args.rules, opponents=["random"], seat=0)
    env.reset(seed=args.seed)
    scale = np.maximum(env.observation_space.high, 1.0)
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n, scale, args.seed)
    baseline, wins, t0 = 0.0, 0, time.time()
    for ep in range(1, args.episodes + 1):
        steps, reward = episode(env, policy, None)
        wins += reward > 0
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for obs, mask, action in steps:  # REINFORCE: grad log pi(a|s) * advantage
            legal, p = policy.probs(obs, mask)
            g = -p
            g[np.flatnonzero(legal == action)[0]] += 1.0
            x = obs / scale
            policy.w[legal] += args.lr * advantage * np.outer(g, x)
            policy.b[legal] += args.lr * advantage * g
        if ep % args.report == 0:
            print(
                f"episode {ep:5d}: win rate over the last {args.report} "
                f"{wins / args.report:.2f} ({time.time() - t0:.0f}s)",
                flush=True,
            )
            wins = 0
    return policy


def evaluate(args: argparse.Namespace, policy: LinearPolicy | None) -> tuple[int, int]:
    env = SeatEnv(args.game, players=2, rules=args.rules, opponents=["random"], seat=0)
    env.action_space.seed(args.seed + 1)
    wins = 0
    for i in range(args.eval_games):
        _, reward = episode(env, policy, 10_000_000 + i, greedy=True)
        wins += reward > 0
    return wins, args.eval_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="whoswho-tricks")
    ap.add_argument("--rules", default=None)
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--report", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    policy = train(args)
    for who, pol in (("trained policy", policy), ("random", None)):
        w, n = evaluate(args, pol)
        lo, hi = wilson(w, n)
        print(f"{who:>14} vs random: won {w}/{n} = {w / n:.3f}  (95% CI {lo:.3f}–{hi:.3f})")


if __name__ == "__main__":
    main()
