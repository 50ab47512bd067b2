"""OpenSpiel's ISMCTS bot plays parlour's Whot! against parlour's `hint` bot.

parlour registers every game with OpenSpiel (`parlour_whot`, …); OpenSpiel's own ISMCTS searches
information sets, drawing worlds with `resample_from_infostate` (parlour's `sample_state`) and
evaluating leaves with rollouts by parlour's `greedy` bots (`BotRolloutEvaluator`; OpenSpiel's
`RandomRolloutEvaluator` works too, but random Whot! games take thousands of moves to end).

    python examples/openspiel_ismcts.py                      # 10 games, 50 simulations a move
    python examples/openspiel_ismcts.py --games 40 --simulations 300 --opponent greedy

Prints every game and ISMCTS's win rate with a 95% Wilson interval. Seats alternate.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from open_spiel.python.algorithms import ismcts

from parlour.adapters import openspiel as osp
from parlour.bots import bot_names, make_bot


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=50)
    ap.add_argument("--rules", default="nigerian")
    ap.add_argument("--opponent", default="hint" if "hint" in bot_names("whot") else "greedy")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = osp.load("whot", players=2, rules=args.rules, seed=args.seed)
    print(f"{game}: {game.num_distinct_actions()} actions; ISMCTS vs {args.opponent}")
    wins, t0 = 0, time.time()
    for g in range(args.games):
        me = g % 2
        bot = ismcts.ISMCTSBot(
            game,
            osp.BotRolloutEvaluator("greedy", seed=args.seed + g),
            uct_c=2.0,
            max_simulations=args.simulations,
            random_state=np.random.RandomState(args.seed + g),
        )
        other = make_bot(args.opponent, game.pgame, seed=args.seed + g)
        state = osp.play_against(game, bot, me, other)
        won = state.returns()[me] > 0
        wins += won
        print(
            f"game {g + 1}: ISMCTS in seat {me} {'won' if won else 'lost'} after "
            f"{len(state.history())} moves ({time.time() - t0:.0f}s)",
            flush=True,
        )
    lo, hi = wilson(wins, args.games)
    print(f"ISMCTS won {wins}/{args.games} = {wins / args.games:.2f} (95% CI {lo:.2f}–{hi:.2f})")


if __name__ == "__main__":
    main()
