"""Random-play speed of parlour's Sorry! beside the PyPI package `apologies` 0.4.3.

    python benchmarks/sorry_speed.py             # about 5 s per figure
    python benchmarks/sorry_speed.py --quick     # a short smoke run

Both engines play complete 4-player games of the regular (standard) game, every decision a
uniformly random legal move, until the time budget of a figure is used up; setting up each game
is timed too. Figures are games per second (and decisions per second).

* parlour: `parlour.make("sorry", players=4)`, `state.legal_moves()` / `state.apply(move)`.
* apologies 0.4.3 needs Python >= 3.12, so it runs in its own environment, `.bench-venv312/`,
  which this script creates when absent (with pyenv's 3.12 or any `python3.12` found) and drives
  through a subprocess with the loop its engine documents: `next_turn()`, then
  `choose_next_move(character, view)` and `execute_move(color, move)` until the turn is done,
  with `RandomInputSource` characters and the global `random` seeded per game.

parlour is measured twice: in this interpreter and, for a like-for-like figure, in the same 3.12
interpreter as apologies (parlour's engine needs only the standard library). The ratio uses the
latter. Nothing is asserted: the script only prints figures. The target (issue 3) is 30×.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".bench-venv312"
APOLOGIES = "apologies==0.4.3"
# parlour's own dependencies, for running it from src/ in the same interpreter as apologies
PARLOUR_DEPS = ("rich>=13.7",)
TARGET = 30.0

PARLOUR_LOOP = r"""
import json, random, sys, time
import parlour

def play(game, seed):
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
        n += 1
    return n

def run(seconds, players, first):
    game = parlour.make("sorry", players=players)
    for i in range(2):
        play(game, 10**9 + i)
    games = moves = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        moves += play(game, first + games)
        games += 1
    return games, moves, time.perf_counter() - start
"""

APOLOGIES_LOOP = r"""
import json, random, sys, time
from apologies.engine import Character, Engine
from apologies.game import GameMode
from apologies.source import RandomInputSource

def play(seed, players):
    random.seed(seed)
    engine = Engine(
        mode=GameMode.STANDARD,
        characters=[Character(f"p{i}", RandomInputSource()) for i in range(players)],
    )
    engine.start_game()
    n = 0
    while not engine.completed:
        color, character = engine.next_turn()
        done = False
        while not done:
            view = engine.game.create_player_view(color)
            move = engine.choose_next_move(character, view)
            done = engine.execute_move(color, move)
            n += 1
    return n

def run(seconds, players, first):
    for i in range(2):
        play(10**9 + i, players)
    games = moves = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        moves += play(first + games, players)
        games += 1
    return games, moves, time.perf_counter() - start
"""

MAIN = r"""
seconds, players, first = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
games, moves, elapsed = run(seconds, players, first)
print(json.dumps({"games": games, "moves": moves, "seconds": elapsed,
                  "python": sys.version.split()[0]}))
"""


def find_python312() -> str | None:
    candidates = [
        Path.home() / ".pyenv" / "versions" / "3.12.1" / "bin" / "python",
        *sorted((Path.home() / ".pyenv" / "versions").glob("3.1[2-9]*/bin/python")),
    ]
    for c in candidates:
        if c.exists():
            return str(c)
    for name in ("python3.12", "python3.13"):
        found = shutil.which(name)
        if found:
            return found
    return None


def ensure_venv(venv: Path = VENV) -> Path:
    """The 3.12 environment with apologies, made on first use."""
    python = venv / "bin" / "python"
    if python.exists():
        ok = subprocess.run(
            [str(python), "-c", "import apologies, rich"], capture_output=True, check=False
        )
        if ok.returncode == 0:
            return python
    base = find_python312()
    if base is None:
        raise SystemExit(
            "apologies needs Python >= 3.12 and none was found (try pyenv install 3.12)"
        )
    if not python.exists():
        print(f"creating {venv} with {base} ...", file=sys.stderr)
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
    print(f"installing {APOLOGIES} (and rich) into {venv} ...", file=sys.stderr)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", APOLOGIES, *PARLOUR_DEPS], check=True
    )
    return python


def run_in(
    python: str, loop: str, seconds: float, players: int, parlour_src: bool, first: int = 0
) -> dict[str, float]:
    env = dict(os.environ)
    if parlour_src:
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run(
        [python, "-c", loop + MAIN, str(seconds), str(players), str(first)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"benchmark run failed:\n{out.stderr}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def line(label: str, r: dict[str, float]) -> str:
    gps = r["games"] / r["seconds"]
    mps = r["moves"] / r["seconds"]
    per = r["moves"] / r["games"]
    return (
        f"{label:<38} {gps:>9.1f} games/s {mps:>11.0f} moves/s "
        f"({int(r['games'])} games, {per:.0f} moves/game, python {r['python']})"
    )


def _add(total: dict[str, float] | None, part: dict[str, float]) -> dict[str, float]:
    if total is None:
        return dict(part)
    for key in ("games", "moves", "seconds"):
        total[key] += part[key]
    return total


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=6.0, help="time budget of each figure")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per figure")
    ap.add_argument("--quick", action="store_true", help="one second per figure, one round")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--venv", type=Path, default=VENV, help="where apologies' environment lives")
    args = ap.parse_args(argv)
    seconds = 1.0 if args.quick else args.seconds
    rounds = 1 if args.quick else max(1, args.rounds)
    py312 = str(ensure_venv(args.venv))

    print(
        f"Sorry! random play, {args.players} players, {seconds:g} s per figure in {rounds} rounds"
    )
    print(f"machine: {platform.machine()} {platform.system()}, {os.cpu_count()} CPUs")
    print("(the figures are interleaved round by round, so a busy machine slows each alike)\n")
    here = same = peer = None
    share = seconds / rounds
    for k in range(rounds):
        first = k * 100_000
        here = _add(here, run_in(sys.executable, PARLOUR_LOOP, share, args.players, True, first))
        same = _add(same, run_in(py312, PARLOUR_LOOP, share, args.players, True, first))
        peer = _add(peer, run_in(py312, APOLOGIES_LOOP, share, args.players, False, first))
    assert here is not None and same is not None and peer is not None
    print(line("parlour (this interpreter)", here))
    print(line("parlour (apologies' interpreter)", same))
    print(line("apologies 0.4.3", peer))
    ratio = (same["games"] / same["seconds"]) / (peer["games"] / peer["seconds"])
    ratio_here = (here["games"] / here["seconds"]) / (peer["games"] / peer["seconds"])
    verdict = "meets" if ratio >= TARGET else "misses"
    print(
        f"\nparlour / apologies: {ratio:.1f}x on the same interpreter "
        f"({ratio_here:.1f}x from this one); target {TARGET:g}x: {verdict}"
    )


if __name__ == "__main__":
    main()
