"""Play parlour games through PettingZoo: every agent picks a random legal action from its mask.

    python examples/pettingzoo_random.py                          # Whot!, Nigerian rules, 4 players
    python examples/pettingzoo_random.py --game sorry --players 3 --games 20

Prints each game's length and rewards, then every agent's wins.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from parlour.adapters import pettingzoo as pz


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="whot")
    ap.add_argument("--rules", default=None)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    kw = {"rules": args.rules} if args.rules else {}
    env = pz.env(args.game, players=args.players, **kw)
    rng = np.random.default_rng(args.seed)
    wins: Counter[str] = Counter()
    env.reset(seed=args.seed)
    print(
        f"{args.game}: {len(env.possible_agents)} agents, "
        f"{env.action_space(env.possible_agents[0]).n} actions, "
        f"observation {env.observation_space(env.possible_agents[0])['observation'].shape}"
    )
    for g in range(args.games):
        env.reset()
        steps = 0
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _info = env.last()
            totals[agent] += reward
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
            steps += 1
        for agent, r in totals.items():
            wins[agent] += r > 0
        print(f"game {g + 1}: {steps} moves, rewards {totals}")
    print("wins:", dict(wins))


if __name__ == "__main__":
    main()
